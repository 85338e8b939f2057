"""`ttr compare`: significant differences between two simulations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from balance_reports import checked, synthetic_report
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.compare import compare_reports, to_html, to_text
from ttr_core.playtest.report import BalanceReport

runner = CliRunner()


def _report(map_id: str, first_seat_wins: int, stalls: int = 0) -> BalanceReport:
    rest = (1000 - first_seat_wins) / 3
    return synthetic_report(
        map_id=map_id,
        bots=("a",),
        wins_by_seat=[first_seat_wins, rest, rest, rest],
        stalls=(stalls, {"track": stalls} if stalls else {}),
        routes={"A-B": 900, "B-C": 100},
    )


def test_a_real_change_is_significant_and_noise_is_not() -> None:
    comparison = compare_reports(_report("old", 313, stalls=40), _report("new", 250))
    significant = {(r.group, r.what) for r in comparison.significant}
    assert ("win rate by seat", "0") in significant
    assert ("stalls", "stalled games") in significant
    assert ("route claimed in games", "A-B") not in significant
    same = compare_reports(_report("old", 255), _report("new", 250))
    assert same.significant == ()
    assert "no significant difference" in to_text(same)


def test_bonferroni_keeps_many_small_route_differences_quiet() -> None:
    a = synthetic_report(routes={f"R{i}": 500 for i in range(100)})
    b = synthetic_report(routes={f"R{i}": 545 for i in range(100)})  # p ~ 0.04 each
    assert compare_reports(a, b).significant == ()


def test_text_and_html_show_both_values_and_settings_that_differ() -> None:
    old, new = _report("old", 313), _report("new", 250)
    new = BalanceReport.from_dict(
        {**new.to_dict(), "settings": {**new.settings.to_dict(), "players": 3}}
    )
    comparison = compare_reports(old, new)
    text = to_text(comparison)
    assert "win rate by seat: 0: A 0.313  B 0.25" in text
    assert "differ in players" in text
    page = to_html(comparison)
    assert "<h2>Significant differences</h2>" in page and 'class="sig"' in page
    assert "<title>Comparison: Old / New</title>" in page


def test_map_names_are_text_in_every_format() -> None:
    comparison = compare_reports(_report("<b>&", 250), _report("x\x1b[2J", 250))
    page = to_html(comparison)  # the page shows map names: "<B>&" here
    assert "&lt;B&gt;&amp;" in page and "<B>&" not in page
    assert "\\x1b[2J" in to_text(comparison)


def _write(folder: Path, report: BalanceReport) -> Path:
    folder.mkdir()
    (folder / "report.json").write_text(json.dumps(checked(report)))
    return folder


def test_cli_compares_two_report_files_as_json(tmp_path: Path) -> None:
    a = _write(tmp_path / "a", _report("a", 313))
    b = _write(tmp_path / "b", _report("b", 250))
    result = runner.invoke(app, ["compare", str(a), str(b / "report.json"), "-f", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["format"] == "ttr-comparison"
    assert [r["what"] for r in data["significant"]] == ["0"]


def test_cli_simulates_two_maps_alike_and_writes_html(tmp_path: Path) -> None:
    out = tmp_path / "cmp.html"
    arguments = ["compare", "north_america", "europe", "-n", "4", "--players", "2", "-j", "1"]
    result = runner.invoke(app, [*arguments, "--bots", "greedy", "-f", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "North America" in page and "Europe" in page


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot read the report"),
        ('{"format": "other"}', "not a report.json"),
        ('{"format": "ttr-simulation-report", "version": 1}', "no field 'findings'"),
    ],
)
def test_cli_refuses_what_is_not_a_report(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    result = runner.invoke(app, ["compare", str(path), str(path)])
    assert result.exit_code == 2 and message in result.output


def test_cli_refuses_an_unknown_map() -> None:
    result = runner.invoke(app, ["compare", "atlantis", "europe", "-n", "1"])
    assert result.exit_code == 2
