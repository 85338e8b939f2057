"""R3, R4, R12, D4, E4: dealing and destination tickets
(`ttr_core.engine.moves.tickets`, dealt by `GameState`)."""

from __future__ import annotations

import pytest
from engine_positions import (
    assert_cards_conserved,
    assert_illegal,
    check_invariants,
    europe_map,
    long_tickets,
    play,
    snapshot,
    started,
    tiny_map,
)

from ttr_core.engine.actions import DrawTickets, KeepTickets
from ttr_core.engine.errors import IllegalAction
from ttr_core.engine.positions import arrange
from ttr_core.engine.state import GameState


# ------------------------------------------------------------------ R3, R4
def test_r3_r4_setup_deals_cards_tickets_and_wagons():
    state = GameState(tiny_map(), 3, seed=5)
    assert_cards_conserved(state)
    assert [sum(h) for h in state.hands] == [4, 4, 4]
    assert state.wagons == [45, 45, 45]
    assert [len(state.decision_for(s).offered) for s in range(3)] == [3, 3, 3]
    assert sum(1 for c in state.cards.market if c is not None) == 5


def test_r4_wagons_come_from_map_settings():
    state = GameState(tiny_map(settings={"wagons": 30}), 2, seed=5)
    assert state.wagons == [30, 30]


def test_r4_keep_at_least_two_at_setup():
    state = GameState(tiny_map(), 2, seed=5)
    assert_illegal(state, "keep 1", "R4", seat=0)
    assert_illegal(state, "draw deck", "R4", seat=0)
    play(state, "keep 0,2", seat=0)
    assert len(state.tickets[0]) == 2


def test_r4_r12_a_ticket_cannot_be_kept_twice():
    state = GameState(tiny_map(), 2, seed=5)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="R4: each offered ticket can be kept once"):
        state.apply(KeepTickets((0, 0)), 0)
    assert snapshot(state) == before


def test_r4_choices_are_simultaneous_and_returns_go_under_the_deck_afterwards():
    state = GameState(tiny_map(), 2, seed=5)
    deck_before = list(state.ticket_deck)
    offered0 = state.decision_for(0).offered
    offered1 = state.decision_for(1).offered
    play(state, "keep 0,1", seat=0)
    # Seat 1 has not chosen: nothing returned yet, and seat 1 cannot see a count.
    assert list(state.ticket_deck) == deck_before
    assert state.view(1).ticket_counts[0] == 0
    assert state.phase == "setup"
    play(state, "keep 1,2", seat=1)
    assert state.phase == "playing"
    assert list(state.ticket_deck) == [*deck_before, offered0[2], offered1[0]]
    assert state.view(1).ticket_counts == (2, 2)


def test_r4_seats_may_choose_in_any_order():
    state = GameState(tiny_map(), 3, seed=5)
    play(state, "keep 0,1,2", seat=2)
    play(state, "keep 0,1", seat=0)
    assert state.phase == "setup"
    play(state, "keep 0,1", seat=1)
    assert state.phase == "playing"


