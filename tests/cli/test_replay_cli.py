"""`ttr replay`: bad records are refused without a traceback on every path, and
`--step` replays through `iter_replay` like the plain and `--verify` paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.load import load_map

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


# ------------------------------------------------ records that find their map file


@pytest.fixture
def own_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A map of one's own (Iran under another id) in `maps/`, and a finished game
    on it recorded in `games/`, run from `tmp_path`."""
    from ttr_maps.io.bundled import bundled_map_path

    monkeypatch.chdir(tmp_path)
    (tmp_path / "maps").mkdir()
    (tmp_path / "games").mkdir()
    text = bundled_map_path("iran").read_text(encoding="utf-8")
    assert "\nid: iran\n" in text
    map_file = tmp_path / "maps" / "lusitania.yaml"
    map_file.write_text(text.replace("\nid: iran\n", "\nid: lusitania\n"), encoding="utf-8")
    game = tmp_path / "games" / "game.json"
    args = ["play", "maps/lusitania.yaml", "--bots", "greedy", "-p", "2", "--seed", "3"]
    result = runner.invoke(app, [*args, "--record", str(game)])
    assert result.exit_code == 0, result.output
    return map_file, game


def test_a_record_names_its_map_file_from_its_folder_with_its_content_hash(
    own_map: tuple[Path, Path],
) -> None:
    import hashlib

    map_file, game = own_map
    record = json.loads(game.read_text())
    assert record["map"] == "lusitania"
    assert record["map_file"] == {
        "path": "../maps/lusitania.yaml",
        "sha256": hashlib.sha256(map_file.read_bytes()).hexdigest(),
    }
    assert list(record)[:6] == ["format", "version", "map", "map_fingerprint", "map_file", "rules"]


def test_a_game_on_a_bundled_map_names_no_file(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "iran", "--bots", "greedy", "-p", "2", "--record", game])
    assert result.exit_code == 0, result.output
    assert "map_file" not in json.loads(game.read_text())


@pytest.mark.parametrize("where", [".", "games"])
def test_replay_finds_the_map_file_from_the_record_wherever_it_is_run(
    own_map: tuple[Path, Path], where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, game = own_map
    monkeypatch.chdir(where)
    result = runner.invoke(app, ["replay", str(game.resolve()), "--verify"])
    assert result.exit_code == 0, result.output
    assert "replay gives the recorded result" in result.output


def test_a_moved_map_file_is_named_with_the_option_that_gives_it(
    own_map: tuple[Path, Path],
) -> None:
    map_file, game = own_map
    map_file.rename(map_file.with_name("moved.yaml"))
    for args in (["replay", str(game), "--verify"], ["replay", str(game)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "maps/lusitania.yaml, does not exist" in result.output
        assert "--map FILE" in result.output
    result = runner.invoke(app, ["replay", str(game), "--verify", "--map", "maps/moved.yaml"])
    assert result.exit_code == 0, result.output


def test_a_map_file_changed_in_what_the_game_reads_is_refused_naming_the_option(
    own_map: tuple[Path, Path],
) -> None:
    map_file, game = own_map
    text = map_file.read_text(encoding="utf-8")
    # Another colour for one route: still a valid map, but another game.
    changed = text.replace("color: [black, yellow]", "color: [black, red]", 1)
    assert changed != text
    map_file.write_text(changed, encoding="utf-8")
    load_map(map_file)  # still playable
    result = runner.invoke(app, ["replay", str(game), "--verify"])
    assert result.exit_code == 2, result.output
    assert "has changed since the game was recorded (its content hash differs" in result.output
    assert "--map FILE" in result.output


def test_a_map_file_changed_in_nothing_the_game_reads_is_used_with_a_note(
    own_map: tuple[Path, Path],
) -> None:
    map_file, game = own_map
    map_file.write_text(map_file.read_text(encoding="utf-8") + "# a remark\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(game), "--verify"])
    assert result.exit_code == 0, result.output
    assert "has changed since the game was recorded" in result.output
    assert "not in anything the game reads" in result.output


def test_a_map_file_that_no_longer_loads_is_said_so(own_map: tuple[Path, Path]) -> None:
    map_file, game = own_map
    map_file.write_text("id: lusitania\ncities: [\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(game)])
    assert result.exit_code == 2, result.output
    assert "no longer a playable map" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("path", ["\u0000", "maps", "x" * 4000, "../" * 300 + "etc/passwd"])
def test_a_hostile_map_file_path_is_refused_in_words(own_map: tuple[Path, Path], path: str) -> None:
    _, game = own_map
    record = json.loads(game.read_text())
    record["map_file"]["path"] = path if path != "maps" else "../maps"
    game.write_text(json.dumps(record))
    for args in (["replay", str(game), "--verify"], ["play", "--resume", str(game)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "give the map the game was played on" in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_an_old_record_of_an_own_map_says_which_option_gives_it(
    own_map: tuple[Path, Path],
) -> None:
    _, game = own_map
    record = json.loads(game.read_text())
    del record["map_file"]  # as written before records named their map file
    game.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(game), "--verify"])
    assert result.exit_code == 2
    assert "'lusitania' is not a bundled map" in result.output and "--map FILE" in result.output
    result = runner.invoke(app, ["replay", str(game), "--verify", "--map", "maps/lusitania.yaml"])
    assert result.exit_code == 0, result.output


def test_a_missing_file_of_a_bundled_map_falls_back_to_the_bundled_map(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ttr_maps.io.bundled import bundled_map_path

    monkeypatch.chdir(tmp_path)
    (tmp_path / "iran.yaml").write_bytes(bundled_map_path("iran").read_bytes())
    args = ["play", "iran.yaml", "--bots", "greedy", "-p", "2", "--seed", "1", "--record", "g.json"]
    assert runner.invoke(app, args).exit_code == 0
    (tmp_path / "iran.yaml").unlink()
    result = runner.invoke(app, ["replay", "g.json", "--verify"])
    assert result.exit_code == 0, result.output
    assert "does not exist" in result.output and "using the bundled map iran" in result.output


def test_resume_finds_the_map_file_and_the_new_record_names_it_from_its_own_folder(
    own_map: tuple[Path, Path], tmp_path: Path
) -> None:
    _, game = own_map
    record = json.loads(game.read_text())
    cut = tmp_path / "games" / "cut.json"
    cut.write_text(json.dumps({**record, "actions": record["actions"][:30], "result": None}))
    final = tmp_path / "final.json"
    result = runner.invoke(app, ["play", "--resume", str(cut), "--record", str(final)])
    assert result.exit_code == 0, result.output
    done = json.loads(final.read_text())
    assert done["map_file"] == {**record["map_file"], "path": "maps/lusitania.yaml"}
    assert done["actions"] == record["actions"] and done["result"] == record["result"]
    (tmp_path / "maps" / "lusitania.yaml").unlink()
    result = runner.invoke(app, ["play", "--resume", str(cut)])
    assert result.exit_code == 2
    assert "does not exist" in result.output and "ttr play MAP.yaml --resume" in result.output
