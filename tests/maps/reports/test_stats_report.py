"""Reporting designer metrics (ttr_maps.reports.stats) and `ttr stats`."""

from __future__ import annotations

import json

import pytest
from hand_maps import hand_map
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.analysis.stats import map_stats
from ttr_maps.reports.stats import stats_renderables, stats_to_dict

runner = CliRunner()


def test_json_keys_are_stable():
    data = stats_to_dict(map_stats(hand_map()))
    assert list(data) == [
        "format",
        "map",
        "counts",
        "colors",
        "length_histogram",
        "degree_histogram",
        "bridges",
        "articulation_points",
        "connections",
        "cities_without_ticket",
        "ticket_value_histogram",
        "unreachable_tickets",
        "ticket_bonuses",
        "players",
        "published",
    ]
    assert data["counts"]["ferry_locomotives"] == 1
    assert data["connections"][0] == {
        "between": ["A", "B"],
        "length": 2,
        "routes": ["A-B/1", "A-B/2"],
        "ticket_load": 2.0,
        "tickets": 2,
        "unavoidable": 2,
    }
    json.dumps(data)  # JSON-ready as it is


def test_text_report_has_a_table_per_topic():
    titles = [str(t.title) for t in stats_renderables(map_stats(hand_map()))]
    assert any(t.startswith("Chokepoints") for t in titles)
    assert "Colours" in titles and "Network" in titles


def test_cli_json(tmp_path):
    result = runner.invoke(app, ["stats", "north_america", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["counts"]["spaces"] == 309
    assert data["colors"]["red"] == {"segments": 7, "spaces": 27}


def test_the_published_boards_numbers_stand_beside_the_maps():
    from ttr_maps.io.bundled import PUBLISHED_MAPS

    data = stats_to_dict(map_stats(hand_map()))
    published = data["published"]
    assert sorted(published["maps"]) == sorted(PUBLISHED_MAPS)
    # Nearest first: the boards of the map's own rule set (base) come first.
    families = [board["rules"] for board in published["boards"]]
    assert families == sorted(families, key=lambda f: f != data["map"]["rules"])
    numbers = {n["key"]: n for n in published["numbers"]}
    at = published["maps"].index("north_america")
    # North America: 22 of its 78 connections have two tracks.
    assert numbers["double_share"]["published"][at] == pytest.approx(22 / 78, abs=1e-4)
    assert numbers["wagon_ratio_4"]["published"][at] == pytest.approx(180 / 309, abs=1e-3)
    # Nordic Countries seats 2-3 players: it has no number for 4.
    nordic = published["maps"].index("nordic_countries")
    assert numbers["wagon_ratio_4"]["published"][nordic] is None
    titles = [str(t.title) for t in stats_renderables(map_stats(hand_map()), width=120)]
    assert any(t.startswith("Beside the 6 nearest published boards") for t in titles)
    assert any(t.startswith("Published boards, nearest first") for t in titles)


def test_cli_text_and_plot(tmp_path):
    plot = tmp_path / "stats.png"
    result = runner.invoke(app, ["stats", "north_america", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "Chokepoints" in result.output and "Kansas City" in result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_cli_bad_plot_extension_and_unknown_map_exit_2(tmp_path):
    result = runner.invoke(app, ["stats", "north_america", "--plot", str(tmp_path / "a.bmp")])
    assert result.exit_code == 2
    assert "unknown output format" in result.output
    result = runner.invoke(app, ["stats", str(tmp_path / "missing.yaml")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_cli_plot_into_a_missing_folder_fails_before_any_table(tmp_path):
    result = runner.invoke(app, ["stats", "north_america", "--plot", str(tmp_path / "no/x.png")])
    assert result.exit_code == 2
    assert "does not exist" in result.output
    assert result.stdout == ""


def test_a_board_that_plays_without_some_of_its_rules_says_so():
    result = runner.invoke(app, ["stats", "japan", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert any("bullet" in text for text in data["map"]["not_modelled"])
    assert data["map"]["players"] == [2, 3, 4, 5]
    text = " ".join(runner.invoke(app, ["stats", "japan"]).stdout.split())
    assert "not modelled: bullet-train routes" in text
