"""R6, D5: passing, leaving the game and the host's timeout
(`ttr_core.engine.moves.turns`), and what leaving does to decisions still pending (R4, R12, E4)."""

from __future__ import annotations

from engine_positions import (
    assert_illegal,
    europe_game,
    europe_map,
    long_tickets,
    play,
    stall,
    started,
    tiny_map,
)

from ttr_core.engine.actions import KeepTickets, Pass, Remove, Resign, TimeOut, parse_action
from ttr_core.engine.cards import CARD_INDEX
from ttr_core.engine.positions import give_hand, stack_deck
from ttr_core.engine.state import GameState


# ------------------------------------------------------------------------- R6
def test_r6_only_the_seat_to_move_may_act():
    state = started(tiny_map())
    other = 1 - state.current
    assert_illegal(state, "draw deck", "R6", seat=other)


def test_r6_pass_is_legal_only_when_nothing_else_is():
    state = started(tiny_map())
    assert Pass() not in state.legal_actions()
    assert_illegal(state, "pass", "R6")


def test_r6_all_active_players_passing_in_a_row_ends_the_game():
    state = started(tiny_map(), 3)
    stall(state)
    assert state.legal_actions() == [Pass()]
    assert state.legal_actions(include_resign=True) == [Pass(), Resign()]
    play(state, "pass")
    play(state, "pass")
    assert not state.is_over
    play(state, "pass")
    assert state.is_over
    assert state.end_reason == "all passed"


def test_r6_any_other_turn_breaks_the_pass_streak():
    state = started(tiny_map(), 2)
    stall(state)
    play(state, "pass")
    assert state.passed == {1 - state.current}
    play(state, "resign", seat=state.current)  # one player left
    assert state.end_reason == "one player left"


# ------------------------------------------------------------------------- D5
def test_d5_resign_hand_to_discards_routes_stay_ranked_last_no_bonus():
    state = started(tiny_map(), 3)
    seat = state.current
    give_hand(state, seat, black=6, red=1)
    play(state, "claim B-E with black:6")
    discards = len(state.cards.discard)
    play(state, "resign", seat=seat)
    assert state.status[seat] == "resigned"
    assert sum(state.hands[seat]) == 0
    assert len(state.cards.discard) == discards + 1
    assert state.owner[state.board.route_index["B-E"]] == seat
    assert state.legal_actions(seat) == []
    assert_illegal(state, "draw deck", "D5", seat=seat)
    play(state, "resign", seat=state.current)  # one active player left: game over
    assert state.is_over and state.end_reason == "one player left"
    result = state.result()
    assert result.seats[seat].longest_path == 6
    assert result.seats[seat].score["longest_path_bonus"] == 0
    survivor = next(s for s in result.seats if s.status == "active")
    assert survivor.rank == 1
    assert {s.rank for s in result.seats if s.status != "active"} <= {2, 3}


def test_d5_host_removes_a_player_at_any_moment():
    state = GameState(tiny_map(), 3, seed=2)  # even during setup
    state.apply(Remove(1))
    assert state.status[1] == "removed"
    assert state.decision_for(1) is None
    play(state, "keep 0,1", seat=0)
    play(state, "keep 0,1", seat=2)
    assert state.phase == "playing"
    assert state.history[0] == (None, Remove(1))


def test_d5_resign_while_choosing_tickets_returns_them():
    state = started(tiny_map(), 3)
    seat = state.current
    play(state, "tickets")
    offered = state.decision_for(seat).offered
    play(state, "resign", seat=seat)
    assert list(state.ticket_deck)[-len(offered) :] == list(offered)
    assert state.current != seat


def test_r12_d5_game_ending_during_a_ticket_choice_returns_the_offered_tickets():
    state = europe_game(3)
    seat = state.current
    total = len(state.map.tickets)
    play(state, "tickets")
    assert len(state.decision_for(seat).offered) == 3
    for other in (s for s in range(3) if s != seat):
        state.apply(Remove(other))
    assert state.is_over
    held = sum(len(t) for t in state.tickets)
    assert held + len(state.ticket_deck) + len(state.out_of_game_tickets) == total


def test_r4_e4_game_ending_during_setup_returns_every_offered_and_held_ticket():
    state = GameState(europe_map(), 3, seed=2)
    state.apply(KeepTickets((0, 1)), 0)  # its returns are held until setup ends (R4)
    state.apply(Remove(1))
    state.apply(Remove(2))
    assert state.is_over
    held = sum(len(t) for t in state.tickets)
    assert held + len(state.ticket_deck) + len(state.out_of_game_tickets) == len(state.map.tickets)
    # E4: long tickets returned or never dealt leave the game, never the regular deck.
    assert not long_tickets(state) & set(state.ticket_deck)


def test_d5_a_seat_that_left_cannot_be_removed_again():
    state = started(tiny_map(), 3)
    state.apply(Remove(2))
    assert_illegal(state, "remove 2", "D5")


def test_d5_a_timeout_ends_the_turn_and_settles_what_was_open():
    """The host's `timeout N` (a table's turn timer): the seat's turn ends with
    nothing more taken: the fewest tickets kept, the first offered (R4, R12), no
    second card (D3), a tunnel given up (E2); it is not a pass of R6."""
    state = GameState(tiny_map(), 2, seed=3)
    offered = state.decision_for(0).offered
    state.apply(TimeOut(0))  # during setup: the fewest allowed, the first offered
    assert state.tickets[0] == list(offered[:2]) and state.decision_for(0) is None
    assert state.history[-1] == (None, TimeOut(0))
    play(state, "keep 0,1,2", seat=1)
    seat = state.current
    state.apply(TimeOut(seat))  # a turn not begun: nothing taken, the turn passes
    assert state.current != seat and not state.passed and state.phase == "playing"
    seat = state.current
    cards = sum(state.hands[seat])
    play(state, "draw deck")
    state.apply(TimeOut(seat))  # between the two cards of a draw: one card only
    assert sum(state.hands[seat]) == cards + 1 and state.current != seat
    seat = state.current
    play(state, "tickets")
    drawn = state.decision_for(seat).offered
    state.apply(TimeOut(seat))
    assert state.tickets[seat][-1:] == [drawn[0]] and state.current != seat
    assert_illegal(state, f"timeout {seat}", "D5")  # not its turn: nothing to time out
    assert str(parse_action("timeout 1")) == "timeout 1"

    europe = europe_game()
    seat = europe.current
    give_hand(europe, seat, yellow=4)
    stack_deck(europe, ["yellow", "yellow", "white"])
    play(europe, "claim A-C with yellow:4")
    europe.apply(TimeOut(seat))  # E2: the tunnel given up, the cards back in the hand
    assert europe.hands[seat][CARD_INDEX["yellow"]] == 4
    assert europe.owner[europe.board.route_index["A-C"]] == -1 and europe.current != seat
