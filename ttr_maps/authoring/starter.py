"""Starter maps for `ttr new`: a small valid map to grow, never an empty file.

A starter has seven cities, ten or so route entries (one a double route) and five
tickets whose values are computed here from the routes (R2), so the file validates
clean as written. Geographic starters use real towns of Portugal; plane starters use
made-up towns on an x/y grid.

The first line is a modeline for editors using yaml-language-server (VS Code's YAML
extension and others): it points at the map schema so the editor completes keys and
flags mistakes while the designer types. See `default_schema_reference` for which
path it writes.

>>> text = starter_map_text("my_map", coordinates="plane", schema_ref="map.schema.json")
>>> text.splitlines()[0]
'# yaml-language-server: $schema=map.schema.json'
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ttr_maps.io.files import OutputPathError, check_output_path, write_text_atomically
from ttr_maps.model import CoordinateKind, Map
from ttr_maps.rules import BASE
from ttr_maps.text import for_terminal

MODELINE_PREFIX = "# yaml-language-server: $schema="

# City -> (first, second) coordinate: (lat, lon) or (x, y).
_GEOGRAPHIC_CITIES: dict[str, tuple[float, float]] = {
    "Braga": (41.5454, -8.4265),
    "Porto": (41.1579, -8.6291),
    "Viseu": (40.6566, -7.9125),
    "Coimbra": (40.2033, -8.4103),
    "Lisboa": (38.7223, -9.1393),
    "Évora": (38.5714, -7.9135),
    "Faro": (37.0194, -7.9304),
}
_GEOGRAPHIC_ROUTES: tuple[tuple[str, str, int, str | list[str]], ...] = (
    ("Braga", "Porto", 1, "gray"),
    ("Braga", "Viseu", 3, "yellow"),
    ("Porto", "Viseu", 2, "gray"),
    ("Porto", "Coimbra", 3, "green"),
    ("Coimbra", "Viseu", 2, "orange"),
    ("Coimbra", "Lisboa", 4, ["red", "blue"]),
    ("Coimbra", "Évora", 4, "black"),
    ("Lisboa", "Évora", 2, "pink"),
    ("Lisboa", "Faro", 5, "white"),
    ("Évora", "Faro", 4, "gray"),
)
_GEOGRAPHIC_TICKETS: tuple[tuple[str, str], ...] = (
    ("Braga", "Faro"),
    ("Porto", "Lisboa"),
    ("Viseu", "Évora"),
    ("Coimbra", "Faro"),
    ("Braga", "Lisboa"),
)

_PLANE_CITIES: dict[str, tuple[float, float]] = {
    "Harbor": (0, 0),
    "Mill": (3, 0),
    "Crossing": (7, 0),
    "Summit": (1.5, 3),
    "Lake": (4.5, 3),
    "Old Pass": (3, 6),
    "Northgate": (6.5, 6),
}
_PLANE_ROUTES: tuple[tuple[str, str, int, str | list[str]], ...] = (
    ("Harbor", "Mill", 3, "red"),
    ("Mill", "Crossing", 4, ["blue", "yellow"]),
    ("Harbor", "Summit", 3, "green"),
    ("Mill", "Summit", 3, "gray"),
    ("Mill", "Lake", 3, "orange"),
    ("Crossing", "Lake", 4, "pink"),
    ("Summit", "Lake", 3, "black"),
    ("Summit", "Old Pass", 3, "white"),
    ("Lake", "Old Pass", 3, "gray"),
    ("Old Pass", "Northgate", 3, "gray"),
    ("Lake", "Northgate", 3, "red"),
    ("Crossing", "Northgate", 6, "green"),
)
_PLANE_TICKETS: tuple[tuple[str, str], ...] = (
    ("Harbor", "Crossing"),
    ("Harbor", "Old Pass"),
    ("Crossing", "Summit"),
    ("Mill", "Northgate"),
    ("Harbor", "Lake"),
)


class StarterError(ValueError):
    """A starter map cannot be written: bad id, existing file, missing folder."""


def map_id_pattern() -> str:
    """The pattern map ids must match, read from the bundled schema."""
    from ttr_maps.checks.schema import map_schema

    return str(map_schema()["properties"]["id"]["pattern"])


def check_map_id(map_id: str) -> None:
    """Raise `StarterError` unless `map_id` matches the schema's id pattern."""
    pattern = map_id_pattern()
    if not re.search(pattern, map_id):
        raise StarterError(
            f"map id {map_id!r} is not valid: use lowercase letters, digits and "
            f"underscores, starting with a letter (pattern {pattern}), e.g. 'my_map'"
        )


