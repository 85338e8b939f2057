"""Where city labels go: the one label placement, for every renderer and for
`ttr layout`.

`place_labels(game_map, board, font)` puts each city's label in a box of `font`'s
size beside its city: busiest city first (most routes), each at the first spot of
a fixed list around its dot that covers, in order of cost, no other label, no other
city's dot, as little as possible outside `frame`, stays next to its own dot (within
its own height, and nearer its dot than any other), and covers the least of any car
(the shares of their areas covered, added up). Renderers
pick the font for their medium (the board's own type for print and `ttr layout`, a
size readable at the preview's scale, the web table's) and draw each name centred
in its box; they compute no positions of their own.

>>> from ttr_maps.model import Map
>>> from ttr_maps.geometry.board import LabelFont, board_geometry
>>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 4, "y": 0}},
...     "routes": [{"between": ["A", "B"], "length": 3, "color": "red"}], "tickets": []})
>>> board = board_geometry(m)
>>> boxes = place_labels(m, board, LabelFont.sized(0.5))
>>> sorted(boxes), boxes["A"].centre[0] < 0 or boxes["A"].centre[1] != 0
(['A', 'B'], True)
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator, Sequence

from ttr_maps.geometry.board import BoardGeometry, Bounds, LabelBox, LabelFont
from ttr_maps.geometry.grid import BoxGrid
from ttr_maps.geometry.projection import Point
from ttr_maps.model import Map

#: Costs of what a label covers: another label, another city's dot, its share
#: outside the frame, a whole car. Labels and dots lose to any number of cars.
_COVERS_LABEL = 1000.0
_COVERS_DOT = 100.0
_OUTSIDE = 300.0
_COVERS_CAR = 1.0
#: A label further from its dot than its own height, or nearer another city's dot
#: than its own, reads as another city's (`ttr_maps.geometry.readability`).
_STRAYS = 150.0
#: Covering any part of a car costs this on top of the share covered, so that a spot
#: clear of cars wins over a sliver on a car (the spots' ranks add up to less).
_TOUCHES_CAR = 0.1
#: Among equal costs the earlier spot wins (nearer, and the usual side).
_RANK = 1e-3


def place_labels(
    game_map: Map,
    board: BoardGeometry,
    font: LabelFont,
    *,
    dot_radius: float | None = None,
    frame: Bounds | None = None,
) -> dict[str, LabelBox]:
    """Label boxes by city name, in the map's city order (see the module docstring).

    `dot_radius` is the drawn radius of a city dot in board units (default the
    board's); `frame` the area labels should stay inside (default anywhere).
    """
    radius = board.city_radius if dot_radius is None else dot_radius
    tolerance = 1e-3 * font.height
    cell = 2 * max(board.car_length, font.height, 1e-9)
    cars: BoxGrid[tuple[Point, ...]] = BoxGrid(cell)
    for shape in board.routes.values():
        for car in shape.cars:
            cars.add(_bounds(car.corners), car.corners)
    dots: BoxGrid[tuple[str, Point]] = BoxGrid(cell)
    for name, (x, y) in board.positions.items():
        dots.add((x - radius, y - radius, x + radius, y + radius), (name, (x, y)))
    labels: BoxGrid[Bounds] = BoxGrid(cell)
    degree: dict[str, int] = {}
    for route in game_map.routes:
        for name in route.cities:
            degree[name] = degree.get(name, 0) + 1
    order = sorted(
        (c for c in game_map.cities if c.name in board.positions),
        key=lambda c: (-degree.get(c.name, 0), c.index),
    )
    placed: dict[str, LabelBox] = {}
    for city in order:
        x, y = board.positions[city.name]
        width, height = font.box_size(city.name)
        best: tuple[float, LabelBox] | None = None
        for rank, (dx, dy) in enumerate(_spots(width, height, radius)):
            label = LabelBox((x + dx, y + dy), width, height)
            box = label.box
            cost = rank * _RANK
            cost += _COVERS_LABEL * sum(
                1 for other in labels.near(box) if _boxes_overlap(box, other, tolerance)
            )
            cost += _COVERS_DOT * sum(
                1
                for name, centre in dots.near(box)
                if name != city.name and _box_covers_dot(box, centre, radius, tolerance)
            )
            if frame is not None:
                cost += _OUTSIDE * _share_outside(box, frame)
            own = box_distance((x, y), box)
            if own - radius > font.height or any(
                box_distance(centre, box) <= own
                for name, centre in dots.near(_grown(box, own))
                if name != city.name
            ):
                cost += _STRAYS
            if best is not None and cost >= best[0]:
                continue  # cars only add to the cost
            shares = [_share_covered(car, box) for car in cars.near(box)]
            cost += sum(_TOUCHES_CAR + _COVERS_CAR * share for share in shares if share > 1e-6)
            if best is None or cost < best[0]:
                best = (cost, label)
            if best[0] < _TOUCHES_CAR:
                break  # nothing covered: no later spot can beat it
        assert best is not None
        placed[city.name] = best[1]
        labels.add(best[1].box, best[1].box)
    return {c.name: placed[c.name] for c in game_map.cities if c.name in placed}


def free_spot(
    board: BoardGeometry,
    name: str,
    font: LabelFont,
    at: Point | None = None,
    moving: Collection[str] = (),
) -> Point | None:
    """The offset from its city of the first spot (in the placement's order) where
    the label of `name` covers no car, no other label and no other city's dot, and
    stays next to its own dot and nearer it than any other; None if none is free.
    `at`: as if the city were there; `moving`: routes whose cars do not count
    (they would move with it).
    """
    radius = board.city_radius
    tolerance = 1e-3 * font.height
    x, y = board.positions[name] if at is None else at
    width, height = font.box_size(name)
    others = {n: p for n, p in board.positions.items() if n != name}
    cars = [
        (_bounds(car.corners), car.corners)
        for shape in board.routes.values()
        if shape.id not in moving
        for car in shape.cars
    ]
    for spot in _spots(width, height, radius):
        dx, dy = round(spot[0], 2), round(spot[1], 2)  # as a layout stores it
        box = LabelBox((x + dx, y + dy), width, height).box
        own = box_distance((x, y), box)
        if own - radius > font.height or any(
            box_distance(centre, box) <= own or _box_covers_dot(box, centre, radius, tolerance)
            for centre in others.values()
        ):
            continue
        if any(
            _boxes_overlap(box, label.box, tolerance)
            for other, label in board.labels.items()
            if other != name
        ):
            continue
        if any(
            _boxes_overlap(box, bounds, 0.0) and _share_covered(corners, box) > 1e-6
            for bounds, corners in cars
        ):
            continue
        return (dx, dy)
    return None


def _spots(width: float, height: float, radius: float) -> Iterator[Point]:
    """Offsets of a label's centre from its city, nearest and most usual first:
    right, left, above, below, the four diagonals, then the same pushed out, all
    round the dot, and last beside it a little above or below."""
    gap = radius + 0.15 * height
    side, up = gap + width / 2, gap + height / 2
    diagonal_x, diagonal_y = 0.7 * radius + 0.15 * height + width / 2, up - 0.3 * radius
    for push in (0.0, 0.35 * height, 0.7 * height, 1.6 * height):
        yield (side + push, 0.0)
        yield (-side - push, 0.0)
        yield (0.0, up + push)
        yield (0.0, -up - push)
        for sx in (1, -1):
            for sy in (1, -1):
                yield (sx * (diagonal_x + push), sy * (diagonal_y + push))
        if push:  # beside and shifted along, for long names in a crowd
            for sx in (1, -1):
                yield (sx * width / 3, up + push)
                yield (sx * width / 3, -up - push)
    # All round the dot, touching its ring or just off it: where a crowd leaves room.
    for ring in (gap, gap + 0.35 * height):
        for k in range(16):
            yield _touching(width, height, ring, k * math.pi / 8)
    # Beside the dot, a little above or below: between two routes leaving sideways.
    for push, lift in ((0.0, 0.35), (0.0, 0.7), (0.35 * height, 0.35), (0.35 * height, 0.7)):
        for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            yield (sx * (side + push), sy * lift * height)


def _touching(width: float, height: float, gap: float, angle: float) -> Point:
    """The centre of a box in direction `angle` whose nearest point is `gap` from
    the dot's centre."""
    ux, uy = math.cos(angle), math.sin(angle)
    low, high = 0.0, gap + width + height
    for _ in range(30):
        t = (low + high) / 2
        near = math.hypot(max(abs(t * ux) - width / 2, 0.0), max(abs(t * uy) - height / 2, 0.0))
        low, high = (t, high) if near < gap else (low, t)
    return (high * ux, high * uy)


def box_distance(p: Point, box: Bounds) -> float:
    """Distance from `p` to a box (0 inside)."""
    dx = max(box[0] - p[0], 0.0, p[0] - box[2])
    dy = max(box[1] - p[1], 0.0, p[1] - box[3])
    return math.hypot(dx, dy)


def _grown(box: Bounds, by: float) -> Bounds:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _share_covered(polygon: Sequence[Point], box: Bounds) -> float:
    """The share of a convex polygon's area inside `box` (clipped edge by edge)."""
    area = _area(polygon)
    if area <= 0:
        return 0.0
    x0, y0, x1, y1 = box
    inside = list(polygon)
    for axis, limit, keep_below in ((0, x0, False), (0, x1, True), (1, y0, False), (1, y1, True)):
        clipped: list[Point] = []
        for p, q in zip(inside, inside[1:] + inside[:1], strict=True):
            p_in = (p[axis] <= limit) == keep_below
            q_in = (q[axis] <= limit) == keep_below
            if p_in:
                clipped.append(p)
            if p_in != q_in:
                t = (limit - p[axis]) / (q[axis] - p[axis])
                clipped.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
        inside = clipped
        if not inside:
            return 0.0
    return _area(inside) / area


def _area(polygon: Sequence[Point]) -> float:
    return (
        abs(
            sum(
                p[0] * q[1] - q[0] * p[1]
                for p, q in zip(polygon, [*polygon[1:], polygon[0]], strict=True)
            )
        )
        / 2
    )


def _boxes_overlap(a: Bounds, b: Bounds, tolerance: float) -> bool:
    return (
        min(a[2], b[2]) - max(a[0], b[0]) > tolerance
        and min(a[3], b[3]) - max(a[1], b[1]) > tolerance
    )


def _box_covers_dot(box: Bounds, centre: Point, radius: float, tolerance: float) -> bool:
    nearest_x = min(max(centre[0], box[0]), box[2])
    nearest_y = min(max(centre[1], box[1]), box[3])
    return math.hypot(centre[0] - nearest_x, centre[1] - nearest_y) < radius - tolerance


def _share_outside(box: Bounds, frame: Bounds) -> float:
    """The share of `box`'s area outside `frame`."""
    inside_w = max(0.0, min(box[2], frame[2]) - max(box[0], frame[0]))
    inside_h = max(0.0, min(box[3], frame[3]) - max(box[1], frame[1]))
    area = (box[2] - box[0]) * (box[3] - box[1])
    return 1.0 - inside_w * inside_h / area if area > 0 else 0.0


def _bounds(polygon: Sequence[Point]) -> Bounds:
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    return (min(xs), min(ys), max(xs), max(ys))
