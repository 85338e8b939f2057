"""Board geometry: where every city and every car of a map is drawn.

One source for every renderer (matplotlib previews, the browser's SVG, the
print-and-play PDF), for the check of overlapping cars and for `ttr layout`.
Pure Python: no matplotlib, no numpy.

Coordinates are board units with y up (x to the east, y to the north). Cities sit
at `ttr_maps.geometry.projected_positions` (kilometres for geographic maps, the
written units for plane maps). A route of length n is n cars along the segment
between its two cities; parallel tracks (doubles) run side by side, ordered by
track number; on a ferry the first `locomotives` cars are locomotive spaces (E2).

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

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ttr_maps.geometry import Point, projected_positions
from ttr_maps.model import Map, Route

#: A car fills this share of its wagon space; the rest is the gap between cars.
CAR_FILL_RATIO = 0.84
#: Car width as a share of the wagon space (the typical distance per car).
CAR_WIDTH_RATIO = 0.3
#: Distance between the centre lines of side-by-side tracks, in car widths.
TRACK_SPACING = 1.35

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
    #: (x_min, y_min, x_max, y_max) of the cities and cars.
    bounds: Bounds

    def route_cars(self) -> dict[str, tuple[tuple[Point, ...], ...]]:
        """Car corners by route id (the form `preview.MapDrawing.cars` reports)."""
        return {rid: tuple(car.corners for car in s.cars) for rid, s in self.routes.items()}


def board_geometry(game_map: Map) -> BoardGeometry:
    """The board of `game_map`: city positions and the cars of every route."""
    positions = projected_positions(game_map)
    space = space_length(game_map, positions)
    car_width = CAR_WIDTH_RATIO * space
    shapes: dict[str, RouteShape] = {}
    for pair_routes in game_map.parallel_routes.values():
        for shape in _track_shapes(pair_routes, positions, space, car_width):
            shapes[shape.id] = shape
    ordered = {r.id: shapes[r.id] for r in game_map.routes if r.id in shapes}
    return BoardGeometry(
        positions=positions,
        routes=ordered,
        car_length=space * CAR_FILL_RATIO,
        car_width=car_width,
        space=space,
        bounds=_bounds(positions, ordered),
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


def _track_shapes(
    pair_routes: Sequence[Route], positions: Mapping[str, Point], space: float, car_width: float
) -> list[RouteShape]:
    """The shapes of the parallel tracks between one pair of cities.

    Cars fill the segment between the two city dots with small gaps; parallel tracks
    are shifted sideways so they run side by side. Where cities sit closer than the
    route's length suggests (a crowded part of a geographic map), cars get thinner
    so that they stay longer than wide.
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
    margin = min(0.4 * space, distance * 0.22)
    usable = max(distance - 2 * margin, 0.0)
    count = len(pair_routes)
    longest = max(r.length for r in pair_routes)
    width = min(car_width, 0.6 * usable / longest) if usable else car_width
    angle = math.degrees(math.atan2(uy, ux))
    shapes = []
    for slot, route in enumerate(sorted(pair_routes, key=lambda r: r.track or 0)):
        shift = (slot - (count - 1) / 2) * width * TRACK_SPACING
        pitch = usable / route.length
        car_length = pitch * CAR_FILL_RATIO
        half_w = width / 2
        cars = []
        for k in range(route.length):
            start = margin + k * pitch + (pitch - car_length) / 2
            end = start + car_length
            x0, y0 = ax + ux * start + nx * shift, ay + uy * start + ny * shift
            x1, y1 = ax + ux * end + nx * shift, ay + uy * end + ny * shift
            cars.append(
                CarShape(
                    corners=(
                        (x0 + nx * half_w, y0 + ny * half_w),
                        (x1 + nx * half_w, y1 + ny * half_w),
                        (x1 - nx * half_w, y1 - ny * half_w),
                        (x0 - nx * half_w, y0 - ny * half_w),
                    ),
                    centre=((x0 + x1) / 2, (y0 + y1) / 2),
                    angle=angle,
                    is_locomotive_space=k < route.ferry,
                )
            )
        path = ((ax + nx * shift, ay + ny * shift), (bx + nx * shift, by + ny * shift))
        shapes.append(
            RouteShape(
                id=route.id,
                cities=(route.a, route.b),
                color=route.color,
                length=route.length,
                tunnel=route.tunnel,
                locomotives=route.ferry,
                track=route.track,
                cars=tuple(cars),
                path=path,
            )
        )
    return shapes


def _bounds(positions: Mapping[str, Point], shapes: Mapping[str, RouteShape]) -> Bounds:
    points = [*positions.values()]
    for shape in shapes.values():
        for car in shape.cars:
            points.extend(car.corners)
    if not points:
        return (0.0, 0.0, 0.0, 0.0)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))
