"""The public builder of positions (`ttr_core.engine.positions`): every card and
ticket stays accounted for, derived data follows, the position plays on."""

from __future__ import annotations

import pytest
from engine_positions import check_invariants, play, started, tiny_map

from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.positions import (
    PositionError,
    arrange,
    give_hand,
    give_tickets,
    set_market,
    stack_deck,
    ticket_index,
)
from ttr_core.engine.state import GameState


def test_r3_give_hand_keeps_the_110_cards_and_puts_the_old_hand_on_the_deck():
    state = started(tiny_map())
    old = state.hands[0][:]
    deck_size = len(state.cards.deck)
    give_hand(state, 0, red=2, loco=1)
    assert state.hands[0][CARD_INDEX["red"]] == 2 and state.hands[0][LOCO] == 1
    assert sum(state.hands[0]) == 3
    assert len(state.cards.deck) == deck_size + sum(old) - 3
    check_invariants(state)


def test_set_market_and_stack_deck_take_their_cards_from_the_piles():
    state = started(tiny_map())
    set_market(state, ["loco", None, "red", "red", "blue"])
    stack_deck(state, ["pink", "green"])
    assert state.cards.market == [LOCO, None, CARD_INDEX["red"], CARD_INDEX["red"], 4]
    assert state.cards.deck[-2:] == [CARD_INDEX["green"], CARD_INDEX["pink"]]  # top last
    check_invariants(state)


def test_give_tickets_takes_them_from_the_deck_or_another_seat():
    state = started(tiny_map())
    theirs = state.tickets[1][0]
    from_deck = state.ticket_deck[0]
    mine = state.tickets[0][:]
    give_tickets(state, 0, [theirs, from_deck])
    assert state.tickets[0] == [theirs, from_deck]
    assert theirs not in state.tickets[1]
    assert list(state.ticket_deck)[-len(mine) :] == mine  # mine went under the deck
    check_invariants(state)


def test_r3_a_lost_or_doubled_card_is_refused():
    state = started(tiny_map())
    with pytest.raises(PositionError, match="R3"):
        arrange(state, deck=state.cards.deck[1:])
    state = started(tiny_map())
    with pytest.raises(PositionError, match="R3"):
        arrange(state, hands={0: [5] * 9})


def test_a_lost_or_doubled_ticket_is_refused():
    state = started(tiny_map())
    with pytest.raises(PositionError, match="tickets"):
        arrange(state, tickets={0: state.tickets[0] + state.tickets[1]})
    with pytest.raises(PositionError, match="no seat 3"):
        arrange(state, wagons={3: 10})
    with pytest.raises(PositionError, match="no train card"):
        give_hand(state, 0, purple=1)
    with pytest.raises(PositionError, match="no loco left"):
        give_hand(state, 0, loco=20)


def test_r9_r10_r13_owners_bring_their_wagons_points_and_networks():
    state = started(tiny_map())
    owners = [-1] * state.board.num_routes
    for name in ("A-B/1", "B-C"):
        owners[state.board.route_index[name]] = 0
    a_c = ticket_index(state, "A", "C")
    give_tickets(state, 0, [a_c])
    arrange(state, owners=owners)
    assert state.wagons == [40, 45] and state.route_points == [6, 0]
    assert state.is_ticket_complete(0, a_c) and state.view(0).tickets[0].completed
    arrange(state, owners=owners, wagons={0: 2})  # given wagons win, points follow
    assert state.wagons == [2, 45] and state.route_points == [6, 0]


def test_an_arranged_position_plays_on_with_the_same_random_source():
    state = started(tiny_map())
    twin = state.clone()
    for game in (state, twin):
        give_hand(game, game.current, red=2)
        arrange(game, current=game.current)
        play(game, "claim A-B/1 with red:2")
        play(game, "draw deck")
        play(game, "draw deck")
    assert state.hands == twin.hands and state.cards.deck == twin.cards.deck


def test_a_game_in_setup_can_be_arranged_with_its_offers():
    state = GameState(tiny_map(), 2, seed=3)
    offers = list(state.pending)
    arrange(state, pending=offers[::-1])
    assert [d.seat for d in state.pending] == [1, 0]
    check_invariants(state)
