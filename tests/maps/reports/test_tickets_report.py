"""Reporting a deck analysis (ttr_maps.reports.tickets) and `ttr tickets MAP`."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps import load_map
from ttr_maps.analysis.tickets import analyse_deck

runner = CliRunner()


def test_cli_tickets_json_reports_the_deck_number_play_and_crowding():
    args = ["tickets", "north_america", "-f", "json", "--samples", "20", "--games", "6"]
    result = runner.invoke(app, [*args, "--jobs", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    number = data["deck_number"]
    assert number["players"] == 4 and 0.5 < number["completion"] < 1.0
    assert list(number["by_players"]) == ["2", "3", "4", "5"]
    assert number["completion"] == number["by_players"]["4"]
    assert number["published"]["North America"] == number["completion"]
    # In play: six greedy games a table size, completion and connections taken.
    assert [p["players"] for p in data["played"]] == [2, 3, 4, 5]
    for played in data["played"]:
        assert played["games"] == round(6 * 4 / played["players"]) and played["bots"] == ["greedy"]
        low, high = played["completion_ci95"]
        assert low <= played["completion"] <= high
        assert played["blocked_ci95"][0] <= played["blocked_per_game"]
    assert [c["players"] for c in data["crowding"]] == [2, 3, 4, 5]
    assert set(data["structure"]["parts"]) == set(data["structure"]["weights"])
    assert data["calibration"]["random_decks"] == 20
    assert "harder" in data["calibration"]["meaning"]
    # The published boards beside the map: its own numbers among them.
    published = data["structure"]["published"]
    assert len(published) == 12 and next(iter(published)) == "North America"  # itself first
    assert published["North America"]["total"] == data["structure"]["total"]
    two = data["crowding"][0]
    assert two["blocked_per_game"] > 0 and {"North America", "Europe"} <= set(two["published"])
    assert "Nordic Countries" in two["published"]  # it seats 2 players
    assert all("excess" in r for r in two["over_demanded_routes"])
    # R12: the model's hand is more than R4's least kept and the same at every size.
    assert {c["hand"] for c in data["crowding"]} == {two["hand"]} and two["hand"] > 2


def test_cli_tickets_text_leads_with_the_deck_number_and_play():
    result = runner.invoke(app, ["tickets", "iran", "--samples", "10", "--games", "4", "-j", "1"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    number = analyse_deck(load_map("iran"), samples=0).measures.deck_number
    assert text.startswith(f"Iran: deck number {100 * number:.0f} % at 4 players")
    assert "In play: games of greedy bots" in text
    assert "predicted harder than this deck" in text
    # The crowding model's tables say what to read instead.
    assert "The count in play above is the one to read" in text
    hand = analyse_deck(load_map("iran"), samples=0).measures.crowding[2].hand
    assert f"Crowding at 4 players (a hand of {hand:.1f} tickets)" in text


def test_cli_tickets_games_0_plays_nothing():
    result = runner.invoke(app, ["tickets", "iran", "--samples", "0", "--games", "0"])
    assert result.exit_code == 0, result.output
    assert "In play" not in result.stdout


def test_cli_tickets_plot_is_written(tmp_path: Path):
    out = tmp_path / "deck.png"
    args = ["tickets", "iran", "--samples", "10", "--games", "0", "--plot", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_board_that_plays_without_some_of_its_rules_says_so():
    result = runner.invoke(app, ["tickets", "japan", "--samples", "0"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "Japan plays without: bullet-train routes" in text
    answer = runner.invoke(app, ["tickets", "japan", "-f", "json", "--samples", "0"])
    data = json.loads(answer.stdout)
    assert any("bullet" in item for item in data["map"]["not_modelled"])
