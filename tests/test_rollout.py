"""The search bot's playout policy: legal on every rule set and player count,
the same game whether its plans are made fresh or copied from a warmed player."""

from __future__ import annotations

import pytest

from ttr_core.actions import Claim, DrawTickets, KeepTickets
from ttr_core.bots.rollout import RolloutPlayer, projected_totals, rollout_players
from ttr_core.bots.search import clearly_behind, stop_after
from ttr_core.loop import run
from ttr_core.state import GameState
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
        state = GameState(game_map, players, seed)
        run(state, rollout_players(state))
        assert state.is_over
        kinds = {type(action) for _, action in state.history}
        assert {Claim, KeepTickets} <= kinds
        reasons.append(state.end_reason)
    assert reasons.count("final round") >= 5


def test_playouts_draw_tickets_when_their_plan_is_done() -> None:
    drew = 0
    for seed in range(10):
        state = GameState(load_map("north_america"), 2, seed)
        run(state, rollout_players(state))
        drew += sum(isinstance(action, DrawTickets) for _, action in state.history)
    assert drew > 0


@pytest.mark.parametrize("map_id", ["north_america", "europe"])
def test_a_copied_player_plays_like_a_fresh_one(map_id: str) -> None:
    """`bound_to` carries a plan made in the world into a copy of it: the game
    played is the one fresh players play (the plan is only a cache)."""
    game_map = load_map(map_id)
    for seed in range(4):
        world = GameState(game_map, 3, seed)
        warm = rollout_players(world)
        for _ in range(40):  # into the game, plans made along the way
            seat = world.to_move
            assert seat is not None
            world.apply(warm[seat].decide(world, seat), seat)
        fresh_game, copied_game = world.clone(), world.clone()
        run(fresh_game, rollout_players(fresh_game))
        run(copied_game, [player.bound_to(copied_game) for player in warm])
        assert fresh_game.history == copied_game.history


def test_a_copy_does_not_change_the_original_player() -> None:
    world = GameState(load_map("north_america"), 2, 1)
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


def test_r15_projection_of_a_cut_playout_foretells_the_winner() -> None:
    """Playouts cut short are judged by `projected_totals` (R10, R13, R15): cut a
    third of the way in, the projection names the final winner far more often
    than a coin would."""
    game_map = load_map("north_america")
    agree = games = 0
    for seed in range(40):
        state = GameState(game_map, 2, seed)
        players = rollout_players(state)
        run(state, players, on_step=stop_after(50))
        assert not state.is_over and len(state.history) == 50
        projected = projected_totals(state, players)
        run(state, players)
        final = [seat.total for seat in state.result().seats]
        if final[0] != final[1] and projected[0] != projected[1]:
            games += 1
            agree += (final[0] > final[1]) == (projected[0] > projected[1])
    assert games >= 30
    assert agree / games >= 0.7


def test_r15_a_lost_ticket_is_projected_as_a_loss() -> None:
    """A ticket whose cities can no longer be joined counts minus its value (R15)."""
    game_map = load_map("north_america")
    state = GameState(game_map, 2, 3)
    run(state, rollout_players(state), on_step=stop_after(20))
    before = projected_totals(state, rollout_players(state))[0]
    board = state.board

    def touches(city: int, route: int) -> bool:
        return city in (board.route_a[route], board.route_b[route])

    ticket, city = next(
        (t, c)
        for t in state.tickets[0]
        for c in (board.ticket_a[t], board.ticket_b[t])
        if not any(state.owner[r] == 0 and touches(c, r) for r in range(board.num_routes))
    )
    assert not state.is_ticket_complete(0, ticket)
    for route in range(board.num_routes):  # every free route into one of its cities taken
        if touches(city, route) and state.owner[route] == -1:
            state.owner[route] = 1
    after = projected_totals(state, rollout_players(state))[0]
    assert after <= before - board.ticket_value[ticket]
