"""Executors (ttr_core/playtest/executors.py): same games, same answer, wherever they run;
bounded work in flight; lost workers replaced; a failing game named by its seed; a
stopped or killed run leaves nothing behind."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pytest
from testdata import sigint_as_from_a_terminal

from ttr_core.playtest import playout
from ttr_core.playtest.executors import (
    IN_FLIGHT_PER_WORKER,
    GameFailed,
    InProcess,
    LocalProcesses,
    MapPayload,
    SimulationError,
    Work,
    Workers,
    iter_batches,
)
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.report import BalanceReport
from ttr_core.playtest.simulate import simulate
from ttr_maps.model import Map
from ttr_maps.rules import MAX_GAMES, RuleSet

MAP = "north_america"
BOTS = ("greedy", "random")
GAMES = 40


def _report(
    game_map: Map,
    executor: object,
    games: int = GAMES,
    jobs: int = 1,
    rules: RuleSet | None = None,
    on_game: Callable[[playout.GameSummary], None] | None = None,
) -> BalanceReport:
    where = Workers(jobs, executor)  # type: ignore[arg-type]
    plan = RunPlan(games, 2, BOTS, 5)
    return simulate(PlayedMap(game_map, MAP, rules), plan, where, on_game=on_game).report


@pytest.fixture(scope="module")
def alone(north_america: Map) -> BalanceReport:
    """The run played in this process, game after game."""
    return _report(north_america, InProcess())


def test_local_processes_give_the_in_process_report(
    north_america: Map, alone: BalanceReport
) -> None:
    assert _report(north_america, LocalProcesses(2), jobs=2) == alone


def test_work_in_flight_is_bounded(north_america: Map) -> None:
    """A run of a billion games pulls only a few batches ahead of the one read."""
    pulled = 0

    def counting() -> object:
        nonlocal pulled
        for batch in iter_batches(10**9, 1):
            pulled += 1
            yield batch

    work = Work(MAP, BOTS, 2, 0)
    runner = LocalProcesses(2).run(work, north_america, counting())
    first = next(runner)
    runner.close()  # stops the pool: queued batches dropped, workers ended
    assert len(first) == 1
    assert pulled <= 2 * IN_FLIGHT_PER_WORKER + 1


def _children() -> set[multiprocessing.process.BaseProcess]:
    """This process's children before a run: a test kills one of the run's own
    workers, never a process an earlier test left behind."""
    return set(multiprocessing.active_children())


def test_a_lost_local_worker_is_replaced_and_the_report_unchanged(
    north_america: Map, alone: BalanceReport
) -> None:
    executor = LocalProcesses(2)
    killed = []
    earlier = _children()

    def kill_a_worker(_: playout.GameSummary) -> None:
        workers = [child for child in multiprocessing.active_children() if child not in earlier]
        if not killed and workers:
            os.kill(workers[0].pid, signal.SIGKILL)
            killed.append(workers[0].pid)

    report = _report(north_america, executor, jobs=2, on_game=kill_a_worker)
    assert killed and executor.retries >= 1
    assert report == alone


def test_a_pool_broken_before_new_work_is_replaced_too(north_america: Map) -> None:
    """A worker that dies between two submissions is found out at the next batch
    sent to it (or at the answer it owes): those batches are played again by its
    replacement, and nothing is lost. Batches go on after the kill so that the dead
    worker's slot always gets one (with one batch left, it could go to the other)."""
    executor = LocalProcesses(2)
    earlier = _children()

    def batches_killing_a_worker():  # type: ignore[no-untyped-def]
        for number, batch in enumerate(iter_batches(24, 2)):
            if number == 5:  # the workers are running: kill one, wait till it is gone
                victim = next(c for c in multiprocessing.active_children() if c not in earlier)
                os.kill(victim.pid, signal.SIGKILL)
                victim.join(timeout=10)
                time.sleep(1.0)  # the pool's manager thread marks itself broken
            yield batch

    work = Work(MAP, BOTS, 2, 5, False, None)
    runs = executor.run(work, north_america, batches_killing_a_worker())
    played = [summary for batch in runs for summary in batch]
    alone = InProcess().run(work, north_america, iter_batches(24, 2))
    assert played == [summary for batch in alone for summary in batch]
    assert executor.retries >= 1


def test_a_failing_game_stops_the_run_with_its_seed(
    monkeypatch: pytest.MonkeyPatch, north_america: Map
) -> None:
    real = playout.play_summarised

    def fails_on_game_3(game_map, map_argument, names, seed, index, *rest):  # type: ignore[no-untyped-def]
        if index == 3:
            raise RuntimeError("a bug")
        return real(game_map, map_argument, names, seed, index, *rest)

    monkeypatch.setattr(playout, "play_summarised", fails_on_game_3)
    with pytest.raises(GameFailed) as caught:
        _report(north_america, InProcess(), games=6)
    message = str(caught.value)
    seed = playout.game_seed(5, 3)
    assert caught.value.seed == seed
    assert f"seed {seed}" in message and "RuntimeError: a bug" in message
    assert f"ttr play {MAP} --players 2 --bots random,greedy --seed {seed}" in message


