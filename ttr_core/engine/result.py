"""Final scoring and ranking (R13, R15, R16, R17, D5, D7; E1's stations) as
frozen values.

A `GameResult` is what a record stores and what `ttr replay --verify` compares.

E1: at the end of a game with stations, each station lets its owner use one route
of another player into its city, to complete tickets. The engine tries every
choice (each station: one of those routes, or none) and keeps the best one
(`best_station_routes`). Stations never count for the longest path (R16): only for
tickets.

>>> signed_ticket_points([8, 5], [True, False])
3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import product
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from ttr_core.engine.books import Books
from ttr_core.engine.compiled import Board
from ttr_core.engine.connectivity import Connectivity
from ttr_core.engine.enums import Status
from ttr_core.engine.longest_path import longest_trail_in

if TYPE_CHECKING:
    from ttr_maps.model import Map


@dataclass(frozen=True)
class ClaimedRoute:
    id: str
    a: str
    b: str
    length: int
    color: str


@dataclass(frozen=True)
class TicketOutcome:
    a: str
    b: str
    value: int
    completed: bool
    long: bool = False


@dataclass(frozen=True)
class SeatResult:
    seat: int
    status: str
    routes: tuple[ClaimedRoute, ...]
    tickets: tuple[TicketOutcome, ...]
    wagons_left: int
    longest_path: int
    #: Score parts: routes, tickets, longest_path_bonus (and stations for `europe`).
    score: Mapping[str, int]
    total: int
    rank: int
    #: E1 (europe rules): cities of the seat's stations, and the routes of other
    #: players they let it use for tickets.
    stations: tuple[str, ...] = ()
    station_routes: tuple[str, ...] = ()

    @property
    def completed_tickets(self) -> int:
        return sum(1 for t in self.tickets if t.completed)


@dataclass(frozen=True)
class GameResult:
    end_reason: str
    seats: tuple[SeatResult, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"end_reason": self.end_reason, "seats": [asdict(s) for s in self.seats]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        seats = tuple(
            SeatResult(
                seat=s["seat"],
                status=s["status"],
                routes=tuple(ClaimedRoute(**r) for r in s["routes"]),
                tickets=tuple(TicketOutcome(**t) for t in s["tickets"]),
                wagons_left=s["wagons_left"],
                longest_path=s["longest_path"],
                score=dict(s["score"]),
                total=s["total"],
                rank=s["rank"],
                stations=tuple(s.get("stations", ())),
                station_routes=tuple(s.get("station_routes", ())),
            )
            for s in data["seats"]
        )
        return cls(data["end_reason"], seats)

    def winners(self) -> list[int]:
        """Seats ranked first."""
        return [s.seat for s in self.seats if s.rank == 1]


def signed_ticket_points(values: Sequence[int], completed: Sequence[bool]) -> int:
    """R15: + the value of each completed ticket, - the value of each incomplete one."""
    return sum(v if done else -v for v, done in zip(values, completed, strict=True))


def ticket_points(outcomes: Sequence[TicketOutcome]) -> int:
    """R15: plus every completed ticket, minus every incomplete one."""
    return signed_ticket_points([t.value for t in outcomes], [t.completed for t in outcomes])


def rank_seats(keys: Sequence[tuple[bool, tuple[int, ...]]]) -> list[int]:
    """R17 and D5: rank by (is active, tie-break key) descending, shared ranks for
    equal keys (1, 1, 3, ...). Inactive seats come after every active one.

    >>> rank_seats([(True, (50, 2, 9)), (True, (50, 2, 9)), (True, (60, 0, 0)), (False, (99,))])
    [2, 2, 1, 4]
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i], reverse=True)
    ranks = [0] * len(keys)
    for position, seat in enumerate(order):
        if position and keys[seat] == keys[order[position - 1]]:
            ranks[seat] = ranks[order[position - 1]]
        else:
            ranks[seat] = position + 1
    return ranks


def tickets_completed_by(
    board: Board, routes: Sequence[int], tickets: Sequence[int]
) -> tuple[bool, ...]:
    """R13: which of `tickets` the `routes` complete."""
    joined = Connectivity.of_routes(
        board.num_cities, ((board.route_a[r], board.route_b[r]) for r in routes)
    )
    return tuple(joined.connected(board.ticket_a[t], board.ticket_b[t]) for t in tickets)


