"""What every answer of the web apps shares: a refusal or a failure is JSON
(`{"error": "…"}`) with its status, never an HTML page or a traceback; the page
itself is served with a strict content policy; an answer holding anything private
(a seat's hand, the opened file) is never kept by a cache.

>>> error(409, "nothing to undo").body
b'{"error":"nothing to undo"}'
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

#: A page runs only its own script and style sheet (text from maps is never markup).
PAGE_HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
#: Answers that hold a seat's hand or the opened file: never stored by a cache.
PRIVATE = {"Cache-Control": "no-store"}


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
