"""What makes a laid-out board readable, measured: the definition `ttr validate`
checks on any stored layout (TTR552–TTR557) and `ttr layout` must meet.

A player must see at a glance which two cities a route joins. On a laid-out board
(`ttr_maps.geometry.board`, centimetres) that means:

- **Chained cars** (`chain_gaps`): a route's cars form one chain from its city to
  its other city. No gap between consecutive cars is wider than `MAX_CAR_GAP`
  (a quarter of a car; the nominal gap is `board.CAR_GAP`), and the first and
  last cars start no further from their city's dot than the city's clearance
  allows plus the same slack; no car runs into its own city's dot.
- **Clearance** (`clearances`): no car of a route comes nearer another city's dot
  than `CLEARANCE` (a car's width), so a route never seems to stop at a city it
  passes.
- **Bounded detour** (`detours`): a route's centre line strays from the straight
  segment between its cities by at most `DETOUR_SHARE` of the segment's length
  plus `DETOUR_ALLOWANCE`. Tuned on the published boards: their layouts need bows
  of at most about 0.25 of the chord (docs/print.md, "Readable").
- **Compass order** (`compass_flips`): two neighbouring cities (joined by a route,
  or closer in geography than a typical route) keep their order east–west and
  north–south where geography is clear about it: if one lies at least 30° off
  due north or south of the other (`COMPASS_SHARE`), the board must not put it
  on the other side by more than a sliver (`COMPASS_TOLERANCE` of their distance).
- **Labels by their own dots** (`label_misses`): each label's box is within
  `MAX_LABEL_GAP` of its dot and nearer its own dot than any other.
- **Nothing covers anything** (`ttr_maps.geometry.board.overlaps`).

Every measure is near-linear in the size of the board: things near each other
are found through a uniform grid (`ttr_maps.geometry.grid.BoxGrid`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ttr_maps.geometry.board import (
    CAR_GAP,
    CAR_LENGTH,
    CAR_WIDTH,
    LABEL_HEIGHT,
    BoardGeometry,
    Overlap,
    RouteShape,
    for_the_last_map,
    overlaps,
)
from ttr_maps.geometry.grid import BoxGrid
from ttr_maps.geometry.labels import box_distance
from ttr_maps.geometry.projection import Point, projected_positions
from ttr_maps.model import Map

#: The widest gap allowed between two cars of a route (a quarter of a car), in cm.
MAX_CAR_GAP = 0.25 * CAR_LENGTH
#: The least distance from a car to the dot of a city its route does not end at.
CLEARANCE = CAR_WIDTH
#: A route's line may stray from its chord by this share of the chord, plus
#: `DETOUR_ALLOWANCE` cm.
DETOUR_SHARE = 0.3
DETOUR_ALLOWANCE = 0.5 * CAR_WIDTH
#: Compass order is kept where geography is clear: a neighbour at least this far
#: off the north–south (or east–west) axis, as the sine of the angle (30°) ...
COMPASS_SHARE = 0.5
#: ... may not be put on the other side by more than this share of the distance.
COMPASS_TOLERANCE = 0.1
#: The widest gap between a label's box and its city's dot, in cm.
MAX_LABEL_GAP = LABEL_HEIGHT


@dataclass(frozen=True, slots=True)
class ChainGap:
    """A route whose cars do not chain: `after` is the car a gap follows (0 for the
    gap from the `city` at the start, `len(cars)` for the one before the end
    city); `gap` its width in cm (negative: the car runs into the city's dot)."""

    route: str
    after: int
    city: str | None
    gap: float
    limit: float


@dataclass(frozen=True, slots=True)
class ClearanceMiss:
    """A route whose cars come `distance` cm from the dot of `city`, which it does
    not end at (at least `CLEARANCE`)."""

    route: str
    city: str
    distance: float


@dataclass(frozen=True, slots=True)
class Detour:
    """The routes between `cities` stray `deviation` cm from their chord of
    `chord` cm (at most `limit`)."""

    cities: tuple[str, str]
    deviation: float
    chord: float
    limit: float


@dataclass(frozen=True, slots=True)
class CompassFlip:
    """Geography puts `second` to the `direction` ('east' or 'north') of `first`;
    the board puts it the other way."""

    first: str
    second: str
    direction: str


@dataclass(frozen=True, slots=True)
class LabelMiss:
    """A label `gap` cm from its city's dot (at most `MAX_LABEL_GAP`), or nearer the
    dot of `nearer` than its own."""

    city: str
    gap: float
    nearer: str | None


@dataclass(frozen=True)
class Readability:
    """Everything that makes a laid-out board hard to read (empty: readable)."""

    gaps: tuple[ChainGap, ...]
    clearances: tuple[ClearanceMiss, ...]
    detours: tuple[Detour, ...]
    flips: tuple[CompassFlip, ...]
    labels: tuple[LabelMiss, ...]
    overlaps: tuple[Overlap, ...]

    @property
    def is_readable(self) -> bool:
        return (
            not (self.gaps or self.clearances or self.detours or self.flips or self.labels)
            and not self.overlaps
        )

    def troubled_pairs(self, game_map: Map) -> set[frozenset[str]]:
        """The city pairs whose routes break a rule (for `ttr layout` to name)."""
        by_id = game_map.route_by_id
        pairs = {frozenset(by_id[g.route].cities) for g in self.gaps}
        pairs |= {frozenset(by_id[c.route].cities) for c in self.clearances}
        pairs |= {frozenset(d.cities) for d in self.detours}
        for overlap in self.overlaps:
            for name in (overlap.first, overlap.second):
                if name in by_id:
                    pairs.add(frozenset(by_id[name].cities))
        return pairs

    def troubled_cities(self, game_map: Map) -> set[str]:
        """The cities whose place takes part in a broken rule: the ends of the
        troubled routes, cities passed too near, flipped neighbours, cities whose
        labels miss or cover something (for `ttr layout` to move)."""
        cities = {city for pair in self.troubled_pairs(game_map) for city in pair}
        cities |= {c.city for c in self.clearances}
        cities |= {name for f in self.flips for name in (f.first, f.second)}
        cities |= {miss.city for miss in self.labels}
        for overlap in self.overlaps:
            cities |= {n for n in (overlap.first, overlap.second) if n in game_map.city_index}
        return cities

    @property
    def count(self) -> int:
        """How many rules are broken, each time counted once."""
        return self.unlabelled_count + self.label_count

    @property
    def label_count(self) -> int:
        """How many of them involve a label."""
        return len(self.labels) + sum("label" in o.kind for o in self.overlaps)

    @property
    def unlabelled_count(self) -> int:
        """How many of them involve no label (placing labels cannot mend them)."""
        routes = (self.gaps, self.clearances, self.detours, self.flips)
        return sum(map(len, routes)) + sum("label" not in o.kind for o in self.overlaps)


def readability(game_map: Map, board: BoardGeometry) -> Readability:
    """Every measure of this module on a laid-out board."""
    return Readability(
        gaps=tuple(chain_gaps(board)),
        clearances=tuple(clearances(board)),
        detours=tuple(detours(board)),
        flips=tuple(compass_flips(game_map, board.positions)),
        labels=tuple(label_misses(board)),
        overlaps=tuple(overlaps(board)),
    )


# ---------------------------------------------------------------- chained cars


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from `p` to the segment a–b."""
    ax, ay = b[0] - a[0], b[1] - a[1]
    norm = ax * ax + ay * ay
    t = 0.0 if norm == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / norm))
    return math.hypot(p[0] - a[0] - t * ax, p[1] - a[1] - t * ay)


def _midpoint(p: Point, q: Point) -> Point:
    return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)


def route_gaps(
    shape: RouteShape, positions: Mapping[str, Point], radius: float
) -> tuple[str, str, list[float]]:
    """The gaps along a route's cars: from its start city's dot to the first car,
    between consecutive cars, from the last car to its end city's dot (cm, in
    order); with the start and end cities."""
    first, second = shape.cities
    start = shape.path[0]
    if math.dist(positions[second], start) < math.dist(positions[first], start):
        first, second = second, first
    cars = shape.cars
    gaps = [segment_distance(positions[first], cars[0].corners[0], cars[0].corners[3]) - radius]
    for car, following in itertools.pairwise(cars):
        end = _midpoint(car.corners[1], car.corners[2])
        gaps.append(math.dist(end, _midpoint(following.corners[0], following.corners[3])))
    gaps.append(
        segment_distance(positions[second], cars[-1].corners[1], cars[-1].corners[2]) - radius
    )
    return first, second, gaps


def end_gap_limit(clearance: float, radius: float) -> float:
    """The widest gap from a city's dot to a route's first car: the city's own
    clearance (busy cities keep cars further out) with the slack of `MAX_CAR_GAP`."""
    return clearance - radius - CAR_GAP + MAX_CAR_GAP


def chain_gaps(board: BoardGeometry) -> Iterator[ChainGap]:
    """Routes whose cars leave a gap wider than allowed, or run into their city."""
    for shape in board.routes.values():
        yield from _shape_gaps(shape, board.positions, board.city_radius)


def _shape_gaps(
    shape: RouteShape, positions: Mapping[str, Point], radius: float
) -> Iterator[ChainGap]:
    if not shape.cars:
        return
    first, second, gaps = route_gaps(shape, positions, radius)
    last = len(gaps) - 1
    for k, gap in enumerate(gaps):
        if k in (0, last):
            limit = end_gap_limit(shape.clearances[0 if k == 0 else 1], radius)
            if gap > limit + 1e-6 or gap < -1e-3:
                yield ChainGap(shape.id, k, first if k == 0 else second, gap, limit)
        elif gap > MAX_CAR_GAP + 1e-6:
            yield ChainGap(shape.id, k, None, gap, MAX_CAR_GAP)


def shape_gap_count(shape: RouteShape, positions: Mapping[str, Point], radius: float) -> int:
    """How many gaps of one route's chain are too wide (for `ttr layout`'s repairs)."""
    return sum(1 for _ in _shape_gaps(shape, positions, radius))


# ---------------------------------------------------------------- clearance


def polygon_distance(p: Point, polygon: Sequence[Point]) -> float:
    """Distance from `p` to a convex polygon (0 inside)."""
    inside = True
    sign = 0.0
    for a, b in zip(polygon, (*polygon[1:], polygon[0]), strict=True):
        cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        if cross != 0:
            if sign == 0:
                sign = math.copysign(1.0, cross)
            elif math.copysign(1.0, cross) != sign:
                inside = False
                break
    if inside:
        return 0.0
    return min(
        segment_distance(p, a, b) for a, b in zip(polygon, (*polygon[1:], polygon[0]), strict=True)
    )


def _city_grid(positions: Mapping[str, Point], cell: float) -> BoxGrid[tuple[str, Point]]:
    grid: BoxGrid[tuple[str, Point]] = BoxGrid(cell)
    for name, (x, y) in positions.items():
        grid.add((x, y, x, y), (name, (x, y)))
    return grid


def clearances(board: BoardGeometry, within: float = CLEARANCE) -> Iterator[ClearanceMiss]:
    """Routes whose cars pass nearer than `within` (default `CLEARANCE`) to a city
    they do not end at (one entry per route and city, the nearest car)."""
    reach = board.city_radius + within
    cities = _city_grid(board.positions, max(2 * board.car_length, 1e-9))
    for shape in board.routes.values():
        nearest: dict[str, float] = {}
        for car in shape.cars:
            xs, ys = [p[0] for p in car.corners], [p[1] for p in car.corners]
            box = (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)
            for name, centre in cities.near(box):
                if name in shape.cities:
                    continue
                distance = polygon_distance(centre, car.corners) - board.city_radius
                if distance < within - 1e-6 and distance < nearest.get(name, math.inf):
                    nearest[name] = distance
        for name, distance in sorted(nearest.items()):
            yield ClearanceMiss(shape.id, name, distance)


# ---------------------------------------------------------------- detour


def detour_limit(chord: float) -> float:
    """How far (cm) a route's line may stray from a chord of `chord` cm."""
    return DETOUR_SHARE * chord + DETOUR_ALLOWANCE


