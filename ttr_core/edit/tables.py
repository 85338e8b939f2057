"""CSV import and export of cities, routes and tickets, and the board as a picture.

Column guide (a header row names the columns; their order is free; docs/authoring.md):

- **cities**: `name`, and `lat`, `lon` (or `x`, `y` on a plane map). A city
  without a position is looked up in the gazetteer as the page's search finds it
  (in the map's country first), else placed at the middle of the placed cities
  the routes imported with it join.
- **routes**: `a`, `b`, `length`, `color` (a second track: `color2`), `tunnel`
  (`true`/`false`), `ferry` (locomotives).
- **tickets**: `a`, `b`, `value` (empty: worked out from the routes, R2), `long`.

Several tables may come in one import (which is which is read off each header):
cities, then routes, then tickets are added. Rows are added through the editor's
own edits (one undo step for the whole import); a bad row stops the import with
its line number and changes nothing.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from typing import Any

from ttr_core.edit import edits as ed
from ttr_core.edit.state import Checked

TABLES = ("cities", "routes", "tickets")
COLUMNS = {
    "cities": ("name", "lat", "lon"),
    "routes": ("a", "b", "length", "color", "color2", "tunnel", "ferry"),
    "tickets": ("a", "b", "value", "long"),
}
#: Most rows one import adds.
MAX_ROWS = 2000


class TableError(ValueError):
    """A CSV file that cannot be imported (the message says which line and why)."""


def _columns(checked: Checked, what: str) -> tuple[str, ...]:
    if what == "cities" and checked.drawable.coordinates == "plane":
        return ("name", "x", "y")
    return COLUMNS[what]


def export_table(checked: Checked, what: str) -> str:
    """The map's cities, routes or tickets (as far as they are drawn) as CSV."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_columns(checked, what))
    game_map = checked.drawable
    if what == "cities":
        for city in game_map.cities:
            writer.writerow([city.name, *(f"{v:g}" for v in city.position)])
    elif what == "routes":
        entries: dict[int, list[Any]] = {}
        for route in game_map.routes:
            entries.setdefault(route.entry, []).append(route)
        for tracks in entries.values():
            first = tracks[0]
            second = tracks[1].color if len(tracks) > 1 else ""
            writer.writerow(
                [first.a, first.b, first.length, first.color, second, first.tunnel, first.ferry]
            )
    else:
        for ticket in game_map.tickets:
            writer.writerow([ticket.a, ticket.b, ticket.value, ticket.long])
    return out.getvalue()


def _rows(csv_text: str, what: str, columns: tuple[str, ...]) -> Iterator[tuple[int, dict]]:
    reader = csv.DictReader(io.StringIO(csv_text))
    header = [h.strip().lower() for h in reader.fieldnames or []]
    needed = {"cities": ("name",), "routes": ("a", "b", "length", "color"), "tickets": ("a", "b")}
    missing = [c for c in needed[what] if c not in header]
    if missing:
        raise TableError(f"line 1: the header needs the column(s) {', '.join(missing)}")
    reader.fieldnames = header
    for number, row in enumerate(reader, start=2):
        if number - 1 > MAX_ROWS:
            raise TableError(f"more than {MAX_ROWS} rows: import them in parts")
        clean = {k: (v or "").strip() for k, v in row.items() if isinstance(k, str)}
        if any(clean.values()):
            yield number, clean


