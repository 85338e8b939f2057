"""The map's tables as CSV, out and in, and the board as a picture.

GET  /api/export/{what}.csv cities, routes or tickets as CSV
POST /api/import            {"what": "cities", "csv": "..."} or {"files": [CSV, ...]}
                            (each table known by its header): rows added
GET  /api/board.svg         the board as drawn; /api/board.png as `ttr preview` draws it
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.edit import edits as ed
from ttr_core.edit.access import EDITOR
from ttr_core.edit.server import EditServer
from ttr_core.web.answers import PRIVATE, error
from ttr_core.web.bodies import read_json, string_field
from ttr_core.web.routes import Endpoint

#: Largest request body: a CSV import.
MAX_IMPORT_BYTES = 1024 * 1024
#: Longest table name a request may send.
MAX_WHAT_CHARS = 20


async def export_csv(server: EditServer, request: Request, grant: None) -> Response:
    from ttr_core.edit.tables import TABLES, export_table

    what = request.path_params["what"]
    if what not in TABLES:
        return error(404, f"no table {what!r}: {', '.join(TABLES)}")
    session = server.session
    text = await run_in_threadpool(export_table, session.checked, what)
    name = f"{session.path.stem}-{what}.csv"
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={**PRIVATE, "Content-Disposition": f'attachment; filename="{name}"'},
    )


def _import_files(data: dict[str, Any]) -> tuple[str | None, list[str]]:
    """(the table named by `what`, or None: each file's header says), the CSV texts."""
    from ttr_core.edit.tables import TABLES

    files, what = data.get("files"), None
    if files is None:
        what = string_field(data, "what", MAX_WHAT_CHARS)
        if what not in TABLES:
            raise HTTPException(400, f"'what' must be one of {', '.join(TABLES)}")
        files = [data.get("csv")]
    if not isinstance(files, list) or not 1 <= len(files) <= len(TABLES):
        raise HTTPException(400, f"'files' must be a list of 1 to {len(TABLES)} CSV texts")
    if not all(isinstance(f, str) for f in files):
        raise HTTPException(400, "'csv' must be the text of a CSV file")
    return what, files


async def import_csv(server: EditServer, request: Request, grant: None) -> Response:
    from ttr_core.edit.tables import TableError, import_tables, table_of

    what, files = _import_files(await read_json(request, MAX_IMPORT_BYTES))
    session = server.session

    def work() -> JSONResponse:
        with session.lock:
            try:
                tables = {what: files[0]} if what is not None else {}
                for csv_text in files if what is None else ():
                    found = table_of(csv_text)
                    if found in tables:
                        raise TableError(f"two tables of {found} in one import")
                    tables[found] = csv_text
                new, added = import_tables(session.text, session.checked, tables, session.country)
                session.apply(ed.ReplaceText(new, f"import {added} rows"))
            except (TableError, ed.EditError) as problem:
                return error(400, str(problem))
            return server.state()

    return await run_in_threadpool(work)


async def board_svg(server: EditServer, request: Request, grant: None) -> Response:
    from ttr_core.edit.tables import standalone_svg

    session = server.session
    svg = await run_in_threadpool(lambda: standalone_svg(session.checked.drawing.svg))
    return Response(svg, media_type="image/svg+xml", headers=PRIVATE)


async def board_png(server: EditServer, request: Request, grant: None) -> Response:
    from ttr_core.edit.tables import board_picture

    checked = server.session.checked
    if not checked.drawable.cities:
        return error(409, "nothing to draw yet: the board has no city")
    png = await run_in_threadpool(board_picture, checked)
    return Response(png, media_type="image/png", headers=PRIVATE)


ENDPOINTS = (
    Endpoint("GET", "/api/export/{what}.csv", export_csv, EDITOR),
    Endpoint("POST", "/api/import", import_csv, EDITOR),
    Endpoint("GET", "/api/board.svg", board_svg, EDITOR),
    Endpoint("GET", "/api/board.png", board_png, EDITOR),
)
