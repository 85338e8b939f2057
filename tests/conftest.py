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
