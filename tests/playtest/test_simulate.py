"""`ttr simulate`: the report agrees with the games' records, and does not depend
on the number of processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.engine.record import read_record, verify_record
from ttr_core.playtest.simulate import game_seed, seat_names, simulate, wilson_interval
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


# ------------------------------------------------- the europe rules, stalls, arc


@pytest.fixture(scope="module")
def europe_run() -> tuple[dict, list[dict]]:
    simulation = simulate("europe", 6, 3, ["random", "long-route", "greedy"], 3, records=True)
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
        assert report["tickets"]["by_bot"][name]["held"] == total
        assert report["tickets"]["by_bot"][name]["completed"] == done


def test_e1_score_parts_include_stations_and_sum_to_the_totals(europe_run) -> None:
    report, _ = europe_run
    for groups in (report["scores"]["by_bot"], report["scores"]["by_seat"]):
        for d in groups.values():
            assert list(d["parts"]) == ["routes", "tickets", "longest_path_bonus", "stations"]
            parts = sum(p["mean"] for p in d["parts"].values())
            assert parts == pytest.approx(d["mean"], abs=0.01)


def test_e1_e2_europe_section_counts_stations_borrowed_routes_and_tunnels(europe_run) -> None:
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
    section = report["europe"]["by_bot"]
    for name, e in expected.items():
        got = section[name]
        assert (got["stations_built"], got["routes_borrowed"]) == (e["st"], e["br"])
        assert (got["tunnel_claims"], got["tunnels_paid"], got["tunnels_given_up"]) == (
            e["tc"],
            e["p"],
            e["g"],
        )
        assert got["tunnels_claimed_at_once"] == e["tc"] - e["p"] - e["g"]
    assert sum(e["tc"] for e in expected.values()) > 0
    assert "europe" not in simulate("north_america", 1, 2, ["greedy"], 1).report


def _game(index: int, arc: list[tuple[float, float]], end_reason: str = "final round"):
    from ttr_core.playtest.simulate import GameSummary, SeatSummary

    seat = SeatSummary(10, {"routes": 10}, 1, 0, 0, (), ())
    return GameSummary(
        index, 100 + index, ("greedy",), end_reason, len(arc), 0, (seat,), tuple(arc), None, "x"
    )


def test_arc_keeps_the_final_values_of_finished_games() -> None:
    from ttr_core.playtest.simulate import Tally

    tally = Tally(load_map("north_america"), 1)
    tally.add(_game(0, [(1, 40), (2, 30)]))
    tally.add(_game(1, [(3, 20)]))  # over after one turn: stays at 3 points, 20 wagons
    arc = tally.arc()
    assert arc[0] == {"turn": 1, "running": 2, "mean_route_points": 2, "mean_wagons": 30}
    assert arc[1] == {"turn": 2, "running": 1, "mean_route_points": 2.5, "mean_wagons": 25}


def test_r6_stalls_name_the_game_its_bots_and_a_command_to_play_it_again() -> None:
    from ttr_core.playtest.simulate import Tally

    tally = Tally(load_map("north_america"), 1)
    tally.add(_game(4, [(1, 40)], end_reason="all passed"))
    assert tally.stalls == [
        {
            "seed": 104,
            "index": 4,
            "bots": ["greedy"],
            "command": "ttr play x --players 1 --bots greedy --seed 104",
            "causes": [],
        }
    ]


def test_stall_command_plays_the_same_game_again(tmp_path: Path) -> None:
    import shlex

    from ttr_core.playtest.simulate import play_command

    names = seat_names(["greedy", "long-route", "random"], 3, 2)
    simulation = simulate(
        "north_america", 3, 3, ["greedy", "long-route", "random"], 9, records=True
    )
    seed, text = simulation.records[2]
    command = shlex.split(play_command("north_america", names, seed))
    assert command[:2] == ["ttr", "play"]
    record = tmp_path / "again.json"
    result = runner.invoke(app, [*command[1:], "--record", str(record)])
    assert result.exit_code == 0, result.output
    assert json.loads(record.read_text())["actions"] == json.loads(text)["actions"]


# ------------------------------------------------------------- the --out folder


def test_a_picture_that_cannot_be_written_fails_before_the_games(tmp_path: Path) -> None:
    out = tmp_path / "o"
    (out / "heatmap.png").mkdir(parents=True)
    result = runner.invoke(app, [*SIMULATE, "--games", "2", "--out", str(out)])
    assert result.exit_code == 2
    assert "heatmap.png is a folder" in result.output
    assert [p.name for p in out.iterdir()] == ["heatmap.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]  # no staging folder left


@pytest.mark.parametrize("out", ["afile/sub", "/proc/x/report"])
def test_out_that_cannot_be_created_fails_at_once(tmp_path: Path, out: str) -> None:
    (tmp_path / "afile").write_text("")
    target = tmp_path / out if not out.startswith("/") else Path(out)
    result = runner.invoke(app, [*SIMULATE, "--games", "100000", "--out", str(target)])
    assert result.exit_code == 2
    assert "error: --out" in result.output
    assert "Traceback" not in result.output


def test_a_failure_while_writing_leaves_the_old_report_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ttr_core.playtest.html
    from ttr_maps.render.draw import PreviewError

    def broken(*args: object) -> None:
        raise PreviewError("tickets.png: cannot write (disk full)")

    monkeypatch.setattr(ttr_core.playtest.html, "_tickets", broken)
    out = tmp_path / "o"
    out.mkdir()
    (out / "report.json").write_text("old")
    result = runner.invoke(app, [*SIMULATE, "--games", "2", "--out", str(out)])
    assert result.exit_code == 1
    assert "cannot write the report" in result.output and "disk full" in result.output
    assert [p.name for p in out.iterdir()] == ["report.json"]
    assert (out / "report.json").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]


def test_a_new_report_replaces_an_old_one_file_by_file(tmp_path: Path) -> None:
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    result = runner.invoke(app, [*SIMULATE, "--games", "2", "--records", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "notes.txt").read_text() == "mine"
    assert json.loads((out / "report.json").read_text())["games"] == 2
    assert len(list((out / "records").iterdir())) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]


def test_r1_players_and_bot_names_are_checked_the_same_way_by_play_and_simulate() -> None:
    from ttr_core.bots import bot_factories

    for command in (["play", "north_america"], [*SIMULATE, "--out", "unused"]):
        result = runner.invoke(app, [*command, "--players", "6"], env={"COLUMNS": "250"})
        assert result.exit_code == 2
        assert "Invalid value for '--players'" in result.output
        help_text = runner.invoke(app, [command[0], "--help"], env={"COLUMNS": "250"}).output
        for name in bot_factories():
            assert name in help_text, (command[0], name)


def test_counts_give_the_distribution_of_the_values_themselves() -> None:
    """Tallies keep how often each value was seen, not every value: the report's
    numbers are those of the plain list."""
    import statistics

    from ttr_core.playtest.simulate import Counts, _distribution

    values = [7, 3, 3, 10, 52, 3, 8, 8, 1, 40, 41]
    counts = Counts()
    for value in values:
        counts.append(value)
    ordered = sorted(values)
    summary = _distribution(counts)
    assert list(counts) == ordered and len(counts) == len(values)
    assert summary["median"] == statistics.median(values)
    assert summary["mean"] == round(statistics.mean(values), 3)
    assert summary["sd"] == round(statistics.stdev(values), 3)
    assert (summary["min"], summary["max"]) == (1, 52)
    assert summary["q25"] == statistics.quantiles(values, n=4, method="inclusive")[0]
