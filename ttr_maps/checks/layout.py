"""Checks on the board: the optional `layout:` section and what the drawn board shows."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import CheckContext, Finding, check
from ttr_maps.checks.routes import route_path
from ttr_maps.io.document import DataPath
from ttr_maps.model import Route

if TYPE_CHECKING:
    from ttr_maps.geometry.board import BoardGeometry
    from ttr_maps.geometry.readability import ChainGap, Readability

#: The errors of a map's `layout:` section: `ttr layout` replaces the section, so a
#: map whose only errors are these can still be laid out afresh.
LAYOUT_ERROR_CODES = frozenset({"TTR501", "TTR502", "TTR503"})
#: The checks of what the drawn board shows: a readable board has none of them.
BOARD_CODES = frozenset({f"TTR55{k}" for k in range(1, 8)})


@check("TTR501", Level.ERROR, "the board layout names an unknown city")
def layout_unknown_city(ctx: CheckContext) -> Iterator[Finding]:
    """Every city under `layout: cities:` and in a bend's `between` must be a city
    of the map (a typo, or a city renamed since the layout was made).

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}}
        layout:
          cities: {A: {x: 0, y: 0}, Bee: {x: 3, y: 0}}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}}
        layout:
          cities: {A: {x: 0, y: 0}, B: {x: 3, y: 0}}
    """
    layout = ctx.document.data.get("layout") or {}
    for name in layout.get("cities") or {}:
        if name not in ctx.known_cities:
            yield Finding(
                f"layout places {name!r}, which is not a city of this map",
                ("layout", "cities", name),
                on_key=True,
            )
    for index, bend in enumerate(layout.get("bends") or []):
        for side, name in enumerate(bend["between"]):
            if name not in ctx.known_cities:
                yield Finding(
                    f"bend names {name!r}, which is not a city of this map",
                    ("layout", "bends", index, "between", side),
                )


@check("TTR502", Level.ERROR, "a city has no place in the board layout")
def layout_missing_city(ctx: CheckContext) -> Iterator[Finding]:
    """A board layout places every city (`ttr layout --write` writes them all); a
    city added to the map after the layout was made has no place on the board.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}}
        layout:
          cities: {A: {x: 0, y: 0}}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}}
        layout:
          cities: {A: {x: 0, y: 0}, B: {x: 3, y: 0}}
    """
    if ctx.map.layout is None:
        return
    placed = ctx.map.layout.cities
    for city in ctx.map.cities:
        if city.name not in placed:
            yield Finding(
                f"city {city.name!r} has no place in the board layout "
                "(run `ttr layout MAP --write` again, or add it under layout: cities:)",
                ("layout", "cities"),
                on_key=True,
            )


@check("TTR503", Level.ERROR, "a board layout value is unusable")
def layout_bad_value(ctx: CheckContext) -> Iterator[Finding]:
    """Board positions, label offsets and bend points must be finite numbers, and a
    bend must belong to a route: two cities that some route joins.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 2, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
        layout:
          cities: {A: {x: 0, y: .nan}, B: {x: 3, y: 0}, C: {x: 6, y: 0}}
          bends:
            - {between: [A, C], points: [[3, 2]]}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 2, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
        layout:
          cities: {A: {x: 0, y: 0}, B: {x: 3, y: 0}, C: {x: 6, y: 0}}
          bends:
            - {between: [A, B], points: [[1.5, 1]]}
    """
    layout = ctx.document.data.get("layout") or {}
    for name, spec in (layout.get("cities") or {}).items():
        for key in ("x", "y", "label"):
            values = spec.get(key)
            values = [values] if not isinstance(values, list) else values
            if any(v is not None and not math.isfinite(v) for v in values):
                yield Finding(
                    f"layout of {name!r}: {key} must be finite numbers",
                    ("layout", "cities", name, key),
                )
    for index, bend in enumerate(layout.get("bends") or []):
        a, b = bend["between"]
        if frozenset((a, b)) not in ctx.map.parallel_routes and {a, b} <= ctx.known_cities:
            yield Finding(
                f"bend between {a} and {b}, but no route joins them",
                ("layout", "bends", index, "between"),
            )
        for k, point in enumerate(bend["points"]):
            if not all(math.isfinite(v) for v in point):
                yield Finding(
                    f"bend between {a} and {b}: point {k + 1} must be finite numbers",
                    ("layout", "bends", index, "points", k),
                )


@check("TTR551", Level.WARNING, "cars of two routes overlap on the drawn board")
def cars_overlap(ctx: CheckContext) -> Iterator[Finding]:
    """Cars of two routes cover each other on the board as drawn (the map's board
    layout if it has one, else its geography), so players cannot tell the routes
    apart. It sees routes that come too close without crossing; straight routes
    that truly cross are TTR252's (reported once, there).
    `ttr layout MAP --write` computes a layout without overlaps.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}, C: {x: 0, y: 0.3}, D: {x: 4, y: 0.3}}
        routes:
          - {between: [A, B], length: 3, color: red}
          - {between: [C, D], length: 3, color: blue}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}, C: {x: 0, y: 3}, D: {x: 4, y: 3}}
        routes:
          - {between: [A, B], length: 3, color: red}
          - {between: [C, D], length: 3, color: blue}
    """
    from ttr_maps.geometry.board import overlaps
    from ttr_maps.geometry.projection import segments_cross

    if not _is_drawable(ctx):
        return
    board = _board(ctx)
    found = _readability(ctx)
    car_car = (
        [o for o in found.overlaps if o.kind == "car-car"]
        if found is not None
        else overlaps(board, frozenset({"car-car"}))
    )
    by_id = ctx.map.route_by_id
    for overlap in car_car:
        first, second = sorted((by_id[overlap.first], by_id[overlap.second]), key=lambda r: r.index)
        lines = [board.routes[r.id].path for r in (first, second)]
        if all(len(line) == 2 for line in lines) and segments_cross(*lines[0], *lines[1]):
            continue
        yield Finding(
            f"cars of route {_named(second)} overlap cars of route {_named(first)} "
            f"(line {ctx.document.position(route_path(ctx, first)).line}) on the drawn board",
            route_path(ctx, second),
        )


def _is_drawable(ctx: CheckContext) -> bool:
    """Whether the board can be drawn: every city placed (TTR502 says what is
    missing) and every coordinate finite (TTR103, TTR503)."""
    if ctx.map.layout is not None and ctx.map.layout.cities.keys() < ctx.known_cities:
        return False
    coordinates = [v for c in ctx.map.cities for v in c.position]
    if ctx.map.layout is not None:
        coordinates += [v for p in ctx.map.layout.cities.values() for v in p]
        coordinates += [v for p in ctx.map.layout.labels.values() for v in p]
        coordinates += [v for points in ctx.map.layout.bends.values() for p in points for v in p]
    return all(math.isfinite(v) for v in coordinates)


def _named(route: Route) -> str:
    return f"{route.a}–{route.b}{f' (track {route.track})' if route.track else ''}"


#: The advice every board check ends with (`ttr layout` itself leaves it out).
REDO_ADVICE = "or run `ttr layout MAP --write` (pin the cities you placed by hand)"


def _board(ctx: CheckContext) -> BoardGeometry:
    """The drawn board of the map being validated (computed once per validation)."""
    cached = _CACHE.get(id(ctx))
    if cached is None or cached[0] is not ctx:
        from ttr_maps.geometry.board import board_geometry

        cached = (ctx, board_geometry(ctx.map), None)
        _CACHE.clear()  # one map at a time: keep no board of a finished file
        _CACHE[id(ctx)] = cached
    return cached[1]


def _readability(ctx: CheckContext) -> Readability | None:
    """The readability of the stored layout (computed once per validation), or
    None for a map without a drawable layout."""
    if ctx.map.layout is None or not _is_drawable(ctx):
        return None
    board = _board(ctx)
    _, _, found = _CACHE[id(ctx)]
    if found is None:
        from ttr_maps.geometry.readability import readability

        found = readability(ctx.map, board)
        _CACHE[id(ctx)] = (ctx, board, found)
    return found


_CACHE: dict[int, tuple[CheckContext, BoardGeometry, Readability | None]] = {}


def _city_path(ctx: CheckContext, name: str, key: str | None = None) -> tuple[DataPath, bool]:
    """Where a city's layout entry (or one of its keys) is, and whether that is a key."""
    spec = (ctx.document.data.get("layout") or {}).get("cities") or {}
    if key is not None and isinstance(spec.get(name), dict) and key in spec[name]:
        return ("layout", "cities", name, key), False
    return ("layout", "cities", name), True