def _number(text: str, line: int, name: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise TableError(f"line {line}: {name} {text!r} is not a number") from None
    if not math.isfinite(value):
        raise TableError(f"line {line}: {name} must be a finite number")
    return value


def _whole(text: str, line: int, name: str, default: int | None = None) -> int:
    if not text and default is not None:
        return default
    if not text.isdecimal():
        raise TableError(f"line {line}: {name} {text!r} is not a whole number")
    return int(text)


def _flag(text: str, line: int, name: str) -> bool:
    if text.lower() in ("", "false", "no", "0"):
        return False
    if text.lower() in ("true", "yes", "1"):
        return True
    raise TableError(f"line {line}: {name} {text!r} is not true or false")


def table_of(csv_text: str) -> str:
    """Which table a CSV file holds, read off its header: a `name` column is
    cities, a `length` column routes, else (`a`, `b`) tickets."""
    first = next(csv.reader(io.StringIO(csv_text)), [])
    header = {h.strip().lower() for h in first}
    if "name" in header:
        return "cities"
    if "length" in header:
        return "routes"
    if {"a", "b"} <= header:
        return "tickets"
    raise TableError("line 1: not a table of cities (name), routes (length) or tickets (a, b)")


def import_tables(
    text: str, checked: Checked, tables: dict[str, str], country: str | None
) -> tuple[str, int]:
    """The text with the rows of the CSV tables (what -> CSV text) added, and how
    many were added: cities first, those without a position from the gazetteer
    (the page's search: accents and other names; the batch's own places settle
    doubtful names, in the map's country first) or else between the placed cities
    the routes join them to, then routes, then tickets (a missing value is the
    distance on the map as the routes leave it, R2). Every row that cannot be
    placed is named at once; nothing is added then."""
    rows = {what: list(_rows(tables[what], what, _columns(checked, what))) for what in tables}
    added = 0
    try:
        if "cities" in rows:
            text = _import_cities(text, checked, rows["cities"], rows.get("routes", []), country)
        for line, row in rows.get("routes", []):
            text = _line(line, ed.apply_edit, text, _route_edit(line, row))
        if "tickets" in rows:
            text = _import_tickets(text, rows["tickets"])
    except ed.EditError as problem:
        raise TableError(str(problem)) from None
    added = sum(len(r) for r in rows.values())
    if not added:
        raise TableError("the CSV has no rows to import")
    return text, added


def _import_cities(
    text: str,
    checked: Checked,
    rows: list[tuple[int, dict[str, str]]],
    routes: list[tuple[int, dict[str, str]]],
    country: str | None,
) -> str:
    columns = _columns(checked, "cities")
    given: dict[str, tuple[float, float]] = {}
    unplaced: dict[str, int] = {}
    for line, row in rows:
        name = _line(line, ed.check_name, row["name"])
        first, second = row.get(columns[1], ""), row.get(columns[2], "")
        if first and second:
            given[name] = (_number(first, line, columns[1]), _number(second, line, columns[2]))
        elif first or second:
            raise TableError(f"line {line}: {name} has {columns[1]} or {columns[2]}, not both")
        else:
            unplaced[name] = line
    if unplaced and checked.drawable.is_geographic:
        from ttr_maps.authoring.gazetteer import look_up_places

        problems = []
        for lookup in look_up_places([(n, None) for n in unplaced], country=country):
            if lookup.place is not None:
                given[lookup.query] = (lookup.place.latitude, lookup.place.longitude)
            elif lookup.choices:
                problems.append(f"line {unplaced[lookup.query]}: {lookup.message()}")
        if problems:
            raise TableError("; ".join(problems))
    known = {c.name: c.position for c in checked.drawable.cities} | given
    waiting = [n for n in unplaced if n not in given]
    while waiting:  # placed from the routes, round by round
        placed = {n: _between(n, known, routes) for n in waiting}
        placed = {n: p for n, p in placed.items() if p is not None}
        if not placed:
            name = waiting[0]
            raise TableError(
                f"line {unplaced[name]}: {name} has no position, no place of that name is "
                "in the gazetteer, and no imported route joins it to a placed city"
            )
        known |= placed
        given |= placed
        waiting = [n for n in waiting if n not in placed]
    by_line = {row["name"]: line for line, row in rows}
    for name in sorted(given, key=lambda n: by_line[n]):
        board = None
        if checked.drawing.geometry.laid_out:
            board = checked.drawing.frame.board_of_position(given[name])
        text = _line(by_line[name], ed.apply_edit, text, ed.AddCity(name, given[name], board))
    return text


def _between(
    name: str, known: dict[str, tuple[float, float]], routes: list[tuple[int, dict[str, str]]]
) -> tuple[float, float] | None:
    """The middle of the placed cities the imported routes join `name` to."""
    neighbours = [
        known[other]
        for _, row in routes
        if name in (row.get("a"), row.get("b"))
        for other in (row.get("a"), row.get("b"))
        if other != name and other in known
    ]
    if not neighbours:
        return None
    return (
        sum(p[0] for p in neighbours) / len(neighbours),
        sum(p[1] for p in neighbours) / len(neighbours),
    )


def _route_edit(line: int, row: dict[str, str]) -> ed.AddRoute:
    colors = tuple(c for c in (row.get("color", ""), row.get("color2", "")) if c)
    return ed.AddRoute(
        row["a"],
        row["b"],
        _whole(row.get("length", ""), line, "length"),
        colors,
        _flag(row.get("tunnel", ""), line, "tunnel"),
        _whole(row.get("ferry", ""), line, "ferry", 0),
    )


def _import_tickets(text: str, rows: list[tuple[int, dict[str, str]]]) -> str:
    from ttr_core.edit.drawing import drawable_map
    from ttr_maps.graph import shortest_wagon_distance
    from ttr_maps.io.document import parse_text

    routed = drawable_map(parse_text(text).data)  # the map as the imported routes leave it
    names = {c.name for c in routed.cities}
    for line, row in rows:
        a, b = row["a"], row["b"]
        if row.get("value", ""):
            value = _whole(row["value"], line, "value")
        else:
            found = None
            if a in names and b in names and a != b:
                found = shortest_wagon_distance(routed, a, b)
            if found is None:
                raise TableError(f"line {line}: no value, and no routes join {a} and {b}")
            value = found
        edit = ed.AddTicket(a, b, value, _flag(row.get("long", ""), line, "long"))
        text = _line(line, ed.apply_edit, text, edit)
    return text


def _line(line: int, work: Any, *args: Any) -> Any:
    """`work(*args)`, an `EditError` named by its CSV line."""
    try:
        return work(*args)
    except ed.EditError as problem:
        raise TableError(f"line {line}: {problem}") from None


def board_picture(checked: Checked) -> bytes:
    """The board as `ttr preview` draws it, as PNG bytes."""
    import tempfile
    from pathlib import Path

    from ttr_maps.render.draw import render_map

    with tempfile.TemporaryDirectory(prefix="ttr-edit-") as folder:
        target = Path(folder) / "board.png"
        render_map(checked.drawable, target, title=checked.drawable.name)
        return target.read_bytes()


def standalone_svg(svg: str) -> str:
    """The board's SVG as a file of its own: the page's stylesheet does not come
    along, so the look is written into it (the colours of `ttr preview`'s palette)."""
    from ttr_maps.render.palette import CAR_EDGE, CAR_FILL, CITY_FILL

    space = "var(--space)"
    rules = [
        f".car {{ stroke: {CAR_EDGE}; stroke-width: calc({space} * 0.02); }}",
        *(f".car-{color} {{ fill: {fill}; }}" for color, fill in CAR_FILL.items()),
        f".tunnel .car {{ stroke-dasharray: calc({space} * 0.06) calc({space} * 0.04); }}",
        f".loco-mark {{ fill: {CAR_EDGE}; }} .car-black ~ .loco-mark {{ fill: #fff; }}",
        f".city circle {{ fill: {CITY_FILL}; stroke: {CAR_EDGE}; "
        f"stroke-width: calc({space} * 0.05); }}",
        ".city text { fill: #26241f; font-family: 'DejaVu Sans', sans-serif; "
        "font-weight: 600; paint-order: stroke; stroke: #f4ecd8; "
        f"stroke-width: calc({space} * 0.09); stroke-linejoin: round; }}",
    ]
    head = svg.index(">") + 1
    return f"{svg[:head]}<style>{' '.join(rules)}</style>{svg[head:]}"
