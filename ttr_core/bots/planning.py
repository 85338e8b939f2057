"""Path planning and colour needs shared by every planning bot.

Everything works on the integer-indexed `Board`: cities, routes and card colours
are small integers, so a turn's planning is a few list look-ups and, when the
board changed where it matters, a Dijkstra over a few dozen cities. The static
graph of a board (neighbours, all-pairs shortest distances) is built once per
board and shared by every bot in every game on it; it holds nothing but the
board (no bot's searches: they would name its tickets, R5, D6). The compiled build
adds a native kernel of the cheapest-path search (`BoardGraph.native`).

>>> from ttr_maps import load_map
>>> from ttr_core.engine.compiled import board_for
>>> graph = graph_for(board_for(load_map("north_america")))
>>> graph.distance[graph.city("Denver")][graph.city("El Paso")]
4
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from math import comb
from typing import NamedTuple, cast
from weakref import WeakKeyDictionary

from ttr_core.engine.actions import DRAW_DECK, DRAW_MARKET, Action, Claim, Payment
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.compiled import GRAY_INDEX, Board
from ttr_core.engine.moves.claims import payment_shapes, usable_hand
from ttr_core.engine.open_routes import can_claim_route
from ttr_maps.rules import CARDS_PER_COLOR, DECK_SIZE, EUROPE, LOCOMOTIVES, RuleSet

try:  # the compiled build's kernel of `cheapest_path` (`python -m ttr_core.accel`)
    from ttr_core.bots.native_paths import NativeGraph
except ImportError:  # a pure install, or a kernel older than its source
    NativeGraph = None

#: A distance larger than any real one (no map has 10,000 wagons of track).
INF = 10_000


@dataclass(frozen=True, eq=False)
class BoardGraph:
    """The static graph of a board: who neighbours whom, and how far apart."""

    board: Board
    #: Per city: (neighbour city, route) for every route touching it.
    neighbors: tuple[tuple[tuple[int, int], ...], ...]
    #: distance[a][b]: shortest wagon distance on the empty board (R2), INF if none.
    distance: tuple[tuple[int, ...], ...]
    #: Every route, longest first (most points first, R10).
    by_length: tuple[int, ...]
    #: The same graph as C arrays for the native kernel of `cheapest_path`, when the
    #: compiled build has it (`ttr_core/bots/native_paths.pyx`); None runs the Python.
    native: object | None = None

    def city(self, name: str) -> int:
        return self.board.map.city_index[name]


_GRAPHS: WeakKeyDictionary[Board, BoardGraph] = WeakKeyDictionary()


def graph_for(board: Board) -> BoardGraph:
    """The static graph of `board`, computed on first use and cached."""
    graph = _GRAPHS.get(board)
    if graph is None:
        graph = _build_graph(board)
        _GRAPHS[board] = graph
    return graph


def _build_graph(board: Board) -> BoardGraph:
    neighbors: list[list[tuple[int, int]]] = [[] for _ in range(board.num_cities)]
    for route in range(board.num_routes):
        a, b = board.route_a[route], board.route_b[route]
        if a != b:
            neighbors[a].append((b, route))
            neighbors[b].append((a, route))
    adjacent = tuple(tuple(items) for items in neighbors)
    graph = BoardGraph(
        board,
        adjacent,
        (),
        tuple(sorted(range(board.num_routes), key=lambda r: (-board.route_length[r], r))),
        native=(
            None
            if NativeGraph is None
            else NativeGraph(adjacent, board.route_a, board.route_b, INF)
        ),
    )
    # All pairs by one Dijkstra per city on the empty board: a few dozen cities, once.
    lengths = board.route_length
    distance = tuple(tuple(distances_from(graph, lengths, city)) for city in range(len(neighbors)))
    return replace(graph, distance=distance)


# ------------------------------------------------------------------ route costs


def route_costs(
    board: Board,
    owners: Sequence[int],
    seat: int,
    num_players: int,
    wagons: int,
    double_routes_from: int,
) -> list[int]:
    """What each route costs `seat` to use: 0 if owned, its length if it can still
    be claimed (R9, R11, as `can_claim_route` decides: with fewer players than the
    rule set's `double_routes_from`, a claimed track closes its parallel one), INF if
    it is lost."""
    closes_sibling = num_players < double_routes_from
    lengths = board.route_length
    if len(owners) != len(lengths):
        raise ValueError(f"{len(owners)} owners for {len(lengths)} routes")
    # The lengths, then the routes that differ: an index loop, C integers all
    # through in the compiled build (a comprehension over zip() steps through
    # Python iterators there).
    costs = list(lengths)
    for route in range(len(lengths)):
        holder = owners[route]
        if holder == seat:
            costs[route] = 0
        elif holder != -1 or lengths[route] > wagons:
            costs[route] = INF
    for route, siblings in board.double_routes:  # R11: a parallel track may close it
        if owners[route] == -1 and costs[route] < INF:
            for sibling in siblings:
                other = owners[sibling]
                if other == seat or (other != -1 and closes_sibling):
                    costs[route] = INF
                    break
    return costs


def distances_from(graph: BoardGraph, costs: Sequence[int], source: int) -> list[int]:
    """Dijkstra from `source` under `costs`: the cheapest cost to every city."""
    return _dijkstra(graph, costs, source)[0]


def cheapest_path(
    graph: BoardGraph, costs: Sequence[int], source: int, target: int
) -> tuple[int, list[int]]:
    """Dijkstra from `source` to `target`: (cost, routes of one cheapest path,
    from the target's end). The cost is INF and the path empty when no usable path
    exists. The graph's native kernel, if it has one, answers instead: the same
    search in C, the same path (ties included)."""
    native = graph.native
    if native is not None:
        return native.cheapest_path(costs, source, target)  # type: ignore[attr-defined]
    if source == target:
        return 0, []
    dist, via = _dijkstra(graph, costs, source, target)
    if dist[target] >= INF:
        return INF, []
    path = []
    city = target
    board = graph.board
    while city != source:
        route = via[city]
        path.append(route)
        city = board.route_a[route] if board.route_b[route] == city else board.route_b[route]
    return dist[target], path


def _dijkstra(
    graph: BoardGraph, costs: Sequence[int], source: int, target: int = -1
) -> tuple[list[int], list[int]]:
    """Cheapest cost from `source` to every city (final up to `target`, where it
    stops), and the route each city is reached by."""
    n = len(graph.neighbors)
    dist = [INF] * n
    via = [-1] * n
    dist[source] = 0
    # The heap holds (cost, city) as one integer, cost * n + city: the same order
    # as the pairs (so the same pops, ties included), compared without tuples.
    heap = [source]
    neighbors = graph.neighbors
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        key = pop(heap)
        d = key // n
        city = key % n
        if city == target:
            break
        if d > dist[city]:
            continue
        for other, route in neighbors[city]:
            nd = d + costs[route]
            if nd < dist[other]:
                dist[other] = nd
                via[other] = route
                push(heap, nd * n + other)
    return dist, via


class Plan(NamedTuple):
    """Routes to claim so that the planned tickets are complete (a named tuple:
    playouts make tens of plans each, and a frozen dataclass's `__init__` is a
    Python-level call)."""

    #: Routes still to claim, longest first.
    routes: tuple[int, ...]
    #: Tickets the plan completes (map ticket indices), and those it gave up on.
    tickets: tuple[int, ...]
    lost: tuple[int, ...]
    #: Wagons the plan still needs.
    wagons: int


def plan_network(
    graph: BoardGraph, costs: Sequence[int], tickets: Iterable[int], wagons: int
) -> Plan:
    """Connect tickets one by one, most valuable first, each by its cheapest path
    given the routes owned and those already planned (a Steiner-tree heuristic).
    A ticket that cannot be connected, or not with the wagons left, is lost."""
    board = graph.board
    working = list(costs)
    planned: list[int] = []
    kept: list[int] = []
    lost: list[int] = []
    spent = 0
    # Most valuable first, ties in the order given (a sort stays stable reversed).
    for ticket in sorted(tickets, key=board.ticket_value.__getitem__, reverse=True):
        cost, path = cheapest_path(graph, working, board.ticket_a[ticket], board.ticket_b[ticket])
        if cost >= INF or spent + cost > wagons:
            lost.append(ticket)
            continue
        kept.append(ticket)
        spent += cost
        for route in path:
            if working[route]:
                planned.append(route)
                working[route] = 0
    planned.sort(key=board.route_length.__getitem__, reverse=True)
    # `tuple.__new__`: a named tuple's own `__new__` is a Python-level function.
    return tuple.__new__(Plan, (tuple(planned), tuple(kept), tuple(lost), spent))


def refreshed_plan(
    plan: Plan,
    board: Board,
    owners: Sequence[int],
    seat: int,
    num_players: int,
    wagons: int,
    double_routes_from: int,
) -> Plan | None:
    """`plan` without the routes `seat` has claimed since, or None when a planned
    route can no longer be claimed (R9, R11): then the plan must be re-made."""
    remaining = []
    for route in plan.routes:
        if owners[route] == seat:
            continue
        if not can_claim_route(board, route, seat, owners, num_players, wagons, double_routes_from):
            return None
        remaining.append(route)
    if len(remaining) == len(plan.routes):
        return plan
    lengths = board.route_length
    wagons_left = sum([lengths[r] for r in remaining])
    return tuple.__new__(Plan, (tuple(remaining), plan.tickets, plan.lost, wagons_left))


def longest_claimable(
    graph: BoardGraph,
    owners: Sequence[int],
    seat: int,
    num_players: int,
    wagons: int,
    double_routes_from: int,
    limit: int | None = None,
) -> list[int]:
    """Free routes `seat` may claim and has wagons for, most points first (R9,
    R10, R11; at most `limit`)."""
    board = graph.board
    found = []
    for route in graph.by_length:
        if owners[route] == -1 and can_claim_route(
            board, route, seat, owners, num_players, wagons, double_routes_from
        ):
            found.append(route)
            if len(found) == limit:
                break
    return found


# --------------------------------------------------------------- cards and claims


def color_needs(
    board: Board, routes: Iterable[int], tunnel_reserve: int = 0
) -> tuple[list[int], int]:
    """Cards needed per colour for `routes`, and the cards needed for gray ones;
    a tunnel asks for `tunnel_reserve` more (E2, see `TUNNEL_RESERVE`)."""
    needs = [0] * LOCO
    gray = 0
    tunnel, colors, lengths = board.route_tunnel, board.route_color, board.route_length
    for route in routes:
        color = colors[route]
        length = lengths[route]
        if tunnel_reserve and tunnel[route]:
            length += tunnel_reserve
        if color == GRAY_INDEX:
            gray += length
        else:
            needs[color] += length
    return needs, gray


#: E2: cards to hold beyond a tunnel's length before digging it; with one, the
#: three turned-up cards ask for more about one time in seven.
TUNNEL_RESERVE = 1
#: E2: dig a tunnel only when the hand covers the extra cards at least this often.
TUNNEL_ODDS = 0.8


def tunnel_odds(hand: Sequence[int], payment: Payment) -> float:
    """E2: the chance that what is left in `hand` after laying `payment` covers the
    extra cards the three turned-up cards ask for (each asks with the share of its
    colour and of locomotives in a full deck; only locomotives when only they are laid)."""
    locos = hand[LOCO] - payment.locos
    if payment.color is None:
        reserve, p = locos, LOCOMOTIVES / DECK_SIZE
    else:
        reserve = hand[CARD_INDEX[payment.color]] - payment.colored + locos
        p = (CARDS_PER_COLOR + LOCOMOTIVES) / DECK_SIZE
    return sum(comb(3, k) * p**k * (1 - p) ** (3 - k) for k in range(min(reserve, 3) + 1))


def best_payment(
    board: Board,
    route: int,
    hand: Sequence[int],
    needs: Sequence[int] | None = None,
    min_locos: int = 0,
    plain_route_locomotives: bool = True,
) -> Claim | None:
    """The cheapest affordable payment of `route` (R9), or None: as few locomotives
    as possible (at least `min_locos`, E3 ferries; none on a plain route under P2,
    without `plain_route_locomotives`); on a gray route, the colour least needed
    elsewhere, then the one held most. The result is one of the board's ready-made
    claims."""
    hand = usable_hand(board, route, hand, plain_route_locomotives)
    length, color = board.route_length[route], board.route_color[route]
    if (hand[color] if color != GRAY_INDEX else max(hand[:LOCO])) + hand[LOCO] < length:
        return None  # R9: too few cards whatever the payment (most routes, most turns)
    claim = _cheapest(board.claim_options[route], length, color, hand, needs, min_locos)
    return cast("Claim | None", claim)


def _cheapest(
    options: Sequence[Sequence[Action]],
    length: int,
    color: int,
    hand: Sequence[int],
    needs: Sequence[int] | None,
    min_locos: int = 0,
) -> Action | None:
    """The cheapest payment in a table like `Board.claim_options` (see `best_payment`)."""
    best: tuple[int, int, int] | None = None  # (locos used, need of colour, -held)
    best_color = -1
    for c, fewest, _ in payment_shapes(length, color, hand, min_locos):
        if c == LOCO:
            continue  # locomotives only: the last resort
        need = needs[c] if needs is not None and color == GRAY_INDEX else 0
        key = (fewest, need, -hand[c])
        if best is None or key < best:
            best, best_color = key, c
    if best is not None:
        return options[best_color][best[0]]
    if hand[LOCO] >= length:
        return options[LOCO][0]
    return None


def draw_for_needs(
    market: Sequence[int | None],
    hand: Sequence[int],
    needs: Sequence[int],
    gray: int,
    *,
    second: bool,
    can_draw_deck: bool,
) -> Action | None:
    """R7: the card to draw toward `needs`: a face-up card of the colour missing
    most, else the deck. A face-up locomotive is taken as a first card only when
    nothing else is useful and the deck is empty. None if no card can be drawn."""
    best_slot, best_score = -1, 0
    most_held = max(hand[:LOCO]) if gray else 0
    for slot, card in enumerate(market):
        if card is None or card == LOCO:
            continue
        missing = needs[card] - hand[card]
        score = missing * 4 if missing > 0 else 0
        if gray and score == 0 and hand[card] == most_held and hand[card] < gray:
            score = 1  # build up one colour for the gray routes
        if score > best_score:
            best_slot, best_score = slot, score
    if best_slot >= 0:
        return DRAW_MARKET[best_slot]
    if can_draw_deck:
        return DRAW_DECK
    for slot, card in enumerate(market):
        if card is not None and card != LOCO:
            return DRAW_MARKET[slot]
    if not second:
        for slot, card in enumerate(market):
            if card == LOCO:
                return DRAW_MARKET[slot]
    return None


# ------------------------------------------------------------------ stations (E1)


def lend_station_routes(
    graph: BoardGraph,
    costs: list[int],
    owners: Sequence[int],
    seat: int,
    station_owners: Sequence[int],
) -> None:
    """E1: make the routes of other players into `seat`'s station cities free in
    `costs`. (At the end each station lends one of them; a plan that would need two
    through the same station is rare enough to ignore.)"""
    for city, holder in enumerate(station_owners):
        if holder == seat:
            for _, route in graph.neighbors[city]:
                if owners[route] not in (-1, seat):
                    costs[route] = 0


@dataclass(frozen=True)
class StationRescue:
    """E1: a station that saves a ticket the plan has lost."""

    action: Action
    city: int
    #: The other player's route the station lets me use, and the ticket it saves.
    route: int
    ticket: int
    #: Points it is worth: the ticket swings from minus to plus its value (R15),
    #: minus the unbuilt station's points and a point a card.
    value: float


def station_rescue(
    graph: BoardGraph,
    costs: Sequence[int],
    owners: Sequence[int],
    seat: int,
    station_owners: Sequence[int],
    plan: Plan,
    wagons: int,
    hand: Sequence[int],
    stations_left: int,
    needs: Sequence[int] | None = None,
    final_round: bool = False,
    rules: RuleSet = EUROPE,
) -> StationRescue | None:
    """E1: the station that saves the most valuable ticket `plan` has lost (one
    whose cities my routes, free routes and wagons can no longer join) by lending
    one route of another player next to a city without a station, if I can pay it;
    else None. In the final round (R14) the station must complete the ticket on its
    own. Stations are worth points unbuilt, so no other station is built."""
    if stations_left <= 0 or not plan.lost:
        return None
    board = graph.board
    working = list(costs)
    for route in plan.routes:
        working[route] = 0
    spare = 0 if final_round else wagons - plan.wagons
    cards = rules.station_cost(stations_left)
    for ticket in sorted(plan.lost, key=lambda t: (-board.ticket_value[t], t)):
        a, b = board.ticket_a[ticket], board.ticket_b[ticket]
        from_a = distances_from(graph, working, a)
        if from_a[b] <= spare:
            continue  # the plan's own routes reach it after all
        from_b = distances_from(graph, working, b)
        best: tuple[int, int] | None = None  # (cost, route)
        for route, holder in enumerate(owners):
            if holder in (-1, seat):
                continue
            ra, rb = board.route_a[route], board.route_b[route]
            if station_owners[ra] != -1 and station_owners[rb] != -1:
                continue
            cost = min(from_a[ra] + from_b[rb], from_a[rb] + from_b[ra])
            if cost <= spare and (best is None or cost < best[0]):
                best = (cost, route)
        if best is None:
            continue
        route = best[1]
        ends = [c for c in (board.route_a[route], board.route_b[route]) if station_owners[c] == -1]
        # Of two free ends, the one more of the others' routes lead into (more to lend).
        city = max(ends, key=lambda c: (_lendable(graph, owners, seat, c), -c))
        payment = _cheapest(board.station_payments(cards)[city], cards, GRAY_INDEX, hand, needs)
        if payment is None:
            return None
        value = 2 * board.ticket_value[ticket] - rules.station_points - cards
        return StationRescue(payment, city, route, ticket, float(value))
    return None


def _lendable(graph: BoardGraph, owners: Sequence[int], seat: int, city: int) -> int:
    return sum(1 for _, route in graph.neighbors[city] if owners[route] not in (-1, seat))
