"""The bookkeeping of a game: every field that changes, and the operations that
change them.

`Books` holds the train cards (R3: deck, discards, market, hands), the ticket decks
(R4, E4) and the tickets held, each seat's wagons, route points, routes and
stations, the turn order (R6, R14, D1), the pending decisions and the history. The
move modules (`ttr_core.engine.moves`) read its fields and change it through these
operations; `GameState` is a `Books` that deals a game and applies actions to it.

What views and legal lists derive from the fields (each seat's tickets with their
completion, the routes still open to each seat, the public figures every view
shares, the public log) is kept here too: the operation that changes an input of
such a cache clears or updates it (`take_route`, `add_tickets`, `place_station`,
`set_status`), and `refresh` rebuilds them all after fields were set directly
(`ttr_core.engine.positions` does that). Fields no cache reads from (hands, piles,
turn order, pending decisions) the moves may change directly.
"""

from __future__ import annotations

import random
from _random import Random as _GeneratorState
from collections import deque
from collections.abc import Sequence
from typing import NamedTuple

from ttr_core.engine.actions import Action, KeepTickets, Payment
from ttr_core.engine.cards import CARD_INDEX, CARD_KINDS, LOCO, CardPiles, shuffle
from ttr_core.engine.compiled import Board, OpenGroup
from ttr_core.engine.connectivity import Connectivity
from ttr_core.engine.decisions import Decision, TunnelPayment
from ttr_core.engine.enums import EndReason, Phase, Status
from ttr_core.engine.facts import LegalFacts, make_facts
from ttr_core.engine.open_routes import close_route, open_route_groups
from ttr_maps.model import Map, Ticket
from ttr_maps.rules import RuleSet

# Enum members as module names: `Phase.OVER` is a Python-level lookup on the enum
# class (about 50 ns in CPython 3.11), and these run on every action.
_SETUP, _OVER, _ACTIVE = Phase.SETUP, Phase.OVER, Status.ACTIVE


class TicketView(NamedTuple):
    """One of my tickets and whether it is complete (R13)."""

    index: int
    ticket: Ticket
    completed: bool


#: The public figures every view shares (see `Books.public_snapshot`).
PublicSnapshot = tuple[
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[Status, ...],
    tuple[int, ...],
    tuple[int, ...],
]

#: Every field of the books, as `Books.__init__` sets them: a copy copies each
#: (`clone`); the compiled build declares them (books.pxd).
FIELDS = (
    "map",
    "board",
    "rule_set",
    "num_players",
    "seed",
    "rng",
    "cards",
    "ticket_deck",
    "long_ticket_deck",
    "out_of_game_tickets",
    "hands",
    "tickets",
    "wagons",
    "route_points",
    "status",
    "owner",
    "networks",
    "station_owner",
    "stations_left",
    "phase",
    "first_player",
    "current",
    "pending",
    "setup_returns",
    "passed",
    "final_queue",
    "end_reason",
    "history",
    "tunnel_reveals",
    "turns",
    "_ticket_views",
    "_snapshot",
    "_open_groups",
    "_open_snapshots",
    "_public_log",
)
#: Fields holding one mutable value per seat: a copy copies each of them.
_PER_SEAT = ("hands", "tickets", "networks", "_open_groups")
#: Containers a copy copies (one level; their items never change in place).
_CONTAINERS = frozenset({list, dict, set, deque})


def copy_random_state(source: random.Random, target: random.Random) -> None:
    """`target.setstate(source.getstate())`: for a plain `random.Random`, through
    CPython's generator (`_random.Random`) and the Gaussian spare directly, without
    `random.Random`'s Python-level wrappers (a copy of a state per playout); a
    subclass, which may keep more state, through its own methods."""
    if type(source) is random.Random:
        _GeneratorState.setstate(target, _GeneratorState.getstate(source))
        target.gauss_next = source.gauss_next
    else:
        target.setstate(source.getstate())


