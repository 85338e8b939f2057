"""`ttr edit` as a Starlette (ASGI) application: one opened file, one page.

    GET  /                      the page (its token rides in the link's fragment)
    GET  /static/{file}         the page's CSS and JavaScript
    GET  /api/state             the file now: board, elements, problems, history
    POST /api/edit              {"op": "add_city", ...}: one edit (see `parse_edit`)
    POST /api/undo, /api/redo   one step back or forward
    POST /api/save              write the file (409 if it changed on disk)
    POST /api/reload            read the file again (the edits stay one undo away)
    GET  /api/places?q=NAME     the gazetteer's places of that name, best first
    GET  /api/suggest?a=A&b=B   the length and colours a new route is offered
    GET  /api/path?a=A&b=B      a ticket's R2 value and a shortest path (cities)
    GET  /api/numbers?players=N the live numbers, beside the published boards'
    GET  /api/export/{what}.csv cities, routes or tickets as CSV
    POST /api/import            {"what": "cities", "csv": "..."} or {"files": [CSV, ...]}
                                (each table known by its header): rows added
    GET  /api/board.svg         the board as drawn; /api/board.png as `ttr preview` draws it
    POST /api/playtest          {"bots": [...], "players": N, "games": N}: start
    GET  /api/playtest          its progress, and its results when done
    POST /api/playtest/stop     stop it

Every `/api/` request carries the session's secret token (`X-Edit-Token`), made
when the server starts and printed in the link; the page, the requests and the
limits pass the web table's guard first (`ttr_core.serve.guard`: Host, Origin,
JSON only). A bad request gets a 4xx with {"error": "..."} and changes nothing;
only the opened file is ever written.
"""

from __future__ import annotations

import hmac
import math
import secrets
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ttr_core.edit import edits as ed
from ttr_core.edit.payloads import state_payload
from ttr_core.edit.playtest import MAX_GAMES, Playtest
from ttr_core.edit.session import ConflictError, EditSession, OpenError
from ttr_core.serve.app import (
    PAGE_HEADERS,
    PRIVATE,
    error,
    error_handlers,
    read_json,
    string_field,
)
from ttr_core.serve.guard import AllowedHosts, Guard
from ttr_maps.rules import field_ranges, route_lengths

STATIC_DIR = Path(__file__).resolve().parent / "static"
TOKEN_HEADER = "x-edit-token"
#: Largest request body: a CSV import; every other body is tiny.
MAX_IMPORT_BYTES = 1024 * 1024
MAX_BODY_BYTES = 16 * 1024
#: Most bend points of one route.
MAX_BENDS = 8


def new_token() -> str:
    return secrets.token_urlsafe(24)


def _int(data: dict[str, Any], name: str, low: int, high: int, default: int | None = None) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HTTPException(400, f"'{name}' must be a whole number from {low} to {high}")
    return value


def _bool(data: dict[str, Any], name: str) -> bool:
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise HTTPException(400, f"'{name}' must be true or false")
    return value


def _point(value: Any, name: str) -> tuple[float, float]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in value
        )
    ):
        raise HTTPException(400, f"'{name}' must be [x, y], two finite numbers")
    return (float(value[0]), float(value[1]))


def _colors(data: dict[str, Any]) -> tuple[str, ...]:
    colors = data.get("colors")
    if not isinstance(colors, list) or not all(isinstance(c, str) for c in colors):
        raise HTTPException(400, "'colors' must be a list of one or two colour names")
    return tuple(colors)


