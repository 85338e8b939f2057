"""The checks: a corpus of bad maps, each declaring the problems it must produce,
and the registry's contract (codes, levels, docstrings with examples)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from testdata import BAD

from ttr_maps.checks.catalog import all_checks
from ttr_maps.checks.layout import BOARD_CODES
from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import REGISTRY, CheckContext
from ttr_maps.checks.suppress import disabled_codes
from ttr_maps.checks.validate import validate_document, validate_file
from ttr_maps.graph import shortest_paths_from
from ttr_maps.io.document import parse_document

DESIGN_CODES = {
    c.code for c in all_checks() if c.function and c.function.__module__.endswith(".design")
}
#: `# expect: CODE at LINE:COL says: MESSAGE`: a problem the file must show, and its words.
EXPECT = re.compile(r"^# expect: (TTR\d{3}) at (\d+):(\d+) says: (.+)$", re.M)
#: A passing example (the other side of a check's failing file): no problem at all.
EXPECT_NONE = "# expect: none\n"


def _expected(path: Path) -> list[tuple[str, int, int, str]]:
    found = EXPECT.findall(path.read_text())
    return sorted((c, int(line), int(col), said) for c, line, col, said in found)


@pytest.mark.parametrize("path", sorted(BAD.glob("*.yaml")), ids=lambda p: p.stem)
def test_bad_map_produces_exactly_its_declared_problems(path: Path) -> None:
    expected = _expected(path)
    passing = path.read_text().startswith(EXPECT_NONE)
    declared = path.read_text().count("# expect: TTR")
    assert len(expected) == declared, f"{path.name}: an expect line without 'says: MESSAGE'"
    assert expected or passing, f"{path.name} declares no '# expect: TTRnnn at line:col says: …'"
    assert not (expected and passing), path.name
    report = validate_file(path)
    found = sorted((p.code, p.position.line, p.position.column, p.message) for p in report.problems)
    # Design warnings (tiny maps raise most of them) count only in files that expect them.
    expected_codes = {code for code, *_ in expected}
    found = [f for f in found if f[0] not in DESIGN_CODES or f[0] in expected_codes]
    assert found == expected


def test_corpus_covers_every_code_that_a_file_can_show() -> None:
    covered = {code for path in BAD.glob("*.yaml") for code, *_ in _expected(path)}
    # TTR004 and TTR010 need files too big to keep: tests/test_hostile.py makes them.
    assert set(REGISTRY) - {"TTR000", "TTR004", "TTR010"} <= covered


def test_every_check_has_a_stable_code_a_summary_and_examples() -> None:
    checks = all_checks()
    assert [c.code for c in checks] == sorted(c.code for c in checks)
    for entry in checks:
        assert re.fullmatch(r"TTR\d{3}", entry.code)
        assert entry.summary and "\n" not in entry.summary
        assert entry.doc, entry.code
        if entry.code not in ("TTR000",):
            assert "Failing" in entry.doc and "Passing" in entry.doc, entry.code
        expected_level = Level.WARNING if entry.code[4] == "5" else Level.ERROR
        assert entry.level is expected_level, entry.code


PLANE = """\
format: 1
id: t
name: T
coordinates: plane
cities:
  A: {x: 0, y: 0}
  B: {x: 2, y: 0}
  C: {x: 2, y: 2}
  D: {x: 0, y: 2}
routes:
  - {between: [A, B], length: 2, color: red}
  - {between: [B, C], length: 2, color: blue}
  - {between: [C, D], length: 2, color: [green, gray]}
  - {between: [A, C], length: 3, color: white}
  - {between: [B, D], length: 3, color: black}
tickets:
  - {between: [A, D], value: 5}
