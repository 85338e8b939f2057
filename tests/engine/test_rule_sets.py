"""Rules as data (`ttr_maps.rules`) in a game: the rule book's numbers, map
settings and `--set` overrides change what the engine plays."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest
from engine_positions import started, tiny_map
from testdata import ROOT
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.engine.state import GameState
from ttr_maps.rules import BASE, EUROPE, RuleSet, RuleSetError, parse_overrides, rules_for

runner = CliRunner()


def test_r1_r4_r10_r16_base_rules_hold_the_rule_book_numbers():
    assert (BASE.min_players, BASE.max_players, BASE.wagons, BASE.starting_cards) == (2, 5, 45, 4)
    assert [BASE.route_score(n) for n in range(1, 9)] == [1, 2, 4, 7, 10, 15, 18, 21]
    assert BASE.longest_path_bonus == 10 and BASE.final_round_wagons == 2
    assert not (BASE.stations or BASE.tunnels or BASE.ferries or BASE.long_tickets)


def test_e1_e4_europe_rules_add_stations_tunnels_ferries_and_long_tickets():
    assert (EUROPE.stations, EUROPE.tunnels, EUROPE.ferries, EUROPE.long_tickets) == (
        3,
        True,
        True,
        True,
    )
    assert [EUROPE.station_cost(left) for left in (3, 2, 1)] == [1, 2, 3]
    assert EUROPE.with_overrides({"stations": 0}) != EUROPE


def test_map_settings_change_rule_fields():
    game_map = tiny_map(settings={"wagons": 20, "longest_path_bonus": 0, "market_size": 6})
    state = GameState(game_map, 2, seed=1)
    assert state.wagons == [20, 20]
    assert state.rule_set.longest_path_bonus == 0
    assert len(state.cards.market) == 6
    # A rule-set name given to the game still takes the map's settings.
    assert rules_for(game_map, "europe").wagons == 20


def test_a_changed_points_table_scores_claims_with_it():
    rules = BASE.with_overrides({"route_points": "1,3,6,10,15,21,28,36"})
    state = started(tiny_map(), seed=2)
    twin = GameState(state.map, 2, seed=2, rules=rules)
    assert twin.rule_set.route_score(3) == 6
    twin.take_route(0, twin.board.route_index["B-C"])
    assert twin.route_points[0] == 6


def test_a_map_with_an_unplayable_setting_is_refused_with_the_field():
    with pytest.raises(RuleSetError, match=r"settings of map 'tiny': .*market_size"):
        GameState(tiny_map(settings={"market_size": 0}), 2, seed=1)


def test_equal_maps_share_a_board_but_each_game_plays_its_own_map_settings():
    """`settings` do not count for map equality: a shared board must not lend a
    game the rule set of the map it was built for."""
    plain, changed = tiny_map(), tiny_map(settings={"longest_path_bonus": 3})
    assert plain == changed
    assert GameState(plain, 2, seed=1).board is GameState(changed, 2, seed=1).board
    assert GameState(changed, 2, seed=1).rule_set.longest_path_bonus == 3
    assert GameState(plain, 2, seed=1).rule_set.longest_path_bonus == 10


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("wagon=40", "unknown rule field 'wagon'; fields: min_players, max_players, wagons"),
        ("wagons=forty", "wagons: 'forty' is not a whole number"),
        ("wagons=٤٠", "wagons: '٤٠' is not a whole number"),
        ("tunnels=maybe", "tunnels: 'maybe' is not true or false"),
        ("wagons", "'wagons': write FIELD=VALUE"),
        ("name=europe", "name: the rule set is the map's `rules`"),
    ],
)
def test_overrides_name_the_bad_field(assignment, message):
    with pytest.raises(RuleSetError) as caught:
        BASE.with_overrides(parse_overrides([assignment]))
    assert message in str(caught.value)


def test_overrides_read_numbers_switches_and_lists():
    changes = parse_overrides(["wagons=40", "tunnels=true", "station_costs=2,2"])
    assert changes == {"wagons": 40, "tunnels": True, "station_costs": (2, 2)}
    variant = BASE.with_overrides(changes)
    assert RuleSet.from_dict(variant.to_dict()) == variant


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_cli_set_with_an_unknown_field_exits_2_naming_it(command, tmp_path):
    extra = ["--out", str(tmp_path / "out"), "--games", "1"] if command == "simulate" else []
    result = runner.invoke(app, [command, "north_america", "--set", "colour=red", *extra])
    assert result.exit_code == 2
    assert "unknown rule field 'colour'" in result.stderr
    assert "wagons" in result.stderr  # the allowed fields are listed
    assert not (tmp_path / "out").exists()


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_cli_simulate_plays_with_the_changed_rules(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            *("simulate", "north_america", "--out", str(out), "--games", "2"),
            *("--players", "2", "--bots", "random", "--jobs", "1", "--records"),
            *("--set", "wagons=10", "--baseline", "off"),
        ],
    )
    assert result.exit_code == 0, result.output
    record = next((out / "records").glob("*.json")).read_text(encoding="utf-8")
    assert '"wagons": 10' in record


def test_docs_list_every_rule_set_field():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    start = text.index("## Rule-set fields")
    table = text[start : text.index("\n## ", start)]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M))
    assert documented == {f.name for f in fields(RuleSet)}
