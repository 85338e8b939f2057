"""The editor's test support: a session on a file in a temporary folder and a
test client that sends its token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ttr_core.edit.access import TOKEN_HEADER
from ttr_core.edit.app import create_app
from ttr_core.edit.session import EditSession
from ttr_maps.authoring.gazetteer import country_frame
from ttr_maps.authoring.starter import empty_map_text

TOKEN = "test-token-0123456789"


class Editor:
    """A test client of one editor session, with helpers for its API."""

    def __init__(self, client: TestClient, session: EditSession) -> None:
        self.client, self.session = client, session

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.client.get(path, headers={TOKEN_HEADER: TOKEN}, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        return self.client.post(
            path, json=body if body is not None else {}, headers={TOKEN_HEADER: TOKEN}, **kwargs
        )

    def edit(self, op: str, **fields: Any) -> dict[str, Any]:
        response = self.post("/api/edit", {"op": op, **fields})
        assert response.status_code == 200, response.json()
        return response.json()


def editor_for(session: EditSession) -> Iterator[Editor]:
    with TestClient(create_app(session, TOKEN), base_url="http://127.0.0.1:8765") as client:
        yield Editor(client, session)


@pytest.fixture
def new_map(tmp_path: Path) -> Path:
    return tmp_path / "fjords.yaml"


@pytest.fixture
def blank(new_map: Path) -> Iterator[Editor]:
    """An editor on a map file that does not exist yet, in Norway."""
    text = empty_map_text("fjords", coordinates="geographic", schema_ref="map.schema.json")
    session = EditSession.open(new_map, text, region=country_frame("NO"), country="NO")
    yield from editor_for(session)


@pytest.fixture(autouse=True)
def _no_count_left_running() -> Iterator[None]:
    """A test's crowding counts in the background (the Numbers panel) stop with it."""
    from ttr_core.edit.crowding import COUNTS

    yield
    COUNTS.stop()
    COUNTS.wait(60)
