"""CSV import and export of cities, routes and tickets, and the board as a picture.

Column guide (a header row names the columns; their order is free; docs/authoring.md):

- **cities**: `name`, and `lat`, `lon` (or `x`, `y` on a plane map). A city
  without a position is looked up in the gazetteer near the map's other cities
  (`look_up_places`: a place only far from them, or two near them, is refused
  with the choices; a `country` column, a two-letter code, settles it), else
  placed at the middle of the placed cities the routes imported with it join.
- **routes**: `a`, `b`, `length`, `color` (a second track: `color2`), `tunnel`
  (`true`/`false`), `ferry` (locomotives).
- **tickets**: `a`, `b`, `value` (empty: worked out from the routes, R2), `long`.

Several tables may come in one import (which is which is read off each header):
cities, then routes, then tickets are added. Rows are added through the editor's
own edits (one undo step for the whole import); an import with bad rows names
every one of them by its line (up to `MAX_PROBLEMS`) and changes nothing.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterator
from typing import Any

from ttr_core.edit import edits as ed
from ttr_core.edit.state import Checked
from ttr_maps.text import glimpse

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
    """The rows of a table (line number, column -> text), a file CSV cannot read
    (a field past the csv module's limit, a line break in an unquoted field) a
    `TableError` naming where."""
    reader = csv.DictReader(io.StringIO(csv_text, newline=""))
    try:
        yield from _read_rows(reader, what)
    except csv.Error as problem:
        raise TableError(f"line {reader.line_num + 1}: not readable as CSV ({problem})") from None


def _read_rows(reader: csv.DictReader, what: str) -> Iterator[tuple[int, dict]]:
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
        raise TableError(f"line {line}: {name} {glimpse(text)!r} is not a number") from None
    if not math.isfinite(value):
        raise TableError(f"line {line}: {name} must be a finite number")
    return value


def _whole(text: str, line: int, name: str, default: int | None = None) -> int:
    if not text and default is not None:
        return default
    if not (text.isascii() and text.isdigit()):
        raise TableError(f"line {line}: {name} {glimpse(text)!r} is not a whole number")
    if len(text) > MAX_DIGITS:
        raise TableError(f"line {line}: {name} {glimpse(text)!r} is far too large")
    return int(text)


#: Most digits of a whole number in a table (no count on a board has more).
MAX_DIGITS = 9


def _flag(text: str, line: int, name: str) -> bool:
    if text.lower() in ("", "false", "no", "0"):
        return False
    if text.lower() in ("true", "yes", "1"):
        return True
    raise TableError(f"line {line}: {name} {text!r} is not true or false")


def table_of(csv_text: str) -> str:
    """Which table a CSV file holds, read off its header: a `name` column is
    cities, a `length` column routes, else (`a`, `b`) tickets."""
    try:
        first = next(csv.reader(io.StringIO(csv_text, newline="")), [])
    except csv.Error as problem:
        raise TableError(f"line 1: not readable as CSV ({problem})") from None
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
    problems: list[str] = []
    try:
        if "cities" in rows:
            text = _import_cities(
                text, checked, rows["cities"], rows.get("routes", []), country, problems
            )
        for line, row in rows.get("routes", []):
            text = _row(problems, text, lambda t, ln=line, r=row: _add_route(t, ln, r))
        if "tickets" in rows:
            text = _import_tickets(text, rows["tickets"], problems)
    except ed.EditError as problem:
        problems.append(str(problem))
    if problems:  # every bad row named at once; nothing is added then
        more = len(problems) - MAX_PROBLEMS
        raise TableError(
            "; ".join(problems[:MAX_PROBLEMS]) + (f" (and {more} more)" if more > 0 else "")
        )
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
    problems: list[str],
) -> str:
    columns = _columns(checked, "cities")
    given: dict[str, tuple[float, float]] = {}
    unplaced: dict[str, int] = {}
    countries: dict[str, str] = {}
    good: list[tuple[int, dict[str, str]]] = []
    for line, row in rows:
        try:
            name = _line(line, ed.check_name, row["name"])
            first, second = row.get(columns[1], ""), row.get(columns[2], "")
            code = row.get("country", "")
            if code and not re.fullmatch("[A-Za-z]{2}", code):
                raise TableError(f"line {line}: country {code!r} is not a two-letter code")
            if first and second:
                given[name] = (_number(first, line, columns[1]), _number(second, line, columns[2]))
            elif first or second:
                raise TableError(f"line {line}: {name} has {columns[1]} or {columns[2]}, not both")
            else:
                unplaced[name] = line
            if code:
                countries[name] = code.upper()
            good.append((line, row))
        except TableError as problem:
            problems.append(str(problem))
    rows = good
    if unplaced and checked.drawable.is_geographic:
        from ttr_maps.authoring.gazetteer import GazetteerMissing, look_up_places

        towns = {c.name: c.position for c in checked.drawable.cities} | given
        queries = [(n, countries.get(n)) for n in unplaced]
        try:
            looked = look_up_places(queries, country=country, towns=towns)
        except GazetteerMissing as missing:
            raise TableError(f"line {min(unplaced.values())}: {missing}") from None
        for lookup in looked:
            if lookup.place is not None:
                given[lookup.query] = (lookup.place.latitude, lookup.place.longitude)
            elif lookup.choices:  # ambiguous, or only far from the map: never silent
                problems.append(f"line {unplaced.pop(lookup.query)}: {lookup.message()}")
    known = {c.name: c.position for c in checked.drawable.cities} | given
    waiting = [n for n in unplaced if n not in given]
    while waiting:  # placed from the routes, round by round
        placed = {n: _between(n, known, routes) for n in waiting}
        placed = {n: p for n, p in placed.items() if p is not None}
        if not placed:
            problems.extend(
                f"line {unplaced[name]}: {name} has no position, no place of that name is "
                "in the gazetteer, and no imported route joins it to a placed city"
                for name in waiting
            )
            break
        known |= placed
        given |= placed
        waiting = [n for n in waiting if n not in placed]
    by_line = {row["name"]: line for line, row in rows}
    for name in sorted(given, key=lambda n: by_line[n]):
        board = None
        if checked.drawing.geometry.laid_out:
            board = checked.drawing.frame.board_of_position(given[name])
        edit = ed.AddCity(name, given[name], board)
        text = _row(
            problems, text, lambda t, n=by_line[name], e=edit: _line(n, ed.apply_edit, t, e)
        )
    return text


#: Most bad rows one refused import names (the rest are counted).
MAX_PROBLEMS = 50


def _row(problems: list[str], text: str, work: Any) -> str:
    """`work(text)`, or `text` with the row's problem noted."""
    try:
        return work(text)
    except TableError as problem:
        problems.append(str(problem))
        return text


def _add_route(text: str, line: int, row: dict[str, str]) -> str:
    return _line(line, ed.apply_edit, text, _route_edit(line, row))


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


def _import_tickets(text: str, rows: list[tuple[int, dict[str, str]]], problems: list[str]) -> str:
    from ttr_core.edit.drawing import drawable_map
    from ttr_maps.graph import shortest_wagon_distance
    from ttr_maps.io.document import parse_text

    routed = drawable_map(parse_text(text).data)  # the map as the imported routes leave it
    names = {c.name for c in routed.cities}

    def add(text: str, line: int, row: dict[str, str]) -> str:
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
        return _line(line, ed.apply_edit, text, edit)

    for line, row in rows:
        text = _row(problems, text, lambda t, n=line, r=row: add(t, n, r))
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
