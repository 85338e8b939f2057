"""Reporting a deck analysis (ttr_maps.reports.tickets) and `ttr tickets MAP`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ttr_core.cli import app

runner = CliRunner()


def test_cli_tickets_json_reports_the_score_and_crowding():
    result = runner.invoke(app, ["tickets", "north_america", "-f", "json", "--samples", "20"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [c["players"] for c in data["crowding"]] == [2, 3, 4, 5]
    assert set(data["score"]["parts"]) == set(data["score"]["weights"])
    assert data["calibration"]["random_decks"] == 20


def test_cli_tickets_plot_is_written(tmp_path: Path):
    out = tmp_path / "deck.png"
    result = runner.invoke(app, ["tickets", "iran", "--samples", "10", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
