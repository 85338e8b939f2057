"""Which routes a seat may still claim: free (R9) and not closed by a parallel
track (R11). One definition for the bookkeeping (which keeps each seat's open
routes), the claims, the bots and the tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.engine.compiled import Board, OpenGroup, OpenGroups


def is_open_to(
    board: Board,
    route: int,
    seat: int,
    owner: Sequence[int],
    num_players: int,
    double_routes_from: int,
) -> bool:
    """Whether `route` is still free (R9) and not closed to `seat` by a parallel
    track (R11)."""
    if owner[route] != -1:
        return False
    for sibling in board.route_siblings[route]:
        holder = owner[sibling]
        # R11: never both tracks; with 2-3 players the other track closes once one is taken.
        if holder == seat or (holder != -1 and num_players < double_routes_from):
            return False
    return True


def can_claim_route(
    board: Board,
    route: int,
    seat: int,
    owner: Sequence[int],
    num_players: int,
    wagons: int,
    double_routes_from: int,
) -> bool:
    """Whether `seat` may claim `route` apart from paying for it: open to it (R9,
    R11) and enough wagons (R9)."""
    return board.route_length[route] <= wagons and is_open_to(
        board, route, seat, owner, num_players, double_routes_from
    )


def open_route_groups(
    board: Board,
    seat: int,
    owner: Sequence[int],
    num_players: int,
    double_routes_from: int,
) -> OpenGroups:
    """The routes open to `seat` (R9, R11), grouped by (colour, length, ferry) in the
    order of `board.routes_by_shape` (a group may be empty): how a hand can pay
    depends only on the group. Changes only when a route is claimed (`close_route`)."""
    if owner.count(-1) == len(owner):
        return board.open_groups  # nothing claimed yet: every route is open
    return tuple(
        (
            length,
            ferry,
            tuple(
                r
                for r, _ in routes
                if is_open_to(board, r, seat, owner, num_players, double_routes_from)
            ),
        )
        for _, length, ferry, routes in board.routes_by_shape
    )


def close_route(
    board: Board,
    open_groups: Sequence[list[OpenGroup] | None],
    claimer: int,
    route: int,
    double_routes_from: int,
) -> None:
    """`route` was claimed by `claimer`: it leaves every seat's open routes (kept
    per seat, changed in place; None for a seat whose routes are not made yet, R9),
    and so do its parallel tracks for the claimer, and for everyone with 2-3
    players (R11)."""
    siblings = board.route_siblings[route]
    few_players = len(open_groups) < double_routes_from
    for seat, groups in enumerate(open_groups):
        if groups is None:
            continue
        for closed in (route, *siblings) if seat == claimer or few_players else (route,):
            index = board.route_group[closed]
            length, ferry, routes = groups[index]
            if closed in routes:
                at = routes.index(closed)
                groups[index] = (length, ferry, routes[:at] + routes[at + 1 :])
