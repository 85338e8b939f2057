"""The balance report as a value: `schemas/balance-report.schema.json`, the
round trip through report.json, clear errors for what is not a report, and the
readers that read it by attribute, never by key."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from balance_reports import checked, schema_errors, synthetic_report, validator
from testdata import BAD, ROOT

from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.report import FORMAT, BalanceReport, ReportError
from ttr_core.playtest.simulate import simulate
from ttr_maps import load_map
from ttr_maps.rules import rules_for

STALLING_MAP = BAD / "ttr451_games_stall.yaml"


def test_schema_is_a_valid_2020_12_schema() -> None:
    schema = validator().schema
    assert schema["$id"] == "urn:ttr:schema:balance-report:2"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.fixture(scope="module")
def report() -> BalanceReport:
    """A report with every part that varies: stalls, findings, `--set` changes."""
    game_map = load_map(STALLING_MAP)
    rules = rules_for(game_map).with_overrides({"longest_path_bonus": 12})
    bots = ["greedy", "long-route"]
    played = PlayedMap(game_map, str(STALLING_MAP), rules)
    return simulate(played, RunPlan(4, 4, tuple(bots), 3)).report


def test_a_report_reads_back_through_json_to_the_same_value(report: BalanceReport) -> None:
    data = checked(report)
    assert list(data)[:3] == ["format", "version", "findings"]
    assert data["settings"]["set"] == ["longest_path_bonus=12"]
    assert report.stalls.count and report.findings  # the parts that vary are there
    assert BalanceReport.from_dict(json.loads(json.dumps(data))) == report


def test_the_schema_refuses_a_renamed_or_missing_field(report: BalanceReport) -> None:
    data = checked(report)
    renamed = {**data, "win_rates": data["win_rate"]}
    del renamed["win_rate"]
    assert any("win_rate" in e for e in schema_errors(renamed))
    bad_rate = json.loads(json.dumps(data))
    bad_rate["win_rate"]["by_seat"]["0"]["rate"] = 1.5
    assert any("by_seat['0'].rate" in e for e in schema_errors(bad_rate))
    bad_evidence = json.loads(json.dumps(data))
    bad_evidence["findings"][0]["evidence"] = {}
    assert schema_errors(bad_evidence)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("win_rate"), "no field 'win_rate'"),
        (lambda d: d.update(version=4), "version 4"),
        (lambda d: d.update(version=1), "written by an older ttr"),
        (lambda d: d.update(format="ttr-game-record"), f"not a {FORMAT}"),
        (lambda d: d["findings"].append({"code": "new", "evidence": {}}), "unknown finding"),
        (lambda d: d.update(routes=7), "wrong kind"),
        (lambda d: d["win_rate"].update(by_seat={"1": {}}), "no field"),
    ],
)
def test_what_is_not_a_report_is_refused_with_the_reason(change, message: str) -> None:  # type: ignore[no-untyped-def]
    data = checked(synthetic_report())
    change(data)
    with pytest.raises(ReportError, match=message):
        BalanceReport.from_dict(data)


#: The modules that read balance reports (and ladders), and the CLI commands that
#: show them: they read attributes; string keys only index our own constant tables.
READERS = [
    *sorted((ROOT / "ttr_core" / "playtest").glob("*.py")),
    *(ROOT / "ttr_core" / "cli" / f"{name}.py" for name in ("simulate", "compare", "ladder")),
]


@pytest.mark.parametrize("path", READERS, ids=lambda p: p.name)
def test_readers_use_attributes_not_keys(path: Path) -> None:
    if path.name == "report.py":  # to_dict and from_dict are the one place keys live
        return
    keyed = [
        f"{path.name}:{node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
        and not (isinstance(node.value, ast.Name) and node.value.id.isupper())
        and ast.unparse(node.value) not in {"options", "Format"}
    ]
    assert keyed == []
