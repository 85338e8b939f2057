"""CSV import and export of cities, routes and tickets, and the board as a picture.

Column guide (a header row names the columns; their order is free; docs/authoring.md):

- **cities**: `name`, and `lat`, `lon` (or `x`, `y` on a plane map). A city
  without a position is looked up in the gazetteer (in the map's country first),
  else placed at the middle of the placed cities its routes join.
- **routes**: `a`, `b`, `length`, `color` (a second track: `color2`), `tunnel`
  (`true`/`false`), `ferry` (locomotives).
- **tickets**: `a`, `b`, `value` (empty: worked out, R2), `long`.

Imported rows are added through the editor's own edits (one undo step for the
whole import); a bad row stops the import with its line number and changes nothing.
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


def import_table(
    text: str, checked: Checked, what: str, csv_text: str, country: str | None
) -> tuple[str, int]:
    """The text with the CSV's rows added, and how many were added."""
    columns = _columns(checked, what)
    added = 0
    rows = list(_rows(csv_text, what, columns))
    try:
        for line, row in rows:
            text = _import_row(text, checked, what, columns, line, row, country)
            added += 1
    except ed.EditError as problem:
        raise TableError(f"line {line}: {problem}") from None
    if not added:
        raise TableError("the CSV has no rows to import")
    return text, added


def _import_row(
    text: str,
    checked: Checked,
    what: str,
    columns: tuple[str, ...],
    line: int,
    row: dict[str, str],
    country: str | None,
) -> str:

    if what == "cities":
        name = ed.check_name(row["name"])
        first, second = row.get(columns[1], ""), row.get(columns[2], "")
        if first and second:
            position = (_number(first, line, columns[1]), _number(second, line, columns[2]))
        else:
            position = _unplaced(text, checked, name, country, line)
        board = None
        if checked.drawing.geometry.laid_out:
            board = checked.drawing.frame.board_of_position(position)
        return ed.apply_edit(text, ed.AddCity(name, position, board))
    if what == "routes":
        colors = tuple(c for c in (row.get("color", ""), row.get("color2", "")) if c)
        edit = ed.AddRoute(
            row["a"],
            row["b"],
            _whole(row.get("length", ""), line, "length"),
            colors,
            _flag(row.get("tunnel", ""), line, "tunnel"),
            _whole(row.get("ferry", ""), line, "ferry", 0),
        )
        return ed.apply_edit(text, edit)
    value_text = row.get("value", "")
    if value_text:
        value = _whole(value_text, line, "value")
    else:
        from ttr_maps.graph import shortest_wagon_distance

        found = None
        names = {c.name for c in checked.drawable.cities}
        if row["a"] in names and row["b"] in names and row["a"] != row["b"]:
            found = shortest_wagon_distance(checked.drawable, row["a"], row["b"])
        if found is None:
            raise TableError(f"line {line}: no value, and no routes join {row['a']} and {row['b']}")
        value = found
    return ed.apply_edit(
        text, ed.AddTicket(row["a"], row["b"], value, _flag(row.get("long", ""), line, "long"))
    )


def _unplaced(
    text: str, checked: Checked, name: str, country: str | None, line: int
) -> tuple[float, float]:
    """A position for a city the CSV gives none: the gazetteer's place of that
    name, else the middle of the placed cities the file's routes join it to."""
    if checked.drawable.is_geographic:
        from ttr_maps.io.gazetteer import search_places

        exact = [
            p for p in search_places(name, country=country) if p.name.casefold() == name.casefold()
        ]
        if exact:
            return (exact[0].latitude, exact[0].longitude)
    from ttr_maps.io.document import parse_text

    data = parse_text(text).data
    positions = {c.name: c.position for c in checked.drawable.cities}
    neighbours = []
    for route in data.get("routes") or [] if isinstance(data, dict) else []:
        between = route.get("between") if isinstance(route, dict) else None
        if isinstance(between, list) and name in between:
            neighbours += [positions[c] for c in between if c != name and c in positions]
    if not neighbours:
        raise TableError(
            f"line {line}: {name} has no position, no place of that name is in the "
            "gazetteer, and no route joins it to a placed city"
        )
    return (
        sum(p[0] for p in neighbours) / len(neighbours),
        sum(p[1] for p in neighbours) / len(neighbours),
    )


def board_picture(checked: Checked) -> bytes:
    """The board as `ttr preview` draws it, as PNG bytes."""
    import tempfile
    from pathlib import Path

    from ttr_maps.render.draw import render_map

    with tempfile.TemporaryDirectory(prefix="ttr-edit-") as folder:
        target = Path(folder) / "board.png"
        render_map(checked.drawable, target, title=checked.drawable.name)
        return target.read_bytes()
