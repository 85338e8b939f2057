"""A play-test of the map as it is in the editor, in the background
(`ttr_core.edit.playtest`): one at a time.

    POST /api/playtest          {"bots": [...], "players": N, "games": N}: start
    GET  /api/playtest          its progress, and its results when done
    POST /api/playtest/stop     stop it
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.edit.access import EDITOR
from ttr_core.edit.playtest import MAX_GAMES, Playtest
from ttr_core.edit.server import EditServer
from ttr_core.web.answers import error
from ttr_core.web.bodies import read_json, whole_number
from ttr_core.web.routes import Endpoint
from ttr_maps.rules import BASE

#: Highest seed a play-test from the page may ask for.
MAX_SEED = 2**31
#: Seconds a stop waits for the game being played to end.
STOP_SECONDS = 10


async def start_playtest(server: EditServer, request: Request, grant: None) -> Response:
    from ttr_core.bots import bot_factories

    data = await read_json(request)
    bots = data.get("bots")
    known = bot_factories()
    if not isinstance(bots, list) or not bots or not all(b in known for b in bots):
        return error(400, f"'bots' must be a list of bot names: {', '.join(known)}")
    players = whole_number(data, "players", BASE.min_players, BASE.max_players)  # R1
    games = whole_number(data, "games", 1, MAX_GAMES)
    seed = whole_number(data, "seed", 0, MAX_SEED, 1)
    running = server.playtest
    if running is not None and running.status().state == "running":
        return error(409, "a play-test is running: stop it first")
    report = server.session.checked.report
    if report.map is None or report.errors:
        return error(409, "the map has errors: play-tests need a map that validates")
    run = server.playtest = Playtest(report.map, tuple(bots), players, games, seed)
    run.start()
    return JSONResponse(run.status().payload(), status_code=202)


async def playtest(server: EditServer, request: Request, grant: None) -> Response:
    run = server.playtest
    if run is None:
        return JSONResponse({"state": "none"})
    return JSONResponse(run.status().payload())


async def stop_playtest(server: EditServer, request: Request, grant: None) -> Response:
    await read_json(request)
    run = server.playtest
    if run is None:
        return error(409, "no play-test is running")
    run.stop()
    await run_in_threadpool(run.wait, STOP_SECONDS)
    return JSONResponse(run.status().payload())


ENDPOINTS = (
    Endpoint("POST", "/api/playtest", start_playtest, EDITOR),
    Endpoint("GET", "/api/playtest", playtest, EDITOR),
    Endpoint("POST", "/api/playtest/stop", stop_playtest, EDITOR),
)
