"""What the page asks while a designer draws: places by name, a new route's
length and colours, a ticket's shortest path, the live numbers. Nothing changes.

    GET  /api/places?q=NAME     the gazetteer's places of that name, best first
                                (none of that name: those whose names start so)
    GET  /api/suggest?a=A&b=B   the length and colour a new route is offered
                                (&first=COLOR: a double route's second track's)
    GET  /api/path?a=A&b=B      a ticket's R2 value and a shortest path (cities)
    GET  /api/numbers?players=N the live numbers, beside the published boards'
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ttr_core.edit.access import EDITOR
from ttr_core.edit.server import EditServer
from ttr_core.edit.session import EditSession
from ttr_core.web.answers import error
from ttr_core.web.routes import Endpoint
from ttr_maps.io.limits import MAX_CITY_NAME_CHARS
from ttr_maps.rules import BASE


def _near(session: EditSession) -> tuple[float, float] | None:
    """Where names are looked up first: the middle of the map's cities, else of
    the region the new map is drawn in."""
    cities = session.checked.drawable.cities
    if cities and session.checked.drawable.is_geographic:
        return (
            sum(c.position[0] for c in cities) / len(cities),
            sum(c.position[1] for c in cities) / len(cities),
        )
    if session.region:
        south, west, north, east = session.region
        return ((south + north) / 2, (west + east) / 2)
    return None


def _search(query: str, session: EditSession) -> list[Any]:
    """The places `query` may mean, best first: near the map's cities (the one
    `look_up_places` settles first, when it settles one), else `search_places`'."""
    from ttr_maps.authoring.gazetteer import look_up_places, search_places

    found = search_places(query, near=_near(session), country=session.country)
    drawable = session.checked.drawable
    if drawable.is_geographic and drawable.cities:
        towns = {c.name: c.position for c in drawable.cities}
        (lookup,) = look_up_places([(query, None)], country=session.country, towns=towns)
        if lookup.place is not None:
            found = [lookup.place, *(p for p in found if p != lookup.place)]
    return found


def _place(place: Any) -> dict[str, Any]:
    return {
        "name": place.name,
        "country": place.country,
        "lat": place.latitude,
        "lon": place.longitude,
        "population": place.population,
    }


async def places(server: EditServer, request: Request, grant: None) -> Response:
    query = request.query_params.get("q", "")
    if not query.strip() or len(query) > MAX_CITY_NAME_CHARS:
        return error(400, f"'q' must be a place name of 1 to {MAX_CITY_NAME_CHARS} characters")
    session = server.session

    def work() -> JSONResponse:
        from ttr_maps.authoring.gazetteer import (
            GazetteerMissing,
            board_name,
            far_km,
            is_place_name,
            where,
        )

        try:
            found = _search(query, session)
            named = is_place_name(query)
        except GazetteerMissing as missing:
            return error(503, str(missing))
        drawable = session.checked.drawable
        towns = {c.name: c.position for c in drawable.cities} if drawable.is_geographic else {}
        points = list(towns.values())
        return JSONResponse(
            {
                # False: no place is called so; the places are those whose names start so.
                "named": named,
                "places": [
                    {
                        **_place(p),
                        "board_name": board_name(query, p),
                        "where": where(p, towns or None),
                        "far_km": far_km((p.latitude, p.longitude), points),
                    }
                    for p in found
                ],
            }
        )

    return await run_in_threadpool(work)


def two_cities(session: EditSession, request: Request) -> tuple[str, str]:
    """The two different cities `?a=A&b=B` of the board, or a clean 400."""
    a, b = request.query_params.get("a", ""), request.query_params.get("b", "")
    names = {c.name for c in session.checked.drawable.cities}
    for name in (a, b):
        if name not in names:
            raise HTTPException(400, f"no city {name!r} on the board")
    if a == b:
        raise HTTPException(400, "give two different cities")
    return a, b


async def suggest(server: EditServer, request: Request, grant: None) -> Response:
    from ttr_core.edit.drawing import suggest_colors, suggest_length
    from ttr_maps.model import ROUTE_COLORS

    first = request.query_params.get("first")
    if first is not None and first not in ROUTE_COLORS:
        return error(400, f"'first' must be a route colour: {', '.join(ROUTE_COLORS)}")

    def work() -> JSONResponse:
        a, b = two_cities(server.session, request)
        checked = server.session.checked
        length = suggest_length(checked.drawing, checked.drawable, a, b)
        answer = {"length": length, "colors": list(suggest_colors(checked.drawable, 1, length))}
        if first is not None:  # a double route's second track, after its first
            answer["second"] = suggest_colors(checked.drawable, 2, length, first)[1]
        return JSONResponse(answer)

    return await run_in_threadpool(work)


async def path(server: EditServer, request: Request, grant: None) -> Response:
    from ttr_maps.graph import shortest_city_path, shortest_wagon_distance

    def work() -> JSONResponse:
        a, b = two_cities(server.session, request)
        drawable = server.session.checked.drawable
        value = shortest_wagon_distance(drawable, a, b)
        cities = shortest_city_path(drawable, a, b) if value is not None else []
        return JSONResponse({"value": value, "cities": cities})

    return await run_in_threadpool(work)


async def numbers(server: EditServer, request: Request, grant: None) -> Response:
    from ttr_core.edit.numbers import live_numbers

    players = request.query_params.get("players", "3")
    low, high = BASE.min_players, BASE.max_players  # R1
    if not (players.isascii() and players.isdigit() and len(players) <= 2) or not (
        low <= int(players) <= high
    ):
        return error(400, f"'players' must be {low} to {high}")

    def work() -> JSONResponse:
        return JSONResponse(live_numbers(server.session.checked, int(players)))

    return await run_in_threadpool(work)


ENDPOINTS = (
    Endpoint("GET", "/api/places", places, EDITOR),
    Endpoint("GET", "/api/suggest", suggest, EDITOR),
    Endpoint("GET", "/api/path", path, EDITOR),
    Endpoint("GET", "/api/numbers", numbers, EDITOR),
)
