"""The game state: the one thing that changes, and only through `apply(action)`.

The state holds everything, hidden information included (hands, ticket offers,
deck order). Players and bots see a `PlayerView` (`state.view(seat)`), never the
state itself (R5, D6).

>>> from ttr_maps import load_map
>>> game = GameState(load_map("north_america"), players=2, seed=7)
>>> game.phase, len(game.legal_actions(0)) > 0
('setup', True)
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Any

from ttr_core.engine.actions import (
    Action,
    BuildStation,
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    Pass,
    Payment,
    Remove,
    Resign,
)
from ttr_core.engine.cards import CARD_INDEX, CARD_KINDS, LOCO, CardPiles
from ttr_core.engine.compiled import GRAY_INDEX, board_for
from ttr_core.engine.connectivity import Connectivity
from ttr_core.engine.decisions import ChooseTickets, Decision, SecondCard, TunnelPayment
from ttr_core.engine.enums import EndReason, Phase, Status
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.legal import (
    OpenGroup,
    OpenGroups,
    is_open_to,
    legal_actions,
    open_route_groups,
    turn_actions,
)
from ttr_core.engine.moves.draws import draw_first_card, draw_second_card
from ttr_core.engine.moves.tickets import abandon_tickets, draw_tickets, keep_tickets
from ttr_core.engine.moves.tunnels import abandon_tunnel, dig_tunnel, pay_tunnel
from ttr_core.engine.result import GameResult, score_game
from ttr_core.engine.view import PlayerView, TicketView, public_text, view_of
from ttr_maps.model import Map
from ttr_maps.rules import BASE, RuleSet, rules_for

# The base rules' numbers under their old names; a game reads its `rule_set`.
MIN_PLAYERS, MAX_PLAYERS = BASE.min_players, BASE.max_players
STARTING_CARDS = BASE.starting_cards
STARTING_TICKETS = BASE.setup_tickets
STARTING_KEEP = BASE.setup_keep
TICKETS_DRAWN = BASE.tickets_drawn
TICKETS_KEEP = BASE.tickets_keep
FINAL_ROUND_WAGONS = BASE.final_round_wagons
TUNNEL_REVEAL = BASE.tunnel_reveal

# The old names of the enum values (`ttr_core.engine.enums`), kept for existing code.
ACTIVE, RESIGNED, REMOVED = Status.ACTIVE, Status.RESIGNED, Status.REMOVED
SETUP, PLAYING, OVER = Phase.SETUP, Phase.PLAYING, Phase.OVER
END_FINAL_ROUND, END_ALL_PASSED, END_ONE_LEFT = (
    EndReason.FINAL_ROUND,
    EndReason.ALL_PASSED,
    EndReason.ONE_LEFT,
)


class GameState:
    """A game of Ticket to Ride in progress on one map, for 2-5 seats (R1).

    `rules` is a rule-set name ("base", "europe": the named set with the map's
    `settings`), a `RuleSet` (used as given), or None for the map's own rules.
    """

    def __init__(
        self, game_map: Map, players: int, seed: int, rules: str | RuleSet | None = None
    ) -> None:
        board = self.board = board_for(game_map)
        # The board's own map has its rule sets made once; an equal map (the board is
        # shared) may have other `settings`.
        self.rule_set: RuleSet = (
            board.rule_set(rules) if board.map is game_map else rules_for(game_map, rules)
        )
        rule_set = self.rule_set
        if not rule_set.min_players <= players <= rule_set.max_players:
            raise ValueError(
                f"R1: a game has {rule_set.min_players} to {rule_set.max_players} players, "
                f"not {players}"
            )
        self.map = game_map
        self.num_players = players
        self.seed = seed
        #: The rule set's name ("base" or "europe"); `rule_set` holds its values.
        self.rules: str = rule_set.name
        self.rng = random.Random(seed)  # the one random source of the game

        self.cards = CardPiles(self.rng, rule_set.market_size, rule_set.market_locomotive_limit)
        # E4: long tickets may form a deck of their own.
        is_long = self.board.ticket_long if rule_set.long_tickets else None
        order = [t for t in range(len(game_map.tickets)) if not (is_long and is_long[t])]
        self.rng.shuffle(order)
        self.ticket_deck: deque[int] = deque(order)  # the top ticket is on the left
        long_order = [t for t in range(len(game_map.tickets)) if is_long and is_long[t]]
        self.rng.shuffle(long_order)
        self.long_ticket_deck: list[int] = long_order
        #: E4: long tickets not dealt, or returned at setup, leave the game.
        self.out_of_game_tickets: list[int] = []
        #: E1: per city the seat whose station stands there (-1: none); stations left.
        self.station_owner: list[int] = [-1] * self.board.num_cities
        self.stations_left: list[int] = [rule_set.stations] * players

        self.hands: list[list[int]] = [[0] * CARD_KINDS for _ in range(players)]
        self.tickets: list[list[int]] = [[] for _ in range(players)]
        self.wagons: list[int] = [rule_set.wagons] * players
        self.route_points: list[int] = [0] * players
        self.status: list[Status] = [ACTIVE] * players
        self.owner: list[int] = [-1] * self.board.num_routes
        #: Per seat, the cities its own routes join (R13), kept up to date.
        self.networks = [Connectivity(self.board.num_cities) for _ in range(players)]

        self.pending: list[Decision] = []
        self._setup_returns: dict[int, list[int]] = {}
        #: Per seat, its tickets with their completion, rebuilt only when they change.
        self._ticket_views: list[tuple | None] = [None] * players
        #: What every view shares and what changes only with claims, stations and
        #: resignations (see `public_snapshot`); None when out of date.
        self._snapshot: tuple | None = None
        #: Per seat, the routes open to it (see `open_groups`), made on first use and
        #: then kept up to date by claims (a list, changed in place).
        self._open_groups: list[list[OpenGroup] | None] = [None] * players
        #: Per seat, a snapshot of its open routes for views; None after a claim.
        self._open_snapshots: list[OpenGroups | None] = [None] * players
        self.passed: set[int] = set()
        self.final_queue: list[int] | None = None
        self.end_reason: EndReason | None = None
        self.history: list[tuple[int | None, Action]] = []
        self._public_log: list[tuple[int | None, str]] = []  # see `public_log`
        #: E2: cards turned up by tunnel claims, by position in `history`.
        self.tunnel_reveals: dict[int, tuple[int, ...]] = {}
        self.turns = 0
        self._setup()

    # The card piles under their old names (tests and tools set them directly).
    @property
    def deck(self) -> list[int]:
        return self.cards.deck

    @deck.setter
    def deck(self, cards: list[int]) -> None:
        self.cards.deck = cards

    @property
    def discard(self) -> list[int]:
        return self.cards.discard

    @discard.setter
    def discard(self, cards: list[int]) -> None:
        self.cards.discard = cards

    @property
    def market(self) -> list[int | None]:
        return self.cards.market

    @market.setter
    def market(self, cards: list[int | None]) -> None:
        self.cards.market = cards

    @property
    def europe(self) -> bool:
        """Whether the rule set is `europe` (rules read `rule_set`'s fields instead)."""
        return self.rules == "europe"

    @property
    def public_log(self) -> list[tuple[int | None, str]]:
        """What everyone saw of each action (see `ttr_core.engine.view.public_text`): made
        from `history` when first asked for, one entry per action, and kept."""
        log = self._public_log
        history = self.history
        for index in range(len(log), len(history)):
            seat, action = history[index]
            log.append((seat, public_text(action)))
        return log

    # ----------------------------------------------------------------- setup (R4)
    def _setup(self) -> None:
        """R4: deal 4 cards and 3 tickets to everyone, turn up the market, pick the
        first player at random. Everyone then chooses tickets at the same time."""
        rule_set = self.rule_set
        for seat in range(self.num_players):
            for _ in range(rule_set.starting_cards):
                self.hands[seat][self._draw_card()] += 1  # type: ignore[index]
        self._refill_market()
        for seat in range(self.num_players):
            offered = self._deal_tickets(rule_set.setup_tickets)
            if rule_set.long_tickets:  # E4: long tickets besides the regular ones
                long_deck = self.long_ticket_deck
                count = min(rule_set.setup_long_tickets, len(long_deck))
                offered += tuple(long_deck.pop() for _ in range(count))
            if offered:  # a map with too few tickets may leave a seat without any
                minimum = rule_set.setup_keep
                self.pending.append(ChooseTickets(seat, offered, minimum, setup=True))
        self.out_of_game_tickets.extend(self.long_ticket_deck)
        self.long_ticket_deck.clear()
        self.first_player = self.rng.randrange(self.num_players)
        self.current = self.first_player
        self.phase = SETUP
        self._finish_setup_if_done()

    def _deal_tickets(self, count: int) -> tuple[int, ...]:
        deck = self.ticket_deck
        return tuple(deck.popleft() for _ in range(min(count, len(deck))))

    # ------------------------------------------------------------- cards (R7, R8)
    def _draw_card(self) -> int | None:
        """R8: the top card of the deck (see `CardPiles.draw`); None when none is left (D3)."""
        return self.cards.draw()

    def _discard(self, cards: list[int] | tuple[int, ...]) -> None:
        """Cards to the discard pile, refilling an emptied market (R7, R8)."""
        self.cards.throw(cards)

    def can_draw_from_deck(self) -> bool:
        return self.cards.can_draw()

    def _refill_market(self) -> None:
        """R7: fill every empty face-up slot from the deck, then apply R8."""
        self.cards.refill_market()

    def clone(self) -> GameState:
        """An independent copy (the map, board and rule set are shared: they never change)."""
        twin = object.__new__(GameState)
        twin.__dict__.update(self.__dict__)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        twin.cards = self.cards.copy(twin.rng)
        twin.ticket_deck = deque(self.ticket_deck)
        twin.long_ticket_deck = self.long_ticket_deck[:]
        twin.out_of_game_tickets = self.out_of_game_tickets[:]
        twin.station_owner, twin.stations_left = self.station_owner[:], self.stations_left[:]
        twin.hands = [hand[:] for hand in self.hands]
        twin.tickets = [tickets[:] for tickets in self.tickets]
        twin.wagons, twin.route_points = self.wagons[:], self.route_points[:]
        twin.status, twin.owner = self.status[:], self.owner[:]
        twin.networks = [network.copy() for network in self.networks]
        twin.pending = self.pending[:]
        twin._setup_returns = {seat: t[:] for seat, t in self._setup_returns.items()}
        twin._ticket_views = self._ticket_views[:]
        twin._open_groups = [None if g is None else g[:] for g in self._open_groups]
        twin._open_snapshots = self._open_snapshots[:]
        twin.passed = set(self.passed)
        twin.final_queue = None if self.final_queue is None else self.final_queue[:]
        twin.history, twin._public_log = self.history[:], self._public_log[:]
        twin.tunnel_reveals = dict(self.tunnel_reveals)
        return twin

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def to_move(self) -> int | None:
        """The seat expected to act next: during setup, the first seat still
        choosing tickets; during play, the seat whose turn it is."""
        if self.phase == OVER:
            return None
        if self.phase == SETUP:
            return self.pending[0].seat if self.pending else None
        return self.current

    def decision_for(self, seat: int) -> Decision | None:
        for decision in self.pending:
            if decision.seat == seat:
                return decision
        return None

    def active_seats(self) -> list[int]:
        return [s for s in range(self.num_players) if self.status[s] == ACTIVE]

    def is_ticket_complete(self, seat: int, ticket: int) -> bool:
        """R13: joined by a continuous chain of the seat's own routes."""
        board = self.board
        return self.networks[seat].connected(board.ticket_a[ticket], board.ticket_b[ticket])

    def ticket_views(self, seat: int) -> tuple:
        """The seat's tickets as `TicketView`s with their completion (R13)."""
        views = self._ticket_views[seat]
        if views is None:
            tickets = self.map.tickets
            views = tuple(
                TicketView(t, tickets[t], self.is_ticket_complete(seat, t))
                for t in self.tickets[seat]
            )
            self._ticket_views[seat] = views
        return views

    def public_snapshot(self) -> tuple:
        """(owners, wagons, route points, statuses, station owners, stations left) as
        tuples, rebuilt only after a claim, a station or a resignation."""
        snapshot = self._snapshot
        if snapshot is None:
            snapshot = self._snapshot = (
                tuple(self.owner),
                tuple(self.wagons),
                tuple(self.route_points),
                tuple(self.status),
                tuple(self.station_owner) if self.rule_set.stations else (),
                tuple(self.stations_left) if self.rule_set.stations else (),
            )
        return snapshot

    def open_groups(self, seat: int) -> OpenGroups:
        """The routes open to `seat` (R9, R11), grouped by shape (a snapshot)."""
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

    def _close_route(self, claimer: int, route: int) -> None:
        """A claimed route is closed to everyone (R9), and its parallel tracks to the
        claimer, or to everyone with 2-3 players (R11)."""
        board = self.board
        siblings = board.route_siblings[route]
        few_players = self.num_players < self.rule_set.double_routes_from
        self._open_snapshots = [None] * self.num_players
        for seat, groups in enumerate(self._open_groups):
            if groups is None:
                continue
            for closed in (route, *siblings) if seat == claimer or few_players else (route,):
                index = board.route_group[closed]
                length, ferry, routes = groups[index]
                if closed in routes:
                    at = routes.index(closed)
                    groups[index] = (length, ferry, routes[:at] + routes[at + 1 :])

    def claimed_routes(self, seat: int) -> list[int]:
        return [r for r, holder in enumerate(self.owner) if holder == seat]

    def legal_actions(self, seat: int | None = None, include_resign: bool = False) -> list[Action]:
        """Every action `seat` (default: the seat to move) may take now, in a stable
        order (see `ttr_core.engine.legal`). An active seat may always resign (D5); `resign`
        closes the list only with `include_resign`."""
        seat = self.to_move if seat is None else seat
        if seat is None or self.phase == OVER or self.status[seat] != ACTIVE:
            return []
        if (
            not self.pending
            and seat == self.current
            and self.phase == PLAYING
            and not include_resign
        ):
            # The common case, straight to its list (R6).
            return turn_actions(
                self.board,
                self.hands[seat],
                self._open_groups[seat] or self._open_list(seat),
                self.wagons[seat],
                self.cards.market,
                self.cards.can_draw(),
                len(self.ticket_deck),
                self.rule_set,
                self.stations_left[seat],
                self.station_owner,
            )
        return legal_actions(
            self.rule_set,
            self.board,
            self.phase,
            seat == self.current,
            self.decision_for(seat) if self.pending else None,
            self.hands[seat],
            self.cards.market,
            self.cards.can_draw(),
            len(self.ticket_deck),
            self._open_list(seat),
            self.wagons[seat],
            self.stations_left[seat],
            self.station_owner,
            include_resign,
        )

    def view(self, seat: int) -> PlayerView:
        """What `seat` may see (R5, D6)."""
        return view_of(self, seat)

    # -------------------------------------------------------------------- apply
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply `action` for `seat` (default: the seat to move).

        Raises `IllegalAction` naming the rule that forbids it, or `InvalidAction`
        if it names something that does not exist; either way the state is left
        exactly as it was.
        """
        if self.phase == OVER:
            raise IllegalAction("R6", "the game is over")
        if isinstance(action, Remove):
            self._check_seat(action.seat)
            self._retire(action.seat, REMOVED)
            self._log(None, action)
            return
        seat = self.to_move if seat is None else seat
        if seat is None:
            raise IllegalAction("R6", "no seat is to move")
        self._check_seat(seat)
        if isinstance(action, Resign):
            self._retire(seat, RESIGNED)
            self._log(seat, action)
            return
        if self.pending:
            decision = self.decision_for(seat)
            if decision is not None:
                _ANSWERS[type(decision)](self, seat, decision, action)
                self.history.append((seat, action))
                return
        if self.phase != PLAYING or seat != self.current:
            raise IllegalAction("R6", f"it is not seat {seat}'s turn")
        start_turn = _TURN_ACTIONS.get(type(action))
        if start_turn is None:
            raise IllegalAction("R6", f"'{action}' is not a turn action")
        start_turn(self, seat, action)
        self.history.append((seat, action))

    def _log(self, seat: int | None, action: Action) -> None:
        self.history.append((seat, action))

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self.num_players:
            raise InvalidAction(f"there is no seat {seat} in a {self.num_players}-player game")
        if self.status[seat] != ACTIVE:
            raise IllegalAction("D5", f"seat {seat} has left the game ({self.status[seat]})")

    # ------------------------------------------------------ tickets (R4, R12, E4)
    def _finish_setup_if_done(self) -> None:
        if self.phase != SETUP or self.pending:
            return
        for seat in sorted(self._setup_returns):
            self._return_tickets(self._setup_returns[seat])
        self._setup_returns.clear()
        self.phase = PLAYING
        if self.status[self.current] != ACTIVE:
            self.current = self._next_active_after(self.current)

    def _return_tickets(self, tickets: list[int] | tuple[int, ...]) -> None:
        """R4/R12: returned tickets go under the ticket deck in order; E4: returned
        long tickets leave the game."""
        is_long = self.board.ticket_long if self.rule_set.long_tickets else None
        for ticket in tickets:
            if is_long and is_long[ticket]:
                self.out_of_game_tickets.append(ticket)
            else:
                self.ticket_deck.append(ticket)

    # ----------------------------------------------------------- claiming (R9)
    def check_claim(self, seat: int, action: Claim) -> int:
        """Check a claim against R9 and R11 without changing anything; return the
        route index."""
        route = self.board.route_index.get(action.route)
        if route is None:
            raise InvalidAction(f"there is no route {action.route!r} on {self.map.name}")
        board = self.board
        length = board.route_length[route]
        if self.owner[route] != -1:
            raise IllegalAction("R9", f"{action.route} already belongs to seat {self.owner[route]}")
        if length > self.wagons[seat]:
            raise IllegalAction(
                "R9", f"{action.route} needs {length} wagons; you have {self.wagons[seat]}"
            )
        if not is_open_to(
            board, route, seat, self.owner, self.num_players, self.rule_set.double_routes_from
        ):
            if any(self.owner[s] == seat for s in board.route_siblings[route]):
                raise IllegalAction("R11", f"you already own the other track of {action.route}")
            raise IllegalAction(
                "R11", f"in a {self.num_players}-player game the other track closes this one"
            )
        self._check_payment(seat, route, action.payment, action.route)
        return route

    def _check_payment(self, seat: int, route: int, payment: Payment, name: str) -> None:
        """R9: exactly `length` cards, all of the route's colour (any one colour for
        gray), locomotives making up any part of it."""
        length = self.board.route_length[route]
        color = self.board.route_color[route]
        if payment.total != length:
            raise IllegalAction("R9", f"{name} costs {length} cards, not {payment.total}")
        if payment.color is not None:
            card = CARD_INDEX[payment.color]
            if color != GRAY_INDEX and card != color:
                route_color = self.map.routes[route].color
                raise IllegalAction(
                    "R9", f"{name} is {route_color}; pay {route_color} or locomotives"
                )
        self._check_hand_holds(seat, payment, "R9")
        ferry = self.board.route_ferry[route]
        if self.rule_set.ferries and payment.locos < ferry:
            raise IllegalAction("E3", f"the ferry {name} needs at least {ferry} locomotives")

    def _claim(self, seat: int, action: Claim) -> None:
        route = self.check_claim(seat, action)
        if self.rule_set.tunnels and self.board.route_tunnel[route]:
            dig_tunnel(self, seat, route, action.payment)  # E2
            return
        self._pay(seat, action.payment)
        self._take_route(seat, route)
        self._end_turn(seat)

    # ---------------------------------------------------- europe: stations (E1)
    def _build_station(self, seat: int, action: BuildStation) -> None:
        """E1: a station in a city without one, for 1, 2, then 3 cards of one colour."""
        if not self.rule_set.stations:
            raise IllegalAction("E1", "stations belong to the europe rule set")
        city = self.map.city_index.get(action.city)
        if city is None:
            raise InvalidAction(f"there is no city {action.city!r} on {self.map.name}")
        if self.stations_left[seat] == 0:
            raise IllegalAction("E1", "you have built all your stations")
        if self.station_owner[city] != -1:
            raise IllegalAction("E1", f"{action.city} already has a station")
        cost = self.rule_set.station_cost(self.stations_left[seat])
        payment = action.payment
        if payment.total != cost:
            raise IllegalAction("E1", f"this station costs {cost} card(s), not {payment.total}")
        self._check_hand_holds(seat, payment, "E1")
        self._pay(seat, payment)
        self.station_owner[city] = seat
        self.stations_left[seat] -= 1
        self._snapshot = None
        self._end_turn(seat)

    def _check_hand_holds(self, seat: int, payment: Payment, rule: str) -> None:
        """The seat holds the cards of `payment`; else `rule` forbids it."""
        hand = self.hands[seat]
        if payment.color is not None and hand[CARD_INDEX[payment.color]] < payment.colored:
            held = hand[CARD_INDEX[payment.color]]
            raise IllegalAction(rule, f"you hold only {held} {payment.color}")
        if hand[LOCO] < payment.locos:
            raise IllegalAction(rule, f"you hold only {hand[LOCO]} locomotives")

    def _pay(self, seat: int, payment: Payment) -> None:
        hand = self.hands[seat]
        paid = []
        if payment.color is not None:
            card = CARD_INDEX[payment.color]
            hand[card] -= payment.colored
            paid += [card] * payment.colored
        hand[LOCO] -= payment.locos
        paid += [LOCO] * payment.locos
        self._discard(paid)

    def _take_route(self, seat: int, route: int) -> None:
        """R9, R10: the route is the seat's; wagons spent, points scored at once."""
        length = self.board.route_length[route]
        self.owner[route] = seat
        self.wagons[seat] -= length
        self.route_points[seat] += self.rule_set.route_score(length)
        network = self.networks[seat]
        network.join(self.board.route_a[route], self.board.route_b[route])
        views = self._ticket_views[seat]
        if views is not None and any(
            not view.completed and self.is_ticket_complete(seat, view.index) for view in views
        ):
            self._ticket_views[seat] = None  # R13: the claim completed a ticket
        self._snapshot = None
        self._close_route(seat, route)

    # ------------------------------------------------------------- passing (R6)
    def _pass(self, seat: int, action: Pass | None = None) -> None:
        possible = self.legal_actions(seat)
        if possible and not isinstance(possible[0], Pass):
            raise IllegalAction(
                "R6", f"you can still act (e.g. '{possible[0]}'); pass is for when you cannot"
            )
        self._end_turn(seat, passed=True)

    # -------------------------------------------------------- turn end (R6, R14)
    def _end_turn(self, seat: int, passed: bool = False) -> None:
        """A turn is over. R6: a pass streak by every active player ends the game;
        any other turn breaks the streak."""
        self.turns += 1
        if passed:
            self.passed.add(seat)
            if self._everyone_passed():
                self._finish(END_ALL_PASSED)  # R6
                return
        elif self.passed:
            self.passed.clear()
        if self.final_queue is not None:
            if self.final_queue and self.final_queue[0] == seat:
                self.final_queue.pop(0)
            if not self.final_queue:
                self._finish(END_FINAL_ROUND)  # R14
                return
        elif self.wagons[seat] <= self.rule_set.final_round_wagons:
            self._start_final_round(seat)
        self._pass_turn_on(seat)

    def _everyone_passed(self) -> bool:
        """R6: every active player passed on their last turn."""
        return self.passed.issuperset(self.active_seats())

    def _pass_turn_on(self, seat: int) -> None:
        """The next turn after `seat`'s: the next in the final round (D1), or the
        next active seat."""
        self.current = self.final_queue[0] if self.final_queue else self._next_active_after(seat)

    def _start_final_round(self, trigger: int) -> None:
        """R14, D1: every other active player once in seat order, then the
        triggering player once more. Triggered only once."""
        others = [
            (trigger + k) % self.num_players
            for k in range(1, self.num_players)
            if self.status[(trigger + k) % self.num_players] == ACTIVE
        ]
        self.final_queue = [*others, trigger]

    def _next_active_after(self, seat: int) -> int:
        for k in range(1, self.num_players + 1):
            candidate = (seat + k) % self.num_players
            if self.status[candidate] == ACTIVE:
                return candidate
        return seat

    # ------------------------------------------------------ resign, remove (D5)
    def _retire(self, seat: int, status: str) -> None:
        """D5: the seat becomes inactive. Its hand goes to the discard pile, its
        routes stay on the board, offered tickets go back under the deck."""
        self.status[seat] = status
        self._snapshot = None
        hand = self.hands[seat]
        self._discard([card for card, count in enumerate(hand) for _ in range(count)])
        self.hands[seat] = [0] * CARD_KINDS
        decision = self.decision_for(seat)
        if decision is not None:
            self.pending.remove(decision)
            self._settle_abandoned(decision)
        self.passed.discard(seat)
        was_current = self.phase == PLAYING and seat == self.current
        if self.final_queue is not None and seat in self.final_queue:
            self.final_queue.remove(seat)
        if len(self.active_seats()) <= 1:
            self._finish(END_ONE_LEFT)
            return
        if self.phase == SETUP:
            self._finish_setup_if_done()
            return
        if self._everyone_passed():
            self._finish(END_ALL_PASSED)
            return
        if was_current:
            if self.final_queue is not None and not self.final_queue:
                self._finish(END_FINAL_ROUND)
                return
            self._pass_turn_on(seat)

    # --------------------------------------------------------------- the end
    def _settle_abandoned(self, decision: Decision) -> None:
        """D5, E2, R12: a decision nobody will answer gives back what it held: offered
        tickets under the ticket deck (long ones leave the game, E4), turned-up
        tunnel cards to the discard pile."""
        abandon = _ABANDON.get(type(decision))
        if abandon is not None:
            abandon(self, decision)

    def _finish(self, reason: EndReason) -> None:
        """The game ends; decisions still pending are abandoned (their cards and
        tickets go back, see `_settle_abandoned`), held setup returns too (R4)."""
        self.phase = OVER
        self.end_reason = reason
        for decision in self.pending:
            self._settle_abandoned(decision)
        self.pending.clear()
        for seat in sorted(self._setup_returns):
            self._return_tickets(self._setup_returns[seat])
        self._setup_returns.clear()

    def result(self) -> GameResult:
        """The final result (R15-R17). Only for a finished game."""
        if self.phase != OVER:
            raise IllegalAction("R6", "the game is not over")
        return score_game(self)


#: The actions that start a turn (R6), by type: what `apply` does with each.
_TURN_ACTIONS: dict[type, Callable[[GameState, int, Any], None]] = {
    DrawDeck: draw_first_card,
    DrawMarket: draw_first_card,
    Claim: GameState._claim,
    DrawTickets: draw_tickets,
    Pass: GameState._pass,
    BuildStation: GameState._build_station,
}

#: Per kind of pending decision, what `apply` does with its answer (one module each).
_ANSWERS: dict[type, Callable[[GameState, int, Any, Action], None]] = {
    ChooseTickets: keep_tickets,
    SecondCard: draw_second_card,
    TunnelPayment: pay_tunnel,
}

#: Per kind of pending decision, what goes back when nobody will answer it (D5).
_ABANDON: dict[type, Callable[[GameState, Any], None]] = {
    ChooseTickets: abandon_tickets,
    TunnelPayment: abandon_tunnel,
}
