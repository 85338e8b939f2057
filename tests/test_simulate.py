"""`ttr simulate`: the report agrees with the games' records, and does not depend
on the number of processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.record import read_record, verify_record
from ttr_core.simulate import game_seed, seat_names, simulate, wilson_interval
from ttr_maps import load_map

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


def test_report_agrees_with_the_records(run: Path) -> None:
    report = json.loads((run / "report.json").read_text())
    game_map = load_map("north_america")
    records = [read_record(run / "records" / f"game-{game_seed(9, i)}.json") for i in range(8)]
    wins_by_bot: dict[str, float] = {}
    totals_by_seat = [0, 0, 0]
    reasons: dict[str, int] = {}
    for i, record in enumerate(records):
        assert verify_record(record, game_map) is None
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
    by_bot = report["win_rate"]["by_bot"]
    assert sum(r["wins"] for r in by_bot.values()) == pytest.approx(8)
    assert sum(r["wins"] for r in report["win_rate"]["by_seat"].values()) == pytest.approx(8)
    for name, wins in wins_by_bot.items():
        assert by_bot[name]["wins"] == pytest.approx(wins)
    assert sum(r["games"] for r in by_bot.values()) == 8 * 3
    for seat, total in enumerate(totals_by_seat):
        assert report["scores"]["by_seat"][str(seat)]["mean"] == pytest.approx(total / 8, abs=1e-3)
    assert report["end_reasons"] == reasons
    assert report["stalls"]["count"] == reasons.get("all passed", 0)
    claimed = sum(len(s["routes"]) for r in records for s in r["result"]["seats"])
    assert sum(r["claimed"] for r in report["routes"]) == claimed


def test_same_aggregates_with_1_and_2_jobs() -> None:
    one = simulate("north_america", 6, 4, ["greedy", "one-step"], 3, jobs=1)
    two = simulate("north_america", 6, 4, ["greedy", "one-step"], 3, jobs=2)
    assert one.report == two.report
    assert one.totals == two.totals


def test_each_bot_sits_in_each_seat_equally() -> None:
    bots = ["a", "b", "c"]
    counts = {(seat, name): 0 for seat in range(3) for name in bots}
    for i in range(6):
        for seat, name in enumerate(seat_names(bots, 3, i)):
            counts[seat, name] += 1
    assert set(counts.values()) == {2}


def test_wilson_interval() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0 and 0.27 < high < 0.28
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(1 - high)
    assert wilson_interval(0, 0) == (0.0, 1.0)


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