#: The schema's copy `ttr new` writes beside a map outside the checkout.
SCHEMA_COPY = "map.schema.json"


def default_schema_reference(target: str | Path) -> str:
    """What the modeline of a new file at `target` points at: a relative path,
    which works on any machine the folder is copied to.

    Inside the checkout that holds the schema (like the bundled maps), the path to
    `schemas/map.schema.json`. Anywhere else, `SCHEMA_COPY` beside the map
    (`write_schema_copy` puts it there).
    """
    from ttr_maps.io.bundled import schema_path

    schema = schema_path().resolve()
    folder = Path(target).resolve().parent
    project = schema.parent.parent
    if folder == project or project in folder.parents:
        return Path(os.path.relpath(schema, folder)).as_posix()
    return SCHEMA_COPY


def write_schema_copy(target: str | Path) -> Path | None:
    """Write the schema `default_schema_reference` names beside a map at `target`
    outside the checkout, unless a file of that name is there already (yours, or an
    earlier copy: never replaced). The path written, or None."""
    from ttr_maps.io.bundled import schema_path

    if default_schema_reference(target) != SCHEMA_COPY:
        return None
    copy = Path(target).resolve().parent / SCHEMA_COPY
    if copy.exists() or copy.is_symlink():
        return None
    write_text_atomically(copy, schema_path().read_text(encoding="utf-8"))
    return copy


def _title(map_id: str) -> str:
    return " ".join(word.capitalize() for word in map_id.split("_") if word)


def _number(value: float) -> str:
    return f"{value:g}"


def _color(color: str | list[str]) -> str:
    return f"[{', '.join(color)}]" if isinstance(color, list) else color


