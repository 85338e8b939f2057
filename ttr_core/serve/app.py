"""The web table as a Starlette (ASGI) application.

    GET  /                            the page (lobby, table, replay viewer)
    GET  /static/{file}               the page's CSS and JavaScript (this package only)
    GET  /api/setup                   maps, players (human and bots), paces, timer limits
    GET  /api/maps/{map}/board.svg    the board of a map
    POST /api/games                   start a game: {"map", "players", "seed"?, "pace",
                                      "turn_seconds"?}, or continue one: {"resume": RECORD}
    GET  /api/games/{id}              my seat's table, or the public table for someone
                                      watching (?since=REVISION: 204 if unchanged)
    POST /api/games/{id}/actions      {"action": "claim Denver-Omaha with red:4"}
    POST /api/games/{id}/pace         {"pace": "fast"}
    POST /api/games/{id}/name         {"name": "Ana"}: what my seat is called
    POST /api/games/{id}/notes        {"text": "…"} (someone watching may add "name")
    GET  /api/games/{id}/why?route=ID why I cannot claim a route now (the rule)
    GET  /api/games/{id}/record       the game record, once the game is over
    POST /api/replays                 a game record in, the frames of its replay out

A seat is named by its secret token in the `X-Seat-Token` header (the page keeps it in
the link's fragment, which browsers never send to a server); so is everyone watching,
by the table's spectator token. Every answer is JSON; a bad request gets a 4xx with
{"error": "..."} and changes nothing. Requests pass `ttr_core.serve.guard` first (Host,
Origin, JSON only). The handlers run on one event loop and never wait for a bot (bots
think in `ttr_core.serve.thinkers`), so a game is never changed by two requests at
once; each change is stored (`ttr_core.serve.store`) before its answer is sent.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ttr_core.bots import bot_factories
from ttr_core.engine.actions import parse_action
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.serve.guard import AllowedHosts, Guard
from ttr_core.serve.payloads import replay_payload, spectator_payload, table_payload
from ttr_core.serve.svg import board_svg
from ttr_core.serve.tables import (
    DEFAULT_PACE,
    MAX_SEED,
    PACES,
    TURN_SECONDS_MAX,
    TURN_SECONDS_MIN,
    RegistryFull,
    Table,
    TableError,
    TableRegistry,
    new_table,
    resumed_table,
    spectator_link,
)
from ttr_core.table import HUMAN
from ttr_maps.io.limits import MAX_RECORD_DEPTH
from ttr_maps.model import Map
from ttr_maps.rules import map_rules

STATIC_DIR = Path(__file__).resolve().parent / "static"
TOKEN_HEADER = "x-seat-token"
#: Largest request body: a game record (a replay, or a game to continue); the
#: other bodies are tiny.
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_BODY_BYTES = 16 * 1024
#: Deepest nesting of a request's JSON (a record needs 4).
MAX_BODY_DEPTH = MAX_RECORD_DEPTH
#: Longest action text accepted (the longest real one is far shorter).
MAX_ACTION_CHARS = 300
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


def error_handlers(who: str) -> dict[Any, Any]:
    """Starlette's exception handlers of an app: every refusal (an HTTPException)
    and every failure answered as `{"error": …}` JSON; `who` names the app in the
    message of a 500."""

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return error(exc.status_code, exc.detail)

    async def server_error(request: Request, exc: Exception) -> Response:
        return error(500, f"internal error: {who} could not answer this request")

    return {HTTPException: http_error, 500: server_error}


async def read_json(request: Request, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The request's JSON object; 413 past `limit` bytes, 400 if not a JSON object
    (or nested deeper than `MAX_BODY_DEPTH`, with numbers too long, NaN…)."""
    from ttr_core.engine.record import RecordError, parse_json

    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > limit:
        raise HTTPException(413, f"the request body is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, f"the request body is larger than {limit} bytes")
    try:
        data = parse_json(body.decode("utf-8"), "the request body", MAX_BODY_DEPTH)
    except UnicodeDecodeError as problem:
        raise HTTPException(400, f"the request body is not UTF-8: {problem.reason}") from None
    except RecordError as problem:
        raise HTTPException(400, str(problem)) from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return data


def string_field(data: dict[str, Any], name: str, limit: int = MAX_ACTION_CHARS) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise HTTPException(400, f"'{name}' must be a text of 1 to {limit} characters")
    return value


def _settings(data: dict[str, Any]) -> tuple[str, float | None]:
    """The table settings of a request: the pace and the turn timer."""
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


def create_app(
    extra_maps: Sequence[Map] = (),
    *,
    registry: TableRegistry | None = None,
    test_hooks: bool = False,
    hosts: AllowedHosts | None = None,
    warn: Callable[[str], None] = lambda message: None,
) -> Starlette:
    """The web table. `extra_maps` are offered besides the bundled maps; `hosts`:
    the names requests may be sent to (default: the loopback names); `warn` hears
    of stored games that could not be restored. `test_hooks` adds
    `POST /api/games/{id}/fast-forward` (bots finish the game), for tests only.
    Serve it with its lifespan (uvicorn's `lifespan="on"`, a test client used as a
    context manager): the tables' drivers and stored games start there."""
    catalogue = MapCatalogue(extra_maps)
    tables = registry if registry is not None else TableRegistry()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for message in await tables.start(catalogue.get):
            warn(message)
        try:
            yield
        finally:
            await tables.stop()

    async def table_of(request: Request) -> Table:
        try:
            table = await tables.get(request.path_params["game"])
        except TableError as problem:
            raise HTTPException(409, f"this game cannot be opened: {problem}") from None
        except RegistryFull as problem:
            raise HTTPException(503, str(problem)) from None
        if table is None:
            raise HTTPException(404, "no such game (it may have been deleted)")
        return table

    async def seated(request: Request, watching: bool = False) -> tuple[Table, int | None]:
        """The table of the URL and the seat of the token (None: someone watching,
        if `watching` may be), or a clean 4xx."""
        table = await table_of(request)
        token = request.headers.get(TOKEN_HEADER)
        if not token:
            raise HTTPException(401, f"missing seat token (header {TOKEN_HEADER})")
        seat = table.seat_of(token)
        if seat is None:
            if not table.is_spectator(token):
                raise HTTPException(403, "this token holds no seat at this game")
            if not watching:
                raise HTTPException(403, "someone watching cannot do that; only the seats")
        return table, seat

    async def seat_only(request: Request) -> tuple[Table, int]:
        table, seat = await seated(request)
        assert seat is not None
        return table, seat

    def answer(table: Table, seat: int | None) -> JSONResponse:
        now = tables.clock()
        payload = spectator_payload(table, now) if seat is None else table_payload(table, seat, now)
        return JSONResponse(payload, headers=PRIVATE)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers=PAGE_HEADERS)

    async def setup(request: Request) -> Response:
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

    async def board(request: Request) -> Response:
        svg = catalogue.svg(request.path_params["map"])
        if svg is None:
            return error(404, f"no map {request.path_params['map']!r} on this server")
        return Response(svg, media_type="image/svg+xml")

    def new_game(data: dict[str, Any], pace: str, seconds: float | None) -> tuple[Table, dict]:
        key = string_field(data, "map", 200)
        game_map = catalogue.get(key)
        if game_map is None:
            raise HTTPException(400, f"no map {key!r} on this server")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise HTTPException(400, "'players' must be a list of names: 'human' or a bot")
        seed = data.get("seed")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED
        ):
            raise HTTPException(400, f"'seed' must be a whole number from 0 to {MAX_SEED}")
        return new_table(game_map, key, players, seed, pace, seconds)

    def resumed_game(record: Any, pace: str, seconds: float | None) -> tuple[Table, dict]:
        from ttr_core.engine.record import RECORD_FORMAT, RECORD_VERSION, first_schema_problem

        if not isinstance(record, dict):
            raise HTTPException(400, "'resume' must be a game record (a JSON object)")
        if record.get("format") != RECORD_FORMAT or record.get("version") != RECORD_VERSION:
            raise HTTPException(400, f"not a {RECORD_FORMAT} version {RECORD_VERSION} file")
        problem = first_schema_problem(record)
        if problem:
            raise HTTPException(400, f"not a valid game record: {problem}")
        game_map = catalogue.get(record["map"])
        if game_map is None:
            raise HTTPException(400, f"the record's map {record['map']!r} is not on this server")
        return resumed_table(record, game_map, record["map"], pace, seconds)

    async def create_game(request: Request) -> Response:
        data = await read_json(request, MAX_RECORD_BYTES)
        pace, seconds = _settings(data)
        try:
            if "resume" in data:
                table, tokens = resumed_game(data["resume"], pace, seconds)
            else:
                table, tokens = new_game(data, pace, seconds)
        except TableError as problem:
            return error(400, str(problem))
        spectators = spectator_link(table)
        try:
            await tables.add(table)
        except RegistryFull as problem:
            return error(503, str(problem))
        seats = [
            {"seat": index, "player": seat.player, "name": seat.name, "token": tokens.get(index)}
            for index, seat in enumerate(table.seats)
        ]
        return JSONResponse(
            {
                "game": table.id,
                "seats": seats,
                "spectator": spectators,
                "fixed_deal": table.fixed_deal,
            },
            status_code=201,
            headers=PRIVATE,
        )

    async def game(request: Request) -> Response:
        table, seat = await seated(request, watching=True)
        table.wake.set()  # the driver looks again (a clock may have moved)
        since = request.query_params.get("since", "")
        if since.isdecimal() and int(since) == table.revision:
            return Response(status_code=204, headers=PRIVATE)
        return answer(table, seat)

    async def act(request: Request) -> Response:
        table, seat = await seat_only(request)
        data = await read_json(request)
        text = string_field(data, "action")
        try:
            table.act(seat, parse_action(text), tables.clock())
        except InvalidAction as problem:
            return error(400, str(problem))
        except IllegalAction as problem:
            return error(409, str(problem))
        await tables.save(table)
        return answer(table, seat)

    async def set_pace(request: Request) -> Response:
        table, seat = await seat_only(request)
        data = await read_json(request)
        try:
            table.set_pace(string_field(data, "pace", 40))
        except TableError as problem:
            return error(400, str(problem))
        await tables.save_pace(table)
        return answer(table, seat)

    async def set_name(request: Request) -> Response:
        table, seat = await seat_only(request)
        data = await read_json(request)
        try:
            table.set_name(seat, data.get("name"))
        except TableError as problem:
            return error(400, str(problem))
        await tables.save_name(table, seat)
        return answer(table, seat)

    async def add_note(request: Request) -> Response:
        table, seat = await seated(request, watching=True)
        data = await read_json(request)
        try:
            table.add_note(seat, data.get("text"), data.get("name") if seat is None else None)
        except TableError as problem:
            return error(400 if "notes" not in str(problem) else 409, str(problem))
        await tables.save_note(table)
        return answer(table, seat)

    async def why(request: Request) -> Response:
        from ttr_core.table.commands import claim_refusal, why_not

        table, seat = await seat_only(request)
        state = table.state
        route = state.board.route_index.get(request.query_params.get("route", ""))
        if route is None:
            return error(400, "name a route of this map: ?route=ID")
        reason = claim_refusal(
            state.map.routes[route],
            state.view(seat),
            lambda action: why_not(state, seat, action),
        )
        return JSONResponse({"reason": reason}, headers=PRIVATE)

    async def record(request: Request) -> Response:
        from ttr_core.engine.record import dump_record, record_of

        table, _ = await seated(request, watching=True)
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
        table, seat = await seat_only(request)
        table.fast_forward()
        await tables.save(table)
        return answer(table, seat)

    routes = [
        Route("/", page),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        Route("/api/setup", setup),
        Route("/api/maps/{map}/board.svg", board),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game}", game),
        Route("/api/games/{game}/actions", act, methods=["POST"]),
        Route("/api/games/{game}/pace", set_pace, methods=["POST"]),
        Route("/api/games/{game}/name", set_name, methods=["POST"]),
        Route("/api/games/{game}/notes", add_note, methods=["POST"]),
        Route("/api/games/{game}/why", why),
        Route("/api/games/{game}/record", record),
        Route("/api/replays", replay, methods=["POST"]),
    ]
    if test_hooks:
        routes.append(Route("/api/games/{game}/fast-forward", fast_forward, methods=["POST"]))
    return Starlette(
        routes=routes,
        exception_handlers=error_handlers("the server"),
        middleware=[Middleware(Guard, hosts=hosts or AllowedHosts.for_address("127.0.0.1"))],
        lifespan=lifespan,
    )
