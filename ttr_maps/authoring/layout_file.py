"""A board layout in a map file: the `layout:` section as YAML, stored into a map
file's text with everything else kept byte for byte, and what `ttr validate` then
says about the drawn board. `ttr layout --write` and the editor write layouts
through here; `ttr_maps.geometry.layout` computes them.
"""

from __future__ import annotations

import re

from ttr_maps.checks.layout import BOARD_CODES
from ttr_maps.checks.problem import Problem
from ttr_maps.checks.validate import validate_document
from ttr_maps.io.document import parse_document
from ttr_maps.io.yaml_text import name_scalar
from ttr_maps.model import BoardLayout


def laid_out_text(text: str, path: str, layout: BoardLayout) -> tuple[str, list[Problem]]:
    """A map file's text with `layout` stored in it (`with_layout`), and what
    `ttr validate` would then say about the drawn board (TTR551–TTR557), positions
    in the new text."""
    new_text = with_layout(text, layout)
    report = validate_document(parse_document(new_text, path))
    return new_text, [p for p in report.problems if p.code in BOARD_CODES]


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
    lines = ["layout:"]
    if layout.size is not None:
        lines.append(f"  board: {{width: {layout.size[0]}, height: {layout.size[1]}}}")
    lines.append("  cities:")
    for name, (x, y) in layout.cities.items():
        label = layout.labels.get(name)
        extra = f", label: [{label[0]}, {label[1]}]" if label is not None else ""
        extra += ", pin: true" if name in layout.pinned else ""
        lines.append(f"    {name_scalar(name)}: {{x: {x}, y: {y}{extra}}}")
    if layout.bends:
        lines.append("  bends:")
        for (a, b), points in layout.bends.items():
            shown = ", ".join(f"[{x}, {y}]" for x, y in points)
            lines.append(
                f"    - {{between: [{name_scalar(a)}, {name_scalar(b)}], points: [{shown}]}}"
            )
    return "\n".join(lines) + "\n"


def with_layout(text: str, layout: BoardLayout) -> str:
    """A map file's text with its `layout:` section replaced by `layout` (or added
    at the end). Everything else, comments included, stays byte for byte; comment
    lines indented inside an old `layout:` section go with it."""
    section = layout_yaml(layout)
    match = re.search(r"^layout:.*$", text, re.M)
    if match is None:
        separator = "" if not text or text.endswith("\n") else "\n"
        return f"{text}{separator}\n{section}"
    following = re.compile(r"^\S", re.M).search(text, match.end() + 1)
    end = following.start() if following else len(text)
    return text[: match.start()] + section + ("\n" if following else "") + text[end:]
