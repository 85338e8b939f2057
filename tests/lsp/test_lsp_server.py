"""`ttr lsp` driven over stdio by a real LSP client (pygls' `LanguageClient`).

One server process serves the whole module (each test opens documents of its own
URIs). What the editor shows is compared with what the command line says on the
same text: `ttr validate --format json` for diagnostics, `ttr fix` for the R2 edit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest
from lsp_client import LspSession, apply_edits, edits_of
from lsprotocol import types
from testdata import BAD, ROOT

from ttr_maps.analysis.fix import apply_fix, plan_fix
from ttr_maps.analysis.stats import connection_loads
from ttr_maps.checks.catalog import all_checks
from ttr_maps.checks.reporters import REPORTERS
from ttr_maps.checks.validate import validate_file
from ttr_maps.graph import shortest_wagon_distance
from ttr_maps.io import limits
from ttr_maps.io.document import is_map_text
from ttr_maps.model import ROUTE_COLORS
from ttr_maps.rules import map_rules

MAPS = ROOT / "maps"
BUNDLED = ("north_america", "europe", "iran")


@pytest.fixture(scope="module")
def lsp() -> Iterator[LspSession]:
    session = LspSession()
    yield session
    assert session.close() == 0  # shut down the way an editor does, exit 0


def map_text(map_id: str) -> str:
    return (MAPS / f"{map_id}.yaml").read_text(encoding="utf-8")


def uri_for(tmp_path: Path, name: str) -> str:
    return (tmp_path / name).as_uri()


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def lsp_position(text: str, line: int, column: int) -> tuple[int, int]:
    """Where `ttr validate`'s 1-based line:column is for the editor (0-based, UTF-16)."""
    lines = re.split("\r\n|[\r\n]", text)
    return line - 1, utf16(lines[line - 1][: column - 1])


def validate_json(path: Path) -> list[dict]:
    """What `ttr validate --format json` says of one file: its problems (the
    command's own reporter on the command's own validation, in this process)."""
    return json.loads(REPORTERS["json"]([validate_file(path)]))["files"][0]["problems"]


def ttr_fix(path: Path) -> None:
    """What `ttr fix` does to one file (its plan and its write, in this process)."""
    plan = plan_fix(path)
    assert not plan.is_skipped, plan.blockers
    apply_fix(plan)


def as_seen_by_validate(diagnostics: list[types.Diagnostic]) -> list[tuple]:
    """Diagnostics as (line, character, level, code, message)."""
    level = {types.DiagnosticSeverity.Error: "error", types.DiagnosticSeverity.Warning: "warning"}
    return [
        (d.range.start.line, d.range.start.character, level[d.severity], d.code, d.message)
        for d in diagnostics
    ]


def expected_from_validate(text: str, problems: list[dict]) -> list[tuple]:
    """`ttr validate`'s problems the same way, their positions as the editor counts."""
    return [
        (*lsp_position(text, p["line"], p["column"]), p["level"], p["code"], p["message"])
        for p in problems
    ]


