"""Checks on the board: the optional `layout:` section and what the drawn board shows."""

from __future__ import annotations

import math
from collections.abc import Iterator

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import CheckContext, Finding, check
from ttr_maps.checks.routes import route_path

#: The errors of a map's `layout:` section: `ttr layout` replaces the section, so a
#: map whose only errors are these can still be laid out afresh.
LAYOUT_ERROR_CODES = frozenset({"TTR501", "TTR502", "TTR503"})


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
    from ttr_maps.geometry.board import board_geometry, overlaps
    from ttr_maps.geometry.projection import segments_cross

    if ctx.map.layout is not None and ctx.map.layout.cities.keys() < ctx.known_cities:
        return  # TTR502 says what is missing
    coordinates = [v for c in ctx.map.cities for v in c.position]
    if ctx.map.layout is not None:
        coordinates += [v for p in ctx.map.layout.cities.values() for v in p]
    if not all(math.isfinite(v) for v in coordinates):
        return  # TTR103 / TTR503
    board = board_geometry(ctx.map)
    by_id = ctx.map.route_by_id
    for overlap in overlaps(board, frozenset({"car-car"})):
        first, second = sorted((by_id[overlap.first], by_id[overlap.second]), key=lambda r: r.index)
        lines = [board.routes[r.id].path for r in (first, second)]
        if all(len(line) == 2 for line in lines) and segments_cross(*lines[0], *lines[1]):
            continue
        yield Finding(
            f"cars of route {second.a}–{second.b}"
            f"{f' (track {second.track})' if second.track else ''} overlap cars of route "
            f"{first.a}–{first.b}{f' (track {first.track})' if first.track else ''} "
            f"(line {ctx.document.position(route_path(ctx, first)).line}) on the drawn board",
            route_path(ctx, second),
        )
