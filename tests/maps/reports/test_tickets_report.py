"""Reporting a deck analysis (ttr_maps.reports.tickets) and `ttr tickets MAP`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.crowding import CROWDING_PRECISION, MORE_GAMES
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
    # In play: at least six greedy games at 4 players (as many seat-games at the
    # others), on until the count of connections taken is within ±7.5 % (or 8 times
    # as many games): completion and connections taken.
    assert [p["players"] for p in data["played"]] == [2, 3, 4, 5]
    for played in data["played"]:
        least = round(6 * 4 / played["players"])
        assert least <= played["games"] <= MORE_GAMES * least and played["bots"] == ["greedy"]
        half = played["blocked_ci95"][1] - played["blocked_per_game"]
        precise = half <= CROWDING_PRECISION * played["blocked_per_game"] + 1e-3
        assert precise or played["games"] == MORE_GAMES * least
        low, high = played["completion_ci95"]
        assert low <= played["completion"] <= high
        assert played["blocked_ci95"][0] <= played["blocked_per_game"]
    model = data["crowding_model"]
    assert [c["players"] for c in model["by_players"]] == [2, 3, 4, 5]
    assert "no count of play" in model["meaning"]
    assert set(data["structure"]["parts"]) == set(data["structure"]["weights"])
    assert data["calibration"]["random_decks"] == 20
    assert "harder" in data["calibration"]["meaning"]
    # The published boards beside the map: its own numbers among them.
    published = data["structure"]["published"]
    assert len(published) == 12 and next(iter(published)) == "North America"  # itself first
    assert published["North America"]["total"] == data["structure"]["total"]
    two = model["by_players"][0]
    # Issue 36: the model gives no count of connections a game (play counts them).
    assert "blocked_per_game" not in json.dumps(model)
    assert two["excess_share"] > 0 and {"North America", "Europe"} <= set(two["published"])
    assert "Nordic Countries" in two["published"]  # it seats 2 players
    assert all("excess" in r for r in two["over_demanded_routes"])
    # R12: the model's hand is more than R4's least kept and the same at every size.
    assert {c["hand"] for c in model["by_players"]} == {two["hand"]} and two["hand"] > 2


def test_cli_tickets_text_leads_with_the_deck_number_and_play():
    result = runner.invoke(app, ["tickets", "iran", "--samples", "10", "--games", "4", "-j", "1"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    number = analyse_deck(load_map("iran"), samples=0).measures.deck_number
    assert text.startswith(f"Iran: deck number {100 * number:.0f} % at 4 players")
    assert "In play: games of greedy bots" in text
    assert "predicted harder than this deck" in text
    # Issue 36: crowding is the count in play at every table size, no model's.
    for players in (2, 3, 4, 5):
        assert f"Crowding in play at {players} players:" in text
    assert "Where the model puts" not in text and "a hand of" not in text
    assert "the model's share of wanted wagons over capacity" in text  # the structure's part
    assert "the connections taken in play are below" in text


def test_cli_tickets_games_0_plays_nothing_and_ranks_by_the_model_without_a_count():
    result = runner.invoke(app, ["tickets", "iran", "--samples", "0", "--games", "0"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "In play" not in text and "Crowding in play" not in text
    hand = analyse_deck(load_map("iran"), samples=0).measures.crowding[2].hand
    assert f"Where the model puts the crowding at 4 players (a hand of {hand:.1f} tickets)" in text
    assert "its numbers are no count of play" in text
    assert "the connections taken in play are counted with --games" in text  # structure
    assert "connections a game" not in text


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_cli_tickets_plot_is_written(tmp_path: Path):
    out = tmp_path / "deck.png"
    args = ["tickets", "iran", "--samples", "10", "--games", "0", "--plot", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# plays every table size; the stats report says the same in the default suite
@pytest.mark.slow
def test_a_board_that_plays_without_some_of_its_rules_says_so():
    result = runner.invoke(app, ["tickets", "japan", "--samples", "0"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "Japan plays without: bullet-train routes" in text
    answer = runner.invoke(app, ["tickets", "japan", "-f", "json", "--samples", "0"])
    data = json.loads(answer.stdout)
    assert any("bullet" in item for item in data["map"]["not_modelled"])


def _same_story(data: object) -> object:
    """A `ttr tickets` JSON report with each ticket's two cities in name order (a
    file may write them either way) and without the map's file name."""
    if isinstance(data, dict):
        return {key: _same_story(value) for key, value in data.items() if key not in ("map", "id")}
    if isinstance(data, list):
        if len(data) == 2 and all(isinstance(city, str) for city in data):
            return sorted(data)  # a ticket's two cities
        return [_same_story(item) for item in data]
    return data


def test_ttr_tickets_tells_the_same_story_on_a_shuffled_published_board(tmp_path: Path) -> None:
    """Every number and list of `ttr tickets` (the deck number, the deck in play,
    structure, coverage, regions, crowding, fragility, random decks) is the same for
    Switzerland written in another order: cities, routes, tickets shuffled, each
    route's and ticket's cities swapped."""
    import random
    import sys

    import yaml

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from reordered import map_data, reordered_data

    shuffled = tmp_path / "switzerland.yaml"
    data = reordered_data(map_data("switzerland"), random.Random(11))
    shuffled.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    reports = []
    for argument in ("switzerland", str(shuffled)):
        args = ["tickets", argument, "-f", "json", "--samples", "15", "--games", "4"]
        result = runner.invoke(app, [*args, "--jobs", "1"])
        assert result.exit_code == 0, result.output
        reports.append(json.loads(result.stdout))
    one, other = reports
    assert one["played"] and one["fragility"]["overlapping_pairs"]
    assert _same_story(one) == _same_story(other)


def test_ttr_tickets_with_another_seed_keeps_the_deck_number_and_its_place() -> None:
    """The random decks' seed moves only where the deck stands among them, and
    little: the deck number, structure and crowding do not depend on it."""
    numbers = []
    for seed in (0, 1, 2):
        result = runner.invoke(app, ["tickets", "europe", "-f", "json", "--samples", "40",
                                     "--games", "0", "--seed", str(seed)])  # fmt: skip
        assert result.exit_code == 0, result.output
        numbers.append(json.loads(result.stdout))
    first = numbers[0]
    for other in numbers[1:]:
        for key in ("deck_number", "structure", "crowding_model", "fragility", "coverage"):
            assert other[key] == first[key]
        shares = first["calibration"]["easier_share"], other["calibration"]["easier_share"]
        assert abs(shares[0] - shares[1]) <= 0.35
