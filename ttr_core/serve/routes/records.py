"""Game records: a finished game's record to download, and a record brought to
the server replayed frame by frame.

    GET  /api/games/{id}/record       the game record, once the game is over
                                      (a seat or someone watching)
    POST /api/replays                 a game record in, the frames of its replay out
                                      (public: the record is the whole game)
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.serve.access import SEAT_OR_WATCHING, AtTable
from ttr_core.serve.payloads import replay_payload
from ttr_core.serve.server import TableServer
from ttr_core.web.answers import PRIVATE, error
from ttr_core.web.bodies import read_json
from ttr_core.web.routes import PUBLIC, Endpoint
from ttr_maps.model import Map

#: Largest request body: a game record (a replay, or a game to continue).
MAX_RECORD_BYTES = 2 * 1024 * 1024


def checked_record(server: TableServer, record: dict[str, Any]) -> Map:
    """The map of a game record brought to the server, once the record is one
    (format, version, schema) of a map this server offers; else a clean 400."""
    from ttr_core.engine.record import RECORD_FORMAT, RECORD_VERSIONS, first_schema_problem

    if record.get("format") != RECORD_FORMAT or record.get("version") not in RECORD_VERSIONS:
        shown = " or ".join(map(str, RECORD_VERSIONS))
        raise HTTPException(400, f"not a {RECORD_FORMAT} file of version {shown}")
    problem = first_schema_problem(record)
    if problem:
        raise HTTPException(400, f"not a valid game record: {problem}")
    game_map = server.catalogue.get(record["map"])
    if game_map is None:
        raise HTTPException(400, f"the record's map {record['map']!r} is not on this server")
    return game_map


async def record(server: TableServer, request: Request, at: AtTable) -> Response:
    from ttr_core.engine.record import dump_record, record_of

    table = at.table
    state = table.state
    if not state.is_over:
        # The record holds the seed and so every hidden card (R5): only at the end.
        return error(409, "the record is ready when the game is over")
    name = f"ttr-{table.map_key}-seed{state.seed}.json"
    return Response(
        dump_record(record_of(state, table.players, table.names, table.notes)),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"', **PRIVATE},
    )


async def replay(server: TableServer, request: Request, grant: None) -> Response:
    from ttr_core.engine.record import RecordError

    data = await read_json(request, MAX_RECORD_BYTES)
    game_map = checked_record(server, data)
    try:
        payload = replay_payload(data, game_map)
    except RecordError as problem:
        return error(400, str(problem))
    return JSONResponse(payload)


ENDPOINTS = (
    Endpoint("GET", "/api/games/{game}/record", record, SEAT_OR_WATCHING),
    Endpoint("POST", "/api/replays", replay, PUBLIC),
)
