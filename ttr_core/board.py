"""The map compiled for play: integer indices for cities, routes and colours.

A `Board` is built once per map and shared by every game on it; nothing in it
changes during a game. Claim actions are built here once, so that listing legal
actions only picks ready-made values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from weakref import WeakKeyDictionary

from ttr_core.actions import Claim, Payment
from ttr_core.cards import CARD_INDEX, CARD_NAMES, LOCO
from ttr_maps.model import CARD_COLORS, GRAY, Map

#: Route colour index of a gray route (cards are 0-7, LOCO is 8).
GRAY_INDEX = -1


@dataclass(frozen=True, eq=False)
class Board:
    map: Map
    #: Per route: the two city indices, length, colour index (GRAY_INDEX for gray).
    route_a: tuple[int, ...]
    route_b: tuple[int, ...]
    route_length: tuple[int, ...]
    route_color: tuple[int, ...]
    #: Per route: indices of the other tracks between the same two cities (R11).
    route_siblings: tuple[tuple[int, ...], ...]
    route_index: dict[str, int]
    #: Per ticket: the two city indices and value; long tickets (E4) flagged.
    ticket_a: tuple[int, ...]
    ticket_b: tuple[int, ...]
    ticket_value: tuple[int, ...]
    ticket_long: tuple[bool, ...]
    #: claim_options[route][card] lists Claim actions paying with `card` colour,
    #: indexed by the number of locomotives; claim_options[route][LOCO] holds the
    #: one locomotives-only payment.
    claim_options: tuple[tuple[tuple[Claim, ...], ...], ...] = field(repr=False)

    @cached_property
    def routes_by_shape(
        self,
    ) -> tuple[tuple[int, int, tuple[tuple[int, tuple[int, ...]], ...]], ...]:
        """Routes grouped by (colour index, length), each as (route, siblings):
        whether a hand can pay depends only on the group."""
        groups: dict[tuple[int, int], list[tuple[int, tuple[int, ...]]]] = {}
        for route, (length, color) in enumerate(
            zip(self.route_length, self.route_color, strict=True)
        ):
            groups.setdefault((color, length), []).append((route, self.route_siblings[route]))
        return tuple((c, n, tuple(rs)) for (c, n), rs in sorted(groups.items()))

    @property
    def num_routes(self) -> int:
        return len(self.route_length)

    @property
    def num_cities(self) -> int:
        return len(self.map.cities)

    def route_name(self, index: int) -> str:
        return self.map.routes[index].id


_BOARDS: WeakKeyDictionary[Map, Board] = WeakKeyDictionary()


def board_for(game_map: Map) -> Board:
    """The board of a map, built on first use and then shared."""
    board = _BOARDS.get(game_map)
    if board is None:
        board = _build(game_map)
        _BOARDS[game_map] = board
    return board


def _claim_options(route_id: str, length: int, color: int) -> tuple[tuple[Claim, ...], ...]:
    """Every payment shape for one route (R9): per card colour, the claims with
    0..length-1 locomotives; and the locomotives-only claim under LOCO."""
    colors = range(len(CARD_COLORS)) if color == GRAY_INDEX else (color,)
    table: list[tuple[Claim, ...]] = [() for _ in CARD_NAMES]
    for c in colors:
        name = CARD_NAMES[c]
        table[c] = tuple(
            Claim(route_id, Payment(name, length - locos, locos)) for locos in range(length)
        )
    table[LOCO] = (Claim(route_id, Payment(None, 0, length)),)
    return tuple(table)


def _build(game_map: Map) -> Board:
    city = game_map.city_index
    routes = game_map.routes
    siblings = tuple(
        tuple(o.index for o in game_map.parallel_routes[frozenset(r.cities)] if o.index != r.index)
        for r in routes
    )
    colors = tuple(GRAY_INDEX if r.color == GRAY else CARD_INDEX[r.color] for r in routes)
    return Board(
        map=game_map,
        route_a=tuple(city[r.a] for r in routes),
        route_b=tuple(city[r.b] for r in routes),
        route_length=tuple(r.length for r in routes),
        route_color=colors,
        route_siblings=siblings,
        route_index={r.id: r.index for r in routes},
        ticket_a=tuple(city[t.a] for t in game_map.tickets),
        ticket_b=tuple(city[t.b] for t in game_map.tickets),
        ticket_value=tuple(t.value for t in game_map.tickets),
        ticket_long=tuple(t.long for t in game_map.tickets),
        claim_options=tuple(
            _claim_options(r.id, r.length, c) for r, c in zip(routes, colors, strict=True)
        ),
    )
