"""Computing a board layout: equal cars, doubles side by side, nothing on top of
anything else, cities as near their geographic places as that allows.

`compute_layout(game_map)` works in three steps, all in board centimetres:

1. **Scale geography** (`ttr_maps.geometry.projection.projected_positions`) so that the median
   route is as long as its cars need (`board.run_length` plus the clearance at each
   city, `board.city_clearance`).
2. **Move cities** with `scipy.optimize.least_squares` (trust-region reflective,
   finite differences over a sparse Jacobian: each residual involves 2 or 3 cities,
   so a 200-city map costs a few dozen residual evaluations per step). Residuals:
   stay near the scaled geographic place (weak); every route at least as long as its
   cars need (strong) and not much longer; cities apart; no city near another
   route's band; routes leaving a city at angles wide enough for their bands to fan
   out. Neighbour pairs come from a `scipy.spatial.cKDTree` and are refreshed
   between rounds. scipy is a well-kept library already pulled in by the project's
   plotting stack; a graph-drawing library (e.g. a force-directed layout) would
   have to be bent to these geometric constraints, while least squares states them
   directly.
3. **Repair and label**: a route still crossing or touching another is given a
   bend (one point beside its middle or a third of the way, the place, side and
   distance with the fewest overlaps win); a route whose cities stayed too close
   bends outwards to fit its cars. Labels then go where the one label placement
   (`ttr_maps.geometry.labels`) puts them in the board's own type.

What remains is reported, never hidden: `LayoutResult.overlaps`,
`car_size_spread` (measured from the drawn cars) and city displacement.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ttr_maps.geometry.board import (
    BOARD_LABEL_FONT,
    CAR_LENGTH,
    CITY_RADIUS,
    LABEL_HEIGHT,
    BoardGeometry,
    Overlap,
    RouteShape,
    band_half_width,
    board_geometry,
    city_clearance,
    laid_out_tracks,
    overlaps,
    polygons_overlap,
    run_length,
)
from ttr_maps.geometry.projection import Point, projected_positions
from ttr_maps.model import BoardLayout, Map

#: Margin around everything drawn, in cm, to the edge of the board.
BOARD_MARGIN = 2.0
#: Least distance between two city centres, in cm.
CITY_SPACING = 2.6
#: A route's line may be this much longer than its cars need before it costs.
LENGTH_SLACK = 1.1

_WEIGHT_ANCHOR = 0.05
_WEIGHT_LENGTH = 3.0
_WEIGHT_SLACK = 1.5
_WEIGHT_SPACING = 3.0
_WEIGHT_CLEAR = 3.0
_WEIGHT_ANGLE = 8.0
_ROUNDS = 3
_REPAIR_ROUNDS = 5
#: Bends tried for a troubled route: a point beside its midpoint, this share of the
#: route's length away, on either side.
_BEND_SHARES = (0.08, 0.15, 0.25, 0.35, 0.5, 0.7, 1.0)


class LayoutError(ValueError):
    """A layout cannot be computed for this map (no cities or no routes)."""


@dataclass(frozen=True)
class LayoutResult:
    """A computed layout and how good it is."""

    layout: BoardLayout
    board: BoardGeometry
    #: What still covers what (target: nothing).
    overlaps: tuple[Overlap, ...]
    #: Largest relative difference of any car's length or width from nominal.
    car_size_spread: float
    #: How far each city moved from its scaled geographic place, in cm.
    displacement: Mapping[str, float]
    #: Board centimetres per kilometre (geographic) or per plane unit.
    scale: float

    @property
    def mean_displacement(self) -> float:
        values = list(self.displacement.values())
        return sum(values) / len(values) if values else 0.0

    @property
    def max_displacement(self) -> tuple[str, float]:
        return max(self.displacement.items(), key=lambda item: item[1], default=("", 0.0))


def car_size_spread(board: BoardGeometry) -> float:
    """The largest relative difference of a car's length or width from the board's
    nominal car, measured from the drawn corners."""
    spread = 0.0
    for shape in board.routes.values():
        for car in shape.cars:
            spread = max(
                spread,
                abs(car.length / board.car_length - 1),
                abs(car.width / board.car_width - 1),
            )
    return spread


def compute_layout(game_map: Map) -> LayoutResult:
    """A board layout for `game_map` (see the module docstring)."""
    import numpy as np

    if len(game_map.cities) < 2 or not game_map.routes:
        raise LayoutError(f"{game_map.id}: a layout needs at least two cities and a route")
    names = [c.name for c in game_map.cities]
    index = {name: i for i, name in enumerate(names)}
    projected = projected_positions(game_map)
    geo = np.array([projected[name] for name in names], dtype=float)
    problem = _Problem.build(game_map, index)
    distances = np.linalg.norm(geo[problem.route_a] - geo[problem.route_b], axis=1)
    usable = distances > 0
    if not usable.any():
        raise LayoutError(f"{game_map.id}: every route joins two cities at the same place")
    scale = float(np.median(problem.route_need[usable] / distances[usable]))
    anchor = (geo - geo.mean(axis=0)) * scale
    positions = _optimise(problem, anchor)
    placed = {name: (float(x), float(y)) for name, (x, y) in zip(names, positions, strict=True)}
    bends = _repair_routes(game_map, placed)
    layout = BoardLayout(cities=placed, bends=bends)
    board = board_geometry(game_map, layout)
    labels = _label_offsets(game_map, board)
    layout = _framed(BoardLayout(cities=placed, labels=labels, bends=bends), game_map)
    board = board_geometry(game_map, layout)
    anchor_shift = np.array(layout.cities[names[0]]) - positions[0]
    displacement = {
        name: float(np.linalg.norm(np.array(layout.cities[name]) - anchor_shift - anchor[i]))
        for i, name in enumerate(names)
    }
    return LayoutResult(
        layout=layout,
        board=board,
        overlaps=tuple(overlaps(board)),
        car_size_spread=car_size_spread(board),
        displacement=displacement,
        scale=scale,
    )


# ---------------------------------------------------------------- the optimisation


@dataclass
class _Problem:
    """Index arrays of the map's geometry, for vectorised residuals."""

    route_a: object
    route_b: object
    route_need: object
    route_half: object
    #: Per city: its clearance; per (city, route) incidence, for angle terms.
    clearance: object
    #: (city, other end 1, other end 2, least angle) for routes meeting at a city.
    fans: object

    @classmethod
    def build(cls, game_map: Map, index: Mapping[str, int]) -> _Problem:
        import numpy as np

        clearance = city_clearance(game_map)
        a, b, need, half = [], [], [], []
        for pair, routes in game_map.parallel_routes.items():
            if len(pair) != 2:
                continue
            first = routes[0]
            longest = max(r.length for r in routes)
            a.append(index[first.a])
            b.append(index[first.b])
            need.append(run_length(longest) + clearance[first.a] + clearance[first.b])
            half.append(band_half_width(len(routes)))
        fans = []
        around: dict[int, list[tuple[int, float]]] = {}
        for i, j, h in zip(a, b, half, strict=True):
            around.setdefault(i, []).append((j, h))
            around.setdefault(j, []).append((i, h))
        names = list(index)
        for centre, ends in around.items():
            r = clearance[names[centre]]
            for k, (j1, h1) in enumerate(ends):
                for j2, h2 in ends[k + 1 :]:
                    least = math.atan((h1 + 0.2) / r) + math.atan((h2 + 0.2) / r)
                    fans.append((centre, j1, j2, least))
        return cls(
            route_a=np.array(a, dtype=int),
            route_b=np.array(b, dtype=int),
            route_need=np.array(need, dtype=float),
            route_half=np.array(half, dtype=float),
            clearance=np.array([clearance[n] for n in names], dtype=float),
            fans=np.array(fans, dtype=float).reshape(-1, 4),
        )