def starter_map_text(
    map_id: str,
    *,
    coordinates: CoordinateKind = "geographic",
    schema_ref: str = "map.schema.json",
    name: str | None = None,
    cities: dict[str, tuple[float, float]] | None = None,
) -> str:
    """The YAML text of a starter map. Ticket values are computed (R2). Given
    `cities` (name -> lat, lon), the map has those, joined as `starter_routes` says,
    and tickets between the farthest of them."""
    from ttr_maps.graph import shortest_wagon_distance
    from ttr_maps.io.yaml_text import lint_clean

    check_map_id(map_id)
    geographic = coordinates == "geographic" or cities is not None
    coordinates = "geographic" if geographic else "plane"
    given = cities
    if cities is not None:
        routes = starter_routes(cities)
        ticket_pairs = _farthest_pairs(cities, routes)
    else:
        cities = _GEOGRAPHIC_CITIES if geographic else _PLANE_CITIES
        routes = _GEOGRAPHIC_ROUTES if geographic else _PLANE_ROUTES
        ticket_pairs = _GEOGRAPHIC_TICKETS if geographic else _PLANE_TICKETS
    keys = ("lat", "lon") if geographic else ("x", "y")
    data: dict[str, Any] = {
        "format": 1,
        "id": map_id,
        "name": name or _title(map_id),
        "coordinates": coordinates,
        "cities": {c: {keys[0]: p[0], keys[1]: p[1]} for c, p in cities.items()},
        "routes": [{"between": [a, b], "length": n, "color": c} for a, b, n, c in routes],
        "tickets": [],
    }
    game_map = Map.from_data(data)
    values = [shortest_wagon_distance(game_map, a, b) for a, b in ticket_pairs]

    verdict = "It validates clean" if given is None else "It has no errors"
    where = (
        "Cities are real towns at their latitude and longitude in degrees."
        if geographic
        else "Cities sit on a plane: x to the right, y upwards, in any unit."
    )
    lines = [
        f"{MODELINE_PREFIX}{schema_ref}",
        "#",
        f"# {data['name']}: a starter map made by `ttr new`. {verdict}; grow it",
        "# from here. The loop: ttr validate -> ttr fix -> ttr preview -> ttr stats.",
        f"# {where}",
        "# See docs/authoring.md and docs/map-format.md.",
        f"# {len(cities)} cities are too few for real games: too little track for "
        f"{BASE.wagons} wagons and",
        "# too few tickets (TTR451, TTR352). Delete the next line once the map has grown.",
        "# ttr: disable=TTR352,TTR451",
        "format: 1",
        f"id: {map_id}",
        f"name: {json.dumps(data['name'], ensure_ascii=False)}",
        "rules: base  # or europe: stations, tunnels (tunnel: true), ferries (ferry: N)",
        f"coordinates: {coordinates}",
        "settings:",
        f"  wagons: {BASE.wagons}  # per player (R4)",
        "",
        "cities:",
    ]
    for city, (first, second) in cities.items():
        lines.append(f"  {city}: {{{keys[0]}: {_number(first)}, {keys[1]}: {_number(second)}}}")
    lines += [
        "",
        "# length 1-8; color: red orange yellow green blue pink black white or gray.",
        "# A double route lists two colors, one per track.",
        "routes:",
    ]
    for a, b, length, color in routes:
        lines.append(f"  - {{between: [{a}, {b}], length: {length}, color: {_color(color)}}}")
    lines += [
        "",
        "# value: the shortest distance in wagons (R2). `ttr fix` rewrites wrong values.",
        "tickets:",
    ]
    for (a, b), value in zip(ticket_pairs, values, strict=True):
        lines.append(f"  - {{between: [{a}, {b}], value: {value}}}")
    return lint_clean("\n".join(lines) + "\n")  # as a default yamllint run wants it


#: Characters a modeline's schema reference may not hold: YAML line breaks
#: (which would end the comment and start map text) and other control characters.
_NOT_IN_REFERENCE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]")


def check_schema_reference(reference: str) -> None:
    """Refuse a schema reference that cannot sit on the one modeline comment.

    >>> check_schema_reference("a\\nb: 1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ttr_maps.authoring.starter.StarterError: --schema: a line break or control character (\\x0a) ...
    """
    found = _NOT_IN_REFERENCE.search(reference)
    if not reference.strip():
        raise StarterError("--schema: give a URL or a path")
    if found:
        shown = for_terminal(found.group())
        raise StarterError(
            f"--schema: a line break or control character ({shown}) cannot be in the modeline"
        )


def write_starter_map(
    path: str | Path,
    map_id: str,
    *,
    coordinates: CoordinateKind = "geographic",
    schema_ref: str | None = None,
    force: bool = False,
    cities: dict[str, tuple[float, float]] | None = None,
) -> Path:
    """Write a starter map to `path`, atomically.

    Refuses to replace an existing file unless `force`. `schema_ref` defaults to
    `default_schema_reference(path)`.
    """
    target = Path(path)
    check_map_id(map_id)
    if target.is_dir():
        raise StarterError(f"{target}: is a folder; give a file name such as {map_id}.yaml")
    if target.exists() and not force:
        raise StarterError(f"{target}: already exists; use --force to replace it")
    try:
        check_output_path(target)
    except OutputPathError as error:
        raise StarterError(str(error)) from None
    if schema_ref is not None:
        check_schema_reference(schema_ref)
    reference = schema_ref if schema_ref is not None else default_schema_reference(target)
    text = starter_map_text(map_id, coordinates=coordinates, schema_ref=reference, cities=cities)
    try:
        write_text_atomically(target, text)
        if schema_ref is None:
            write_schema_copy(target)
    except OSError as error:
        raise StarterError(f"{target}: cannot write ({error.strerror or error})") from None
    return target


