"""The opened file now, and changing it one step at a time.

GET  /api/state             the file now: board, elements, problems, history
POST /api/edit              {"op": "add_city", ...}: one edit (`parse.parse_edit`)
POST /api/undo, /api/redo   one step back or forward
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.edit import edits as ed
from ttr_core.edit.access import EDITOR
from ttr_core.edit.routes.parse import parse_edit
from ttr_core.edit.server import EditServer
from ttr_core.web.answers import error
from ttr_core.web.bodies import read_json
from ttr_core.web.routes import Endpoint


async def get_state(server: EditServer, request: Request, grant: None) -> Response:
    return await run_in_threadpool(server.state)


async def edit(server: EditServer, request: Request, grant: None) -> Response:
    data = await read_json(request)
    session = server.session

    def work() -> JSONResponse:
        with session.lock:
            try:
                session.apply(parse_edit(data, session))
            except ed.EditError as problem:
                return error(400, str(problem))
            return server.state()

    return await run_in_threadpool(work)


async def _step(server: EditServer, request: Request, forward: bool) -> Response:
    await read_json(request)
    session = server.session

    def work() -> JSONResponse:
        moved = session.redo() if forward else session.undo()
        if not moved:
            return error(409, f"nothing to {'redo' if forward else 'undo'}")
        return server.state()

    return await run_in_threadpool(work)


async def undo(server: EditServer, request: Request, grant: None) -> Response:
    return await _step(server, request, forward=False)


async def redo(server: EditServer, request: Request, grant: None) -> Response:
    return await _step(server, request, forward=True)


ENDPOINTS = (
    Endpoint("GET", "/api/state", get_state, EDITOR),
    Endpoint("POST", "/api/edit", edit, EDITOR),
    Endpoint("POST", "/api/undo", undo, EDITOR),
    Endpoint("POST", "/api/redo", redo, EDITOR),
)
