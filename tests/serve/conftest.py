"""Fixtures of the web table's tests: a store in the test's folder, a registry on
it with a hand-moved clock (bots think in a thread), and a test client with the
application's lifespan (the tables' drivers run in it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_server import Clock, serving
from starlette.testclient import TestClient

from ttr_core.serve.app import create_app
from ttr_core.serve.store import TableStore
from ttr_core.serve.tables import TableRegistry
from ttr_core.serve.thinkers import Thinkers

#: The system's Chromium, which Playwright drives (its own download is not used).
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install the Debian package 'chromium'")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is missing: pip install -e '.[test]'")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    store = TableStore(tmp_path / "tables.sqlite3")
    yield store
    store.close()


@pytest.fixture
def registry(store: TableStore) -> TableRegistry:
    return TableRegistry(store=store, thinkers=Thinkers(processes=0), clock=Clock())


@pytest.fixture
def client(registry: TableRegistry) -> Iterator[TestClient]:
    with serving(create_app(registry=registry, test_hooks=True)) as client:
        yield client