@check("TTR552", Level.WARNING, "a route's cars do not chain from its city to its other city")
def cars_not_chained(ctx: CheckContext) -> Iterator[Finding]:
    """On a laid-out board a route's cars form one chain whose ends touch its two
    cities: no gap between two cars wider than a quarter of a car (0.6 cm), the
    first and last cars no further from their city's dot than the city's clearance
    allows plus that slack, and no car on its own city's dot. A longer gap means the
    cities are further apart than the cars need, so the cars float between them.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
        layout:
          cities: {A: {x: 2, y: 2}, B: {x: 12, y: 2}}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
        layout:
          cities: {A: {x: 2, y: 2}, B: {x: 6.3, y: 2}}
    """
    found = _readability(ctx)
    if found is None:
        return
    by_id = ctx.map.route_by_id
    worst: dict[str, ChainGap] = {}
    for gap in found.gaps:
        known = worst.get(gap.route)
        if known is None or gap.gap - gap.limit > known.gap - known.limit:
            worst[gap.route] = gap
    for route_id, gap in worst.items():
        route = by_id[route_id]
        if gap.gap < 0:
            what = f"its cars run {-gap.gap:.1f} cm into {gap.city}'s dot"
            fix = "move its cities apart or give it a bow (a bend point)"
        elif gap.city is not None:
            what = f"its cars stop {gap.gap:.1f} cm short of {gap.city}'s dot"
            what += f" (at most {gap.limit:.1f})"
            fix = "move its cities closer together"
        else:
            what = f"a {gap.gap:.1f} cm gap after car {gap.after} (at most {gap.limit:.1f} cm)"
            fix = "move its cities closer together"
        yield Finding(
            f"route {_named(route)}: {what} on the laid-out board: {fix}, {REDO_ADVICE}",
            route_path(ctx, route),
        )


