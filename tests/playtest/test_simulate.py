"""`ttr simulate`: the report agrees with the games' records, with the europe
rules too; the command's options are checked before any game is played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from balance_reports import checked
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.engine.record import read_record, verify_record
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.playout import game_seed, seat_names
from ttr_core.playtest.report import BalanceReport
from ttr_core.playtest.simulate import simulate
from ttr_maps.model import Map

runner = CliRunner()
SIMULATE = ["simulate", "north_america", "--players", "3", "--seed", "9"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sim")
    result = runner.invoke(
        app,
        [
            *SIMULATE,
            "--games",
            "8",
            "--bots",
            "greedy,long-route,random",
            "--jobs",
            "2",
            "--records",
            "--baseline",
            "off",  # no baseline is shipped for these bots (tests/playtest/test_baseline.py)
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    return out


def test_report_files_exist(run: Path) -> None:
    for name in (
        "report.json",
        "report.html",
        "heatmap.png",
        "scores-by-seat.png",
        "scores-by-bot.png",
        "game-arc.png",
        "tickets.png",
    ):
        assert (run / name).stat().st_size > 0, name
    html = (run / "report.html").read_text()
    assert 'src="heatmap.png"' in html and "Win rate by bot" in html
    assert len(list((run / "records").glob("game-*.json"))) == 8


def test_report_agrees_with_the_records(run: Path, north_america: Map) -> None:
    data = json.loads((run / "report.json").read_text())
    report = BalanceReport.from_dict(data)
    assert checked(report) == data
    records = [read_record(run / "records" / f"game-{game_seed(9, i)}.json") for i in range(8)]
    wins_by_bot: dict[str, float] = {}
    totals_by_seat = [0, 0, 0]
    reasons: dict[str, int] = {}
    for i, record in enumerate(records):
        assert verify_record(record, north_america) is None
        names = [s["player"] for s in record["seats"]]
        assert tuple(names) == seat_names(["greedy", "long-route", "random"], 3, i)
        seats = record["result"]["seats"]
        winners = [s for s in seats if s["rank"] == 1]
        for s in winners:
            name = names[s["seat"]]
            wins_by_bot[name] = wins_by_bot.get(name, 0) + 1 / len(winners)
        for s in seats:
            totals_by_seat[s["seat"]] += s["total"]
        reason = record["result"]["end_reason"]
        reasons[reason] = reasons.get(reason, 0) + 1
    by_bot = report.win_rate.by_bot
    assert sum(r.wins for r in by_bot.values()) == pytest.approx(8)
    assert sum(r.wins for r in report.win_rate.by_seat) == pytest.approx(8)
    for name, wins in wins_by_bot.items():
        assert by_bot[name].wins == pytest.approx(wins)
    assert sum(r.games for r in by_bot.values()) == 8 * 3
    for seat, total in enumerate(totals_by_seat):
        assert report.scores.by_seat[seat].total.mean == pytest.approx(total / 8, abs=1e-3)
    assert report.end_reasons == reasons
    assert report.stalls.count == reasons.get("all passed", 0)
    claimed = sum(len(s["routes"]) for r in records for s in r["result"]["seats"])
    assert sum(r.claimed for r in report.routes) == claimed


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--games", "0"], "--games"),
        (["--players", "6"], "--players"),
        (["--bots", "greedy,nobody"], "unknown bot nobody"),
        (["--jobs", "0"], "--jobs"),
    ],
)
def test_bad_options_exit_2(tmp_path: Path, options: list[str], message: str) -> None:
    result = runner.invoke(app, [*SIMULATE, "--out", str(tmp_path / "x"), *options])
    assert result.exit_code == 2
    assert message in result.output


def test_out_must_be_a_folder(tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("")
    result = runner.invoke(app, [*SIMULATE, "--games", "1", "--out", str(file)])
    assert result.exit_code == 2


# ------------------------------------------------------------ the europe rules


@pytest.fixture(scope="module")
def europe_run(europe: Map) -> tuple[BalanceReport, list[dict]]:
    bots = ["random", "long-route", "greedy"]
    plan = RunPlan(6, 3, tuple(bots), 4)  # a run where stations lend routes
    simulation = simulate(PlayedMap(europe, "europe"), plan, records=True)
    checked(simulation.report)
    return simulation.report, [json.loads(text) for _, text in simulation.records]


def test_e1_europe_report_counts_tickets_completed_through_stations(europe_run) -> None:
    report, records = europe_run
    held: dict[str, list[int]] = {}
    borrowed = 0
    for record in records:
        names = [s["player"] for s in record["seats"]]
        for s in record["result"]["seats"]:
            counts = held.setdefault(names[s["seat"]], [0, 0])
            counts[0] += len(s["tickets"])
            counts[1] += sum(t["completed"] for t in s["tickets"])
            borrowed += len(s["station_routes"])
    assert borrowed > 0  # the run has tickets completed with a borrowed route
    for name, (total, done) in held.items():
        assert report.tickets.by_bot[name].held == total
        assert report.tickets.by_bot[name].completed == done


def test_e1_score_parts_include_stations_and_sum_to_the_totals(europe_run) -> None:
    report, _ = europe_run
    for scores in (*report.scores.by_bot.values(), *report.scores.by_seat):
        assert list(scores.parts) == ["routes", "tickets", "longest_path_bonus", "stations"]
        parts = sum(p.mean for p in scores.parts.values())
        assert parts == pytest.approx(scores.total.mean, abs=0.01)


def test_e1_e2_europe_section_counts_stations_borrowed_routes_and_tunnels(
    europe_run, north_america: Map
) -> None:
    report, records = europe_run
    expected: dict[str, dict[str, int]] = {}
    for record in records:
        names = [s["player"] for s in record["seats"]]
        for s in record["result"]["seats"]:
            e = expected.setdefault(
                names[s["seat"]], dict.fromkeys(("st", "br", "tc", "p", "g"), 0)
            )
            e["st"] += len(s["stations"])
            e["br"] += len(s["station_routes"])
        for entry in record["actions"]:
            e = expected[names[entry["seat"]]] if entry["seat"] is not None else {}
            if "revealed" in entry:
                e["tc"] += 1
            if entry["action"].startswith("pay "):
                e["p"] += 1
            if entry["action"] == "give up":
                e["g"] += 1
    assert report.europe is not None
    for name, e in expected.items():
        got = report.europe.by_bot[name]
        assert (got.stations_built, got.routes_borrowed) == (e["st"], e["br"])
        assert (got.tunnel_claims, got.tunnels_paid, got.tunnels_given_up) == (
            e["tc"],
            e["p"],
            e["g"],
        )
        assert got.tunnels_claimed_at_once == e["tc"] - e["p"] - e["g"]
    assert sum(e["tc"] for e in expected.values()) > 0
    base = simulate(PlayedMap(north_america, "north_america"), RunPlan(1, 2, ("greedy",), 1)).report
    assert base.europe is None and "europe" not in checked(base)


def test_r1_players_and_bot_names_are_checked_the_same_way_by_play_and_simulate() -> None:
    from ttr_core.bots import bot_factories

    for command in (["play", "north_america"], [*SIMULATE, "--out", "unused"]):
        result = runner.invoke(app, [*command, "--players", "6"], env={"COLUMNS": "250"})
        assert result.exit_code == 2
        assert "Invalid value for '--players'" in result.output
        help_text = runner.invoke(app, [command[0], "--help"], env={"COLUMNS": "250"}).output
        for name in bot_factories():
            assert name in help_text, (command[0], name)