def parse_edit(data: dict[str, Any], session: EditSession) -> ed.Edit:
    """The edit a request asks for; points of the board (`at`) come in SVG units
    and are turned into the map's coordinates here (the page knows no geography)."""
    op = string_field(data, "op", 40)
    frame = session.checked.drawing.frame
    laid_out = session.checked.drawing.geometry.laid_out

    def placed(at_name: str = "at") -> tuple[tuple[float, float], tuple[float, float] | None]:
        if "place" in data:
            place = _point(data["place"], "place")
            return place, frame.board_of_position(place) if laid_out else None
        svg = _point(data.get(at_name), at_name)
        return frame.position(svg), frame.board_point(svg) if laid_out else None

    match op:
        case "add_city":
            position, board = placed()
            return ed.AddCity(string_field(data, "name", ed.MAX_NAME_CHARS), position, board)
        case "move_city":
            position, board = placed()
            return ed.MoveCity(string_field(data, "name", ed.MAX_NAME_CHARS), position, board)
        case "rename_city":
            return ed.RenameCity(
                string_field(data, "old", ed.MAX_NAME_CHARS),
                string_field(data, "new", ed.MAX_NAME_CHARS),
            )
        case "delete_city":
            return ed.DeleteCity(string_field(data, "name", ed.MAX_NAME_CHARS))
        case "add_route" | "change_route":
            length = _int(data, "length", route_lengths().minimum, route_lengths().maximum)
            colors = _colors(data)
            tunnel, ferry = _bool(data, "tunnel"), _int(data, "ferry", 0, 8, 0)
            if op == "change_route":
                return ed.ChangeRoute(_int(data, "entry", 0, 10**6), length, colors, tunnel, ferry)
            a = string_field(data, "a", ed.MAX_NAME_CHARS)
            b = string_field(data, "b", ed.MAX_NAME_CHARS)
            return ed.AddRoute(a, b, length, colors, tunnel, ferry)
        case "delete_route":
            return ed.DeleteRoute(_int(data, "entry", 0, 10**6))
        case "set_bends":
            points = data.get("points")
            if not isinstance(points, list) or len(points) > MAX_BENDS:
                raise HTTPException(400, f"'points' must be a list of at most {MAX_BENDS} [x, y]")
            board = tuple(frame.board_point(_point(p, "points")) for p in points)
            a = string_field(data, "a", ed.MAX_NAME_CHARS)
            return ed.SetBends(a, string_field(data, "b", ed.MAX_NAME_CHARS), board)
        case "add_ticket":
            a = string_field(data, "a", ed.MAX_NAME_CHARS)
            b = string_field(data, "b", ed.MAX_NAME_CHARS)
            return ed.AddTicket(a, b, ticket_value(session, a, b), _bool(data, "long"))
        case "delete_ticket":
            return ed.DeleteTicket(_int(data, "entry", 0, 10**6))
        case "fix":
            return fix_edit(session)
        case "settings":
            wagons = data.get("wagons")
            allowed = field_ranges()["wagons"]
            return ed.ChangeSettings(
                string_field(data, "name", ed.MAX_NAME_CHARS),
                string_field(data, "id", ed.MAX_NAME_CHARS),
                string_field(data, "rules", 20),
                None if wagons is None else _int(data, "wagons", allowed.minimum, allowed.maximum),
            )
    raise HTTPException(400, f"no edit {op!r}")


def ticket_value(session: EditSession, a: str, b: str) -> int:
    """R2: the shortest distance in wagons between the two cities on the map now."""
    from ttr_maps.graph import shortest_wagon_distance

    drawable = session.checked.drawable
    names = {c.name for c in drawable.cities}
    for name in (a, b):
        if name not in names:
            raise HTTPException(400, f"no city {name!r} on the board")
    value = shortest_wagon_distance(drawable, a, b) if a != b else None
    if value is None:
        raise HTTPException(
            400, f"no routes join {a} and {b} yet: a ticket's value is their distance (R2)"
        )
    return value


def fix_edit(session: EditSession) -> ed.Edit:
    from ttr_maps.analysis.fix import plan_fix_text

    plan = plan_fix_text(session.text, str(session.path))
    if plan.is_skipped:
        first = plan.blockers[0]
        raise HTTPException(
            409, f"ttr fix needs the other errors fixed first: {first.code} {first.message}"
        )
    if not plan.changes:
        raise HTTPException(409, "every ticket value is right already")
    return ed.ReplaceText(plan.fixed_text(), f"fix {len(plan.changes)} ticket values (R2)")


