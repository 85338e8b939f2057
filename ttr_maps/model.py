"""The map model: frozen values for cities, routes, tickets and whole maps.

A `Map` is what the engine plays and what checks, previews and statistics read.
It knows nothing of files: `ttr_maps.io.document` turns YAML into a `Map` and keeps
the positions that reports need.

>>> m = Map.from_data({
...     "format": 1, "id": "tiny", "name": "Tiny", "coordinates": "plane",
...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 1, "y": 0}},
...     "routes": [{"between": ["A", "B"], "length": 2, "color": ["red", "blue"]}],
...     "tickets": [{"between": ["A", "B"], "value": 2}],
... })
>>> [r.id for r in m.routes]
['A-B/1', 'A-B/2']
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

from ttr_maps.rules import BASE, CARD_COLORS, RULE_SET_VALUES, RuleSet

#: A gray route may be paid with any one card colour (R9).
GRAY = "gray"
ROUTE_COLORS: tuple[str, ...] = (*CARD_COLORS, GRAY)

CoordinateKind = Literal["geographic", "plane"]


@dataclass(frozen=True, slots=True)
class City:
    """A city and its position: (lat, lon) for geographic maps, (x, y) for plane maps."""

    name: str
    index: int
    position: tuple[float, float]


def route_id(a: str, b: str, track: int | None = None) -> str:
    """The stable id of a route: its cities in sorted order, spaces as underscores,
    and the track number for one of several parallel tracks.

    >>> route_id("Kansas City", "Denver", 2)
    'Denver-Kansas_City/2'
    """
    first, second = sorted((a, b))
    base = f"{first}-{second}".replace(" ", "_")
    return base if track is None else f"{base}/{track}"


@dataclass(frozen=True, slots=True)
class Route:
    """One route segment (one track of a double route is a segment of its own).

    `entry` is the position of the route's entry in the map's `routes` list, so that
    a report can point at the line that declared it.
    """

    id: str
    index: int
    a: str
    b: str
    length: int
    color: str
    track: int | None = None
    tunnel: bool = False
    ferry: int = 0
    entry: int = 0

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    @property
    def is_double(self) -> bool:
        return self.track is not None


@dataclass(frozen=True, slots=True)
class Ticket:
    """A destination ticket. `entry` is its position in the map's `tickets` list.

    `value` is the shortest wagon distance (R2); `bonus` is a designer's extra price
    on top of it (D7), scored with it: `points` is what the ticket wins or loses.

    >>> str(Ticket("Denver", "El Paso", 4, bonus=2)), Ticket("Denver", "El Paso", 4, bonus=2).points
    ('Denver–El Paso (4+2)', 6)
    """

    a: str
    b: str
    value: int
    long: bool = False
    entry: int = 0
    bonus: int = 0

    @property
    def cities(self) -> tuple[str, str]:
        return (self.a, self.b)

    @property
    def points(self) -> int:
        """R15 with D7: the points a completed ticket scores (an incomplete one loses them)."""
        return self.value + self.bonus

    def __str__(self) -> str:
        price = f"{self.value}+{self.bonus}" if self.bonus else f"{self.value}"
        return f"{self.a}–{self.b} ({price})"


Point = tuple[float, float]


@dataclass(frozen=True)
class BoardLayout:
    """A map's optional board layout (`layout:` in the file): what is drawn, while
    the cities' own coordinates stay the truth for distances.

    Board units are centimetres, y up. `cities` are board positions; `labels` the
    centre of each city's label relative to its city; `bends` the points a route
    passes through between its two cities, keyed by the pair as written (points
    go from the first city to the second); `size` is (width, height) of the board;
    `pinned` the cities a designer pinned (`pin: true`): `ttr layout` keeps them
    where they are.
    """

    cities: Mapping[str, Point]
    labels: Mapping[str, Point] = field(default_factory=dict)
    bends: Mapping[tuple[str, str], tuple[Point, ...]] = field(default_factory=dict)
    size: Point | None = None
    pinned: frozenset[str] = frozenset()

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> BoardLayout:
        cities = data.get("cities", {}) or {}
        board = data.get("board")
        return cls(
            cities={name: (float(c["x"]), float(c["y"])) for name, c in cities.items()},
            labels={
                name: (float(c["label"][0]), float(c["label"][1]))
                for name, c in cities.items()
                if "label" in c
            },
            bends={
                (b["between"][0], b["between"][1]): tuple(
                    (float(x), float(y)) for x, y in b["points"]
                )
                for b in data.get("bends", []) or []
            },
            size=(float(board["width"]), float(board["height"])) if board else None,
            pinned=frozenset(name for name, c in cities.items() if c.get("pin") is True),
        )

    def bend(self, a: str, b: str) -> tuple[Point, ...]:
        """The bend points of the route between `a` and `b`, going from `a` to `b`."""
        if (a, b) in self.bends:
            return self.bends[(a, b)]
        return tuple(reversed(self.bends.get((b, a), ())))


@dataclass(frozen=True)
class Map:
    """A whole map: what a designer wrote, as frozen values.

    Build one with `Map.from_data` from data that passed the JSON Schema, or load a
    file with `ttr_maps.load_map`.
    """

    id: str
    name: str
    rules: str
    wagons: int
    coordinates: CoordinateKind
    cities: tuple[City, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    #: The `settings` block as written (rule-set fields the map changes, see
    #: `ttr_maps.rules`); `wagons` is also read into `wagons`.
    settings: Mapping[str, Any] = field(default_factory=dict, compare=False)
    #: The board layout, if the file has one (`ttr layout --write` makes one).
    layout: BoardLayout | None = field(default=None, compare=False)
    #: Rules of the board that ttr does not model (`not_modelled:`): the map plays
    #: under its `rules` without them, and every report that names the map says so.
    not_modelled: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Map:
        """Build a map from schema-valid data (a parsed YAML document).

        Routes are expanded to one segment per track. Parallel tracks between the
        same two cities are numbered 1, 2, … in file order, whether they were written
        as one entry with a list of colours or as several entries.
        """
        geographic = data.get("coordinates", "geographic") == "geographic"
        keys = ("lat", "lon") if geographic else ("x", "y")
        cities = tuple(
            City(name, i, (float(spec[keys[0]]), float(spec[keys[1]])))
            for i, (name, spec) in enumerate(data.get("cities", {}).items())
        )
        tracks_between: dict[frozenset[str], int] = {}
        for entry in data.get("routes", []):
            pair = frozenset(entry["between"])
            colors = entry["color"]
            tracks_between[pair] = tracks_between.get(pair, 0) + (
                len(colors) if isinstance(colors, list) else 1
            )
        routes: list[Route] = []
        seen_tracks: dict[frozenset[str], int] = {}
        for entry_index, entry in enumerate(data.get("routes", [])):
            a, b = entry["between"]
            pair = frozenset((a, b))
            colors = entry["color"] if isinstance(entry["color"], list) else [entry["color"]]
            for color in colors:
                track = None
                if tracks_between[pair] > 1:
                    track = seen_tracks.get(pair, 0) + 1
                    seen_tracks[pair] = track
                routes.append(
                    Route(
                        id=route_id(a, b, track),
                        index=len(routes),
                        a=a,
                        b=b,
                        length=int(entry["length"]),
                        color=color,
                        track=track,
                        tunnel=bool(entry.get("tunnel", False)),
                        ferry=int(entry.get("ferry", 0)),
                        entry=entry_index,
                    )
                )
        tickets = tuple(
            Ticket(
                a=t["between"][0],
                b=t["between"][1],
                value=int(t["value"]),
                long=bool(t.get("long", False)),
                entry=i,
                bonus=int(t.get("bonus", 0)),
            )
            for i, t in enumerate(data.get("tickets", []))
        )
        settings = data.get("settings", {}) or {}
        rules = str(data.get("rules", "base"))
        # R4: the named rule set's wagons unless the map sets its own.
        default_wagons = RULE_SET_VALUES.get(rules, BASE).wagons
        return cls(
            id=str(data["id"]),
            name=str(data["name"]),
            rules=rules,
            wagons=int(settings.get("wagons", default_wagons)),
            coordinates="geographic" if geographic else "plane",
            cities=cities,
            routes=tuple(routes),
            tickets=tickets,
            settings=dict(settings),
            layout=BoardLayout.from_data(data["layout"]) if data.get("layout") else None,
            not_modelled=tuple(str(text) for text in data.get("not_modelled", ()) or ()),
        )

    # Lookups are derived once per map; the map itself never changes.
    @cached_property
    def city_index(self) -> dict[str, int]:
        return {c.name: c.index for c in self.cities}

    @cached_property
    def route_by_id(self) -> dict[str, Route]:
        return {r.id: r for r in self.routes}

    @cached_property
    def parallel_routes(self) -> dict[frozenset[str], tuple[Route, ...]]:
        """Routes grouped by the unordered pair of cities they join."""
        groups: dict[frozenset[str], list[Route]] = {}
        for r in self.routes:
            groups.setdefault(frozenset(r.cities), []).append(r)
        return {pair: tuple(rs) for pair, rs in groups.items()}

    @property
    def is_geographic(self) -> bool:
        return self.coordinates == "geographic"

    @property
    def total_spaces(self) -> int:
        return sum(r.length for r in self.routes)

    def city(self, name: str) -> City:
        return self.cities[self.city_index[name]]

    @cached_property
    def in_play_order(self) -> Map:
        """The same map with its cities, routes and tickets in an order the file does
        not choose: cities by name, routes by their two cities' names, then length,
        colour, tunnel and ferry, tickets by their two cities' names, then value,
        bonus and long (`index` is the new position, `entry` still the line's place
        in the file). The engine plays this order, so the same map written in
        another order plays the same games; items that sort alike are alike in
        every way play can see (two gray tracks of one double), and their order
        only decides which id each one carries.

        >>> m = Map.from_data({
        ...     "format": 1, "id": "tiny", "name": "Tiny", "coordinates": "plane",
        ...     "cities": {"B": {"x": 1, "y": 0}, "A": {"x": 0, "y": 0}},
        ...     "routes": [{"between": ["B", "A"], "length": 2, "color": ["red", "blue"]}],
        ... })
        >>> [c.name for c in m.in_play_order.cities], [r.id for r in m.in_play_order.routes]
        (['A', 'B'], ['A-B/2', 'A-B/1'])
        """
        cities = sorted(self.cities, key=lambda c: c.name)
        routes = sorted(self.routes, key=_route_order)
        tickets = sorted(self.tickets, key=_ticket_order)
        in_order = (list(self.cities), list(self.routes), list(self.tickets))
        if (cities, routes, tickets) == in_order:
            return self
        ordered = replace(
            self,
            cities=tuple(replace(c, index=i) for i, c in enumerate(cities)),
            routes=tuple(replace(r, index=i) for i, r in enumerate(routes)),
            tickets=tuple(tickets),
        )
        ordered.__dict__["in_play_order"] = ordered  # already in play order
        return ordered


def _route_order(route: Route) -> tuple[str, str, int, str, bool, int]:
    first, second = sorted(route.cities)
    return (first, second, route.length, route.color, route.tunnel, route.ferry)


def _ticket_order(ticket: Ticket) -> tuple[str, str, int, int, bool]:
    first, second = sorted(ticket.cities)
    return (first, second, ticket.value, ticket.bonus, ticket.long)


@dataclass(frozen=True, slots=True)
class PlayerLoad:
    """Spaces against wagons for one player count.

    `claimable_spaces` counts one track per double route with 2 or 3 players (R11:
    below the rule set's `double_routes_from`).
    `wagon_ratio` is wagons in play per claimable space: near 1 the board fills up.
    """

    players: int
    wagons_in_play: int
    spaces: int
    claimable_spaces: int
    wagon_ratio: float


def player_loads(game_map: Map, rules: RuleSet) -> tuple[PlayerLoad, ...]:
    """Spaces against wagons for every player count of `rules` (R1, R4, R11):
    TTR451 and `ttr stats` read it."""
    spaces = game_map.total_spaces
    # R11: in a 2- or 3-player game a double route gives one claimable track.
    # Parallel tracks may differ in length (TTR255): the longest is what one track can take.
    single_track = sum(max(r.length for r in group) for group in game_map.parallel_routes.values())
    loads = []
    for players in rules.player_counts():
        claimable = single_track if rules.is_single_track(players) else spaces
        in_play = players * rules.wagons
        ratio = in_play / claimable if claimable else math.inf
        loads.append(PlayerLoad(players, in_play, spaces, claimable, round(ratio, 3)))
    return tuple(loads)
