"""The board the editor draws, and the frame between the page and the map.

The page shows the board's SVG (`ttr_core.web.svg.board_svg`, drawn from the
one board geometry) of the map as far as it can be drawn: a half-made map has
cities without a position, routes to nowhere, a length of 12; those are left out of
the drawing (the checks panel names them) and the rest is drawn as `ttr preview`
would draw it.

`Frame` turns a point of the SVG (what the page clicks or drags) into the map's
coordinates (latitude and longitude, or x and y), and on a laid-out board into
its centimetres as well; the length and colour a new route is offered come from
the same geometry (`suggest_length`, `suggest_colors`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from ttr_core.web.svg import CITY_RADIUS, LABEL_SIZE, SPACE_UNITS, board_svg, city_mark, svg_start
from ttr_maps.geometry.basemap import (
    affine,
    affine_fit,
    reference_latitude,
    world_and_board,
)
from ttr_maps.geometry.board import BoardGeometry, board_geometry
from ttr_maps.geometry.projection import EARTH_RADIUS_KM, project_lat_lon
from ttr_maps.model import ROUTE_COLORS, Map
from ttr_maps.rules import (
    MAX_PARALLEL_TRACKS,
    RULE_SET_VALUES,
    field_ranges,
    map_rules,
    route_lengths,
)

Point = tuple[float, float]
#: Kilometres per wagon space offered before a geographic map has any route (the
#: published North America and Europe boards are near this).
DEFAULT_KM_PER_SPACE = 150.0
#: Room around the drawn board where a click still places a city, as a share of its size.
ROOM = 0.15
_KM_PER_DEGREE = math.pi * EARTH_RADIUS_KM / 180
_VIEW_BOX = re.compile(r'viewBox="([-\d. ]+)"')


def _finite(*values: Any) -> bool:
    return all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values
    )


def drawable_map(data: Any) -> Map:
    """The part of a document that can be drawn, as a map: cities with usable
    coordinates, routes between two of them with a length of 1 to 8 and known
    colours, tickets between two of them, the layout if it places every city."""
    data = data if isinstance(data, dict) else {}
    plane = data.get("coordinates") == "plane"
    keys = ("x", "y") if plane else ("lat", "lon")
    cities = {}
    raw_cities = data.get("cities") if isinstance(data.get("cities"), dict) else {}
    for name, spec in raw_cities.items():
        if not (isinstance(name, str) and isinstance(spec, dict)):
            continue
        first, second = spec.get(keys[0]), spec.get(keys[1])
        if _finite(first, second) and (plane or (abs(first) <= 90 and abs(second) <= 180)):
            cities[name] = {keys[0]: first, keys[1]: second}
    routes = [r for r in _list(data, "routes") if is_drawable_route(r, cities)]
    tickets = [
        t
        for t in _list(data, "tickets")
        if _joins(t, cities) and _finite(t.get("value")) and isinstance(t.get("value"), int)
    ]
    rules = data.get("rules") if data.get("rules") in RULE_SET_VALUES else "base"
    drawable = {
        "id": "draft",
        "name": str(data.get("name", "")) or "draft",
        "rules": rules,
        "coordinates": "plane" if plane else "geographic",
        "cities": cities,
        "routes": routes,
        "tickets": [
            {"between": t["between"], "value": t["value"], "long": t.get("long") is True}
            for t in tickets
        ],
    }
    settings = data.get("settings") if isinstance(data.get("settings"), dict) else {}
    wagons, allowed = settings.get("wagons"), field_ranges()["wagons"]
    if (
        isinstance(wagons, int)
        and not isinstance(wagons, bool)
        and allowed.minimum <= wagons <= allowed.maximum
    ):
        drawable["settings"] = {"wagons": wagons}  # R4: the live numbers count them
    layout = _drawable_layout(data.get("layout"), cities, routes)
    if layout:
        drawable["layout"] = layout
    return Map.from_data(drawable)


def drawn_route_entries(data: Any, drawable: Map) -> list[int]:
    """The file's entry numbers of the routes `drawable_map` kept, in order."""
    cities = {c.name for c in drawable.cities}
    routes = data.get("routes") if isinstance(data, dict) else None
    if not isinstance(routes, list):
        return []
    return [i for i, r in enumerate(routes) if isinstance(r, dict) and is_drawable_route(r, cities)]


