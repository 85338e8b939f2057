"""Board geometry: where every city and every car of a map is drawn.

One source for every renderer (matplotlib previews, the browser's SVG, the
print-and-play PDF), for the check of overlapping cars and for `ttr layout`.
Pure Python: no matplotlib, no numpy.

Coordinates are board units with y up (x to the east, y to the north).

- A map with a board layout (`layout:` in its file, `ttr layout`) is drawn in
  centimetres: cities at their board positions, every car exactly `CAR_LENGTH` x
  `CAR_WIDTH` (chords along the route's line or bends), labels at their offsets.
- A map without one is drawn from geography as before: cities at
  `ttr_maps.geometry.projection.projected_positions` (kilometres for geographic maps, the
  written units for plane maps), each route's cars filling the segment between its
  cities, so car size varies from route to route; no label positions.

A route of length n is n cars; parallel tracks (doubles) run side by side, ordered
by track number; on a ferry the first `locomotives` cars are locomotive spaces (E2).
`overlaps(board)` lists what covers what (cars, city dots, labels).

>>> from ttr_maps.model import Map
>>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 4, "y": 0}},
...     "routes": [{"between": ["A", "B"], "length": 3, "color": "red", "ferry": 1}],
...     "tickets": []})
>>> board = board_geometry(m)
>>> shape = board.routes["A-B"]
>>> len(shape.cars), [car.is_locomotive_space for car in shape.cars]
(3, [True, False, False])
>>> round(shape.cars[0].angle), round(shape.cars[0].length, 3)
(0, 0.821)
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeVar

from ttr_maps.geometry.projection import Point, projected_positions
from ttr_maps.model import BoardLayout, Map, Route

T = TypeVar("T")

#: A car fills this share of its wagon space; the rest is the gap between cars.
CAR_FILL_RATIO = 0.84
#: Car width as a share of the wagon space (the typical distance per car).
CAR_WIDTH_RATIO = 0.3
#: Distance between the centre lines of side-by-side tracks, in car widths.
TRACK_SPACING = 1.35

#: Nominal sizes on a laid-out board, in centimetres (a published board's cars are
#: about 2.5 x 0.8 cm on an 80 x 53 cm board).
CAR_LENGTH = 2.4
CAR_WIDTH = 0.8
CAR_GAP = 0.3
CITY_RADIUS = 0.55
#: Distance from a city's centre to the nearest end of a route's first car, at least
#: (`city_clearance` gives busy cities more, so their routes fan out without touching).
CITY_CLEARANCE = 0.85
#: Share of the full turn a busy city's routes may fill with their bands.
_FAN_SHARE = 0.7
#: Board labels: font size in points, box height and width per character in cm.
LABEL_POINTS = 13.0
LABEL_HEIGHT = 0.55
LABEL_CHAR_WIDTH = 0.26

Bounds = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class CarShape:
    """One car (one wagon space) of a route: a rectangle on the board.

    `corners` go around the rectangle (start-left, end-left, end-right,
    start-right, seen along the route from its first city in sorted order);
    `angle` is the direction of its long side in degrees, counter-clockwise
    from the x axis, in (-180, 180].
    """

    corners: tuple[Point, Point, Point, Point]
    centre: Point
    angle: float
    is_locomotive_space: bool = False

    @property
    def length(self) -> float:
        return math.dist(self.corners[0], self.corners[1])

    @property
    def width(self) -> float:
        return math.dist(self.corners[1], self.corners[2])


@dataclass(frozen=True, slots=True)
class RouteShape:
    """A route as drawn: its cars, and the line its track follows."""

    id: str
    cities: tuple[str, str]
    color: str
    length: int
    tunnel: bool
    #: Locomotive spaces of a ferry (E2); 0 for other routes.
    locomotives: int
    track: int | None
    cars: tuple[CarShape, ...]
    #: The centre line of this track, from one city to the other.
    path: tuple[Point, ...]
    #: The centre line of the band all tracks between the two cities share (equal
    #: to `path` for a single track), from the first city in sorted order.
    line: tuple[Point, ...] = ()
    #: How far from the centre of the city at the start and at the end of `path`
    #: the cars keep (laid-out boards: `end_clearances`).
    clearances: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True, slots=True)
class LabelBox:
    """A city's label on a laid-out board: the box its text is centred in."""

    centre: Point
    width: float
    height: float

    @property
    def box(self) -> Bounds:
        x, y = self.centre
        return (x - self.width / 2, y - self.height / 2, x + self.width / 2, y + self.height / 2)


