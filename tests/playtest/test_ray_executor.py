"""The Ray executor against a real local Ray instance (2 CPUs) started here:
the same report.json as one local process, byte for byte; a killed worker is
replaced; a failing game names its seed."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.executors import (
    GameFailed,
    InProcess,
    RayCluster,
    Work,
    Workers,
    iter_batches,
)
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.playout import GameSummary
from ttr_core.playtest.simulate import simulate
from ttr_maps.model import Map

ray = pytest.importorskip("ray", reason="Ray is installed by .ci/run (pip install '.[cluster]')")

MAP = "north_america"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def _simulate(tmp_path: Path, name: str, *options: str) -> bytes:
    out = tmp_path / name
    arguments = ["simulate", MAP, "--games", "30", "--players", "3", "--seed", "11"]
    # The executor is under test, not the baseline: none is played (1,000 games a board).
    arguments += ["--bots", "greedy,one-step,random", "--baseline", "off", "--out", str(out)]
    arguments += list(options)
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0, result.output
    return (out / "report.json").read_bytes()


# two simulations on Ray and one in process; the killed-worker test keeps Ray in the default
# suite
@pytest.mark.slow
def test_ray_report_is_byte_identical_to_one_process(local_ray: None, tmp_path: Path) -> None:
    with_ray = _simulate(tmp_path, "ray", "--executor", "ray", "--jobs", "2")
    assert with_ray == _simulate(tmp_path, "local", "--jobs", "1")


def _kill_game_workers() -> list[int]:
    """Kill every game worker of the Ray instance this process started (its
    descendants): this run's, and any an earlier run's actors left behind that
    have not exited yet (killing only the first found could hit one of those, and
    then nothing of this run would be lost). Other processes' Ray workers are left alone."""
    killed = []
    for process in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if any("GameWorker" in part for part in process.cmdline()):
                process.kill()
                killed.append(process.pid)
    return killed


def test_a_killed_ray_worker_is_replaced_and_the_report_unchanged(
    local_ray: None, north_america: Map
) -> None:
    executor = RayCluster(workers=2)
    killed: list[list[int]] = []

    def kill_once(_: GameSummary) -> None:
        if not killed:
            killed.append(_kill_game_workers())

    bots = ("greedy", "random")
    played, plan = PlayedMap(north_america, MAP), RunPlan(30, 2, tuple(bots), 3)
    run = simulate(played, plan, Workers(2, executor), on_game=kill_once)
    assert killed and killed[0]
    assert executor.retries >= 1
    alone = simulate(played, plan, Workers(1, InProcess()))
    assert run.report == alone.report


@pytest.mark.slow  # 2-6 s; the default suite keeps the room's main test
def test_a_game_that_raises_on_a_ray_worker_names_its_seed(
    local_ray: None, north_america: Map
) -> None:
    work = Work(MAP, ("greedy", "no-such-bot"), 2, 7)
    with pytest.raises(GameFailed) as caught:
        list(RayCluster(workers=2).run(work, north_america, iter_batches(4, 2)))
    assert caught.value.index == 0
    assert "unknown bot no-such-bot" in str(caught.value)
    assert f"--seed {caught.value.seed}" in str(caught.value)


@pytest.mark.slow  # 2-6 s; the default suite keeps the room's main test
def test_ray_ladder_is_the_local_ladder(local_ray: None, tmp_path: Path) -> None:
    def ladder(name: str, *options: str) -> str:
        out = tmp_path / f"{name}.json"
        # One table of three: the games go through Ray's workers once.
        arguments = ["ladder", MAP, "--bots", "greedy,random,one-step", "--players", "3"]
        arguments += ["--games", "6"]
        result = CliRunner().invoke(app, [*arguments, "--json", str(out), *options])
        assert result.exit_code == 0, result.output
        return out.read_text(encoding="utf-8")

    assert ladder("ray", "--executor", "ray", "--jobs", "2") == ladder("local", "--jobs", "1")
