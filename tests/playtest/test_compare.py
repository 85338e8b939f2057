"""`ttr compare`: significant differences between two simulations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.compare import compare_reports, to_html, to_text

runner = CliRunner()


def _report(map_id: str, first_seat_wins: int, stalls: int = 0) -> dict[str, Any]:
    rest = (1000 - first_seat_wins) / 3
    return {
        "format": "ttr-simulation-report",
        "games": 1000,
        "settings": {"map": map_id, "map_name": map_id.title(), "players": 4, "bots": ["a"]},
        "win_rate": {
            "by_seat": {
                str(s): {"games": 1000, "wins": first_seat_wins if s == 0 else rest}
                for s in range(4)
            },
            "by_bot": {"a": {"games": 4000, "wins": 1000}},
        },
        "scores": {"by_seat": {"0": {"count": 1000, "mean": 100.0, "sd": 20.0}}},
        "stalls": {"count": stalls},
        "tickets": {"by_bot": {"a": {"held": 3000, "completed": 2000}}},
        "routes": [{"route": "A-B", "claimed": 900}, {"route": "B-C", "claimed": 100}],
    }


def test_a_real_change_is_significant_and_noise_is_not() -> None:
    comparison = compare_reports(_report("old", 313, stalls=40), _report("new", 250))
    significant = {(r["group"], r["what"]) for r in comparison["significant"]}
    assert ("win rate by seat", "0") in significant
    assert ("stalls", "stalled games") in significant
    assert ("route claimed in games", "A-B") not in significant
    same = compare_reports(_report("old", 255), _report("new", 250))
    assert same["significant"] == []
    assert "no significant difference" in to_text(same)


def test_bonferroni_keeps_many_small_route_differences_quiet() -> None:
    a, b = _report("a", 250), _report("b", 250)
    a["routes"] = [{"route": f"R{i}", "claimed": 500} for i in range(100)]
    b["routes"] = [{"route": f"R{i}", "claimed": 545} for i in range(100)]  # p ~ 0.04 each
    assert compare_reports(a, b)["significant"] == []


def test_text_and_html_show_both_values_and_settings_that_differ() -> None:
    old, new = _report("old", 313), _report("new", 250)
    new["settings"]["players"] = 3
    comparison = compare_reports(old, new)
    text = to_text(comparison)
    assert "win rate by seat: 0: A 0.313  B 0.25" in text
    assert "differ in players" in text
    page = to_html(comparison)
    assert "<h2>Significant differences</h2>" in page and 'class="sig"' in page


def test_cli_compares_two_report_files_as_json(tmp_path: Path) -> None:
    for name, wins in (("a", 313), ("b", 250)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "report.json").write_text(json.dumps(_report(name, wins)))
    result = runner.invoke(
        app, ["compare", str(tmp_path / "a"), str(tmp_path / "b" / "report.json"), "-f", "json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["format"] == "ttr-comparison"
    assert [r["what"] for r in data["significant"]] == ["0"]


def test_cli_simulates_two_maps_alike_and_writes_html(tmp_path: Path) -> None:
    out = tmp_path / "cmp.html"
    result = runner.invoke(
        app,
        [
            "compare",
            "north_america",
            "europe",
            "-n",
            "4",
            "--players",
            "2",
            "-j",
            "1",
            "--bots",
            "greedy",
            "-f",
            "html",
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "North America" in page and "Europe" in page


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "cannot read the report"), ('{"format": "other"}', "not a report.json")],
)
def test_cli_refuses_what_is_not_a_report(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_text(content)
    result = runner.invoke(app, ["compare", str(path), str(path)])
    assert result.exit_code == 2 and message in result.output


def test_cli_refuses_an_unknown_map() -> None:
    result = runner.invoke(app, ["compare", "atlantis", "europe", "-n", "1"])
    assert result.exit_code == 2