@dataclass(frozen=True, slots=True)
class LabelFont:
    """The type of city labels in board units: `em` is the font size; a label's box
    is `height` high and `char_width` per character plus `padding` wide (a wide
    character, e.g. Chinese, counts as 1.7)."""

    em: float
    height: float
    char_width: float
    padding: float

    @classmethod
    def sized(cls, em: float, char_width: float = 0.6) -> LabelFont:
        """A font of size `em` whose boxes hold its text: `char_width` (in em) is the
        widest average a name of DejaVu Sans needs (measured over the bundled maps:
        0.56 on average, every name within 0.6 per character plus 0.7)."""
        return cls(em=em, height=1.2 * em, char_width=char_width * em, padding=0.7 * em)

    def box_size(self, name: str) -> tuple[float, float]:
        """Width and height of the box that holds `name`."""
        import unicodedata

        count = sum(1.7 if unicodedata.east_asian_width(c) in "WF" else 1.0 for c in name)
        return (self.char_width * count + self.padding, self.height)


#: The board's own labels (the size they are printed at).
BOARD_LABEL_FONT = LabelFont(
    em=LABEL_POINTS * 2.54 / 72, height=LABEL_HEIGHT, char_width=LABEL_CHAR_WIDTH, padding=0.15
)


def _route_shape(
    route: Route,
    cars: tuple[CarShape, ...],
    path: tuple[Point, ...],
    line: Sequence[Point],
    clearances: tuple[float, float] = (0.0, 0.0),
) -> RouteShape:
    """A route's drawing: its facts from the map, with its cars and centre lines."""
    return RouteShape(
        id=route.id,
        cities=(route.a, route.b),
        color=route.color,
        length=route.length,
        tunnel=route.tunnel,
        locomotives=route.ferry,
        track=route.track,
        cars=cars,
        path=path,
        line=tuple(line),
        clearances=clearances,
    )


def label_size(name: str) -> tuple[float, float]:
    """Width and height (cm) of a city's label on a laid-out board."""
    return BOARD_LABEL_FONT.box_size(name)


@dataclass(frozen=True)
class BoardGeometry:
    """Everything a renderer needs to draw a map's board."""

    positions: Mapping[str, Point]
    #: Route shapes by route id, in the map's route order.
    routes: Mapping[str, RouteShape]
    #: Nominal size of one car (the median wagon space times `CAR_FILL_RATIO`).
    car_length: float
    car_width: float
    #: The distance per wagon space (car plus gap) the nominal car is cut from.
    space: float
    #: (x_min, y_min, x_max, y_max) of the cities, cars and labels.
    bounds: Bounds
    #: Label boxes by city name (laid-out boards only; empty otherwise).
    labels: Mapping[str, LabelBox] = field(default_factory=dict)
    #: Radius of a city dot in board units.
    city_radius: float = 0.0
    #: Whether this is a laid-out board in centimetres (else geography).
    laid_out: bool = False

    def route_cars(self) -> dict[str, tuple[tuple[Point, ...], ...]]:
        """Car corners by route id (the form `preview.MapDrawing.cars` reports)."""
        return {rid: tuple(car.corners for car in s.cars) for rid, s in self.routes.items()}


def board_geometry(game_map: Map, layout: BoardLayout | None = None) -> BoardGeometry:
    """The board of `game_map`: city positions and the cars of every route.

    Drawn from `layout` if given, else from the map's own layout if it has one,
    else from geography.
    """
    layout = layout or game_map.layout
    if layout is not None:
        return _laid_out_geometry(game_map, layout)
    positions = projected_positions(game_map)
    space = space_length(game_map, positions)
    car_width = CAR_WIDTH_RATIO * space
    fans = _fan_margins(game_map, positions, car_width)
    shapes: dict[str, RouteShape] = {}
    for pair_routes in game_map.parallel_routes.values():
        for shape in _track_shapes(pair_routes, positions, space, car_width, fans):
            shapes[shape.id] = shape
    ordered = {r.id: shapes[r.id] for r in game_map.routes if r.id in shapes}
    return BoardGeometry(
        positions=positions,
        routes=ordered,
        car_length=space * CAR_FILL_RATIO,
        car_width=car_width,
        space=space,
        bounds=bounds_of(positions, ordered, {}),
        city_radius=0.22 * space,
    )


