"""The web table as a Starlette (ASGI) application.

    GET  /                            the page (lobby, table, replay viewer)
    GET  /static/{file}               the page's CSS and JavaScript (this package only)
    GET  /api/setup                   maps, players (human and bots), paces
    GET  /api/maps/{map}/board.svg    the board of a map
    POST /api/games                   start a game: {"map", "players", "seed", "pace"}
    GET  /api/games/{id}              my seat's table (?since=REVISION: 204 if unchanged)
    POST /api/games/{id}/actions      {"action": "claim Denver-Omaha with red:4"}
    POST /api/games/{id}/pace         {"pace": "fast"}
    GET  /api/games/{id}/record       the game record, once the game is over
    POST /api/replays                 a game record in, the frames of its replay out

A seat is named by its secret token in the `X-Seat-Token` header (the page keeps it in
the link's fragment, which browsers never send to a server). Every answer is JSON; a
bad request gets a 4xx with {"error": "..."} and changes nothing. The handlers are
`async` and call the engine directly: one event loop runs one action at a time, so a
game is never changed by two requests at once and needs no lock.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ttr_core.bots import bot_factories
from ttr_core.engine.actions import parse_action
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.serve.payloads import replay_payload, table_payload
from ttr_core.serve.svg import board_svg
from ttr_core.serve.tables import (
    DEFAULT_PACE,
    PACES,
    RegistryFull,
    Table,
    TableError,
    TableRegistry,
)
from ttr_core.table import HUMAN
from ttr_maps.model import Map

STATIC_DIR = Path(__file__).resolve().parent / "static"
TOKEN_HEADER = "x-seat-token"
#: Largest request body: a game record for the replay viewer; everything else is tiny.
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_BODY_BYTES = 16 * 1024
#: Longest action text accepted (the longest real one is far shorter).
MAX_ACTION_CHARS = 300
MAX_SEED = 2**63 - 1
#: The page runs only its own script and style sheet (text from maps is never markup).
PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
#: A seat's answers hold its hand and tickets: never stored by a cache.
PRIVATE = {"Cache-Control": "no-store"}


class MapCatalogue:
    """The maps a server offers: the bundled ones (loaded on first use, and kept by
    `load_map`'s own cache) and the files it was started with, as they were read
    then (a file wins over a bundled map of the same id)."""

    def __init__(self, extra_maps: Sequence[Map] = ()) -> None:
        from ttr_maps.io.bundled import bundled_map_ids

        self._files = {game_map.id: game_map for game_map in extra_maps}
        self._keys = sorted({*bundled_map_ids(), *self._files})
        self._svg: dict[str, str] = {}

    def ordered_keys(self) -> list[str]:
        """Map files first (what a designer came to test), then the bundled maps."""
        return sorted(self._keys, key=lambda key: (key not in self._files, key))

    def get(self, key: str) -> Map | None:
        if key not in self._keys:
            return None
        if key in self._files:
            return self._files[key]
        from ttr_maps.load import load_map

        return load_map(key)

    def is_file(self, key: str) -> bool:
        return key in self._files

    def svg(self, key: str) -> str | None:
        game_map = self.get(key)
        if game_map is None:
            return None
        if key not in self._svg:
            self._svg[key] = board_svg(game_map)
        return self._svg[key]


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The request's JSON object; 413 past `limit` bytes, 400 if not a JSON object."""
    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > limit:
        raise HTTPException(413, f"the request body is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, f"the request body is larger than {limit} bytes")
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as problem:
        raise HTTPException(400, f"the request body is not JSON: {problem}") from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return data


def string_field(data: dict[str, Any], name: str, limit: int = MAX_ACTION_CHARS) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise HTTPException(400, f"'{name}' must be a text of 1 to {limit} characters")
    return value


def create_app(
    extra_maps: Sequence[Map] = (),
    *,
    registry: TableRegistry | None = None,
    test_hooks: bool = False,
) -> Starlette:
    """The web table. `extra_maps` are offered besides the bundled maps; `test_hooks`
    adds `POST /api/games/{id}/fast-forward` (bots finish the game), for tests only."""
    catalogue = MapCatalogue(extra_maps)
    tables = registry if registry is not None else TableRegistry()

    def seated(request: Request) -> tuple[Table, int]:
        """The table of the URL and the seat of the token, or a clean 4xx."""
        table = tables.get(request.path_params["game"])
        if table is None:
            raise HTTPException(404, "no such game (it may have expired)")
        token = request.headers.get(TOKEN_HEADER)
        if not token:
            raise HTTPException(401, f"missing seat token (header {TOKEN_HEADER})")
        seat = table.seat_of(token)
        if seat is None:
            raise HTTPException(403, "this token holds no seat at this game")
        return table, seat

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers=PAGE_HEADERS)

    async def setup(request: Request) -> Response:
        maps = []
        for key in catalogue.ordered_keys():
            game_map = catalogue.get(key)
            assert game_map is not None
            maps.append(
                {
                    "key": key,
                    "name": game_map.name,
                    "rules": game_map.rules,
                    "file": catalogue.is_file(key),
                }
            )
        return JSONResponse(
            {
                "maps": maps,
                "players": [HUMAN, *bot_factories()],
                "paces": list(PACES),
                "default_pace": DEFAULT_PACE,
            }
        )

    async def board(request: Request) -> Response:
        svg = catalogue.svg(request.path_params["map"])
        if svg is None:
            return error(404, f"no map {request.path_params['map']!r} on this server")
        return Response(svg, media_type="image/svg+xml")

    async def create_game(request: Request) -> Response:
        data = await read_json(request)
        key = string_field(data, "map", 200)
        game_map = catalogue.get(key)
        if game_map is None:
            return error(400, f"no map {key!r} on this server")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            return error(400, "'players' must be a list of names: 'human' or a bot")
        seed = data.get("seed")
        if seed is None:
            seed = secrets.randbelow(10**9)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            return error(400, f"'seed' must be a whole number from 0 to {MAX_SEED}")
        pace = data.get("pace", DEFAULT_PACE)
        if not isinstance(pace, str):
            return error(400, "'pace' must be a text")
        try:
            table = tables.create(game_map, key, players, seed, pace)
        except TableError as problem:
            return error(400, str(problem))
        except RegistryFull as problem:
            return error(503, str(problem))
        seats = [
            {"seat": index, "player": seat.player, "token": seat.token}
            for index, seat in enumerate(table.seats)
        ]
        return JSONResponse({"game": table.id, "seed": seed, "seats": seats}, status_code=201)

    async def game(request: Request) -> Response:
        table, seat = seated(request)
        table.advance_bots(tables.clock())
        since = request.query_params.get("since", "")
        if since.isdecimal() and int(since) == table.revision:
            return Response(status_code=204, headers=PRIVATE)
        return JSONResponse(table_payload(table, seat), headers=PRIVATE)

    async def act(request: Request) -> Response:
        table, seat = seated(request)
        data = await read_json(request)
        text = string_field(data, "action")
        try:
            table.act(seat, parse_action(text), tables.clock())
        except InvalidAction as problem:
            return error(400, str(problem))
        except IllegalAction as problem:
            return error(409, str(problem))
        return JSONResponse(table_payload(table, seat), headers=PRIVATE)

    async def set_pace(request: Request) -> Response:
        table, seat = seated(request)
        data = await read_json(request)
        try:
            table.set_pace(string_field(data, "pace", 40))
        except TableError as problem:
            return error(400, str(problem))
        return JSONResponse(table_payload(table, seat), headers=PRIVATE)

    async def record(request: Request) -> Response:
        from ttr_core.engine.record import dump_record, record_of

        table, _ = seated(request)
        state = table.state
        if not state.is_over:
            # The record holds the seed and so every hidden card (R5): only at the end.
            return error(409, "the record is ready when the game is over")
        name = f"ttr-{table.map_key}-seed{state.seed}.json"
        return Response(
            dump_record(record_of(state, table.players)),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"', **PRIVATE},
        )

    async def replay(request: Request) -> Response:
        from ttr_core.engine.record import (
            RECORD_FORMAT,
            RECORD_VERSION,
            RecordError,
            first_schema_problem,
        )

        data = await read_json(request, MAX_RECORD_BYTES)
        if data.get("format") != RECORD_FORMAT or data.get("version") != RECORD_VERSION:
            return error(400, f"not a {RECORD_FORMAT} version {RECORD_VERSION} file")
        problem = first_schema_problem(data)
        if problem:
            return error(400, f"not a valid game record: {problem}")
        game_map = catalogue.get(data["map"])
        if game_map is None:
            return error(400, f"the record's map {data['map']!r} is not on this server")
        try:
            payload = replay_payload(data, game_map)
        except RecordError as problem:
            return error(400, str(problem))
        return JSONResponse(payload)

    async def fast_forward(request: Request) -> Response:
        table, seat = seated(request)
        table.fast_forward()
        return JSONResponse(table_payload(table, seat), headers=PRIVATE)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(exc.status_code, exc.detail)

    async def server_error(request: Request, exc: Exception) -> Response:
        return error(500, "internal error: the server could not answer this request")

    routes = [
        Route("/", page),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        Route("/api/setup", setup),
        Route("/api/maps/{map}/board.svg", board),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game}", game),
        Route("/api/games/{game}/actions", act, methods=["POST"]),
        Route("/api/games/{game}/pace", set_pace, methods=["POST"]),
        Route("/api/games/{game}/record", record),
        Route("/api/replays", replay, methods=["POST"]),
    ]
    if test_hooks:
        routes.append(Route("/api/games/{game}/fast-forward", fast_forward, methods=["POST"]))
    return Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, 500: server_error},
    )