class Books:
    """Everything that changes during a game on one map, for `players` seats."""

    def __init__(
        self, game_map: Map, board: Board, rule_set: RuleSet, players: int, seed: int
    ) -> None:
        # What never changes.
        self.map = game_map
        self.board = board
        #: Every number and switch of the rules this game is played with.
        self.rule_set = rule_set
        self.num_players = players
        self.seed = seed
        self.rng = random.Random(seed)  # the one random source of the game

        # R3: the train cards, shuffled; then the ticket decks (E4: long tickets
        # may form a deck of their own).
        self.cards = CardPiles(self.rng, rule_set.market_size, rule_set.market_locomotive_limit)
        is_long = board.ticket_long if rule_set.long_tickets else None
        order = [t for t in range(len(game_map.tickets)) if not (is_long and is_long[t])]
        shuffle(self.rng, order)
        self.ticket_deck: deque[int] = deque(order)  # the top ticket is on the left
        long_order = [t for t in range(len(game_map.tickets)) if is_long and is_long[t]]
        shuffle(self.rng, long_order)
        self.long_ticket_deck: list[int] = long_order
        #: E4: long tickets not dealt, or returned at setup, leave the game.
        self.out_of_game_tickets: list[int] = []

        # Each seat's part.
        self.hands: list[list[int]] = [[0] * CARD_KINDS for _ in range(players)]
        self.tickets: list[list[int]] = [[] for _ in range(players)]
        self.wagons: list[int] = [rule_set.wagons] * players
        self.route_points: list[int] = [0] * players
        self.status: list[Status] = [Status.ACTIVE] * players
        #: Per route, the seat that owns it (-1: nobody).
        self.owner: list[int] = [-1] * board.num_routes
        #: Per seat, the cities its own routes join (R13), kept up to date.
        self.networks = [Connectivity(board.num_cities) for _ in range(players)]
        #: E1: per city the seat whose station stands there (-1: none); stations left.
        self.station_owner: list[int] = [-1] * board.num_cities
        self.stations_left: list[int] = [rule_set.stations] * players

        # The turn order and what is pending.
        self.phase = Phase.SETUP
        self.first_player = 0
        #: The seat whose turn it is (during setup, the first player).
        self.current = 0
        self.pending: list[Decision] = []
        #: R4: tickets returned at setup, held until every seat has chosen.
        self.setup_returns: dict[int, list[int]] = {}
        #: R6: the seats that passed since the last turn that was not a pass.
        self.passed: set[int] = set()
        #: R14, D1: the seats still to play in the final round, once it began.
        self.final_queue: list[int] | None = None
        self.end_reason: EndReason | None = None
        self.history: list[tuple[int | None, Action]] = []
        #: E2: cards turned up by tunnel claims, by position in `history`.
        self.tunnel_reveals: dict[int, tuple[int, ...]] = {}
        #: Turns played (a turn of several actions counts once).
        self.turns = 0

        # Derived, kept current by the operations below (see the module docstring).
        self._ticket_views: list[tuple[TicketView, ...] | None] = [None] * players
        self._snapshot: PublicSnapshot | None = None
        #: Per seat, the routes open to it, made on first use, then changed in
        #: place by claims.
        self._open_groups: list[list[OpenGroup] | None] = [None] * players
        #: Per seat, a snapshot of `_open_groups` for views; None after a claim.
        self._open_snapshots: list[tuple[OpenGroup, ...] | None] = [None] * players
        self._public_log: list[tuple[int | None, str]] = []

    def clone(self) -> Books:
        """An independent copy, of the same class: every container is copied (each
        seat's too), the random source continues from the same state; the map, the
        board and the rule set are shared (they never change)."""
        twin = type(self).__new__(type(self))
        for name in FIELDS:
            value = getattr(self, name)
            setattr(twin, name, value.copy() if type(value) in _CONTAINERS else value)
        for name in _PER_SEAT:
            per_seat = getattr(twin, name)
            setattr(twin, name, [None if item is None else item.copy() for item in per_seat])
        # Made without seeding (`Random()` would read the system's entropy for
        # a seed that `setstate` then overwrites in full).
        rng = twin.rng = random.Random.__new__(random.Random)
        copy_random_state(self.rng, rng)
        twin.cards = self.cards.copy(rng)
        return twin

    def refresh(self) -> None:
        """Rebuild everything derived from the fields (the networks from `owner`,
        every cache) after fields were set directly."""
        board = self.board
        self.networks = [
            Connectivity.of_routes(
                board.num_cities,
                ((board.route_a[r], board.route_b[r]) for r, h in enumerate(self.owner) if h == s),
            )
            for s in range(self.num_players)
        ]
        players = self.num_players
        self._ticket_views = [None] * players
        self._snapshot = None
        self._open_groups = [None] * players
        self._open_snapshots = [None] * players
        self._public_log = []

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.phase == _OVER

    @property
    def to_move(self) -> int | None:
        """The seat expected to act next: during setup, the first seat still
        choosing tickets; during play, the seat whose turn it is."""
        if self.phase == _OVER:
            return None
        if self.phase == _SETUP:
            return self.pending[0].seat if self.pending else None
        return self.current

    def decision_for(self, seat: int) -> Decision | None:
        for decision in self.pending:
            if decision.seat == seat:
                return decision
        return None

    def tunnel_being_paid(self) -> TunnelPayment | None:
        """E2: the tunnel waiting for its extra cards, if any (it lies face up)."""
        for decision in self.pending:
            if isinstance(decision, TunnelPayment):
                return decision
        return None

    def active_seats(self) -> list[int]:
        return [s for s in range(self.num_players) if self.status[s] == _ACTIVE]

    def claimed_routes(self, seat: int) -> list[int]:
        return [r for r, holder in enumerate(self.owner) if holder == seat]

    def is_ticket_complete(self, seat: int, ticket: int) -> bool:
        """R13: joined by a continuous chain of the seat's own routes."""
        board, network = self.board, self.networks[seat]
        return network.connected(board.ticket_a[ticket], board.ticket_b[ticket])

    def ticket_views(self, seat: int) -> tuple[TicketView, ...]:
        """The seat's tickets with their completion (R13)."""
        views = self._ticket_views[seat]
        if views is None:
            tickets = self.map.tickets
            views = self._ticket_views[seat] = tuple(
                TicketView(t, tickets[t], self.is_ticket_complete(seat, t))
                for t in self.tickets[seat]
            )
        return views

    def public_snapshot(self) -> PublicSnapshot:
        """(owners, wagons, route points, statuses, station owners, stations left) as
        tuples, rebuilt only after a claim, a station or a resignation."""
        snapshot = self._snapshot
        if snapshot is None:
            stations = self.rule_set.stations
            snapshot = self._snapshot = (
                tuple(self.owner),
                tuple(self.wagons),
                tuple(self.route_points),
                tuple(self.status),
                tuple(self.station_owner) if stations else (),
                tuple(self.stations_left) if stations else (),
            )
        return snapshot

    def open_groups(self, seat: int) -> tuple[OpenGroup, ...]:
        """The routes open to `seat` (R9, R11), grouped by shape: a snapshot."""
        snapshot = self._open_snapshots[seat]
        if snapshot is None:
            snapshot = self._open_snapshots[seat] = tuple(self._open_list(seat))
        return snapshot

    def _open_list(self, seat: int) -> list[OpenGroup]:
        groups = self._open_groups[seat]
        if groups is None:
            groups = self._open_groups[seat] = list(
                open_route_groups(
                    self.board, seat, self.owner, self.num_players, self.rule_set.double_routes_from
                )
            )
        return groups

    @property
    def public_log(self) -> list[tuple[int | None, str]]:
        """What everyone saw of each action (see `public_text`): made from `history`
        when first asked for, one entry per action, and kept."""
        log = self._public_log
        history = self.history
        for index in range(len(log), len(history)):
            seat, action = history[index]
            log.append((seat, public_text(action)))
        return log

    def legal_facts(self, seat: int) -> LegalFacts:
        """What `seat`'s legal actions depend on (the same as its view would give)."""
        cards = self.cards
        return make_facts(
            (
                self.rule_set,
                self.board,
                self.phase,
                seat == self.current,
                self.decision_for(seat) if self.pending else None,
                self.hands[seat],
                cards.market,
                cards.can_draw(),
                len(self.ticket_deck),
                self._open_groups[seat] or self._open_list(seat),
                self.wagons[seat],
                self.stations_left[seat],
                self.station_owner if self.rule_set.stations else (),
            )
        )

    # ------------------------------------------------------------ cards (R7-R9)
    def discard(self, cards: Sequence[int]) -> None:
        """Cards to the discard pile, refilling an emptied market (R7, R8)."""
        self.cards.throw(cards)

    def pay(self, seat: int, payment: Payment) -> None:
        """R9: the cards of `payment` leave the seat's hand for the discard pile."""
        hand = self.hands[seat]
        paid = []
        if payment.color is not None:
            card = CARD_INDEX[payment.color]
            hand[card] -= payment.colored
            paid += [card] * payment.colored
        hand[LOCO] -= payment.locos
        paid += [LOCO] * payment.locos
        self.discard(paid)

    def discard_hand(self, seat: int) -> None:
        """D5: the seat's whole hand to the discard pile."""
        hand = self.hands[seat]
        self.discard([card for card, count in enumerate(hand) for _ in range(count)])
        self.hands[seat] = [0] * CARD_KINDS

    # ------------------------------------------------------ routes (R9-R11, R13)
    def take_route(self, seat: int, route: int) -> None:
        """R9, R10: the route is the seat's; wagons spent, points scored at once."""
        board = self.board
        length = board.route_length[route]
        self.owner[route] = seat
        self.wagons[seat] -= length
        self.route_points[seat] += self.rule_set.route_score(length)
        network = self.networks[seat]
        network.join(board.route_a[route], board.route_b[route])
        views = self._ticket_views[seat]
        if views is not None:
            for view in views:
                if not view.completed and self.is_ticket_complete(seat, view.index):
                    self._ticket_views[seat] = None  # R13: the claim completed a ticket
                    break
        self._snapshot = None
        self._open_snapshots = [None] * self.num_players
        close_route(board, self._open_groups, seat, route, self.rule_set.double_routes_from)

    def place_station(self, seat: int, city: int) -> None:
        """E1: the seat's station stands in `city`."""
        self.station_owner[city] = seat
        self.stations_left[seat] -= 1
        self._snapshot = None

    # ------------------------------------------------------ tickets (R4, R12, E4)
    def deal_tickets(self, count: int) -> tuple[int, ...]:
        """The top `count` tickets of the deck (fewer if fewer remain)."""
        deck = self.ticket_deck
        return tuple(deck.popleft() for _ in range(min(count, len(deck))))

    def add_tickets(self, seat: int, tickets: Sequence[int]) -> None:
        """Tickets the seat keeps (R4, R12)."""
        self.tickets[seat].extend(tickets)
        self._ticket_views[seat] = None

    def return_tickets(self, tickets: Sequence[int], leave: bool = False) -> None:
        """R4/R12: returned tickets go under the ticket deck in order; E4: returned
        long tickets leave the game; P3 (`leave`): they all do."""
        is_long = self.board.ticket_long if self.rule_set.long_tickets else None
        for ticket in tickets:
            if leave or (is_long and is_long[ticket]):
                self.out_of_game_tickets.append(ticket)
            else:
                self.ticket_deck.append(ticket)

    def release_setup_returns(self) -> None:
        """R4: the tickets held back at setup go under the deck, in seat order (P3:
        with `setup_returns_leave`, they leave the game)."""
        leave = self.rule_set.setup_returns_leave
        for seat in sorted(self.setup_returns):
            self.return_tickets(self.setup_returns[seat], leave)
        self.setup_returns.clear()

    # --------------------------------------------------- turn order (R6, R14, D1)
    def end_turn(self, seat: int, passed: bool = False) -> None:
        """`seat`'s turn is over. R6: a pass streak by every active player ends the
        game; any other turn breaks the streak. R14: a turn ending with few wagons
        starts the final round; the final round's last turn ends the game."""
        self.turns += 1
        if passed:
            self.passed.add(seat)
            if self.everyone_passed():
                self.finish(EndReason.ALL_PASSED)  # R6
                return
        elif self.passed:
            self.passed.clear()
        queue = self.final_queue
        if queue is not None:
            if queue and queue[0] == seat:
                queue.pop(0)
            if not queue:
                self.finish(EndReason.FINAL_ROUND)  # R14
                return
        elif self.wagons[seat] <= self.rule_set.final_round_wagons:
            self._start_final_round(seat)
        self.pass_turn_on(seat)

    def everyone_passed(self) -> bool:
        """R6: every active player passed on their last turn."""
        return self.passed.issuperset(self.active_seats())

    def pass_turn_on(self, seat: int) -> None:
        """The next turn after `seat`'s: the next in the final round (D1), or the
        next active seat."""
        self.current = self.final_queue[0] if self.final_queue else self.next_active_after(seat)

    def _start_final_round(self, trigger: int) -> None:
        """R14, D1: every other active player once in seat order, then the
        triggering player once more. Triggered only once."""
        players = self.num_players
        others = [
            (trigger + k) % players
            for k in range(1, players)
            if self.status[(trigger + k) % players] == Status.ACTIVE
        ]
        self.final_queue = [*others, trigger]

    def next_active_after(self, seat: int) -> int:
        for k in range(1, self.num_players + 1):
            candidate = (seat + k) % self.num_players
            if self.status[candidate] == _ACTIVE:
                return candidate
        return seat

    def set_status(self, seat: int, status: Status) -> None:
        """D5: the seat resigned or was removed."""
        self.status[seat] = status
        self._snapshot = None

    def abandon(self, decision: Decision) -> None:
        """D5, R12, E2: what a decision nobody will answer held goes back: tickets
        under the ticket deck (long ones leave the game, E4), turned-up cards to the
        discard pile."""
        if decision.held_tickets:
            self.return_tickets(decision.held_tickets)
        if decision.held_cards:
            self.discard(decision.held_cards)

    def finish(self, reason: EndReason) -> None:
        """The game ends: decisions still pending are abandoned, the tickets held
        back at setup go back (R4)."""
        self.phase = Phase.OVER
        self.end_reason = reason
        for decision in self.pending:
            self.abandon(decision)
        self.pending.clear()
        self.release_setup_returns()


def public_text(action: Action) -> str:
    """How an action looks to the other players: what was kept is a count (R5)."""
    if isinstance(action, KeepTickets):
        return f"kept {len(action.indices)} ticket(s)"
    return str(action)
