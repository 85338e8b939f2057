"""Structural validation against `schemas/map.schema.json`, the one source of
structural truth: the loader never re-checks what the schema says.

Each schema error becomes a `Problem` at the position of the offending node. A
schema node may carry an `x-ttr-code` annotation, which gives its errors a stable
code of their own (TTR203 for a length outside 1-10, TTR204 for an unknown colour);
all other schema errors are TTR002.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from ttr_maps.checks.problem import Level, Problem
from ttr_maps.io.bundled import schema_path
from ttr_maps.io.document import DataPath, MapDocument

SCHEMA_ERROR = "TTR002"


@cache
def map_schema() -> dict[str, Any]:
    """The map JSON Schema, parsed once."""
    return json.loads(schema_path("map").read_text(encoding="utf-8"))


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_with_local_refs_inlined(map_schema()))


def _with_local_refs_inlined(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema with each `{"$ref": "#/$defs/name"}` replaced by its
    definition. It says exactly what the file says, but jsonschema no longer
    resolves a reference for every route and ticket: twice as fast on big maps.
    A recursive definition keeps its `$ref` (`$defs` stays in place for it).
    """
    definitions = schema.get("$defs", {})

    def inline(node: Any, stack: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [inline(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            name = ref.removeprefix("#/$defs/")
            if name in definitions and name not in stack:
                return inline(definitions[name], (*stack, name))
        return {key: inline(value, stack) for key, value in node.items()}

    return inline(schema, ())


@cache
def _fast_check() -> Any:
    """A yes/no check of the same schema by jsonschema-rs (compiled, many times
    faster on big maps), or None where that package is not installed."""
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - depends on the platform's wheels
        return None
    return jsonschema_rs.validator_for(map_schema()).is_valid


def _passes_fast_check(data: Any) -> bool:
    fast_check = _fast_check()
    if fast_check is None:
        return False
    try:
        return bool(fast_check(data))
    except (ValueError, TypeError):  # data JSON cannot hold (e.g. number keys)
        return False


def iter_schema_problems(document: MapDocument) -> Iterator[Problem]:
    """Yield one problem per schema error, most specific error first."""
    for _, problem in iter_schema_errors(document):
        yield problem


def iter_schema_errors(document: MapDocument) -> Iterator[tuple[DataPath, Problem]]:
    """Each schema error as (the document path it is about, its problem).

    A document the fast check accepts has no errors to explain; only a document
    with errors goes through jsonschema, which says what and where.
    """
    from jsonschema.exceptions import relevance

    if _passes_fast_check(document.data):
        return
    for error in sorted(_validator().iter_errors(document.data), key=relevance):
        yield _to_problem(document, _most_specific(error))


def _most_specific(error: Any) -> Any:
    """For oneOf/anyOf failures, the sub-error that explains the problem best."""
    from jsonschema.exceptions import best_match

    if not error.context:
        return error
    # The branch that got furthest into the instance explains it best: for a list
    # of colours, the bad colour inside it rather than "not a single colour".
    deepest = max(len(e.absolute_path) for e in error.context)
    return best_match(e for e in error.context if len(e.absolute_path) == deepest)


def _to_problem(document: MapDocument, error: Any) -> tuple[DataPath, Problem]:
    path = tuple(error.absolute_path)
    code = _code_of(error)
    on_key = error.validator in ("additionalProperties", "propertyNames")
    if "propertyNames" in error.absolute_schema_path:
        # A bad key (`~:` or `7:` under cities): the error's path is the mapping,
        # its instance the key itself; point at the key's own line.
        path, on_key = (*path, error.instance), True
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = set(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in allowed]
        if extra:
            path = (*path, extra[0])
    where = "/".join(str(p) for p in error.absolute_path) or "the document"
    problem = Problem(
        document.path,
        document.position(path, key=on_key),
        Level.ERROR,
        code,
        f"{where}: {_shortened(error)}{_hint(document, error, path)}",
    )
    return path, problem


def _hint(document: MapDocument, error: Any, path: DataPath) -> str:
    """What the designer probably meant: a close key or colour, swapped coordinates."""
    from ttr_maps.spelling import did_you_mean

    schema = error.schema if isinstance(error.schema, dict) else {}
    if error.validator == "additionalProperties" and path:
        return did_you_mean(path[-1], schema.get("properties", {}))
    if error.validator == "enum":
        return did_you_mean(error.instance, [str(v) for v in schema.get("enum", [])])
    if path[:1] == ("cities",) and path[-1:] in (("lat",), ("lon",)):
        return _swapped_hint(document.data, path[:-1])
    return ""


def _swapped_hint(data: Any, city_path: DataPath) -> str:
    """A hint when a city's lat and lon are valid the other way round."""
    city: Any = data
    for key in city_path:
        city = city.get(key) if isinstance(city, dict) else None
    if not isinstance(city, dict):
        return ""
    lat, lon = city.get("lat"), city.get("lon")
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (lat, lon))
    if numbers and abs(lon) <= 90 and abs(lat) <= 180:
        return f"; latitude and longitude look swapped: did you mean lat: {lon}, lon: {lat}?"
    return ""


def _shortened(error: Any) -> str:
    """The error's message with the offending value cut to a glimpse: a whole
    file read as one string (`--map /etc/passwd`) must not be printed back."""
    import reprlib

    full = repr(error.instance)
    if len(full) <= 80:
        return str(error.message)
    glimpse = reprlib.Repr()  # Python 3.11 takes no keyword arguments here
    glimpse.maxlevel, glimpse.maxdict, glimpse.maxlist = 2, 3, 3
    glimpse.maxstring = glimpse.maxother = 40
    return str(error.message).replace(full, glimpse.repr(error.instance))


def _code_of(error: Any) -> str:
    schema = error.schema if isinstance(error.schema, dict) else {}
    if "x-ttr-code" in schema:
        return str(schema["x-ttr-code"])
    # An enum or type error inside a $ref'd definition: look one level up too.
    parent = getattr(error, "parent", None)
    if parent is not None and isinstance(parent.schema, dict) and "x-ttr-code" in parent.schema:
        return str(parent.schema["x-ttr-code"])
    return SCHEMA_ERROR
