"""`ttr play` with people at the terminal, driven through standard input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.terminal import play_at_table, read_choice
from ttr_maps import load_map

runner = CliRunner()
PLAY = ["play", "north_america", "--players", "2", "--bots", "greedy", "--seed", "4"]


def test_person_plays_a_whole_game_choosing_by_number(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, [*PLAY, "--human", "0", "--record", str(record)], input="1\n" * 3000
    )
    assert result.exit_code == 0, result.output
    assert "seat 0 (human): your move" in result.output
    assert "Final standings" in result.output
    data = json.loads(record.read_text())
    assert [s["player"] for s in data["seats"]] == ["human", "greedy"]
    assert data["result"] is not None
    verify = runner.invoke(app, ["replay", str(record), "--verify"])
    assert verify.exit_code == 0, verify.output


def test_illegal_input_changes_nothing_and_asks_again_r4_r7() -> None:
    lines = [
        "foo",  # not an action
        "99",  # not a number on the list
        "keep 5",  # R4: not an offered ticket
        "keep 0",  # R4: keep at least 2
        "draw deck",  # R4: choose tickets first
        "help",
        "keep 0,1",
        "draw market 9",  # no such slot
        "claim Nowhere-Else with red:1",  # no such route
    ]
    result = runner.invoke(app, [*PLAY, "--human", "0"], input="\n".join(lines) + "\n")
    out = result.output
    assert "cannot read action 'foo'" in out
    assert "choose a number from 1 to" in out
    assert "R4: you were offered tickets 0 to 2" in out
    assert "R4: keep at least 2" in out
    assert "R4: choose which tickets to keep first" in out
    assert "market slots are 0 to 4" in out
    assert "there is no route 'Nowhere-Else'" in out
    assert "resign   leave the game" in out  # the help text
    assert out.count("Nothing changed") == 7
    assert out.count("[open]") >= 2  # the two kept tickets are shown on the next turn


def test_end_of_input_stops_cleanly() -> None:
    result = runner.invoke(app, [*PLAY, "--human", "1"], input="1\n")
    assert result.exit_code == 1
    assert "input ended" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


def test_quit_leaves_an_unfinished_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, [*PLAY, "--human", "0", "--record", str(record)], input="keep 0,1\nquit\n"
    )
    assert result.exit_code == 1
    assert "quit" in result.output
    assert json.loads(record.read_text())["result"] is None


def test_d5_resigning_ends_a_two_player_game() -> None:
    result = runner.invoke(app, [*PLAY, "--human", "0"], input="keep 0,1\nresign\n")
    assert result.exit_code == 0, result.output
    assert "Final standings (one player left)" in result.output
    assert "resigned" in result.output


def test_hot_seat_asks_each_person_in_turn() -> None:
    result = runner.invoke(
        app,
        ["play", "north_america", "--bots", "human,human,greedy", "--players", "3"],
        input="1\n1\n",
    )
    assert "seat 0>" in result.output
    assert "seat 1>" in result.output
    assert result.exit_code == 1


def test_r5_a_person_sees_only_their_own_hand() -> None:
    out: list[str] = []
    play_at_table(load_map("north_america"), [None, None], ["a", "b"], 2, iter(["1"]), out.append)
    first_turn = "\n".join(out).split("seat 0>")[0]
    assert first_turn.count("hand:") == 1
    text = first_turn
    assert "seat 1 (b): 0 route points, 45 wagons, 4 cards, 0 tickets" in text


def test_actions_are_read_by_number_or_notation() -> None:
    from ttr_core.actions import DrawDeck, DrawMarket

    actions = [DrawDeck(), DrawMarket(3)]
    assert read_choice("2", actions) == DrawMarket(3)
    assert read_choice(" draw deck ", actions) == DrawDeck()


def test_bad_options_exit_2() -> None:
    assert runner.invoke(app, [*PLAY, "--human", "7"]).exit_code == 2
    assert runner.invoke(app, [*PLAY, "--bots", "nobody"]).exit_code == 2
    assert runner.invoke(app, [*PLAY, "--picture", "x.txt"]).exit_code == 2


def test_bot_game_writes_a_picture_of_who_claimed_what(tmp_path: Path) -> None:
    picture = tmp_path / "end.svg"
    result = runner.invoke(app, [*PLAY, "--picture", str(picture)])
    assert result.exit_code == 0, result.output
    assert picture.read_text().lstrip().startswith("<?xml")


def test_replay_step_prints_every_action(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert runner.invoke(app, [*PLAY, "--record", str(record)]).exit_code == 0
    actions = json.loads(record.read_text())["actions"]
    result = runner.invoke(app, ["replay", str(record), "--step"])
    assert result.exit_code == 0, result.output
    assert f"{len(actions):>4}. seat" in result.output
    assert "s0:" in result.output and "Final standings" in result.output
