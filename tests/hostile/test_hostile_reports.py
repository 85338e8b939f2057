"""Hostile reports and sweeps (issue 27): `ttr compare` reads report.json through
the guarded reader and checks it against schemas/balance-report.schema.json before
use, never writes onto A or B; `ttr probe --sweep` and `ttr tickets --samples /
--count` are bounded, with the bound in the message and in --help."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_maps.analysis.probe import ProbeError, parse_budget_range
from ttr_maps.rules import (
    MAX_DECK_SAMPLES,
    MAX_SUGGEST_ITERATIONS,
    MAX_SUGGESTED_LONG_TICKETS,
    MAX_SUGGESTED_TICKETS,
    MAX_SWEEP_BUDGETS,
    field_ranges,
)

runner = CliRunner()


@pytest.fixture(scope="module")
def report_data() -> dict:
    from ttr_core.playtest.simulate import simulate
    from ttr_maps import load_map

    report = simulate(
        PlayedMap(load_map("iran"), "iran"), RunPlan(2, 2, ("greedy", "random"), 1)
    ).report
    return json.loads(json.dumps(report.to_dict()))


def _write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _help(*command: str) -> str:
    """A command's --help as one line of words (rich's box borders dropped)."""
    return " ".join(runner.invoke(app, [*command, "--help"]).output.replace("│", " ").split())


def _compare(*arguments: str):
    return runner.invoke(app, ["compare", *arguments])


def test_compare_reads_a_valid_report(tmp_path: Path, report_data: dict) -> None:
    good = _write(tmp_path / "good.json", report_data)
    result = _compare(str(good), str(good), "-f", "json")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("change", "where", "why"),
    [
        (lambda d: d.update(games=-5), "$.games", "less than the minimum of 0"),
        (lambda d: d.update(games="many"), "$.games", "is not of type 'integer'"),
        (lambda d: d.pop("win_rate"), "$", "'win_rate' is a required property"),
        (
            lambda d: d["win_rate"]["first_player"].update(rate="x" * 100_000),
            "$.win_rate.first_player.rate",
            "is not of type 'number'",
        ),
    ],
)
def test_compare_refuses_a_report_that_breaks_the_schema_naming_file_and_path(
    tmp_path: Path, report_data: dict, change, where: str, why: str
) -> None:
    data = json.loads(json.dumps(report_data))
    change(data)
    bad = _write(tmp_path / "bad.json", data)
    good = _write(tmp_path / "good.json", report_data)
    result = _compare(str(good), str(bad))
    assert result.exit_code == 2, result.output
    assert f"{bad}: not a valid report.json: {where}: " in result.output
    assert why in result.output
    assert "Traceback" not in result.output and len(result.output) < 2_000


def test_compare_refuses_deep_json_and_long_numbers(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    result = _compare(str(deep), str(deep))
    assert result.exit_code == 2 and "nested more than 20 deep" in result.output
    assert "RecursionError" not in result.output
    long = tmp_path / "long.json"
    long.write_text('{"games": ' + "9" * 5_000 + "}")
    result = _compare(str(long), str(long))
    assert result.exit_code == 2 and "a number of 5,000 characters" in result.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_compare_refuses_a_fifo_or_device_as_a_report_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "report.json"
    os.mkfifo(fifo)  # nobody writes to it: reading it would block for ever
    result = _compare(str(fifo), str(fifo))
    assert result.exit_code == 2 and "is a FIFO (named pipe), not a regular file" in result.output
    folder = tmp_path / "run"
    folder.mkdir()
    os.mkfifo(folder / "report.json")
    result = _compare(str(folder), str(fifo))
    assert result.exit_code == 2 and "not a regular file" in result.output
    result = _compare("/dev/zero", "/dev/null")
    assert result.exit_code == 2 and "character device" in result.output


def test_compare_never_writes_onto_one_of_its_inputs(tmp_path: Path, report_data: dict) -> None:
    a = _write(tmp_path / "a.json", report_data)
    folder = tmp_path / "b"
    folder.mkdir()
    b = _write(folder / "report.json", report_data)
    link = tmp_path / "other-name.json"
    os.link(a, tmp_path / "hard.json")
    link.symlink_to(b)
    before = a.read_bytes(), b.read_bytes()
    for target in (a, b, link, tmp_path / "hard.json"):
        result = _compare(str(a), str(folder), "-o", str(target))
        assert result.exit_code == 2, result.output
        assert "--output" in result.output and "Traceback" not in result.output
    assert (a.read_bytes(), b.read_bytes()) == before
    out = tmp_path / "cmp.txt"
    result = _compare(str(b), str(b), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text().strip()


# ------------------------------------------------------------------ probe --sweep

WAGONS = field_ranges()["wagons"]


def test_a_sweep_within_the_bounds_is_accepted() -> None:
    assert parse_budget_range("30..50") == range(30, 51)
    low = WAGONS.minimum
    assert len(parse_budget_range(f"{low}..{low + MAX_SWEEP_BUDGETS - 1}")) == MAX_SWEEP_BUDGETS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1..2", f"from {WAGONS.minimum} to {WAGONS.maximum}"),
        ("30..9999999999999999999999999999999", "from 3 to 200"),
        (f"3..{3 + MAX_SWEEP_BUDGETS}", f"at most {MAX_SWEEP_BUDGETS} budgets"),
        ("50..30", "LOW..HIGH"),
        ("x..y", "LOW..HIGH"),
        ("1" * 100_000 + "..3", "LOW <= HIGH"),
        ("30..", "LOW..HIGH"),
        ("-3..5", "LOW..HIGH"),
    ],
)
def test_a_sweep_out_of_bounds_is_refused_naming_the_bound(text: str, message: str) -> None:
    with pytest.raises(ProbeError) as caught:
        parse_budget_range(text)
    assert message in str(caught.value)
    assert len(str(caught.value)) < 500


def test_probe_sweep_bound_reaches_the_command_and_its_help() -> None:
    result = runner.invoke(app, ["probe", "iran", "--sweep", "30..9999999999999999999999999999999"])
    assert result.exit_code == 2 and "from 3 to 200" in result.output
    help_text = _help("probe")
    assert f"At most {MAX_SWEEP_BUDGETS} budgets" in help_text and "from 3 to 200" in help_text


# ------------------------------------------------------------- tickets bounds


def test_tickets_samples_and_count_are_bounded_in_help_and_message() -> None:
    result = runner.invoke(app, ["tickets", "analyse", "iran", "--samples", "7" * 31])
    assert result.exit_code == 2 and str(MAX_DECK_SAMPLES) in result.output
    result = runner.invoke(app, ["tickets", "suggest", "iran", "--count", str(10**12)])
    assert result.exit_code == 2
    assert str(MAX_SUGGESTED_TICKETS) in result.output
    analyse_help = _help("tickets", "analyse")
    assert f"at most {MAX_DECK_SAMPLES:,}" in analyse_help
    suggest_help = _help("tickets", "suggest")
    assert f"at most {MAX_SUGGESTED_TICKETS:,}" in suggest_help


@pytest.mark.parametrize(
    "option,bound",
    [("--iterations", MAX_SUGGEST_ITERATIONS), ("--long", MAX_SUGGESTED_LONG_TICKETS)],
)
def test_tickets_suggest_iterations_and_long_are_bounded_in_help_and_message(option, bound) -> None:
    for too_many in (str(bound + 1), "9" * 40):
        result = runner.invoke(app, ["tickets", "suggest", "iran", "-n", "5", option, too_many])
        assert result.exit_code == 2 and str(bound) in result.output
    assert f"at most {bound:,}" in _help("tickets", "suggest")
