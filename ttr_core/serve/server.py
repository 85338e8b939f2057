"""What every handler of the web table works with (`TableServer`): the maps on
offer, the tables, and the one way a table's state is answered to a seat or to
someone watching."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

from ttr_core.serve.catalogue import MapCatalogue
from ttr_core.serve.payloads import spectator_payload, table_payload
from ttr_core.serve.tables import RegistryFull, Table, TableError, TableRegistry
from ttr_core.web.answers import PRIVATE


@dataclass(frozen=True)
class TableServer:
    catalogue: MapCatalogue
    tables: TableRegistry

    async def table(self, table_id: str) -> Table:
        """The table of that id (from memory or the store), or a clean 404, 409
        (stored, but it cannot be opened) or 503 (no room to open it)."""
        try:
            table = await self.tables.get(table_id)
        except TableError as problem:
            raise HTTPException(409, f"this game cannot be opened: {problem}") from None
        except RegistryFull as problem:
            raise HTTPException(503, str(problem)) from None
        if table is None:
            raise HTTPException(404, "no such game (it may have been deleted)")
        return table

    def answer(self, table: Table, seat: int | None) -> JSONResponse:
        """The table as `seat` sees it (None: someone watching); never cached."""
        now = self.tables.clock()
        payload = spectator_payload(table, now) if seat is None else table_payload(table, seat, now)
        return JSONResponse(payload, headers=PRIVATE)