def assert_same_as_validate(lsp: LspSession, tmp_path: Path, name: str, text: str) -> list:
    """Open `text` in the editor and check the file holding it: same problems."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    uri = path.as_uri()
    lsp.open(uri, text)
    diagnostics = lsp.diagnostics(uri)
    assert as_seen_by_validate(diagnostics) == expected_from_validate(text, validate_json(path))
    return diagnostics


def line_holding(text: str, pattern: str) -> tuple[int, str]:
    """The 0-based line holding `pattern`, and the line."""
    for number, line in enumerate(text.splitlines()):
        if pattern in line:
            return number, line
    raise AssertionError(f"{pattern!r} not in the text")


def test_initialize_announces_the_features(lsp: LspSession) -> None:
    result = lsp.initialized
    capabilities = result.capabilities
    assert result.server_info is not None and result.server_info.name == "ttr"
    sync = capabilities.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions)
    assert sync.open_close and sync.change == types.TextDocumentSyncKind.Full
    assert capabilities.hover_provider and capabilities.definition_provider
    assert capabilities.references_provider and capabilities.document_symbol_provider
    assert capabilities.completion_provider is not None
    assert "[" in (capabilities.completion_provider.trigger_characters or [])
    actions = capabilities.code_action_provider
    assert isinstance(actions, types.CodeActionOptions)
    assert types.CodeActionKind.QuickFix in (actions.code_action_kinds or [])


@pytest.mark.parametrize("map_id", BUNDLED)
def test_a_bundled_map_opens_with_the_diagnostics_of_ttr_validate(
    lsp: LspSession, tmp_path: Path, map_id: str
) -> None:
    diagnostics = assert_same_as_validate(lsp, tmp_path, f"{map_id}.yaml", map_text(map_id))
    assert [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error] == []


def test_r2_an_edit_that_breaks_a_ticket_value_gives_ttr304_at_the_value(
    lsp: LspSession, tmp_path: Path
) -> None:
    text = map_text("north_america")
    uri = uri_for(tmp_path, "north_america.yaml")
    lsp.open(uri, text)
    assert lsp.diagnostics(uri) == []
    broken = text.replace(
        "{between: [Boston, Miami], value: 12}", "{between: [Boston, Miami], value: 14}"
    )
    version = lsp.change(uri, broken)
    (diagnostic,) = lsp.diagnostics(uri, version)
    line, written = line_holding(broken, "[Boston, Miami]")
    column = written.index("14")
    assert diagnostic.code == "TTR304" and diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.source == "ttr"
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (line, column)
    assert (diagnostic.range.end.line, diagnostic.range.end.character) == (line, column + 2)
    assert "value 14" in diagnostic.message and "shortest distance is 12" in diagnostic.message


def test_r2_the_code_action_makes_the_edit_ttr_fix_makes(lsp: LspSession, tmp_path: Path) -> None:
    text = map_text("europe").replace("\n", "\r\n")  # line ends are kept, like ttr fix keeps them
    line, written = line_holding(text, "value: ")
    value = re.search(r"value: (\d+)", written)
    assert value is not None
    broken_line = written.replace(f"value: {value.group(1)}", f"value: {int(value.group(1)) + 3}")
    broken = text.replace(written, broken_line, 1)
    path = tmp_path / "europe.yaml"
    path.write_bytes(broken.encode("utf-8"))
    uri = path.as_uri()
    lsp.open(uri, broken)
    diagnostics = lsp.diagnostics(uri)
    wrong = [d for d in diagnostics if d.code == "TTR304"]
    assert len(wrong) == 1 and wrong[0].range.start.line == line
    actions = lsp.code_actions(uri, wrong)
    (fix,) = [a for a in actions if "(R2)" in a.title]
    assert fix.title == f"Set the value to {value.group(1)} (R2)"
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    assert list(fix.diagnostics or []) == wrong
    edits = edits_of(fix, uri)
    assert len(edits) == 1 and edits[0].range == wrong[0].range  # the number, nothing else
    fixed_in_editor = apply_edits(broken, edits)
    ttr_fix(path)
    assert fixed_in_editor.encode("utf-8") == path.read_bytes()
    assert fixed_in_editor == text


def test_r2_with_several_wrong_values_one_action_fixes_all_like_ttr_fix(
    lsp: LspSession, tmp_path: Path
) -> None:
    text = map_text("north_america")
    broken = text.replace("[Boston, Miami], value: 12", "[Boston, Miami], value: 1").replace(
        "[Denver, El Paso], value: 4", "[Denver, El Paso], value: 40"
    )
    path = tmp_path / "two.yaml"
    path.write_text(broken, encoding="utf-8")
    lsp.open(path.as_uri(), broken)
    diagnostics = lsp.diagnostics(path.as_uri())
    assert [d.code for d in diagnostics] == ["TTR304", "TTR304"]
    whole = types.Range(types.Position(0, 0), types.Position(len(broken.splitlines()), 0))
    actions = lsp.code_actions(path.as_uri(), diagnostics, whole)
    (fix_all,) = [a for a in actions if a.kind == types.CodeActionKind.SourceFixAll]
    fixed = apply_edits(broken, edits_of(fix_all, path.as_uri()))
    ttr_fix(path)
    assert fixed == path.read_text(encoding="utf-8") == text


def test_r2_no_value_action_while_other_errors_make_ttr_fix_skip_the_file(
    lsp: LspSession, tmp_path: Path
) -> None:
    text = map_text("north_america")
    broken = text.replace("[Boston, Miami], value: 12", "[Boston, Miami], value: 14").replace(
        "[Chicago, Omaha], length: 4", "[Chicago, Omahaa], length: 4"
    )
    uri = uri_for(tmp_path, "blocked.yaml")
    lsp.open(uri, broken)
    diagnostics = lsp.diagnostics(uri)
    assert {d.code for d in diagnostics} >= {"TTR201"}
    wrong = [d for d in diagnostics if d.code == "TTR304"]
    assert not wrong or not [a for a in lsp.code_actions(uri, wrong) if "(R2)" in a.title]


def test_did_you_mean_replaces_the_misspelt_city_and_nothing_else(
    lsp: LspSession, tmp_path: Path
) -> None:
    text = map_text("north_america")
    for before, after in (
        ("[Chicago, Omaha], length: 4", "[Chicago, Omahaa], length: 4"),  # a route
        ("[Denver, El Paso], value: 4", "[Denver, el paso], value: 4"),  # a ticket
    ):
        broken = text.replace(before, after)
        uri = uri_for(tmp_path, f"spelling-{len(after)}.yaml")
        lsp.open(uri, broken)
        (diagnostic,) = [d for d in lsp.diagnostics(uri) if d.code in ("TTR201", "TTR301")]
        actions = lsp.code_actions(uri, [diagnostic])
        meant = [a for a in actions if a.title.startswith("Did you mean")]
        assert meant and meant[0].is_preferred and list(meant[0].diagnostics or []) == [diagnostic]
        assert apply_edits(broken, edits_of(meant[0], uri)) == text


def test_did_you_mean_quotes_a_name_yaml_would_misread(lsp: LspSession, tmp_path: Path) -> None:
    text = (
        "format: 1\nid: t\nname: T\ncoordinates: plane\n"
        'cities: {"Fort: North": {x: 0, y: 0}, B: {x: 3, y: 0}, C: {x: 6, y: 0}}\n'
        "routes:\n  - {between: [Fort North, B], length: 2, color: red}\n"
        '  - {between: ["Fort: North", C], length: 4, color: blue}\n'
        "tickets: []\n"
    )
    uri = uri_for(tmp_path, "quoted.yaml")
    lsp.open(uri, text)
    (unknown,) = [d for d in lsp.diagnostics(uri) if d.code == "TTR201"]
    (meant, *_) = [a for a in lsp.code_actions(uri, [unknown]) if a.title.startswith("Did")]
    fixed = apply_edits(text, edits_of(meant, uri))
    assert '[{between: ["Fort: North", B]' in fixed.replace("\n  - ", "[")
    path = tmp_path / "quoted-fixed.yaml"
    path.write_text(fixed, encoding="utf-8")
    assert all(p["code"] != "TTR201" for p in validate_json(path))


def test_disable_a_warning_for_the_file_and_only_warnings(lsp: LspSession, tmp_path: Path) -> None:
    # Iran with Kerman-Bam a single track again: one fragile ticket (TTR353).
    text = map_text("iran").replace(
        "{between: [Kerman, Bam], length: 3, color: [yellow, gray]}",
        "{between: [Kerman, Bam], length: 3, color: yellow}",
    )
    uri = uri_for(tmp_path, "iran.yaml")
    lsp.open(uri, text)
    warnings = lsp.diagnostics(uri)
    assert warnings and {d.code for d in warnings} == {"TTR353"}
    (disable,) = [a for a in lsp.code_actions(uri, warnings[:1]) if a.title.startswith("Disable")]
    assert disable.title == "Disable TTR353 for this file"
    changed = apply_edits(text, edits_of(disable, uri))
    added = [line for line in changed.splitlines() if line not in text.splitlines()]
    assert added == ["# ttr: disable=TTR353"]
    # After the opening comments (the modeline and the header), before the `---`
    # that starts the document.
    assert changed.splitlines().index(added[0]) == changed.splitlines().index("---") - 1
    version = lsp.change(uri, changed)
    assert lsp.diagnostics(uri, version) == []
    path = tmp_path / "iran-disabled.yaml"
    path.write_text(changed, encoding="utf-8")
    assert validate_json(path) == []
    # With a `# ttr: disable=` line already there, the code joins it.
    with_line = text.replace("format: 1\n", "# ttr: disable=TTR151\nformat: 1\n", 1)
    uri = uri_for(tmp_path, "iran-with-line.yaml")
    lsp.open(uri, with_line)
    warnings = lsp.diagnostics(uri)
    (disable,) = [a for a in lsp.code_actions(uri, warnings) if a.title.startswith("Disable")]
    joined = apply_edits(with_line, edits_of(disable, uri))
    assert joined == text.replace("format: 1\n", "# ttr: disable=TTR151,TTR353\nformat: 1\n", 1)


def test_an_error_cannot_be_disabled(lsp: LspSession, tmp_path: Path) -> None:
    text = map_text("north_america").replace(
        "[Boston, Miami], value: 12", "[Boston, Miami], value: 9"
    )
    uri = uri_for(tmp_path, "error.yaml")
    lsp.open(uri, text)
    diagnostics = lsp.diagnostics(uri)
    assert [d.severity for d in diagnostics] == [types.DiagnosticSeverity.Error]
    assert not [a for a in lsp.code_actions(uri, diagnostics) if a.title.startswith("Disable")]


def test_completion_of_a_city_prefix_in_between(
    lsp: LspSession, tmp_path: Path, north_america
) -> None:
    text = map_text("north_america")
    uri = uri_for(tmp_path, "complete.yaml")
    lsp.open(uri, text)
    lsp.diagnostics(uri)
    # Typing a new ticket: the bracket is not closed yet, so the text is not YAML.
    typing = text.replace("tickets:\n", "tickets:\n  - {between: [Winnipeg, Sa\n", 1)
    version = lsp.change(uri, typing)
    assert [d.code for d in lsp.diagnostics(uri, version)] == ["TTR001"]
    line, written = line_holding(typing, "[Winnipeg, Sa")
    items = lsp.completion(uri, line, utf16(written))
    labels = [item.label for item in items]
    cities = {city.name for city in north_america.cities}
    assert set(labels) == cities - {"Winnipeg"}  # every city but the one already named
    (santa_fe,) = [item for item in items if item.label == "Santa Fe"]
    assert santa_fe.text_edit is not None and santa_fe.text_edit.new_text == "Santa Fe"
    replaced = santa_fe.text_edit.range
    assert (replaced.start.line, replaced.start.character) == (line, utf16(written) - 2)


def test_completion_of_colours(lsp: LspSession, tmp_path: Path) -> None:
    text = map_text("north_america")
    uri = uri_for(tmp_path, "colours.yaml")
    typing = text.replace("routes:\n", "routes:\n  - between: [Denver, Omaha]\n    color: \n", 1)
    lsp.open(uri, typing)
    line, written = line_holding(typing, "    color: ")
    labels = [item.label for item in lsp.completion(uri, line, len(written))]
    assert sorted(labels) == sorted(ROUTE_COLORS)
    assert lsp.completion(uri, 0, 0) == []  # on the modeline: nothing to complete


def test_hover_on_a_ticket_gives_its_shortest_path_and_value(
    lsp: LspSession, tmp_path: Path, north_america
) -> None:
    text = map_text("north_america")
    uri = uri_for(tmp_path, "hover.yaml")
    lsp.open(uri, text)
    line, written = line_holding(text, "[Boston, Miami]")
    found = lsp.hover(uri, line, written.index("value"))
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    shown = found.contents.value
    shortest = shortest_wagon_distance(north_america, "Boston", "Miami")
    assert "Ticket Boston–Miami" in shown and "value 12" in shown
    assert f"Shortest distance: {shortest} wagons, equal to the value (R2)" in shown
    path = re.search(r"Shortest path: (.*) \((.*) = (\d+) wagons\)", shown)
    assert path is not None and int(path.group(3)) == shortest
    cities = path.group(1).split(" → ")
    legs = [int(leg) for leg in path.group(2).split(" + ")]
    assert cities[0] == "Boston" and cities[-1] == "Miami" and sum(legs) == shortest
    for (a, b), leg in zip(pairwise(cities), legs, strict=True):
        assert leg in {r.length for r in north_america.routes if {r.a, r.b} == {a, b}}


def test_hover_on_a_city_and_on_a_route(lsp: LspSession, tmp_path: Path, north_america) -> None:
    text = map_text("north_america")
    uri = uri_for(tmp_path, "hover2.yaml")
    lsp.open(uri, text)
    line, written = line_holding(text, "  Denver: {")
    city = lsp.hover(uri, line, written.index("Denver") + 2)
    assert city is not None
    entries = {r.entry for r in north_america.routes if "Denver" in r.cities}
    tickets = [t for t in north_america.tickets if "Denver" in t.cities]
    assert f"**Denver**: {len(entries)} routes, {len(tickets)} tickets" in city.contents.value
    assert "Denver–El Paso \\(4\\)" in city.contents.value  # names escaped for Markdown
    line, written = line_holding(text, "{between: [Denver, Kansas City]")
    route = lsp.hover(uri, line, written.index("length"))
    assert route is not None
    shown = route.contents.value
    points = map_rules(north_america).route_score(4)
    load = next(
        c for c in connection_loads(north_america) if {c.a, c.b} == {"Denver", "Kansas City"}
    )
    assert "(double route): 4 wagons, black and orange" in shown
    assert f"Scores {points} points per track (R10)" in shown
    assert (
        f"On a shortest path of {load.tickets} of the {len(north_america.tickets)} tickets" in shown
    )


def test_definition_and_references_of_a_city(lsp: LspSession, tmp_path: Path) -> None:
    text = map_text("north_america")
    uri = uri_for(tmp_path, "definition.yaml")
    lsp.open(uri, text)
    line, written = line_holding(text, "{between: [Denver, Omaha]")
    found = lsp.definition(uri, line, written.index("Omaha") + 1)
    declared, _ = line_holding(text, "  Omaha: {")
    assert isinstance(found, types.Location) and found.uri == uri
    assert (found.range.start.line, found.range.start.character) == (declared, 2)
    assert (found.range.end.line, found.range.end.character) == (declared, 7)
    assert lsp.definition(uri, line, written.index("length")) is None
    places = lsp.references(uri, line, written.index("Omaha"))
    expected = sum(len(re.findall(r"\bOmaha\b", line)) for line in text.splitlines())
    assert len(places) == expected  # the entry, routes, tickets and the board layout


def test_document_symbols_list_cities_routes_and_tickets(
    lsp: LspSession, tmp_path: Path, europe
) -> None:
    uri = uri_for(tmp_path, "symbols.yaml")
    lsp.open(uri, map_text("europe"))
    sections = lsp.symbols(uri)
    assert [s.name for s in sections] == ["cities", "routes", "tickets"]
    cities, routes, tickets = (s.children for s in sections)
    assert [c.name for c in cities] == [c.name for c in europe.cities]
    assert len(routes) == len({r.entry for r in europe.routes})
    assert [t.name for t in tickets] == [f"{t.a}–{t.b}" for t in europe.tickets]
    for section in sections:
        for child in section.children:
            assert section.range.start.line <= child.range.start.line <= section.range.end.line


def test_a_yaml_file_that_is_not_a_map_gets_nothing(lsp: LspSession, tmp_path: Path) -> None:
    workflow = "name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: [}\n"
    uri = uri_for(tmp_path, "ci.yml")
    lsp.open(uri, workflow)
    map_as_text = uri_for(tmp_path, "notes.txt")
    lsp.open(map_as_text, map_text("iran"))
    assert not is_map_text(workflow)
    # A map opened after them is answered, so the server has read both.
    barrier = uri_for(tmp_path, "barrier.yaml")
    lsp.open(barrier, map_text("north_america"))
    lsp.diagnostics(barrier)
    assert lsp.published(uri) == [] and lsp.published(map_as_text) == []
    assert lsp.hover(uri, 0, 1) is None and lsp.symbols(uri) == []


def test_a_map_that_stops_being_one_has_its_diagnostics_cleared(
    lsp: LspSession, tmp_path: Path
) -> None:
    uri = uri_for(tmp_path, "becomes.yaml")
    text = map_text("north_america").replace("value: 12}", "value: 1}")
    lsp.open(uri, text)
    assert lsp.diagnostics(uri)
    lsp.change(uri, "just: notes\n")
    lsp.change(uri, text)  # and back: checked again
    assert lsp.diagnostics(uri)
    cleared = [p for p in lsp.published(uri) if not p.diagnostics]
    assert cleared and cleared[-1].version is None


def test_a_burst_of_edits_is_checked_once(lsp: LspSession, tmp_path: Path) -> None:
    text = map_text("iran")
    uri = uri_for(tmp_path, "burst.yaml")
    lsp.open(uri, text)
    lsp.diagnostics(uri)
    before = len(lsp.published(uri))
    for value in range(10):
        version = lsp.change(uri, text.replace("format: 1", f"format: 1\n# typing {value}"))
    lsp.diagnostics(uri, version)
    published = lsp.published(uri)[before:]
    assert published[-1].version == version
    assert len(published) < 10  # debounced: not one check per keystroke


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(BAD.glob("*.yaml")) if is_map_text(p.read_text(encoding="utf-8"))],
    ids=lambda p: p.stem,
)
def test_every_bad_corpus_map_gets_the_diagnostics_of_ttr_validate(
    lsp: LspSession, tmp_path: Path, path: Path
) -> None:
    text = path.read_text(encoding="utf-8")
    diagnostics = assert_same_as_validate(lsp, tmp_path, path.name, text)
    if text.startswith("# expect: none"):
        # A check's passing example: nothing but the design warnings tiny maps
        # raise (as tests/maps/checks/test_checks.py reads the corpus).
        design = {c.code for c in all_checks() if c.function and "design" in c.function.__module__}
        assert {d.code for d in diagnostics} <= design
        return
    expected = re.match(r"# expect: (TTR\d+)", text)
    assert expected is not None and expected.group(1) in {d.code for d in diagnostics}


def test_positions_count_utf16_units_as_the_editor_does(lsp: LspSession, tmp_path: Path) -> None:
    text = (
        "format: 1\nid: t\nname: T\ncoordinates: plane\n"
        'cities: {"🚂 Town": {x: 0, y: 0}, B: {x: 3, y: 0}}\n'
        'routes: [{between: ["🚂 Town", B], length: 2, color: red}]\n'
        'tickets: [{between: ["🚂 Town", Bee], value: 2}]\n'
    )
    diagnostics = assert_same_as_validate(lsp, tmp_path, "emoji.yaml", text)
    (unknown,) = [d for d in diagnostics if d.code == "TTR301"]
    line, written = line_holding(text, "Bee")
    assert unknown.range.start.character == utf16(written[: written.index("Bee")])
    uri = (tmp_path / "emoji.yaml").as_uri()
    definition = lsp.definition(uri, line, utf16(written[: written.index("Town")]))
    assert definition is not None and definition.range.start.line == 4


def test_a_utf8_editor_gets_byte_columns_and_sigterm_stops_the_server(tmp_path: Path) -> None:
    """Neovim offers UTF-8 first: columns are then counted in bytes. An editor that
    stops the server with SIGTERM while it waits on its input never leaves a
    `ttr lsp` behind."""
    import signal

    session = LspSession(encodings=["utf-8", "utf-16"])
    try:
        assert session.initialized.capabilities.position_encoding == "utf-8"
        text = map_text("europe").replace("[Venezia, Zürich], len", "[Zürich, Venezzia], len")
        uri = uri_for(tmp_path, "europe.yaml")
        session.open(uri, text)
        (unknown,) = [d for d in session.diagnostics(uri) if d.code == "TTR201"]
        line, written = line_holding(text, "Venezzia")
        column = len(written[: written.index("Venezzia")].encode("utf-8"))
        assert (unknown.range.start.line, unknown.range.start.character) == (line, column)
        assert unknown.range.end.character == column + len("Venezzia")
        server = session.client._server
        assert server is not None
        server.send_signal(signal.SIGTERM)
        assert session.call(server.wait()) == 128 + signal.SIGTERM
        assert b"Traceback" not in session.call(server.stderr.read())  # type: ignore[union-attr]
    finally:
        session.close()


def test_hostile_text_gets_a_diagnostic_and_the_server_keeps_answering(
    lsp: LspSession, tmp_path: Path
) -> None:
    header = "format: 1\nid: bomb\nname: Bomb\ncoordinates: plane\ntickets: []\n"
    laughs = "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9 if i else ['lol'] * 9)}]\n" for i in range(10)
    )
    bomb = (
        header + "description: hi\nx:\n" + "".join(f"  {line}" for line in laughs.splitlines(True))
    )
    uri = uri_for(tmp_path, "bomb.yaml")
    lsp.open(uri, bomb)
    (diagnostic,) = lsp.diagnostics(uri)
    assert diagnostic.code == "TTR006" and diagnostic.severity == types.DiagnosticSeverity.Error
    assert lsp.hover(uri, 0, 0) is None and lsp.symbols(uri) == []

    huge = header + "cities: {}\nroutes: []\n" + "#" * limits.MAX_MAP_BYTES
    big = uri_for(tmp_path, "huge.yaml")
    lsp.open(big, huge)
    (too_large,) = lsp.diagnostics(big)
    assert too_large.code == "TTR004" and "larger than the limit" in too_large.message
    lsp.close_document(big)

    # Still alive, still right.
    text = map_text("north_america")
    after = uri_for(tmp_path, "after.yaml")
    lsp.open(after, text)
    assert lsp.diagnostics(after) == []
    assert lsp.is_running


def test_garbage_on_the_wire_does_not_stop_the_server(lsp: LspSession, tmp_path: Path) -> None:
    server = lsp.client._server
    assert server is not None and server.stdin is not None
    server.stdin.write(b"Content-Length: 9\r\n\r\n{not json")
    server.stdin.write(b'Content-Length: 20\r\n\r\n{"jsonrpc": "2.0"}  ')
    uri = uri_for(tmp_path, "still.yaml")
    broken = map_text("iran").replace("[Rasht, Zahedan], value: 25", "[Rasht, Zahedan], value: 24")
    lsp.open(uri, broken)
    assert {d.code for d in lsp.diagnostics(uri)} == {"TTR304"}


def test_the_server_stops_at_once_when_the_editor_closes_the_pipe() -> None:
    """An editor that dies (its pipe closes) never leaves a `ttr lsp` behind."""
    import subprocess
    import sys

    process = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "lsp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _, errors = process.communicate(b"", timeout=30)
    assert process.returncode == 0 and b"Traceback" not in errors
