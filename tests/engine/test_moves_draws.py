"""R7, R8, D2, D3: drawing train cards (`ttr_core.engine.moves.draws`) and the
piles behind them (`ttr_core.engine.cards`)."""

from __future__ import annotations

from engine_positions import (
    assert_cards_conserved,
    assert_illegal,
    hand_everything_to,
    play,
    started,
    tiny_map,
)

from ttr_core.engine.actions import DrawDeck, DrawMarket
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.positions import arrange, set_market, stack_deck


def test_r7_face_up_locomotive_as_first_card_ends_the_turn():
    state = started(tiny_map())
    seat = state.current
    set_market(state, ["loco", "red", "red", "blue", "green"])
    locos = state.hands[seat][LOCO]
    play(state, "draw market 0")
    assert state.hands[seat][LOCO] == locos + 1
    assert state.current != seat
    assert state.cards.market[0] is not None  # replaced at once


def test_r7_face_up_locomotive_cannot_be_the_second_card():
    state = started(tiny_map())
    set_market(state, ["red", "loco", "blue", "green", "white"])
    play(state, "draw market 0")
    set_market(state, ["red", "loco", "blue", "green", "white"])
    assert DrawMarket(1) not in state.legal_actions()
    assert_illegal(state, "draw market 1", "R7")
    assert_illegal(state, "tickets", "R7")


def test_r7_blind_locomotive_has_no_restriction():
    state = started(tiny_map())
    seat = state.current
    set_market(state, ["red", "red", "blue", "green", "white"])
    stack_deck(state, ["loco", "loco"])
    locos = state.hands[seat][LOCO]
    play(state, "draw deck")
    assert state.current == seat  # a blind locomotive does not end the turn
    play(state, "draw deck")
    assert state.hands[seat][LOCO] == locos + 2
    assert state.current != seat


def test_r7_taken_face_up_card_is_replaced_from_the_deck():
    state = started(tiny_map())
    set_market(state, ["red", "red", "blue", "green", "white"])
    stack_deck(state, ["pink"])
    play(state, "draw market 2")
    assert state.cards.market[2] == CARD_INDEX["pink"]


def test_r8_three_face_up_locomotives_reset_the_market():
    state = started(tiny_map())
    set_market(state, ["loco", "loco", "red", "blue", "green"])
    stack_deck(state, ["loco", "red", "red", "red", "red", "red"])
    discards = len(state.cards.discard)
    play(state, "draw market 2")  # the replacement is a third locomotive
    assert state.cards.market.count(LOCO) < 3
    assert len(state.cards.discard) == discards + 5
    assert_cards_conserved(state)


def test_d2_market_reset_loop_that_cannot_be_broken_stops():
    state = started(tiny_map())
    seat = state.current
    # Everything but 2 non-locomotives and the locomotives sits in one hand.
    piles = state.cards
    pool = piles.deck + piles.discard + [c for c in piles.market if c is not None]
    for card in (LOCO, LOCO, LOCO):
        pool.remove(card)
    non_locos = [c for c in pool if c != LOCO][:2]
    for card in non_locos:
        pool.remove(card)
    hand = state.hands[seat][:]
    for card in pool:
        hand[card] += 1
    market = [LOCO, LOCO, LOCO, None, None]
    arrange(state, hands={seat: hand}, deck=non_locos, discard=[], market=market)
    state.cards.refill_market()  # must not loop forever
    assert state.cards.market.count(LOCO) == 3
    assert_cards_conserved(state)


def test_r8_discards_are_shuffled_into_a_new_deck_when_it_runs_out():
    state = started(tiny_map())
    seat = state.current
    deck = state.cards.deck
    arrange(state, deck=deck[-1:], discard=state.cards.discard + deck[:-1])
    play(state, "draw deck")
    assert state.cards.deck  # the discards became the new deck
    assert state.cards.discard == []
    play(state, "draw deck")
    assert sum(state.hands[seat]) == 4 + 2
    assert_cards_conserved(state)