def create_app(
    session: EditSession,
    token: str,
    *,
    hosts: AllowedHosts | None = None,
) -> Starlette:
    """The editor of `session`'s file; `token` is the secret every API request carries."""
    runs: dict[str, Playtest] = {}

    def authorised(request: Request) -> None:
        given = request.headers.get(TOKEN_HEADER, "")
        if not given:
            raise HTTPException(401, f"missing editor token (header {TOKEN_HEADER})")
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise HTTPException(403, "wrong editor token: open the link ttr edit printed")

    def state() -> JSONResponse:
        return JSONResponse(state_payload(session), headers=PRIVATE)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "edit.html", headers=PAGE_HEADERS)

    async def get_state(request: Request) -> Response:
        authorised(request)
        return await run_in_threadpool(state)

    async def edit(request: Request) -> Response:
        authorised(request)
        data = await read_json(request, MAX_BODY_BYTES)

        def work() -> JSONResponse:
            with session.lock:
                try:
                    session.apply(parse_edit(data, session))
                except ed.EditError as problem:
                    return error(400, str(problem))
                return state()

        return await run_in_threadpool(work)

    async def step(request: Request) -> Response:
        authorised(request)
        await read_json(request, MAX_BODY_BYTES)
        forward = request.url.path.endswith("/redo")

        def work() -> JSONResponse:
            moved = session.redo() if forward else session.undo()
            if not moved:
                return error(409, f"nothing to {'redo' if forward else 'undo'}")
            return state()

        return await run_in_threadpool(work)

    async def save(request: Request) -> Response:
        authorised(request)
        await read_json(request, MAX_BODY_BYTES)

        def work() -> JSONResponse:
            try:
                session.save()
            except ConflictError as problem:
                return JSONResponse({"error": str(problem), "conflict": True}, status_code=409)
            except OSError as problem:
                from ttr_maps.io.files import describe_os_error

                return error(500, f"{session.path.name}: not saved: {describe_os_error(problem)}")
            return state()

        return await run_in_threadpool(work)

    async def reload(request: Request) -> Response:
        authorised(request)
        await read_json(request, MAX_BODY_BYTES)

        def work() -> JSONResponse:
            try:
                session.reload()
            except (OpenError, ed.EditError) as problem:
                return error(409, str(problem))
            return state()

        return await run_in_threadpool(work)

    async def places(request: Request) -> Response:
        authorised(request)
        query = request.query_params.get("q", "")
        if not query.strip() or len(query) > ed.MAX_NAME_CHARS:
            return error(400, f"'q' must be a place name of 1 to {ed.MAX_NAME_CHARS} characters")

        def work() -> JSONResponse:
            from ttr_maps.authoring.gazetteer import search_places

            cities = session.checked.drawable.cities
            near = None
            if cities and session.checked.drawable.is_geographic:
                near = (
                    sum(c.position[0] for c in cities) / len(cities),
                    sum(c.position[1] for c in cities) / len(cities),
                )
            elif session.region:
                south, west, north, east = session.region
                near = ((south + north) / 2, (west + east) / 2)
            found = search_places(query, near=near, country=session.country)
            return JSONResponse(
                {
                    "places": [
                        {
                            "name": p.name,
                            "country": p.country,
                            "lat": p.latitude,
                            "lon": p.longitude,
                            "population": p.population,
                        }
                        for p in found
                    ]
                }
            )

        return await run_in_threadpool(work)

    def two_cities(request: Request) -> tuple[str, str]:
        a, b = request.query_params.get("a", ""), request.query_params.get("b", "")
        names = {c.name for c in session.checked.drawable.cities}
        for name in (a, b):
            if name not in names:
                raise HTTPException(400, f"no city {name!r} on the board")
        if a == b:
            raise HTTPException(400, "give two different cities")
        return a, b

    async def suggest(request: Request) -> Response:
        authorised(request)
        from ttr_core.edit.board import suggest_colors, suggest_length

        def work() -> JSONResponse:
            a, b = two_cities(request)
            checked = session.checked
            return JSONResponse(
                {
                    "length": suggest_length(checked.drawing, checked.drawable, a, b),
                    "colors": list(suggest_colors(checked.drawable, 2)),
                }
            )

        return await run_in_threadpool(work)

    async def path(request: Request) -> Response:
        authorised(request)
        from ttr_maps.graph import shortest_city_path, shortest_wagon_distance

        def work() -> JSONResponse:
            a, b = two_cities(request)
            drawable = session.checked.drawable
            value = shortest_wagon_distance(drawable, a, b)
            cities = shortest_city_path(drawable, a, b) if value is not None else []
            return JSONResponse({"value": value, "cities": cities})

        return await run_in_threadpool(work)

    async def numbers(request: Request) -> Response:
        authorised(request)
        from ttr_core.edit.numbers import live_numbers

        players = request.query_params.get("players", "3")
        if not players.isdecimal() or not 2 <= int(players) <= 5:
            return error(400, "'players' must be 2 to 5")

        def work() -> JSONResponse:
            return JSONResponse(live_numbers(session.checked, int(players)))

        return await run_in_threadpool(work)

    async def export_csv(request: Request) -> Response:
        authorised(request)
        from ttr_core.edit.tables import TABLES, export_table

        what = request.path_params["what"]
        if what not in TABLES:
            return error(404, f"no table {what!r}: {', '.join(TABLES)}")
        text = await run_in_threadpool(export_table, session.checked, what)
        name = f"{session.path.stem}-{what}.csv"
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={**PRIVATE, "Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def import_csv(request: Request) -> Response:
        authorised(request)
        from ttr_core.edit.tables import TABLES, TableError, import_tables, table_of

        data = await read_json(request, MAX_IMPORT_BYTES)
        files, what = data.get("files"), None
        if files is None:
            what = string_field(data, "what", 20)
            if what not in TABLES:
                return error(400, f"'what' must be one of {', '.join(TABLES)}")
            files = [data.get("csv")]
        if not isinstance(files, list) or not 1 <= len(files) <= len(TABLES):
            return error(400, f"'files' must be a list of 1 to {len(TABLES)} CSV texts")
        if not all(isinstance(f, str) for f in files):
            return error(400, "'csv' must be the text of a CSV file")

        def work() -> JSONResponse:
            with session.lock:
                try:
                    tables = {what: files[0]} if what is not None else {}
                    for csv_text in files if what is None else ():
                        found = table_of(csv_text)
                        if found in tables:
                            raise TableError(f"two tables of {found} in one import")
                        tables[found] = csv_text
                    new, added = import_tables(
                        session.text, session.checked, tables, session.country
                    )
                    session.apply(ed.ReplaceText(new, f"import {added} rows"))
                except (TableError, ed.EditError) as problem:
                    return error(400, str(problem))
                return state()

        return await run_in_threadpool(work)

    async def board_svg(request: Request) -> Response:
        authorised(request)
        from ttr_core.edit.tables import standalone_svg

        svg = await run_in_threadpool(lambda: standalone_svg(session.checked.drawing.svg))
        return Response(svg, media_type="image/svg+xml", headers=PRIVATE)

    async def board_png(request: Request) -> Response:
        authorised(request)
        from ttr_core.edit.tables import board_picture

        png = await run_in_threadpool(board_picture, session.checked)
        return Response(png, media_type="image/png", headers=PRIVATE)

    async def start_playtest(request: Request) -> Response:
        authorised(request)
        from ttr_core.bots import bot_factories

        data = await read_json(request, MAX_BODY_BYTES)
        bots = data.get("bots")
        known = bot_factories()
        if not isinstance(bots, list) or not bots or not all(b in known for b in bots):
            return error(400, f"'bots' must be a list of bot names: {', '.join(known)}")
        players = _int(data, "players", 2, 5)
        games = _int(data, "games", 1, MAX_GAMES)
        seed = _int(data, "seed", 0, 2**31, 1)
        running = runs.get("run")
        if running is not None and running.status().state == "running":
            return error(409, "a play-test is running: stop it first")
        report = session.checked.report
        if report.map is None or report.errors:
            return error(409, "the map has errors: play-tests need a map that validates")
        run = runs["run"] = Playtest(report.map, tuple(bots), players, games, seed)
        run.start()
        return JSONResponse(run.status().payload(), status_code=202)

    async def playtest(request: Request) -> Response:
        authorised(request)
        run = runs.get("run")
        if run is None:
            return JSONResponse({"state": "none"})
        return JSONResponse(run.status().payload())

    async def stop_playtest(request: Request) -> Response:
        authorised(request)
        await read_json(request, MAX_BODY_BYTES)
        run = runs.get("run")
        if run is None:
            return error(409, "no play-test is running")
        run.stop()
        await run_in_threadpool(run.wait, 10)
        return JSONResponse(run.status().payload())

    routes = [
        Route("/", page),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        Route("/api/state", get_state),
        Route("/api/edit", edit, methods=["POST"]),
        Route("/api/undo", step, methods=["POST"]),
        Route("/api/redo", step, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Route("/api/reload", reload, methods=["POST"]),
        Route("/api/places", places),
        Route("/api/suggest", suggest),
        Route("/api/path", path),
        Route("/api/numbers", numbers),
        Route("/api/export/{what}.csv", export_csv),
        Route("/api/import", import_csv, methods=["POST"]),
        Route("/api/board.svg", board_svg),
        Route("/api/board.png", board_png),
        Route("/api/playtest", start_playtest, methods=["POST"]),
        Route("/api/playtest", playtest, methods=["GET"]),
        Route("/api/playtest/stop", stop_playtest, methods=["POST"]),
    ]
    return Starlette(
        routes=routes,
        exception_handlers=error_handlers("the editor"),
        middleware=[Middleware(Guard, hosts=hosts or AllowedHosts.for_address("127.0.0.1"))],
    )