def test_r4_first_player_is_chosen_by_the_seeded_random_source():
    firsts = {GameState(tiny_map(), 4, seed=s).first_player for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GameState(tiny_map(), 4, seed=9).first_player == GameState(tiny_map(), 4, 9).first_player


def test_r4_a_map_without_tickets_starts_at_once():
    state = GameState(tiny_map(tickets=[]), 2, seed=5)
    assert state.phase == "playing" and not state.pending
    assert state.current == state.first_player


# ----------------------------------------------------------------- R12, D4
def test_r12_draw_three_tickets_keep_at_least_one_return_the_rest_under_the_deck():
    state = started(tiny_map())
    seat = state.current
    top = list(state.ticket_deck)[:3]
    play(state, "tickets")
    assert state.decision_for(seat).offered == tuple(top)
    assert_illegal(state, "draw deck", "R12")
    before = len(state.tickets[seat])
    play(state, "keep 1")
    assert state.tickets[seat][before:] == [top[1]]
    assert list(state.ticket_deck)[-2:] == [top[0], top[2]]
    assert state.current != seat


def test_r12_fewer_than_three_tickets_left():
    state = started(tiny_map())
    other = 1 - state.current
    deck = list(state.ticket_deck)
    arrange(state, ticket_deck=deck[-2:], tickets={other: state.tickets[other] + deck[:-2]})
    play(state, "tickets")
    assert state.decision_for(state.current).offered == tuple(deck[-2:])
    assert {str(a) for a in state.legal_actions()} == {"keep 0", "keep 1", "keep 0,1"}


def test_d4_drawing_tickets_is_impossible_when_the_ticket_deck_is_empty():
    state = started(tiny_map())
    other = 1 - state.current
    arrange(state, ticket_deck=[], tickets={other: state.tickets[other] + [*state.ticket_deck]})
    assert DrawTickets() not in state.legal_actions()
    assert_illegal(state, "tickets", "D4")


# ----------------------------------------------------------------------- E4
def test_e4_setup_deals_one_long_and_three_regular_tickets():
    state = GameState(europe_map(), 2, seed=3)
    for seat in range(2):
        offered = state.decision_for(seat).offered
        assert len(offered) == 4
        assert [t in long_tickets(state) for t in offered] == [False, False, False, True]
    # The long ticket not dealt leaves the game at once.
    assert len(state.out_of_game_tickets) == 1
    assert not long_tickets(state) & set(state.ticket_deck)


def test_e4_keep_at_least_two_of_four_and_returned_long_tickets_leave_the_game():
    state = GameState(europe_map(), 2, seed=3)
    assert_illegal(state, "keep 3", "R4", seat=0)
    long0 = state.decision_for(0).offered[3]
    regular1 = state.decision_for(1).offered[:3]
    play(state, "keep 0,1", seat=0)  # returns a regular ticket and the long one
    play(state, "keep 2,3", seat=1)  # keeps its long ticket
    assert long0 in state.out_of_game_tickets
    assert list(state.ticket_deck)[-2:] == list(regular1[:2])
    assert not long_tickets(state) & set(state.ticket_deck)  # long tickets are never drawn later
    check_invariants(state)


def test_e4_base_rules_on_a_map_with_long_tickets_use_one_deck():
    state = GameState(europe_map(), 2, seed=3, rules="base")
    assert [len(state.decision_for(s).offered) for s in range(2)] == [3, 3]
    assert state.out_of_game_tickets == []


def test_r4_an_index_past_the_offer_names_the_offered_range():
    state = GameState(tiny_map(), 2, seed=5)
    offered = len(state.decision_for(0).offered)
    with pytest.raises(IllegalAction, match=rf"^R4: you were offered tickets 0 to {offered - 1}$"):
        state.apply(KeepTickets((0, offered)), 0)


# ------------------------------------------------------------------------- P3
def test_p3_tickets_not_kept_at_setup_leave_the_game():
    state = GameState(tiny_map(rules="nordic"), 2, seed=4)
    assert state.rule_set.setup_tickets == 5
    deck = len(state.ticket_deck)
    offered = [state.decision_for(s).offered for s in (0, 1)]
    play(state, "keep 0,1", 0)
    play(state, "keep 0,1,2", 1)
    assert len(state.ticket_deck) == deck  # nothing went back under the deck
    assert sorted(state.out_of_game_tickets) == sorted([*offered[0][2:], *offered[1][3:]])
    check_invariants(state)


def test_p3_tickets_not_kept_after_a_draw_leave_the_game():
    state = started(tiny_map(rules="nordic"))
    top = list(state.ticket_deck)[:3]
    before = list(state.ticket_deck)[3:]
    play(state, "tickets")
    play(state, "keep 1")
    assert list(state.ticket_deck) == before
    assert [top[0], top[2]] == state.out_of_game_tickets[-2:]
    check_invariants(state)


def test_p3_legendary_asia_sends_away_only_the_setup_returns():
    game_map = tiny_map(settings={"setup_returns_leave": True})
    state = GameState(game_map, 2, seed=4)
    play(state, "keep 0,1", 0)
    play(state, "keep 0,1", 1)
    assert len(state.out_of_game_tickets) == 2
    top = list(state.ticket_deck)[:3]
    play(state, "tickets")
    play(state, "keep 0")
    assert list(state.ticket_deck)[-2:] == top[1:]  # R12: under the deck