def laid_out_tracks(
    pair_routes: Sequence[Route],
    line: Sequence[Point],
    start_clearance: float,
    end_clearance: float,
) -> list[RouteShape]:
    """The shapes of the parallel tracks between two cities on a laid-out board,
    side by side along `line` (from the first city in sorted order to the other)."""
    return list(_tracks(tuple(pair_routes), tuple(line), start_clearance, end_clearance))


@functools.lru_cache(maxsize=16384)
def _tracks(
    pair_routes: tuple[Route, ...],
    line: tuple[Point, ...],
    start_clearance: float,
    end_clearance: float,
) -> tuple[RouteShape, ...]:
    # Cached: `ttr layout`'s repairs measure boards that differ in a route or two.
    count = len(pair_routes)
    shapes = []
    for slot, route in enumerate(sorted(pair_routes, key=lambda r: r.track or 0)):
        shift = (slot - (count - 1) / 2) * CAR_WIDTH * TRACK_SPACING
        path = offset_polyline(line, shift)
        cars = cars_along(path, route.length, route.ferry, start_clearance, end_clearance)
        shapes.append(_route_shape(route, cars, path, line, (start_clearance, end_clearance)))
    return tuple(shapes)


def band_half_width(tracks: int) -> float:
    """Half the width of the band `tracks` side-by-side tracks take on a laid-out board."""
    return ((tracks - 1) * CAR_WIDTH * TRACK_SPACING + CAR_WIDTH) / 2


def for_the_last_map(compute: Callable[[Map], T]) -> Callable[[Map], T]:
    """`compute(game_map)`, computed again only for another map than the last one
    asked about (the same object): a layout measures thousands of boards of one
    map, and a big map is slow to hash. What it returns is shared: keep it read-only."""
    last: list[tuple[Map, T]] = []

    @functools.wraps(compute)
    def remembered(game_map: Map) -> T:
        if not last or last[0][0] is not game_map:
            last[:] = [(game_map, compute(game_map))]
        return last[0][1]

    return remembered


@for_the_last_map
def city_clearance(game_map: Map) -> Mapping[str, float]:
    """How far from each city's centre its routes' cars start on a laid-out board:
    `CITY_CLEARANCE`, or more where the bands of many routes (doubles count wider)
    must fan out around the city without touching: each band of half width h needs
    an angle of 2·atan(h / r) at distance r, and together they may fill 70 % of
    the turn."""
    bands: dict[str, list[float]] = {c.name: [] for c in game_map.cities}
    for pair, routes in game_map.parallel_routes.items():
        for name in pair:
            if name in bands and len(pair) == 2:
                bands[name].append(band_half_width(len(routes)))
    clearance = {}
    for name, halves in bands.items():
        r = CITY_CLEARANCE
        while sum(2 * math.atan(h / r) for h in halves) > _FAN_SHARE * 2 * math.pi:
            r *= 1.05
        clearance[name] = r
    return MappingProxyType(clearance)


def laid_out_lines(
    game_map: Map, positions: Mapping[str, Point], layout: BoardLayout
) -> dict[tuple[str, str], tuple[Point, ...]]:
    """The centre line of every pair of cities joined by routes on a laid-out board,
    keyed by the pair in sorted order, from the first city to the second."""
    lines = {}
    for pair in game_map.parallel_routes:
        if len(pair) != 2 or not pair <= positions.keys():
            continue
        a, b = sorted(pair)
        lines[(a, b)] = route_line(positions[a], layout.bend(a, b), positions[b])
    return lines


#: The least room between the bands of two routes leaving a city, in cm.
FAN_GAP = 0.15
#: A band leaving a city at a narrow angle to another starts at most this far out.
MAX_CLEARANCE = 2.0