def detours(board: BoardGeometry) -> Iterator[Detour]:
    """City pairs whose shared centre line strays too far from their chord."""
    return (d for d in route_detours(board) if d.deviation > d.limit + 1e-6)


def route_detours(board: BoardGeometry) -> Iterator[Detour]:
    """How far the centre line of every bent city pair strays from its chord."""
    seen: set[frozenset[str]] = set()
    for shape in board.routes.values():
        pair = frozenset(shape.cities)
        if pair in seen or len(pair) != 2 or len(shape.line) < 3:
            continue
        seen.add(pair)
        a, b = sorted(shape.cities)
        pa, pb = board.positions[a], board.positions[b]
        chord = math.dist(pa, pb)
        deviation = max(segment_distance(p, pa, pb) for p in shape.line)
        yield Detour((a, b), deviation, chord, detour_limit(chord))


# ---------------------------------------------------------------- compass order


def neighbour_pairs(game_map: Map, geography: Mapping[str, Point]) -> list[tuple[str, str]]:
    """Cities whose order matters: joined by a route, or nearer each other in
    geography than the median route is long (found through a grid)."""
    pairs = {
        tuple(sorted(pair))
        for pair in game_map.parallel_routes
        if len(pair) == 2 and pair <= geography.keys()
    }
    lengths = sorted(math.dist(geography[a], geography[b]) for a, b in pairs)
    reach = lengths[len(lengths) // 2] if lengths else 0.0
    if reach > 0:
        grid = _city_grid(geography, reach)
        for name, (x, y) in geography.items():
            for other, centre in grid.near((x - reach, y - reach, x + reach, y + reach)):
                if other != name and math.dist((x, y), centre) < reach:
                    pairs.add(tuple(sorted((name, other))))
    return sorted(pairs)  # type: ignore[arg-type]


@for_the_last_map
def _geographic_neighbours(game_map: Map) -> tuple[Mapping[str, Point], list[tuple[str, str]]]:
    """The map's projected geography and its `neighbour_pairs`."""
    geography = projected_positions(game_map)
    return geography, neighbour_pairs(game_map, geography)


def compass_flips(game_map: Map, positions: Mapping[str, Point]) -> Iterator[CompassFlip]:
    """Neighbouring cities whose east–west or north–south order on the board is
    the opposite of geography's (see the module docstring)."""
    geography, pairs = _geographic_neighbours(game_map)
    for a, b in pairs:
        if a not in positions or b not in positions:
            continue
        geo = (geography[b][0] - geography[a][0], geography[b][1] - geography[a][1])
        drawn = (positions[b][0] - positions[a][0], positions[b][1] - positions[a][1])
        geo_norm, drawn_norm = math.hypot(*geo), math.hypot(*drawn)
        if geo_norm == 0 or drawn_norm == 0:
            continue
        for axis, direction in ((0, "east"), (1, "north")):
            g, d = geo[axis] / geo_norm, drawn[axis] / drawn_norm
            if abs(g) >= COMPASS_SHARE and g * d < 0 and abs(d) > COMPASS_TOLERANCE:
                first, second = (a, b) if g > 0 else (b, a)
                yield CompassFlip(first, second, direction)


# ---------------------------------------------------------------- labels


def label_misses(board: BoardGeometry) -> Iterator[LabelMiss]:
    """Labels too far from their dot, or nearer another city's dot."""
    if not board.labels:
        return
    cities = _city_grid(board.positions, max(2 * board.car_length, 1e-9))
    for name, label in board.labels.items():
        own = box_distance(board.positions[name], label.box)
        x0, y0, x1, y1 = label.box
        nearer = None
        closest = own
        for other, centre in cities.near((x0 - own, y0 - own, x1 + own, y1 + own)):
            distance = box_distance(centre, label.box)
            if other != name and distance <= closest:
                nearer, closest = other, distance
        gap = max(own - board.city_radius, 0.0)
        if gap > MAX_LABEL_GAP + 1e-6 or nearer is not None:
            yield LabelMiss(name, gap, nearer)