def _list(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data.get(key)
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def _joins(entry: dict[str, Any], cities: Any) -> bool:
    between = entry.get("between")
    return (
        isinstance(between, list)
        and len(between) == 2
        and all(isinstance(c, str) and c in cities for c in between)
        and between[0] != between[1]
    )


def is_drawable_route(route: dict[str, Any], cities: Any) -> bool:
    length, colors = route.get("length"), route.get("color")
    colors = colors if isinstance(colors, list) else [colors]
    ferry = route.get("ferry", 0)
    return (
        _joins(route, cities)
        and isinstance(length, int)
        and not isinstance(length, bool)
        and route_lengths().minimum <= length <= route_lengths().maximum
        and 1 <= len(colors) <= MAX_PARALLEL_TRACKS
        and all(isinstance(c, str) and c in ROUTE_COLORS for c in colors)
        and isinstance(ferry, int)
        and 0 <= ferry <= length
    )


def _drawable_layout(
    layout: Any, cities: dict[str, Any], routes: list[dict[str, Any]]
) -> dict[str, Any] | None:
    if not isinstance(layout, dict) or not isinstance(layout.get("cities"), dict):
        return None
    placed = {}
    for name in cities:
        spec = layout["cities"].get(name)
        if not (isinstance(spec, dict) and _finite(spec.get("x"), spec.get("y"))):
            return None
        kept = {"x": spec["x"], "y": spec["y"], "pin": spec.get("pin") is True}
        label = spec.get("label")
        if isinstance(label, list) and len(label) == 2 and _finite(*label):
            kept["label"] = label
        placed[name] = kept
    pairs = {frozenset(r["between"]) for r in routes}
    bends = [
        b
        for b in (layout.get("bends") if isinstance(layout.get("bends"), list) else [])
        if isinstance(b, dict)
        and _joins(b, cities)
        and frozenset(b["between"]) in pairs
        and isinstance(b.get("points"), list)
        and all(isinstance(p, list) and len(p) == 2 and _finite(*p) for p in b["points"])
    ]
    return {"cities": placed, "bends": bends}


@dataclass(frozen=True)
class Frame:
    """Between the SVG's units and the map: `factor` SVG units per board unit (y
    down in the SVG, up on the board); a board drawn from geography is projected
    around `reference_lat`; a laid-out board's centimetres go to projected
    kilometres (or plane units) by the affine map `to_world` fitted on its cities."""

    factor: float
    geographic: bool
    reference_lat: float
    laid_out: bool
    #: (a, b, c, d, e, f): world x = a·x + b·y + c, world y = d·x + e·y + f.
    to_world: tuple[float, ...] = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
    from_world: tuple[float, ...] = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)

    def board_point(self, svg: Point) -> Point:
        return (svg[0] / self.factor, -svg[1] / self.factor)

    def svg_of_board(self, board: Point) -> Point:
        return (board[0] * self.factor, -board[1] * self.factor)

    def position(self, svg: Point) -> Point:
        """The map's coordinates (lat, lon or x, y) of an SVG point."""
        world = affine(self.to_world, self.board_point(svg)) if self.laid_out else None
        x, y = world if world is not None else self.board_point(svg)
        if not self.geographic:
            return (x, y)
        lat = max(-89.9, min(89.9, y / _KM_PER_DEGREE))
        lon = x / (math.cos(math.radians(self.reference_lat)) * _KM_PER_DEGREE)
        return (lat, (lon + 180) % 360 - 180)

    def board_of_position(self, position: Point) -> Point:
        """Where a place at `position` (lat, lon or x, y) goes on a laid-out board."""
        world = project_lat_lon(*position, self.reference_lat) if self.geographic else position
        return affine(self.from_world, world)

    def svg_of_position(self, position: Point) -> Point:
        if self.laid_out:
            x, y = self.board_of_position(position)
        elif self.geographic:
            x, y = project_lat_lon(*position, self.reference_lat)
        else:
            x, y = position
        return (x * self.factor, -y * self.factor)


def frame_of(game_map: Map, board: BoardGeometry, region_lat: float | None) -> Frame:
    reference = reference_latitude(game_map, region_lat or 0.0)
    factor = SPACE_UNITS / board.space
    if not board.laid_out:
        return Frame(factor, game_map.is_geographic, reference, False)
    world, placed = world_and_board(game_map, board, reference)
    return Frame(
        factor,
        game_map.is_geographic,
        reference,
        True,
        affine_fit(placed, world),
        affine_fit(world, placed),
    )


@dataclass(frozen=True)
class Drawing:
    """The board as the page shows it: the SVG and its frame."""

    svg: str
    frame: Frame
    geometry: BoardGeometry


