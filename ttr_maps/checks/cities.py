"""Checks on cities."""

from __future__ import annotations

import math
from collections.abc import Iterator

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import CheckContext, Finding, check
from ttr_maps.io.document import MapDocument
from ttr_maps.spelling import closest_spelling


@check("TTR101", Level.ERROR, "a city name is declared twice", stage="document")
def duplicate_city(document: MapDocument) -> Iterator[Finding]:
    """Two cities have the same name. Only the first is kept, so the second one's
    position is lost. Reported even when the schema fails.

    Failing:

        cities:
          Denver: {lat: 39.74, lon: -104.99}
          Denver: {lat: 39.10, lon: -94.58}

    Passing:

        cities:
          Denver: {lat: 39.74, lon: -104.99}
          Kansas City: {lat: 39.10, lon: -94.58}
    """
    for path, position in document.duplicate_keys:
        if path[:-1] == ("cities",):
            yield Finding(f"city {path[-1]!r} is declared twice", position=position)


@check("TTR102", Level.ERROR, "a city has no route")
def city_without_route(ctx: CheckContext) -> Iterator[Finding]:
    """A city that no route touches can never be reached.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 2, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 2, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
          - {between: [B, C], length: 1, color: blue}
    """
    touched = {name for route in ctx.map.routes for name in route.cities}
    # Routes left out for schema errors, or naming a misspelt city, still show
    # which cities the designer meant to join: no "no route" advice for those.
    for entry in ctx.left_out_routes:
        written = ctx.document.data["routes"][entry]
        between = written.get("between") if isinstance(written, dict) else None
        if isinstance(between, list):
            touched.update(name for name in between if isinstance(name, str))
    known = ctx.known_cities
    touched.update(closest_spelling(name, known) for name in list(touched) if name not in known)
    for city in ctx.map.cities:
        if city.name not in touched:
            yield Finding(f"city {city.name!r} has no route", ("cities", city.name), on_key=True)


@check("TTR103", Level.ERROR, "a city has bad coordinates")
def bad_coordinates(ctx: CheckContext) -> Iterator[Finding]:
    """Coordinates must be finite numbers; latitude within -90..90 and longitude
    within -180..180 on geographic maps (the schema checks the ranges and reports
    them under this code; this check adds what a schema cannot say: .nan, .inf).

    Failing:

        cities:
          Denver: {lat: 139.74, lon: -104.99}
          Omaha: {lat: .nan, lon: -95.93}

    Passing:

        cities:
          Denver: {lat: 39.74, lon: -104.99}
          Omaha: {lat: 41.26, lon: -95.93}
    """
    keys = ("lat", "lon") if ctx.map.is_geographic else ("x", "y")
    for city in ctx.map.cities:
        if city.name in ctx.unplaced_cities:  # the schema reported these already
            continue
        for key, value in zip(keys, city.position, strict=True):
            if not math.isfinite(value):
                yield Finding(
                    f"city {city.name!r}: {key} must be a finite number, not {value}",
                    ("cities", city.name, key),
                )