# ---------------------------------------------------------------- a starter of given cities

#: Wagon spaces of the middle route of a starter drawn on given cities.
MIDDLE_ROUTE_SPACES = 3
#: Most cities `ttr new --cities` takes (a starter, not a whole map).
MAX_STARTER_CITIES = 60
_GIVEN = re.compile(r"^(?P<name>[^()]+?)\s*(?:\((?P<hint>[^()]*)\))?$")


def parse_city_list(text: str) -> list[tuple[str, str | None, tuple[float, float] | None]]:
    """`"Oslo, Bergen (NO), Springfield (39.80, -89.64)"` as (name, country, position)
    each: a country code or a position in brackets settles a doubtful name.

    >>> parse_city_list("Oslo, Bergen (no), Springfield (39.8, -89.64)")
    [('Oslo', None, None), ('Bergen', 'NO', None), ('Springfield', None, (39.8, -89.64))]
    """
    parts, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    found: list[tuple[str, str | None, tuple[float, float] | None]] = []
    for part in (p.strip() for p in parts):
        if not part:
            continue
        matched = _GIVEN.match(part)
        if matched is None or depth != 0:
            raise StarterError(
                f"--cities: cannot read {part!r} (write 'Name', 'Name (CC)' or 'Name (lat, lon)')"
            )
        name, hint = matched["name"].strip(), (matched["hint"] or "").strip()
        position = None
        if "," in hint:
            try:
                lat, lon = (float(v) for v in hint.split(","))
            except ValueError:
                raise StarterError(f"--cities: {part!r}: the position is two numbers") from None
            if not (-90 <= lat <= 90 and -180 <= lon <= 180):
                raise StarterError(f"--cities: {part!r}: not a latitude and longitude")
            position = (lat, lon)
        elif hint and not re.fullmatch(r"[A-Za-z]{2}", hint):
            raise StarterError(
                f"--cities: {part!r}: in brackets, a two-letter country code or a position"
            )
        found.append((name, hint.upper() if hint and position is None else None, position))
    return found


@dataclass(frozen=True)
class PlacedCities:
    """The cities of a `--cities` list (name -> lat, lon, in the list's order) and
    what is to be said of them: a city taken though far from the others."""

    cities: dict[str, tuple[float, float]]
    warnings: tuple[str, ...] = ()


def place_cities(text: str, country: str | None = None) -> PlacedCities:
    """The cities of a `--cities` list at their real positions, near each other
    (`look_up_places`), each named as typed (`board_name`); every name that cannot
    be placed, or only far from the others without its country named, is named in
    one `StarterError`, with its choices."""
    from ttr_maps.authoring.gazetteer import look_up_places

    wanted = parse_city_list(text)
    if len(wanted) < 2:
        raise StarterError("--cities: give at least two cities, separated by commas")
    if len(wanted) > MAX_STARTER_CITIES:
        raise StarterError(f"--cities: at most {MAX_STARTER_CITIES} cities in a starter")
    towns = {n: p for n, _, p in wanted if p is not None}
    queries = [(n, c) for n, c, p in wanted if p is None]
    looked = iter(look_up_places(queries, country=country, towns=towns))
    cities: dict[str, tuple[float, float]] = {}
    problems, warnings = [], []
    for name, _, position in wanted:
        if position is None:
            lookup = next(looked)
            if lookup.place is None:
                problems.append(lookup.message())
                continue
            if lookup.far_km is not None:  # the designer named its country: said, not refused
                warnings.append(lookup.message())
            place = lookup.place
            name = lookup.name
            position = (round(place.latitude, 4), round(place.longitude, 4))
        if name in cities:
            problems.append(f"{name!r} is in the list twice")
        cities[name] = position
    if problems:
        raise StarterError("--cities: " + "\n  ".join(problems))
    spots: dict[tuple[float, float], str] = {}
    for name, position in cities.items():
        if position in spots:
            raise StarterError(f"--cities: {spots[position]} and {name} are at one place")
        spots[position] = name
    return PlacedCities(cities, tuple(warnings))


