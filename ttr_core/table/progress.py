"""What a seat can do and how far its tickets are, read from its view: the routes
it can claim now and what each would cost (R9, R11, E3), the wagons each ticket
still needs (R13, E1), the kinds of legal action with counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ttr_core.bots.planning import (
    INF,
    cheapest_path,
    graph_for,
    lend_station_routes,
    route_costs,
)
from ttr_core.engine.actions import Action, BuildStation, Claim, DrawMarket, Payment, Resign
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.decisions import ChooseTickets
from ttr_core.engine.open_routes import is_open_to
from ttr_core.engine.view import PlayerView
from ttr_core.table.payments import fewest_locos, sensible_payments
from ttr_core.table.texts import payment_text, printable, route_shape, route_title
from ttr_maps.model import Route


def ticket_needs(view: PlayerView) -> list[int | None]:
    """Per ticket of the view (in order): 0 when complete (R13), else the wagons
    of the cheapest completion over my routes and the routes still open to me
    (with stations, others' routes into my station cities are free, E1);
    None when it can no longer be completed."""
    return [
        0 if t.completed else _need(cost)
        for t, (cost, _) in zip(view.tickets, _completions(view, _tickets_of(view)), strict=True)
    ]


def offered_needs(view: PlayerView) -> list[int | None]:
    """Like `ticket_needs`, for the tickets offered to choose from (R4, R12)."""
    decision = view.decision
    offered = list(decision.offered) if isinstance(decision, ChooseTickets) else []
    return [_need(cost) for cost, _ in _completions(view, offered)]


def ticket_routes(view: PlayerView) -> set[int]:
    """The routes still to claim on the cheapest completions of my open tickets."""
    return {
        route
        for _, routes in _completions(view, _tickets_of(view, open_only=True))
        for route in routes
        if view.owners[route] == -1
    }


def _tickets_of(view: PlayerView, open_only: bool = False) -> list[int]:
    return [t.index for t in view.tickets if not (open_only and t.completed)]


def _need(cost: int) -> int | None:
    return None if cost >= INF else cost


def _completions(view: PlayerView, tickets: list[int]) -> list[tuple[int, list[int]]]:
    """Per ticket: the cheapest completion for `view.seat` (wagons, routes)."""
    board = view.board
    graph = graph_for(board)
    costs = route_costs(
        board,
        view.owners,
        view.seat,
        view.num_players,
        view.wagons[view.seat],
        view.rule_set.double_routes_from,
    )
    if view.station_owners:
        lend_station_routes(graph, costs, view.owners, view.seat, view.station_owners)
    return [
        cheapest_path(graph, costs, board.ticket_a[index], board.ticket_b[index])
        for index in tickets
    ]


class RouteOffer(NamedTuple):
    """A route I may claim now and the sensible ways to pay for it (the first is
    chosen without asking when `chosen` is set)."""

    route: Route
    payments: tuple[Payment, ...]
    chosen: Payment | None
    #: On the cheapest completion of one of my open tickets.
    for_ticket: bool = False

    def line(self, view: PlayerView) -> str:
        """`Dallas–Houston track 2 · gray 1 · 1 pt · red 1` (`… or …` when asked)."""
        route = self.route
        cost = (
            payment_text(self.chosen) if self.chosen is not None else payments_text(self.payments)
        )
        points = view.rule_set.route_score(route.length)
        mark = "*" if self.for_ticket else " "
        return (
            f"{mark} {route_title(route, view.map)} · {route_shape(route)} · "
            f"{points} pt{'s' if points != 1 else ''} · {cost}"
        )


def payments_text(payments: Sequence[Payment]) -> str:
    """Several payments in a few words: the colours that pay alike share one
    entry, `red/blue 2`, `ora/yel/pin 2 or blue 1 + loco 1` (three colours or
    more cut to three letters); locomotives alone last, `loco 2`."""
    shapes: dict[tuple[int, int], list[str]] = {}
    for payment in payments:
        if payment.color:
            shapes.setdefault((payment.colored, payment.locos), []).append(payment.color)
    parts = [
        # Three colours or more: cut to three letters each, as the hand line does.
        f"{'/'.join(c if len(colours) < 3 else c[:3] for c in colours)} {colored}"
        + (f" + loco {locos}" if locos else "")
        for (colored, locos), colours in shapes.items()
    ]
    parts += [payment_text(p) for p in payments if not p.color]
    return " or ".join(parts)


def claimable_routes(view: PlayerView, city: str | None = None) -> list[RouteOffer]:
    """The routes `view.seat` can claim and pay for now (R9, R11; E3 ferries),
    touching `city` if given: those on my open tickets' cheapest completions
    first, then longest first, then by name."""
    if view.decision is not None or view.to_move != view.seat or view.phase != "playing":
        return []
    board = view.board
    wagons = view.wagons[view.seat]
    rules = view.rule_set
    wanted = ticket_routes(view)
    offers = []
    for route in view.map.routes:
        if city is not None and city not in route.cities:
            continue
        if route.length > wagons or not is_open_to(
            board, route.index, view.seat, view.owners, view.num_players, rules.double_routes_from
        ):
            continue
        payments = sensible_payments(
            route.length,
            board.route_color[route.index],
            view.hand,
            route.ferry if rules.ferries else 0,
        )
        if payments:
            offers.append(
                RouteOffer(route, tuple(payments), fewest_locos(payments), route.index in wanted)
            )
    offers.sort(key=lambda o: (not o.for_ticket, -o.route.length, o.route.a, o.route.b))
    return offers


def action_kinds(view: PlayerView) -> list[str]:
    """The kinds of legal action now, one line each, with how many there are."""
    actions: list[Action] = view.legal_actions()
    kinds: Counter[str] = Counter()
    routes: set[str] = set()
    cities: set[str] = set()
    for action in actions:
        if isinstance(action, Claim):
            routes.add(action.route)
        elif isinstance(action, BuildStation):
            cities.add(action.city)
        kinds[_kind(action)] += 1
    lines = []
    for kind, count in kinds.items():
        detail = ""
        if kind.startswith("claim"):
            detail = f" on {len(routes)} route(s); `routes` lists them"
        elif kind.startswith("station"):
            detail = f" in {len(cities)} cities"
        elif kind.startswith("market"):
            detail = (
                " ("
                + ", ".join(
                    f"{slot + 1} {_card(view, slot)}"
                    for slot in (a.slot for a in actions if isinstance(a, DrawMarket))
                )
                + ")"
            )
        lines.append(f"{kind}: {count} way{'s' if count != 1 else ''}{detail}")
    if actions and not any(isinstance(a, Resign) for a in actions):
        lines.append(f"{_KIND_NAMES['Resign']}: 1 way (D5)")
    return lines


def _card(view: PlayerView, slot: int) -> str:
    card = view.market[slot]
    return CARD_NAMES[card] if card is not None else "-"


_KIND_NAMES = {
    "DrawDeck": "deck (d)",
    "DrawMarket": "market N (m N)",
    "Claim": "claim CITY CITY (c)",
    "DrawTickets": "tickets (t)",
    "KeepTickets": "keep N …",
    "BuildStation": "station CITY (s)",
    "PayTunnel": "pay",
    "GiveUpTunnel": "give up",
    "Pass": "pass",
    "Resign": "resign",
}


def _kind(action: Action) -> str:
    return _KIND_NAMES.get(type(action).__name__, printable(type(action).__name__))
