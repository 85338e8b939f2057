"""One game played and summarised: who sits where, and the command that plays a
game of a run again."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.playout import play_command, play_summarised, seat_names
from ttr_maps.model import Map


def test_each_bot_sits_in_each_seat_equally() -> None:
    bots = ["a", "b", "c"]
    counts = {(seat, name): 0 for seat in range(3) for name in bots}
    for i in range(6):
        for seat, name in enumerate(seat_names(bots, 3, i)):
            counts[seat, name] += 1
    assert set(counts.values()) == {2}


def test_the_replay_command_plays_the_same_game_again(tmp_path: Path, north_america: Map) -> None:
    names = seat_names(["greedy", "long-route", "random"], 3, 2)
    summary = play_summarised(north_america, "north_america", names, 77, 2, record=True)
    assert summary.record is not None
    command = shlex.split(play_command("north_america", names, 77))
    assert command[:2] == ["ttr", "play"]
    record = tmp_path / "again.json"
    result = CliRunner().invoke(app, [*command[1:], "--record", str(record)])
    assert result.exit_code == 0, result.output
    assert json.loads(record.read_text())["actions"] == json.loads(summary.record)["actions"]


def test_the_replay_command_carries_the_set_changes() -> None:
    command = play_command("my map.yaml", ("greedy", "random"), 5, ["wagons=20"])
    assert (
        command
        == "ttr play 'my map.yaml' --players 2 --bots greedy,random --seed 5 --set wagons=20"
    )
