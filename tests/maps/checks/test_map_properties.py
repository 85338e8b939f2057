"""Property tests (hypothesis): random valid maps validate clean of errors, and
random mutations of them never crash the validator."""

from __future__ import annotations

import heapq
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_maps.checks.validate import validate_document
from ttr_maps.io.document import DocumentError, parse_document
from ttr_maps.model import ROUTE_COLORS

NAMES = [f"City {i}" for i in range(12)]


def _shortest(routes: list[dict[str, Any]], a: str, b: str) -> int:
    adjacency: dict[str, dict[str, int]] = {}
    for r in routes:
        x, y = r["between"]
        adjacency.setdefault(x, {})[y] = adjacency.setdefault(y, {})[x] = r["length"]
    best, queue = {a: 0}, [(0, a)]
    while queue:
        d, city = heapq.heappop(queue)
        if city == b:
            return d
        for n, length in adjacency[city].items():
            if d + length < best.get(n, 10**9):
                best[n] = d + length
                heapq.heappush(queue, (d + length, n))
    raise AssertionError("generated maps are connected")


@st.composite
def valid_maps(draw: st.DrawFn) -> dict[str, Any]:
    """Connected plane maps: a random spanning tree plus a few extra routes, with
    tickets whose values are the true shortest distances (R2)."""
    count = draw(st.integers(2, len(NAMES)))
    names = NAMES[:count]
    coordinate = st.integers(-1000, 1000)
    cities = {n: {"x": draw(coordinate), "y": draw(coordinate)} for n in names}
    pairs: set[frozenset[str]] = set()
    for i in range(1, count):
        pairs.add(frozenset((names[i], names[draw(st.integers(0, i - 1))])))
    for _ in range(draw(st.integers(0, count))):
        a, b = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        if a != b:
            pairs.add(frozenset((a, b)))
    routes = []
    for pair in sorted(pairs, key=sorted):
        a, b = sorted(pair)
        double = draw(st.booleans())
        colors = draw(st.lists(st.sampled_from(ROUTE_COLORS), min_size=2, max_size=2))
        if double and (colors[0] != colors[1] or colors[0] == "gray"):
            color: Any = colors
        else:
            color = colors[0]
        routes.append({"between": [a, b], "length": draw(st.integers(1, 8)), "color": color})
    tickets, seen = [], set()
    for _ in range(draw(st.integers(0, 6))):
        a, b = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        if a != b and frozenset((a, b)) not in seen:
            seen.add(frozenset((a, b)))
            tickets.append({"between": [a, b], "value": _shortest(routes, a, b)})
    return {
        "format": 1,
        "id": "random",
        "name": "Random",
        "coordinates": "plane",
        "cities": cities,
        "routes": routes,
        "tickets": tickets,
    }


def _validate(data: Any):
    """Validate `data` as a file, the way `ttr validate` reads one (limits included)."""
    import tempfile

    from ttr_maps.checks.validate import validate_file

    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "random.yaml"
        path.write_text(text, encoding="utf-8")
        return validate_file(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_maps())
def test_r2_random_valid_maps_have_no_errors(data: dict[str, Any]) -> None:
    report = _validate(data)
    assert report.errors == []
    assert report.map is not None


ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(NAMES),
    st.lists(st.sampled_from([*NAMES, "Nowhere"]), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@st.composite
def mutated_maps(draw: st.DrawFn) -> Any:
    data = draw(valid_maps())
    for _ in range(draw(st.integers(1, 4))):
        section = draw(st.sampled_from(["cities", "routes", "tickets", "root"]))
        if section == "root":
            key = draw(st.sampled_from([*data, "extra"]))
            data[key] = draw(ODD_VALUES)
            continue
        items = data.get(section)
        if isinstance(items, list) and items:
            item = items[draw(st.integers(0, len(items) - 1))]
            if isinstance(item, dict):
                key = draw(st.sampled_from(["between", "length", "color", "value", "ferry"]))
                item[key] = draw(ODD_VALUES)
        elif isinstance(items, dict) and items:
            name = draw(st.sampled_from(sorted(items)))
            if draw(st.booleans()):
                items[name] = draw(ODD_VALUES)
            else:
                items[draw(st.sampled_from([*NAMES, "New"]))] = items.pop(name)
    return data


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_maps())
def test_mutated_maps_never_crash_the_validator(data: Any) -> None:
    report = _validate(data)
    for problem in report.problems:
        assert problem.code.startswith("TTR") and problem.position.line >= 1
    # Loading runs the error checks alone and must find the very same errors.
    errors_only = validate_document(report.document, errors_only=True) if report.document else None
    if errors_only is not None:
        assert errors_only.problems == report.errors


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_document_error_or_a_report(text: str) -> None:
    try:
        document = parse_document(text, "noise.yaml")
    except DocumentError as error:
        assert error.message
        return
    report = validate_document(document)
    assert report.map is not None or report.problems


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(valid_maps(), mutated_maps()))
def test_fast_schema_check_agrees_with_jsonschema(data: Any) -> None:
    """The compiled yes/no check only skips jsonschema when it would find nothing."""
    from jsonschema import Draft202012Validator

    from ttr_maps.checks.schema import _fast_check, _passes_fast_check, map_schema

    if _fast_check() is None:
        pytest.skip("jsonschema-rs is not installed")
    errors = list(Draft202012Validator(map_schema()).iter_errors(data))
    if _passes_fast_check(data):
        assert not errors
    elif not errors:  # the fast check may only refuse what JSON cannot hold
        assert any(not isinstance(k, str) for k in _all_keys(data))


def _all_keys(data: Any) -> list[Any]:
    if isinstance(data, dict):
        return [*data, *(k for v in data.values() for k in _all_keys(v))]
    if isinstance(data, list):
        return [k for v in data for k in _all_keys(v)]
    return []