def end_clearances(
    game_map: Map,
    lines: Mapping[tuple[str, str], Sequence[Point]],
    cities: Collection[str] | None = None,
) -> dict[tuple[str, tuple[str, str]], float]:
    """How far from each city the cars of each of its routes start, by (city, pair):
    the city's own clearance (`city_clearance`), or further out where two bands leave
    the city at an angle θ under 90°: then the band of the longer route (ties: the
    later pair) starts where it clears the other, staggered as on a published board.
    Band 2 (half width h2) clears band 1 (h1) from r = T·cos θ + h1·sin θ on, with
    T = (h2 + h1·cos θ) / sin θ, plus `FAN_GAP`. `cities` limits the answer to the
    routes of those cities."""
    base = city_clearance(game_map)
    leaving: dict[str, list[tuple[tuple[int, tuple[str, str]], float, float]]] = {}
    for pair, line in lines.items():
        routes = game_map.parallel_routes[frozenset(pair)]
        half = band_half_width(len(routes))
        key = (max(r.length for r in routes), pair)
        for city, points in ((pair[0], line), (pair[1], tuple(reversed(line)))):
            if cities is not None and city not in cities:
                continue
            x, y = _point_at(points, min(2 * CITY_CLEARANCE, 0.5 * polyline_length(points)))
            heading = math.atan2(y - points[0][1], x - points[0][0])
            leaving.setdefault(city, []).append((key, heading, half))
    clearance = {}
    for city, bands in leaving.items():
        for key, heading, half in bands:
            r = base[city]
            for other_key, other_heading, other_half in bands:
                if other_key >= key:
                    continue
                theta = abs((heading - other_heading + math.pi) % (2 * math.pi) - math.pi)
                if theta >= math.pi / 2:
                    continue
                if theta < 1e-3:
                    r = MAX_CLEARANCE
                    continue
                reach = (half + other_half * math.cos(theta)) / math.sin(theta)
                r = max(r, reach * math.cos(theta) + other_half * math.sin(theta) + FAN_GAP)
            clearance[(city, key[1])] = min(r, MAX_CLEARANCE)
    return clearance


def _laid_out_geometry(game_map: Map, layout: BoardLayout) -> BoardGeometry:
    positions = {c.name: layout.cities[c.name] for c in game_map.cities if c.name in layout.cities}
    lines = laid_out_lines(game_map, positions, layout)
    clearance = end_clearances(game_map, lines)
    shapes: dict[str, RouteShape] = {}
    for (a, b), line in lines.items():
        pair_routes = game_map.parallel_routes[frozenset((a, b))]
        ends = (clearance[(a, (a, b))], clearance[(b, (a, b))])
        for shape in laid_out_tracks(pair_routes, line, *ends):
            shapes[shape.id] = shape
    ordered = {r.id: shapes[r.id] for r in game_map.routes if r.id in shapes}
    labels = {}
    for name, (x, y) in positions.items():
        dx, dy = layout.labels.get(name, (0.0, -(CITY_RADIUS + LABEL_HEIGHT / 2 + 0.05)))
        width, height = label_size(name)
        labels[name] = LabelBox((x + dx, y + dy), width, height)
    return BoardGeometry(
        positions=positions,
        routes=ordered,
        car_length=CAR_LENGTH,
        car_width=CAR_WIDTH,
        space=CAR_LENGTH + CAR_GAP,
        bounds=bounds_of(positions, ordered, labels),
        labels=labels,
        city_radius=CITY_RADIUS,
        laid_out=True,
    )


#: Points sampled on each span of a bent route's smooth centre line.
CURVE_SAMPLES = 12


def route_line(start: Point, bends: Sequence[Point], end: Point) -> tuple[Point, ...]:
    """The centre line of a route on a laid-out board: straight from `start` to `end`,
    or, through bend points, a smooth curve (a centripetal Catmull-Rom spline, which
    passes through every point without loops or cusps) sampled as a polyline. One
    bend point makes a bow: the line leaves each city heading for the point and
    passes it parallel to the chord between the cities.

    >>> line = route_line((0.0, 0.0), [(2.0, 1.0)], (4.0, 0.0))
    >>> line[0], line[-1], (2.0, 1.0) in line, max(y for _, y in line)
    ((0.0, 0.0), (4.0, 0.0), True, 1.0)
    """
    return _route_line(
        (float(start[0]), float(start[1])),
        tuple((float(x), float(y)) for x, y in bends),
        (float(end[0]), float(end[1])),
    )