def test_d3_no_card_draw_when_deck_discards_and_market_are_empty():
    state = started(tiny_map())
    hand_everything_to(state, 1 - state.current)
    actions = state.legal_actions()
    assert DrawDeck() not in actions
    assert not any(isinstance(a, DrawMarket) for a in actions)
    assert_illegal(state, "draw deck", "D3")
    assert_illegal(state, "draw market 0", "D3")


def test_d3_turn_ends_after_one_card_when_no_second_card_exists():
    state = started(tiny_map())
    seat = state.current
    # Deck and discards empty; the market holds one red and locomotives only.
    hand_everything_to(state, 1 - seat, red=1, loco=2)
    assert state.cards.market == [CARD_INDEX["red"], LOCO, LOCO, None, None]
    play(state, "draw market 0")
    assert state.current != seat
    assert_cards_conserved(state)


def test_r7_d3_second_card_choices_leave_out_face_up_locomotives():
    state = started(tiny_map())
    set_market(state, ["red", "loco", "blue", "loco", "white"])
    play(state, "draw deck")
    assert [str(a) for a in state.legal_actions()] == [
        "draw deck",
        "draw market 0",
        "draw market 2",
        "draw market 4",
    ]


def test_r7_d3_a_slot_past_the_market_or_an_empty_one_is_named():
    import pytest

    from ttr_core.engine.errors import IllegalAction, InvalidAction

    state = started(tiny_map())
    size = len(state.cards.market)
    with pytest.raises(InvalidAction, match=rf"^market slots are 0 to {size - 1}$"):
        state.apply(DrawMarket(size), state.current)
    state.cards.market[2] = None
    with pytest.raises(IllegalAction, match=r"^D3: market slot 2 is empty$"):
        state.apply(DrawMarket(2), state.current)


# ------------------------------------------------------- P1 (the nordic rule set)
def test_p1_a_face_up_locomotive_taken_first_does_not_end_the_turn():
    state = started(tiny_map(rules="nordic"))
    seat = state.current
    set_market(state, ["loco", "red", "red", "blue", "green"])
    play(state, "draw market 0")
    assert state.current == seat  # a second card follows
    assert DrawMarket(1) in state.legal_actions()


def test_p1_a_face_up_locomotive_may_be_the_second_card():
    state = started(tiny_map(rules="nordic"))
    seat = state.current
    set_market(state, ["red", "loco", "blue", "green", "white"])
    play(state, "draw market 0")
    set_market(state, ["red", "loco", "blue", "green", "white"])
    assert set(state.legal_actions()) == {DrawDeck(), *(DrawMarket(s) for s in range(5))}
    locos = state.hands[seat][LOCO]
    play(state, "draw market 1")
    assert state.hands[seat][LOCO] == locos + 1
    assert state.current != seat
    assert_cards_conserved(state)


def test_p1_d3_a_market_of_locomotives_still_offers_a_second_card():
    """D3 ends a draw after one card only when no card at all can follow."""
    state = started(tiny_map(rules="nordic"))
    seat = state.current
    hand_everything_to(state, 1 - seat, loco=2, red=1)  # the market: loco, loco, red
    assert state.cards.market[:3] == [LOCO, LOCO, CARD_INDEX["red"]]
    play(state, "draw market 2")
    assert state.current == seat
    assert set(state.legal_actions()) == {DrawMarket(0), DrawMarket(1)}


def test_r7_base_rules_keep_the_face_up_locomotive_a_whole_draw():
    state = started(tiny_map())
    assert state.rule_set.face_up_locomotive_ends_draw
    set_market(state, ["red", "loco", "blue", "green", "white"])
    play(state, "draw market 0")
    set_market(state, ["red", "loco", "blue", "green", "white"])
    assert_illegal(state, "draw market 1", "R7")
