"""Saving the opened file, and reading it again. Only the opened file is ever
written, and only if it is still what was read (a 409 with `"conflict": true`
otherwise: the page offers a reload).

    POST /api/save              write the file (409 if it changed on disk)
    POST /api/reload            read the file again (the edits stay one undo away)
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.edit import edits as ed
from ttr_core.edit.access import EDITOR
from ttr_core.edit.server import EditServer
from ttr_core.edit.session import ConflictError, OpenError
from ttr_core.web.answers import error
from ttr_core.web.bodies import read_json
from ttr_core.web.routes import Endpoint


async def save(server: EditServer, request: Request, grant: None) -> Response:
    await read_json(request)
    session = server.session

    def work() -> JSONResponse:
        try:
            session.save()
        except ConflictError as problem:
            return JSONResponse({"error": str(problem), "conflict": True}, status_code=409)
        except OSError as problem:
            from ttr_maps.io.files import describe_os_error

            return error(500, f"{session.path.name}: not saved: {describe_os_error(problem)}")
        return server.state()

    return await run_in_threadpool(work)


async def reload(server: EditServer, request: Request, grant: None) -> Response:
    await read_json(request)
    session = server.session

    def work() -> JSONResponse:
        try:
            session.reload()
        except (OpenError, ed.EditError) as problem:
            return error(409, str(problem))
        return server.state()

    return await run_in_threadpool(work)


ENDPOINTS = (
    Endpoint("POST", "/api/save", save, EDITOR),
    Endpoint("POST", "/api/reload", reload, EDITOR),
)
