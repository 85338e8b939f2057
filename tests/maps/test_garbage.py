"""The collector pause around validation (ttr_maps.garbage)."""

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


def test_validation_runs_with_the_collector_paused_and_restores_it(collector_on, monkeypatch):
    import ttr_maps.checks.validate as validate

    seen = []
    real = validate.validate_document

    def spy(document, **options):
        seen.append(gc.isenabled())
        return real(document, **options)

    monkeypatch.setattr(validate, "validate_document", spy)
    report = validate_text("format: 1\nid: x\n", "x.yaml")
    assert seen == [False] and report.problems
    assert gc.isenabled()


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