@functools.lru_cache(maxsize=16384)
def _route_line(start: Point, bends: tuple[Point, ...], end: Point) -> tuple[Point, ...]:
    # Cached: `ttr layout`'s repairs draw the same lines many times over.
    points = [start, *bends, end]
    if len(points) == 2:
        return (start, end)
    # Reflected end points give the first and last spans their tangents.
    padded = [_reflect(points[1], start), *points, _reflect(points[-2], end)]
    out = [start]
    for k in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[k - 1 : k + 3]
        t0 = 0.0
        t1 = t0 + (math.dist(p0, p1) ** 0.5 or 1e-9)
        t2 = t1 + (math.dist(p1, p2) ** 0.5 or 1e-9)
        t3 = t2 + (math.dist(p2, p3) ** 0.5 or 1e-9)
        for step in range(1, CURVE_SAMPLES + 1):
            t = t1 + (t2 - t1) * step / CURVE_SAMPLES
            out.append(_catmull_rom(p0, p1, p2, p3, t0, t1, t2, t3, t))
        out[-1] = p2
    return tuple(out)


def _reflect(point: Point, centre: Point) -> Point:
    return (2 * centre[0] - point[0], 2 * centre[1] - point[1])


def _catmull_rom(
    p0: Point, p1: Point, p2: Point, p3: Point, t0: float, t1: float, t2: float, t3: float, t: float
) -> Point:
    """A point of the Catmull-Rom span from p1 (at t1) to p2 (at t2), Barry and
    Goldman's pyramidal form."""

    def lerp(p: Point, q: Point, ta: float, tb: float) -> Point:
        w = (t - ta) / (tb - ta)
        return (p[0] + (q[0] - p[0]) * w, p[1] + (q[1] - p[1]) * w)

    a1, a2, a3 = lerp(p0, p1, t0, t1), lerp(p1, p2, t1, t2), lerp(p2, p3, t2, t3)
    b1, b2 = lerp(a1, a2, t0, t2), lerp(a2, a3, t1, t3)
    return lerp(b1, b2, t1, t2)


def polyline_length(points: Sequence[Point]) -> float:
    return sum(math.dist(p, q) for p, q in itertools.pairwise(points))


def run_length(cars: int) -> float:
    """The length of line `cars` equal cars take with their gaps (straight line)."""
    return cars * CAR_LENGTH + (cars - 1) * CAR_GAP


def offset_polyline(points: Sequence[Point], shift: float) -> tuple[Point, ...]:
    """`points` moved `shift` to the left (seen along the line); corners are mitred."""
    if shift == 0:
        return tuple(points)
    normals = []
    for p, q in itertools.pairwise(points):
        d = math.dist(p, q) or 1.0
        normals.append((-(q[1] - p[1]) / d, (q[0] - p[0]) / d))
    out = []
    for i, (x, y) in enumerate(points):
        around = normals[max(i - 1, 0) : i + 1]
        nx, ny = sum(n[0] for n in around), sum(n[1] for n in around)
        norm = math.hypot(nx, ny) or 1.0
        nx, ny = nx / norm, ny / norm
        # Mitre: keep the offset lines `shift` away from each segment.
        cos_half = max(nx * around[0][0] + ny * around[0][1], 0.5)
        out.append((x + nx * shift / cos_half, y + ny * shift / cos_half))
    return tuple(out)


def _point_at(points: Sequence[Point], s: float) -> Point:
    """The point at arc length `s` along a polyline; before its start and past its
    end the first and last segments are extended straight."""
    segments = list(itertools.pairwise(points))
    for k, (p, q) in enumerate(segments):
        d = math.dist(p, q)
        if s <= d or k == len(segments) - 1:
            t = s / d if d else 0.0
            return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
        s -= d
    return points[-1]


