"""Completion of city names in `between:` and of route colours.

The place is read from the text around the cursor, not from the parsed document:
while a name is being typed the file is often not YAML (`between: [Den` has no
closing bracket). City names come from the file's `cities:` as last parsed.

- a city inside `between: [A, B]`, or in a block list under `between:`;
- a colour after `color:`, inside `color: [red, blue]`, or in a block list under
  `color:`.

Each item replaces the word typed so far with the name written as YAML needs it
(quoted when a plain scalar would not read back as the name).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

from lsprotocol import types

from ttr_core.lsp.lines import LineIndex
from ttr_maps.io.yaml_text import name_scalar
from ttr_maps.model import ROUTE_COLORS

#: Characters that open completion besides the ones a word is made of.
TRIGGERS = ["[", ",", " ", "-"]

Place = Literal["city", "color"]

_FLOW_LIST = re.compile(r"\b(between|color)[ \t]*:[ \t]*\[([^\[\]{}]*)$")
_PLAIN_VALUE = re.compile(r"\b(color)[ \t]*:[ \t]*([^\s,\[\]{}]*)$")
_BLOCK_ITEM = re.compile(r"^([ \t]*)-[ \t]+([^,\[\]{}#]*)$|^([ \t]*)-$")
_BLOCK_PARENT = re.compile(r"(?:^|[\s-])(between|color)[ \t]*:[ \t]*(?:#.*)?$")
_BLOCK_SIBLING = re.compile(r"^([ \t]*)-(?:[ \t]|$)")
_PLACES: dict[str, Place] = {"between": "city", "color": "color"}
#: A comment starts the line or follows a blank (inside quotes it is text, but a
#: city name with " #" in it is rare enough to go without completion).
_COMMENT = re.compile(r"(?:^|\s)#")


def completion_place(lines: LineIndex, offset: int) -> tuple[Place, int, list[str]] | None:
    """What is being typed at `offset`: the kind of name, where the word typed so
    far starts, and the names already in the same list (not offered again)."""
    text = lines.text
    prefix = text[lines.line_start(offset) : offset]
    if _COMMENT.search(prefix):
        return None
    flow = _FLOW_LIST.search(prefix)
    if flow is not None:
        before, _, word = flow.group(2).rpartition(",")
        word = word.lstrip()
        others = [part.strip().strip("'\"") for part in before.split(",") if part.strip()]
        return _PLACES[flow.group(1)], offset - len(word), others
    plain = _PLAIN_VALUE.search(prefix)
    if plain is not None:
        return "color", offset - len(plain.group(2)), []
    item = _BLOCK_ITEM.match(prefix)
    if item is not None:
        indent = item.group(1) if item.group(1) is not None else item.group(3)
        word = (item.group(2) or "").lstrip()
        parent = _block_parent(lines, lines.line_start(offset), len(indent))
        if parent is not None:
            return _PLACES[parent], offset - len(word), []
    return None


def _block_parent(lines: LineIndex, line_start: int, indent: int) -> str | None:
    """The key (`between` or `color`) of the block list whose item starts a line at
    `line_start`, found by looking up past the list's other items."""
    text = lines.text
    end = line_start
    while end > 0:
        start = lines.line_start(end - 1)
        line = text[start : lines.line_end(start)]
        end = start
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        sibling = _BLOCK_SIBLING.match(line)
        if sibling is not None and len(sibling.group(1)) == indent:
            continue
        parent = _BLOCK_PARENT.search(line)
        return parent.group(1) if parent is not None else None
    return None


def completions(lines: LineIndex, offset: int, cities: Sequence[str]) -> list[types.CompletionItem]:
    """The completion items at `offset`: `cities` (the file's, as last parsed) or
    the route colours, each replacing the word typed so far."""
    place = completion_place(lines, offset)
    if place is None:
        return []
    kind, start, others = place
    word = lines.text[start:offset]
    quote = word[:1] if word[:1] in ("'", '"') else ""
    (line, character), (end_line, end_character) = lines.to_lsp(start), lines.to_lsp(offset)
    replace = types.Range(types.Position(line, character), types.Position(end_line, end_character))
    if kind == "city":
        names, detail = [c for c in cities if c not in others], "city"
        item_kind = types.CompletionItemKind.Value
    else:
        names, detail = list(ROUTE_COLORS), "route colour"
        item_kind = types.CompletionItemKind.EnumMember
    return [
        types.CompletionItem(
            label=name,
            kind=item_kind,
            detail=detail,
            sort_text=f"{index:05d}",
            filter_text=quote + name,
            text_edit=types.TextEdit(replace, name_scalar(name)),
        )
        for index, name in enumerate(sorted(names, key=str.casefold))
    ]
