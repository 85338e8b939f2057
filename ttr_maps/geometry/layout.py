"""Computing a board layout: a board a designer can print. Every car the same size,
each route's cars one chain from its city to its other city, no route near a city it
does not serve, routes close to the line between their cities (a smooth bow where
a route needs more length than its cities' distance), geography's compass order
kept, nothing on top of anything else, and cities as near their geographic places
as that allows. `ttr_maps.geometry.readability` defines these rules; the result
reports how the board measures against them, naming what it could not lay out.

`compute_layout(game_map)` works in five steps, all in board centimetres:

1. **Scale geography** (`ttr_maps.geometry.projection.projected_positions`) so that
   the median route is as long as its cars need (`board.run_length` plus the
   clearance at each city, `board.city_clearance`).
2. **Move cities** with `scipy.optimize.least_squares` (trust-region reflective,
   finite differences over a sparse Jacobian: each residual involves two or three
   cities). A route's line must be about as long as its cars with their gaps: not
   longer than the widest allowed gaps take (a rope: strong), not much shorter
   than its cars need (then it bows, and a bow longer than the detour bound allows
   is strong too; a straight route is preferred). Each route that is shorter than
   its cars is modelled as the bow it will be drawn as, on the side with room, so
   the other residuals see the bow: cities stay `CITY_SPACING` apart and clear of
   other routes' bands, routes leave a city at angles wide enough for their bands,
   neighbouring cities keep their compass order, and every city stays near its
   scaled geographic place (weak). Pinned cities are constants. Neighbours come
   from a `scipy.spatial.cKDTree`, refreshed between rounds, and each bow's side
   is chosen again each round.
3. **Draw the bows and repair**: each bow gets the one bend point whose smooth
   curve (`board.route_line`) gives its tracks the length their cars need; a route
   still breaking a rule tries the other side, an off-centre bow or (a straight
   route) a gentle bow, and keeps the best.
4. **Repair the board** (`_repair_board`): one change at a time to what still
   breaks a rule (another bow for a troubled route in any of `_PROFILES`: one
   bend point centred or off-centre, a flat bow, S shapes, straight, at the
   length its cars aim at or shorter; a city pulled in along a chain spread too
   thin; a free city nudged 0.3 to 3 cm in 8 directions, its bows redrawn in
   their profiles; then a city nudged with its troubled routes bent afresh), the
   labels placed again; a change is kept when the board then breaks fewer
   rules, or as many less badly (`_severity`), so two routes crowding a city
   part in steps. The least squares see the rules as smooth wishes; this step
   counts them, within a budget of trials that shrinks on big maps, and of
   work (`_Work`: the bows drawn and measured by the dearer changes count, so a
   small map no layout makes readable stops in about two seconds; counted, not
   timed, so the board is the same on any machine).
   Two troubled routes leaving one city are also bent together (each one's
   best bows, paired), a bow straying past its bound stretches its chord (a
   city pushed out along it), and a change tried before is tried again only
   near where the board has changed since.
   **Escape** (`_escape`): what the repair could not mend is moved again by
   least squares, the cities within a median chord of the trouble free, the
   residuals of what breaks weighed 4 then 12 times more (a fan whose cars
   overlap opened wider, overlapping bands held apart, a city passed too near
   pushed off); its bows drawn and repaired again; kept only if the whole
   board then breaks fewer rules, or as many less badly.
5. **Label and frame**: labels go where the one label placement
   (`ttr_maps.geometry.labels`) puts them in the board's own type; the board is
   moved so that everything sits `BOARD_MARGIN` inside it (not when a city is
   pinned: pinned cities never move).

The work is done on the map in play order (`Map.in_play_order`: cities by name,
routes by their cities' names), so the same map written in another order gets
the same board, bit for bit (no sum or tie depends on the file's order; which
local minimum least squares end in still depends on scipy's and numpy's
arithmetic).

Laid out again (a stored layout naming every city), the stored board is kept
when the new one would break more rules, so `ttr layout --write` never makes a
readable board worse.

scipy is a well-kept library already pulled in by the project's plotting stack; a
graph-drawing library (e.g. a force-directed layout) would have to be bent to these
geometric rules, while least squares states them directly.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ttr_maps.geometry.board import (
    BOARD_LABEL_FONT,
    CAR_GAP,
    CAR_LENGTH,
    CAR_WIDTH,
    CITY_RADIUS,
    TRACK_SPACING,
    BoardGeometry,
    RouteShape,
    band_half_width,
    board_geometry,
    city_clearance,
    end_clearances,
    laid_out_tracks,
    offset_polyline,
    polygons_overlap,
    polyline_length,
    route_line,
    run_length,
)
from ttr_maps.geometry.projection import Point, projected_positions
from ttr_maps.geometry.readability import (
    CLEARANCE,
    COMPASS_SHARE,
    COMPASS_TOLERANCE,
    DETOUR_SHARE,
    MAX_CAR_GAP,
    Readability,
    detour_limit,
    neighbour_pairs,
    polygon_distance,
    readability,
    segment_distance,
    shape_gap_count,
)
from ttr_maps.io.limits import MAX_LAYOUT_CITIES
from ttr_maps.model import BoardLayout, Map

#: Margin around everything drawn, in cm, to the edge of the board.
BOARD_MARGIN = 2.0
#: Least distance between two city centres, in cm.
CITY_SPACING = 2.6
#: The share of a route's slack (the length its gaps may widen by) its line aims
#: at; the rope holds it within `_ROPE_SLACK` of the slack.
_TARGET_SLACK = 0.2
#: A repaired bow may be as short as its cars need plus this share of the slack.
_LEAST_SLACK = 0.03
#: ... or shorter still, its end cars this near their cities' dots, in cm.
_END_ROOM = 0.2
_ROPE_SLACK = 0.55
#: How far the optimiser keeps a bow below the detour bound (a share of it).
_BOW_SAFETY = 0.85
#: Compass order is pushed with this margin, in cm, inside the sliver the rule
#: allows (`COMPASS_TOLERANCE` of the cities' distance, times this share).
_COMPASS_MARGIN = 0.3
_COMPASS_ROOM = 0.75
#: Routes may leave a city at angles so narrow that one band starts this much
#: further out than the city's clearance (`board.end_clearances`), in cm.
_FAN_REACH = 1.2
#: A bow's side is chosen to leave its cities at least this angle (radians) from
#: their other routes where it can.
_NARROW_FAN = 0.6
#: Cities keep this much more than `CLEARANCE` from other routes, in the optimiser.
_CLEAR_MARGIN = 0.3
#: Free cities stay this far inside the board when a pinned city fixes the frame.
_FRAME_INSET = BOARD_MARGIN + 1.5

_WEIGHT_ANCHOR = 0.05
_WEIGHT_ROPE = 8.0
_WEIGHT_STRAIGHT = 0.4
_WEIGHT_BOW = 4.0
_WEIGHT_SPACING = 3.0
_WEIGHT_CLEAR = 3.0
_WEIGHT_ANGLE = 8.0
_WEIGHT_COMPASS = 8.0
_WEIGHT_CROSS = 3.0
_WEIGHT_FRAME = 3.0
_ROUNDS = 4
_MAX_NFEV = 80
_REPAIR_ROUNDS = 3
#: How far a city is nudged to repair what still breaks a rule, in cm, and how
#: many boards that may evaluate (divided by the number of cities, and past
#: `_BUDGET_CITIES` by their power 2.5; between the minimum and the maximum).
_NUDGES = (0.3, 0.6, 1.2, 2.0, 3.0)
_NUDGE_BUDGET = 24000
_BUDGET_CITIES = 50
_NUDGE_BUDGET_MIN = 30
_NUDGE_BUDGET_MAX = 1000
#: The work of the changes is bounded too, not only the trials: the dearer ones
#: (a push or a nudge with its routes bent afresh, two routes bent together) draw
#: and measure dozens of bows each before their one trial. Work counts in
#: drawings of a group's tracks (`_Work`): a board drawn costs one per group, a
#: bow's curve found `_DRAW_COST`, a bow's tracks measured against the board
#: `_MEASURE_COST` (as their CPU times compare: about 0.8, 1 and 3.5 ms on the map
#: of three cities no layout chains). The changes may spend `_WORK_PER_TRIAL`
#: boards' worth per trial of the budget (a trial itself draws the board two or
#: three times).
_DRAW_COST = 1.0
_MEASURE_COST = 4.0
_WORK_PER_TRIAL = 1.0
#: How far a bow straying past its bound is stretched: one of its cities pushed
#: out along the chord by this much, in cm.
_PUSHES = (0.15, 0.3, 0.6)
#: Two troubled routes at one city bent together: each one's best bows, and the
#: best pairings of them tried.
_JOINT_CHOICES = 10
_JOINT_TRIES = 3
#: A change tried before is tried again after the board changed within this
#: many median chords of the cities it names (further away it would measure as
#: before).
_FORGET_REACH = 2.0
#: The escape from what the repair could not mend (`_escape`): the cities within
#: this many median chords of the trouble move again, in this many rounds of
#: least squares, the residuals of the trouble weighed this many times more (one
#: try per weight), and the fans of two routes whose cars overlap asked for this
#: much more angle.
_ESCAPE_REACH = 1.0
_ESCAPE_ROUNDS = 2
_ESCAPE_WEIGHTS = (4.0, 12.0)
_FAN_BOOST = 1.3
#: A bow's profile: its bend points, each as (share of the way along the chord,
#: offset to the bow's side as a share of its height).
Profile = tuple[tuple[float, float], ...]
#: The one-point bow, bending half way.
_CENTRED: Profile = ((0.5, 1.0),)
#: What a repaired bow may look like: one bend point along the chord (off-centre
#: leaves the nearer city at a wider angle), a flat bow (two points on one side:
#: more length for its height), and S shapes of several depths and positions
#: (two points on either side: nearest the chord for their length, leaving and
#: entering the cities on opposite sides).
_PROFILES: tuple[Profile, ...] = (
    *(((along, 1.0),) for along in (0.5, 0.35, 0.65, 0.2, 0.8)),
    ((1 / 3, 1.0), (2 / 3, 1.0)),
    ((0.25, 1.0), (0.75, 1.0)),
    ((0.2, 1.0), (0.55, 1.0)),
    ((0.45, 1.0), (0.8, 1.0)),
    ((1 / 3, 1.0), (2 / 3, -1.0)),
    ((0.25, 1.0), (0.65, -1.0)),
    ((0.35, 1.0), (0.75, -1.0)),
    ((1 / 3, 1.0), (2 / 3, -0.5)),
    ((1 / 3, 0.5), (2 / 3, -1.0)),
)
#: The first repair of every route tries the one-point bows only (it is quick).
_QUICK_PROFILES = _PROFILES[:3]


class LayoutError(ValueError):
    """A layout cannot be computed for this map (fewer than two cities, no route,
    every route between cities at one place, or too many cities)."""


@dataclass(frozen=True)
class LayoutResult:
    """A computed layout and how it measures against the rules of a readable board."""

    layout: BoardLayout
    board: BoardGeometry
    #: What still breaks a rule (`ttr_maps.geometry.readability`; target: nothing).
    readability: Readability
    #: Largest relative difference of any car's length or width from nominal.
    car_size_spread: float
    #: How far each city moved from its scaled geographic place, in cm.
    displacement: Mapping[str, float]
    #: Board centimetres per kilometre (geographic) or per plane unit.
    scale: float
    #: How far the board reaches past its left and lower edges, in cm (only when
    #: pinned cities fix the frame; else 0).
    off_board: Point = (0.0, 0.0)
    #: Cities kept where they were.
    pinned: frozenset[str] = field(default_factory=frozenset)

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


def compute_layout(
    game_map: Map, previous: BoardLayout | None = None, pinned: Collection[str] = ()
) -> LayoutResult:
    """A board layout for `game_map` (see the module docstring).

    `pinned` cities keep their place in `previous` (the map's stored layout), and
    their label offsets there; the other cities then start from their places
    there, and the board keeps its frame. A pinned city without a stored place
    stays at its scaled geographic place: geography (scaled as in step 1) moved
    as a whole onto the stored board (by the mean offset of the cities placed
    there), or, without a stored board, so that its lower left corner sits
    `_FRAME_INSET` cm inside the board's.
    """
    import numpy as np

    if len(game_map.cities) < 2 or not game_map.routes:
        raise LayoutError(f"{game_map.id}: a layout needs at least two cities and a route")
    if len(game_map.cities) > MAX_LAYOUT_CITIES:
        raise LayoutError(
            f"{game_map.id}: {len(game_map.cities):,} cities; `ttr layout` lays out boards of "
            f"at most {MAX_LAYOUT_CITIES:,} (past that no readable board is reached in minutes); "
            "place its cities by hand in its `layout:` section (docs/map-format.md)"
        )
    # The same map written in another order lays out the same board: the work is
    # done in play order (cities by name, routes by their cities' names), so that
    # no sum or tie depends on the file's order; the result is measured on the
    # map as written (its route ids in its messages).
    written, game_map = game_map, game_map.in_play_order
    names = [c.name for c in game_map.cities]
    pinned = frozenset(pinned) & frozenset(names)
    index = {name: i for i, name in enumerate(names)}
    projected = projected_positions(game_map)
    geo = np.array([projected[name] for name in names], dtype=float)
    problem = _Problem.build(game_map, index, projected)
    distances = np.linalg.norm(geo[problem.route_a] - geo[problem.route_b], axis=1)
    usable = distances > 0
    if not usable.any():
        raise LayoutError(f"{game_map.id}: every route joins two cities at the same place")
    scale = float(np.median(problem.target[usable] / distances[usable]))
    anchor = (geo - geo.mean(axis=0)) * scale
    start = anchor.copy()
    fixed = np.zeros(len(names), dtype=bool)
    if pinned:
        stored = previous.cities if previous is not None else {}
        before = np.array([stored.get(name, (math.nan, math.nan)) for name in names], dtype=float)
        known = ~np.isnan(before).any(axis=1)
        if known.any():
            # Geography moved as a whole onto the stored board.
            anchor = anchor + (before[known] - anchor[known]).mean(axis=0)
        else:
            # No stored board: geography's lower left corner inside the frame.
            anchor = anchor + (_FRAME_INSET - anchor.min(axis=0))
        start = np.where(known[:, None], before, anchor)
        for name in pinned:
            fixed[index[name]] = True
    kept = {n: p for n, p in previous.labels.items() if n in pinned} if previous else {}
    made = _laid_out(game_map, problem, anchor, start, fixed, pinned, kept)
    result = _result(written, made, anchor, scale)
    if previous is not None and previous.cities.keys() >= set(names) and result.readability.count:
        # Laid out again, a board that was better stays as it was (a designer's
        # hand-made bends and labels included).
        stored = BoardLayout(
            cities={name: previous.cities[name] for name in names},
            labels={n: p for n, p in previous.labels.items() if n in index},
            bends={
                pair: points
                for pair, points in previous.bends.items()
                if frozenset(pair) in game_map.parallel_routes
            },
            pinned=pinned,
        )
        before = _result(written, stored, anchor, scale, aligned=True)
        if before.readability.count < result.readability.count:
            return before
    return result


def _laid_out(
    game_map: Map,
    problem: _Problem,
    anchor: object,
    start: object,
    fixed: object,
    pinned: Collection[str],
    kept: Mapping[str, Point],
) -> BoardLayout:
    """Steps 2 to 5 of the module docstring from `start` (N x 2, in play order),
    before the frame: the cities moved, the bows drawn and repaired, what is left
    escaped (`_escape`), the labels placed (`kept`: a pinned city's label stays)."""
    names = [c.name for c in game_map.cities]
    positions, sides = _optimise(game_map, problem, anchor, start, fixed)
    problem.refresh(game_map, positions, sides)
    # On the grid of the stored precision (0.01 cm) from here on: what is
    # measured is what is written (`_framed` moves the board by whole steps).
    placed = {
        name: _rounded((float(x), float(y))) for name, (x, y) in zip(names, positions, strict=True)
    }
    bends = _draw_bows(game_map, problem, placed, sides)
    bends = _repair_routes(game_map, problem, placed, bends)
    placed, bends = _repair_board(game_map, problem, placed, bends, pinned, kept)
    placed, bends = _escape(game_map, problem, placed, bends, pinned, kept)
    board = board_geometry(game_map, BoardLayout(cities=placed, bends=bends))
    labels = {**_label_offsets(game_map, board), **kept}
    return BoardLayout(cities=placed, labels=labels, bends=bends, pinned=frozenset(pinned))


def _result(
    game_map: Map, layout: BoardLayout, anchor: object, scale: float, aligned: bool = False
) -> LayoutResult:
    """The finished result of a layout (framed: `_framed`), with how far each city
    is from its scaled geographic place (`anchor`; `aligned`: first moved as a
    whole onto the layout, for a layout made elsewhere; its cities in play order,
    as `compute_layout` works)."""
    import numpy as np

    layout, shift, off_board = _framed(layout, game_map)
    board = board_geometry(game_map, layout)
    names = [c.name for c in game_map.in_play_order.cities]
    here = np.array([layout.cities[name] for name in names], dtype=float) - np.array(shift)
    if aligned:
        anchor = anchor + (here - anchor).mean(axis=0)
    displacement = {
        name: float(np.linalg.norm(here[i] - anchor[i])) for i, name in enumerate(names)
    }
    return LayoutResult(
        layout=layout,
        board=board,
        readability=readability(game_map, board),
        car_size_spread=car_size_spread(board),
        displacement=displacement,
        scale=scale,
        off_board=off_board,
        pinned=layout.pinned,
    )


# ---------------------------------------------------------------- bows


def _bow_table() -> tuple[list[float], list[float]]:
    """Length over chord of a one-point bow (`board.route_line`) against its height
    over chord, from a straight line to a height of 0.6."""
    heights = [0.01 * k for k in range(61)]
    ratios = [polyline_length(route_line((0.0, 0.0), [(0.5, h)], (1.0, 0.0))) for h in heights]
    return heights, ratios


_BOW_HEIGHTS, _BOW_RATIOS = _bow_table()


def _interpolate(value: float, xs: Sequence[float], ys: Sequence[float]) -> float:
    """Linear interpolation in an increasing table, clamped at its ends."""
    if value <= xs[0]:
        return ys[0]
    for k in range(1, len(xs)):
        if value <= xs[k]:
            w = (value - xs[k - 1]) / (xs[k] - xs[k - 1])
            return ys[k - 1] + w * (ys[k] - ys[k - 1])
    return ys[-1]


def bow_height(chord: float, length: float) -> float:
    """The height of the one-point bow of `chord` whose line is `length` long
    (0 when the chord is long enough; at most 0.6 of the chord).

    >>> round(bow_height(10.0, 11.0), 2), bow_height(10.0, 9.0)
    (2.17, 0.0)
    """
    if chord <= 0:
        return 0.0
    return chord * _interpolate(length / chord, _BOW_RATIOS, _BOW_HEIGHTS)


def _max_bow_ratio(tracks: int, slack: float) -> float:
    """The longest line over chord a group's bow may have. A one-point bow of height
    h over chord c leaves its cities at atan(2h / c) to the chord and turns twice
    that, so the outer of side-by-side tracks is longer than the inner by their
    distance times that turning: it must fit within the rope's share of the slack."""
    height = _BOW_SAFETY * DETOUR_SHARE
    if tracks > 1:
        spread = (tracks - 1) * CAR_WIDTH * TRACK_SPACING
        turning = _ROPE_SLACK * slack / spread
        height = min(height, math.tan(turning / 4) / 2)
    return _interpolate(height, _BOW_HEIGHTS, _BOW_RATIOS)


# ---------------------------------------------------------------- the optimisation


@dataclass
class _Problem:
    """Index arrays of the map's geometry, for vectorised residuals. Routes between
    the same two cities are one entry ("group"), oriented by sorted names as the
    board draws them."""

    groups: list[tuple[str, str]]
    route_a: object
    route_b: object
    #: The length each group's line needs (cars, nominal gaps, clearances), the
    #: length it aims at, and the rope: the longest it may be; and the least a
    #: bow may have: its cars then eat into the clearance at both ends, up to
    #: `_END_ROOM` from the nearer city's dot (the chain rule allows down to 0).
    need: object
    target: object
    upper: object
    half: object
    least: object
    #: The length of each group's longest run of cars, and its slack.
    run: object
    slack: object
    #: The longest line over chord a bow of each group may have: within the detour
    #: bound, and for side-by-side tracks as little as keeps the outer track's
    #: extra length (its offset times the bow's turning) within the slack.
    max_ratio: object
    #: (city, group 1, group 2, least angle) for groups meeting at a city.
    fans: object
    #: (city i, city j, axis, sign): geography puts j on the `sign` side of i.
    compass: object

    @classmethod
    def build(cls, game_map: Map, index: Mapping[str, int], geography: Mapping[str, Point]):
        import numpy as np

        clearance = city_clearance(game_map)
        groups, a, b, half, run, slack, max_ratio = [], [], [], [], [], [], []
        for pair, routes in game_map.parallel_routes.items():
            if len(pair) != 2 or not pair <= index.keys():
                continue
            first, second = sorted(pair)
            longest = max(r.length for r in routes)
            groups.append((first, second))
            a.append(index[first])
            b.append(index[second])
            run.append(run_length(longest))
            slack.append((longest + 1) * (MAX_CAR_GAP - CAR_GAP))
            half.append(band_half_width(len(routes)))
            max_ratio.append(_max_bow_ratio(len(routes), slack[-1]))
        around: dict[int, list[tuple[int, float]]] = {}
        for g, (i, j, h) in enumerate(zip(a, b, half, strict=True)):
            around.setdefault(i, []).append((g, h))
            around.setdefault(j, []).append((g, h))
        names = list(index)
        fans = []
        for centre, ends in around.items():
            # Bands at a narrower angle than this would start more than
            # `_FAN_REACH` further out than the city's own clearance.
            r = clearance[names[centre]] + _FAN_REACH
            for k, (g1, h1) in enumerate(ends):
                for g2, h2 in ends[k + 1 :]:
                    least = 2 * math.atan((h1 + h2 + 0.2) / (2 * r))
                    fans.append((centre, g1, g2, least))
        compass = []
        for first, second in neighbour_pairs(game_map, geography):
            (x0, y0), (x1, y1) = geography[first], geography[second]
            norm = math.hypot(x1 - x0, y1 - y0)
            for axis, delta in ((0, x1 - x0), (1, y1 - y0)):
                if norm and abs(delta) / norm >= COMPASS_SHARE:
                    compass.append((index[first], index[second], axis, math.copysign(1, delta)))
        ends = np.array([clearance[p] + clearance[q] for p, q in groups], dtype=float)
        nearest = np.array([min(clearance[p], clearance[q]) for p, q in groups], dtype=float)
        run_array = np.array(run, dtype=float)
        slack_array = np.array(slack, dtype=float)
        return cls(
            groups=groups,
            route_a=np.array(a, dtype=int),
            route_b=np.array(b, dtype=int),
            need=run_array + ends,
            target=run_array + ends + _TARGET_SLACK * slack_array,
            upper=run_array + ends + _ROPE_SLACK * slack_array,
            half=np.array(half, dtype=float),
            least=run_array + ends - 2 * np.maximum(0.0, nearest - CITY_RADIUS - _END_ROOM),
            run=run_array,
            slack=slack_array,
            max_ratio=np.array(max_ratio, dtype=float),
            fans=np.array(fans, dtype=float).reshape(-1, 4),
            compass=np.array(compass, dtype=float).reshape(-1, 4),
        )

    def refresh(self, game_map: Map, x: object, sides: object) -> None:
        """Update what each group needs from where its cars start at both cities
        (`board.end_clearances`: further out where routes leave at narrow angles),
        with the groups drawn as now: straight, or as their bows."""
        import numpy as np

        bows = self.bow_points(x, sides)
        lines = {}
        for g, pair in enumerate(self.groups):
            pa = (float(x[self.route_a[g]][0]), float(x[self.route_a[g]][1]))
            pb = (float(x[self.route_b[g]][0]), float(x[self.route_b[g]][1]))
            bent = math.dist(pa, pb) < self.target[g]
            bend = [(float(bows[g][0]), float(bows[g][1]))] if bent else []
            lines[pair] = route_line(pa, bend, pb)
        clearance = end_clearances(game_map, lines)
        ends = np.array([clearance[(p, (p, q))] + clearance[(q, (p, q))] for p, q in self.groups])
        self.need = self.run + ends
        self.target = self.need + _TARGET_SLACK * self.slack
        self.upper = self.need + _ROPE_SLACK * self.slack

    def bow_points(self, x: object, sides: object) -> object:
        """Each group's bow point (its midpoint when straight), vectorised."""
        import numpy as np

        pa, pb = x[self.route_a], x[self.route_b]
        delta = pb - pa
        d = np.maximum(np.linalg.norm(delta, axis=1), 1e-9)
        ratio = np.clip(self.target / d, 1.0, self.max_ratio)
        height = d * np.interp(ratio, _BOW_RATIOS, _BOW_HEIGHTS)
        normal = np.stack((-delta[:, 1], delta[:, 0]), axis=1) / d[:, None]
        return (pa + pb) / 2 + (sides * height)[:, None] * normal


def _optimise(
    game_map: Map,
    problem: _Problem,
    anchor: object,
    start: object,
    fixed: object,
    rounds: int = _ROUNDS,
    sides: object = None,
    framed: bool | None = None,
    emphasis: _Emphasis | None = None,
):
    """City positions (N x 2) after `rounds` rounds of least squares, and the side
    (+1 left, -1 right, seen from the first city) of every group's bow (`sides`:
    where they start). Free cities are kept inside the frame when `framed` (by
    default when some city is fixed); `emphasis` weighs up what it names."""
    import numpy as np
    from scipy.optimize import least_squares

    anchor = np.asarray(anchor)
    x = np.array(start, dtype=float).copy()
    free = ~np.asarray(fixed)
    sides = np.ones(len(problem.groups)) if sides is None else np.array(sides, dtype=float)
    framed = not free.all() if framed is None else framed
    if not free.any():
        return x, _choose_sides(problem, x, sides)
    for _ in range(rounds):
        sides = _choose_sides(problem, x, sides)
        problem.refresh(game_map, x, sides)
        near = _neighbours(problem, x, free, sides)
        residuals, groups = _residual_function(
            problem, anchor, x, free, sides, near, framed, emphasis
        )
        sparsity = _sparsity(groups, free)
        solution = least_squares(
            residuals,
            x[free].ravel(),
            jac_sparsity=sparsity,
            method="trf",
            x_scale=CAR_LENGTH,
            max_nfev=_MAX_NFEV,
            xtol=1e-4,
            ftol=1e-5,
        )
        x[free] = solution.x.reshape(-1, 2)
    return x, _choose_sides(problem, x, sides)


def _polyline_distance(c: object, p: object, q: object, r: object) -> object:
    """Distance from points c to the polylines p–q–r (rows), vectorised."""
    import numpy as np

    def segment(c, p, q):
        pq = q - p
        t = np.sum((c - p) * pq, axis=1) / np.maximum(np.sum(pq * pq, axis=1), 1e-9)
        t = np.clip(t, 0.0, 1.0)
        return np.linalg.norm(c - (p + t[:, None] * pq), axis=1)

    return np.minimum(segment(c, p, q), segment(c, q, r))


def _clear_need(problem: _Problem, groups: object) -> object:
    return CITY_RADIUS + problem.half[groups] + CLEARANCE + _CLEAR_MARGIN


def _choose_sides(problem: _Problem, x: object, sides: object) -> object:
    """For every group shorter than its target (a bow), the side with more room:
    fewer cities near the bow and no other group's line crossed; ties keep the
    side it had."""
    import numpy as np
    from scipy.spatial import cKDTree

    x = np.asarray(x)
    sides = np.array(sides, dtype=float)
    a, b = problem.route_a, problem.route_b
    d = np.linalg.norm(x[a] - x[b], axis=1)
    bowed = np.flatnonzero(d < problem.target * 0.999)
    if not len(bowed):
        return sides
    left = problem.bow_points(x, np.ones(len(sides)))
    right = problem.bow_points(x, -np.ones(len(sides)))
    current = problem.bow_points(x, sides)
    tree = cKDTree(x)
    mids = (x[a] + x[b]) / 2
    mid_tree = cKDTree(mids)
    at_city: dict[int, list[int]] = {}
    for g, (i, j) in enumerate(zip(a, b, strict=True)):
        at_city.setdefault(int(i), []).append(g)
        at_city.setdefault(int(j), []).append(g)
    for g in bowed:
        reach = d[g] + 2 * CITY_SPACING
        near_cities = [c for c in tree.query_ball_point(mids[g], reach) if c not in (a[g], b[g])]
        near_groups = [h for h in mid_tree.query_ball_point(mids[g], reach + d.max() / 2) if h != g]
        scores = []
        for bow in (left[g], right[g]):
            score = 0.0
            if near_cities:
                cities = x[near_cities]
                count = len(near_cities)
                dist = _polyline_distance(
                    cities,
                    np.repeat(x[a[g]][None], count, 0),
                    np.repeat(bow[None], count, 0),
                    np.repeat(x[b[g]][None], count, 0),
                )
                score += float(np.sum(np.maximum(0.0, _clear_need(problem, g) - dist)))
            if near_groups:
                drawn = current.copy()
                drawn[g] = bow
                others = np.array(near_groups, dtype=int)
                mine = np.full(len(others), g)
                score += 5.0 * float(np.sum(_crossing(x, drawn, a, b, mine, others)))
            for city in (int(a[g]), int(b[g])):
                heading = math.atan2(bow[1] - x[city][1], bow[0] - x[city][0])
                for h in at_city[city]:
                    if h == g:
                        continue
                    toward = current[h] - x[city]
                    theta = abs(
                        (heading - math.atan2(toward[1], toward[0]) + math.pi) % (2 * math.pi)
                        - math.pi
                    )
                    score += 2.0 * max(0.0, _NARROW_FAN - theta)
            scores.append(score)
        if scores[0] < scores[1] - 1e-9:
            sides[g] = 1.0
        elif scores[1] < scores[0] - 1e-9:
            sides[g] = -1.0
    return sides


def _polylines_cross(first: Sequence[object], second: Sequence[object]) -> bool:
    from ttr_maps.geometry.projection import segments_cross

    for p, q in itertools.pairwise(first):
        for r, s in itertools.pairwise(second):
            if segments_cross(tuple(p), tuple(q), tuple(r), tuple(s)):
                return True
    return False


@dataclass(frozen=True)
class _Near:
    """What is near what in one round (index arrays): city pairs; (city, group)
    where the city is near a group's line it does not end at; (group, group) where
    two groups' lines cross (drawn as their bows)."""

    pairs: object
    triples: object
    crossings: object


def _neighbours(problem: _Problem, x: object, free: object, sides: object) -> _Near:
    """Who is near whom now (only what involves a free city)."""
    import numpy as np
    from scipy.spatial import cKDTree

    x = np.asarray(x)
    reach = 3 * CITY_SPACING
    tree = cKDTree(x)
    pairs = np.array(sorted(tree.query_pairs(reach)), dtype=int).reshape(-1, 2)
    pairs = pairs[free[pairs[:, 0]] | free[pairs[:, 1]]]
    a, b = problem.route_a, problem.route_b
    mid = (x[a] + x[b]) / 2
    length = np.linalg.norm(x[a] - x[b], axis=1)
    radius = length * (0.5 + DETOUR_SHARE) + reach
    triples = []
    for group, (centre, r) in enumerate(zip(mid, radius, strict=True)):
        for city in tree.query_ball_point(centre, r):
            if city != a[group] and city != b[group] and free[[city, a[group], b[group]]].any():
                triples.append((city, group))
    bows = problem.bow_points(x, sides)
    groups_tree = cKDTree(mid)
    crossings = []
    for g, h in sorted(groups_tree.query_pairs(float(length.max()) * (0.5 + DETOUR_SHARE))):
        ends = {a[g], b[g], a[h], b[h]}
        if len(ends) < 3 or not free[list(ends)].any():
            continue
        first = (x[a[g]], bows[g], x[b[g]])
        second = (x[a[h]], bows[h], x[b[h]])
        if _polylines_cross(first, second):
            crossings.append((g, h))
    return _Near(pairs, np.array(triples, dtype=int).reshape(-1, 2),
                 np.array(crossings, dtype=int).reshape(-1, 2))  # fmt: skip


def _crossing(x: object, bows: object, a: object, b: object, g: object, h: object) -> object:
    """Whether the lines (as bows) of groups g and h cross (rows), vectorised."""
    import numpy as np

    def orient(p, q, r):
        return (q[:, 0] - p[:, 0]) * (r[:, 1] - p[:, 1]) - (q[:, 1] - p[:, 1]) * (r[:, 0] - p[:, 0])

    found = np.zeros(len(g), dtype=bool)
    for p1, p2 in ((x[a[g]], bows[g]), (bows[g], x[b[g]])):
        for q1, q2 in ((x[a[h]], bows[h]), (bows[h], x[b[h]])):
            d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
            d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
            found |= (d1 * d2 < 0) & (d3 * d4 < 0)
    return found


def _uncrossing(problem: _Problem, x: object, bows: object, g: object, h: object) -> object:
    """For crossing groups g and h (rows), how far the nearest of their cities that
    is not shared lies from the other's line: the least move that uncrosses them."""
    import numpy as np

    a, b = problem.route_a, problem.route_b
    best = np.full(len(g), np.inf)
    for mine, other in ((g, h), (h, g)):
        for ends in (a, b):
            city = ends[mine]
            shared = (city == a[other]) | (city == b[other])
            dist = _polyline_distance(x[city], x[a[other]], bows[other], x[b[other]])
            best = np.minimum(best, np.where(shared, np.inf, dist))
    return best


@dataclass(frozen=True)
class _Emphasis:
    """What a targeted re-optimisation (`_escape`) weighs `weight` times more: the
    residuals of what the drawn board still breaks. Index values: cities and groups
    of `_Problem`."""

    weight: float
    #: Groups that break a rule: their length rows (rope, straight, bow), crossings.
    groups: frozenset[int]
    #: (city, group, group), the groups in order: two groups leaving the city they
    #: share whose cars overlap (their fan must open by `_FAN_BOOST` more).
    fans: frozenset[tuple[int, int, int]]
    #: Overlapping groups that share no city (kept a band's width apart).
    apart: tuple[tuple[int, int], ...]
    #: (city, group): a group's cars pass too near the city.
    passed: frozenset[tuple[int, int]]
    #: Neighbours whose compass order flipped (each pair in order).
    flips: frozenset[tuple[int, int]]


def _residual_function(
    problem: _Problem,
    anchor: object,
    x0: object,
    free: object,
    sides: object,
    near: _Near,
    framed: bool,
    emphasis: _Emphasis | None = None,
):
    """The residuals over the free cities' coordinates (`framed`: free cities kept
    inside the board's frame too), and for each residual row the cities it depends
    on, with the axis of a row of one coordinate (for the Jacobian's sparsity).
    With `emphasis`, the rows of what it names weigh more."""
    import numpy as np

    a, b = problem.route_a, problem.route_b
    fans, compass = problem.fans, problem.compass
    fan_c = fans[:, 0].astype(int)
    fan_1, fan_2 = fans[:, 1].astype(int), fans[:, 2].astype(int)
    fan_least = fans[:, 3]
    keep = free[fan_c] | free[a[fan_1]] | free[b[fan_1]] | free[a[fan_2]] | free[b[fan_2]]
    fan_c, fan_1, fan_2, fan_least = fan_c[keep], fan_1[keep], fan_2[keep], fan_least[keep]
    ci, cj = compass[:, 0].astype(int), compass[:, 1].astype(int)
    keep = free[ci] | free[cj]
    ci, cj = ci[keep], cj[keep]
    c_axis, c_sign = compass[keep, 2].astype(int), compass[keep, 3]
    route_rows = free[a] | free[b]
    spacing_pairs, clear_triples, crossings = near.pairs, near.triples, near.crossings
    if emphasis is not None and emphasis.passed:
        # A city passed too near is measured against that route whatever the
        # neighbour search found.
        known = {(int(c), int(g)) for c, g in clear_triples}
        extra = sorted(emphasis.passed - known)
        clear_triples = np.concatenate((clear_triples, np.array(extra, dtype=int).reshape(-1, 2)))
    apart = np.array(emphasis.apart if emphasis else (), dtype=int).reshape(-1, 2)
    pi, pj = spacing_pairs[:, 0], spacing_pairs[:, 1]
    tc, tg = clear_triples[:, 0], clear_triples[:, 1]
    cg, ch = crossings[:, 0], crossings[:, 1]
    ag, ah = apart[:, 0], apart[:, 1]
    cross_need = problem.half[cg] + problem.half[ch] + CLEARANCE
    apart_need = problem.half[ag] + problem.half[ah] + CLEARANCE
    clear_need = _clear_need(problem, tg)
    free_index = np.flatnonzero(free)
    base = np.array(x0, dtype=float)
    shortest = problem.target / problem.max_ratio
    weights = None
    if emphasis is not None:
        weights, fan_least = _emphasised(
            problem, emphasis, free_index, route_rows, len(pi), (tc, tg),
            (fan_c, fan_1, fan_2, fan_least), (cg, ch), (ci, cj), len(apart), framed,
        )  # fmt: skip

    def residuals(flat):
        x = base.copy()
        x[free_index] = flat.reshape(-1, 2)
        out = [_WEIGHT_ANCHOR * (x[free_index] - anchor[free_index]).ravel()]
        d = np.linalg.norm(x[a] - x[b], axis=1)
        out.append((_WEIGHT_ROPE * np.maximum(0.0, d - problem.upper))[route_rows])
        out.append((_WEIGHT_STRAIGHT * np.maximum(0.0, problem.target - d))[route_rows])
        out.append((_WEIGHT_BOW * np.maximum(0.0, shortest - d))[route_rows])
        gap = np.linalg.norm(x[pi] - x[pj], axis=1)
        out.append(_WEIGHT_SPACING * np.maximum(0.0, CITY_SPACING - gap))
        bows = problem.bow_points(x, sides)
        dist = _polyline_distance(x[tc], x[a[tg]], bows[tg], x[b[tg]])
        out.append(_WEIGHT_CLEAR * np.maximum(0.0, clear_need - dist))
        u = bows[fan_1] - x[fan_c]
        v = bows[fan_2] - x[fan_c]
        cross = np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
        angle = np.arctan2(cross, np.sum(u * v, axis=1))
        out.append(_WEIGHT_ANGLE * CAR_LENGTH * np.maximum(0.0, fan_least - angle))
        crossing = _crossing(x, bows, a, b, cg, ch)
        uncross = _uncrossing(problem, x, bows, cg, ch)
        out.append(_WEIGHT_CROSS * np.where(crossing, cross_need + uncross, 0.0))
        ahead = c_sign * (x[cj, c_axis] - x[ci, c_axis])
        room = _COMPASS_ROOM * COMPASS_TOLERANCE * np.linalg.norm(x[cj] - x[ci], axis=1)
        out.append(_WEIGHT_COMPASS * np.maximum(0.0, _COMPASS_MARGIN - room - ahead))
        if len(apart):
            between = _band_distance(x, bows, a, b, ag, ah)
            out.append(_WEIGHT_CROSS * np.maximum(0.0, apart_need - between))
        if framed:
            out.append(_WEIGHT_FRAME * np.maximum(0.0, _FRAME_INSET - x[free_index]).ravel())
        found = np.concatenate(out)
        return found if weights is None else found * weights

    rows: list[tuple[tuple[int, ...], int | None]] = []
    for i in free_index:
        rows += [((int(i),), 0), ((int(i),), 1)]  # anchor rows: one coordinate each
    route_deps = [
        ((int(i), int(j)), None) for i, j, kept in zip(a, b, route_rows, strict=True) if kept
    ]
    rows += route_deps * 3
    rows += [((int(i), int(j)), None) for i, j in spacing_pairs]
    rows += [((int(c), int(a[g]), int(b[g])), None) for c, g in clear_triples]
    rows += [
        ((int(c), int(a[g1]), int(b[g1]), int(a[g2]), int(b[g2])), None)
        for c, g1, g2 in zip(fan_c, fan_1, fan_2, strict=True)
    ]
    rows += [
        ((int(a[g]), int(b[g]), int(a[h]), int(b[h])), None) for g, h in zip(cg, ch, strict=True)
    ]
    rows += [((int(i), int(j)), None) for i, j in zip(ci, cj, strict=True)]
    rows += [
        ((int(a[g]), int(b[g]), int(a[h]), int(b[h])), None) for g, h in zip(ag, ah, strict=True)
    ]
    if framed:
        for i in free_index:
            rows += [((int(i),), 0), ((int(i),), 1)]
    return residuals, rows


def _emphasised(
    problem: _Problem,
    emphasis: _Emphasis,
    free_index: object,
    route_rows: object,
    spacing: int,
    triples: tuple[object, object],
    fans: tuple[object, object, object, object],
    crossings: tuple[object, object],
    compass: tuple[object, object],
    apart: int,
    framed: bool,
) -> tuple[object, object]:
    """The weight of every residual row (in `_residual_function`'s order) under
    `emphasis`, and the fans' least angles (opened further where cars overlap)."""
    import numpy as np

    k = emphasis.weight

    def weigh(flags) -> object:
        return np.where(np.asarray(flags, dtype=bool), k, 1.0)

    groups = np.zeros(len(problem.groups), dtype=bool)
    groups[list(emphasis.groups)] = True
    fan_c, fan_1, fan_2, least = fans
    opened = np.array(
        [
            (int(c), *sorted((int(g), int(h)))) in emphasis.fans
            for c, g, h in zip(fan_c, fan_1, fan_2, strict=True)
        ],
        dtype=bool,
    )
    tc, tg = triples
    cg, ch = crossings
    ci, cj = compass
    parts = [
        np.ones(2 * len(free_index)),
        *[weigh(groups[route_rows])] * 3,
        np.ones(spacing),
        weigh([(int(c), int(g)) in emphasis.passed for c, g in zip(tc, tg, strict=True)]),
        weigh(opened),
        weigh(groups[cg] | groups[ch]),
        weigh(
            [
                (int(i), int(j)) in emphasis.flips or (int(j), int(i)) in emphasis.flips
                for i, j in zip(ci, cj, strict=True)
            ]
        ),
        np.full(apart, k),
        np.ones(2 * len(free_index) if framed else 0),
    ]
    return np.concatenate(parts), np.where(opened, least * _FAN_BOOST, least)


def _band_distance(x: object, bows: object, a: object, b: object, g: object, h: object) -> object:
    """The least distance between the lines (as bows) of groups g and h (rows), from
    each one's points to the other's line (0 where they cross), vectorised."""
    import numpy as np

    first = (x[a[g]], bows[g], x[b[g]])
    second = (x[a[h]], bows[h], x[b[h]])
    nearest = np.minimum.reduce(
        [_polyline_distance(p, *second) for p in first]
        + [_polyline_distance(p, *first) for p in second]
    )
    return np.where(_crossing(x, bows, a, b, g, h), 0.0, nearest)


def _sparsity(rows: Sequence[tuple[tuple[int, ...], int | None]], free: object):
    """Which free coordinates each residual row depends on: every coordinate of its
    free cities, or the one coordinate of a row with an axis (anchor and frame rows)."""
    import numpy as np
    from scipy.sparse import lil_matrix

    column = np.cumsum(free) - 1
    matrix = lil_matrix((len(rows), 2 * int(np.sum(free))), dtype=int)
    for row, (cities, axis) in enumerate(rows):
        for city in cities:
            if not free[city]:
                continue
            for k in (0, 1) if axis is None else (axis,):
                matrix[row, 2 * column[city] + k] = 1
    return matrix


# ---------------------------------------------------------------- drawing bows, repairs


def _tracks(
    game_map: Map,
    lines: Mapping[tuple[str, str], Sequence[Point]],
    pair: tuple[str, str],
    positions: Mapping[str, Point],
    bend: Sequence[Point],
) -> list[RouteShape]:
    """The tracks of one group drawn with `bend`, the other groups' lines as given."""
    a, b = pair
    routes = game_map.parallel_routes[frozenset(pair)]
    line = route_line(positions[a], bend, positions[b])
    clearance = end_clearances(game_map, {**lines, pair: line}, cities=pair)
    return laid_out_tracks(routes, line, clearance[(a, pair)], clearance[(b, pair)])


def _bow(
    tracks: int,
    pair: tuple[str, str],
    positions: Mapping[str, Point],
    side: float,
    profile: Profile,
    length: float,
) -> tuple[Point, ...]:
    """The bend points of a bow of `profile` (`_PROFILES`) on `side` whose tracks
    (`tracks` side by side) are `length` long on average (its height found by
    bisection), or () when the chord is enough."""
    pa, pb = positions[pair[0]], positions[pair[1]]
    chord = math.dist(pa, pb)
    if chord >= length or chord == 0:
        return ()
    shifts = [(slot - (tracks - 1) / 2) * CAR_WIDTH * TRACK_SPACING for slot in range(tracks)]

    def bends(height: float) -> tuple[Point, ...]:
        return tuple(_beside(pa, pb, along, side * share * height) for along, share in profile)

    def mean(height: float) -> float:
        line = route_line(pa, bends(height), pb)
        return sum(polyline_length(offset_polyline(line, shift)) for shift in shifts) / tracks

    # Regula falsi (the Illinois variant) on the height, kept bracketed: the
    # length grows smoothly with the height, so a few steps reach the stored
    # precision; the bow returned is never shorter than `length`.
    low, high = 0.0, 0.6 * chord
    f_low, f_high = mean(low) - length, mean(high) - length
    if f_high <= 0:
        return tuple(_rounded(point) for point in bends(high))
    side_kept = 0
    for _ in range(30):
        if f_high < 0.002 or high - low < 1e-4 * chord:
            break
        middle = (low * f_high - high * f_low) / (f_high - f_low)
        f_middle = mean(middle) - length
        if f_middle < 0:
            low, f_low = middle, f_middle
            if side_kept == 1:  # the high end stayed twice: halve its weight
                f_high /= 2
            side_kept = 1
        else:
            high, f_high = middle, f_middle
            if side_kept == -1:
                f_low /= 2
            side_kept = -1
    return tuple(_rounded(point) for point in bends(high))


def _rounded(p: Point) -> Point:
    return (round(p[0], 2), round(p[1], 2))


def _draw_bows(
    game_map: Map, problem: _Problem, positions: Mapping[str, Point], sides: object
) -> dict[tuple[str, str], tuple[Point, ...]]:
    """A bend point for every group whose chord is shorter than its cars need."""
    bends = {}
    for g, pair in enumerate(problem.groups):
        tracks = len(game_map.parallel_routes[frozenset(pair)])
        bend = _bow(tracks, pair, positions, float(sides[g]), _CENTRED, float(problem.target[g]))
        if bend:
            bends[pair] = bend
    return bends


@dataclass
class _Work:
    """What the board repair may still spend, in drawings of one group's tracks
    (`_DRAW_COST`, `_MEASURE_COST`): counted, never timed, so the same map makes
    the same board on any machine."""

    left: float

    def spend(self, units: float) -> None:
        self.left -= units


def _repair_routes(
    game_map: Map,
    problem: _Problem,
    positions: Mapping[str, Point],
    bends: dict[tuple[str, str], tuple[Point, ...]],
) -> dict[tuple[str, str], tuple[Point, ...]]:
    """Other bows for groups that still break a rule: the other side, off-centre, or
    (a straight group) a gentle bow within its rope; the one that breaks least wins.

    Each trial redraws only the group's own tracks and tests them against an index
    of everything else, so a big map stays quick."""
    groups = set(problem.groups)
    for _ in range(_REPAIR_ROUNDS):
        board = board_geometry(game_map, BoardLayout(cities=positions, bends=bends))
        troubled = readability(game_map, board).troubled_pairs(game_map)
        troubled_groups = sorted(tuple(sorted(p)) for p in troubled if tuple(sorted(p)) in groups)
        if not troubled_groups:
            break
        rebent = _rebent(game_map, problem, positions, bends, troubled_groups, _QUICK_PROFILES)
        if rebent == bends:
            break
        bends = rebent
    return dict(bends)


def _rebent(
    game_map: Map,
    problem: _Problem,
    positions: Mapping[str, Point],
    bends: Mapping[tuple[str, str], tuple[Point, ...]],
    pairs: Sequence[tuple[str, str]],
    profiles: Sequence[Profile] = _PROFILES,
    costs: dict[tuple[str, str], float] | None = None,
    work: _Work | None = None,
) -> dict[tuple[str, str], tuple[Point, ...]]:
    """`bends` with each group of `pairs` in turn given the bow (`_bow_choices` in
    `profiles`) whose tracks break least (`_trouble`) against the rest of the board
    (how much, in `costs` if given; the work spent, in `work`)."""
    bends = dict(bends)
    group_of = {pair: g for g, pair in enumerate(problem.groups)}
    board = board_geometry(game_map, BoardLayout(cities=positions, bends=bends))
    if work is not None:
        work.spend(len(problem.groups))
    index = _ShapeIndex(board)  # a group's own cars never count against it
    lines = {tuple(sorted(s.cities)): s.line for s in board.routes.values()}
    for pair in pairs:
        # The lines at its two cities (all that decide where its cars start).
        local = {key: line for key, line in lines.items() if key[0] in pair or key[1] in pair}
        current = bends.get(pair, ())
        best = (_trouble(game_map, local, pair, positions, current, index), current)
        choices = _bow_choices(game_map, problem, positions, pair, group_of, profiles, work)
        if work is not None:
            work.spend(_MEASURE_COST * len(choices))
        for bend in choices:
            if bend == current:
                continue
            cost = _trouble(game_map, local, pair, positions, bend, index)
            if cost < best[0] - 1e-9:
                best = (cost, bend)
        if costs is not None:
            costs[pair] = best[0]
        if best[1] != current:
            if best[1]:
                bends[pair] = best[1]
            else:
                bends.pop(pair, None)
            # Its new cars in the index (its neighbours' cars, which may start a
            # little elsewhere now, are measured again by the caller).
            shapes = _tracks(game_map, local, pair, positions, best[1])
            index.replace(shapes)
            lines[pair] = shapes[0].line
    return bends


def _labelled(
    game_map: Map,
    positions: Mapping[str, Point],
    bends: Mapping[tuple[str, str], tuple[Point, ...]],
    kept: Mapping[str, Point],
) -> BoardGeometry:
    """The board with its labels placed as the finished layout will place them."""
    board = board_geometry(game_map, BoardLayout(cities=positions, bends=bends))
    labels = {**_label_offsets(game_map, board), **kept}
    return board_geometry(game_map, BoardLayout(cities=positions, labels=labels, bends=bends))


def _redrawn(
    game_map: Map,
    problem: _Problem,
    before: Mapping[str, Point],
    positions: Mapping[str, Point],
    bends: Mapping[tuple[str, str], tuple[Point, ...]],
    groups: Sequence[int],
    work: _Work | None = None,
) -> dict[tuple[str, str], tuple[Point, ...]]:
    """`bends` with the bows of `groups` drawn again for their cities' new places
    (`before`: where they were), each in the profile and on the side it had (a
    straight group bows to the left if it must)."""
    bends = dict(bends)
    if work is not None:
        work.spend(_DRAW_COST * len(groups))
    for g in groups:
        pair = problem.groups[g]
        old = bends.pop(pair, ())
        side, profile = _profile_of(before[pair[0]], before[pair[1]], old)
        tracks = len(game_map.parallel_routes[frozenset(pair)])
        bend = _bow(tracks, pair, positions, side, profile, float(problem.target[g]))
        if bend:
            bends[pair] = bend
    return bends


def _profile_of(pa: Point, pb: Point, bend: Sequence[Point]) -> tuple[float, Profile]:
    """The side and profile (`_PROFILES`) of a bow from `pa` to `pb` through `bend`
    (a straight line: the centred bow to the left).

    >>> _profile_of((0.0, 0.0), (4.0, 0.0), [(1.0, -1.0), (3.0, 0.5)])
    (-1.0, ((0.25, 1.0), (0.75, -0.5)))
    """
    chord = math.dist(pa, pb)
    if not bend or chord == 0:
        return 1.0, _CENTRED
    ux, uy = (pb[0] - pa[0]) / chord, (pb[1] - pa[1]) / chord
    placed = [
        ((x - pa[0]) * ux + (y - pa[1]) * uy, (y - pa[1]) * ux - (x - pa[0]) * uy) for x, y in bend
    ]
    height = max(placed, key=lambda point: abs(point[1]))[1]
    if abs(height) < 1e-9:
        return 1.0, _CENTRED
    side = math.copysign(1.0, height)
    return side, tuple((round(t / chord, 3), round(o / height, 3)) for t, o in placed)


def _repair_board(
    game_map: Map,
    problem: _Problem,
    positions: Mapping[str, Point],
    bends: Mapping[tuple[str, str], tuple[Point, ...]],
    pinned: Collection[str],
    kept: Mapping[str, Point],
) -> tuple[dict[str, Point], dict[tuple[str, str], tuple[Point, ...]]]:
    """Change what still breaks a rule, one thing at a time, and keep a change when
    the finished board (bows redrawn, labels placed) breaks fewer rules, or as many
    but less badly (`_severity`: fewer cars on top of each other, narrower gaps,
    shorter detours), so that two routes crowding one city can be parted in steps:
    the least squares see the rules as smooth wishes, this step counts them.

    A change is another bow for a troubled group (`_bow_choices`: either side,
    off-centre so that it leaves a crowded city at a wider angle, a gentle bow for
    a straight group, or straight), or a nudge of a free city of the trouble (8
    directions at `_NUDGES` distances, nearest first, its bows redrawn). Trials are
    within a budget that shrinks on big maps (each measures a whole board; labels
    are placed only for a trial whose other rules do not get worse), and so is
    the work the changes do to make their trials (`_Work`: bows drawn and measured,
    `_WORK_PER_TRIAL` boards' worth per trial of the budget)."""
    positions, bends = dict(positions), dict(bends)
    at_city: dict[str, list[int]] = {}
    for g, (first, second) in enumerate(problem.groups):
        at_city.setdefault(first, []).append(g)
        at_city.setdefault(second, []).append(g)
    group_of = {pair: g for g, pair in enumerate(problem.groups)}
    by_pair = {
        tuple(sorted(pair)): {r.id for r in routes}
        for pair, routes in game_map.parallel_routes.items()
    }
    count = len(game_map.cities)
    # Each trial measures the whole board: past `_BUDGET_CITIES` the trials
    # shrink faster than its size grows, so that big maps finish in seconds.
    budget = _NUDGE_BUDGET // count * min(1.0, _BUDGET_CITIES / count) ** 1.5
    budget = max(_NUDGE_BUDGET_MIN, min(_NUDGE_BUDGET_MAX, int(budget)))
    # The changes' work: `_WORK_PER_TRIAL` drawings of the whole board a trial.
    work = _Work(budget * _WORK_PER_TRIAL * len(problem.groups))
    board = _labelled(game_map, positions, bends, kept)
    found = readability(game_map, board)
    score = (found.count, _severity(board, found))
    #: What placing labels again cannot mend (a trial must not make it worse).
    settled = (found.unlabelled_count, _severity(board, found, labels=False))
    tried: set[tuple[str, ...]] = set()
    chords = sorted(math.dist(positions[a], positions[b]) for a, b in problem.groups)
    reach = _FORGET_REACH * chords[len(chords) // 2]

    def changes() -> Iterator[tuple[tuple[str, ...], dict[str, Point], dict]]:
        troubled = sorted(tuple(sorted(p)) for p in found.troubled_pairs(game_map))
        for pair in troubled:
            if pair not in group_of:
                continue
            for bend in _promising_bows(
                game_map, problem, positions, board, pair, bends.get(pair, ()), work
            ):
                if bend != bends.get(pair, ()):
                    changed = {**bends, pair: bend} if bend else dict(bends)
                    if not bend:
                        changed.pop(pair, None)
                    yield ("bow", *pair, repr(bend)), positions, changed
            g = group_of[pair]
            pa, pb = positions[pair[0]], positions[pair[1]]
            excess = math.dist(pa, pb) - float(problem.target[g])
            if excess > 0 and any(gap.route in by_pair[pair] for gap in found.gaps):
                # Cars spread too thin: one city, or both, pulled in along the chord.
                for share, city in itertools.product((1.0, 0.5), pair):
                    if city in pinned:
                        continue
                    (x, y), (ox, oy) = (
                        positions[city],
                        positions[pair[0] if city == pair[1] else pair[1]],
                    )
                    w = share * excess / math.dist((x, y), (ox, oy))
                    moved = {**positions, city: _rounded((x + w * (ox - x), y + w * (oy - y)))}
                    groups = at_city.get(city, ())
                    redrawn = _redrawn(game_map, problem, positions, moved, bends, groups, work)
                    yield ("pull", city, *pair, str(share)), moved, redrawn
            if any(set(detour.cities) == set(pair) for detour in found.detours):
                # A bow straying too far: one city pushed out along the chord
                # (keeping the pair's compass bearing), its troubled routes bent
                # afresh for the longer chord.
                for city in pair:
                    if city in pinned:
                        continue
                    yield from _pushed(city, pair, _PUSHES)
            overrun = max((-gap.gap for gap in found.gaps if gap.route in by_pair[pair]), default=0)
            if overrun > 0:
                # Cars running into a city's dot: a city pushed out by as much.
                for city in pair:
                    if city not in pinned:
                        yield from _pushed(city, pair, (math.ceil(100 * overrun) / 100 + 0.02,))
        # Two troubled routes leaving one city, bent together (each alone may
        # have no bow that clears the other where it is now).
        for first, second in itertools.combinations(troubled, 2):
            if not (set(first) & set(second)) or not {first, second} <= group_of.keys():
                continue
            for both in _joint_bows(game_map, problem, positions, board, (first, second), work):
                key = ("both bows", *first, *second, repr(both))
                if key in tried:
                    continue
                changed = dict(bends)
                for pair, bend in zip((first, second), both, strict=True):
                    changed.pop(pair, None)
                    if bend:
                        changed[pair] = bend
                yield key, positions, changed
        cities = sorted(found.troubled_cities(game_map) - set(pinned))
        nudges = list(itertools.product(range(len(_NUDGES)), range(8)))
        for city, (step, k) in itertools.product(cities, nudges):
            moved = _nudged(positions, city, step, k)
            groups = at_city.get(city, ())
            redrawn = _redrawn(game_map, problem, positions, moved, bends, groups, work)
            yield ("city", city, str(step), str(k)), moved, redrawn
        # Then, the dearer compound: a city nudged and its troubled routes bent
        # afresh for where it moved to (how the bundled boards were finished by hand).
        for city in cities:
            mine = [pair for pair in troubled if city in pair and pair in group_of]
            for step, k in nudges if mine else ():
                key = ("city and bows", city, str(step), str(k))
                if key in tried:
                    continue
                moved = _nudged(positions, city, step, k)
                groups = at_city.get(city, ())
                redrawn = _redrawn(game_map, problem, positions, moved, bends, groups, work)
                yield key, moved, _rebent(game_map, problem, moved, redrawn, mine, work=work)

    def _pushed(
        city: str, pair: tuple[str, str], pushes: Sequence[float]
    ) -> Iterator[tuple[tuple[str, ...], dict, dict]]:
        """`city` pushed out along the chord of `pair` by each of `pushes` cm (so the
        pair keeps its compass bearing), its troubled routes bent afresh: the
        push whose bow then breaks least first (ties: the shortest)."""
        other = pair[0] if city == pair[1] else pair[1]
        (x, y), (ox, oy) = positions[city], positions[other]
        here = [p for p in found_pairs() if city in p and p in group_of]
        trials = []
        for push in pushes:
            key = ("push and bows", city, *pair, str(push))
            if key in tried:
                continue
            w = push / math.dist((x, y), (ox, oy))
            moved = {**positions, city: _rounded((x + w * (x - ox), y + w * (y - oy)))}
            groups = at_city.get(city, ())
            redrawn = _redrawn(game_map, problem, positions, moved, bends, groups, work)
            costs: dict[tuple[str, str], float] = {}
            rebent = _rebent(game_map, problem, moved, redrawn, here, costs=costs, work=work)
            trials.append((costs.get(pair, 0.0), push, key, moved, rebent))
        for _, _, key, moved, rebent in sorted(trials, key=lambda t: t[:2]):
            yield key, moved, rebent

    def found_pairs() -> list[tuple[str, str]]:
        return sorted(tuple(sorted(p)) for p in found.troubled_pairs(game_map))

    while found.count and budget > 0 and work.left > 0:
        for key, moved, redrawn in changes():
            if budget <= 0 or work.left <= 0:
                break
            if key in tried:
                continue
            tried.add(key)
            budget -= 1
            bare = board_geometry(game_map, BoardLayout(cities=moved, bends=redrawn))
            plain = readability(game_map, bare)
            bare_key = (plain.unlabelled_count, _severity(bare, plain, labels=False))
            if bare_key > settled or (bare_key == settled and not found.label_count):
                continue  # labels placed again cannot make up for it
            trial_board = _labelled(game_map, moved, redrawn, kept)
            trial = readability(game_map, trial_board)
            trial_score = (trial.count, _severity(trial_board, trial))
            if trial_score < score:
                touched = {name for name in moved if moved[name] != positions[name]}
                for pair in bends.keys() ^ redrawn.keys() | {
                    pair for pair in bends.keys() & redrawn.keys() if bends[pair] != redrawn[pair]
                }:
                    touched.update(pair)
                positions, bends, board, found, score = (
                    moved,
                    redrawn,
                    trial_board,
                    trial,
                    trial_score,
                )
                settled = (found.unlabelled_count, _severity(board, found, labels=False))
                # What failed before may work on the changed board, near the change.
                tried = _forget_near(tried, touched, positions, reach)
                break
        else:
            break
    return positions, bends


def _escape(
    game_map: Map,
    problem: _Problem,
    positions: Mapping[str, Point],
    bends: Mapping[tuple[str, str], tuple[Point, ...]],
    pinned: Collection[str],
    kept: Mapping[str, Point],
) -> tuple[dict[str, Point], dict[tuple[str, str], tuple[Point, ...]]]:
    """Out of the local minimum `_repair_board` may end in: the cities around what
    still breaks a rule are moved again by least squares, the rest held, with the
    residuals of what breaks weighed up (`_Emphasis`: a fan whose cars overlap
    opened wider, two overlapping bands held apart, a detour's or a chain's length
    wish, a city passed too near, a flipped pair), so the neighbourhood finds
    another arrangement rather than another small change of this one; its bows are
    drawn afresh and repaired, and the result is kept only when the whole board
    then breaks fewer rules, or as many less badly. Each weight of
    `_ESCAPE_WEIGHTS` is tried in turn while something is left."""
    import numpy as np
    from scipy.spatial import cKDTree

    positions, bends = dict(positions), dict(bends)
    names = [c.name for c in game_map.cities]
    index = {name: i for i, name in enumerate(names)}
    held = np.array([name in pinned for name in names])
    board = _labelled(game_map, positions, bends, kept)
    found = readability(game_map, board)
    score = (found.count, _severity(board, found))
    chords = [math.dist(positions[p], positions[q]) for p, q in problem.groups]
    reach = sorted(chords)[len(chords) // 2] * _ESCAPE_REACH
    emphasis = None
    for weight in _ESCAPE_WEIGHTS:
        if not found.unlabelled_count:
            break
        troubled = [index[name] for name in sorted(found.troubled_cities(game_map))]
        x = np.array([positions[name] for name in names], dtype=float)
        near = sorted({c for i in troubled for c in cKDTree(x).query_ball_point(x[i], reach)})
        free = np.zeros(len(names), dtype=bool)
        free[near] = True
        free &= ~held
        if not free.any():
            break
        trial_problem = dataclasses.replace(problem)  # refreshed for the trial only
        emphasis = _emphasis_of(game_map, trial_problem, index, found, weight, emphasis)
        sides = np.array(
            [_profile_of(positions[p], positions[q], bends.get((p, q), ()))[0]
             for p, q in problem.groups]
        )  # fmt: skip
        here = x.copy()
        # Anchored where they are: the neighbourhood rearranges, it does not drift
        # back to geography (the held cities keep the rest of the board there).
        x, sides = _optimise(
            game_map, trial_problem, here, x, ~free, _ESCAPE_ROUNDS, sides, bool(pinned), emphasis
        )
        trial_problem.refresh(game_map, x, sides)
        shifted = {names[i] for i in np.flatnonzero(np.linalg.norm(x - here, axis=1) > 0.01)}
        moved = {
            name: _rounded((float(p[0]), float(p[1]))) if name in shifted else positions[name]
            for name, p in zip(names, x, strict=True)
        }
        redrawn = dict(bends)
        for g, (p, q) in enumerate(trial_problem.groups):
            if p in shifted or q in shifted:
                old = redrawn.pop((p, q), ())
                profile = _profile_of(positions[p], positions[q], old)[1] if old else _CENTRED
                tracks = len(game_map.parallel_routes[frozenset((p, q))])
                target = float(trial_problem.target[g])
                bend = _bow(tracks, (p, q), moved, float(sides[g]), profile, target)
                if bend:
                    redrawn[(p, q)] = bend
        redrawn = _repair_routes(game_map, trial_problem, moved, redrawn)
        moved, redrawn = _repair_board(game_map, trial_problem, moved, redrawn, pinned, kept)
        trial_board = _labelled(game_map, moved, redrawn, kept)
        trial = readability(game_map, trial_board)
        trial_score = (trial.count, _severity(trial_board, trial))
        if trial_score < score:
            positions, bends, problem = moved, redrawn, trial_problem
            found, score = trial, trial_score
    return positions, bends


def _emphasis_of(
    game_map: Map,
    problem: _Problem,
    index: Mapping[str, int],
    found: Readability,
    weight: float,
    before: _Emphasis | None = None,
) -> _Emphasis:
    """What `found` says the board breaks, as the residuals to weigh up, with what
    an emphasis `before` named (what broke once must not break again)."""
    group_of = {pair: g for g, pair in enumerate(problem.groups)}
    by_id = game_map.route_by_id

    def group(route_id: str) -> int | None:
        return group_of.get(tuple(sorted(by_id[route_id].cities)))

    groups = {group_of[p] for p in map(lambda s: tuple(sorted(s)), found.troubled_pairs(game_map))
              if p in group_of}  # fmt: skip
    fans, apart = set(), []
    for overlap in found.overlaps:
        if overlap.kind != "car-car":
            continue
        g, h = group(overlap.first), group(overlap.second)
        if g is None or h is None or g == h:
            continue
        shared = set(problem.groups[g]) & set(problem.groups[h])
        if shared:
            fans.add((index[shared.pop()], *sorted((g, h))))
        else:
            apart.append(tuple(sorted((g, h))))
    passed = {
        (index[miss.city], g) for miss in found.clearances if (g := group(miss.route)) is not None
    }
    flips = {(index[flip.first], index[flip.second]) for flip in found.flips}
    if before is not None:
        groups |= before.groups
        fans |= before.fans
        apart += before.apart
        passed |= before.passed
        flips |= before.flips
    return _Emphasis(
        weight=weight,
        groups=frozenset(groups),
        fans=frozenset(fans),  # type: ignore[arg-type]
        apart=tuple(sorted(set(apart))),  # type: ignore[arg-type]
        passed=frozenset(passed),
        flips=frozenset(flips),
    )


def _promising_bows(
    game_map: Map,
    problem: _Problem,
    positions: Mapping[str, Point],
    board: BoardGeometry,
    pair: tuple[str, str],
    current: Sequence[Point],
    work: _Work,
) -> list[tuple[Point, ...]]:
    """The bows of a group (`_bow_choices`) worth measuring on the whole board: those
    whose own tracks break no more rules (`_trouble`, against the rest of `board`)
    than its tracks drawn with `current`, least trouble first (ties: in `_bow_choices`'
    order; the work spent, from `work`)."""
    group_of = {p: g for g, p in enumerate(problem.groups)}
    index = _ShapeIndex(board)
    lines = {
        key: shape.line
        for shape in board.routes.values()
        if set(key := tuple(sorted(shape.cities))) & set(pair)  # type: ignore[assignment]
    }
    now = _trouble(game_map, lines, pair, positions, current, index)
    choices = _bow_choices(game_map, problem, positions, pair, group_of, work=work)
    work.spend(_MEASURE_COST * (len(choices) + 1))
    costs = [_trouble(game_map, lines, pair, positions, bend, index) for bend in choices]
    order = sorted(range(len(choices)), key=lambda k: (costs[k], k))
    return [choices[k] for k in order if costs[k] // 10 <= now // 10]


def _joint_bows(
    game_map: Map,
    problem: _Problem,
    positions: Mapping[str, Point],
    board: BoardGeometry,
    pairs: tuple[tuple[str, str], tuple[str, str]],
    work: _Work,
) -> list[tuple[tuple[Point, ...], tuple[Point, ...]]]:
    """The most promising bows of two groups meeting at a city, drawn together:
    each group's `_JOINT_CHOICES` best bows (`_bow_choices`, `_trouble` against
    the board without either group), then every pairing of those measured
    together (where each one's cars start depends on the other's line, and their
    cars must not overlap), best first, at most `_JOINT_TRIES` (the work spent,
    from `work`)."""
    from ttr_maps.geometry.board import polygons_overlap

    group_of = {pair: g for g, pair in enumerate(problem.groups)}
    index = _ShapeIndex(board)
    index.hide(
        {shape.id for shape in board.routes.values() if tuple(sorted(shape.cities)) in pairs}
    )
    ends = set(pairs[0]) | set(pairs[1])
    lines = {
        key: shape.line
        for shape in board.routes.values()
        if set(key := tuple(sorted(shape.cities))) & ends  # type: ignore[assignment]
    }
    best: list[list[tuple[Point, ...]]] = []
    for pair in pairs:
        choices = _bow_choices(game_map, problem, positions, pair, group_of, work=work)
        work.spend(_MEASURE_COST * len(choices))
        costs = [_trouble(game_map, lines, pair, positions, bend, index) for bend in choices]
        order = sorted(range(len(choices)), key=lambda k: (costs[k], k))
        best.append([choices[k] for k in order[:_JOINT_CHOICES]])
    ranked = []
    work.spend(2 * _MEASURE_COST * len(best[0]) * len(best[1]))
    for k, both in enumerate(itertools.product(*best)):
        drawn = dict(lines)
        for pair, bend in zip(pairs, both, strict=True):
            drawn[pair] = route_line(positions[pair[0]], bend, positions[pair[1]])
        shapes = [
            _tracks(game_map, drawn, pair, positions, bend)
            for pair, bend in zip(pairs, both, strict=True)
        ]
        cost = sum(
            _trouble(game_map, drawn, pair, positions, bend, index)
            for pair, bend in zip(pairs, both, strict=True)
        )
        if any(
            polygons_overlap(c.corners, d.corners)
            for s in shapes[0]
            for t in shapes[1]
            for c in s.cars
            for d in t.cars
        ):
            cost += 10.0
        ranked.append((cost, k, both))
    ranked.sort(key=lambda item: item[:2])
    return [both for _, _, both in ranked[:_JOINT_TRIES]]


def _forget_near(
    tried: set[tuple[str, ...]],
    touched: Collection[str],
    positions: Mapping[str, Point],
    reach: float,
) -> set[tuple[str, ...]]:
    """The changes of `tried` (keys naming cities after their kind) that stay
    tried after the board changed at the `touched` cities: those naming no city
    within `reach` of one touched. A change far from what changed would measure
    as before: trying it again would only spend the budget."""
    near = [positions[name] for name in touched]

    def is_far(key: tuple[str, ...]) -> bool:
        cities = [positions[name] for name in key[1:] if name in positions]
        return all(math.dist(p, q) > reach for p in cities for q in near)

    return {key for key in tried if is_far(key)}


def _nudged(positions: Mapping[str, Point], city: str, step: int, k: int) -> dict[str, Point]:
    """`positions` with `city` moved `_NUDGES[step]` cm in the direction k · 45°."""
    (x, y), angle, distance = positions[city], k * math.pi / 4, _NUDGES[step]
    return {
        **positions,
        city: _rounded((x + distance * math.cos(angle), y + distance * math.sin(angle))),
    }


def _bow_choices(
    game_map: Map,
    problem: _Problem,
    positions: Mapping[str, Point],
    pair: tuple[str, str],
    group_of: Mapping[tuple[str, str], int],
    profiles: Sequence[Profile] = _PROFILES,
    work: _Work | None = None,
) -> list[tuple[Point, ...]]:
    """The bows a group may be drawn with (each one's curve found, spent from
    `work`): straight, and bows of the length its cars
    aim at (a group shorter than that) or gently longer than its chord within its
    rope (a straight one), on either side, in every profile of `profiles` (one
    bend point, centred or off-centre; a flat bow; S shapes)."""
    g = group_of[pair]
    tracks = len(game_map.parallel_routes[frozenset(pair)])
    chord = math.dist(positions[pair[0]], positions[pair[1]])
    need, target, upper = float(problem.need[g]), float(problem.target[g]), float(problem.upper[g])
    if chord < target:
        # The length its cars aim at, nearly the least they need (nearer the
        # chord), or the least with their cars nearer their cities.
        lengths = [target, need + _LEAST_SLACK * float(problem.slack[g])]
        if problem.least[g] < need:
            lengths.append(float(problem.least[g]))
    else:
        lengths = [chord + share * (upper - chord) for share in (0.15, 0.4, 0.7) if chord < upper]
    choices: list[tuple[Point, ...]] = [()]
    if work is not None:
        work.spend(_DRAW_COST * len(lengths) * 2 * len(profiles))
    for length, side, profile in itertools.product(lengths, (1.0, -1.0), profiles):
        bend = _bow(tracks, pair, positions, side, profile, length)
        if bend and bend not in choices:
            choices.append(bend)
    return choices


def _severity(board: BoardGeometry, found: Readability, labels: bool = True) -> float:
    """How badly a board breaks the rules it breaks, to choose between boards that
    break as many: cars of two routes on top of each other count each pair, a gap
    or a detour by how far it is past its bound, a city passed by how near; the
    rest (and, with `labels`, what involves a label) one each. Cars on top of
    each other count by the share of a car they share, so that parting them a
    little is progress."""
    severity = float(len(found.flips))
    for gap in found.gaps:
        severity += max(gap.gap - gap.limit, -gap.gap, 0.0) / CAR_LENGTH
    for detour in found.detours:
        severity += (detour.deviation - detour.limit) / CAR_LENGTH
    for miss in found.clearances:
        severity += (CLEARANCE - miss.distance) / CAR_WIDTH
    for overlap in found.overlaps:
        if overlap.kind == "car-car":
            first, second = board.routes[overlap.first].cars, board.routes[overlap.second].cars
            car_area = board.car_length * board.car_width
            severity += sum(
                _overlap_area(c.corners, d.corners) / car_area
                for c in first
                for d in second
                if polygons_overlap(c.corners, d.corners)
            )
        elif labels or "label" not in overlap.kind:
            severity += 1.0
    if labels:
        severity += len(found.labels)
    return severity


def _overlap_area(p: Sequence[Point], q: Sequence[Point]) -> float:
    """The area two convex polygons share (`p` clipped by each edge of `q`)."""

    def signed(polygon: Sequence[Point]) -> float:
        pairs = zip(polygon, (*polygon[1:], polygon[0]), strict=True)
        return sum(a[0] * b[1] - b[0] * a[1] for a, b in pairs) / 2

    clip = list(q) if signed(q) > 0 else list(reversed(q))
    inside = list(p)
    for a, b in zip(clip, (*clip[1:], clip[0]), strict=True):
        sides = [(b[0] - a[0]) * (r[1] - a[1]) - (b[1] - a[1]) * (r[0] - a[0]) for r in inside]
        clipped: list[Point] = []
        for k, r in enumerate(inside):
            t, sr, st = inside[(k + 1) % len(inside)], sides[k], sides[(k + 1) % len(inside)]
            if sr >= 0:
                clipped.append(r)
            if (sr >= 0) != (st >= 0):
                w = sr / (sr - st)
                clipped.append((r[0] + w * (t[0] - r[0]), r[1] + w * (t[1] - r[1])))
        inside = clipped
        if len(inside) < 3:
            return 0.0
    return abs(signed(inside))


def _trouble(
    game_map: Map,
    lines: Mapping[tuple[str, str], Sequence[Point]],
    pair: tuple[str, str],
    positions: Mapping[str, Point],
    bend: Sequence[Point],
    index: _ShapeIndex,
) -> float:
    """How badly a group drawn with `bend` breaks the rules: what its cars overlap,
    cities it passes too near, gaps in its chains, a detour past the bound."""
    shapes = _tracks(game_map, lines, pair, positions, bend)
    cost = 10.0 * index.hits(shapes) + 10.0 * index.near_cities(shapes, CLEARANCE)
    for shape in shapes:
        gaps = shape_gap_count(shape, positions, CITY_RADIUS)
        cost += 10.0 + gaps if gaps else 0.0
    pa, pb = positions[pair[0]], positions[pair[1]]
    chord = math.dist(pa, pb)
    if bend:
        line = route_line(pa, bend, pb)
        deviation = max(segment_distance(p, pa, pb) for p in line)
        if deviation > detour_limit(chord):
            cost += 10.0
        cost += 0.01 * deviation
    return cost


class _ShapeIndex:
    """Cars and city dots of a board in a uniform grid, to count what a group's cars
    would overlap (cars of other routes, any city dot) and which cities they pass
    too near."""

    def __init__(self, board: BoardGeometry):
        self.cell = 2 * board.car_length
        self.items: list[tuple[str, tuple[Point, ...]]] = []
        for shape in board.routes.values():
            for car in shape.cars:
                self.items.append((shape.id, car.corners))
        r = board.city_radius
        self.radius = r
        self.cities: dict[tuple[int, int], list[tuple[str, Point]]] = {}
        for name, (x, y) in board.positions.items():
            octagon = tuple(
                (x + r * math.cos(k * math.pi / 4), y + r * math.sin(k * math.pi / 4))
                for k in range(8)
            )
            self.items.append((f"city:{name}", octagon))
            key = (math.floor(x / self.cell), math.floor(y / self.cell))
            self.cities.setdefault(key, []).append((name, (x, y)))
        self.grid: dict[tuple[int, int], list[int]] = {}
        for i, (_, polygon) in enumerate(self.items):
            for key in self._cells(polygon):
                self.grid.setdefault(key, []).append(i)
        #: Items taken out (`replace`, `hide`).
        self.gone: set[int] = set()

    def hide(self, ids: Collection[str]) -> None:
        """Take the cars of the routes `ids` out."""
        self.gone |= {i for i, (name, _) in enumerate(self.items) if name in ids}

    def replace(self, shapes: Sequence[RouteShape]) -> None:
        """Put the cars of `shapes` in place of the cars those routes had."""
        ids = {shape.id for shape in shapes}
        self.gone |= {i for i, (name, _) in enumerate(self.items) if name in ids}
        for shape in shapes:
            for car in shape.cars:
                self.items.append((shape.id, car.corners))
                for key in self._cells(car.corners):
                    self.grid.setdefault(key, []).append(len(self.items) - 1)

    def _cells(self, polygon: Sequence[Point], pad: float = 0.0) -> list[tuple[int, int]]:
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        c = self.cell
        return [
            (gx, gy)
            for gx in range(math.floor((min(xs) - pad) / c), math.floor((max(xs) + pad) / c) + 1)
            for gy in range(math.floor((min(ys) - pad) / c), math.floor((max(ys) + pad) / c) + 1)
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
                        if i in seen or name in own or name in found or i in self.gone:
                            continue
                        seen.add(i)
                        if polygons_overlap(car.corners, polygon):
                            found.add(name)
        return len(found)

    def near_cities(self, shapes: Sequence[RouteShape], within: float) -> int:
        """How many cities the cars of `shapes` pass nearer than `within` (their own
        cities aside)."""
        found: set[str] = set()
        for shape in shapes:
            for car in shape.cars:
                for key in self._cells(car.corners, pad=within + self.radius):
                    for name, centre in self.cities.get(key, ()):
                        if name in shape.cities or name in found:
                            continue
                        if polygon_distance(centre, car.corners) - self.radius < within:
                            found.add(name)
        return len(found)


def _beside(p: Point, q: Point, along: float, offset: float) -> Point:
    """The point `offset` to the left of the point `along` (0..1) the way from p to q."""
    distance = math.dist(p, q) or 1.0
    nx, ny = -(q[1] - p[1]) / distance, (q[0] - p[0]) / distance
    x, y = p[0] + (q[0] - p[0]) * along, p[1] + (q[1] - p[1]) * along
    return (x + nx * offset, y + ny * offset)


# ---------------------------------------------------------------- labels and frame


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


def _framed(layout: BoardLayout, game_map: Map) -> tuple[BoardLayout, Point, Point]:
    """The layout moved so that everything drawn sits `BOARD_MARGIN` inside a board
    whose lower left corner is (0, 0), positions rounded to 0.01 cm; with the shift
    applied, and how far the board reaches past its left and lower edges. A layout
    with pinned cities is not moved: the board grows to the right and up."""
    board = board_geometry(game_map, layout)
    x0, y0, x1, y1 = board.bounds
    if layout.pinned:
        dx = dy = 0.0
        off_board = (max(0.0, -x0), max(0.0, -y0))
    else:
        # Whole steps of the stored precision: the board is moved, not changed.
        dx, dy = round(BOARD_MARGIN - x0, 2), round(BOARD_MARGIN - y0, 2)
        off_board = (0.0, 0.0)

    def moved(p: Point) -> Point:
        return (round(p[0] + dx, 2), round(p[1] + dy, 2))

    cities = {name: p if name in layout.pinned else moved(p) for name, p in layout.cities.items()}
    size = (round(x1 + dx + BOARD_MARGIN, 1), round(y1 + dy + BOARD_MARGIN, 1))
    return (
        BoardLayout(
            cities=cities,
            labels=dict(layout.labels),
            bends={pair: tuple(moved(p) for p in points) for pair, points in layout.bends.items()},
            size=size,
            pinned=layout.pinned,
        ),
        (dx, dy),
        off_board,
    )
