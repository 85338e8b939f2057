"""Saving the opened file, and reading it again. Only the opened file is ever
written, and only if it is still what was read (a 409 with `"conflict": true`
otherwise: the page offers a reload).

    POST /api/save              write the file (409 if it changed on disk, or
                                {"drops": true} if it would undo the change on
                                disk a reload brought in: {"drop_disk_change":
                                true} saves anyway)
    POST /api/reload            read the file again, merged with the edits not
                                saved (or they stay one undo away); "said" tells
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.edit import edits as ed
from ttr_core.edit.access import EDITOR
from ttr_core.edit.payloads import state_payload
from ttr_core.edit.server import EditServer
from ttr_core.edit.session import ConflictError, DropError, OpenError
from ttr_core.web.answers import PRIVATE, error
from ttr_core.web.bodies import read_json
from ttr_core.web.routes import Endpoint


async def save(server: EditServer, request: Request, grant: None) -> Response:
    data = await read_json(request)
    anyway = data.get("drop_disk_change", False)
    if not isinstance(anyway, bool):
        return error(400, "'drop_disk_change' must be true or false")
    session = server.session

    def work() -> JSONResponse:
        try:
            session.save(drop_disk_change=anyway)
        except DropError as problem:
            return JSONResponse({"error": str(problem), "drops": True}, status_code=409)
        except ConflictError as problem:
            return JSONResponse({"error": str(problem), "conflict": True}, status_code=409)
        except OSError as problem:
            from ttr_maps.io.files import describe_os_error

            # The file cannot be written there (read-only, a full disk, a hard
            # link...): the designer's to settle, so a 4xx, never a 500.
            return error(409, f"{session.path.name}: not saved: {describe_os_error(problem)}")
        return server.state()

    return await run_in_threadpool(work)


async def reload(server: EditServer, request: Request, grant: None) -> Response:
    await read_json(request)
    session = server.session

    def work() -> JSONResponse:
        try:
            said = session.reload()
        except (OpenError, ed.EditError) as problem:
            return error(409, str(problem))
        return JSONResponse({**state_payload(session), "said": said}, headers=PRIVATE)

    return await run_in_threadpool(work)


ENDPOINTS = (
    Endpoint("POST", "/api/save", save, EDITOR),
    Endpoint("POST", "/api/reload", reload, EDITOR),
)