def ticket_points_with(
    board: Board, routes: Sequence[int], tickets: Sequence[int]
) -> tuple[int, tuple[bool, ...]]:
    """R15 ticket points of `tickets` when `routes` join cities, and which are complete."""
    completed = tickets_completed_by(board, routes, tickets)
    return signed_ticket_points([board.ticket_value[t] for t in tickets], completed), completed


def best_station_routes(
    board: Board,
    owner: Sequence[int],
    seat: int,
    station_cities: Sequence[int],
    tickets: Sequence[int],
) -> tuple[int | None, ...]:
    """For each of `seat`'s stations, the borrowed route (index) or None: the choice
    with the most ticket points (R15); among those, the one completing the most
    tickets (R17 breaks ties on completed tickets); then the fewest borrowed routes;
    then the first in the search order (each station's routes by route index, the
    first station's choice varying slowest)."""
    own = [r for r, holder in enumerate(owner) if holder == seat]
    candidates = []
    for city in station_cities:
        touching = [
            r
            for r in range(board.num_routes)
            if owner[r] not in (-1, seat) and city in (board.route_a[r], board.route_b[r])
        ]
        candidates.append([None, *touching])
    best_choice: tuple[int | None, ...] = tuple(None for _ in station_cities)
    points, done = ticket_points_with(board, own, tickets)
    best_key = (points, sum(done), 0)
    for choice in product(*candidates):
        borrowed = [r for r in choice if r is not None]
        if not borrowed:
            continue
        points, done = ticket_points_with(board, own + borrowed, tickets)
        key = (points, sum(done), -len(borrowed))
        if key > best_key:
            best_key, best_choice = key, choice
    return best_choice


@dataclass(frozen=True, slots=True)
class _SeatTickets:
    """One seat's tickets at the end (R13, E1): the routes its stations borrow, and
    each held ticket's outcome."""

    stations: tuple[int, ...]
    borrowed: tuple[int, ...]
    outcomes: tuple[TicketOutcome, ...]


def _seat_tickets(state: Books, seat: int, owned: Sequence[int]) -> _SeatTickets:
    """R13: which held tickets the seat's routes complete; E1: with the routes its
    stations borrow, chosen for the most ticket points."""
    held = state.tickets[seat]
    stations = tuple(c for c, s in enumerate(state.station_owner) if s == seat)
    borrowed: tuple[int, ...] = ()
    if stations:
        choice = best_station_routes(state.board, state.owner, seat, stations, held)
        borrowed = tuple(r for r in choice if r is not None)
        done = tickets_completed_by(state.board, [*owned, *borrowed], held)
    else:
        done = tuple(state.is_ticket_complete(seat, t) for t in held)
    either = _ticket_outcomes(state.board, state.map)
    outcomes = tuple([either[t][completed] for t, completed in zip(held, done, strict=True)])
    return _SeatTickets(stations, borrowed, outcomes)


def _score_parts(
    state: Books, seat: int, tickets: _SeatTickets, has_bonus: bool, most_tickets: bool
) -> dict[str, int]:
    """R15 (routes, tickets), R16 (the longest-path bonus), E1 (stations kept) and
    P4 (the Globetrotter bonus, for rule sets that give one)."""
    rules = state.rule_set
    score = {
        "routes": state.route_points[seat],
        "tickets": ticket_points(tickets.outcomes),
        "longest_path_bonus": rules.longest_path_bonus if has_bonus else 0,
    }
    if rules.stations:
        score["stations"] = rules.station_points * state.stations_left[seat]  # E1
    if rules.most_tickets_bonus:
        score["most_tickets_bonus"] = rules.most_tickets_bonus if most_tickets else 0  # P4
    if rules.grand_tour_points:
        tours = grand_tours(state.board, state.claimed_routes(seat), state.tickets[seat])
        points = rules.grand_tour_points
        score["grand_tour_bonus"] = points[min(tours, len(points)) - 1] if tours else 0  # P5
    return score


def grand_tours(board: Board, routes: Sequence[int], tickets: Sequence[int]) -> int:
    """P5: how many of `tickets` have their two cities joined by two paths of
    `routes` that share no route (they may cross at a city): the cities are joined,
    and no single route, taken away, parts them (two such paths exist exactly then,
    Menger). A seat never owns two tracks of one pair (R11)."""
    ends = [(board.route_a[r], board.route_b[r]) for r in routes]
    whole = Connectivity.of_routes(board.num_cities, ends)
    count = 0
    for t in tickets:
        a, b = board.ticket_a[t], board.ticket_b[t]
        if not whole.connected(a, b):
            continue
        if all(
            Connectivity.of_routes(board.num_cities, ends[:i] + ends[i + 1 :]).connected(a, b)
            for i in range(len(ends))
        ):
            count += 1
    return count


