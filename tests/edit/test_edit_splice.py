"""`ttr_core.edit.splice`, the careful writer: an edit changes exactly its own lines
(or, for a value, its own characters) and every other byte stays: comments, blank
lines, indentation, line ends (LF or CRLF), the byte-order mark.

The property tests build map-like YAML texts piece by piece and note where each
entry lies (its lines, the characters of its value) while writing them, so the
expected result of an edit is known without asking the code under test.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ttr_core.edit.splice import (
    BOM,
    SpliceError,
    append_entry,
    child,
    end_of,
    flow,
    node_at,
    remove_entry,
    replace_node,
    replace_scalars,
    root_of,
)
from ttr_maps.io.document import parse_text
from ttr_maps.io.yaml_text import name_scalar

PROPERTIES = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Names of every kind a designer may type: letters of any script, digits,
# punctuation that YAML gives meaning to (`:`, `#`, `-`, quotes, brackets),
# symbols and spaces; not control characters or YAML's own line breaks.
NAME_CHARS = st.characters(
    categories=("L", "N", "P", "S", "Zs"),
    exclude_characters="\x85\u2028\u2029\ufeff",
)
NAMES = st.text(NAME_CHARS, min_size=1, max_size=10)
NUMBERS = st.integers(-500, 500)
CITY = st.fixed_dictionaries({"x": NUMBERS, "y": NUMBERS})
ROUTE = st.fixed_dictionaries(
    {
        "between": st.lists(NAMES, min_size=2, max_size=2),
        "length": st.integers(1, 8),
        "color": st.sampled_from(["red", "blue", "gray"]),
    }
)
#: What may stand on the lines before an entry, and after it on its line.
BEFORE = st.sampled_from(["", "", "blank", "comment", "comment at 0"])
AFTER = st.sampled_from(["", "", "  # note", " #: it's here"])


def _json(value: Any) -> str:
    """Flow text of a value, written independently of `splice.flow`."""
    return json.dumps(value, ensure_ascii=False)


@dataclass
class Entry:
    key: str | int
    value: dict[str, Any]
    #: Lines of the entry (0-based, both included) and its value's characters.
    first: int = 0
    last: int = 0
    span: tuple[int, int] = (0, 0)


@dataclass
class Section:
    path: tuple[str, ...]
    sequence: bool
    flow_style: bool
    indent: int
    dash_at_key_column: bool
    entries: list[Entry]
    block_values: list[bool]
    before: list[str]
    after: list[str]
    #: Characters of a flow collection (`{…}`, `[…]`).
    flow_span: tuple[int, int] = (0, 0)
    key_column: int = 0
    #: The text before the first entry's key or value on its line.
    first_prefix: str = ""


@dataclass
class Document:
    text: str
    body: str
    newline: str
    sections: list[Section]
    lines: list[str] = field(default_factory=list)

    @property
    def bom(self) -> str:
        return BOM if self.text.startswith(BOM) else ""


class _Writer:
    def __init__(self, newline: str) -> None:
        self.newline, self.parts, self.length, self.line = newline, [], 0, 0

    def add(self, text: str) -> tuple[int, int]:
        start = self.length
        self.parts.append(text)
        self.length += len(text)
        return start, self.length

    def end_line(self) -> None:
        self.add(self.newline)
        self.line += 1

    def decoration(self, kind: str, column: int) -> None:
        if kind == "blank":
            self.end_line()
        elif kind == "comment":
            self.add(" " * column + "# a comment: keep me")
            self.end_line()
        elif kind == "comment at 0":
            self.add("#" + "-" * 10)
            self.end_line()


def _write_entry(writer: _Writer, section: Section, index: int, column: int) -> None:
    """One entry of a block collection: its value in flow style on the entry's
    line, or in block style (one `key: value` line each)."""
    entry, block = section.entries[index], section.block_values[index]
    writer.decoration(section.before[index], column)
    entry.first = writer.line
    if section.sequence:
        lead = " " * (section.key_column if section.dash_at_key_column else column) + "- "
        writer.add(lead)
        inner = len(lead)
    else:
        lead = " " * column
        writer.add(lead + name_scalar(str(entry.key)) + ":")
        inner = column + 2
    if index == 0:
        section.first_prefix = lead
    if not block:
        if not section.sequence:
            writer.add(" ")
        entry.span = writer.add(_json(entry.value))
        writer.add(section.after[index])
        writer.end_line()
    else:
        if not section.sequence:
            writer.add(section.after[index])
            writer.end_line()
        start = end = 0
        for number, (key, value) in enumerate(entry.value.items()):
            if number or not section.sequence:
                writer.add(" " * inner)
            key_at, _ = writer.add(f"{key}: ")
            _, end = writer.add(_json(value))
            start = key_at if number == 0 else start
            if number == len(entry.value) - 1 and section.sequence:
                writer.add(section.after[index])
            writer.end_line()
        entry.span = (start, end)
    entry.last = writer.line - 1


@st.composite
def documents(draw: st.DrawFn, *, flow_allowed: bool = True) -> Document:
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    writer = _Writer(newline)
    if draw(st.booleans()):
        writer.add("# yaml-language-server: $schema=../schemas/map.schema.json")
        writer.end_line()
    writer.add("format: 1")
    writer.end_line()
    writer.add("name: " + name_scalar(draw(NAMES)))
    writer.end_line()
    kinds = draw(st.permutations(["cities", "routes", "tickets", "layout"]))
    sections = []
    for kind in kinds:
        sequence = kind in ("routes", "tickets")
        values = ROUTE if sequence else CITY
        if sequence:
            raw = draw(st.lists(values, min_size=0, max_size=4))
            entries = [Entry(i, v) for i, v in enumerate(raw)]
        else:
            keys = draw(st.lists(NAMES, min_size=0, max_size=4, unique=True))
            entries = [Entry(k, draw(values)) for k in keys]
        count = len(entries)
        path = ("layout", "cities") if kind == "layout" else (kind,)
        key_column = 2 if kind == "layout" else 0
        section = Section(
            path=path,
            sequence=sequence,
            flow_style=flow_allowed and (count == 0 or (draw(st.booleans()) and count <= 2)),
            indent=draw(st.sampled_from([2, 4])),
            dash_at_key_column=sequence and draw(st.booleans()),
            entries=entries,
            block_values=[draw(st.booleans()) for _ in range(count)],
            before=[draw(BEFORE) for _ in range(count)],
            after=[draw(AFTER) for _ in range(count)],
            key_column=key_column,
        )
        writer.decoration(draw(BEFORE), 0)
        if kind == "layout":
            writer.add("layout:")
            writer.end_line()
        writer.add(" " * key_column + path[-1] + ":")
        if section.flow_style:
            writer.add(" ")
            if sequence:
                text = "[" + ", ".join(_json(e.value) for e in entries) + "]"
            else:
                inner = ", ".join(f"{name_scalar(str(e.key))}: {_json(e.value)}" for e in entries)
                text = "{" + inner + "}"
            section.flow_span = writer.add(text)
            writer.end_line()
        else:
            writer.end_line()
            for index in range(count):
                _write_entry(writer, section, index, key_column + section.indent)
        sections.append(section)
    writer.decoration(draw(BEFORE), 0)
    body = "".join(writer.parts)
    if not draw(st.integers(0, 4)):
        body = body.removesuffix(newline)
    bom = BOM if draw(st.booleans()) else ""
    return Document(bom + body, body, newline, sections, body.split("\n"))


def _data(text: str) -> dict[str, Any]:
    data = parse_text(text).data
    assert isinstance(data, dict)
    return data


def _at(data: dict[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _line_ends_are(text: str, newline: str) -> bool:
    bare = text.replace("\r\n", "")
    return "\r" not in bare if newline == "\r\n" and "\n" not in bare else "\r" not in text


def _block_sections(document: Document, least: int) -> list[Section]:
    return [s for s in document.sections if not s.flow_style and len(s.entries) >= least]


def _new_entry(
    data: st.DataObject, sections: list[Section]
) -> tuple[Section, dict[str, Any], str | None]:
    """A section to add to (one of `sections`), a value, and for a mapping a new key."""
    assume(sections)
    section = data.draw(st.sampled_from(sections))
    value = data.draw(ROUTE if section.sequence else CITY)
    key = None if section.sequence else data.draw(NAMES)
    assume(key is None or key not in {e.key for e in section.entries})
    return section, value, key


def _with_entry(
    text: str, section: Section, value: dict[str, Any], key: str | None
) -> dict[str, Any]:
    """The data of `text` with the entry added at the end of `section`."""
    expected = _data(text)
    target = _at(expected, section.path)
    if key is None:
        target.append(value)
    else:
        target[key] = value
    return expected


# ------------------------------------------------------------ the generator


@PROPERTIES
@given(documents())
def test_the_generated_documents_read_as_written(document: Document) -> None:
    data = _data(document.text)
    for section in document.sections:
        written = _at(data, section.path)
        if section.sequence:
            assert written == [e.value for e in section.entries]
        else:
            assert written == {str(e.key): e.value for e in section.entries}
        for entry, block in zip(section.entries, section.block_values, strict=True):
            if section.flow_style:
                continue
            start, end = entry.span
            lines = document.lines[entry.first : entry.last + 1]
            assert len(lines) == (len(entry.value) + (not section.sequence) if block else 1)
            if block:
                first_key = next(iter(entry.value))
                assert document.body[start:].startswith(f"{first_key}: ")
                assert document.body[:end].endswith(_json(list(entry.value.values())[-1]))
            else:
                assert json.loads(document.body[start:end]) == entry.value


# ------------------------------------------------------------ appending


@PROPERTIES
@given(documents(), st.data())
def test_appending_inserts_one_line_after_the_last_entry_and_keeps_every_other_byte(
    document: Document, data: st.DataObject
) -> None:
    section, value, key = _new_entry(data, _block_sections(document, 1))
    line = flow(value) if key is None else f"{name_scalar(key)}: {flow(value)}"
    new = append_entry(document.text, section.path, flow(value), key=key)

    assert new.startswith(document.bom) and not new[len(document.bom) :].startswith(BOM)
    body = new.removeprefix(document.bom)
    at = section.entries[-1].last + 1
    old = document.body
    if at == len(document.lines) - 1 + (not old.endswith("\n")) and not old.endswith("\n"):
        old += document.newline  # the file's last line gets its line end first
    old_lines = old.split("\n")
    inserted = section.first_prefix + line + document.newline.removesuffix("\n")
    assert body.split("\n") == [*old_lines[:at], inserted, *old_lines[at:]]
    expected = _with_entry(document.text, section, value, key)
    after = _data(new)
    assert after == expected
    assert list(_at(after, section.path)) == list(_at(expected, section.path))  # last


@PROPERTIES
@given(documents(), st.data())
def test_appending_to_a_flow_collection_rewrites_only_that_collection(
    document: Document, data: st.DataObject
) -> None:
    section, value, key = _new_entry(data, [s for s in document.sections if s.flow_style])
    new = append_entry(document.text, section.path, flow(value), key=key)

    start, end = section.flow_span
    before, after = document.body[:start].rstrip(" "), document.body[end:]
    body = new.removeprefix(document.bom)
    assert new.startswith(document.bom)
    assert body.startswith(before) and body.endswith(after)
    middle = body[len(before) : len(body) - len(after)]
    lines = middle.split(document.newline)
    assert lines[0] == "" and len(lines) == len(section.entries) + 2
    indent = " " * (section.key_column + 2)
    assert all(line.startswith(indent) for line in lines[1:])
    assert "\n" not in middle.replace(document.newline, "")
    assert _data(new) == _with_entry(document.text, section, value, key)


@PROPERTIES
@given(documents(), st.data())
def test_a_missing_top_level_section_is_added_at_the_end(
    document: Document, data: st.DataObject
) -> None:
    value = data.draw(ROUTE)
    new = append_entry(document.text, ("extra",), flow(value))
    text = document.text
    separator = "" if text.endswith("\n") else document.newline
    nl = document.newline
    assert new == f"{text}{separator}extra:{nl}  - {flow(value)}{nl}"
    assert _data(new)["extra"] == [value]


# ------------------------------------------------------------ removing


@PROPERTIES
@given(documents(), st.data())
def test_removing_an_entry_removes_exactly_its_lines(
    document: Document, data: st.DataObject
) -> None:
    sections = _block_sections(document, 2)
    assume(sections)
    section = data.draw(st.sampled_from(sections))
    entry = data.draw(st.sampled_from(section.entries))
    new = remove_entry(document.text, section.path, entry.key)

    assert new.startswith(document.bom)
    # Each line with its line end (the last may have none): the entry's go, and
    # every other byte stays, the line end before a last entry included.
    lines = re.findall(r"[^\n]*\n|[^\n]+$", document.body)
    assert new.removeprefix(document.bom) == "".join(lines[: entry.first] + lines[entry.last + 1 :])
    expected = _data(document.text)
    target = _at(expected, section.path)
    del target[entry.key]
    assert _data(new) == expected


@PROPERTIES
@given(documents(), st.data())
def test_removing_the_last_entry_leaves_an_empty_flow_collection(
    document: Document, data: st.DataObject
) -> None:
    sections = [s for s in document.sections if len(s.entries) == 1]
    assume(sections)
    section = data.draw(st.sampled_from(sections))
    new = remove_entry(document.text, section.path, section.entries[0].key)
    assert _at(_data(new), section.path) == ([] if section.sequence else {})
    key_line = section.path[-1] + (": []" if section.sequence else ": {}")
    assert key_line in new
    assert _line_ends_are(new, document.newline)


@PROPERTIES
@given(documents(), st.data())
def test_appending_then_removing_gives_the_text_back(
    document: Document, data: st.DataObject
) -> None:
    assume(document.text.endswith("\n"))
    section, value, key = _new_entry(data, _block_sections(document, 1))
    new = append_entry(document.text, section.path, flow(value), key=key)
    back = remove_entry(new, section.path, len(section.entries) if key is None else key)
    assert back == document.text


# ------------------------------------------------------------ replacing


@PROPERTIES
@given(documents(), st.data())
def test_replacing_a_value_changes_only_its_characters(
    document: Document, data: st.DataObject
) -> None:
    sections = _block_sections(document, 1)
    assume(sections)
    section = data.draw(st.sampled_from(sections))
    entry = data.draw(st.sampled_from(section.entries))
    value = data.draw(ROUTE if section.sequence else CITY)
    new = replace_node(document.text, (*section.path, entry.key), flow(value))

    start, end = entry.span
    body = document.body
    assert new == document.bom + body[:start] + flow(value) + body[end:]
    expected = _data(document.text)
    _at(expected, section.path)[entry.key] = value
    assert _data(new) == expected


@PROPERTIES
@given(documents(), NAMES)
def test_renaming_scalars_changes_only_their_characters(document: Document, name: str) -> None:
    root = root_of(document.text)
    found = node_at(root, ("name",))
    assert found is not None
    node = found[1]
    new = replace_scalars(document.text, [node], name_scalar(name))
    start, end = node.start_mark.index, node.end_mark.index
    assert new == document.bom + document.body[:start] + name_scalar(name) + document.body[end:]
    assert _data(new)["name"] == name


# ------------------------------------------------------------ flow text


FLOW_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | NAMES,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["x", "y", "between", "long_name"]) | NAMES, inner, max_size=3
        )
    ),
    max_leaves=8,
)


@PROPERTIES
@given(FLOW_VALUES)
def test_flow_text_reads_back_as_the_value(value: Any) -> None:
    text = flow(value)
    assert "\n" not in text
    assert parse_text(f"value: {text}\n").data == {"value": value}


def test_flow_refuses_what_a_map_cannot_hold() -> None:
    for value in (object(), float("inf"), float("nan")):
        with pytest.raises(SpliceError, match="cannot write"):
            flow(value)
    assert flow((1, "a b")) == "[1, a b]"
    assert flow({"x": 1, "Nord: Ost": "#"}) == '{x: 1, "Nord: Ost": "#"}'


# ------------------------------------------------------------ by hand


TEXT = """\
# a map
cities:
  A: {x: 0, y: 0}  # home
  B:
    x: 1
    y: 2

  C: {x: 2, y: 0}