def _optimise(problem: _Problem, anchor: object) -> object:
    """City positions (N x 2) after a few rounds of least squares."""
    import numpy as np
    from scipy.optimize import least_squares

    x = np.array(anchor, dtype=float).copy()
    for _ in range(_ROUNDS):
        spacing_pairs, clear_triples = _neighbours(problem, x)
        residuals = _residual_function(problem, np.asarray(anchor), spacing_pairs, clear_triples)
        sparsity = _sparsity(problem, len(x), spacing_pairs, clear_triples)
        solution = least_squares(
            residuals,
            x.ravel(),
            jac_sparsity=sparsity,
            method="trf",
            x_scale=CAR_LENGTH,
            max_nfev=60,
            xtol=1e-4,
            ftol=1e-5,
        )
        x = solution.x.reshape(-1, 2)
    return x


def _neighbours(problem: _Problem, x: object) -> tuple[object, object]:
    """City pairs close enough to matter, and (city, route) pairs where the city
    is near a route it is not an end of."""
    import numpy as np
    from scipy.spatial import cKDTree

    x = np.asarray(x)
    reach = 3 * CITY_SPACING
    tree = cKDTree(x)
    pairs = np.array(sorted(tree.query_pairs(reach)), dtype=int).reshape(-1, 2)
    a, b = problem.route_a, problem.route_b
    mid = (x[a] + x[b]) / 2
    radius = np.linalg.norm(x[a] - x[b], axis=1) / 2 + reach
    triples = []
    for route, (centre, r) in enumerate(zip(mid, radius, strict=True)):
        for city in tree.query_ball_point(centre, r):
            if city != a[route] and city != b[route]:
                triples.append((city, route))
    return pairs, np.array(triples, dtype=int).reshape(-1, 2)


