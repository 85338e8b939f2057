"""`ttr replay`: bad records are refused without a traceback on every path, and
`--step` replays through `iter_replay` like the plain and `--verify` paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict:
    path = tmp_path_factory.mktemp("replay") / "game.json"
    result = runner.invoke(
        app,
        ["play", "north_america", "--bots", "greedy", "--seed", "4", "--record", str(path)],
    )
    assert result.exit_code == 0, result.output
    return json.loads(path.read_text())


def _write(tmp_path: Path, record: dict) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    return str(path)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 9}, "players: 9 is greater than the maximum of 5"),
        ({"actions": [5]}, "actions/0: 5 is not of type 'object'"),
        ({"seats": 5}, "seats: 5 is not of type 'array'"),
        ({"actions": [{"seat": 0, "action": "fly away"}]}, "action 1"),
        ({"map_fingerprint": "0123456789abcdef"}, "differs from the one the game was played on"),
    ],
)
@pytest.mark.parametrize("options", [[], ["--step"], ["--verify"], ["--step", "--verify"]])
def test_bad_records_are_refused_without_a_traceback(
    tmp_path: Path, record: dict, change: dict, message: str, options: list[str]
) -> None:
    result = runner.invoke(app, ["replay", _write(tmp_path, {**record, **change}), *options])
    assert result.exit_code == (1 if "--verify" in options else 2), result.output
    assert message in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


def test_step_then_verify(tmp_path: Path, record: dict) -> None:
    result = runner.invoke(app, ["replay", _write(tmp_path, record), "--step", "--verify"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("start: seat ")
    assert f"{len(record['actions']):>4}. seat" in result.output
    assert lines[-1].endswith("replay gives the recorded result")


def test_step_then_verify_names_the_first_difference(tmp_path: Path, record: dict) -> None:
    tampered = json.loads(json.dumps(record))
    tampered["result"]["seats"][1]["total"] += 1
    result = runner.invoke(app, ["replay", _write(tmp_path, tampered), "--step", "--verify"])
    assert result.exit_code == 1
    assert "   1. seat" in result.output
    assert "differs from the recorded result: result.seats[1].total" in result.output


def test_step_of_an_unfinished_game(tmp_path: Path, record: dict) -> None:
    unfinished = {**record, "actions": record["actions"][:5], "result": None}
    result = runner.invoke(app, ["replay", _write(tmp_path, unfinished), "--step"])
    assert result.exit_code == 0, result.output
    assert "   5. seat" in result.output
    assert "5 actions replayed; the game is not over" in result.output


def test_replay_help_renders_each_paragraph_as_one_line_when_wide() -> None:
    out = runner.invoke(app, ["replay", "--help"], env={"COLUMNS": "250"}).output
    assert "exit 0 if identical, 1 with the first difference. --step shows" in out
