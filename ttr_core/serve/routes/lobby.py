"""What a web table offers, and starting or continuing a game.

    GET  /api/setup                   maps, players (human and bots), paces, timer limits
    GET  /api/maps/{map}/board.svg    the board of a map
    POST /api/games                   start a game: {"map", "players", "seed"?, "pace",
                                      "turn_seconds"?}, or continue one: {"resume": RECORD}

All public: starting a game hands its seat tokens to whoever started it.
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.bots import bot_factories
from ttr_core.serve.routes.records import MAX_RECORD_BYTES, checked_record
from ttr_core.serve.server import TableServer
from ttr_core.serve.tables import (
    DEFAULT_PACE,
    MAX_SEED,
    PACES,
    TURN_SECONDS_MAX,
    TURN_SECONDS_MIN,
    RegistryFull,
    Table,
    TableError,
    new_table,
    resumed_table,
    spectator_link,
)
from ttr_core.table import HUMAN
from ttr_core.web.answers import PRIVATE, error
from ttr_core.web.bodies import read_json, string_field, text_list, whole_number
from ttr_core.web.routes import PUBLIC, Endpoint
from ttr_maps.rules import map_rules

#: Longest map key a request may name.
MAX_MAP_KEY_CHARS = 200


async def setup(server: TableServer, request: Request, grant: None) -> Response:
    catalogue = server.catalogue
    maps = []
    for key in catalogue.ordered_keys():
        game_map = catalogue.get(key)
        assert game_map is not None
        counts = map_rules(game_map).player_counts()
        maps.append(
            {
                "key": key,
                "name": game_map.name,
                "rules": game_map.rules,
                "file": catalogue.is_file(key),
                "players": [counts[0], counts[-1]],
                # What of the board ttr does not model (`not_modelled:`).
                "not_modelled": list(game_map.not_modelled),
            }
        )
    return JSONResponse(
        {
            "maps": maps,
            "players": [HUMAN, *bot_factories()],
            "paces": list(PACES),
            "default_pace": DEFAULT_PACE,
            "turn_seconds": [TURN_SECONDS_MIN, TURN_SECONDS_MAX],
        }
    )


async def board(server: TableServer, request: Request, grant: None) -> Response:
    svg = server.catalogue.svg(request.path_params["map"])
    if svg is None:
        return error(404, f"no map {request.path_params['map']!r} on this server")
    return Response(svg, media_type="image/svg+xml")


def table_settings(data: dict[str, Any]) -> tuple[str, float | None]:
    """The table settings of a request: the pace and the turn timer (their ranges
    are the table's to check)."""
    pace = data.get("pace", DEFAULT_PACE)
    if not isinstance(pace, str):
        raise HTTPException(400, "'pace' must be a text")
    seconds = data.get("turn_seconds")
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int)):
        raise HTTPException(
            400,
            f"'turn_seconds' must be a whole number from {TURN_SECONDS_MIN} to "
            f"{TURN_SECONDS_MAX}, or null for no turn timer",
        )
    return pace, seconds


def new_game(
    server: TableServer, data: dict[str, Any], pace: str, seconds: float | None
) -> tuple[Table, dict[int, str]]:
    key = string_field(data, "map", MAX_MAP_KEY_CHARS)
    game_map = server.catalogue.get(key)
    if game_map is None:
        raise HTTPException(400, f"no map {key!r} on this server")
    players = text_list(data, "players", "names: 'human' or a bot")
    seed = None if data.get("seed") is None else whole_number(data, "seed", 0, MAX_SEED)
    return new_table(game_map, key, players, seed, pace, seconds)


def resumed_game(
    server: TableServer, record: Any, pace: str, seconds: float | None
) -> tuple[Table, dict[int, str]]:
    if not isinstance(record, dict):
        raise HTTPException(400, "'resume' must be a game record (a JSON object)")
    game_map = checked_record(server, record)
    return resumed_table(record, game_map, record["map"], pace, seconds)


async def create_game(server: TableServer, request: Request, grant: None) -> Response:
    data = await read_json(request, MAX_RECORD_BYTES)
    pace, seconds = table_settings(data)
    try:
        if "resume" in data:
            table, tokens = resumed_game(server, data["resume"], pace, seconds)
        else:
            table, tokens = new_game(server, data, pace, seconds)
    except TableError as problem:
        return error(400, str(problem))
    spectators = spectator_link(table)
    try:
        await server.tables.add(table)
    except RegistryFull as problem:
        return error(503, str(problem))
    seats = [
        {"seat": index, "player": seat.player, "name": seat.name, "token": tokens.get(index)}
        for index, seat in enumerate(table.seats)
    ]
    return JSONResponse(
        {"game": table.id, "seats": seats, "spectator": spectators, "fixed_deal": table.fixed_deal},
        status_code=201,
        headers=PRIVATE,
    )


ENDPOINTS = (
    Endpoint("GET", "/api/setup", setup, PUBLIC),
    Endpoint("GET", "/api/maps/{map}/board.svg", board, PUBLIC),
    Endpoint("POST", "/api/games", create_game, PUBLIC),
)
