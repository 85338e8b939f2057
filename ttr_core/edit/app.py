"""`ttr edit` as a Starlette (ASGI) application: one opened file, one page, built
from its route groups (`ttr_core.edit.routes`) by `ttr_core.web.routes.web_app`:

    GET  /                      the page (its token rides in the link's fragment)
    GET  /static/{file}         the page's CSS and JavaScript
    GET  /api/state             the file now                                 (changes)
    POST /api/edit              {"op": "add_city", ...}: one edit            (changes)
    POST /api/undo, /api/redo   one step back or forward                     (changes)
    POST /api/save, /api/reload write the file, read it again                (files)
    GET  /api/places?q=NAME     the gazetteer's places of that name          (lookups)
    GET  /api/suggest?a=A&b=B   the length and colours a new route is offered (lookups)
    GET  /api/path?a=A&b=B      a ticket's R2 value and a shortest path      (lookups)
    GET  /api/numbers?players=N the live numbers, beside the published boards' (lookups)
    GET  /api/export/{what}.csv cities, routes or tickets as CSV             (exchange)
    POST /api/import            CSV tables in: rows added                    (exchange)
    GET  /api/board.svg, .png   the board as drawn, as `ttr preview` draws it (exchange)
    POST /api/playtest          start a play-test; GET: its progress        (playtests)
    POST /api/playtest/stop     stop it                                      (playtests)

Every `/api/` request carries the session's secret token (`X-Edit-Token`), made
when the server starts and printed in the link: the access rule of every such route
(`ttr_core.edit.access.EDITOR`) checks it before its handler runs. Requests pass
the guard first (`ttr_core.web.guard`: Host, Origin, JSON only). A bad request gets
a 4xx with {"error": "..."} and changes nothing; only the opened file is ever
written.
"""

from __future__ import annotations

from pathlib import Path

from ttr_core.edit.routes import changes, exchange, files, lookups, playtests
from ttr_core.edit.server import EditServer
from ttr_core.edit.session import EditSession
from ttr_core.web.guard import AllowedHosts
from ttr_core.web.routes import StaticFolder, WebApp, page, web_app

STATIC_DIR = Path(__file__).resolve().parent / "static"


def create_app(session: EditSession, token: str, *, hosts: AllowedHosts | None = None) -> WebApp:
    """The editor of `session`'s file; `token` is the secret every API request carries."""
    endpoints = [
        page(STATIC_DIR / "edit.html"),
        StaticFolder("/static", STATIC_DIR),
        *changes.ENDPOINTS,
        *files.ENDPOINTS,
        *lookups.ENDPOINTS,
        *exchange.ENDPOINTS,
        *playtests.ENDPOINTS,
    ]
    return web_app(EditServer(session, token), endpoints, who="the editor", hosts=hosts)
