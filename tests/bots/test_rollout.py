"""The search bot's playout policy: legal on every rule set and player count,
the same game whether its plans are made fresh or copied from a warmed player.
It reads the state, so it plays only sampled worlds (`SampledWorld`): dealt here
from a seed, as a search bot's own guesses would be."""

from __future__ import annotations

import pytest

from ttr_core.bots.rollout import RolloutPlayer, rollout_players
from ttr_core.bots.search import clearly_behind
from ttr_core.engine.actions import Claim, DrawTickets, KeepTickets
from ttr_core.engine.loop import SampledWorld, run
from ttr_maps import load_map


@pytest.mark.parametrize(
    ("map_id", "players"),
    [("north_america", 2), ("north_america", 5), ("europe", 3), ("europe", 5), ("iran", 4)],
)
def test_r6_r9_e1_e3_playouts_are_legal_whole_games(map_id: str, players: int) -> None:
    """`apply` checks every action the policy builds (R6-R12, E2-E4): whole games
    end, mostly by the final round (R14), with claims and tickets kept."""
    game_map = load_map(map_id)
    reasons = []
    for seed in range(6):
        state = SampledWorld(game_map, players, seed)
        run(state, rollout_players(state))
        assert state.is_over
        kinds = {type(action) for _, action in state.history}
        assert {Claim, KeepTickets} <= kinds
        reasons.append(state.end_reason)
    assert reasons.count("final round") >= 5


def test_r12_playouts_draw_tickets_when_their_plan_is_done() -> None:
    drew = 0
    for seed in range(10):
        state = SampledWorld(load_map("north_america"), 2, seed)
        run(state, rollout_players(state))
        drew += sum(isinstance(action, DrawTickets) for _, action in state.history)
    assert drew > 0


@pytest.mark.parametrize("map_id", ["north_america", "europe"])
def test_a_copied_player_plays_like_the_player_it_was_copied_from(map_id: str) -> None:
    """`bound_to` carries a plan made in the world into a copy of it: the copies
    play the game the original players play on in the original world. (A fresh
    player may choose another plan of the same cost: the plan is re-made only when
    a ticket is added or completed or a planned route lost, and among equally
    cheap plans the one made earlier stays, so fresh and warm players differ at
    some positions, as they did before play order: 6 of 30 seeds on Europe then,
    3 of 30 now.)"""
    game_map = load_map(map_id)
    for seed in range(4):
        world = SampledWorld(game_map, 3, seed)
        warm = rollout_players(world)
        for _ in range(40):  # into the game, plans made along the way
            seat = world.to_move
            assert seat is not None
            world.apply(warm[seat].decide(world, seat), seat)
        copied_game, fresh_game = world.clone(), world.clone()
        run(copied_game, [player.bound_to(copied_game) for player in warm])
        run(world, warm)
        assert copied_game.history == world.history
        run(fresh_game, rollout_players(fresh_game))  # fresh players finish the game too
        assert fresh_game.is_over


def test_a_copy_does_not_change_the_original_player() -> None:
    world = SampledWorld(load_map("north_america"), 2, 1)
    player = RolloutPlayer(world, 0)
    plan = player.plan()
    twin = player.bound_to(world.clone())
    run(twin.state, [twin, RolloutPlayer(twin.state, 1)])
    assert player.state is world and player.plan() is plan


def test_clearly_behind_weighs_paired_differences() -> None:
    leader = [10.0, 12.0, 9.0, 11.0]
    assert clearly_behind(leader, [x - 3 for x in leader], z=2.0)  # no noise, 3 behind
    assert not clearly_behind(leader, [x - 3 for x in leader], z=2.0, margin=3.0)
    noisy = [20.0, 0.0, 18.0, 2.0]  # 1.5 behind on average, with a wide spread
    assert not clearly_behind(leader, noisy, z=1.0)
    assert not clearly_behind(leader, leader, z=0.0)
    assert not clearly_behind([5.0], [1.0], z=1.0)  # one world says nothing of the spread


def test_r6_e2_a_playout_is_cut_at_its_turn_limit_and_scored_as_it_stands() -> None:
    """A loop no rule ends (E2 give-ups, never a pass for R6) cannot hold a search
    up: a playout stops at its players' `last_turn`, and the search scores the state
    as it stands (`outcome`) and counts the cut."""
    from ttr_core.bots.search import SearchBot, outcome

    world = SampledWorld(load_map("europe"), 4, 3)
    players = rollout_players(world)
    for player in players:
        player.last_turn = world.turns + 12
    state = world.clone()
    run(state, [player.bound_to(state) for player in players])
    assert not state.is_over and state.turns == world.turns + 12
    assert isinstance(outcome(state, 0), float)
    bot = SearchBot(1)
    first = world.legal_actions(world.to_move)[0]
    bot.playout(world, players, world.to_move, first)
    assert bot.stats.playouts == 1 and bot.stats.cut_playouts == 1
    # Untouched, the limit is far beyond any game: whole games end by the rules.
    assert rollout_players(world)[0].last_turn == world.turns + 10 * 4 * 45


@pytest.mark.slow
def test_e2_a_search_play_test_with_tunnel_give_up_loops_finishes() -> None:
    """The europe play-test that ran for ever before the turn limit (its playouts met
    a world where every seat gave its tunnel up turn after turn), in a process of its
    own with a time limit: it ends, and some playouts were cut."""
    import subprocess
    import sys

    script = (
        "from ttr_core.bots import make_bot\n"
        "from ttr_core.engine.loop import bot_seed, play_game\n"
        "from ttr_maps import load_map\n"
        "names = ['greedy', 'greedy', 'search:60', 'greedy']\n"
        "bots = [make_bot(n, bot_seed(102, s)) for s, n in enumerate(names)]\n"
        "state = play_game(load_map('europe'), bots, 102)\n"
        "print(state.is_over, bots[2].stats.cut_playouts)\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=600
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    over, cut = ran.stdout.split()
    assert over == "True" and int(cut) > 0
