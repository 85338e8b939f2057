"""E1: at the end of a `europe` game, each station lets its owner use one route
of another player into its city, to complete tickets. The engine tries every
choice (each station: one of those routes, or none) and keeps the best one.

Stations never count for the longest path (R16): only for tickets.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from ttr_core.board import Board


def ticket_points_with(
    board: Board, routes: Sequence[int], tickets: Sequence[int]
) -> tuple[int, tuple[bool, ...]]:
    """R15 ticket points of `tickets` when `routes` join cities, and which are complete."""
    parent = list(range(board.num_cities))

    def find(city: int) -> int:
        while parent[city] != city:
            parent[city] = parent[parent[city]]
            city = parent[city]
        return city

    for route in routes:
        a, b = find(board.route_a[route]), find(board.route_b[route])
        if a != b:
            parent[a] = b
    completed = tuple(find(board.ticket_a[t]) == find(board.ticket_b[t]) for t in tickets)
    points = sum(
        board.ticket_value[t] if done else -board.ticket_value[t]
        for t, done in zip(tickets, completed, strict=True)
    )
    return points, completed


def best_station_routes(
    board: Board,
    owner: Sequence[int],
    seat: int,
    station_cities: Sequence[int],
    tickets: Sequence[int],
) -> tuple[int | None, ...]:
    """For each of `seat`'s stations, the borrowed route (index) that gives the most
    ticket points, or None. Among equally good choices, the first found: fewer
    borrowed routes, then lower route indices."""
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
    best_points, _ = ticket_points_with(board, own, tickets)
    for choice in product(*candidates):
        borrowed = [r for r in choice if r is not None]
        if not borrowed:
            continue
        points, _ = ticket_points_with(board, own + borrowed, tickets)
        if points > best_points:
            best_points, best_choice = points, choice
    return best_choice