def _chord_end(points: Sequence[Point], s: float, chord: float) -> float:
    """The arc length s' > s where the straight distance from the point at `s`
    reaches `chord` (beyond the polyline's end, the line is extended straight)."""
    start = _point_at(points, s)
    t = s + chord
    for _ in range(40):
        gap = chord - math.dist(start, _point_at(points, t))
        if gap <= 1e-9:
            break
        t += gap
    return t


def cars_along(
    points: Sequence[Point],
    count: int,
    locomotives: int = 0,
    start_clearance: float = CITY_CLEARANCE,
    end_clearance: float = CITY_CLEARANCE,
) -> tuple[CarShape, ...]:
    """`count` cars of exactly `CAR_LENGTH` x `CAR_WIDTH` along a polyline, each a
    chord of it, at least `CAR_GAP` apart (also as chords), between the clearances
    kept at either end. A longer line than the cars need widens the gaps evenly; a
    shorter one eats into both clearances evenly."""
    total = polyline_length(points)
    # A dry run from 0 measures the arc the cars take with the least gaps.
    s = 0.0
    for _ in range(count):
        s = _chord_end(points, _chord_end(points, s, CAR_LENGTH), CAR_GAP)
    taken = s - CAR_GAP
    room = total - start_clearance - end_clearance
    if room >= taken:
        # Spare line goes to the gaps, evenly, ends included: cars stay the same size.
        spare = (room - taken) / (count + 1)
        s, gap = start_clearance + spare, CAR_GAP + spare
    else:
        s, gap = start_clearance - (taken - room) / 2, CAR_GAP
    cars = []
    for k in range(count):
        end = _chord_end(points, s, CAR_LENGTH)
        cars.append(
            _rectangle(_point_at(points, s), _point_at(points, end), CAR_WIDTH, k < locomotives)
        )
        s = _chord_end(points, end, gap)
    return tuple(cars)


def _rectangle(p: Point, q: Point, width: float, locomotive: bool) -> CarShape:
    length = math.dist(p, q) or 1.0
    ux, uy = (q[0] - p[0]) / length, (q[1] - p[1]) / length
    nx, ny = -uy * width / 2, ux * width / 2
    return CarShape(
        corners=(
            (p[0] + nx, p[1] + ny),
            (q[0] + nx, q[1] + ny),
            (q[0] - nx, q[1] - ny),
            (p[0] - nx, p[1] - ny),
        ),
        centre=((p[0] + q[0]) / 2, (p[1] + q[1]) / 2),
        angle=math.degrees(math.atan2(uy, ux)),
        is_locomotive_space=locomotive,
    )


