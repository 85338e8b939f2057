"""Game records (`ttr_core.engine.record`): byte-identical for the same seed and
actions, replayed to the same result, checked against
`schemas/game-record.schema.json`, and `ttr replay --verify` on records written by
`ttr play`."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from engine_positions import started
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from ttr_core.bots.random_bot import RandomBot
from ttr_core.cli import app
from ttr_core.engine.actions import Remove, Resign, parse_action
from ttr_core.engine.loop import bot_seed, play_game
from ttr_core.engine.record import (
    Note,
    dump_record,
    names_of,
    notes_of,
    record_of,
    replay,
    verify_record,
)
from ttr_core.engine.state import GameState
from ttr_maps.io.bundled import schema_path

Record = dict[str, Any]


@cache
def validator() -> Draft202012Validator:
    schema = json.loads(schema_path("game-record").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_errors(record: Record) -> list[str]:
    return [f"{error.json_path}: {error.message}" for error in validator().iter_errors(record)]


def as_file_content(state: GameState, players: int) -> Record:
    """The record exactly as a file holds it (JSON arrays, not tuples)."""
    return json.loads(dump_record(record_of(state, ["random"] * players)))


def bot_game(game_map, players: int, seed: int) -> Record:
    bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
    return as_file_content(play_game(game_map, bots, seed), players)


def game_with_departures(game_map, players: int, seed: int, leave_after: int) -> GameState:
    """Random bots; after `leave_after` actions the seat after the one to move
    resigns out of turn, then the host removes the next one (D5)."""
    bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
    state = GameState(game_map, players, seed)
    while not state.is_over:
        if len(state.history) == leave_after:
            leaver = (state.current + 1) % players
            state.apply(Resign(), leaver)
            if not state.is_over:
                state.apply(Remove((leaver + 1) % players))
            continue
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)), seat)
    return state


# ------------------------------------------------------------- valid records
def test_schema_is_a_valid_2020_12_schema():
    schema = validator().schema
    assert schema["$id"] == "urn:ttr:schema:game-record:1"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_records_of_random_bot_games_validate(north_america, players, seed):
    record = bot_game(north_america, players, seed)
    assert record["result"] is not None
    assert schema_errors(record) == []


def test_d5_record_with_a_resignation_and_a_host_removal_validates(north_america):
    state = game_with_departures(north_america, 5, seed=3, leave_after=30)
    record = as_file_content(state, 5)
    assert schema_errors(record) == []
    host_actions = [a for a in record["actions"] if a["seat"] is None]
    assert len(host_actions) == 1 and host_actions[0]["action"].startswith("remove ")
    statuses = sorted(s["status"] for s in record["result"]["seats"])
    assert statuses == ["active", "active", "active", "removed", "resigned"]


def test_d5_record_of_a_game_won_by_the_last_player_left_validates(north_america):
    state = game_with_departures(north_america, 2, seed=5, leave_after=10)
    record = as_file_content(state, 2)
    assert record["result"]["end_reason"] == "one player left"
    assert schema_errors(record) == []


def test_record_of_an_unfinished_game_has_a_null_result_and_validates(north_america):
    state = GameState(north_america, 3, seed=9)
    record = as_file_content(state, 3)
    assert record["result"] is None
    assert schema_errors(record) == []


# ------------------------------------------------------------ broken records
def _set(path: tuple[Any, ...], value: Any) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: tuple[Any, ...]) -> Callable[[Record], None]:
    def change(record: Record) -> None:
        target = record
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


BROKEN: dict[str, tuple[Callable[[Record], None], str]] = {
    "format name": (_set(("format",), "ttr-record"), "$.format"),
    "version 3": (_set(("version",), 3), "$.version"),
    "six players": (_set(("players",), 6), "$.players"),
    "no result": (_delete(("result",)), "$"),
    "seat total missing": (_delete(("result", "seats", 1, "total")), "$.result"),
    "unknown end reason": (_set(("result", "end_reason"), "timeout"), "$.result"),
    "unknown status": (_set(("result", "seats", 0, "status"), "gone"), "$.result"),
    "score part not an integer": (
        _set(("result", "seats", 0, "score", "routes"), 1.5),
        "$.result",
    ),
    "extra field": (_set(("comment",), "hi"), "$"),
    "action seat not a number": (_set(("actions", 0, "seat"), "0"), "$.actions[0].seat"),
    "action text with a trailing space": (_set(("actions", 0, "action"), "keep "), "$.actions"),
}


@pytest.fixture(scope="module")
def good_record(north_america) -> Record:
    return bot_game(north_america, 3, seed=4)


@pytest.mark.parametrize("name", list(BROKEN))
def test_broken_records_do_not_validate(good_record, name):
    change, where = BROKEN[name]
    record = copy.deepcopy(good_record)
    change(record)
    errors = schema_errors(record)
    assert errors, f"{name}: the schema accepted a broken record"
    assert any(error.startswith(where) for error in errors), errors


def test_future_action_kinds_fit_the_action_pattern(good_record):
    record = copy.deepcopy(good_record)
    record["actions"] += [
        {"seat": 0, "action": "station Berlin with red:1"},
        {"seat": 1, "action": "pay red:2 loco:1"},
    ]
    assert schema_errors(record) == []


# ----------------------------------------------------------------------- CLI
runner = CliRunner()


@pytest.fixture(scope="module")
def played_record(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("records") / "game.json"
    args = ["play", "north_america", "--players", "3", "--bots", "random", "--seed", "4"]
    result = runner.invoke(app, [*args, "--record", str(path)])
    assert result.exit_code == 0, result.output
    return path


def test_cli_played_record_validates_and_verifies(played_record):
    record = json.loads(played_record.read_text(encoding="utf-8"))
    assert schema_errors(record) == []
    result = runner.invoke(app, ["replay", str(played_record), "--verify"])
    assert result.exit_code == 0, result.output
    assert "replay gives the recorded result" in result.output


def test_cli_verify_names_the_first_difference_of_a_tampered_record(played_record, tmp_path):
    record = json.loads(played_record.read_text(encoding="utf-8"))
    true_total = record["result"]["seats"][1]["total"]
    record["result"]["seats"][1]["total"] = true_total + 5
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(tampered), "--verify"])
    assert result.exit_code == 1
    assert f"result.seats[1].total: {true_total + 5} != {true_total}" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_verify_refuses_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "game.json"
    path.write_text("{ this is not json", encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--verify"])
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert "not JSON" in result.stderr
    assert "Traceback" not in result.output


def test_cli_verify_refuses_a_missing_file(tmp_path):
    path = tmp_path / "nowhere.json"
    result = runner.invoke(app, ["replay", str(path), "--verify"])
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit)
    assert "cannot read" in result.stderr and "nowhere.json" in result.stderr
    assert "Traceback" not in result.output


def test_cli_verify_refuses_a_result_with_a_missing_field(played_record, tmp_path):
    record = json.loads(played_record.read_text(encoding="utf-8"))
    del record["result"]["seats"][0]["total"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(broken), "--verify"])
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)


def test_cli_verify_names_the_field_a_schema_breaking_result_breaks(played_record, tmp_path):
    record = json.loads(played_record.read_text(encoding="utf-8"))
    record["result"]["seats"][1]["rank"] = 9
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(broken), "--verify"])
    assert result.exit_code == 1
    assert "result/seats/1/rank: 9 is greater than the maximum of 5" in result.stderr
    assert all(len(line) < 300 for line in result.stderr.splitlines())  # no whole result


def test_record_stores_the_rule_set_and_replay_uses_it(played_record, tmp_path):
    record = json.loads(played_record.read_text(encoding="utf-8"))
    assert record["rule_set"]["name"] == "base" and record["rule_set"]["wagons"] == 45
    path = tmp_path / "short.json"
    args = ["play", "north_america", "--bots", "random", "--set", "wagons=12", "--seed", "4"]
    result = runner.invoke(app, [*args, "--record", str(path)])
    assert result.exit_code == 0, result.output
    short = json.loads(path.read_text(encoding="utf-8"))
    assert short["rule_set"]["wagons"] == 12
    assert schema_errors(short) == []
    assert all(s["wagons_left"] <= 12 for s in short["result"]["seats"])
    # Replay starts from the stored rule set, not from the map's 45 wagons.
    result = runner.invoke(app, ["replay", str(path), "--verify"])
    assert result.exit_code == 0, result.output


def test_a_record_without_a_rule_set_replays_with_the_map_rules(played_record, tmp_path):
    record = json.loads(played_record.read_text(encoding="utf-8"))
    del record["rule_set"]  # as written before records held the rule set
    old = tmp_path / "old.json"
    old.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(old), "--verify"])
    assert result.exit_code == 0, result.output


def test_a_record_with_an_unknown_rule_field_is_refused_with_its_name(played_record, tmp_path):
    record = json.loads(played_record.read_text(encoding="utf-8"))
    record["rule_set"]["wagon"] = 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(bad), "--verify"])
    assert result.exit_code == 1
    assert "unknown rule field 'wagon'" in result.stderr


# ------------------------------------------------------------ replays
def test_same_seed_and_actions_give_a_byte_identical_record(north_america):
    def record_text(seed):
        bots = [RandomBot(bot_seed(seed, s)) for s in range(3)]
        state = play_game(north_america, bots, seed)
        return dump_record(record_of(state, ["random"] * 3))

    assert record_text(5) == record_text(5)
    assert record_text(5) != record_text(6)


def test_record_replays_to_the_identical_result(north_america):
    bots = [RandomBot(bot_seed(8, s)) for s in range(4)]
    state = play_game(north_america, bots, 8)
    record = json.loads(dump_record(record_of(state, ["random"] * 4)))
    again = replay(record, north_america)
    assert again.result() == state.result()
    assert verify_record(record, north_america) is None
    record["result"]["seats"][2]["total"] += 1
    assert verify_record(record, north_america) == (
        f"result.seats[2].total: {state.result().seats[2].total + 1!r} != "
        f"{state.result().seats[2].total!r}"
    )


def test_record_with_a_resignation_and_a_removal_replays(north_america):
    state = started(north_america, 4, seed=2)
    state.apply(parse_action("resign"), seat=(state.current + 1) % 4)
    state.apply(parse_action(f"remove {(state.current + 2) % 4}"))
    bots = [RandomBot(s) for s in range(4)]
    while not state.is_over:
        seat = state.to_move
        state.apply(bots[seat].act(state.view(seat)), seat)
    record = json.loads(dump_record(record_of(state, ["x"] * 4)))
    assert verify_record(record, north_america) is None
    statuses = sorted(s["status"] for s in record["result"]["seats"])
    assert statuses == ["active", "active", "removed", "resigned"]


def test_e1_e2_europe_record_carries_stations_and_tunnel_events_and_replays(europe):
    for seed in range(20):
        bots = [RandomBot(bot_seed(seed, s)) for s in range(3)]
        state = play_game(europe, bots, seed)
        record = json.loads(dump_record(record_of(state, ["random"] * 3)))
        tunnels = [a for a in record["actions"] if "revealed" in a]
        stations = [s for seat in record["result"]["seats"] for s in seat["stations"]]
        if tunnels and stations:
            break
    assert tunnels and stations
    assert verify_record(record, europe) is None
    tunnels[0]["revealed"] = [*reversed(tunnels[0]["revealed"]), "pink"]
    difference = verify_record(record, europe)
    assert difference is not None and ".revealed" in difference


def test_names_and_notes_are_kept_in_the_record_and_change_nothing_of_the_game(
    north_america, tmp_path: Path
) -> None:
    """A person's name at a seat and the table's notes (play-test feedback) go
    into the record; the schema accepts them, `--verify` replays the same game,
    and a record without them is written exactly as before."""
    bots = [RandomBot(bot_seed(4, seat)) for seat in range(2)]
    state = play_game(north_america, bots, 4)
    notes = [
        Note(0, None, "watching", "the west looks empty"),
        Note(17, 1, "Bo", 'Denver–Omaha is "always" taken'),
    ]
    record = json.loads(dump_record(record_of(state, ["human", "random"], ["Ana", None], notes)))
    assert schema_errors(record) == []
    assert record["seats"] == [
        {"seat": 0, "player": "human", "name": "Ana"},
        {"seat": 1, "player": "random"},
    ]
    assert notes_of(record) == notes and names_of(record) == ["Ana", None]
    assert list(record).index("notes") == list(record).index("actions") + 1
    assert verify_record(record, north_america) is None
    plain = json.loads(dump_record(record_of(state, ["human", "random"])))
    assert "notes" not in plain and plain["seats"][0] == {"seat": 0, "player": "human"}
    long_note = copy.deepcopy(record)
    long_note["notes"][0]["text"] = "x" * 1001
    assert any("notes" in error for error in schema_errors(long_note))
