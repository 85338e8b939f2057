"""Findings from simulation reports: synthetic reports with known answers, and a
small real simulation of a map whose games stall."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from testdata import BAD
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.findings import (
    PUBLISHED_TURNS_PER_PLAYER,
    findings,
    fit_completion,
    summary_lines,
)

STALLING_MAP = BAD / "ttr451_games_stall.yaml"
runner = CliRunner()


def _rate(wins: float, games: int) -> dict[str, Any]:
    return {"games": games, "wins": wins, "rate": wins / games}


def _report(**parts: Any) -> dict[str, Any]:
    """A fair 4-player report of 1000 games; `parts` replace whole sections."""
    report: dict[str, Any] = {
        "games": 1000,
        "settings": {"players": 4, "bots": ["a", "b"]},
        "win_rate": {
            "fair_share": 0.25,
            "by_seat": {str(s): _rate(250, 1000) for s in range(4)},
            "by_bot": {"a": _rate(500, 2000), "b": _rate(500, 2000)},
        },
        "stalls": {"count": 0, "causes": {}, "seeds": []},
        "routes": [{"route": f"R{i}", "claimed": 500, "rate": 0.5} for i in range(40)],
        "tickets": {
            "by_ticket": [
                {"ticket": f"T{v}", "value": v, "held": 400, "completed": 400 - 20 * v}
                for v in range(4, 16)
            ]
        },
        "longest_path_bonus": {"by_bot": {"a": 500, "b": 500}},
        "turns": {"count": 1000, "mean": 150.0, "sd": 10.0},
    }
    report.update(parts)
    return report


def _codes(report: dict[str, Any]) -> list[str]:
    return [f["code"] for f in findings(report)]


def test_a_fair_report_has_no_finding() -> None:
    assert findings(_report()) == []
    assert summary_lines([]) == ["findings: none significant"]


def test_r4_turn_order_advantage_needs_an_interval_that_excludes_the_fair_share() -> None:
    win = _report()["win_rate"]
    win["by_turn_order"] = {str(o + 1): _rate(229, 1000) for o in range(4)}
    win["by_turn_order"]["1"] = _rate(313, 1000)  # Iran's 31.3 % at 1,000 games
    [found] = findings(_report(win_rate=win))
    assert found["code"] == "seat-advantage" and found["severity"] == "high"
    low, high = found["evidence"]["ci95"]
    assert 0.25 < low < 0.313 < high
    # The same rates over 100 games are not significant: no finding.
    win["by_turn_order"] = {str(o + 1): _rate(22.9, 100) for o in range(4)}
    win["by_turn_order"]["1"] = _rate(31.3, 100)
    assert findings(_report(win_rate=win)) == []


def test_seat_numbers_alone_are_not_judged() -> None:
    # The first player is random (R4): a seat number's rate only reflects the bots.
    win = _report()["win_rate"]
    win["by_seat"]["0"] = _rate(400, 1000)
    assert findings(_report(win_rate=win)) == []


def test_r4_first_player_advantage_is_found_by_turn_order() -> None:
    win = _report()["win_rate"]
    win["by_turn_order"] = {str(o + 1): _rate(229, 1000) for o in range(4)}
    win["by_turn_order"]["1"] = _rate(313, 1000)
    [found] = findings(_report(win_rate=win))
    assert found["evidence"]["turn_order"] == 1
    assert found["title"].startswith("player 1 in turn order wins 31.3 % of games")


def test_r11_at_two_or_three_players_a_closed_second_track_is_not_rarely_claimed() -> None:
    routes = [{"route": f"R{i}", "claimed": 500, "rate": 0.5} for i in range(10)]
    routes += [
        {"route": "A-B/1", "claimed": 990, "rate": 0.99},
        {"route": "A-B/2", "claimed": 2, "rate": 0.002},
    ]
    three = _report(routes=routes, settings={"players": 3, "bots": ["a", "b"]})
    assert "rarely-claimed-routes" not in _codes(three)
    four = _report(routes=routes, settings={"players": 4, "bots": ["a", "b"]})
    [rare] = [f for f in findings(four) if f["code"] == "rarely-claimed-routes"]
    assert [r["route"] for r in rare["evidence"]["routes"]] == ["A-B/2"]


def test_r6_stalls_name_their_cause_and_the_matching_advice() -> None:
    stalls = {"count": 290, "causes": {"track": 290, "cards": 120}, "seeds": []}
    routes = [{"route": f"R{i}", "claimed": 150, "rate": 0.5} for i in range(40)]
    [found] = findings(_report(games=300, stalls=stalls, routes=routes))
    assert found["code"] == "stalls" and found["severity"] == "high"
    assert "290 of 300 games stalled" in found["title"] and "track: 290" in found["title"]
    assert "TTR451" in found["suggestion"]
    assert found["evidence"]["ci95"][0] > 0.9


def test_dominant_style_is_flagged_only_above_the_fair_share() -> None:
    win = _report()["win_rate"]
    win["by_bot"] = {"a": _rate(700, 2000), "b": _rate(300, 2000)}
    [found] = findings(_report(win_rate=win))
    assert found["code"] == "dominant-style" and found["evidence"]["bot"] == "a"


def test_routes_claimed_in_almost_no_and_almost_every_game() -> None:
    routes = _report()["routes"]
    routes[3] = {"route": "Rare", "claimed": 2, "rate": 0.002}
    routes[4] = {"route": "Busy", "claimed": 998, "rate": 0.998}
    routes[5] = {"route": "Fine", "claimed": 60, "rate": 0.06}  # 6 %: not below 5 %
    found = {f["code"]: f for f in findings(_report(routes=routes))}
    assert [r["route"] for r in found["rarely-claimed-routes"]["evidence"]["routes"]] == ["Rare"]
    assert [r["route"] for r in found["always-claimed-routes"]["evidence"]["routes"]] == ["Busy"]


def test_fit_completion_is_a_held_weighted_line() -> None:
    tickets = _report()["tickets"]["by_ticket"]
    intercept, slope = fit_completion(tickets)  # exactly 1 - 0.05 * value
    assert (round(intercept, 6), round(slope, 6)) == (1.0, -0.05)
    assert fit_completion(tickets[:2]) is None


def test_ticket_outliers_are_far_from_the_fit_for_their_value() -> None:
    tickets = _report()["tickets"]["by_ticket"]
    tickets[5] = {"ticket": "Hard", "value": 9, "held": 400, "completed": 40}  # 10 % vs 55 %
    [found] = findings(_report(tickets={"by_ticket": tickets}))
    assert found["code"] == "ticket-outliers"
    [outlier] = found["evidence"]["tickets"]
    assert outlier["ticket"] == "Hard" and outlier["z"] < -3
    assert "bonus (D7)" in found["suggestion"]


def test_r16_longest_path_bonus_concentrated_on_one_style() -> None:
    found = findings(_report(longest_path_bonus={"by_bot": {"a": 900, "b": 100}}))
    assert [f["code"] for f in found] == ["longest-path-concentrated"]
    assert found[0]["evidence"]["share"] == 0.9


def test_games_too_short_against_the_published_boards() -> None:
    low, _ = PUBLISHED_TURNS_PER_PLAYER
    short = {"count": 1000, "mean": 4 * (low - 10), "sd": 20.0}
    [found] = findings(_report(turns=short))
    assert found["code"] == "game-length" and "shorter" in found["title"]


def test_findings_are_sorted_by_severity() -> None:
    stalls = {"count": 500, "causes": {"track": 500}, "seeds": []}
    report = _report(stalls=stalls, longest_path_bonus={"by_bot": {"a": 900, "b": 100}})
    assert [f["severity"] for f in findings(report)] == ["high", "medium"]


@pytest.fixture(scope="module")
def stalling_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stall")
    result = runner.invoke(
        app,
        [
            "simulate",
            str(STALLING_MAP),
            "-n",
            "8",
            "--players",
            "4",
            "--seed",
            "3",
            "--bots",
            "greedy,long-route",
            "-j",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    return out


def test_r6_a_map_whose_games_stall_opens_its_report_with_the_cause(stalling_run: Path) -> None:
    report = json.loads((stalling_run / "report.json").read_text())
    assert list(report)[:3] == ["format", "version", "findings"]
    stalls = report["stalls"]
    assert stalls["count"] >= 4
    # 4 x 45 wagons on 126 spaces: every stalled game had no claimable track left.
    assert stalls["causes"]["track"] == stalls["count"]
    assert all("track" in game["causes"] for game in stalls["seeds"])
    first = report["findings"][0]
    assert first["code"] == "stalls" and "TTR451" in first["suggestion"]
    by_order = report["win_rate"]["by_turn_order"]
    assert list(by_order) == ["1", "2", "3", "4"]
    assert round(sum(r["wins"] for r in by_order.values()), 6) == report["games"]
    assert by_order["1"]["wins"] == report["win_rate"]["first_player"]["wins"]
    page = (stalling_run / "report.html").read_text()
    assert page.index("<h2>Findings</h2>") < page.index("<h2>Win rate by bot</h2>")
    assert "least claimed route" in page and "ticket-completion-vs-value.png" in page
    assert (stalling_run / "ticket-completion-vs-value.png").stat().st_size > 0
    assert (stalling_run / "score-parts-by-seat.png").stat().st_size > 0


def test_heatmap_is_on_an_absolute_scale(stalling_run: Path) -> None:
    from ttr_core.playtest import html as report_html

    seen: dict[str, Any] = {}

    def spy(game_map: Any, path: Path, overlay: Any, **options: Any) -> Path:
        seen.update(options, heat=overlay.heat)
        return path

    report = json.loads((stalling_run / "report.json").read_text())
    import ttr_maps.render.draw

    original = ttr_maps.render.draw.render_map
    ttr_maps.render.draw.render_map = spy  # type: ignore[assignment]
    try:
        from ttr_maps.load import load_map

        report_html.write_pictures(
            report, load_map(str(STALLING_MAP)), stalling_run, {"by_seat": {}, "by_bot": {}}
        )
    finally:
        ttr_maps.render.draw.render_map = original  # type: ignore[assignment]
    games = report["games"]
    assert seen["heat"].routes == {r["route"]: r["claimed"] / games for r in report["routes"]}
    assert "share of games" in seen["heat"].label
