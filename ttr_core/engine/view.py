"""What one player may see (R5, D6): the board, the market, their own hand,
tickets and pending decision, and only counts of everything hidden. Bots receive
nothing else.

A view is frozen and copies what it shows, so changing the game afterwards never
changes a view already handed out.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

from ttr_core.engine.actions import Action
from ttr_core.engine.books import Books, TicketView
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.compiled import Board, OpenGroups
from ttr_core.engine.decisions import Decision, TunnelPayment
from ttr_core.engine.enums import Phase, Status
from ttr_core.engine.facts import LegalFacts, make_facts
from ttr_core.engine.legal import is_legal, legal_actions
from ttr_maps.model import Map
from ttr_maps.rules import BASE, RuleSet

# Enum members as module names: `Phase.OVER` is a Python-level lookup on the enum
# class (about 50 ns in CPython 3.11), and these run on every action.
_SETUP, _OVER, _ACTIVE = Phase.SETUP, Phase.OVER, Status.ACTIVE

#: How many recent actions a view's public log shows.
LOG_LENGTH = 20


class PlayerView(NamedTuple):
    """A frozen snapshot for one seat. (A named tuple rather than a frozen
    dataclass: one is built for every decision of every game, and a tuple is
    built several times faster.)"""

    seat: int
    board: Board
    num_players: int
    phase: Phase
    #: The seat whose turn it is (during setup: None, everyone chooses at once).
    to_move: int | None
    #: Face-up cards by slot, as card indices (see `ttr_core.engine.cards`); None if empty.
    market: tuple[int | None, ...]
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    #: My cards: nine counts indexed by card (8 colours, then locomotives).
    hand: tuple[int, ...]
    tickets: tuple[TicketView, ...]
    #: My pending decision, as the engine holds it (`ChooseTickets` with the
    #: tickets offered to me, `SecondCard`, `TunnelPayment`), or None.
    decision: Decision | None
    #: Per route (by index): the owning seat, or -1.
    owners: tuple[int, ...]
    wagons: tuple[int, ...]
    card_counts: tuple[int, ...]
    ticket_counts: tuple[int, ...]
    #: Route points each seat has scored so far (R10), as shown on the board.
    route_points: tuple[int, ...]
    status: tuple[Status, ...]
    final_round: bool
    #: Public log: (seat, what everyone saw), oldest first.
    log: tuple[tuple[int | None, str], ...]
    #: E1 (europe rules): per city the seat whose station stands there, or -1;
    #: stations each seat has left.
    station_owners: tuple[int, ...] = ()
    stations_left: tuple[int, ...] = ()
    #: E2 (europe rules): a tunnel being paid, by any seat: its cards lie face up,
    #: so everyone sees it (for its own seat it is also `decision`).
    tunnel: TunnelPayment | None = None
    #: The routes still open to me (R9, R11), grouped by shape: derived from
    #: `owners`, kept here because it changes only when a route is claimed.
    open_groups: OpenGroups = ()
    #: Every number and switch of the rules this game is played with.
    rule_set: RuleSet = BASE

    @property
    def map(self) -> Map:
        return self.board.map

    def hand_by_color(self) -> dict[str, int]:
        return {name: count for name, count in zip(CARD_NAMES, self.hand, strict=True) if count}

    def legal_facts(self) -> LegalFacts:
        """What my legal actions depend on, all of it in this view."""
        seat = self.seat
        return make_facts(
            (
                self.rule_set,
                self.board,
                self.phase,
                self.to_move == seat,
                self.decision,
                self.hand,
                self.market,
                self.deck_size + self.discard_size > 0,
                self.ticket_deck_size,
                self.open_groups,
                self.wagons[seat],
                self.stations_left[seat] if self.stations_left else 0,
                self.station_owners,
            )
        )

    def legal_actions(self, include_resign: bool = False) -> list[Action]:
        """The same list as `GameState.legal_actions(seat)`, from what I can see
        (the same dispatcher, `ttr_core.engine.legal.legal_actions`)."""
        if self.phase == _OVER or self.status[self.seat] != _ACTIVE:
            return []
        return legal_actions(self.legal_facts(), include_resign)

    def is_legal(self, action: Action) -> bool:
        """Whether `action` is in `legal_actions()`, found without listing them all
        (`ttr_core.engine.legal.is_legal`)."""
        if self.phase == _OVER or self.status[self.seat] != _ACTIVE:
            return False
        return is_legal(self.legal_facts(), action)


def view_of(books: Books, seat: int) -> PlayerView:
    """Build the view of `seat` from the full state.

    This runs for every decision of every game, so what changes seldom (owners,
    wagons, points, statuses, stations) comes from the books' shared snapshot and
    the view is filled by position, in field order.
    """
    pending = books.pending
    owners, wagons, route_points, status, station_owners, stations_left = books.public_snapshot()
    if books.phase == _SETUP:
        # R4: the choice is simultaneous: nobody is "to move", others' ticket counts
        # show as 0 and their `keep` actions stay out of the log until all have chosen.
        to_move = None
        ticket_counts = tuple(len(t) if s == seat else 0 for s, t in enumerate(books.tickets))
        log = tuple(entry for entry in books.public_log[-LOG_LENGTH:] if entry[0] == seat)
    else:
        to_move = books.to_move
        ticket_counts = tuple(map(len, books.tickets))
        log = tuple(books.public_log[-LOG_LENGTH:])
    cards = books.cards
    return _make_view(
        (
            seat,
            books.board,
            books.num_players,
            books.phase,
            to_move,
            tuple(cards.market),
            len(cards.deck),
            len(cards.discard),
            len(books.ticket_deck),
            tuple(books.hands[seat]),
            books.ticket_views(seat),
            books.decision_for(seat) if pending else None,
            owners,
            wagons,
            tuple(map(sum, books.hands)),
            ticket_counts,
            route_points,
            status,
            books.final_queue is not None,
            log,
            station_owners,
            stations_left,
            books.tunnel_being_paid() if pending else None,
            books.open_groups(seat),
            books.rule_set,
        )
    )


#: `PlayerView` from a tuple of all its fields in order, without the Python-level
#: `__new__` of a named tuple (25 arguments): one is built for every decision.
_make_view = partial(tuple.__new__, PlayerView)
