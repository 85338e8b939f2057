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


def default_schema_reference(target: str | Path) -> str:
    """What the modeline of a new file at `target` points at.

    Inside the checkout that holds the schema (like the bundled maps), a relative
    path, which keeps working wherever the checkout is cloned. Anywhere else, a
    `file://` URI of the schema installed with ttr: it works on this machine; to
    share the file, point it at a copy of the schema you commit next to your maps
    (`ttr new --schema`).
    """
    from ttr_maps.io.bundled import schema_path

    schema = schema_path().resolve()
    folder = Path(target).resolve().parent
    project = schema.parent.parent
    if folder == project or project in folder.parents:
        return Path(os.path.relpath(schema, folder)).as_posix()
    return schema.as_uri()


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
) -> str:
    """The YAML text of a starter map. Ticket values are computed (R2)."""
    from ttr_maps.graph import shortest_wagon_distance

    check_map_id(map_id)
    geographic = coordinates == "geographic"
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

    where = (
        "Cities are real towns at their latitude and longitude in degrees."
        if geographic
        else "Cities sit on a plane: x to the right, y upwards, in any unit."
    )
    lines = [
        f"{MODELINE_PREFIX}{schema_ref}",
        "#",
        f"# {data['name']}: a starter map made by `ttr new`. It validates clean; grow it",
        "# from here. The loop: ttr validate -> ttr fix -> ttr preview -> ttr stats.",
        f"# {where}",
        "# See docs/authoring.md and docs/map-format.md.",
        f"# Seven cities are too few for real games: too little track for {BASE.wagons} wagons and",
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
    return "\n".join(lines) + "\n"


#: Characters a modeline's schema reference may not hold: YAML line breaks
#: (which would end the comment and start map text) and other control characters.
_NOT_IN_REFERENCE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff]")


def check_schema_reference(reference: str) -> None:
    """Refuse a schema reference that cannot sit on the one modeline comment.

    >>> check_schema_reference("a\\nb: 1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ttr_maps.io.starter.StarterError: --schema: a line break or control character (\\x0a) ...
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
    text = starter_map_text(map_id, coordinates=coordinates, schema_ref=reference)
    try:
        write_text_atomically(target, text)
    except OSError as error:
        raise StarterError(f"{target}: cannot write ({error.strerror or error})") from None
    return target
