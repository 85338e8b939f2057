"""E1: at the end of a game with stations, each station lets its owner use one
route of another player into its city, to complete tickets. The engine tries every
choice (each station: one of those routes, or none) and keeps the best one.

Stations never count for the longest path (R16): only for tickets.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ttr_core.engine.compiled import Board
from ttr_core.engine.connectivity import Connectivity
from ttr_core.engine.points import signed_ticket_points


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
