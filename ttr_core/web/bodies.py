"""A request's JSON body, read within limits, and its fields, each checked with a
400 that names the field and what it must be. A bad body changes nothing: it is
refused before any handler acts on it.

>>> whole_number({"players": 3}, "players", 2, 5)
3
>>> whole_number({"players": True}, "players", 2, 5)
Traceback (most recent call last):
...
starlette.exceptions.HTTPException: 400: 'players' must be a whole number from 2 to 5
"""

from __future__ import annotations

import math
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request

from ttr_maps.io.limits import MAX_RECORD_DEPTH

#: Largest body of an ordinary request (a move, an edit); a route that takes more
#: (a game record, a CSV import) says so.
MAX_BODY_BYTES = 16 * 1024
#: Deepest nesting of a request's JSON (a game record needs 4).
MAX_BODY_DEPTH = MAX_RECORD_DEPTH
#: Longest text field unless a route says otherwise (the longest real action is
#: far shorter).
MAX_TEXT_CHARS = 300


async def read_json(request: Request, limit: int = MAX_BODY_BYTES) -> dict[str, Any]:
    """The request's JSON object; 413 past `limit` bytes (declared or sent), 400 if
    not a JSON object (or nested deeper than `MAX_BODY_DEPTH`, with numbers too
    long, NaN…)."""
    from ttr_core.engine.record import RecordError, parse_json

    declared = request.headers.get("content-length", "")
    if declared.isdecimal() and int(declared) > limit:
        raise HTTPException(413, f"the request body is larger than {limit} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise HTTPException(413, f"the request body is larger than {limit} bytes")
    try:
        data = parse_json(body.decode("utf-8"), "the request body", MAX_BODY_DEPTH)
    except UnicodeDecodeError as problem:
        raise HTTPException(400, f"the request body is not UTF-8: {problem.reason}") from None
    except RecordError as problem:
        raise HTTPException(400, str(problem)) from None
    if not isinstance(data, dict):
        raise HTTPException(400, "the request body must be a JSON object")
    return data


def string_field(data: dict[str, Any], name: str, limit: int = MAX_TEXT_CHARS) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise HTTPException(400, f"'{name}' must be a text of 1 to {limit} characters")
    return value


def whole_number(
    data: dict[str, Any], name: str, low: int, high: int, default: int | None = None
) -> int:
    """The field `name`, a whole number from `low` to `high` (`default` if absent;
    true and false are not numbers)."""
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise HTTPException(400, f"'{name}' must be a whole number from {low} to {high}")
    return value


def flag(data: dict[str, Any], name: str) -> bool:
    """The field `name`, true or false (false if absent)."""
    value = data.get(name, False)
    if not isinstance(value, bool):
        raise HTTPException(400, f"'{name}' must be true or false")
    return value


def point(value: Any, name: str) -> tuple[float, float]:
    """`value` as a point: `[x, y]`, two finite numbers."""
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


def text_list(data: dict[str, Any], name: str, what: str) -> list[str]:
    """The field `name`, a list of texts (`what` says which, in the message)."""
    value = data.get(name)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise HTTPException(400, f"'{name}' must be a list of {what}")
    return value
