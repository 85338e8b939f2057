"""The JSON Schema: the single source of structural truth."""

from __future__ import annotations

from jsonschema import Draft202012Validator

from ttr_maps.checks.schema import _with_local_refs_inlined, iter_schema_problems, map_schema
from ttr_maps.io.document import parse_document

MAP = """\
format: 1
id: t
name: T
coordinates: plane
cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}}
routes:
  - {between: [A, B], length: 1, color: red}
tickets: []
"""


def _codes(text: str) -> list[str]:
    return [p.code for p in iter_schema_problems(parse_document(text, "t.yaml"))]


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(map_schema())


def test_inlined_schema_says_the_same_thing() -> None:
    inlined = _with_local_refs_inlined(map_schema())
    Draft202012Validator.check_schema(inlined)
    assert "$ref" not in str({k: v for k, v in inlined.items() if k != "$defs"})
    for text in (MAP, MAP.replace("length: 1", "length: 0"), MAP.replace("red", "teal")):
        data = parse_document(text).data
        plain = sorted(e.message for e in Draft202012Validator(map_schema()).iter_errors(data))
        fast = sorted(e.message for e in Draft202012Validator(inlined).iter_errors(data))
        assert plain == fast


def test_r9_codes_come_from_the_schema_annotations() -> None:
    assert _codes(MAP) == []
    assert _codes(MAP.replace("length: 1", "length: 11")) == ["TTR203"]
    assert _codes(MAP.replace("color: red", "color: teal")) == ["TTR204"]
    assert _codes(MAP.replace("color: red", "color: [red, teal]")) == ["TTR204"]
    assert _codes(MAP.replace("coordinates: plane", "coordinates: geographic")) != []
    assert _codes(MAP.replace("tickets: []", "tickets: {}")) == ["TTR002"]


def test_city_names_must_be_text() -> None:
    assert _codes(MAP.replace("B: {x: 1", "12: {x: 1")) == ["TTR002"]


def test_unknown_key_points_at_the_key() -> None:
    document = parse_document(MAP + "author: me\n", "t.yaml")
    [problem] = iter_schema_problems(document)
    assert (problem.position.line, problem.position.column) == (9, 1)