def space_length(game_map: Map, positions: Mapping[str, Point]) -> float:
    """The typical length of one wagon space in board units: the median, over routes,
    of the distance between its cities divided by its length."""
    ratios = sorted(
        math.dist(positions[r.a], positions[r.b]) / r.length
        for r in game_map.routes
        if r.a in positions and r.b in positions and r.a != r.b
    )
    ratios = [r for r in ratios if r > 0]
    if ratios:
        return ratios[len(ratios) // 2]
    xs = [p[0] for p in positions.values()] or [0.0]
    return max(max(xs) - min(xs), 1.0) / 10


def _fan_margins(
    game_map: Map, positions: Mapping[str, Point], car_width: float
) -> dict[tuple[str, frozenset[str]], float]:
    """On a board drawn from geography: how far from each city a route's cars must
    start so that they clear the cars of the other routes leaving that city at a
    narrow angle. Two bands of half widths h1 and h2 at an angle θ clear each other
    from (h1 + h2) / (2 tan(θ/2)) on."""
    leaving: dict[str, list[tuple[frozenset[str], float, float]]] = {}
    for pair, routes in game_map.parallel_routes.items():
        if len(pair) != 2 or not pair <= positions.keys():
            continue
        half = ((len(routes) - 1) * car_width * TRACK_SPACING + car_width) / 2
        for city in pair:
            (other,) = pair - {city}
            (x0, y0), (x1, y1) = positions[city], positions[other]
            leaving.setdefault(city, []).append((pair, math.atan2(y1 - y0, x1 - x0), half))
    margins: dict[tuple[str, frozenset[str]], float] = {}
    for city, routes in leaving.items():
        for pair, angle, half in routes:
            need = 0.0
            for other, other_angle, other_half in routes:
                if other == pair:
                    continue
                theta = abs((angle - other_angle + math.pi) % (2 * math.pi) - math.pi)
                if theta < math.pi / 2:
                    gap = 1.1 * (half + other_half) / 2
                    need = max(need, gap / max(math.tan(theta / 2), 1e-6))
            margins[(city, pair)] = need
    return margins


def _track_shapes(
    pair_routes: Sequence[Route],
    positions: Mapping[str, Point],
    space: float,
    car_width: float,
    fans: Mapping[tuple[str, frozenset[str]], float],
) -> list[RouteShape]:
    """The shapes of the parallel tracks between one pair of cities.

    Cars fill the segment between the two city dots with small gaps; parallel tracks
    are shifted sideways so they run side by side. Cars start further from a city
    where another route leaves it at a narrow angle (`_fan_margins`). Where cities
    sit closer than the route's length suggests (a crowded part of a geographic
    map), cars get thinner so that they stay longer than wide.
    """
    first = pair_routes[0]
    if first.a == first.b or first.a not in positions or first.b not in positions:
        return []
    # Orient by sorted names, so tracks written in either direction line up.
    a, b = sorted((first.a, first.b))
    (ax, ay), (bx, by) = positions[a], positions[b]
    distance = math.hypot(bx - ax, by - ay)
    ux, uy = ((bx - ax) / distance, (by - ay) / distance) if distance else (1.0, 0.0)
    nx, ny = -uy, ux
    base = min(0.4 * space, distance * 0.22)
    pair = frozenset((a, b))
    margin = min(max(base, fans.get((a, pair), 0.0)), 0.35 * distance)
    end_margin = min(max(base, fans.get((b, pair), 0.0)), 0.35 * distance)
    usable = max(distance - margin - end_margin, 0.0)
    count = len(pair_routes)
    longest = max(r.length for r in pair_routes)
    width = min(car_width, 0.6 * usable / longest) if usable else car_width
    shapes = []
    for slot, route in enumerate(sorted(pair_routes, key=lambda r: r.track or 0)):
        shift = (slot - (count - 1) / 2) * width * TRACK_SPACING
        pitch = usable / route.length
        car_length = pitch * CAR_FILL_RATIO
        cars = []
        for k in range(route.length):
            start = margin + k * pitch + (pitch - car_length) / 2
            end = start + car_length
            p = (ax + ux * start + nx * shift, ay + uy * start + ny * shift)
            q = (ax + ux * end + nx * shift, ay + uy * end + ny * shift)
            cars.append(_rectangle(p, q, width, k < route.ferry))
        path = ((ax + nx * shift, ay + ny * shift), (bx + nx * shift, by + ny * shift))
        shapes.append(_route_shape(route, tuple(cars), path, ((ax, ay), (bx, by))))
    return shapes


def bounds_of(
    positions: Mapping[str, Point],
    shapes: Mapping[str, RouteShape],
    labels: Mapping[str, LabelBox],
) -> Bounds:
    """(x_min, y_min, x_max, y_max) of the cities, the cars and the labels given."""
    points = [*positions.values()]
    for shape in shapes.values():
        for car in shape.cars:
            points.extend(car.corners)
    for label in labels.values():
        x0, y0, x1, y1 = label.box
        points.extend(((x0, y0), (x1, y1)))
    if not points:
        return (0.0, 0.0, 0.0, 0.0)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


# ---------------------------------------------------------------- overlaps


@dataclass(frozen=True, slots=True)
class Overlap:
    """Two things drawn on top of each other. `kind` is 'car-car', 'car-city',
    'car-label', 'label-label' or 'label-city'; `first` and `second` name them
    (a route id for a car, a city name for a city or a label)."""

    kind: str
    first: str
    second: str


def overlaps(board: BoardGeometry, kinds: frozenset[str] | None = None) -> list[Overlap]:
    """Everything on `board` that covers something it should not: a car and a car
    of another route, a car and a city dot, labels and cars, labels and labels,
    labels and other cities' dots. Touching does not count. One entry per pair of
    things (a route or a city), in a stable order; `kinds` keeps only those kinds.
    """
    shapes: list[tuple[str, str, tuple[Point, ...]]] = []  # (what, name, polygon)
    for shape in board.routes.values():
        for car in shape.cars:
            shapes.append(("car", shape.id, car.corners))
    r = board.city_radius
    for name, (x, y) in board.positions.items():
        # A city dot as an octagon, close enough to the circle for overlap tests.
        octagon = tuple(
            (x + r * math.cos(k * math.pi / 4), y + r * math.sin(k * math.pi / 4)) for k in range(8)
        )
        shapes.append(("city", name, octagon))
    for name, label in board.labels.items():
        x0, y0, x1, y1 = label.box
        shapes.append(("label", name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1))))
    found: dict[tuple[str, str, str], None] = {}
    for i, j in _touching_boxes([polygon for _, _, polygon in shapes]):
        (what_i, name_i, poly_i), (what_j, name_j, poly_j) = shapes[i], shapes[j]
        if name_i == name_j and what_i != "car" and what_j != "car":
            continue  # a city and its own label
        if what_i == what_j == "car" and name_i == name_j:
            continue
        if {what_i, what_j} == {"city"}:
            continue  # cities apart from each other are the layout's business, not drawing
        (what_a, name_a), (what_b, name_b) = sorted(((what_i, name_i), (what_j, name_j)))
        kind = f"{what_a}-{what_b}"
        if kind == "city-label":
            kind, name_a, name_b = "label-city", name_b, name_a
        if kinds is not None and kind not in kinds:
            continue
        if (kind, name_a, name_b) in found or not polygons_overlap(poly_i, poly_j):
            continue
        found[(kind, name_a, name_b)] = None
    return [Overlap(*key) for key in sorted(found)]


