"""A seat at its table: what it sees, its moves and settings, and why a route
cannot be claimed now.

    GET  /api/games/{id}              my seat's table, or the public table for someone
                                      watching (?since=REVISION: 204 if unchanged)
    POST /api/games/{id}/actions      {"action": "claim Denver-Omaha with red:4"}
    POST /api/games/{id}/pace         {"pace": "fast"}
    POST /api/games/{id}/name         {"name": "Ana"}: what my seat is called
    GET  /api/games/{id}/why?route=ID why I cannot claim a route now (the rule)
    POST /api/games/{id}/fast-forward bots finish the game (`FAST_FORWARD`: tests only)

Each change is stored before its answer is sent.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.engine.actions import parse_action
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.serve.access import SEAT, SEAT_OR_WATCHING, AtTable, Seated
from ttr_core.serve.server import TableServer
from ttr_core.serve.tables import TableError
from ttr_core.web.answers import PRIVATE, error
from ttr_core.web.bodies import read_json, string_field
from ttr_core.web.routes import Endpoint

#: Longest pace name a request may send.
MAX_PACE_CHARS = 40


async def game(server: TableServer, request: Request, at: AtTable) -> Response:
    table = at.table
    table.wake.set()  # the driver looks again (a clock may have moved)
    since = request.query_params.get("since", "")
    if since.isdecimal() and int(since) == table.revision:
        return Response(status_code=204, headers=PRIVATE)
    return server.answer(table, at.seat)


async def act(server: TableServer, request: Request, at: Seated) -> Response:
    data = await read_json(request)
    text = string_field(data, "action")
    try:
        at.table.act(at.seat, parse_action(text), server.tables.clock())
    except InvalidAction as problem:
        return error(400, str(problem))
    except IllegalAction as problem:
        return error(409, str(problem))
    await server.tables.save(at.table)
    return server.answer(at.table, at.seat)


async def set_pace(server: TableServer, request: Request, at: Seated) -> Response:
    data = await read_json(request)
    try:
        at.table.set_pace(string_field(data, "pace", MAX_PACE_CHARS))
    except TableError as problem:
        return error(400, str(problem))
    await server.tables.save_pace(at.table)
    return server.answer(at.table, at.seat)


async def set_name(server: TableServer, request: Request, at: Seated) -> Response:
    data = await read_json(request)
    try:
        at.table.set_name(at.seat, data.get("name"))
    except TableError as problem:
        return error(400, str(problem))
    await server.tables.save_name(at.table, at.seat)
    return server.answer(at.table, at.seat)


async def why(server: TableServer, request: Request, at: Seated) -> Response:
    from ttr_core.table.commands import claim_refusal, why_not

    state, seat = at.table.state, at.seat
    route = state.board.route_index.get(request.query_params.get("route", ""))
    if route is None:
        return error(400, "name a route of this map: ?route=ID")
    reason = claim_refusal(
        state.map.routes[route], state.view(seat), lambda action: why_not(state, seat, action)
    )
    return JSONResponse({"reason": reason}, headers=PRIVATE)


async def fast_forward(server: TableServer, request: Request, at: Seated) -> Response:
    at.table.fast_forward()
    await server.tables.save(at.table)
    return server.answer(at.table, at.seat)


ENDPOINTS = (
    Endpoint("GET", "/api/games/{game}", game, SEAT_OR_WATCHING),
    Endpoint("POST", "/api/games/{game}/actions", act, SEAT),
    Endpoint("POST", "/api/games/{game}/pace", set_pace, SEAT),
    Endpoint("POST", "/api/games/{game}/name", set_name, SEAT),
    Endpoint("GET", "/api/games/{game}/why", why, SEAT),
)
#: For tests only (`create_app(test_hooks=True)`).
FAST_FORWARD = Endpoint("POST", "/api/games/{game}/fast-forward", fast_forward, SEAT)
