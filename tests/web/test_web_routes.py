"""`ttr_core.web.routes`: a route of either web app exists only with its access
rule, and its handler runs only after the rule admitted the request."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from ttr_core.edit.access import EDITOR
from ttr_core.edit.app import create_app as create_editor
from ttr_core.edit.session import EditSession
from ttr_core.serve.access import SEAT, SEAT_OR_WATCHING
from ttr_core.serve.app import create_app as create_table
from ttr_core.serve.tables import TableRegistry
from ttr_core.serve.thinkers import Thinkers
from ttr_core.web.routes import (
    PUBLIC,
    AdmittedMount,
    AdmittedRoute,
    Endpoint,
    WebApp,
    admitted_routes,
    web_app,
)
from ttr_maps.authoring.starter import empty_map_text

BASE_URL = "http://127.0.0.1:8000"


def editor_app(folder: Path) -> WebApp:
    text = empty_map_text("fjords", coordinates="plane", schema_ref="map.schema.json")
    return create_editor(EditSession.open(folder / "fjords.yaml", text), "secret-token")


def table_app() -> WebApp:
    return create_table(registry=TableRegistry(thinkers=Thinkers(processes=0)), test_hooks=True)


def described(app: WebApp) -> dict[str, str]:
    """Every route of `app` as `METHOD path` (`MOUNT path` for a folder) → the
    name of its access rule."""
    found = {}
    for route in admitted_routes(app):
        if isinstance(route, AdmittedMount):
            found[f"MOUNT {route.path}"] = route.access.name
        else:
            methods = sorted(set(route.methods or ()) - {"HEAD"})
            found[f"{' '.join(methods)} {route.path}"] = route.access.name
    return found


def test_every_route_of_the_web_table_has_its_access_rule() -> None:
    app = table_app()
    assert all(isinstance(r, AdmittedRoute | AdmittedMount) for r in app.routes)
    assert described(app) == {
        "GET /": "public",
        "MOUNT /static": "public",
        "GET /api/setup": "public",
        "GET /api/maps/{map}/board.svg": "public",
        "POST /api/games": "public",
        "POST /api/replays": "public",
        "GET /api/games/{game}": SEAT_OR_WATCHING.name,
        "POST /api/games/{game}/notes": SEAT_OR_WATCHING.name,
        "GET /api/games/{game}/record": SEAT_OR_WATCHING.name,
        "POST /api/games/{game}/actions": SEAT.name,
        "POST /api/games/{game}/pace": SEAT.name,
        "POST /api/games/{game}/name": SEAT.name,
        "GET /api/games/{game}/why": SEAT.name,
        "POST /api/games/{game}/fast-forward": SEAT.name,
    }


def test_every_api_route_of_the_editor_needs_its_token(tmp_path: Path) -> None:
    app = editor_app(tmp_path)
    routes = described(app)
    assert all(isinstance(r, AdmittedRoute | AdmittedMount) for r in app.routes)
    public = sorted(path for path, rule in routes.items() if rule == PUBLIC.name)
    assert public == ["GET /", "MOUNT /static"]
    assert all(rule == EDITOR.name for path, rule in routes.items() if "/api/" in path)
    assert len(routes) == 19


def test_a_route_given_another_way_is_refused() -> None:
    async def hello(request: Request) -> Response:
        return PlainTextResponse("hello")

    with pytest.raises(TypeError, match="access rule"):
        web_app(None, [Route("/hello", hello)], who="a test")  # type: ignore[list-item]
    app = web_app(None, [], who="a test")
    with pytest.raises(TypeError, match="access rule"):
        app.add_route("/hello", hello)
    with pytest.raises(TypeError, match="access rule"):
        app.mount("/files", hello)
    app.router.routes.append(Route("/hello", hello))  # past every door: still found
    with pytest.raises(TypeError, match="not behind an access rule"):
        admitted_routes(app)


class _Refuse:
    name = "nobody"

    async def admit(self, context: Any, request: Request) -> None:
        raise HTTPException(403, "nobody may")


class _Count:
    name = "counted"

    async def admit(self, context: list[str], request: Request) -> str:
        return request.headers.get("x-who", "nobody")


def test_a_refused_request_never_reaches_its_handler() -> None:
    calls: list[str] = []

    async def handler(context: list[str], request: Request, grant: Any) -> Response:
        context.append(f"{request.url.path} {grant}")
        return PlainTextResponse("done")

    app = web_app(
        calls,
        [
            Endpoint("POST", "/refused", handler, _Refuse()),
            Endpoint("POST", "/admitted", handler, _Count()),
        ],
        who="a test",
    )
    with TestClient(app, base_url=BASE_URL) as client:
        refused = client.post("/refused", json={})
        assert refused.status_code == 403 and refused.json() == {"error": "nobody may"}
        assert calls == []
        admitted = client.post("/admitted", json={}, headers={"x-who": "ana"})
        assert admitted.status_code == 200
        assert calls == ["/admitted ana"]  # the rule's grant is the handler's


def test_the_page_and_its_files_are_public_and_behind_the_guard(tmp_path: Path) -> None:
    with TestClient(editor_app(tmp_path), base_url=BASE_URL) as client:
        assert client.get("/").status_code == 200
        assert client.get("/static/edit.js").status_code == 200
        assert client.get("/static/../app.py").status_code == 404
        other_host = client.get("/static/edit.js", headers={"Host": "evil.example"})
        assert other_host.status_code == 403
