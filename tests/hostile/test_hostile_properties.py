"""Property tests for hostile input (issue 17): valid maps and records mutated byte
by byte and structurally always give a problem or a clean result, never an
exception escaping the reader, the validator, `ttr fix`'s planner or the record
reader."""

from __future__ import annotations

import contextlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testdata import BAD, HOSTILE

from ttr_core.engine.record import RecordError, first_schema_problem, read_record, record_of
from ttr_maps.analysis.fix import plan_fix
from ttr_maps.checks.validate import validate_document, validate_file
from ttr_maps.io.document import DocumentError, parse_document

SEEDS = [BAD / "ttr304_ticket_value.yaml", HOSTILE / "hostile_names.yaml"]

PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@cache
def seed_texts() -> tuple[bytes, ...]:
    return tuple(path.read_bytes() for path in SEEDS)


@st.composite
def mutated_bytes(draw: st.DrawFn, seed: bytes) -> bytes:
    """`seed` with a few bytes replaced, inserted or deleted."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 6))):
        where = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["replace", "insert", "delete"]))
        byte = draw(st.sampled_from(b"[]{}:,-&*!#|>'\"\t\n\r \x00\xff9.<e"))
        if kind == "insert" or where == len(data):
            data.insert(where, byte)
        elif kind == "replace":
            data[where] = byte
        else:
            del data[where]
    return bytes(data)


YAML_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["&a x", "*a", "!!int 3", "!city", "<<", "$\\frac{$", "[/]", "\x1b[2J"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)


def _check_map_bytes(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "map.yaml"
    path.write_bytes(data)
    report = validate_file(path)  # must never raise
    assert report.errors or report.map is not None
    plan = plan_fix(path)  # must never raise
    assert plan.is_skipped or plan.blockers == []
    for problem in report.problems:
        assert "\x1b" not in str(problem)


@PROPERTY
@given(data=st.data())
def test_mutated_map_bytes_give_problems_never_exceptions(tmp_path_factory, data) -> None:
    seed = data.draw(st.sampled_from(seed_texts()))
    mutated = data.draw(mutated_bytes(seed))
    _check_map_bytes(tmp_path_factory.mktemp("m"), mutated)


@PROPERTY
@given(data=st.data(), value=YAML_VALUES)
def test_structurally_mutated_maps_give_problems_never_exceptions(
    tmp_path_factory, data, value: Any
) -> None:
    seed = yaml.safe_load(data.draw(st.sampled_from(seed_texts())).decode("utf-8"))
    section = data.draw(st.sampled_from(["cities", "routes", "tickets", "name", "settings"]))
    if isinstance(seed.get(section), list) and seed[section]:
        index = data.draw(st.integers(0, len(seed[section]) - 1))
        seed[section][index] = value
    elif isinstance(seed.get(section), dict) and seed[section]:
        key = data.draw(st.sampled_from(sorted(seed[section])))
        seed[section][key] = value
    else:
        seed[section] = value
    text = yaml.safe_dump(seed, allow_unicode=True)
    # Values written as YAML syntax (`&a x`, `!city`) are spliced in raw as well.
    raw = data.draw(st.sampled_from(["&a x", "*a", "!!int 3", "!city {}", "<<: *a", "[[[[", "]"]))
    spliced = text.replace("value: ", f"value: {raw} ", 1)
    for candidate in (text, spliced):
        _check_map_bytes(tmp_path_factory.mktemp("s"), candidate.encode("utf-8"))


@PROPERTY
@given(text=st.text(max_size=200))
def test_any_text_parses_or_raises_document_error(text: str) -> None:
    try:
        document = parse_document(text, "t.yaml")
    except DocumentError as error:
        assert error.message
        return
    validate_document(document)


@cache
def record_text() -> bytes:
    from ttr_core.bots import make_bot
    from ttr_core.engine.loop import bot_seed, play_game
    from ttr_core.engine.record import dump_record
    from ttr_maps import load_map

    bots = [make_bot("random", bot_seed(3, seat)) for seat in range(2)]
    state = play_game(load_map("iran"), bots, 3)
    return dump_record(record_of(state, ["random", "random"])).encode("utf-8")


@PROPERTY
@given(data=st.data())
def test_mutated_records_are_read_or_refused_with_a_record_error(tmp_path_factory, data) -> None:
    from ttr_core.engine.record import verify_record
    from ttr_maps import load_map

    mutated = data.draw(mutated_bytes(record_text()))
    path = tmp_path_factory.mktemp("r") / "game.json"
    path.write_bytes(mutated)
    try:
        record = read_record(path)
    except RecordError:
        return
    with contextlib.suppress(RecordError):
        verify_record(record, load_map("iran"))


@PROPERTY
@given(value=YAML_VALUES, field=st.sampled_from(["seed", "players", "seats", "actions", "map"]))
def test_structurally_mutated_records_fail_the_schema_or_replay(value: Any, field: str) -> None:
    from ttr_core.engine.record import verify_record
    from ttr_maps import load_map

    record = json.loads(record_text())
    record[field] = value
    if first_schema_problem(record) is not None:
        return
    with contextlib.suppress(RecordError):
        verify_record(record, load_map("iran"))
