"""The map compiled for play: integer indices for cities, routes and colours.

A `Board` is built once per map and shared by every game on it; nothing in it
changes during a game. Claim actions are built here once, so that listing legal
actions only picks ready-made values.

**Play order.** A board numbers the map's cities, routes and tickets in the map's
play order (`Map.in_play_order`: by names, never by the file's order), and each
route's and ticket's two cities as the lower city index first. Everything that
follows an index (the decks dealt from the tickets, the legal actions listed, every
bot's tie) then follows names: the same map written in another order plays the same
games, its records equal up to the ids of a double's tracks. `board.map` is the map
in that order. Games recorded before (record version 1) were dealt from the file's
order: `board_for(game_map, file_order=True)` numbers things as the file does, so
that they replay exactly.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from weakref import WeakKeyDictionary

from ttr_core.engine.actions import Action, BuildStation, Claim, Payment
from ttr_core.engine.cards import CARD_INDEX, CARD_NAMES, LOCO
from ttr_core.engine.longest_path import RouteTable, route_table
from ttr_maps.model import CARD_COLORS, GRAY, Map
from ttr_maps.rules import DECK_SIZE, RuleSet, rules_for

#: Route colour index of a gray route (cards are 0-7, LOCO is 8).
GRAY_INDEX = -1

#: Routes open to one seat with one shape: (length, ferry, routes).
OpenGroup = tuple[int, int, tuple[int, ...]]
#: Routes open to one seat, a group per shape of `Board.routes_by_shape` (maybe
#: empty), in its order: `Board.gray_block` and `Board.card_blocks` tell each
#: colour's groups (see `ttr_core.engine.moves.claims.open_route_groups`).
OpenGroups = Sequence[OpenGroup]


class BoardTables:
    """The base of `Board`, empty here: the compiled build declares the board's
    per-route and per-ticket tables on it (`compiled.pxd`), so that they live in the
    object itself and code typed on it reads them without a look-up by name."""


@dataclass(frozen=True, eq=False)
class Board(BoardTables):
    # The tables declared on `BoardTables` in the compiled build are `field()`s: a
    # dataclass would take the base's descriptor for a default value otherwise.
    #: The map in the board's order (play order: `Map.in_play_order`), which every
    #: index of the board and of a game on it refers to.
    map: Map
    #: The map the board was asked for (in the file's order).
    source: Map
    #: Per route: the two city indices, length, colour index (GRAY_INDEX for gray).
    route_a: tuple[int, ...] = field()
    route_b: tuple[int, ...] = field()
    route_length: tuple[int, ...] = field()
    route_color: tuple[int, ...] = field()
    #: Per route: whether it is a tunnel (E2), and its ferry locomotives (E3).
    route_tunnel: tuple[bool, ...] = field()
    route_ferry: tuple[int, ...] = field()
    #: Per route: indices of the other tracks between the same two cities (R11).
    route_siblings: tuple[tuple[int, ...], ...] = field()
    route_index: dict[str, int]
    #: Per ticket: the two city indices and points (value + bonus, D7); long
    #: tickets (E4) flagged.
    ticket_a: tuple[int, ...] = field()
    ticket_b: tuple[int, ...] = field()
    ticket_value: tuple[int, ...] = field()
    ticket_long: tuple[bool, ...] = field()
    #: claim_options[route][card] lists Claim actions paying with `card` colour,
    #: indexed by the number of locomotives; claim_options[route][LOCO] holds the
    #: one locomotives-only payment.
    claim_options: tuple[tuple[tuple[Action, ...], ...], ...] = field(repr=False)
    #: Numbered in the file's order (games recorded before play order), not in
    #: play order.
    file_order: bool = False

    @cached_property
    def routes_by_shape(
        self,
    ) -> tuple[tuple[int, int, int, tuple[tuple[int, tuple[int, ...]], ...]], ...]:
        """Routes grouped by (colour index, length, ferry locomotives), each as
        (route, siblings): whether and how a hand can pay depends only on the group."""
        groups: dict[tuple[int, int, int], list[tuple[int, tuple[int, ...]]]] = {}
        shapes = zip(self.route_color, self.route_length, self.route_ferry, strict=True)
        for route, shape in enumerate(shapes):
            groups.setdefault(shape, []).append((route, self.route_siblings[route]))
        return tuple((c, n, f, tuple(rs)) for (c, n, f), rs in sorted(groups.items()))

    @cached_property
    def double_routes(self) -> tuple[tuple[int, tuple[int, ...]], ...]:
        """(route, its parallel tracks) for every route that has any (R11)."""
        return tuple((r, s) for r, s in enumerate(self.route_siblings) if s)

    @cached_property
    def trail_table(self) -> RouteTable:
        """Every route as R16's longest-trail search reads it (see
        `ttr_core.engine.longest_path.longest_trail_in`)."""
        return route_table(zip(self.route_a, self.route_b, self.route_length, strict=True))

    @cached_property
    def open_groups(self) -> tuple[OpenGroup, ...]:
        """`routes_by_shape` as (length, ferry, routes): every route open, as at the
        start of a game (see `ttr_core.engine.moves.claims.open_route_groups`)."""
        return tuple(
            (length, ferry, tuple(r for r, _ in routes))
            for _, length, ferry, routes in self.routes_by_shape
        )

    @cached_property
    def gray_block(self) -> tuple[int, int]:
        """(first, end) of the gray groups in `routes_by_shape` (they come first;
        lengths never decrease)."""
        end = sum(1 for color, _, _, _ in self.routes_by_shape if color == GRAY_INDEX)
        return 0, end

    @cached_property
    def card_blocks(self) -> tuple[tuple[int, int, int], ...]:
        """Per card colour 0-7: (colour, first, end) of its groups in `routes_by_shape`
        (lengths never decrease; first == end for a colour without routes)."""
        colors = [color for color, _, _, _ in self.routes_by_shape]
        return tuple(
            (color, bisect_left(colors, color), bisect_right(colors, color))
            for color in range(len(CARD_COLORS))
        )

    @cached_property
    def card_needs(self) -> tuple[tuple[int, ...], ...]:
        """card_needs[locos][card]: the fewest cards of colour `card` that, with
        `locos` locomotives, pay for its shortest route (more than a hand can hold for
        a colour without routes); the last entry serves for more locomotives."""
        shapes = self.routes_by_shape
        shortest = [
            shapes[first][1] if first < end else DECK_SIZE + 1 for _, first, end in self.card_blocks
        ]
        most = max(length for _, length, _, _ in shapes) if shapes else 0
        return tuple(tuple(n - locos for n in shortest) for locos in range(most + 1))

    @cached_property
    def route_group(self) -> tuple[int, ...]:
        """Per route: the index of its group in `routes_by_shape`."""
        group = [0] * self.num_routes
        for index, (_, _, _, routes) in enumerate(self.routes_by_shape):
            for route, _ in routes:
                group[route] = index
        return tuple(group)

    @cached_property
    def _station_tables(self) -> dict[int, tuple[tuple[tuple[Action, ...], ...], ...]]:
        return {}

    def station_payments(self, cost: int) -> tuple[tuple[tuple[Action, ...], ...], ...]:
        """E1: per city, the payment table for a station of `cost` cards (any cost a
        rule set asks for), made on first use."""
        tables = self._station_tables.get(cost)
        if tables is None:
            tables = self._station_tables[cost] = tuple(
                _payment_table(lambda p, name=city.name: BuildStation(name, p), cost, GRAY_INDEX)
                for city in self.map.cities
            )
        return tables

    @cached_property
    def _rule_sets(self) -> dict[str | None, RuleSet]:
        return {}

    def rule_set(self, rules: str | RuleSet | None = None) -> RuleSet:
        """`rules_for(self.map, rules)`: the rule set a game on this very map (not
        an equal one: `settings` do not count for equality) is played with, made
        once per name (a `RuleSet` is used as given)."""
        if isinstance(rules, RuleSet):
            return rules
        rule_set = self._rule_sets.get(rules)
        if rule_set is None:
            rule_set = self._rule_sets[rules] = rules_for(self.map, rules)
        return rule_set

    @property
    def num_routes(self) -> int:
        return len(self.route_length)

    @property
    def num_cities(self) -> int:
        return len(self.map.cities)

    def route_name(self, index: int) -> str:
        return self.map.routes[index].id


#: Boards by map (in play order, and in file order for old records): equal maps
#: share one board.
_BOARDS: WeakKeyDictionary[Map, Board] = WeakKeyDictionary()
_FILE_ORDER_BOARDS: WeakKeyDictionary[Map, Board] = WeakKeyDictionary()
#: The play-order boards by the id of the map they were asked for (`board.source`)
#: and of their own map in play order (`board.map`, which a game's view hands on):
#: the board keeps both alive, so an id stays theirs. Finding the board for every
#: game then needs no hash of the whole map.
_BY_ID: dict[int, Board] = {}


def board_for(game_map: Map, file_order: bool = False) -> Board:
    """The board of a map in play order (see the module's docstring), built on
    first use and then shared; with `file_order`, numbered as the file lists
    things (how games recorded before play order were dealt)."""
    if file_order:
        board = _FILE_ORDER_BOARDS.get(game_map)
        if board is None:
            board = _FILE_ORDER_BOARDS[game_map] = _build(game_map, game_map, file_order=True)
        return board
    board = _BY_ID.get(id(game_map))
    if board is not None and (board.source is game_map or board.map is game_map):
        return board
    board = _BOARDS.get(game_map)
    if board is None:
        board = _BOARDS[game_map] = _build(game_map.in_play_order, game_map)
        _BOARDS.setdefault(board.map, board)  # the map in play order plays on it too
        _BY_ID[id(board.map)] = board
    if board.source is game_map:
        _BY_ID[id(game_map)] = board
    return board


def _payment_table(
    make: Callable[[Payment], Action], length: int, color: int
) -> tuple[tuple[Action, ...], ...]:
    """Every payment shape for `length` cards (R9): per card colour, the actions
    with 0..length-1 locomotives; and the locomotives-only action under LOCO."""
    colors = range(len(CARD_COLORS)) if color == GRAY_INDEX else (color,)
    table: list[tuple[Action, ...]] = [() for _ in CARD_NAMES]
    if length == 0:
        return tuple(table)
    for c in colors:
        name = CARD_NAMES[c]
        table[c] = tuple(make(Payment(name, length - locos, locos)) for locos in range(length))
    table[LOCO] = (make(Payment(None, 0, length)),)
    return tuple(table)


def _build(game_map: Map, source: Map, file_order: bool = False) -> Board:
    """The board of `game_map` in its own order (`source` is the map it was asked
    for); each route's and ticket's ends as (lower index, higher), unless in
    `file_order` (as written, as games recorded before play order were played)."""
    city = game_map.city_index
    routes = game_map.routes

    def ends(a: str, b: str) -> tuple[int, int]:
        pair = (city[a], city[b])
        return pair if file_order else (min(pair), max(pair))

    route_ends = [ends(r.a, r.b) for r in routes]
    ticket_ends = [ends(t.a, t.b) for t in game_map.tickets]
    siblings = tuple(
        tuple(o.index for o in game_map.parallel_routes[frozenset(r.cities)] if o.index != r.index)
        for r in routes
    )
    colors = tuple(GRAY_INDEX if r.color == GRAY else CARD_INDEX[r.color] for r in routes)

    def claim_table(route_id: str, length: int, color: int) -> tuple[tuple[Action, ...], ...]:
        return _payment_table(lambda payment: Claim(route_id, payment), length, color)

    return Board(
        map=game_map,
        source=source,
        route_a=tuple(a for a, _ in route_ends),
        route_b=tuple(b for _, b in route_ends),
        route_length=tuple(r.length for r in routes),
        route_color=colors,
        route_tunnel=tuple(r.tunnel for r in routes),
        route_ferry=tuple(r.ferry for r in routes),
        route_siblings=siblings,
        route_index={r.id: r.index for r in routes},
        ticket_a=tuple(a for a, _ in ticket_ends),
        ticket_b=tuple(b for _, b in ticket_ends),
        ticket_value=tuple(t.points for t in game_map.tickets),  # D7: with any bonus
        ticket_long=tuple(t.long for t in game_map.tickets),
        claim_options=tuple(
            claim_table(r.id, r.length, c) for r, c in zip(routes, colors, strict=True)
        ),
        file_order=file_order,
    )
