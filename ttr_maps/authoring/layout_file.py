"""A board layout in a map file: the `layout:` section as YAML, stored into a map
file's text with everything else kept byte for byte, and what `ttr validate` then
says about the drawn board. `ttr layout --write` and the editor write layouts
through here; `ttr_maps.geometry.layout` computes them.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from ttr_maps.checks.layout import BOARD_CODES, REDO_ADVICE
from ttr_maps.checks.problem import Problem
from ttr_maps.checks.validate import validate_document
from ttr_maps.io.document import MapDocument, Position, parse_document
from ttr_maps.io.yaml_text import name_scalar
from ttr_maps.model import BoardLayout

#: What a line of the `layout:` section holds: ("cities", name), ("bends", (a, b)),
#: or None (the section's own keys).
Entry = tuple[str, str | tuple[str, str]] | None


@dataclass(frozen=True)
class LaidOutText:
    """A map file's text with a layout stored in it (`text`), and what `ttr validate`
    says about the drawn board (TTR551–TTR557), as `ttr layout` reports it: the
    advice to run `ttr layout` again is left out (it has just run).

    `problems` are placed in `text`, the file as `--write` leaves it; `unwritten`
    are the same problems placed in the file as it still is (no `--write`): a line
    before or after the layout section is where it was, and a problem in the
    section, which is not in that file, is placed at its city's entry under
    `cities:` (its route's entry, for a bend).
    """

    text: str
    problems: tuple[Problem, ...]
    unwritten: tuple[Problem, ...]


def laid_out_text(text: str, path: str, layout: BoardLayout) -> LaidOutText:
    """`text` (a map file's, named `path`) with `layout` stored in it (`with_layout`),
    and the board problems `ttr validate` then finds (see `LaidOutText`)."""
    start, end = _section_span(text)
    lines = _layout_lines(layout)
    section = "".join(f"{line}\n" for line, _ in lines)
    new_text = _spliced(text, start, end, section)
    report = validate_document(parse_document(new_text, path))
    problems = tuple(_without_redo(p) for p in report.problems if p.code in BOARD_CODES)
    # Lines of the new text: those before the section are the old lines; then the
    # section's (one per entry); then a blank line and the old lines after the
    # old section, if any.
    before = text[:start] if start is not None else _spliced(text, None, None, "")
    first = before.count("\n") + 1
    last = first + len(lines) - 1
    shift = last + 1 - text.count("\n", 0, end) if end is not None else 0
    old = parse_document(text, path)

    def old_line(line: int) -> int:
        return line if line < first else line - shift

    def placed(problem: Problem) -> Problem:
        line = problem.position.line
        if first <= line <= last:
            position = _entry_position(old, lines[line - first][1])
        else:
            position = Position(old_line(line), problem.position.column)
        message = _lines_in_message(problem.message, old_line)
        return dataclasses.replace(problem, position=position, message=message)

    return LaidOutText(new_text, problems, tuple(placed(p) for p in problems))


def _without_redo(problem: Problem) -> Problem:
    """A problem as `ttr layout` reports it: without the advice to run it again."""
    message = problem.message.replace(f", {REDO_ADVICE}", "")
    return dataclasses.replace(problem, message=message)


def _lines_in_message(message: str, old_line: Callable[[int], int]) -> str:
    """`message` with its "(line N)" references placed in the file as it was."""
    return re.sub(r"\(line (\d+)\)", lambda m: f"(line {old_line(int(m.group(1)))})", message)


def _entry_position(document: MapDocument, entry: Entry) -> Position:
    """Where, in a map file without the new layout, the thing a line of the layout
    section places is defined: a city's entry, a bend's route, else the file's start."""
    data = document.data if isinstance(document.data, dict) else {}
    if entry is not None and entry[0] == "cities":
        return document.position(("cities", entry[1]), key=True)
    if entry is not None and entry[0] == "bends":
        for index, route in enumerate(data.get("routes") or []):
            between = route.get("between") if isinstance(route, dict) else None
            if isinstance(between, list) and set(between) == set(entry[1]):
                return document.position(("routes", index))
    return document.position(("layout",) if "layout" in data else ())


def layout_yaml(layout: BoardLayout) -> str:
    """The `layout:` section of a map file, one flow-style line per city and bend.

    >>> print(layout_yaml(BoardLayout(cities={"Den Haag": (1.0, 2.5)},
    ...     labels={"Den Haag": (0.0, -1.0)}, bends={("Den Haag", "Köln"): ((3.0, 4.0),)},
    ...     size=(80.0, 53.0), pinned=frozenset({"Den Haag"}))), end="")
    layout:
      board: {width: 80.0, height: 53.0}
      cities:
        Den Haag: {x: 1.0, y: 2.5, label: [0.0, -1.0], pin: true}
      bends:
        - {between: [Den Haag, Köln], points: [[3.0, 4.0]]}
    """
    return "".join(f"{line}\n" for line, _ in _layout_lines(layout))


def _layout_lines(layout: BoardLayout) -> list[tuple[str, Entry]]:
    """The lines of the `layout:` section, each with what it places."""
    lines: list[tuple[str, Entry]] = [("layout:", None)]
    if layout.size is not None:
        lines.append((f"  board: {{width: {layout.size[0]}, height: {layout.size[1]}}}", None))
    lines.append(("  cities:", None))
    for name, (x, y) in layout.cities.items():
        label = layout.labels.get(name)
        extra = f", label: [{label[0]}, {label[1]}]" if label is not None else ""
        extra += ", pin: true" if name in layout.pinned else ""
        lines.append((f"    {name_scalar(name)}: {{x: {x}, y: {y}{extra}}}", ("cities", name)))
    if layout.bends:
        lines.append(("  bends:", None))
        for (a, b), points in layout.bends.items():
            shown = ", ".join(f"[{x}, {y}]" for x, y in points)
            line = f"    - {{between: [{name_scalar(a)}, {name_scalar(b)}], points: [{shown}]}}"
            lines.append((line, ("bends", (a, b))))
    return lines


def with_layout(text: str, layout: BoardLayout) -> str:
    """A map file's text with its `layout:` section replaced by `layout` (or added
    at the end). Everything else, comments included, stays byte for byte; comment
    lines indented inside an old `layout:` section go with it."""
    start, end = _section_span(text)
    return _spliced(text, start, end, layout_yaml(layout))


def _section_span(text: str) -> tuple[int | None, int | None]:
    """Where the `layout:` section of `text` starts and where what follows it
    starts (None: at the end), or (None, None) without one."""
    match = re.search(r"^layout:.*$", text, re.M)
    if match is None:
        return None, None
    following = re.compile(r"^\S", re.M).search(text, match.end() + 1)
    return match.start(), following.start() if following else None


def _spliced(text: str, start: int | None, end: int | None, section: str) -> str:
    """`text` with `section` in place of text[start:end] (added at the end when
    `start` is None, after a blank line)."""
    if start is None:
        separator = "" if not text or text.endswith("\n") else "\n"
        return f"{text}{separator}\n{section}"
    if end is None:
        return text[:start] + section
    return text[:start] + section + "\n" + text[end:]