def draw(game_map: Map, region: tuple[float, float, float, float] | None) -> Drawing:
    """The map's SVG, its view widened to `region` (south, west, north, east, in
    degrees: the country a new map is drawn in) and by `ROOM` all round while it
    has fewer than three cities, so a click beside them still places a city; then
    framed on its cities (the drawing's own margin round them)."""
    centre_lat = (region[0] + region[2]) / 2 if region else None
    if game_map.cities:
        board = board_geometry(game_map)
    else:
        board = board_geometry(game_map)
        space = DEFAULT_KM_PER_SPACE if game_map.is_geographic else 1.0
        board = BoardGeometry({}, {}, space * 0.9, space * 0.3, space, (0, 0, 0, 0))
    if not game_map.routes and game_map.is_geographic and not board.laid_out:
        board = BoardGeometry(
            board.positions,
            board.routes,
            DEFAULT_KM_PER_SPACE * 0.9,
            DEFAULT_KM_PER_SPACE * 0.3,
            DEFAULT_KM_PER_SPACE,
            board.bounds,
        )
    frame = frame_of(game_map, board, centre_lat)
    svg = board_svg(game_map) if game_map.cities else _empty_svg()
    if not game_map.routes and game_map.cities and not board.laid_out:
        svg = _rescaled(svg, game_map, frame)
    boxes = [_view_box(svg)] if game_map.cities else []
    # A board with few cities, or none joined yet, shows the region it is drawn in.
    starting = len(game_map.cities) < 3 or not game_map.routes
    if region and starting and game_map.is_geographic and not board.laid_out:
        south, west, north, east = region
        corners = [frame.svg_of_position(p) for p in ((south, west), (north, east))]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        boxes.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    if not boxes:
        boxes.append((-5 * SPACE_UNITS, -5 * SPACE_UNITS, 10 * SPACE_UNITS, 10 * SPACE_UNITS))
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes)
    y1 = max(b[1] + b[3] for b in boxes)
    width, height = max(x1 - x0, SPACE_UNITS), max(y1 - y0, SPACE_UNITS)
    # The web table's drawing has a margin round its cities already; an empty or
    # nearly empty board gets room all round for the next click.
    room = ROOM * max(width, height) if len(game_map.cities) < 3 else 0.0
    view = (x0 - room, y0 - room, width + 2 * room, height + 2 * room)
    svg = _VIEW_BOX.sub(f'viewBox="{" ".join(f"{v:.1f}" for v in view)}"', svg, count=1)
    if game_map.is_geographic:  # coasts and borders under the board, where there is data
        from ttr_core.edit.background import background_svg
        from ttr_maps.geometry.basemap import map_box

        box = map_box([c.position for c in game_map.cities], region)
        under = background_svg(frame, box) if box is not None else ""
        at = svg.find('<g class="routes"')
        if under and at >= 0:
            svg = svg[:at] + under + svg[at:]
    return Drawing(svg, frame, board)


def _view_box(svg: str) -> tuple[float, float, float, float]:
    found = _VIEW_BOX.search(svg)
    assert found is not None
    x, y, w, h = (float(v) for v in found.group(1).split())
    return (x, y, w, h)


def _empty_svg() -> str:
    return (
        svg_start("0 0 1 1", "an empty board")
        + '<g class="routes"></g><g class="cities"></g></svg>'
    )


def _rescaled(svg: str, game_map: Map, frame: Frame) -> str:
    """A board without routes yet, drawn afresh at `DEFAULT_KM_PER_SPACE`: the web
    table's drawing guesses a wagon space from the spread of the cities, and the
    editor's clicks must land where its frame says."""
    parts = [svg_start("0 0 1 1", game_map.name), '<g class="routes"></g><g class="cities">']
    radius, size = CITY_RADIUS * SPACE_UNITS, LABEL_SIZE * SPACE_UNITS
    for city in game_map.cities:
        x, y = frame.svg_of_position(city.position)
        parts.append(
            city_mark(
                city.name,
                (f"{x:.1f}", f"{y:.1f}", f"{radius}"),
                (f"{x:.1f}", f"{y + radius + size * 0.7:.1f}", f"{size:.0f}"),
            )
        )
    parts.append("</g></svg>")
    svg = "".join(parts)
    xs = [frame.svg_of_position(c.position)[0] for c in game_map.cities]
    ys = [frame.svg_of_position(c.position)[1] for c in game_map.cities]
    box = f"{min(xs):.1f} {min(ys):.1f} {max(xs) - min(xs):.1f} {max(ys) - min(ys):.1f}"
    return _VIEW_BOX.sub(f'viewBox="{box}"', svg, count=1)


def suggest_length(drawing: Drawing, game_map: Map, a: str, b: str) -> int:
    """The length of a new route from its cities' distance on the board at the
    map's scale (the median board distance per wagon space), within R9's lengths."""
    frame = drawing.frame
    pa, pb = (frame.svg_of_position(game_map.city(n).position) for n in (a, b))
    if drawing.geometry.laid_out:
        pa, pb = drawing.geometry.positions[a], drawing.geometry.positions[b]
        distance = math.dist(pa, pb)
    else:
        distance = math.dist(pa, pb) / frame.factor
    # R10: no longer than the map's rule set scores (8 unless its route_points say more).
    longest = min(route_lengths().maximum, map_rules(game_map).longest_scored_route)
    return max(route_lengths().minimum, min(longest, round(distance / drawing.geometry.space)))


def suggest_colors(
    game_map: Map, tracks: int = 1, length: int = 1, first: str | None = None
) -> tuple[str, ...]:
    """The colours a new route (or a double route's second track, after `first`)
    is offered: balanced as the published boards are, gray included
    (`balanced_colors`).

    >>> suggest_colors(Map.from_data({"id": "t", "name": "T", "cities": {}, "routes": []}), 2)
    ('gray', 'gray')
    """
    from ttr_maps.authoring.starter import balanced_colors

    spaces = dict.fromkeys(ROUTE_COLORS, 0)
    for route in game_map.routes:
        if route.color in spaces:
            spaces[route.color] += route.length
    return balanced_colors(spaces, tracks, length, first)
