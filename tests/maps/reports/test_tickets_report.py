"""Reporting a deck analysis (ttr_maps.reports.tickets) and `ttr tickets MAP`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps import load_map
from ttr_maps.analysis.tickets import analyse_deck

runner = CliRunner()


def test_cli_tickets_json_reports_the_score_and_crowding():
    result = runner.invoke(app, ["tickets", "north_america", "-f", "json", "--samples", "20"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [c["players"] for c in data["crowding"]] == [2, 3, 4, 5]
    assert set(data["score"]["parts"]) == set(data["score"]["weights"])
    assert data["calibration"]["random_decks"] == 20
    assert "not of play" in data["calibration"]["meaning"]
    # The published boards beside the map: its own numbers among them.
    published = data["score"]["published"]
    assert len(published) == 12 and next(iter(published)) == "North America"  # itself first
    assert data["map"]["not_modelled"] == []
    assert published["North America"]["total"] == data["score"]["total"]
    assert data["resemblance"] == {
        "profile": "north_america",
        "value": 0.0,
        "meaning": data["resemblance"]["meaning"],
    }
    two = data["crowding"][0]
    assert two["blocked_per_game"] > 0 and {"North America", "Europe"} <= set(two["published"])
    assert "Nordic Countries" in two["published"]  # it seats 2 players
    assert all("excess" in r for r in two["over_demanded_routes"])
    # R12: the model's hand is more than R4's least kept and the same at every size.
    assert {c["hand"] for c in data["crowding"]} == {two["hand"]} and two["hand"] > 2


def test_cli_tickets_text_says_what_the_random_decks_compare():
    result = runner.invoke(app, ["tickets", "iran", "--samples", "10"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "compares structure, not play" in text and "this deck beats" not in text
    assert "Resemblance to a published value profile (not in the score)" in text
    # The crowding tables say they are a model, and which hand it holds.
    assert "Crowding is a model, not play" in text
    hand = analyse_deck(load_map("iran"), samples=0).measures.crowding[2].hand
    assert f"Crowding at 4 players (a hand of {hand:.1f} tickets)" in text


def test_cli_tickets_plot_is_written(tmp_path: Path):
    out = tmp_path / "deck.png"
    result = runner.invoke(app, ["tickets", "iran", "--samples", "10", "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_board_that_plays_without_some_of_its_rules_says_so():
    result = runner.invoke(app, ["tickets", "japan", "--samples", "0"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "Japan plays without: bullet-train routes" in text
