"""Shared fixtures: the bundled maps, loaded once per test session.

The folder holding this file is on `sys.path` (pytest's default import mode), so
tests import the shared support modules by name: `testdata` (paths),
`engine_positions`, `table_player`, `serve_server`.
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