def _residual_function(
    problem: _Problem, anchor: object, spacing_pairs: object, clear_triples: object
):
    import numpy as np

    a, b = problem.route_a, problem.route_b
    need, half = problem.route_need, problem.route_half
    fans = problem.fans
    fan_c, fan_1, fan_2 = (fans[:, k].astype(int) for k in range(3))
    fan_least = fans[:, 3]
    pi, pj = spacing_pairs[:, 0], spacing_pairs[:, 1]
    tc, tr = clear_triples[:, 0], clear_triples[:, 1]
    clear_need = CITY_RADIUS + half[tr] + LABEL_HEIGHT + 0.2

    def residuals(flat):
        x = flat.reshape(-1, 2)
        out = [_WEIGHT_ANCHOR * (x - anchor).ravel()]
        d = np.linalg.norm(x[a] - x[b], axis=1)
        out.append(_WEIGHT_LENGTH * np.maximum(0.0, need - d))
        out.append(_WEIGHT_SLACK * np.maximum(0.0, d - LENGTH_SLACK * need))
        gap = np.linalg.norm(x[pi] - x[pj], axis=1)
        out.append(_WEIGHT_SPACING * np.maximum(0.0, CITY_SPACING - gap))
        p, q, c = x[a[tr]], x[b[tr]], x[tc]
        pq = q - p
        t = np.clip(np.sum((c - p) * pq, axis=1) / np.maximum(np.sum(pq * pq, axis=1), 1e-9), 0, 1)
        dist = np.linalg.norm(c - (p + t[:, None] * pq), axis=1)
        out.append(_WEIGHT_CLEAR * np.maximum(0.0, clear_need - dist))
        u = x[fan_1] - x[fan_c]
        v = x[fan_2] - x[fan_c]
        cross = np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
        angle = np.arctan2(cross, np.sum(u * v, axis=1))
        out.append(_WEIGHT_ANGLE * CAR_LENGTH * np.maximum(0.0, fan_least - angle))
        return np.concatenate(out)

    return residuals


def _sparsity(problem: _Problem, cities: int, spacing_pairs: object, clear_triples: object):
    """Which coordinates each residual depends on (rows in `_residual_function` order)."""
    from scipy.sparse import lil_matrix

    groups: list[tuple[int, ...]] = [(i,) for i in range(cities) for _ in range(2)]
    routes = list(zip(problem.route_a, problem.route_b, strict=True))
    groups += routes + routes
    groups += [tuple(p) for p in spacing_pairs]
    groups += [
        (city, problem.route_a[route], problem.route_b[route]) for city, route in clear_triples
    ]
    groups += [tuple(int(v) for v in fan[:3]) for fan in problem.fans]
    matrix = lil_matrix((len(groups), 2 * cities), dtype=int)
    for row, members in enumerate(groups):
        if len(members) == 1 and row < 2 * cities:
            matrix[row, row] = 1  # anchor rows: one coordinate each
            continue
        for city in members:
            matrix[row, 2 * int(city)] = 1
            matrix[row, 2 * int(city) + 1] = 1
    return matrix


# ---------------------------------------------------------------- repairs and labels


