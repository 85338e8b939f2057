"""Long commands show progress on stderr from the first game (issue 41): a live bar
on a terminal, plain lines in a log or a pipe; stdout keeps only the report."""

from __future__ import annotations

import itertools
import json

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.cli.common import GamesProgress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def lines_of(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return capsys.readouterr().err.splitlines()


def test_a_log_hears_of_the_run_at_its_start_after_its_first_game_and_at_its_end(capsys):
    clock = Clock()
    with GamesProgress("iran: playing", 200, clock) as advance:
        clock.now = 95.0  # a first search game takes minutes
        advance()
        for _ in range(199):
            advance()  # quick games: no line without QUIET seconds between
    lines = lines_of(capsys)
    assert lines == [
        "iran: playing: 200 games to play",
        "iran: playing: 1/200 games, 1:35 so far",
        "iran: playing: 200 games in 1:35",
    ]


def test_a_slow_run_prints_a_line_every_tenth_or_every_minute(capsys):
    clock = Clock()
    with GamesProgress("ladder", 1000, clock) as advance:
        for _ in range(300):
            clock.now += 2.0  # 2 s a game: a tenth (100 games) takes 200 s
            advance()
    lines = lines_of(capsys)[1:-1]
    counts = [int(line.split(": ")[1].split("/")[0]) for line in lines]
    assert counts[0] == 1
    gaps = [b - a for a, b in itertools.pairwise(counts)]
    assert gaps and all(gap == GamesProgress.EVERY / 2 for gap in gaps)  # a line a minute


def test_a_run_that_plays_on_grows_its_total(capsys):
    with GamesProgress("tickets", 10) as advance:
        advance()
        advance.more(5)
        for _ in range(14):
            advance()
    lines = lines_of(capsys)
    assert lines[1] == "tickets: 1/10 games, 0:00 so far"
    assert lines[-1] == "tickets: 15 games in 0:00"
    assert advance.total == 15


def test_compare_names_its_progress_on_stderr_and_keeps_stdout_for_the_report():
    result = CliRunner().invoke(
        app, ["compare", "iran", "iran", "--games", "4", "--format", "json"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)  # nothing else on stdout
    assert "compare: both maps: 8 games to play" in result.stderr
    assert "compare: both maps: 1/8 games" in result.stderr
    assert "compare: both maps: 8 games in" in result.stderr
