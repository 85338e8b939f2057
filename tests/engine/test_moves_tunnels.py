"""E2: tunnels (`ttr_core.engine.moves.tunnels`), with E3 ferries that are tunnels
and D5 games that end while a tunnel is being paid."""

from __future__ import annotations

import pytest
from engine_positions import assert_cards_conserved, assert_illegal, europe_game, play

from ttr_core.engine.actions import GiveUpTunnel, Payment, PayTunnel, Remove
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.decisions import TunnelPayment
from ttr_core.engine.errors import IllegalAction
from ttr_core.engine.positions import give_hand, stack_deck


def test_e2_tunnel_without_matching_cards_is_claimed_at_once():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, pink=3)
    stack_deck(state, ["red", "blue", "green"])
    discards = len(state.cards.discard)
    play(state, "claim B-C with pink:3")
    assert state.owner[state.board.route_index["B-C"]] == seat
    assert len(state.cards.discard) == discards + 3 + 3  # the payment and the turned cards
    assert state.current != seat
    assert state.tunnel_reveals[len(state.history) - 1] == tuple(
        CARD_INDEX[c] for c in ("red", "blue", "green")
    )
    assert_cards_conserved(state)


def test_e2_each_matching_card_or_locomotive_costs_one_more():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, pink=4, loco=2)
    stack_deck(state, ["pink", "loco", "red"])
    play(state, "claim B-C with pink:3")
    decision = state.decision_for(seat)
    assert isinstance(decision, TunnelPayment) and decision.extra == 2
    # The turned-up cards lie face up: every seat sees the tunnel; mine is my decision.
    assert state.view(1 - seat).tunnel == decision and state.view(1 - seat).decision is None
    assert state.view(seat).decision == decision == state.view(seat).tunnel
    listed = {str(a) for a in state.legal_actions(seat)}
    assert listed == {"pay pink:1 loco:1", "pay loco:2", "give up"}
    assert_illegal(state, "pay pink:2", "E2")  # holds only one more pink
    assert_cards_conserved(state)
    play(state, "pay pink:1 loco:1")
    assert state.owner[state.board.route_index["B-C"]] == seat
    assert state.hands[seat][CARD_INDEX["pink"]] == 0
    assert state.hands[seat][LOCO] == 1
    assert_cards_conserved(state)


def test_e2_giving_up_takes_the_cards_back_and_ends_the_turn():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, yellow=4)
    stack_deck(state, ["yellow", "yellow", "white"])
    play(state, "claim A-C with yellow:4")
    assert [str(a) for a in state.legal_actions(seat)] == ["give up"]
    play(state, "give up")
    assert state.hands[seat][CARD_INDEX["yellow"]] == 4
    assert state.owner[state.board.route_index["A-C"]] == -1
    assert state.current != seat
    assert CARD_INDEX["white"] in state.cards.discard  # the turned cards are discarded
    assert_cards_conserved(state)


def test_e2_locomotives_only_payment_counts_only_locomotives():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, loco=5)
    stack_deck(state, ["red", "loco", "yellow"])
    play(state, "claim B-C with loco:3")
    decision = state.decision_for(seat)
    assert decision.extra == 1  # only the locomotive counts
    assert [str(a) for a in state.legal_actions(seat)] == ["pay loco:1", "give up"]
    assert_illegal(state, "pay red:1", "E2")
    play(state, "pay loco:1")
    assert state.hands[seat][LOCO] == 1


def test_e2_the_pending_tunnel_must_be_settled_first():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, pink=4)
    stack_deck(state, ["pink", "red", "red"])
    play(state, "claim B-C with pink:3")
    assert_illegal(state, "draw deck", "E2")
    assert state.apply(GiveUpTunnel()) is None


def test_e2_e3_ferry_that_is_also_a_tunnel():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, black=3, loco=2)
    assert_illegal(state, "claim B-E with black:3", "E3")
    stack_deck(state, ["black", "white", "white"])
    play(state, "claim B-E with black:2 loco:1")
    assert state.decision_for(seat).extra == 1
    assert PayTunnel(Payment("black", 1, 0)) in state.legal_actions(seat)
    play(state, "pay black:1")
    assert state.owner[state.board.route_index["B-E"]] == seat


def test_e2_d5_resigning_during_a_tunnel_discards_the_turned_cards():
    state = europe_game(3)
    seat = state.current
    give_hand(state, seat, pink=4)
    stack_deck(state, ["pink", "red", "red"])
    play(state, "claim B-C with pink:3")
    play(state, "resign", seat=seat)
    assert state.decision_for(seat) is None
    assert_cards_conserved(state)


def test_e2_d5_game_ending_during_a_tunnel_payment_discards_the_turned_cards():
    state = europe_game(3)
    seat = state.current
    give_hand(state, seat, pink=4)
    stack_deck(state, ["pink", "red", "red"])
    play(state, "claim B-C with pink:3")
    assert state.decision_for(seat) is not None  # the tunnel asks for one more card
    others = [s for s in range(3) if s != seat]
    state.apply(Remove(others[0]))
    state.apply(Remove(others[1]))  # one player left: the game ends (D5)
    assert state.is_over and not state.pending
    assert_cards_conserved(state)  # the 3 turned-up cards are in the discards


def test_e2_the_extra_cards_are_never_fewer_than_none_of_the_colour():
    """With no card of the colour left, the only payments are all locomotives:
    never a negative count of coloured cards (the listing's range stops at 0)."""
    from ttr_core.engine.moves.tunnels import tunnel_payments

    hand = [0] * 9
    hand[CARD_INDEX["red"]], hand[LOCO] = 2, 3
    listed = tunnel_payments(hand, Payment("red", 2, 0), 1)
    assert listed == [PayTunnel(Payment("red", 0, 1)), GiveUpTunnel()]


def test_e2_a_wrong_payment_after_locomotives_only_says_locomotives():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, loco=5)
    stack_deck(state, ["red", "loco", "yellow"])
    play(state, "claim B-C with loco:3")
    with pytest.raises(IllegalAction, match=r"^E2: pay exactly 1 more locomotives from your hand$"):
        state.apply(PayTunnel(Payment(None, 0, 2)), seat)