@check("TTR553", Level.WARNING, "a route passes too close to a city it does not serve")
def route_near_city(ctx: CheckContext) -> Iterator[Finding]:
    """On a laid-out board a route's cars keep at least a car's width (0.8 cm) from
    the dot of every city the route does not end at, so it never seems to stop there.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}, C: {x: 2, y: 1}, D: {x: 0, y: 3}}
        routes:
          - {between: [A, B], length: 2, color: red}
          - {between: [C, D], length: 2, color: blue}
          - {between: [A, D], length: 2, color: green}
        layout:
          cities:
            A: {x: 2, y: 2}
            B: {x: 8.4, y: 2}
            C: {x: 5.2, y: 3.3, label: [0.9, 0]}
            D: {x: 0.5, y: 9.3, label: [-0.9, 0]}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}, C: {x: 2, y: 1}, D: {x: 0, y: 3}}
        routes:
          - {between: [A, B], length: 2, color: red}
          - {between: [C, D], length: 2, color: blue}
          - {between: [A, D], length: 2, color: green}
        layout:
          cities:
            A: {x: 2, y: 2}
            B: {x: 8.4, y: 2}
            C: {x: 6.5, y: 4.2, label: [0.9, 0]}
            D: {x: 0.5, y: 9.3, label: [-0.9, 0]}
    """
    from ttr_maps.geometry.readability import CLEARANCE

    found = _readability(ctx)
    if found is None:
        return
    by_id = ctx.map.route_by_id
    for miss in found.clearances:
        route = by_id[miss.route]
        what = (
            f"its cars cover {miss.city}'s dot"
            if miss.distance <= 0
            else f"its cars pass {miss.distance:.1f} cm from {miss.city}'s dot (at least "
            f"{CLEARANCE:.1f})"
        )
        yield Finding(
            f"route {_named(route)}: {what} on the laid-out board: move {miss.city} away "
            f"from the route or bend the route around it, {REDO_ADVICE}",
            route_path(ctx, route),
        )


