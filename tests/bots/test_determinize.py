"""Determinization: a legal game state consistent with one seat's view (R5, D6),
over thousands of positions reached by seeded play on every bundled map."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from engine_positions import check_invariants, europe_map
from testdata import table_sizes

from ttr_core.bots import make_bot
from ttr_core.bots.determinize import NotDecidingError, determinize
from ttr_core.engine.actions import Resign
from ttr_core.engine.loop import bot_seed
from ttr_core.engine.state import GameState
from ttr_maps import load_map
from ttr_maps.io.bundled import bundled_map_ids
from ttr_maps.model import Map


def deciding_positions(game_map: Map, players: int, seed: int) -> Iterator[GameState]:
    """Every position of a game where some seat decides (setup choices included),
    played by a mix of greedy and random bots so games reach their end."""
    names = ["greedy", "random", "one-step", "random", "greedy"][:players]
    bots = [make_bot(n, bot_seed(seed, s)) for s, n in enumerate(names)]
    state = GameState(game_map, players, seed)
    while not state.is_over:
        yield state
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)), seat)


def hidden(state: GameState, seat: int) -> tuple:
    others = [s for s in range(state.num_players) if s != seat]
    return (
        [state.hands[s] for s in others],
        [sorted(state.tickets[s]) for s in others],
        state.cards.deck,
        list(state.ticket_deck),
    )


def check_consistent(state: GameState, seat: int, rng: random.Random) -> GameState:
    view = state.view(seat)
    sampled = determinize(view, rng)
    check_invariants(sampled)  # R3 cards conserved; every ticket once; wagons
    # Every public fact and my own hand unchanged (the sample has no history: no log).
    assert sampled.view(seat) == view._replace(log=())
    assert sampled.legal_actions(seat) == state.legal_actions(seat)
    assert sampled.to_move == state.to_move or state.phase == "setup"
    assert sampled.final_queue is not None if state.final_queue is not None else True
    if state.final_queue is not None and sampled.final_queue is not None:
        assert sampled.final_queue == state.final_queue  # R14, D1: same seats still to play
    assert sampled.passed == state.passed  # R6: the same pass streak
    return sampled


@pytest.mark.parametrize("map_id", bundled_map_ids())
def test_r5_d6_determinized_states_are_legal_and_consistent_with_the_view(map_id: str) -> None:
    game_map = load_map(map_id)
    rng = random.Random(5)
    checked = differed = 0
    sizes = table_sizes(map_id)
    for players in sizes:
        for position in deciding_positions(game_map, players, seed=players):
            seats = (
                [d.seat for d in position.pending]
                if position.phase == "setup"
                else [position.to_move]
            )
            for seat in seats:
                sampled = check_consistent(position, seat, rng)
                checked += 1
                differed += hidden(sampled, seat) != hidden(position, seat)
    assert checked > 100 * len(sizes)  # Japan: 20 wagons make short games
    assert differed > 0.9 * checked  # the hidden part is really drawn, not copied


def test_e4_long_tickets_are_dealt_consistently_on_a_small_europe_map() -> None:
    """E4 with few tickets: at most one long ticket per seat, the rest out of the game."""
    rng = random.Random(2)
    checked = 0
    for seed in range(12):
        for position in deciding_positions(europe_map(), 3, seed):
            seat = position.to_move if position.phase != "setup" else position.pending[0].seat
            sampled = check_consistent(position, seat, rng)
            long = sampled.board.ticket_long
            for tickets in sampled.tickets:
                assert sum(long[t] for t in tickets) <= 1
            assert not any(long[t] for t in sampled.ticket_deck)
            checked += 1
    assert checked > 200


def test_determinized_games_play_to_their_end() -> None:
    """A sampled state is a working game: bots finish it from there."""
    game_map = load_map("europe")
    rng = random.Random(3)
    for index, position in enumerate(deciding_positions(game_map, 3, seed=8)):
        if index % 25:
            continue
        seat = position.to_move if position.phase != "setup" else position.pending[0].seat
        sampled = check_consistent(position, seat, rng)
        bots = [make_bot("greedy", s) for s in range(3)]
        while not sampled.is_over:
            mover = sampled.to_move
            assert mover is not None
            sampled.apply(bots[mover].act(sampled.view(mover)), mover)
        assert sampled.result().seats


def test_a_seat_with_nothing_to_decide_is_refused() -> None:
    state = GameState(load_map("north_america"), 2, 1)
    for seat in range(2):
        offered = state.decision_for(seat).offered
        state.apply(make_bot("greedy", seat).act(state.view(seat)), seat)
        assert offered
    waiting = 1 - state.to_move
    with pytest.raises(NotDecidingError):
        determinize(state.view(waiting), random.Random(0))
    state.apply(Resign(), waiting)
    with pytest.raises(NotDecidingError):
        determinize(state.view(waiting), random.Random(0))