def _repair_routes(
    game_map: Map, positions: Mapping[str, Point]
) -> dict[tuple[str, str], tuple[Point, ...]]:
    """Bends for routes whose straight line overlaps something or is too short.

    Each trial bend redraws only the route's own tracks and tests them against an
    index of everything else, so a big map stays quick."""
    bends: dict[tuple[str, str], tuple[Point, ...]] = {}
    clearance = city_clearance(game_map)

    def current_board() -> BoardGeometry:
        return board_geometry(game_map, BoardLayout(cities=positions, bends=bends))

    board = current_board()
    for _ in range(_REPAIR_ROUNDS):
        index = _ShapeIndex(board)
        troubled = [
            pair
            for pair, routes in game_map.parallel_routes.items()
            if len(pair) == 2 and index.hits([board.routes[r.id] for r in routes])
        ]
        if not troubled:
            break
        for pair_set in troubled:
            routes = game_map.parallel_routes[pair_set]
            a, b = sorted(pair_set)
            pa, pb = positions[a], positions[b]
            distance = math.dist(pa, pb)
            length = max(r.length for r in routes)
            need = run_length(length) + clearance[a] + clearance[b]
            lift = math.sqrt(max(need * need * 1.03 - distance * distance, 0.0)) / 2
            current = index.hits([board.routes[r.id] for r in routes])
            best: tuple[int, tuple[Point, ...] | None] = (current, None)
            for offset in sorted({lift, *(f * distance for f in _BEND_SHARES)}):
                if offset < lift or best[0] == 0:
                    continue
                for side, along in itertools.product((1, -1), (0.5, 0.35, 0.65)):
                    bend = (_beside(pa, pb, along, side * offset),)
                    shapes = laid_out_tracks(routes, (pa, *bend, pb), clearance[a], clearance[b])
                    count = index.hits(shapes)
                    if count < best[0]:
                        best = (count, bend)
            if best[1] is not None:
                bends[(a, b)] = best[1]
                board = current_board()
                index = _ShapeIndex(board)
    return bends


class _ShapeIndex:
    """Cars and city dots of a board in a uniform grid, to count what a route's
    cars would overlap (cars of other routes, any city dot)."""

    def __init__(self, board: BoardGeometry):
        self.cell = 2 * board.car_length
        self.items: list[tuple[str, tuple[Point, ...]]] = []
        for shape in board.routes.values():
            for car in shape.cars:
                self.items.append((shape.id, car.corners))
        r = board.city_radius
        for name, (x, y) in board.positions.items():
            octagon = tuple(
                (x + r * math.cos(k * math.pi / 4), y + r * math.sin(k * math.pi / 4))
                for k in range(8)
            )
            self.items.append((f"city:{name}", octagon))
        self.grid: dict[tuple[int, int], list[int]] = {}
        for i, (_, polygon) in enumerate(self.items):
            for key in self._cells(polygon):
                self.grid.setdefault(key, []).append(i)

    def _cells(self, polygon: Sequence[Point]) -> list[tuple[int, int]]:
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        c = self.cell
        return [
            (gx, gy)
            for gx in range(math.floor(min(xs) / c), math.floor(max(xs) / c) + 1)
            for gy in range(math.floor(min(ys) / c), math.floor(max(ys) / c) + 1)
        ]

    def hits(self, shapes: Sequence[RouteShape]) -> int:
        """How many other routes' cars and city dots the cars of `shapes` overlap."""
        own = {shape.id for shape in shapes}
        found: set[str] = set()
        for shape in shapes:
            for car in shape.cars:
                seen: set[int] = set()
                for key in self._cells(car.corners):
                    for i in self.grid.get(key, ()):
                        name, polygon = self.items[i]
                        if i in seen or name in own or name in found:
                            continue
                        seen.add(i)
                        if polygons_overlap(car.corners, polygon):
                            found.add(name)
        return len(found)


def _beside(p: Point, q: Point, along: float, offset: float) -> Point:
    """The point `offset` to the left of the point `along` (0..1) the way from p to q."""
    distance = math.dist(p, q) or 1.0
    nx, ny = -(q[1] - p[1]) / distance, (q[0] - p[0]) / distance
    x, y = p[0] + (q[0] - p[0]) * along, p[1] + (q[1] - p[1]) * along
    return (x + nx * offset, y + ny * offset)


