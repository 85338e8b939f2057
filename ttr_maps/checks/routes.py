"""Checks on routes: endpoints, parallel tracks, ferries, ids, and the design
warnings that need the map's geometry (length against distance, crossings)."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterator

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import CheckContext, Finding, check, rule
from ttr_maps.io.document import DataPath
from ttr_maps.model import GRAY, Route
from ttr_maps.rules import CARD_COLORS, MAX_PARALLEL_TRACKS, map_rules
from ttr_maps.spelling import did_you_mean

rule(
    "TTR203",
    Level.ERROR,
    "a route's length is outside 1-10",
    """R9: a route has a length of 1 to 10 (checked by the schema); one longer than
    8 also needs its points in `settings.route_points` (TTR210).

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 11, color: pink}

    Passing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: pink}
    """,
)

rule(
    "TTR204",
    Level.ERROR,
    "a route has an unknown color",
    """R3/R9: a route is one of the 8 card colors or gray (checked by the schema).
    A double route lists one color per track.

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: purple}

    Passing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: [pink, gray]}
    """,
)


def route_path(ctx: CheckContext, route: Route, key: str | None = None) -> DataPath:
    """The document path of a route's entry, or of one of its keys. For the color
    of one track of a double route, the path of that color in the list."""
    base: DataPath = ("routes", route.entry)
    if key != "color":
        return base if key is None else (*base, key)
    entry = ctx.document.data["routes"][route.entry]
    if not isinstance(entry["color"], list):
        return (*base, "color")
    first = next(r.index for r in ctx.map.routes if r.entry == route.entry)
    return (*base, "color", route.index - first)


def _pair(route: Route) -> str:
    return f"{route.a}–{route.b}"


def _route_entries(ctx: CheckContext) -> Iterator[Route]:
    """The first track of each `routes` entry: checks of what an entry says (its
    cities, its ferry) report a double route written as one entry once."""
    seen_entries: set[int] = set()
    for route in ctx.map.routes:
        if route.entry not in seen_entries:
            seen_entries.add(route.entry)
            yield route


@check("TTR201", Level.ERROR, "a route names an unknown city")
def route_unknown_city(ctx: CheckContext) -> Iterator[Finding]:
    """Both ends of a route must be cities declared under `cities`.

    Failing:

        cities: {Denver: {lat: 39.74, lon: -104.99}, Omaha: {lat: 41.26, lon: -95.93}}
        routes:
          - {between: [Denver, Omahaa], length: 4, color: pink}

    Passing:

        cities: {Denver: {lat: 39.74, lon: -104.99}, Omaha: {lat: 41.26, lon: -95.93}}
        routes:
          - {between: [Denver, Omaha], length: 4, color: pink}
    """
    known = ctx.known_cities
    for route in _route_entries(ctx):
        for side, name in enumerate(route.cities):
            if name not in known:
                yield Finding(
                    f"route {_pair(route)} names unknown city {name!r}" + did_you_mean(name, known),
                    ("routes", route.entry, "between", side),
                )


@check("TTR202", Level.ERROR, "a route joins a city to itself")
def route_to_itself(ctx: CheckContext) -> Iterator[Finding]:
    """A route joins two different neighbouring cities (R9).

    Failing:

        routes:
          - {between: [Denver, Denver], length: 2, color: gray}

    Passing:

        routes:
          - {between: [Denver, Santa Fe], length: 2, color: gray}
    """
    for route in _route_entries(ctx):
        if route.a == route.b:
            yield Finding(f"route from {route.a!r} to itself", ("routes", route.entry, "between"))


@check("TTR205", Level.ERROR, "more than three parallel tracks")
def too_many_tracks(ctx: CheckContext) -> Iterator[Finding]:
    """R11: two cities are joined by one route, a double or a triple route, never
    more (published boards such as Old West and Northern Lights have triples).

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: [pink, red, blue, white]}

    Passing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: [pink, red, blue]}
    """
    for tracks in ctx.map.parallel_routes.values():
        if len(tracks) > MAX_PARALLEL_TRACKS:
            extra = tracks[MAX_PARALLEL_TRACKS]
            yield Finding(
                f"{len(tracks)} parallel tracks between {extra.a} and {extra.b}; "
                f"at most {MAX_PARALLEL_TRACKS}",
                route_path(ctx, extra, "color"),
            )


@check("TTR255", Level.WARNING, "parallel tracks of different length")
def parallel_lengths_differ(ctx: CheckContext) -> Iterator[Finding]:
    """The tracks between two cities usually have one length; a different one is
    most often a typo. Some published boards do it on purpose (a tunnel beside a
    longer ferry on Nordic Countries, Aomori-Hakodate on Japan) and silence this
    warning. The tracks still count as parallel for R11.

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: pink}
          - {between: [Omaha, Denver], length: 5, color: red}

    Passing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: [pink, red]}
    """
    for tracks in ctx.map.parallel_routes.values():
        first = tracks[0]
        for other in tracks[1:]:
            if other.length != first.length:
                yield Finding(
                    f"track {other.id} has length {other.length} but {first.id} has "
                    f"{first.length}: give parallel tracks one length, unless the board "
                    "means them to differ",
                    route_path(ctx, other, "length"),
                )


@check("TTR210", Level.ERROR, "a route is longer than the route points table")
def route_without_points(ctx: CheckContext) -> Iterator[Finding]:
    """R10: every route length scores points; the rule set's `route_points` give
    them for lengths 1 to 8, so a longer route needs its points in the map's
    settings (Nordic Countries scores its route of 9 for 27).

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 9, color: gray}

    Passing:

        settings:
          route_points: [1, 2, 4, 7, 10, 15, 18, 21, 27]
        routes:
          - {between: [Denver, Omaha], length: 9, color: gray}
    """
    scored = map_rules(ctx.map).longest_scored_route
    for route in ctx.map.routes:
        if route.length > scored:
            yield Finding(
                f"route {route.id} is {route.length} long but route_points score routes "
                f"up to {scored}: give settings.route_points {route.length} numbers",
                route_path(ctx, route, "length"),
            )


@check("TTR207", Level.ERROR, "parallel tracks of the same color")
def parallel_same_color(ctx: CheckContext) -> Iterator[Finding]:
    """The tracks of a double route have different colors, except gray, which
    may be doubled.

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: [pink, pink]}

    Passing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: [gray, gray]}
    """
    for tracks in ctx.map.parallel_routes.values():
        seen: dict[str, Route] = {}
        for track in tracks:
            if track.color != GRAY and track.color in seen:
                yield Finding(
                    f"tracks {seen[track.color].id} and {track.id} are both {track.color}",
                    route_path(ctx, track, "color"),
                )
            seen.setdefault(track.color, track)


@check("TTR208", Level.ERROR, "a ferry needs more locomotives than its length")
def ferry_too_long(ctx: CheckContext) -> Iterator[Finding]:
    """E3: a ferry's locomotive spaces are part of its length, so they cannot
    outnumber it.

    Failing:

        routes:
          - {between: [Stockholm, Petrograd], length: 3, color: gray, ferry: 4}

    Passing:

        routes:
          - {between: [Stockholm, Petrograd], length: 8, color: gray, ferry: 1}
    """
    for route in _route_entries(ctx):
        if route.ferry > route.length:
            yield Finding(
                f"ferry {_pair(route)} needs {route.ferry} locomotives but is only "
                f"{route.length} long",
                route_path(ctx, route, "ferry"),
            )


@check("TTR209", Level.ERROR, "two routes have the same id")
def duplicate_route_id(ctx: CheckContext) -> Iterator[Finding]:
    """Route ids (`Denver-Kansas_City/2`) name routes in game records, so they must
    be unique. They collide when city names differ only by spaces and underscores.

    Failing:

        cities: {Kansas City: {x: 0, y: 0}, Kansas_City: {x: 1, y: 0}, Omaha: {x: 0, y: 1}}
        routes:
          - {between: [Kansas City, Omaha], length: 1, color: red}
          - {between: [Kansas_City, Omaha], length: 1, color: blue}

    Passing:

        cities: {Kansas City: {x: 0, y: 0}, Wichita: {x: 1, y: 0}, Omaha: {x: 0, y: 1}}
        routes:
          - {between: [Kansas City, Omaha], length: 1, color: red}
          - {between: [Wichita, Omaha], length: 1, color: blue}
    """
    first: dict[str, Route] = {}
    for route in ctx.map.routes:
        if route.id in first:
            other = first[route.id]
            yield Finding(
                f"route {_pair(route)} has the id {route.id!r}, like route {_pair(other)}",
                route_path(ctx, route),
            )
        else:
            first[route.id] = route


#: TTR251: a length is flagged when it differs from the distance-based estimate by
#: both this factor and this many wagons.
LENGTH_FACTOR = 3.0
LENGTH_MARGIN = 2.0
MIN_PAIRS_FOR_SCALE = 5


@check("TTR251", Level.WARNING, "a route's length is far from the distance between its cities")
def length_far_from_distance(ctx: CheckContext) -> Iterator[Finding]:
    """The map's scale is the median distance per wagon over all pairs of joined
    cities (kilometres on geographic maps, plane units otherwise). A route is
    flagged when its length and the estimate (distance / scale) differ by a factor
    of 3 or more *and* by 2 wagons or more. Needs at least 5 joined pairs. The
    published North America and Europe boards raise no warning.

    Failing (A-B and C-D are 1 wagon apart by the map's scale; E-F is 8):

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 0, y: 1}, D: {x: 1, y: 1},
                 E: {x: 0, y: 2}, F: {x: 1, y: 2}, G: {x: 0, y: 3}, H: {x: 1, y: 3},
                 I: {x: 0, y: 4}, J: {x: 1, y: 4}}
        routes:
          - {between: [A, B], length: 1, color: red}
          - {between: [C, D], length: 1, color: red}
          - {between: [E, F], length: 8, color: red}
          - {between: [G, H], length: 1, color: red}
          - {between: [I, J], length: 1, color: red}

    Passing: the same map with `length: 1` for E-F.
    """
    if not ctx.known_cities:
        return
    from ttr_maps.geometry.projection import city_distance

    known = ctx.known_cities
    pairs = []
    for tracks in ctx.map.parallel_routes.values():
        route = tracks[0]
        if route.a != route.b and route.a in known and route.b in known:
            distance = city_distance(ctx.map, route.a, route.b)
            if math.isfinite(distance):
                pairs.append((route, distance))
    ratios = [d / r.length for r, d in pairs if d > 0]
    if len(ratios) < MIN_PAIRS_FOR_SCALE:
        return
    scale = statistics.median(ratios)
    unit = "km" if ctx.map.is_geographic else "units"
    for route, distance in pairs:
        expected = distance / scale
        low, high = sorted((expected, float(route.length)))
        if high - low >= LENGTH_MARGIN and high >= LENGTH_FACTOR * low:
            yield Finding(
                f"route {_pair(route)} has length {route.length} but its cities are "
                f"{_number(distance)} {unit} apart, about {expected:.1f} wagons at this "
                f"map's scale of {_number(scale)} {unit} per wagon",
                route_path(ctx, route, "length"),
            )


def _number(value: float) -> str:
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


@check("TTR252", Level.WARNING, "two routes cross")
def routes_cross(ctx: CheckContext) -> Iterator[Finding]:
    """Two routes whose straight lines between their cities cross (on the map's
    projection): on a board they would have to pass under each other. Routes that
    share a city never cross. Silence it for a file with `# ttr: disable=TTR252`
    when the board draws curved routes.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 2, y: 2}, C: {x: 0, y: 2}, D: {x: 2, y: 0}}
        routes:
          - {between: [A, B], length: 3, color: red}
          - {between: [C, D], length: 3, color: blue}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 2, y: 2}, C: {x: 0, y: 2}, D: {x: 2, y: 0}}
        routes:
          - {between: [A, C], length: 2, color: red}
          - {between: [B, D], length: 2, color: blue}
    """
    from ttr_maps.geometry.projection import projected_positions, segments_cross

    positions = projected_positions(ctx.map)
    segments = []
    for tracks in ctx.map.parallel_routes.values():
        route = tracks[0]
        p, q = positions.get(route.a), positions.get(route.b)
        if p is None or q is None or route.a == route.b:
            continue
        if not all(math.isfinite(v) for v in (*p, *q)):
            continue
        segments.append((route, p, q))
    for i, j in _candidate_pairs([(p, q) for _, p, q in segments]):
        (r, p1, p2), (s, q1, q2) = segments[i], segments[j]
        if set(r.cities) & set(s.cities):
            continue
        if segments_cross(p1, p2, q1, q2):
            first, second = sorted((r, s), key=lambda route: route.index)
            yield Finding(
                f"route {_pair(second)} crosses route {_pair(first)}",
                route_path(ctx, second),
            )


def _candidate_pairs(
    segments: list[tuple[tuple[float, float], tuple[float, float]]],
) -> Iterator[tuple[int, int]]:
    """Pairs of segments whose bounding boxes meet, found with a uniform grid
    (cell size: the median segment extent), in a stable order."""
    if len(segments) < 2:
        return
    boxes = [
        (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1])) for p, q in segments
    ]
    extents = [max(b[2] - b[0], b[3] - b[1]) for b in boxes]
    cell = statistics.median(extents) or max(extents) or 1.0
    grid: dict[tuple[int, int], list[int]] = {}
    for index, (x0, y0, x1, y1) in enumerate(boxes):
        for gx in range(math.floor(x0 / cell), math.floor(x1 / cell) + 1):
            for gy in range(math.floor(y0 / cell), math.floor(y1 / cell) + 1):
                grid.setdefault((gx, gy), []).append(index)
    seen: set[tuple[int, int]] = set()
    for members in grid.values():
        for k, i in enumerate(members):
            bi = boxes[i]
            for j in members[k + 1 :]:
                bj = boxes[j]
                if bi[0] > bj[2] or bj[0] > bi[2] or bi[1] > bj[3] or bj[1] > bi[3]:
                    continue
                if (i, j) not in seen:
                    seen.add((i, j))
    yield from sorted(seen)


#: TTR253: a color is flagged when its wagon spaces differ from the mean over the
#: 8 card colors by more than this share of the mean, and by at least 3 spaces.
COLOR_TOLERANCE = 0.25
MIN_COLORED_ROUTES = 24


@check("TTR253", Level.WARNING, "card colors have very different numbers of wagon spaces")
def color_imbalance(ctx: CheckContext) -> Iterator[Finding]:
    """R3 deals 12 cards of each color, so every color should cover about the same
    number of wagon spaces. A color whose spaces differ from the mean over the 8
    card colors by more than 25% (and by 3 spaces or more) is flagged. Gray routes
    are left out; maps with fewer than 24 colored routes are not checked. The
    published North America and Europe boards are balanced.

    Failing: 24 red routes of length 3 and no other color.

    Passing: 3 routes of length 3 in each of the 8 colors.
    """
    colored = [r for r in ctx.map.routes if r.color != GRAY]
    if len(colored) < MIN_COLORED_ROUTES:
        return
    spaces = Counter({color: 0 for color in CARD_COLORS})
    for route in colored:
        spaces[route.color] += route.length
    mean = sum(spaces.values()) / len(CARD_COLORS)
    for color in CARD_COLORS:
        gap = spaces[color] - mean
        if abs(gap) > COLOR_TOLERANCE * mean and abs(gap) >= 3:
            more_or_fewer = "more" if gap > 0 else "fewer"
            yield Finding(
                f"color {color} covers {spaces[color]} wagon spaces, {abs(gap):.0f} "
                f"{more_or_fewer} than the mean of {mean:.1f} over the 8 card colors",
                ("routes",),
                on_key=True,
            )