#: Overlaps smaller than this (board units relative to a car's width) are touching.
_TOUCH = 1e-3


def _touching_boxes(polygons: Sequence[Sequence[Point]]) -> list[tuple[int, int]]:
    """Pairs of polygons whose bounding boxes meet, found with a uniform grid."""
    boxes = [
        (
            min(p[0] for p in poly),
            min(p[1] for p in poly),
            max(p[0] for p in poly),
            max(p[1] for p in poly),
        )
        for poly in polygons
    ]
    if len(boxes) < 2:
        return []
    extents = sorted(max(b[2] - b[0], b[3] - b[1]) for b in boxes)
    cell = 2 * extents[len(extents) // 2] or 1.0
    grid: dict[tuple[int, int], list[int]] = {}
    for index, (x0, y0, x1, y1) in enumerate(boxes):
        for gx in range(math.floor(x0 / cell), math.floor(x1 / cell) + 1):
            for gy in range(math.floor(y0 / cell), math.floor(y1 / cell) + 1):
                grid.setdefault((gx, gy), []).append(index)
    pairs: set[tuple[int, int]] = set()
    for members in grid.values():
        for k, i in enumerate(members):
            bi = boxes[i]
            for j in members[k + 1 :]:
                bj = boxes[j]
                if bi[0] < bj[2] and bj[0] < bi[2] and bi[1] < bj[3] and bj[1] < bi[3]:
                    pairs.add((i, j))
    return sorted(pairs)


def polygons_overlap(p: Sequence[Point], q: Sequence[Point]) -> bool:
    """Whether two convex polygons share area (separating axis theorem)."""
    scale = max(
        max(a[0] for a in p) - min(a[0] for a in p), max(a[1] for a in p) - min(a[1] for a in p)
    )
    tolerance = _TOUCH * (scale or 1.0)
    for polygon in (p, q):
        for a, b in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
            ax, ay = -(b[1] - a[1]), b[0] - a[0]
            norm = math.hypot(ax, ay)
            if norm == 0:
                continue
            ax, ay = ax / norm, ay / norm
            p_proj = [ax * x + ay * y for x, y in p]
            q_proj = [ax * x + ay * y for x, y in q]
            if min(p_proj) >= max(q_proj) - tolerance or min(q_proj) >= max(p_proj) - tolerance:
                return False
    return True