# ttr: disable=TTR151,TTR152,TTR352,TTR353,TTR451
"""


def test_r2_ticket_value_message_gives_both_numbers_and_the_path() -> None:
    report = validate_document(parse_document(PLANE.replace("value: 5", "value: 4"), "t.yaml"))
    [problem] = [p for p in report.problems if p.code == "TTR304"]
    assert "value 4" in problem.message and "5 wagons" in problem.message
    assert "A – B – D" in problem.message
    assert problem.level is Level.ERROR


def _codes(text: str) -> list[str]:
    return [p.code for p in validate_document(parse_document(text, "t.yaml")).problems]


def test_ttr102_a_city_named_by_a_misspelt_route_gets_the_spelling_advice_not_no_route() -> None:
    text = PLANE.replace("  D: {x: 0, y: 2}\n", "  D: {x: 0, y: 2}\n  Eastport: {x: 4, y: 0}\n")
    route = "  - {between: [B, Eastport], length: 2, color: red}\n"
    spelt = text.replace("tickets:", route + "tickets:")
    assert "TTR102" not in _codes(spelt)
    misspelt = _codes(spelt.replace("[B, Eastport]", "[B, Eastprt]"))
    assert "TTR102" not in misspelt and misspelt  # the misspelling is reported, not a lonely city
    lonely = validate_document(parse_document(text, "t.yaml")).problems
    assert [p.message for p in lonely if p.code == "TTR102"] == ["city 'Eastport' has no route"]


def _messages(text: str, code: str) -> list[str]:
    problems = validate_document(parse_document(text, "t.yaml")).problems
    return [p.message for p in problems if p.code == code]


def test_ttr401_names_four_cities_of_a_larger_group_and_counts_the_rest() -> None:
    chain = "".join(f"  - {{between: [P{i}, P{i + 1}], length: 1, color: red}}\n" for i in range(5))
    places = "".join(f"  P{i}: {{x: {i}, y: 9}}\n" for i in range(6))
    text = PLANE.replace("routes:\n", "  " + places.strip() + "\nroutes:\n" + chain)
    assert _messages(text, "TTR401") == [
        "the map is split into 2 groups that no route joins: {P0, P1, P2, P3 and 2 more} "
        "(6 cities); {A, B, C, D} (4 cities)"
    ]


def test_ttr254_too_much_gray_names_the_longest_gray_route_not_the_longest_route() -> None:
    gray = PLANE.replace("color: red}", "color: gray}").replace("color: blue}", "color: gray}")
    gray = gray.replace("[C, D], length: 2, color: [green, gray]", "[C, D], length: 4, color: gray")
    gray = gray.replace("[A, C], length: 3, color: white", "[A, C], length: 6, color: white")
    gray = gray.replace("color: black}", "color: gray}")
    [message] = [m for m in _messages(gray, "TTR254") if m.startswith("gray covers")]
    assert message.startswith("gray covers 11 of 17 spaces (65 %)") and "such as C–D" in message


def test_disable_comment_silences_a_warning_but_never_an_error() -> None:
    noisy = validate_document(parse_document(PLANE, "t.yaml"))
    assert [p.code for p in noisy.problems] == ["TTR252"]
    quiet = validate_document(parse_document("# ttr: disable=TTR252\n" + PLANE, "t.yaml"))
    assert quiet.problems == []
    text = "# ttr: disable=TTR304, TTR252\n" + PLANE.replace("value: 5", "value: 4")
    still = validate_document(parse_document(text, "t.yaml"))
    assert [p.code for p in still.problems] == ["TTR051", "TTR304"]
    assert "only warnings can be silenced" in still.problems[0].message


def test_misspelt_disable_code_is_a_warning_ttr051_and_silences_nothing() -> None:
    text = "# ttr: disable=TTR999\n" + PLANE
    report = validate_document(parse_document(text, "t.yaml"))
    assert [(p.code, p.level) for p in report.problems] == [
        ("TTR051", Level.WARNING),
        ("TTR252", Level.WARNING),
    ]
    assert (report.problems[0].position.line, report.problems[0].position.column) == (1, 16)
    assert "TTR999" in report.problems[0].message


def test_disabled_codes_reads_only_whole_comment_lines() -> None:
    assert disabled_codes("# ttr: disable=ttr252\n") == {"TTR252"}
    assert disabled_codes("name: x  # ttr: disable=TTR252\n") == frozenset()
    assert disabled_codes("# ttr: disable=TTR252\r\nid: x\r\n") == {"TTR252"}


def test_r2_ticket_distances_need_one_search_per_chosen_city_not_per_ticket() -> None:
    text = PLANE.replace(
        "  - {between: [A, D], value: 5}\n",
        "  - {between: [A, D], value: 5}\n  - {between: [A, B], value: 2}\n"
        "  - {between: [C, A], value: 3}\n  - {between: [B, D], value: 3}\n",
    )
    document = parse_document(text, "t.yaml")
    report = validate_document(document)
    assert report.map is not None
    context = CheckContext(report.map, document)
    assert set(context.ticket_distances.searches) <= {"A", "B"}
    assert len(context.ticket_distances.searches) <= 2
    assert context.wagon_distance("D", "A") == 5
    assert context.shortest_path("D", "A")[0] == "D"


def test_shortest_paths_stop_early_but_stay_exact() -> None:
    adjacency = {"A": {"B": 1, "C": 5}, "B": {"A": 1, "C": 1}, "C": {"A": 5, "B": 1, "D": 9}}
    adjacency["D"] = {"C": 9}
    found = shortest_paths_from(adjacency, "A", ["C"])
    assert found.distance["C"] == 2 and found.path_to("C") == ["A", "B", "C"]
    assert not found.complete and "D" not in found.distance
    everything = shortest_paths_from(adjacency, "A")
    assert everything.complete and everything.distance["D"] == 11


def test_checks_tolerate_unknown_cities_and_self_loops_together() -> None:
    text = PLANE.replace(
        "tickets:\n",
        "  - {between: [Q, Q], length: 1, color: pink}\n"
        "  - {between: [A, Z], length: 8, color: pink, ferry: 8}\n"
        "tickets:\n  - {between: [Z, Q], value: 1}\n  - {between: [A, A], value: 1}\n",
    )
    report = validate_document(parse_document(text, "t.yaml"))
    codes = {p.code for p in report.problems}
    assert {"TTR201", "TTR202", "TTR301", "TTR302"} <= codes


def test_geographic_published_board_has_no_length_or_colour_warnings() -> None:
    from ttr_maps.io.bundled import bundled_map_path

    path = bundled_map_path("north_america")
    assert path is not None
    report = validate_file(path)
    # The board checks (TTR551-TTR557) are tested by test_layout.py, where Europe
    # and North America are marked unfinished; this test is about the rest.
    assert [p for p in report.problems if p.code not in BOARD_CODES] == []


def test_ttr401_groups_are_connected_city_groups_of_declared_cities() -> None:
    from ttr_maps.graph import connected_city_groups

    text = PLANE.replace(
        "  - {between: [A, C], length: 3, color: white}\n"
        "  - {between: [B, D], length: 3, color: black}\n",
        "  - {between: [A, Z], length: 3, color: white}\n"
        "  - {between: [Z, D], length: 3, color: black}\n",
    ).replace("  - {between: [B, C], length: 2, color: blue}\n", "")
    report = validate_document(parse_document(text, "t.yaml"))
    assert report.map is not None
    # The unknown city Z (TTR201) joins nothing: A-B and C-D stay two groups.
    assert connected_city_groups(report.map) == [["A", "B"], ["C", "D"]]
    [split] = [p for p in report.problems if p.code == "TTR401"]
    assert "{A, B} (2 cities); {C, D} (2 cities)" in split.message


def test_validation_does_not_import_networkx() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ttr_maps.checks.validate import validate_file\n"
        f"validate_file({str(BAD / 'ttr401_disconnected.yaml')!r})\n"
        "from ttr_maps.io.bundled import bundled_map_path\n"
        "validate_file(bundled_map_path('north_america'))\n"
        "assert 'networkx' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
