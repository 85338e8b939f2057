"""Notes on a game, from a seat or from someone watching (who may sign with a name).

POST /api/games/{id}/notes        {"text": "…"} (someone watching may add "name")
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ttr_core.serve.access import SEAT_OR_WATCHING, AtTable
from ttr_core.serve.server import TableServer
from ttr_core.serve.tables import TableError
from ttr_core.web.answers import error
from ttr_core.web.bodies import read_json
from ttr_core.web.routes import Endpoint


async def add_note(server: TableServer, request: Request, at: AtTable) -> Response:
    table, seat = at.table, at.seat
    data = await read_json(request)
    try:
        table.add_note(seat, data.get("text"), data.get("name") if seat is None else None)
    except TableError as problem:
        # A game that keeps all the notes it may is a conflict, not a bad note.
        return error(400 if "notes" not in str(problem) else 409, str(problem))
    await server.tables.save_note(table)
    return server.answer(table, seat)


ENDPOINTS = (Endpoint("POST", "/api/games/{game}/notes", add_note, SEAT_OR_WATCHING),)
