"""Notes on a game, from a seat or from someone watching (who may sign with a name).

POST /api/games/{id}/notes        {"text": "…"} (someone watching may add "name")

Someone watching signs as a watcher ("Ana (watching)"), never as a seat. Each seat
(and everyone watching, together) may add `NOTES_PER_WINDOW` notes in
`NOTE_WINDOW_SECONDS` (then 429), so that no one fills the game's notes.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ttr_core.serve.access import SEAT_OR_WATCHING, AtTable
from ttr_core.serve.server import TableServer
from ttr_core.serve.tables import NoteLimit, TableError
from ttr_core.web.answers import error
from ttr_core.web.bodies import read_json
from ttr_core.web.routes import Endpoint


async def add_note(server: TableServer, request: Request, at: AtTable) -> Response:
    table, seat = at.table, at.seat
    data = await read_json(request)
    try:
        await server.tables.add_note(
            table, seat, data.get("text"), data.get("name") if seat is None else None
        )
    except NoteLimit as problem:
        # A game that keeps all the notes it may is a conflict; too many at once, 429.
        return error(409 if "keeps" in str(problem) else 429, str(problem))
    except TableError as problem:
        return error(400, str(problem))
    return server.answer(table, seat)


ENDPOINTS = (Endpoint("POST", "/api/games/{game}/notes", add_note, SEAT_OR_WATCHING),)