def starter_routes(
    cities: dict[str, tuple[float, float]],
) -> list[tuple[str, str, int, str | list[str]]]:
    """Routes between given cities: two are joined when no third city lies in the
    circle on their straight line (the Gabriel graph: every city reached, no long
    route past a nearer city), their lengths from distance with the middle route
    `MIDDLE_ROUTE_SPACES` long (1 to 8), colours balanced as the published boards
    are, gray included (`balanced_colors`)."""
    import math

    from ttr_maps.geometry.projection import project_lat_lon
    from ttr_maps.model import ROUTE_COLORS
    from ttr_maps.rules import route_lengths

    names = list(cities)
    reference = sum(lat for lat, _ in cities.values()) / len(cities)
    points = {n: project_lat_lon(*cities[n], reference) for n in names}
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            middle = ((points[a][0] + points[b][0]) / 2, (points[a][1] + points[b][1]) / 2)
            radius = math.dist(points[a], points[b]) / 2
            if all(math.dist(points[c], middle) >= radius for c in names if c not in (a, b)):
                pairs.append((a, b, 2 * radius))
    distances = sorted(d for _, _, d in pairs)
    per_space = distances[len(distances) // 2] / MIDDLE_ROUTE_SPACES
    spaces = dict.fromkeys(ROUTE_COLORS, 0)
    routes: list[tuple[str, str, int, str | list[str]]] = []
    links = [(a, b) for a, b, _ in pairs]
    for a, b, distance in pairs:
        lengths = route_lengths()
        # R10: the base points table scores routes up to 8; longer ones need settings.
        longest = min(lengths.maximum, BASE.longest_scored_route)
        length = max(lengths.minimum, min(longest, round(distance / per_space)))
        tracks = 2 if _is_bridge((a, b), links, names) else 1
        colors = balanced_colors(spaces, tracks, length)
        for color in colors:
            spaces[color] += length
        routes.append((a, b, length, colors[0] if tracks == 1 else list(colors)))
    return routes


def _is_bridge(link: tuple[str, str], links: list[tuple[str, str]], names: list[str]) -> bool:
    """Whether the cities fall apart without `link` (a dead end's only route, or
    the one way between two parts): such a route is made double, so that one
    claim does not shut every other player out."""
    reached, todo = {names[0]}, [names[0]]
    while todo:
        city = todo.pop()
        for a, b in links:
            if (a, b) != link and city in (a, b):
                other = b if city == a else a
                if other not in reached:
                    reached.add(other)
                    todo.append(other)
    return len(reached) < len(names)


#: The share of a board's wagon spaces that are gray, as on the published boards
#: bundled in maps/ (all their spaces together: 29 %; each board 17 % to 46 %;
#: `tests/maps/authoring/test_colors.py` measures it again from the files).
PUBLISHED_GRAY_SHARE = 0.29


def balanced_colors(
    spaces: dict[str, int], count: int = 1, length: int = 1, first: str | None = None
) -> tuple[str, ...]:
    """The colours of a new route of `count` tracks of `length` spaces that keep a
    board's colours balanced as the published boards do (R3): gray for
    `PUBLISHED_GRAY_SHARE` of the spaces, the eight card colours alike for the
    rest. Each colour's want is its share of the spaces with this route laid, less
    the spaces it has (`spaces`, colour -> spaces so far); the colour wanted most
    is taken (ties: in the rule book's order, gray last). A double route is two
    gray tracks or two card colours, as on the published boards; `first` is the
    colour its first track has already.

    >>> balanced_colors({}, 2)  # an empty board wants gray most
    ('gray', 'gray')
    >>> balanced_colors({"gray": 10, "red": 3, "orange": 0, "yellow": 1}, 2)
    ('orange', 'green')
    >>> balanced_colors({"gray": 0}, 2, 3, first="red")
    ('red', 'orange')
    """
    from ttr_maps.model import GRAY
    from ttr_maps.rules import CARD_COLORS

    total = sum(spaces.values()) + count * length
    share = {GRAY: PUBLISHED_GRAY_SHARE} | dict.fromkeys(
        CARD_COLORS, (1 - PUBLISHED_GRAY_SHARE) / len(CARD_COLORS)
    )
    if first is not None:
        spaces = {**spaces, first: spaces.get(first, 0) + length}
    order = (*CARD_COLORS, GRAY)

    def want(color: str) -> tuple[float, int]:
        return (share[color] * total - spaces.get(color, 0), -order.index(color))

    if first is not None:
        if first == GRAY:
            return (GRAY, GRAY)
        return (first, max((c for c in CARD_COLORS if c != first), key=want))
    if count == 1 or max(order, key=want) == GRAY:
        return (max(order, key=want),) * count
    return tuple(sorted(CARD_COLORS, key=want, reverse=True)[:count])


def _farthest_pairs(
    cities: dict[str, tuple[float, float]], routes: list[tuple[str, str, int, str | list[str]]]
) -> list[tuple[str, str]]:
    """Tickets between the pairs farthest apart in wagons, first those naming cities
    no ticket names yet, until every city is on one (at least five tickets where
    there are pairs enough, each city on two at most)."""
    from ttr_maps.graph import shortest_wagon_distance

    game_map = Map.from_data(
        {
            "id": "starter",
            "name": "starter",
            "cities": {n: {"lat": p[0], "lon": p[1]} for n, p in cities.items()},
            "routes": [{"between": [a, b], "length": n, "color": c} for a, b, n, c in routes],
        }
    )
    names = list(cities)
    distance = {
        (a, b): shortest_wagon_distance(game_map, a, b) or 0
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    }
    uses = dict.fromkeys(names, 0)
    chosen: list[tuple[str, str]] = []
    while True:
        open_pairs = [p for p in distance if p not in chosen and uses[p[0]] < 2 and uses[p[1]] < 2]
        unnamed = sum(1 for n in names if not uses[n])
        if not open_pairs or (not unnamed and len(chosen) >= 5):
            return chosen
        a, b = max(open_pairs, key=lambda p: ((not uses[p[0]]) + (not uses[p[1]]), distance[p]))
        chosen.append((a, b))
        uses[a] += 1
        uses[b] += 1


def empty_map_text(map_id: str, *, coordinates: CoordinateKind, schema_ref: str) -> str:
    """A map with no city yet, for `ttr edit NEW.yaml` to draw on: it does not
    validate (a map needs two cities and a route) until the designer has drawn.

    >>> print(empty_map_text("fjords", coordinates="geographic", schema_ref="s.json"), end="")
    # yaml-language-server: $schema=s.json
    format: 1
    id: fjords
    name: "Fjords"
    rules: base
    coordinates: geographic
    <BLANKLINE>
    cities: {}
    <BLANKLINE>
    routes: []
    <BLANKLINE>
    tickets: []
    """
    check_map_id(map_id)
    return (
        f"{MODELINE_PREFIX}{schema_ref}\nformat: 1\nid: {map_id}\n"
        f"name: {json.dumps(_title(map_id), ensure_ascii=False)}\nrules: base\n"
        f"coordinates: {coordinates}\n\ncities: {{}}\n\nroutes: []\n\ntickets: []\n"
    )
