"""Rules as data (`ttr_maps.rules`), the one game loop (`ttr_core.engine.loop`) and the
public API of `ttr_core`."""

from __future__ import annotations

import random
import re
from dataclasses import fields

import pytest
from engine_positions import started, tiny_map
from testdata import ROOT
from typer.testing import CliRunner

from ttr_core.bots.random_bot import RandomBot
from ttr_core.cli import app
from ttr_core.engine.actions import Action, Resign
from ttr_core.engine.loop import StopGame, bot_seed, play_game, run
from ttr_core.engine.record import dump_record, record_of
from ttr_core.engine.state import GameState
from ttr_maps import load_map
from ttr_maps.rules import BASE, EUROPE, RuleSet, RuleSetError, parse_overrides, rules_for

runner = CliRunner()


@pytest.fixture(scope="module")
def north_america():
    return load_map("north_america")


# ------------------------------------------------------------- rules as data
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
    assert len(state.market) == 6
    # A rule-set name given to the game still takes the map's settings.
    assert rules_for(game_map, "europe").wagons == 20


def test_a_changed_points_table_scores_claims_with_it():
    rules = BASE.with_overrides({"route_points": "1,3,6,10,15,21,28,36"})
    state = started(tiny_map(), seed=2)
    twin = GameState(state.map, 2, seed=2, rules=rules)
    assert twin.rule_set.route_score(3) == 6
    twin._take_route(0, twin.board.route_index["B-C"])
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


def test_cli_simulate_plays_with_the_changed_rules(tmp_path):
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            *("simulate", "north_america", "--out", str(out), "--games", "2"),
            *("--players", "2", "--bots", "random", "--jobs", "1", "--records"),
            *("--set", "wagons=10"),
        ],
    )
    assert result.exit_code == 0, result.output
    record = next((out / "records").glob("*.json")).read_text(encoding="utf-8")
    assert '"wagons": 10' in record


# ------------------------------------------------------------ the game loop
def test_the_playout_path_plays_the_same_game_as_views(north_america):
    for players, seed in ((2, 5), (4, 6)):
        records = []
        for playout in (True, False):
            bots = [RandomBot(bot_seed(seed, s)) for s in range(players)]
            state = run(GameState(north_america, players, seed), bots, playout=playout)
            records.append(dump_record(record_of(state, ["random"] * players)))
        assert records[0] == records[1]


def test_d5_a_plain_random_loop_over_legal_actions_never_resigns(north_america):
    rng = random.Random(3)
    state = GameState(north_america, 3, seed=3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert all(status == "active" for status in state.status)
    assert state.end_reason in ("final round", "all passed")


def test_d5_resign_is_legal_on_request_only(north_america):
    state = GameState(north_america, 2, seed=1)
    for seat in range(2):
        assert not any(isinstance(a, Resign) for a in state.legal_actions(seat))
        assert state.legal_actions(seat, include_resign=True)[-1] == Resign()
        assert state.view(seat).legal_actions(include_resign=True)[-1] == Resign()


def test_loop_calls_on_step_after_every_action_and_stops_on_request(north_america):
    steps: list[tuple[int, Action]] = []

    class Quitter:
        def act(self, view):
            if len(steps) >= 7:
                raise StopGame
            return view.legal_actions()[0]

    state = run(
        GameState(north_america, 2, seed=1),
        [Quitter(), Quitter()],
        on_step=lambda s, seat, action: steps.append((seat, action)),
    )
    assert not state.is_over
    assert steps == state.history and len(steps) == 7


def test_play_game_runs_through_the_loop_with_rules(north_america):
    bots = [RandomBot(1), RandomBot(2)]
    state = play_game(north_america, bots, 4, BASE.with_overrides({"wagons": 15}))
    assert state.is_over and state.rule_set.wagons == 15


# ---------------------------------------------------------------- the API
def test_public_api_names_exist_and_are_listed():
    import ttr_core
    import ttr_maps

    for module in (ttr_core, ttr_maps):
        for name in module.__all__:
            assert getattr(module, name) is not None, name
    assert ttr_core.GameState is GameState and ttr_core.BASE is BASE
    assert sorted(ttr_core.__all__) == sorted(ttr_core._WHERE)


def test_docs_list_every_rule_set_field():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    start = text.index("## Rule-set fields")
    table = text[start : text.index("\n## ", start)]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M))
    assert documented == {f.name for f in fields(RuleSet)}


def test_importing_ttr_core_imports_no_engine_module():
    import subprocess
    import sys

    code = "import sys, ttr_core; print(sorted(m for m in sys.modules if m.startswith('ttr_')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "['ttr_core']"


def test_readme_library_example_runs():
    import doctest

    outcome = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert outcome.attempted >= 6 and outcome.failed == 0