@check("TTR554", Level.WARNING, "a route strays far from the line between its cities")
def route_detour(ctx: CheckContext) -> Iterator[Finding]:
    """On a laid-out board a route's line stays near the straight segment between its
    cities: it may stray by 0.3 of the segment's length plus 0.4 cm (tuned on the
    published boards, docs/print.md). A route that wanders off (a bend beyond both
    cities, cars far out to one side) no longer shows which cities it joins.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 2, color: red}
        layout:
          cities: {A: {x: 2, y: 2}, B: {x: 6, y: 2}}
          bends:
            - {between: [A, B], points: [[4, 4.7]]}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 2, color: red}
        layout:
          cities: {A: {x: 2, y: 2}, B: {x: 8, y: 2}}
          bends:
            - {between: [A, B], points: [[5, 3.6]]}
    """
    found = _readability(ctx)
    if found is None:
        return
    for detour in found.detours:
        a, b = detour.cities
        route = ctx.map.parallel_routes[frozenset((a, b))][0]
        yield Finding(
            f"route {a}–{b} strays {detour.deviation:.1f} cm from the line between its "
            f"cities (at most {detour.limit:.1f} cm for {detour.chord:.1f} cm apart) on the "
            "laid-out board: move its bend point nearer that line or its cities apart, "
            f"{REDO_ADVICE}",
            _bend_path(ctx, a, b) or route_path(ctx, route),
        )


def _bend_path(ctx: CheckContext, a: str, b: str) -> DataPath | None:
    bends = (ctx.document.data.get("layout") or {}).get("bends") or []
    for index, bend in enumerate(bends):
        if set(bend["between"]) == {a, b}:
            return ("layout", "bends", index)
    return None


@check("TTR555", Level.WARNING, "two neighbouring cities swap their compass order")
def compass_order(ctx: CheckContext) -> Iterator[Finding]:
    """On a laid-out board two neighbouring cities (joined by a route, or nearer each
    other in geography than a typical route) keep their order east–west and
    north–south where geography is clear about it: a city at least 30° off due north
    or south of its neighbour stays on its side (Stavanger west of Kristiansand).

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 2, color: red}
        layout:
          cities: {A: {x: 8.4, y: 2}, B: {x: 2, y: 2}}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 2, color: red}
        layout:
          cities: {A: {x: 2, y: 2}, B: {x: 8.4, y: 2}}
    """
    found = _readability(ctx)
    if found is None:
        return
    opposite = {"east": "west", "north": "south"}
    for flip in found.flips:
        path, on_key = _city_path(ctx, flip.second)
        yield Finding(
            f"{flip.second} lies {flip.direction} of {flip.first} but the laid-out board "
            f"puts it {opposite[flip.direction]}: move one of them (and pin it), {REDO_ADVICE}",
            path,
            on_key=on_key,
        )


