"""Reporting the max-score probe (ttr_maps.reports.probe) and `ttr probe`."""

from __future__ import annotations

import json
from pathlib import Path

from hand_maps import TRIANGLE
from typer.testing import CliRunner

from ttr_core.cli import app

runner = CliRunner()


def test_cli_probe_json_on_a_hand_map(tmp_path: Path):
    import yaml

    path = tmp_path / "triangle.yaml"
    path.write_text(yaml.safe_dump(TRIANGLE), encoding="utf-8")
    result = runner.invoke(app, ["probe", str(path), "--wagons", "6", "-f", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["solves"][0]["score"] == 17
    assert data["solves"][0]["routes"] == [{"between": ["A", "C"], "length": 6}]
    text = runner.invoke(app, ["probe", str(path), "--sweep", "3..5"])
    assert text.exit_code == 0, text.output
    assert "Likely undervalued" in text.stdout and "proven" in text.stdout
    assert "Left out of the programme" in text.stdout
    assert "Running HiGHS" not in text.stdout
    assert data["long_ticket_limit"] is None and data["left_out"]
    assert data["ticket_rates"][0]["checks"] == ["TTR353", "TTR354"]
