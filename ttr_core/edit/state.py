"""What the page receives after every edit: the board, the elements, `ttr
validate`'s problems (the same report, from `validate_text`, as `ttr lsp` takes)
each tied to the element it is about, and whether `ttr fix` can set the ticket
values in one click.

A problem is tied to the entry of the file its position falls in: a city's line
(its key, its coordinates, its place in the layout), a route entry (or its bend
points), a ticket entry. The page selects that element when the problem is clicked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from ttr_core.edit.drawing import Drawing, draw, drawable_map
from ttr_core.edit.splice import end_of, node_at
from ttr_maps.checks.validate import FileReport, validate_text
from ttr_maps.model import Map

TICKET_VALUE = "TTR304"


@dataclass(frozen=True)
class Element:
    """A city (by name), a route or a ticket (by entry number in the file)."""

    kind: str
    name: str = ""
    entry: int = -1

    def payload(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "entry": self.entry}


@dataclass(frozen=True)
class Checked:
    """One version of the text, checked and drawn."""

    text: str
    report: FileReport
    drawable: Map
    drawing: Drawing
    elements: list[tuple[int, int, Element]]

    def element_at(self, line: int) -> Element | None:
        """The innermost entry written on `line` (1-based)."""
        found = [(end - start, e) for start, end, e in self.elements if start <= line <= end]
        return min(found, key=lambda pair: pair[0])[1] if found else None


def check(text: str, path: str, region: tuple[float, float, float, float] | None) -> Checked:
    report = validate_text(text, path)
    data = report.document.data if report.document is not None else None
    drawable = drawable_map(data)
    drawing = draw(drawable, region)
    root = report.document.root if report.document is not None else None
    return Checked(text, report, drawable, drawing, _entry_lines(root, data))


def _lines(first: yaml.Node, last: yaml.Node) -> tuple[int, int]:
    end = end_of(last)
    line = last.end_mark.line if end == last.end_mark.index else _line_of(last, end)
    return first.start_mark.line + 1, line + 1


def _line_of(node: yaml.Node, index: int) -> int:
    text = node.end_mark.buffer or ""
    return text.count("\n", 0, index) if text else node.end_mark.line


def _entry_lines(root: yaml.Node | None, data: Any) -> list[tuple[int, int, Element]]:
    """(first line, last line, element) of every entry of the file."""
    spans: list[tuple[int, int, Element]] = []
    for section in (("cities",), ("layout", "cities")):
        found = node_at(root, section)
        if found is not None and isinstance(found[1], yaml.MappingNode):
            for key, value in found[1].value:
                if isinstance(key, yaml.ScalarNode):
                    spans.append((*_lines(key, value), Element("city", name=key.value)))
    for section, kind in ((("routes",), "route"), (("tickets",), "ticket")):
        found = node_at(root, section)
        if found is not None and isinstance(found[1], yaml.SequenceNode):
            for index, item in enumerate(found[1].value):
                spans.append((*_lines(item, item), Element(kind, entry=index)))
    found = node_at(root, ("layout", "bends"))
    routes = data.get("routes") if isinstance(data, dict) else None
    if found is not None and isinstance(found[1], yaml.SequenceNode) and isinstance(routes, list):
        bends = data["layout"]["bends"]
        for index, item in enumerate(found[1].value):
            pair = _pair(bends[index])
            entry = next((i for i, r in enumerate(routes) if pair and _pair(r) == pair), None)
            if entry is not None:
                spans.append((*_lines(item, item), Element("route", entry=entry)))
    return spans


def _pair(entry: Any) -> frozenset[str] | None:
    between = entry.get("between") if isinstance(entry, dict) else None
    if isinstance(between, list) and all(isinstance(c, str) for c in between):
        return frozenset(between)
    return None
