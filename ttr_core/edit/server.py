"""What every handler of the editor works with (`EditServer`): the opened file's
session, the secret token of this run, and the play-test started from the page."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.responses import JSONResponse

from ttr_core.edit.payloads import state_payload
from ttr_core.edit.playtest import Playtest
from ttr_core.edit.session import EditSession
from ttr_core.web.answers import PRIVATE


@dataclass
class EditServer:
    session: EditSession
    #: The secret every API request carries (`ttr_core.edit.access`).
    token: str
    #: The play-test started last from the page (one at a time), if any.
    playtest: Playtest | None = None

    def state(self) -> JSONResponse:
        """The file now, as the page shows it (`state_payload`); never cached."""
        return JSONResponse(state_payload(self.session), headers=PRIVATE)
