"""Seeded random playouts checking the engine's invariants after every action:
cards, wagons and tickets accounted for; the listed actions apply, unlisted ones
raise; the state's list is the view's; every game ends with a valid result.
The long runs are marked `slow`."""

from __future__ import annotations

import pytest
from engine_positions import playout, tiny_map

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.loop import bot_seed, play_game

ENDINGS = ("final round", "all passed", "one player left")


#: 2 and 4 players in the default suite, 3 and 5 in the slow one.
SOME_SLOW = [2, 4, pytest.param(3, marks=pytest.mark.slow), pytest.param(5, marks=pytest.mark.slow)]


@pytest.mark.parametrize("players", SOME_SLOW)
def test_random_playouts_keep_invariants_on_north_america(north_america, players):
    """In the first game every listed action is applied (to a copy) at every step;
    in the others, at every fourth step, a sample of listed actions must apply and
    unlisted ones must raise."""
    for seed in range(4):
        state = playout(north_america, players, seed, check_every_action=seed == 0)
        assert state.end_reason in ENDINGS


@pytest.mark.parametrize("players", SOME_SLOW)
def test_europe_random_playouts_keep_invariants(europe, players):
    state = playout(europe, players, 0, check_every_action=True)
    assert state.end_reason in ENDINGS


@pytest.mark.parametrize(
    ("map_id", "players"), [("nordic_countries", 2), ("nordic_countries", 3), ("switzerland", 3)]
)
def test_p1_p4_random_playouts_keep_invariants_on_the_nordic_rule_set(map_id, players):
    """P1-P3 change what is listed and applied (face-up locomotives, locomotives only
    on tunnels and ferries, tickets leaving the game): listing and applying agree."""
    from ttr_maps import load_map

    state = playout(load_map(map_id), players, 0, check_every_action=True)
    assert state.end_reason in ENDINGS
    assert state.rule_set.name == "nordic"


def test_random_playouts_on_a_tiny_map_reach_both_endings():
    """Few routes, few wagons: games end by the final round (R14) or, when the
    board is full and nobody can act, by everyone passing (R6)."""
    reasons = set()
    for seed in range(30):
        game_map = tiny_map(settings={"wagons": 6 + seed % 8})
        state = playout(game_map, 2 + seed % 4, seed, check_every_action=seed < 3)
        reasons.add(state.end_reason)
    assert reasons == {"all passed", "final round"}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_games_terminate_with_valid_results(north_america, players):
    for seed in range(40):
        bots = [RandomBot(bot_seed(seed, s)) for s in range(players)]
        state = play_game(north_america, bots, seed)
        result = state.result()
        assert sorted(s.rank for s in result.seats)[0] == 1
        for seat in result.seats:
            assert seat.total == sum(seat.score.values())
            assert seat.wagons_left + sum(r.length for r in seat.routes) == 45


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_many_seeds(north_america, europe, players):
    for seed in range(4, 100):
        playout(north_america, players, 1000 + seed, check_every_action=seed < 25)
    for seed in range(1, 10):
        playout(europe, players, seed, check_every_action=False)
