"""The parts of `ttr lsp` one by one, in this process: positions, the outline of a
file, where completion is, and the features on a snapshot (no server needed)."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from lsprotocol import types
from testdata import ROOT

from ttr_core.lsp import actions, completion, hover, navigation
from ttr_core.lsp.lines import LineIndex, code_units
from ttr_core.lsp.outline import CityEntry, Entry, Mention, Outline
from ttr_core.lsp.snapshot import Snapshot, take_snapshot
from ttr_maps.io.document import Position

SMALL = (
    "format: 1\nid: t\nname: T\ncoordinates: plane\n"
    "cities:\n  A: {x: 0, y: 0}\n  B: {x: 2, y: 0}\n  C: {x: 4, y: 0}\n  D: {x: 9, y: 9}\n"
    "routes:\n"
    "  - {between: [A, B], length: 2, color: [red, blue]}\n"
    "  - between: [B, C]\n    length: 3\n    color: green\n"
    "  - {between: [C, D], length: 8, color: gray, tunnel: true}\n"
    "tickets:\n"
    "  - {between: [A, C], value: 5}\n"
    "  - {between: [A, D], value: 9}\n"
)


def snapshot_of(text: str, encoding: str = "utf-16") -> Snapshot:
    return take_snapshot("file:///t.yaml", "/t.yaml", 1, text, encoding)


def offset_of(text: str, pattern: str, shift: int = 0) -> int:
    return text.index(pattern) + shift


# --------------------------------------------------------------------- lines
def test_lines_follow_yaml_for_ttr_positions_and_lsp_for_the_editor() -> None:
    text = 'a: "a line \u2028 separator"\nb: [x, Bad]\r\nc: 😀\rd: 1'
    lines = LineIndex(text)
    # YAML counts the line separator as a line break; LSP does not.
    node = yaml.compose(text).value[1][1].value[1]
    where = Position.from_mark(node.start_mark)
    offset = lines.offset_of(where)
    assert text[offset : offset + 3] == "Bad"
    assert lines.to_lsp(offset) == (1, 7)
    assert lines.from_lsp(1, 7) == offset
    assert lines.to_lsp(text.index("\rd") + 1) == (3, 0)  # a lone \r ends a line too
    assert lines.line_end(text.index("b:")) == text.index("\r\n")


@pytest.mark.parametrize(("encoding", "units"), [("utf-16", 2), ("utf-8", 4), ("utf-32", 1)])
def test_columns_count_the_agreed_code_units(encoding: str, units: int) -> None:
    text = "x: '😀 Bad'\n"
    lines = LineIndex(text, encoding)
    bad = text.index("Bad")
    assert lines.to_lsp(bad) == (0, 4 + units + 1)
    assert lines.from_lsp(0, 4 + units + 1) == bad
    assert code_units("😀", encoding) == units


@given(st.text(alphabet="ab😀é\n\r\u2028 ", max_size=30), st.integers(0, 40))
def test_lsp_positions_round_trip(text: str, offset: int) -> None:
    lines = LineIndex(text)
    offset = min(offset, len(text))
    if 0 < offset < len(text) and text[offset - 1 : offset + 1] == "\r\n":
        offset -= 1  # inside a line break: no position of its own
    assert lines.from_lsp(*lines.to_lsp(offset)) == offset


def test_a_position_past_the_end_of_a_line_is_its_end() -> None:
    lines = LineIndex("ab\ncd\n")
    assert lines.from_lsp(0, 99) == 2 and lines.from_lsp(9, 0) == 6


# --------------------------------------------------------------------- outline
def test_outline_of_flow_and_block_entries_and_the_layout() -> None:
    text = SMALL + "layout:\n  cities: {A: {x: 1, y: 1}, Bee: {x: 2, y: 2}}\n"
    outline = Outline.of(yaml.compose(text))
    assert outline.city_names == ("A", "B", "C", "D")
    assert [e.index for e in outline.routes] == [0, 1, 2]
    assert [m.name for m in outline.routes[1].cities] == ["B", "C"]
    layout = [m for m in outline.mentions if m.kind == "layout"]
    assert [(m.name, m.is_key) for m in layout] == [("A", True), ("Bee", True)]
    assert list(outline.sections) == ["format", "id", "name", "coordinates", "cities", "routes",
                                      "tickets", "layout"]  # fmt: skip
    assert isinstance(outline.at(offset_of(text, "length: 3")), Entry)
    assert isinstance(outline.at(offset_of(text, "B: {x: 2", 0)), CityEntry)
    mention = outline.at(offset_of(text, "[A, C]", 1))
    assert isinstance(mention, Mention) and (mention.name, mention.kind) == ("A", "ticket")
    assert outline.at(0) is None


def test_outline_leaves_out_what_aliases_bring_from_elsewhere() -> None:
    text = (
        "pair: &p [A, B]\ncities: {A: {x: 0, y: 0}, B: {x: 1, y: 1}}\n"
        "routes:\n  - {between: *p, length: 1, color: red}\n"
        "tickets: []\ntickets: [{between: [A, B], value: 1}]\n"
    )
    outline = Outline.of(yaml.compose(text))
    assert outline.routes[0].cities == ()  # its cities are written on line 1
    assert outline.tickets == ()  # the repeated `tickets:` is not the one read (TTR003)


# --------------------------------------------------------------------- completion
@pytest.mark.parametrize(
    ("before", "place", "word"),
    [
        ("routes:\n  - {between: [A, B", "city", "B"),
        ("routes:\n  - {between: [A, ", "city", ""),
        ('tickets:\n  - between: ["Sa', "city", '"Sa'),
        ("routes:\n  - between:\n    - A\n    # a comment\n    - Sa", "city", "Sa"),
        ("routes:\n  - between:\n    -", "city", ""),
        ("routes:\n  - {between: [A, B], length: 2, color: gr", "color", "gr"),
        ("routes:\n  - {between: [A, B], length: 2, color: [red, gr", "color", "gr"),
        ("routes:\n  - between: [A, B]\n    color:\n      - red\n      - ", "color", ""),
    ],
)
def test_completion_place(before: str, place: str, word: str) -> None:
    lines = LineIndex(before)
    found = completion.completion_place(lines, len(before))
    assert found is not None and found[0] == place
    assert before[found[1] :] == word


@pytest.mark.parametrize(
    "before",
    ["name: Sa", "cities:\n  - Sa", "routes:\n  - {between: [A, B], length: ", "# between: [A"],
)
def test_no_completion_elsewhere(before: str) -> None:
    assert completion.completion_place(LineIndex(before), len(before)) is None


def test_completion_quotes_names_that_need_it() -> None:
    before = "routes:\n  - {between: [A, "
    items = completion.completions(LineIndex(before), len(before), ["A", "B: x", "yes", "Évora"])
    assert {i.label: i.text_edit.new_text for i in items} == {  # type: ignore[union-attr]
        "B: x": '"B: x"',
        "yes": '"yes"',
        "Évora": "Évora",
    }


# --------------------------------------------------------------------- features
def test_r2_hover_on_a_wrong_ticket_says_what_r2_wants() -> None:
    snapshot = snapshot_of(SMALL)
    shown = hover.hover(snapshot, offset_of(SMALL, "value: 5"))
    assert shown is not None
    text = shown.contents.value  # type: ignore[union-attr]
    assert "Shortest distance: 5 wagons, equal to the value (R2)" in text
    assert "A → B → C (2 + 3 = 5 wagons)" in text
    wrong = hover.hover(snapshot, offset_of(SMALL, "value: 9"))
    assert wrong is not None and "the value is 9: R2 says 13" in wrong.contents.value  # type: ignore[union-attr]


def test_r10_hover_on_a_route_gives_its_points_and_its_use() -> None:
    snapshot = snapshot_of(SMALL)
    shown = hover.hover(snapshot, offset_of(SMALL, "length: 8"))
    assert shown is not None
    text = shown.contents.value  # type: ignore[union-attr]
    assert "**C–D** (route): 8 wagons, gray" in text
    assert "Scores 21 points (R10)" in text  # the base rules score 21 for 8 wagons
    assert "Marked as a tunnel, which the 'base' rules do not play (E2)" in text
    assert "On a shortest path of 1 of the 2 tickets, and the only way for 1" in text
    double = hover.hover(snapshot, offset_of(SMALL, "length: 2"))
    assert double is not None and "per track" in double.contents.value  # type: ignore[union-attr]


def test_hover_on_an_unknown_city_proposes_the_known_ones() -> None:
    text = SMALL.replace("[A, D], value: 9", "[A, Dd], value: 9")
    shown = hover.hover(snapshot_of(text), offset_of(text, "Dd"))
    assert shown is not None
    assert "**Dd** is not a city of this map" in shown.contents.value  # type: ignore[union-attr]
    assert "did you mean **D**?" in shown.contents.value  # type: ignore[union-attr]


def test_hover_and_outline_need_a_parsed_file() -> None:
    broken = snapshot_of(SMALL + "  - {between: [A, \n")
    assert broken.outline is None
    assert hover.hover(broken, 10) is None and navigation.document_symbols(broken) == []


def test_did_you_mean_in_the_board_layout() -> None:
    text = SMALL + "layout:\n  cities: {A: {x: 1, y: 1}, Cc: {x: 2, y: 2}}\n"
    snapshot = snapshot_of(text)
    at = offset_of(text, "Cc")
    context = types.CodeActionContext(diagnostics=[])
    found = actions.code_actions(snapshot, at, at, context, versioned=False)
    titles = [a.title for a in found]
    assert titles[0] == "Did you mean C?"
    assert found[0].edit is not None and found[0].edit.changes is not None  # unversioned client


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("format: 1\n", "# ttr: disable=TTR253\nformat: 1\n"),
        (
            "# header\n\n# more\nformat: 1\n",
            "# header\n\n# more\n# ttr: disable=TTR253\nformat: 1\n",
        ),
        ("# only a comment", "# only a comment\n# ttr: disable=TTR253\n"),
        ("a: 1\r\n", "# ttr: disable=TTR253\r\na: 1\r\n"),
        ("# ttr: disable=TTR151  \r\na: 1\r\n", "# ttr: disable=TTR151,TTR253  \r\na: 1\r\n"),
        ("a: 1\n  # ttr:disable=TTR151\n", "a: 1\n  # ttr:disable=TTR151,TTR253\n"),
    ],
)
def test_disable_edit(text: str, expected: str) -> None:
    from lsp_client import apply_edits

    snapshot = snapshot_of(text)
    assert apply_edits(text, [actions.disable_edit(snapshot, "TTR253")]) == expected


def test_a_check_added_to_the_registry_shows_without_a_change(monkeypatch) -> None:
    """Diagnostics come from the one validator: a new check is in the editor at once."""
    from ttr_maps.checks.problem import Level
    from ttr_maps.checks.registry import REGISTRY, Check, Finding

    def every_city_is_suspect(ctx):  # type: ignore[no-untyped-def]
        for city in ctx.map.cities:
            yield Finding(f"{city.name} looks suspicious", ("cities", city.name), on_key=True)

    check = Check("TTR999", Level.WARNING, "a test check", "map", every_city_is_suspect)
    monkeypatch.setitem(REGISTRY, "TTR999", check)
    snapshot = snapshot_of(SMALL)
    found = [(p.code, p.position.line) for p in snapshot.report.problems if p.code == "TTR999"]
    assert found == [("TTR999", 6), ("TTR999", 7), ("TTR999", 8), ("TTR999", 9)]


def test_the_symbols_of_a_flat_client() -> None:
    flat = navigation.flat_symbols(snapshot_of(SMALL))
    assert [(s.name, s.container_name) for s in flat][:4] == [
        ("A", "cities"),
        ("B", "cities"),
        ("C", "cities"),
        ("D", "cities"),
    ]
    assert [s.name for s in flat if s.container_name == "tickets"] == ["A–C", "A–D"]


def test_lsp_and_pygls_stay_out_of_ttr_help() -> None:
    import subprocess
    import sys

    code = (
        "import re, sys; from ttr_core.cli import app; from typer.testing import CliRunner;"
        "shown = CliRunner().invoke(app, ['--help']).output;"
        "CliRunner().invoke(app, ['lsp', '--help']);"
        "print(bool(re.search(r'\\blsp\\b', shown)),"
        " sorted(m for m in sys.modules if re.match(r'(pygls|lsprotocol|cattrs)\\b', m)))"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "True []"


def test_the_walkthrough_in_docs_says_what_the_checks_say() -> None:
    """docs/editors.md quotes diagnostics of two edits of the bundled North America:
    they must be what the validator says of those edits, where it says them."""
    from testdata import DOCS

    from ttr_maps.checks.validate import validate_text

    walkthrough = " ".join((DOCS / "editors.md").read_text(encoding="utf-8").split())
    text = (ROOT / "maps" / "north_america.yaml").read_text(encoding="utf-8")
    for before, after in (
        ("[Boston, Miami], value: 12}", "[Boston, Miami], value: 14}"),
        ("[Chicago, Omaha], length: 4", "[Chicago, Omahaa], length: 4"),
    ):
        (problem,) = validate_text(text.replace(before, after), "north_america.yaml").problems
        assert f"`{problem.code} {problem.message}`" in walkthrough
        assert f"line {problem.position.line}," in walkthrough
    assert "at `138:39`" in walkthrough
