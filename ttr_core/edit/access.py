"""Who may use the editor: whoever holds the secret token made when `ttr edit`
started (printed in the link's fragment, which browsers never send to a server;
the page sends it in the `X-Edit-Token` header). Every `/api/` route is admitted
by `EDITOR`; only the page and its static files are public.

>>> len(new_token()) >= 32
True
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette.requests import Request

from ttr_core.edit.server import EditServer

TOKEN_HEADER = "x-edit-token"


def new_token() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class EditorToken:
    """The request carries this run's token (compared in constant time): none is a
    401, another a 403."""

    name: str = "editor token"

    async def admit(self, server: EditServer, request: Request) -> None:
        given = request.headers.get(TOKEN_HEADER, "")
        if not given:
            raise HTTPException(401, f"missing editor token (header {TOKEN_HEADER})")
        if not hmac.compare_digest(given.encode(), server.token.encode()):
            raise HTTPException(403, "wrong editor token: open the link ttr edit printed")


EDITOR = EditorToken()
