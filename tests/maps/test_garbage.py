"""The garbage collector's policies (ttr_maps.garbage), chosen by the entry points."""

from __future__ import annotations

import gc
import threading

import pytest

from ttr_maps.checks.validate import validate_text
from ttr_maps.garbage import collector_paused


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_overlapping_pauses_put_the_collector_back_when_the_last_ends(collector_on):
    first, second = collector_paused(), collector_paused()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # ends before the second: still paused
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off(collector_on):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_a_failure_inside_still_ends_the_pause(collector_on):
    with pytest.raises(ValueError), collector_paused():
        raise ValueError
    assert gc.isenabled()


def test_pauses_from_threads_leave_the_collector_on(collector_on):
    inside = threading.Barrier(4)

    def check() -> None:
        with collector_paused():
            inside.wait()
            validate_text("format: 1\nid: [x\n", "x.yaml")

    workers = [threading.Thread(target=check) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert gc.isenabled()


def test_validation_leaves_the_collector_to_the_entry_point(collector_on, monkeypatch):
    """A library function never switches the process's collector: the policy is
    the entry point's (a test once turned flaky when validation did)."""
    import ttr_maps.checks.validate as validate

    seen = []
    real = validate.validate_document

    def spy(document, **options):
        seen.append(gc.isenabled())
        return real(document, **options)

    monkeypatch.setattr(validate, "validate_document", spy)
    report = validate_text("format: 1\nid: x\n", "x.yaml")
    assert seen == [True] and report.problems


@pytest.mark.parametrize(
    ("command", "paused"),
    [(["validate"], True), (["stats"], True), (["play", "--bots", "random,random"], False)],
)
def test_a_bounded_command_runs_with_the_collector_paused(
    collector_on, monkeypatch, tmp_path, command, paused
):
    """`ttr validate` and the other commands whose work the reader's limits bound
    run with the collector paused; a command that may run without end does not."""
    import shutil

    from typer.testing import CliRunner

    import ttr_maps.checks.validate as validate
    import ttr_maps.load as load
    from ttr_core.cli import app
    from ttr_maps.io.bundled import bundled_map_path

    path = tmp_path / "iran.yaml"  # a file of its own: load_map's cache never saw it
    shutil.copy(bundled_map_path("iran"), path)
    seen = []
    real = validate.validate_file

    def spy(target, **options):
        seen.append(gc.isenabled())
        return real(target, **options)

    monkeypatch.setattr(load, "validate_file", spy)
    monkeypatch.setattr(validate, "validate_file", spy)
    result = CliRunner().invoke(app, [command[0], str(path), *command[1:]])
    assert result.exit_code == 0, result.output
    assert seen and seen == [not paused] * len(seen)
    assert gc.isenabled()


def test_the_idle_collection_policy_freezes_and_switches_off(collector_on):
    from ttr_maps.garbage import collect_only_when_idle

    try:
        collect_only_when_idle()
        assert not gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def test_what_another_part_froze_stays_frozen(collector_on):
    """Frozen objects are in no generation: `gc.get_objects` does not list them.
    (Not a count of them: other threads of the test process free frozen
    objects of their own meanwhile.)"""
    held = []
    gc.freeze()
    try:
        with collector_paused():
            [[] for _ in range(100)]
        assert not any(thing is held for thing in gc.get_objects())
    finally:
        gc.unfreeze()
    assert any(thing is held for thing in gc.get_objects())


def test_what_outlives_a_pause_joins_the_oldest_generation(collector_on):
    """Not left young, for the next collection to scan (on a big map, two
    million objects at once)."""
    gc.collect()
    with collector_paused():
        kept = [[] for _ in range(50_000)]
    oldest = {id(thing) for thing in gc.get_objects(generation=2)}
    assert id(kept[0]) in oldest and id(kept[-1]) in oldest
