"""The game state (`ttr_core.engine.state`): R1, and `apply`, which hands each
action to its move module and leaves the state unchanged when it refuses one."""

from __future__ import annotations

import pytest
from engine_positions import play, snapshot, started, tiny_map

from ttr_core.engine.actions import BuildStation, Claim, KeepTickets
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.state import TURN_ACTIONS, GameState


def test_r1_two_to_five_players():
    for players in (1, 6):
        with pytest.raises(ValueError, match="R1"):
            GameState(tiny_map(), players, seed=1)


def test_illegal_and_invalid_actions_leave_the_state_unchanged():
    state = started(tiny_map(), 2)
    before = snapshot(state)
    for text in ("claim A-B/1 with red:9", "draw market 9", "keep 0", "pass", "give up"):
        with pytest.raises((IllegalAction, InvalidAction)):
            play(state, text)
        assert snapshot(state) == before
    with pytest.raises(InvalidAction):
        state.apply(KeepTickets((0,)), seat=7)
    assert snapshot(state) == before


def test_r6_the_game_over_refuses_every_action():
    state = started(tiny_map(), 2)
    play(state, "resign", seat=0)
    assert state.is_over
    with pytest.raises(IllegalAction, match="R6: the game is over"):
        play(state, "draw deck", seat=1)


def test_every_turn_action_has_a_move():
    assert {Claim, BuildStation} <= set(TURN_ACTIONS)
    assert len(TURN_ACTIONS) == 6