routes:
- {between: [A, B], length: 2, color: red}
- - odd
tickets: []
settings: 5
layout:
  cities: {A: {x: 1, y: 1}}
"""


def test_nodes_are_found_by_path() -> None:
    root = root_of(TEXT)
    key, value = node_at(root, ("cities", "B"))
    assert key.value == "B" and isinstance(value, yaml.MappingNode)
    assert TEXT[key.start_mark.index : end_of(value)] == "B:\n    x: 1\n    y: 2"
    assert node_at(root, ("routes", 0))[0] is node_at(root, ("routes", 0))[1]
    assert node_at(root, ("routes", 2)) is None
    assert node_at(root, ("routes", "0")) is None
    assert node_at(root, ("cities", 0)) is None
    assert node_at(root, ("nothing", "here")) is None
    assert node_at(None, ()) is None
    assert node_at(root, ()) == (root, root)
    assert child(None, "cities") is None
    assert child(node_at(root, ("routes",))[1], -1) is None


def test_the_end_of_a_block_collection_is_its_last_entry_not_the_comments_after() -> None:
    text = "a:\n  - 1\n  - [2, 3]\n# after\n\nb: 1\n"
    node = node_at(root_of(text), ("a",))[1]
    assert text[: end_of(node)] == "a:\n  - 1\n  - [2, 3]"


def test_block_entries_after_a_blank_line_and_a_nested_block_value() -> None:
    text = append_entry(TEXT, ("cities",), "{x: 9, y: 9}", key="D")
    assert "  C: {x: 2, y: 0}\n  D: {x: 9, y: 9}\nroutes:" in text
    text = remove_entry(TEXT, ("cities",), "B")
    assert text == TEXT.replace("  B:\n    x: 1\n    y: 2\n", "")
    assert remove_entry(TEXT, ("routes",), 0) == TEXT.replace(
        "- {between: [A, B], length: 2, color: red}\n", ""
    )


def test_a_nested_flow_mapping_becomes_block_when_an_entry_joins() -> None:
    text = append_entry(TEXT, ("layout", "cities"), "{x: 3, y: 3}", key="B")
    assert text.endswith("layout:\n  cities:\n    A: {x: 1, y: 1}\n    B: {x: 3, y: 3}\n")
    again = remove_entry(text, ("layout", "cities"), "A")
    assert again.endswith("layout:\n  cities:\n    B: {x: 3, y: 3}\n")


def test_an_empty_value_takes_entries() -> None:
    for empty in ("", " ~", " null"):
        text = f"routes:{empty}\nnext: 1\n"
        new = append_entry(text, ("routes",), "{length: 1}")
        assert _data(new) == {"routes": [{"length": 1}], "next": 1}


def test_an_entry_after_a_dash_on_the_line_of_another_gets_its_own_prefix() -> None:
    text = "routes:\n- - a\n  - b\n"
    new = append_entry(text, ("routes", 0), "c")
    assert new == "routes:\n- - a\n  - b\n  - c\n"
    assert _data(new) == {"routes": [["a", "b", "c"]]}
    text = "routes:\n- between: [A, B]\n  length: 2\n"
    new = append_entry(text, ("routes", 0), "red", key="color")
    assert new == text + "  color: red\n"
    with pytest.raises(SpliceError, match="shares its line"):
        remove_entry(text, ("routes", 0), "between")  # the list's dash is on its line
    assert remove_entry(text, ("routes", 0), "length") == "routes:\n- between: [A, B]\n"
    text = "routes:\n-\n  {length: 1}\n"  # the item on the line after its dash
    new = append_entry(text, ("routes",), "{length: 2}")
    assert new == text + "- {length: 2}\n"
    assert _data(new) == {"routes": [{"length": 1}, {"length": 2}]}


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: append_entry(TEXT, ("layout", "bends"), "[]"), "no layout.bends to add to"),
        (lambda: append_entry(TEXT, ("cities",), "{}"), "is not a list"),
        (lambda: append_entry(TEXT, ("routes",), "{}", key="x"), "is not a mapping"),
        (lambda: append_entry(TEXT, ("settings",), "1"), "holds a value"),
        (lambda: remove_entry(TEXT, ("nothing",), 0), "has no nothing"),
        (lambda: remove_entry(TEXT, ("cities",), "Z"), "no entry 'Z' in cities"),
        (lambda: replace_node(TEXT, ("cities", "Z"), "1"), "nothing at cities.Z"),
        (lambda: root_of("a: [\n"), "not YAML the editor can change"),
        (
            lambda: remove_entry("a:\n- - x\n  - y\n", ("a", 0), 0),
            "shares its line",
        ),
    ],
)
def test_what_cannot_be_spliced_is_refused_with_a_reason(call: Any, message: str) -> None:
    with pytest.raises(SpliceError, match=message):
        call()


def test_a_byte_order_mark_and_crlf_line_ends_stay() -> None:
    text = "\ufeffcities:\r\n  A: {x: 0, y: 0}  # home\r\n  B: {x: 1, y: 0}\r\ntickets: []\r\n"
    added = append_entry(text, ("cities",), "{x: 2, y: 2}", key="C")
    assert added == text.replace(
        "  B: {x: 1, y: 0}\r\n", "  B: {x: 1, y: 0}\r\n  C: {x: 2, y: 2}\r\n"
    )
    moved = replace_node(text, ("cities", "B"), "{x: 5, y: 5}")
    assert moved == text.replace("B: {x: 1, y: 0}", "B: {x: 5, y: 5}")
    ticket = append_entry(text, ("tickets",), "{value: 1}")
    assert ticket.endswith("tickets:\r\n  - {value: 1}\r\n")
    root = root_of(text)
    names = [k for k, _ in node_at(root, ("cities",))[1].value]
    renamed = replace_scalars(text, names, "Z")
    assert renamed.startswith("\ufeffcities:\r\n  Z: {x: 0")
