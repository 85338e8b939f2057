"""Who may ask what of a game: the access rules of the web table's routes
(`ttr_core.web.routes`).

A seat is named by its secret token in the `X-Seat-Token` header (the page keeps
it in the link's fragment, which browsers never send to a server); so is everyone
watching, by the table's spectator token. A rule finds the table of the URL first
(404 for no such game), then the token: none is a 401, one that opens nothing at
this table a 403. What it admits is the handler's grant: the table and the seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.requests import Request

from ttr_core.serve.server import TableServer
from ttr_core.serve.tables import Table

TOKEN_HEADER = "x-seat-token"


@dataclass(frozen=True)
class Seated:
    """A request from a seat of `table`."""

    table: Table
    seat: int


@dataclass(frozen=True)
class AtTable:
    """A request from a seat of `table`, or (`seat` None) from someone watching."""

    table: Table
    seat: int | None


async def _token_holder(server: TableServer, request: Request) -> AtTable:
    table = await server.table(request.path_params["game"])
    token = request.headers.get(TOKEN_HEADER)
    if not token:
        raise HTTPException(401, f"missing seat token (header {TOKEN_HEADER})")
    seat = table.seat_of(token)
    if seat is None and not table.is_spectator(token):
        raise HTTPException(403, "this token holds no seat at this game")
    return AtTable(table, seat)


@dataclass(frozen=True)
class SeatToken:
    """Only a seat of the game: someone watching is refused (403)."""

    name: str = "seat token"

    async def admit(self, server: TableServer, request: Request) -> Seated:
        found = await _token_holder(server, request)
        if found.seat is None:
            raise HTTPException(403, "someone watching cannot do that; only the seats")
        return Seated(found.table, found.seat)


@dataclass(frozen=True)
class SeatOrSpectatorToken:
    """A seat of the game, or someone watching it (the spectators' token)."""

    name: str = "seat or spectator token"

    async def admit(self, server: TableServer, request: Request) -> AtTable:
        return await _token_holder(server, request)


SEAT = SeatToken()
SEAT_OR_WATCHING = SeatOrSpectatorToken()
