"""Shared fixtures: the bundled maps, loaded once per test session.

The folder holding this file is on `sys.path` (pytest's default import mode), so
tests import the shared support modules by name: `testdata` (paths), `hand_maps`
(small maps counted by hand), `engine_positions` (tiny maps and the engine's
invariant checks; positions themselves are set up with the public builder,
`ttr_core.engine.positions`). A room's own support module sits in its folder,
which pytest puts on `sys.path` for that folder's tests: `table/table_player`,
`serve/serve_server`, `playtest/balance_reports`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from ttr_maps.model import Map


def _bundled(map_id: str) -> Map:
    from ttr_maps import load_map

    return load_map(map_id)


@pytest.fixture(scope="session")
def north_america() -> Map:
    return _bundled("north_america")


@pytest.fixture(scope="session")
def europe() -> Map:
    return _bundled("europe")


@pytest.fixture(scope="session")
def iran() -> Map:
    return _bundled("iran")


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests never write the user's cache folder (baselines computed on first use,
    `ttr_core.playtest.baseline`): each test session has one of its own."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous
