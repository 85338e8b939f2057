"""What one player may see (R5, D6): the board, the market, their own hand and
tickets, and only counts of everything hidden. Bots receive nothing else.

A view is frozen and copies what it shows, so changing the game afterwards never
changes a view already handed out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ttr_core.engine.actions import Action, KeepTickets, Payment
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.compiled import Board
from ttr_core.engine.decisions import ChooseTickets, Decision, SecondCard, TunnelPayment
from ttr_core.engine.enums import DecisionKind, Phase, Status
from ttr_core.engine.legal import OpenGroups, legal_actions
from ttr_maps.model import Map, Ticket
from ttr_maps.rules import BASE, RuleSet

if TYPE_CHECKING:
    from ttr_core.engine.state import GameState

#: How many recent actions a view's public log shows.
LOG_LENGTH = 20


class TicketView(NamedTuple):
    """One of my tickets and whether it is complete (R13)."""

    index: int
    ticket: Ticket
    completed: bool


class TunnelView(NamedTuple):
    """E2: a tunnel claim waiting for its extra cards."""

    seat: int
    route: str
    payment: Payment
    revealed: tuple[int, ...]
    extra: int


class PlayerView(NamedTuple):
    """A frozen snapshot for one seat. (A named tuple rather than a frozen
    dataclass: one is built for every decision of every game, and a tuple is
    built several times faster.)"""

    seat: int
    board: Board
    #: The rule set's name ("base" or "europe"); `rule_set` holds its values.
    rules: str
    num_players: int
    phase: Phase
    #: The seat whose turn it is (during setup: the first seat still choosing).
    to_move: int | None
    #: Face-up cards by slot, as card indices (see `ttr_core.engine.cards`); None if empty.
    market: tuple[int | None, ...]
    deck_size: int
    discard_size: int
    ticket_deck_size: int
    #: My cards: nine counts indexed by card (8 colours, then locomotives).
    hand: tuple[int, ...]
    tickets: tuple[TicketView, ...]
    #: My pending decision (a `DecisionKind`: "choose_tickets", "second_card",
    #: "tunnel_payment") or None.
    decision: DecisionKind | None
    #: Tickets offered to me (indices into the map's tickets) while I choose.
    offered: tuple[int, ...]
    keep_at_least: int
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
    #: E2 (europe rules): a tunnel being paid, as everyone sees it on the table.
    tunnel: TunnelView | None = None
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

    def pending_decision(self) -> Decision | None:
        """My pending decision as the engine holds it, made from `decision`,
        `offered`, `keep_at_least` and `tunnel`."""
        kind = self.decision
        if kind is None:
            return None
        if kind == DecisionKind.CHOOSE_TICKETS:
            return ChooseTickets(self.seat, self.offered, self.keep_at_least)
        if kind == DecisionKind.SECOND_CARD:
            return SecondCard(self.seat)
        tunnel = self.tunnel
        if kind == DecisionKind.TUNNEL_PAYMENT and tunnel is not None:
            route = self.board.route_index[tunnel.route]
            return TunnelPayment(self.seat, route, tunnel.payment, tunnel.revealed, tunnel.extra)
        return None

    def legal_actions(self, include_resign: bool = False) -> list[Action]:
        """The same list as `GameState.legal_actions(seat)`, from what I can see
        (the same dispatcher, `ttr_core.engine.legal.legal_actions`)."""
        seat = self.seat
        if self.phase == Phase.OVER or self.status[seat] != Status.ACTIVE:
            return []
        return legal_actions(
            self.rule_set,
            self.board,
            self.phase,
            self.to_move == seat,
            self.pending_decision(),
            self.hand,
            self.market,
            self.deck_size + self.discard_size > 0,
            self.ticket_deck_size,
            self.open_groups,
            self.wagons[seat],
            self.stations_left[seat] if self.stations_left else 0,
            self.station_owners,
            include_resign,
        )


def public_text(action: Action) -> str:
    """How an action looks to the other players: what was kept is a count."""
    if isinstance(action, KeepTickets):
        return f"kept {len(action.indices)} ticket(s)"
    return str(action)


def view_of(state: GameState, seat: int) -> PlayerView:
    """Build the view of `seat` from the full state.

    This runs for every decision of every game, so what changes seldom (owners,
    wagons, points, statuses, stations) comes from the state's shared snapshot and
    the view is filled by position, in field order.
    """
    decision = state.decision_for(seat) if state.pending else None
    in_setup = state.phase == Phase.SETUP
    offered: tuple[int, ...] = ()
    keep_at_least = 0
    if isinstance(decision, ChooseTickets):
        offered, keep_at_least = decision.offered, decision.minimum
    owners, wagons, route_points, status, station_owners, stations_left = state.public_snapshot()
    if in_setup:
        # R4: the choice is simultaneous: nobody is "to move", others' ticket counts
        # show as 0 and their `keep` actions stay out of the log until all have chosen.
        to_move = None
        ticket_counts = tuple(len(t) if s == seat else 0 for s, t in enumerate(state.tickets))
        log = tuple(entry for entry in state.public_log[-LOG_LENGTH:] if entry[0] == seat)
    else:
        to_move = state.to_move
        ticket_counts = tuple(map(len, state.tickets))
        log = tuple(state.public_log[-LOG_LENGTH:])
    return PlayerView(
        seat,
        state.board,
        state.rules,
        state.num_players,
        state.phase,
        to_move,
        tuple(state.market),
        len(state.deck),
        len(state.discard),
        len(state.ticket_deck),
        tuple(state.hands[seat]),
        state.ticket_views(seat),
        decision.kind if decision is not None else None,
        offered,
        keep_at_least,
        owners,
        wagons,
        tuple(map(sum, state.hands)),
        ticket_counts,
        route_points,
        status,
        state.final_queue is not None,
        log,
        station_owners,
        stations_left,
        _tunnel_view(state) if state.pending else None,
        state.open_groups(seat),
        state.rule_set,
    )


def _tunnel_view(state: GameState) -> TunnelView | None:
    for decision in state.pending:
        if isinstance(decision, TunnelPayment):
            route = state.board.route_name(decision.route)
            return TunnelView(
                decision.seat, route, decision.payment, decision.revealed, decision.extra
            )
    return None
