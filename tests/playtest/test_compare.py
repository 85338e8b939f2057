"""`ttr compare`: the map diff, rows matched by connection and ticket, Holm over
all rows, clustered and paired tests."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from balance_reports import checked, synthetic_report
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.compare import compare_maps, compare_reports, to_html, to_text
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.report import BalanceReport
from ttr_maps import load_map

runner = CliRunner()


def _report(map_id: str, first_place_wins: int, stalls: int = 0, **changes) -> BalanceReport:
    rest = (1000 - first_place_wins) / 3
    return synthetic_report(
        map_id=map_id,
        bots=("a",),
        wins_by_turn_order=[first_place_wins, rest, rest, rest],
        stalls=(stalls, {"track": stalls} if stalls else {}),
        **({"routes": {"A-B": 900, "B-C": 100}} | changes),
    )


def test_a_real_change_is_significant_and_noise_is_not() -> None:
    comparison = compare_reports(_report("old", 313, stalls=40), _report("new", 250))
    significant = {(r.group, r.what) for r in comparison.significant}
    assert ("win rate by place in turn order", "1") in significant
    assert ("stalled games", "stalled games") in significant
    assert ("tracks claimed per game", "A–B") not in significant
    same = compare_reports(_report("old", 255), _report("new", 250))
    assert same.significant == ()
    assert "no significant difference" in to_text(same)


def test_holm_keeps_many_small_route_differences_quiet() -> None:
    a = synthetic_report(routes={f"R{i}": 500 for i in range(100)})
    b = synthetic_report(routes={f"R{i}": 545 for i in range(100)})  # p ~ 0.04 each
    comparison = compare_reports(a, b)
    assert comparison.significant == ()
    assert all(r.p_value > 0.04 for r in comparison.rows)  # adjusted, not raw
    assert "Holm" in comparison.method


def test_rows_carry_both_values_the_difference_and_their_intervals() -> None:
    comparison = compare_reports(_report("old", 313), _report("new", 250))
    [row] = [r for r in comparison.rows if r.what == "1"]
    assert (row.a, row.b, row.difference) == (0.313, 0.25, -0.063)
    assert row.a_ci95[0] < 0.313 < row.a_ci95[1] and row.b_ci95[0] < 0.25 < row.b_ci95[1]
    low, high = row.difference_ci95
    assert low < -0.063 < high < 0


def test_ticket_completion_is_compared_per_ticket_and_clustered_by_game() -> None:
    tickets = [("A–B", 4, 400, 380), ("C–D", 9, 400, 200)]
    a = synthetic_report(tickets=tickets)
    b = synthetic_report(tickets=[("B–A", 4, 400, 380), ("C–D", 9, 400, 120)])
    rows = {r.what: r for r in compare_reports(a, b).rows if r.group.endswith("by ticket")}
    assert set(rows) == {"A–B", "C–D"}  # matched by the two cities, in any order
    assert rows["C–D"].significant and not rows["A–B"].significant
    # A design effect widens the interval and weakens the test.
    clustered = replace(
        b,
        tickets=replace(
            b.tickets,
            by_ticket=tuple(replace(t, design_effect=4.0) for t in b.tickets.by_ticket),
        ),
    )
    wide = {r.what: r for r in compare_reports(a, clustered).rows if r.what == "C–D"}["C–D"]
    assert wide.p_value > rows["C–D"].p_value


def test_routes_are_matched_by_connection_so_a_new_double_is_compared() -> None:
    a = synthetic_report(routes={"A-B": 500, "B-C": 500})
    b = synthetic_report(routes={"A-B/1": 500, "A-B/2": 400, "B-C": 500})
    comparison = compare_reports(a, b)
    [row] = [r for r in comparison.rows if r.what == "A–B"]
    assert row.a == 0.5 and row.b == pytest.approx(0.9) and row.significant
    assert row.tracks is None  # A has one track: nothing to show track by track
    both = compare_reports(b, b)
    [double] = [r for r in both.rows if r.what == "A–B"]
    assert double.tracks == ((0.5, 0.4), (0.5, 0.4))
    [change] = [c for c in comparison.diff if c.what == "route"]
    assert str(change) == (
        "route A–B: 2 gray → 2 gray + 2 gray; A: claimed in 500 of 1000 games (50 %); "
        "B: claimed in 700 of 1000 games (70 %)"
    )


def test_tracks_per_game_intervals_stay_within_the_tracks_of_the_connection() -> None:
    a = synthetic_report(routes={"A-B": 2, "B-C": 999})  # of 1,000 games
    b = synthetic_report(routes={"A-B/1": 999, "A-B/2": 999, "B-C": 999})
    rows = {r.what: r for r in compare_reports(a, b).rows if r.group == "tracks claimed per game"}
    assert rows["A–B"].a_ci95[0] == 0.0 < rows["A–B"].a_ci95[1]
    assert rows["A–B"].b_ci95[1] == 2.0 and rows["B–C"].b_ci95[1] == 1.0
    assert "< 0.0001" in to_text(compare_reports(a, b))


def test_the_map_diff_names_cities_routes_tickets_and_rules() -> None:
    a = synthetic_report(
        routes={"A-B": 500, "B-C": 500},
        tickets=[("A–B", 4, 10, 9), ("B–C", 5, 10, 9), ("C–D", 6, 10, 5)],
    )
    b = synthetic_report(
        routes={"A-B": 500, "C-D": 500},
        tickets=[("A–B", 4, 10, 9), ("B–C", 6, 10, 9), ("A–D", 6, 10, 5)],
    )
    b = replace(
        b,
        cities={"A": 0.5, "D": 0.5},
        settings=replace(b.settings, rules={**b.settings.rules, "wagons": 40}),
    )
    a = replace(a, cities={"A": 0.5, "C": 0.5})
    diff = [f"{c.kind} {c.what} {c.name}: {c.a} → {c.b}" for c in compare_reports(a, b).diff]
    assert diff == [
        "removed city C: None → None",
        "added city D: None → None",
        "removed route B–C: 2 gray → None",
        "added route C–D: None → 2 gray",
        "added ticket A–D: None → 6",
        "changed ticket B–C: 5 → 6",
        "removed ticket C–D: 6 → None",
        "changed rule wagons: 45 → 40",
    ]
    assert "map diff (B against A), 8 changes:" in to_text(compare_reports(a, b))


def test_the_map_diff_shows_every_change_that_alters_play_and_what_hardly_reaches_it() -> None:
    """D7 bonuses, E4 long tickets, E2 tunnels and E3 ferries' locomotives are changes;
    a double's colours written in another order are not. A changed ticket kept a
    few times of the many it was offered is said to hardly reach play."""
    a = synthetic_report(routes={"A-B/1": 500, "A-B/2": 400, "B-C": 500, "C-D": 50})
    b = synthetic_report(routes={"A-B/1": 400, "A-B/2": 500, "B-C": 500, "C-D": 50})

    def routes(report, **changed):
        return tuple(replace(r, **changed.get(r.route, {})) for r in report.routes)

    def tickets(report, **changed):
        return replace(
            report.tickets,
            by_ticket=tuple(
                replace(t, **changed.get(t.ticket, {})) for t in report.tickets.by_ticket
            ),
        )

    a = replace(a, routes=routes(a, **{"A-B/1": {"color": "red"}, "A-B/2": {"color": "blue"}}))
    b = replace(b, routes=routes(b, **{"A-B/1": {"color": "blue"}, "A-B/2": {"color": "red"}}))
    assert compare_reports(a, b).diff == ()  # the colours' order is no change
    b = replace(
        b,
        routes=routes(b, **{"B-C": {"tunnel": True}, "C-D": {"ferry": 1}}),
        tickets=tickets(b, T4={"bonus": 2}, T5={"long": True}, T6={"value": 7}),
    )
    a = replace(a, tickets=tickets(a, T6={"offered": 400, "held": 12, "completed": 10}))
    diff = {c.name.strip("–"): str(c) for c in compare_reports(a, b).diff}
    assert diff["B–C"].startswith("route B–C: 2 gray → 2 gray tunnel;")
    assert diff["C–D"] == (
        "route C–D: 2 gray → 2 gray ferry 1; claimed in 50 of 1000 games (5 %): a change to "
        "it hardly reaches play"
    )
    assert diff["T4"].startswith("ticket –T4: 4 → 4+2; kept 400 of the 400 times offered")
    assert diff["T5"].startswith("ticket –T5: 5 → 5 long;")
    assert diff["T6"].startswith(
        "ticket –T6: 6 → 7; A: kept 12 of the 400 times offered (3 %): a change to it hardly "
        "reaches play; B: kept 400"
    )


def test_text_and_html_show_both_values_titles_and_settings_that_differ() -> None:
    old, new = _report("old", 313), _report("new", 250)
    new = replace(new, settings=replace(new.settings, players=3))
    comparison = compare_reports(old, new, titles=("v1.yaml", "v2.yaml"))
    text = to_text(comparison)
    assert "win rate by place in turn order: 1: A 0.313 (0.285–0.3424)  B 0.25 (" in text
    assert "A: v1.yaml — Old: 1000 games, 4 players" in text
    assert "differ in players" in text
    page = to_html(comparison)
    assert "<h2>Significant differences</h2>" in page and 'class="sig"' in page
    assert "<th>A: v1.yaml</th>" in page and "<h2>Map diff (B against A)</h2>" in page


def test_map_names_are_text_in_every_format() -> None:
    comparison = compare_reports(_report("<b>&", 250), _report("x\x1b[2J", 250), ("<b>&", "x"))
    page = to_html(comparison)
    assert "&lt;b&gt;&amp;" in page and "<b>&" not in page
    assert "\\x1b[2J" in to_text(comparison)


def test_maps_played_alike_are_compared_paired_game_by_game() -> None:
    game_map = load_map("iran")
    played = PlayedMap(game_map, "iran")
    same = compare_maps(played, played, RunPlan(6, 3, ("greedy",), 1))
    assert same.paired and "paired game by game" in same.method
    # Common seeds on the same map: the same games, every difference exactly 0.
    assert all(r.difference in (0, None) and r.p_value == 1 for r in same.rows)
    assert same.diff == ()


def _write(folder: Path, report: BalanceReport) -> Path:
    folder.mkdir()
    (folder / "report.json").write_text(json.dumps(checked(report)))
    return folder


def test_cli_compares_two_report_files_as_json_titled_by_their_folders(tmp_path: Path) -> None:
    a = _write(tmp_path / "before", _report("a", 313))
    b = _write(tmp_path / "after", _report("b", 250))
    result = runner.invoke(app, ["compare", str(a), str(b / "report.json"), "-f", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == "ttr-comparison" and data["titles"] == ["before", "after"]
    assert [r["what"] for r in data["significant"]] == ["1"]
    assert data["paired"] is False


def test_cli_plays_two_maps_alike_and_writes_html(tmp_path: Path) -> None:
    out = tmp_path / "cmp.html"
    arguments = ["compare", "north_america", "europe", "-n", "4", "--players", "2", "-j", "1"]
    result = runner.invoke(app, [*arguments, "--bots", "greedy", "-f", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "North America" in page and "Europe" in page and "paired game by game" in page
    assert "<th>A: north_america</th>" in page


def test_cli_compares_a_report_with_a_map_unpaired(tmp_path: Path) -> None:
    a = _write(tmp_path / "old", _report("old", 250))
    result = runner.invoke(app, ["compare", str(a), "iran", "-n", "2", "-j", "1", "-f", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["paired"] is False


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot read the report"),
        ('{"format": "other"}', "not a report.json"),
        (
            '{"format": "ttr-simulation-report", "version": 4}',
            "$: 'findings' is a required property",
        ),
        ('{"format": "ttr-simulation-report", "version": 1}', "written by an older ttr"),
    ],
)
def test_cli_refuses_what_is_not_a_report(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    result = runner.invoke(app, ["compare", str(path), str(path)])
    assert result.exit_code == 2 and message in result.output


def test_cli_refuses_an_unknown_map() -> None:
    result = runner.invoke(app, ["compare", "atlantis", "europe", "-n", "1"])
    assert result.exit_code == 2