@check("TTR556", Level.WARNING, "a label is far from its city or nearer another city")
def label_placement(ctx: CheckContext) -> Iterator[Finding]:
    """On a laid-out board each city's label sits next to its own dot (its box within
    a label's height, 0.55 cm, of the dot) and nearer to it than to any other dot.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 2, color: red}
        layout:
          cities: {A: {x: 2, y: 2, label: [0, 3]}, B: {x: 8.4, y: 2}}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 2, color: red}
        layout:
          cities: {A: {x: 2, y: 2, label: [0, 0.9]}, B: {x: 8.4, y: 2}}
    """
    from ttr_maps.geometry.readability import MAX_LABEL_GAP

    found = _readability(ctx)
    if found is None:
        return
    for miss in found.labels:
        path, on_key = _city_path(ctx, miss.city, "label")
        where = (
            f"nearer {miss.nearer}'s dot than its own"
            if miss.nearer is not None
            else f"{miss.gap:.1f} cm from its dot (at most {MAX_LABEL_GAP:.2f})"
        )
        yield Finding(
            f"the label of {miss.city} is {where} on the laid-out board: move it beside "
            f"its dot (layout: label offset), {REDO_ADVICE}",
            path,
            on_key=on_key,
        )


@check("TTR557", Level.WARNING, "a label covers a car, another label or another city")
def label_covers(ctx: CheckContext) -> Iterator[Finding]:
    """On a laid-out board no label covers a car, another label or another city's
    dot, so every name can be read and no route hides under one.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 2, color: red}
        layout:
          cities: {A: {x: 2, y: 2, label: [0.85, 0]}, B: {x: 8.4, y: 2}}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}}
        routes:
          - {between: [A, B], length: 2, color: red}
        layout:
          cities: {A: {x: 2, y: 2, label: [0, 0.9]}, B: {x: 8.4, y: 2}}
    """
    found = _readability(ctx)
    if found is None:
        return
    by_id = ctx.map.route_by_id
    for overlap in found.overlaps:
        if overlap.kind == "car-label":
            route, city = by_id[overlap.first], overlap.second
            what = f"covers cars of route {_named(route)}"
        elif overlap.kind == "label-label":
            city, other = overlap.first, overlap.second
            what = f"covers the label of {other}"
        elif overlap.kind == "label-city":
            city, other = overlap.first, overlap.second
            what = f"covers the dot of {other}"
        else:
            continue
        path, on_key = _city_path(ctx, city, "label")
        yield Finding(
            f"the label of {city} {what} on the laid-out board: {_label_room(ctx, city)}",
            path,
            on_key=on_key,
        )


#: How far (cm) and in which directions TTR557 looks for room for a label.
_ROOM_STEPS = (0.5, 1.0, 1.5)
_DIRECTIONS = (
    "east",
    "north-east",
    "north",
    "north-west",
    "west",
    "south-west",
    "south",
    "south-east",
)


def _label_room(ctx: CheckContext, city: str) -> str:
    """Where the label of `city` would cover nothing: a free spot beside its dot
    (its offset), else the nearest move of the city (0.5 to 1.5 cm, 8 directions)
    that leaves one free (its routes' cars counted as moving with it), else that
    there is none near."""
    from ttr_maps.geometry.board import BOARD_LABEL_FONT
    from ttr_maps.geometry.labels import free_spot

    board = _board(ctx)
    spot = free_spot(board, city, BOARD_LABEL_FONT)
    if spot is not None:
        return (
            f"move the label to [{spot[0]}, {spot[1]}] (layout: cities: {city}: label), "
            f"where it covers nothing, {REDO_ADVICE}"
        )
    x, y = board.positions[city]
    moving = {shape.id for shape in board.routes.values() if city in shape.cities}
    for step in _ROOM_STEPS:
        for k, direction in enumerate(_DIRECTIONS):
            angle = k * math.pi / 4
            at = (x + step * math.cos(angle), y + step * math.sin(angle))
            if free_spot(board, city, BOARD_LABEL_FONT, at=at, moving=moving) is not None:
                return (
                    f"no spot beside its dot is free; one would be with {city} about "
                    f"{step:.1f} cm further {direction}: move it there (layout: cities: "
                    f"{city}: x, y), pin it (pin: true) and run `ttr layout MAP --write` again"
                )
    return (
        f"no spot beside its dot is free, nor with {city} moved up to "
        f"{_ROOM_STEPS[-1]:.1f} cm: move the routes beside it (layout: bends) or the cities "
        f"around it to make room, pin them (pin: true) and run `ttr layout MAP --write` again"
    )
