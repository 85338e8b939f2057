"""What a report's numbers are set beside (the published boards, nearest first,
each with what of it is not modelled) and what of the map a run plays without:
in report.json, report.html, the terminal lines (issue 37)."""

from __future__ import annotations

import json
from functools import cache

from ttr_core.playtest.baseline import find_baseline
from ttr_core.playtest.findings import summary_lines
from ttr_core.playtest.html import to_html
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.report import BalanceReport, first_schema_problem
from ttr_core.playtest.simulate import simulate
from ttr_maps import load_map
from ttr_maps.published import published_boards
from ttr_maps.text import for_html


@cache
def _report(map_id: str, players: int, with_baseline: bool = True) -> BalanceReport:
    baseline = find_baseline(("greedy",), players) if with_baseline else None
    if with_baseline:
        assert baseline is not None, "the shipped baseline holds greedy at 2-5 players"
    played = PlayedMap(load_map(map_id), map_id)
    return simulate(played, RunPlan(4, players, ("greedy",), 3), baseline=baseline).report


def test_r1_a_report_names_the_boards_of_its_baseline_nearest_first() -> None:
    report = _report("switzerland", 2)
    assert report.baseline is not None
    assert {b.map for b in report.beside} == {b.map for b in report.baseline.boards}
    # Switzerland's nearest board is itself, then the other 2-3 player board of its family.
    assert [b.map for b in report.beside][:2] == ["switzerland", "nordic_countries"]
    files = {b.map_id: b for b in published_boards()}
    for board in report.beside:
        known = files[board.map]
        assert (board.name, board.rules, board.players, board.not_modelled) == (
            known.name,
            known.family,
            known.players,
            known.not_modelled,
        )
    # At 4 players the 2-3 player boards are not in the baseline, so not beside.
    at_four = _report("europe", 4)
    assert "switzerland" not in {b.map for b in at_four.beside}
    assert at_four.beside[0].map == "europe" and at_four.beside[1].rules == "europe"


def test_the_map_played_without_is_in_every_view() -> None:
    report = _report("switzerland", 2)
    without = load_map("switzerland").not_modelled
    assert without and report.settings.not_modelled == without
    data = report.to_dict()
    assert data["settings"]["not_modelled"] == list(without)
    assert first_schema_problem(json.loads(json.dumps(data))) is None
    assert BalanceReport.from_dict(data) == report
    lines = summary_lines(report)
    assert lines[0].startswith(f"Switzerland is played without: {without[0]}")
    nordic = next(b for b in published_boards() if b.map_id == "nordic_countries")
    assert any(
        line.strip().startswith("Nordic Countries (nordic, 2–3; plays without: ")
        and nordic.not_modelled[0] in line
        for line in lines
    )
    page = to_html(report)
    assert 'id="beside"' in page and for_html(nordic.not_modelled[0]) in page
    # The screening's baseline names the boards by their names.
    assert "Nordic Countries (" in report.screening.baseline


def test_a_board_modelled_whole_says_nothing_is_left_out() -> None:
    report = _report("north_america", 2)
    assert report.settings.not_modelled == ()
    lines = summary_lines(report)
    assert not any("is played without" in line for line in lines)
    assert "  North America (base, 2–5)" in lines


def test_without_a_baseline_the_report_says_it_sets_numbers_beside_fair_shares() -> None:
    report = _report("switzerland", 2, with_baseline=False)
    assert report.beside == ()
    assert report.to_dict()["beside"] == []
    assert any(line.startswith("set beside: fair shares") for line in summary_lines(report))
