"""The web table as a Starlette (ASGI) application, built from its route groups
(`ttr_core.serve.routes`) by `ttr_core.web.routes.web_app`:

    GET  /                            the page (lobby, table, replay viewer)
    GET  /static/{file}               the page's CSS and JavaScript (this package only)
    GET  /api/setup                   maps, players, paces, timer limits     (lobby)
    GET  /api/maps/{map}/board.svg    the board of a map                      (lobby)
    POST /api/games                   start or continue a game                (lobby)
    GET  /api/games/{id}              the table as my seat sees it            (seats)
    POST /api/games/{id}/actions      a move                                  (seats)
    POST /api/games/{id}/pace, /name  the bots' pace, my seat's name          (seats)
    GET  /api/games/{id}/why?route=ID why I cannot claim a route now          (seats)
    POST /api/games/{id}/notes        a note                                  (notes)
    GET  /api/games/{id}/record       the game record, once the game is over  (records)
    POST /api/replays                 a game record in, its replay out        (records)

Every route has its access rule (`ttr_core.serve.access`: public, a seat's token,
or a seat's or the spectators' token), checked before its handler runs. Every
answer is JSON; a bad request gets a 4xx with {"error": "..."} and changes nothing.
Requests pass `ttr_core.web.guard` first (Host, Origin, JSON only). The handlers
run on one event loop and never wait for a bot (bots think in
`ttr_core.serve.thinkers`), so a game is never changed by two requests at once;
each change is stored (`ttr_core.serve.store`) before its answer is sent.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

from starlette.applications import Starlette

from ttr_core.serve.catalogue import MapCatalogue
from ttr_core.serve.routes import lobby, notes, records, seats
from ttr_core.serve.server import TableServer
from ttr_core.serve.tables import TableRegistry
from ttr_core.web.guard import AllowedHosts
from ttr_core.web.routes import StaticFolder, WebApp, page, web_app
from ttr_maps.model import Map

STATIC_DIR = Path(__file__).resolve().parent / "static"


def create_app(
    extra_maps: Sequence[Map] = (),
    *,
    registry: TableRegistry | None = None,
    test_hooks: bool = False,
    hosts: AllowedHosts | None = None,
    warn: Callable[[str], None] = lambda message: None,
) -> WebApp:
    """The web table. `extra_maps` are offered besides the bundled maps; `hosts`:
    the names requests may be sent to (default: the loopback names); `warn` hears
    of stored games that could not be restored. `test_hooks` adds
    `POST /api/games/{id}/fast-forward` (bots finish the game), for tests only.
    Serve it with its lifespan (uvicorn's `lifespan="on"`, a test client used as a
    context manager): the tables' drivers and stored games start there."""
    tables = registry if registry is not None else TableRegistry()
    server = TableServer(MapCatalogue(extra_maps), tables)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for message in await server.tables.start(server.catalogue.get):
            warn(message)
        try:
            yield
        finally:
            await server.tables.stop()

    endpoints = [
        page(STATIC_DIR / "index.html"),
        StaticFolder("/static", STATIC_DIR),
        *lobby.ENDPOINTS,
        *seats.ENDPOINTS,
        *notes.ENDPOINTS,
        *records.ENDPOINTS,
    ]
    if test_hooks:
        endpoints.append(seats.FAST_FORWARD)
    return web_app(server, endpoints, who="the server", hosts=hosts, lifespan=lifespan)
