"""Hostile input, round four (issue 40): game records given to `ttr play --resume`
and `ttr replay` (with and without `--verify`). Whatever the file holds, each
command answers with a clear message and its documented exit status (replay 0/2,
--verify 0/1/2, --resume 0/2), never a traceback, never a hang, and the file read
is never changed. The default suite runs one case of each kind; `-m slow` all."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app

runner = CliRunner()
_GONE = object()


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("records")
    iran, north_america = folder / "iran.json", folder / "na.json"
    for path, name in ((iran, "iran"), (north_america, "north_america")):
        result = runner.invoke(
            app, ["play", name, "--bots", "random,greedy", "--seed", "5", "--record", str(path)]
        )
        assert result.exit_code == 0, result.output
    return {"iran": json.loads(iran.read_text()), "na": json.loads(north_america.read_text())}


def _cut(record: dict[str, Any], actions: int = 40) -> dict[str, Any]:
    return dict(record, actions=record["actions"][:actions], result=None)


def _changed(record: dict[str, Any], path: list[Any], value: Any) -> bytes:
    record = copy.deepcopy(record)
    where = record
    for key in path[:-1]:
        where = where[key]
    if value is _GONE:
        del where[path[-1]]
    else:
        where[path[-1]] = value
    return json.dumps(record).encode()


def _text_cases(cut: bytes) -> dict[str, bytes]:
    return {
        "empty": b"",
        "bom": b"\xef\xbb\xbf" + cut,
        "utf16": cut.decode().encode("utf-16"),
        "nul-byte": cut[:50] + b"\x00" + cut[50:],
        "truncated": cut[: len(cut) // 2],
        "trailing-garbage": cut + b"}{",
        "deep-nesting": b"[" * 100_000 + b"]" * 100_000,
        "deep-in-actions": cut.replace(b'"actions": [', b'"actions": [' + b"[" * 5000, 1),
        "number-of-5000-digits": cut.replace(b'"seed": 5', b'"seed": ' + b"9" * 5000),
        "float-overflow": cut.replace(b'"seed": 5', b'"seed": 1e400'),
        "nan": cut.replace(b'"seed": 5', b'"seed": NaN'),
        "not-utf8": b'{"format": "ttr-game-record", "map": "\xff\xfe"}',
        "a-list": b"[]",
        "null": b"null",
    }


#: (path in the record, value): a field of the wrong type, size or range.
FIELD_CASES: dict[str, tuple[list[Any], Any]] = {
    "format-missing": (["format"], _GONE),
    "version-2": (["version"], 2),
    "map-unknown": (["map"], "atlantis"),
    "map-a-path": (["map"], "../../etc/passwd"),
    "map-very-long": (["map"], "x" * 100_000),
    "fingerprint-wrong": (["map_fingerprint"], "0" * 16),
    "seed-huge": (["seed"], 10**40),
    "seed-float": (["seed"], 1.5),
    "seed-bool": (["seed"], True),
    "players-6": (["players"], 6),
    "players-mismatch": (["players"], 3),
    "seats-a-string": (["seats"], "random"),
    "bot-unknown": (["seats", 0, "player"], "nosuchbot"),
    "bot-budget-huge": (["seats", 0, "player"], "search:999999999"),
    "name-with-escapes": (["seats", 0, "name"], "\x1b[2J\x07evil"),
    "actions-an-object": (["actions"], {"a": 1}),
    "action-a-string": (["actions", 0], "keep 0,1"),
    "action-seat-huge": (["actions", 0, "seat"], 10**20),
    "action-unreadable": (["actions", 3, "action"], "claim ☃ with loco:99999999999999999999"),
    "action-illegal": (["actions", 5, "action"], "pass"),
    "action-very-long": (["actions", 3, "action"], "draw " * 100_000),
    "rule-set-a-string": (["rule_set"], "base"),
    "market-size-0": (["rule_set", "market_size"], 0),
    "market-limit-1": (["rule_set", "market_locomotive_limit"], 1),
    "wagons-huge": (["rule_set", "wagons"], 10**9),
    "rule-field-unknown": (["rule_set", "colour"], "red"),
    "result-on-an-unfinished-game": (["result"], {"end_reason": "final round", "seats": []}),
    "notes-hostile": (
        ["notes"],
        [{"after": 10**20, "seat": 7, "name": "x" * 1000, "text": "\x00"}],
    ),
    "resumed-out-of-range": (["resumed"], [{"after": -1, "inexact_seats": [9]}]),
    "extra-field": (["evil"], {"x": 1}),
}

#: One case of each kind for the default suite.
QUICK = {
    "truncated",
    "deep-nesting",
    "number-of-5000-digits",
    "map-very-long",
    "seed-huge",
    "action-illegal",
    "market-limit-1",
    "another-maps-record",
    "resumed-out-of-range",
}


def _all_cases(played: dict[str, Any]) -> dict[str, bytes]:
    cut = _cut(played["iran"])
    cases = _text_cases(json.dumps(cut).encode())
    cases.update({name: _changed(cut, *change) for name, change in FIELD_CASES.items()})
    other = _cut(played["na"], 30)
    cases["another-maps-record"] = json.dumps(dict(other, map="iran")).encode()
    cases["many-actions"] = json.dumps(
        dict(cut, actions=[{"seat": 0, "action": "draw deck"}] * 100_000)
    ).encode()
    return cases


CASE_NAMES = [
    *sorted(_text_cases(b"{}")),
    *sorted(FIELD_CASES),
    "another-maps-record",
    "many-actions",
]


def _run(case: str, played: dict[str, Any], folder: Path) -> None:
    data = _all_cases(played)[case]
    path = folder / "record.json"
    path.write_bytes(data)
    for args, codes in (
        (["replay", str(path)], (0, 2)),
        (["replay", str(path), "--verify"], (0, 1, 2)),
        (["play", "--resume", str(path), "--record", str(folder / "out.json")], (0, 2)),
    ):
        result = runner.invoke(app, args)
        said = result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            case,
            args[0],
            result.exception,
        )
        assert "Traceback" not in said, (case, args)
        assert result.exit_code in codes, (case, args, said[-500:])
        assert len(said) < 20_000, (case, args, len(said))  # no value quoted whole
        assert path.read_bytes() == data  # the record read is never written
        if result.exit_code and args[0] == "play":
            assert said.strip().startswith("error:"), (case, said[-300:])


@pytest.mark.parametrize("case", sorted(QUICK))
def test_a_hostile_record_of_each_kind_is_refused_or_played_cleanly(case, played, tmp_path):
    _run(case, played, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("case", [c for c in CASE_NAMES if c not in QUICK])
def test_every_hostile_record(case, played, tmp_path):
    _run(case, played, tmp_path)


def test_the_case_list_is_the_corpus(played):
    assert set(CASE_NAMES) == set(_all_cases(played))
    assert set(CASE_NAMES) >= QUICK