#: Per board, every route as a result names it: frozen values made once (a
#: dataclass's `__init__` per claimed route per game was 1 % of a random game).
_CLAIMED: WeakKeyDictionary[Board, tuple[ClaimedRoute, ...]] = WeakKeyDictionary()


def _claimed_routes(board: Board, game_map: Map) -> tuple[ClaimedRoute, ...]:
    """Every route of `game_map` (numbered as `board`'s) as a result names it."""
    found = _CLAIMED.get(board)
    if found is None:
        found = _CLAIMED[board] = tuple(
            ClaimedRoute(r.id, r.a, r.b, r.length, r.color) for r in game_map.routes
        )
    return found


#: Per board, each ticket's two possible outcomes (missed, completed), made once
#: like the claimed routes.
_TICKETS: WeakKeyDictionary[Board, tuple[tuple[TicketOutcome, TicketOutcome], ...]] = (
    WeakKeyDictionary()
)


def _ticket_outcomes(
    board: Board, game_map: Map
) -> tuple[tuple[TicketOutcome, TicketOutcome], ...]:
    """Every ticket of `game_map` (numbered as `board`'s), missed and completed."""
    found = _TICKETS.get(board)
    if found is None:
        found = _TICKETS[board] = tuple(
            # R15 with D7: a ticket is worth its value plus the designer's bonus.
            (
                TicketOutcome(t.a, t.b, t.points, False, t.long),
                TicketOutcome(t.a, t.b, t.points, True, t.long),
            )
            for t in game_map.tickets
        )
    return found


@dataclass(frozen=True, slots=True)
class Standings:
    """R15-R17 for a finished game, before it is written up as a `GameResult`:
    each seat's routes, longest path, tickets, score parts, total and rank."""

    owned: list[list[int]]
    longest: list[int]
    tickets: list[_SeatTickets]
    scores: list[dict[str, int]]
    totals: list[int]
    ranks: list[int]


def standings(state: Books) -> Standings:
    """R15-R17 for a finished game: what `score_game` writes up (a search's
    playouts read the totals and ranks alone)."""
    seats = range(state.num_players)
    owned = [state.claimed_routes(seat) for seat in seats]
    longest = [longest_trail_in(state.board.trail_table, owned[seat]) for seat in seats]
    active = [state.status[seat] == Status.ACTIVE for seat in seats]
    # R16, D5: only active players can hold the bonus; a path needs a route.
    best = max((longest[s] for s in seats if active[s]), default=0)
    tickets = [_seat_tickets(state, seat, owned[seat]) for seat in seats]
    # P4, like R16: every active seat with the most completed tickets, if any.
    completed = [sum(t.completed for t in tickets[s].outcomes) for s in seats]
    most = max((completed[s] for s in seats if active[s]), default=0)
    scores = [
        _score_parts(
            state,
            s,
            tickets[s],
            active[s] and best > 0 and longest[s] == best,
            active[s] and most > 0 and completed[s] == most,
        )
        for s in seats
    ]
    totals = [sum(score.values()) for score in scores]
    # R17: score, then completed tickets, then the longer continuous path; E1 puts
    # fewer stations built between the last two.
    ranks = rank_seats(
        [
            (
                active[s],
                (
                    totals[s],
                    completed[s],
                    -len(tickets[s].stations),
                    longest[s],
                ),
            )
            for s in seats
        ]
    )
    return Standings(owned, longest, tickets, scores, totals, ranks)


def score_game(state: Books) -> GameResult:
    """R15-R17 for a finished game (`standings`), written up."""
    game_map = state.map
    claimed = _claimed_routes(state.board, game_map)
    final = standings(state)
    tickets = final.tickets
    results = tuple(
        SeatResult(
            seat=seat,
            status=state.status[seat],
            routes=tuple([claimed[r] for r in final.owned[seat]]),
            tickets=tickets[seat].outcomes,
            wagons_left=state.wagons[seat],
            longest_path=final.longest[seat],
            score=final.scores[seat],
            total=final.totals[seat],
            rank=final.ranks[seat],
            stations=tuple(game_map.cities[c].name for c in tickets[seat].stations),
            station_routes=tuple(game_map.routes[r].id for r in tickets[seat].borrowed),
        )
        for seat in range(state.num_players)
    )
    return GameResult(state.end_reason or "", results)