def _label_offsets(game_map: Map, board: BoardGeometry) -> dict[str, Point]:
    """Each label's offset from its city, in the board's own type, placed by the one
    label placement (`ttr_maps.geometry.labels.place_labels`)."""
    from ttr_maps.geometry.labels import place_labels

    boxes = place_labels(game_map, board, BOARD_LABEL_FONT)
    return {
        name: (
            round(box.centre[0] - board.positions[name][0], 2),
            round(box.centre[1] - board.positions[name][1], 2),
        )
        for name, box in boxes.items()
    }


def _framed(layout: BoardLayout, game_map: Map) -> BoardLayout:
    """The layout moved so that everything drawn sits `BOARD_MARGIN` inside a board
    whose lower left corner is (0, 0); positions rounded to 0.01 cm."""
    board = board_geometry(game_map, layout)
    x0, y0, x1, y1 = board.bounds
    dx, dy = BOARD_MARGIN - x0, BOARD_MARGIN - y0

    def moved(p: Point) -> Point:
        return (round(p[0] + dx, 2), round(p[1] + dy, 2))

    return BoardLayout(
        cities={name: moved(p) for name, p in layout.cities.items()},
        labels=dict(layout.labels),
        bends={pair: tuple(moved(p) for p in points) for pair, points in layout.bends.items()},
        size=(round(x1 - x0 + 2 * BOARD_MARGIN, 1), round(y1 - y0 + 2 * BOARD_MARGIN, 1)),
    )


# ---------------------------------------------------------------- the map file


def layout_yaml(layout: BoardLayout) -> str:
    """The `layout:` section of a map file, one flow-style line per city and bend.

    >>> print(layout_yaml(BoardLayout(cities={"Den Haag": (1.0, 2.5)},
    ...     labels={"Den Haag": (0.0, -1.0)}, bends={("Den Haag", "Köln"): ((3.0, 4.0),)},
    ...     size=(80.0, 53.0))), end="")
    layout:
      board: {width: 80.0, height: 53.0}
      cities:
        Den Haag: {x: 1.0, y: 2.5, label: [0.0, -1.0]}
      bends:
        - {between: [Den Haag, Köln], points: [[3.0, 4.0]]}
    """
    lines = ["layout:"]
    if layout.size is not None:
        lines.append(f"  board: {{width: {layout.size[0]}, height: {layout.size[1]}}}")
    lines.append("  cities:")
    for name, (x, y) in layout.cities.items():
        label = layout.labels.get(name)
        extra = f", label: [{label[0]}, {label[1]}]" if label is not None else ""
        lines.append(f"    {_yaml_name(name)}: {{x: {x}, y: {y}{extra}}}")
    if layout.bends:
        lines.append("  bends:")
        for (a, b), points in layout.bends.items():
            shown = ", ".join(f"[{x}, {y}]" for x, y in points)
            lines.append(
                f"    - {{between: [{_yaml_name(a)}, {_yaml_name(b)}], points: [{shown}]}}"
            )
    return "\n".join(lines) + "\n"


def _yaml_name(name: str) -> str:
    """A city name as a YAML scalar inside flow collections: plain when that reads
    back as the same string, else double-quoted."""
    import json

    import yaml

    plain_ok = (
        not any(ch in name for ch in ",[]{}#&*!|>'\"%@`:?")
        and not name.startswith(("-", " "))
        and name == name.strip()
    )
    if plain_ok:
        try:
            if yaml.safe_load(f"[{name}]") == [name]:
                return name
        except yaml.YAMLError:
            pass
    return json.dumps(name, ensure_ascii=False)


def with_layout(text: str, layout: BoardLayout) -> str:
    """A map file's text with its `layout:` section replaced by `layout` (or added
    at the end). Everything else, comments included, stays byte for byte; comment
    lines indented inside an old `layout:` section go with it."""
    import re

    section = layout_yaml(layout)
    match = re.search(r"^layout:.*$", text, re.M)
    if match is None:
        separator = "" if not text or text.endswith("\n") else "\n"
        return f"{text}{separator}\n{section}"
    following = re.compile(r"^\S", re.M).search(text, match.end() + 1)
    end = following.start() if following else len(text)
    return text[: match.start()] + section + ("\n" if following else "") + text[end:]