def test_map_payload_is_checked_on_arrival(north_america: Map) -> None:
    payload = MapPayload.from_map(MAP, north_america)
    assert payload.load() == north_america
    damaged = MapPayload(MAP, payload.text + "\n# x", payload.text_sha256, payload.model_digest)
    with pytest.raises(SimulationError, match="damaged"):
        damaged.load()
    other = MapPayload(MAP, payload.text, payload.text_sha256, "0" * 64)
    with pytest.raises(SimulationError, match="reads the map differently"):
        other.load()


def test_batches_cover_every_game_once() -> None:
    batches = list(iter_batches(23, 5))
    assert list(itertools.chain.from_iterable(batches)) == list(range(23))


def test_a_worker_ending_half_way_through_its_answer_is_a_lost_worker() -> None:
    """A worker terminated while sending a batch's summaries leaves half a message
    in its pipe: the driver reads that as a lost worker (its batches are played
    again), never waits for the rest. (Here the half message is written by hand.)"""
    import multiprocessing
    import struct

    from ttr_core.playtest.executors import _Worker

    context = multiprocessing.get_context()
    ours, theirs = context.Pipe()
    worker = object.__new__(_Worker)
    worker.process = context.Process(target=time.sleep, args=(0.2,), daemon=True)
    worker.process.start()
    worker.connection = ours
    worker.pending = deque()
    os.write(theirs.fileno(), struct.pack("!i", 1_000_000) + b"half")
    theirs.close()
    started = time.monotonic()
    assert worker.receive() is None
    assert time.monotonic() - started < 10
    worker.stop()
    assert not worker.process.is_alive()


@pytest.mark.parametrize(
    ("signum", "code"),
    [(signal.SIGINT, 130), pytest.param(signal.SIGTERM, 143, marks=pytest.mark.slow)],
)
def test_a_stopped_simulation_ends_at_once_and_leaves_nothing(
    tmp_path: Path, signum: int, code: int
) -> None:
    """Ctrl-C or SIGTERM during a run of a million games (the most --games allows): a prompt
    exit, no
    report, no staging folder, no worker left."""
    out = tmp_path / "report"
    command = [sys.executable, "-m", "ttr_core", "simulate", MAP, "--games", str(MAX_GAMES)]
    command += ["--players", "2", "--jobs", "2", "--out", str(out)]
    # As a terminal starts a command: Ctrl-C not ignored. (A test run started in
    # the background by a shell without job control ignores SIGINT, and passes
    # that on to every child.)
    process = subprocess.Popen(
        command, stderr=subprocess.PIPE, text=True, preexec_fn=sigint_as_from_a_terminal
    )
    deadline = time.monotonic() + 60
    while not list(tmp_path.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.1)  # until the run has made its staging folder
    time.sleep(1)  # and is playing
    process.send_signal(signum)
    try:
        _, stderr = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == code, stderr
    assert "Traceback" not in stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_workers_of_a_killed_driver_end_too(tmp_path: Path) -> None:
    """SIGKILL stops the driver alone: its workers notice and end within seconds
    instead of waiting for work forever."""
    import psutil

    command = [sys.executable, "-m", "ttr_core", "simulate", MAP, "--games", str(MAX_GAMES)]
    command += ["--players", "2", "--jobs", "2", "--out", str(tmp_path / "report")]
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    driver = psutil.Process(process.pid)
    deadline = time.monotonic() + 60
    while len(driver.children()) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)  # until the workers run
    workers = driver.children()
    assert len(workers) == 2
    process.kill()
    process.wait()
    _, alive = psutil.wait_procs(workers, timeout=15)
    for worker in alive:  # do not leave them behind if the test fails
        worker.kill()
    assert alive == []


def test_ray_missing_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ttr_core.cli import app

    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    result = CliRunner().invoke(
        app, ["simulate", MAP, "--games", "2", "--executor", "ray", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 2
    assert "pip install 'ttr-mapkit[cluster]'" in result.output
    assert not (tmp_path / "r").exists()


def test_a_failing_game_with_set_overrides_replays_with_them(
    monkeypatch: pytest.MonkeyPatch, north_america: Map
) -> None:
    from ttr_maps.rules import rules_for

    rules = rules_for(north_america).with_overrides({"wagons": 20})
    report = _report(north_america, InProcess(), games=2, rules=rules)
    assert report.settings.rule_changes == ("wagons=20",)

    def fails(*_: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(playout, "play_summarised", fails)
    with pytest.raises(GameFailed) as caught:
        _report(north_america, InProcess(), games=2, rules=rules)
    assert caught.value.command.endswith("--set wagons=20")
