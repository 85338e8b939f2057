"""What one seat sees (`ttr_core.engine.view`): R5 and D6 hidden information, one
`decision` field, and views as snapshots."""

from __future__ import annotations

from engine_positions import started

from ttr_core.engine.actions import DrawDeck
from ttr_core.engine.decisions import ChooseTickets, SecondCard
from ttr_core.engine.positions import arrange
from ttr_core.engine.state import GameState


def test_r5_d6_view_does_not_change_when_hidden_information_does(north_america):
    state = started(north_america, 3, seed=11)
    seat = state.current
    other = (seat + 1) % 3
    before = state.view(seat)
    twin = state.clone()
    deck = twin.cards.deck[:]
    twin.rng.shuffle(deck)  # another deck order
    hand = twin.hands[other][:]  # another hand of the same size: a card swapped with the deck
    moved = next(c for c in range(8) if hand[c])
    swapped = next(c for c in deck if c != moved)
    hand[moved] -= 1
    hand[swapped] += 1
    deck.remove(swapped)
    deck.append(moved)
    arrange(twin, deck=deck, hands={other: hand}, tickets={other: twin.tickets[other][::-1]})
    assert twin.view(seat) == before
    assert twin.view(other) != state.view(other)


def test_r5_view_holds_no_hidden_fields(north_america):
    view = started(north_america, 2).view(0)
    fields = set(view._fields)
    assert not fields & {"deck", "hands", "ticket_deck", "rng", "pending"}
    assert len(view.hand) == 9 and len(view.card_counts) == 2


def test_r4_the_view_holds_my_pending_decision_as_the_engine_does(north_america):
    state = GameState(north_america, 2, seed=4)
    for seat in range(2):
        decision = state.view(seat).decision
        assert isinstance(decision, ChooseTickets) and decision == state.decision_for(seat)
        assert decision.setup and len(decision.offered) == 3 and decision.minimum == 2
    state.apply(state.legal_actions(0)[0], 0)
    assert state.view(0).decision is None  # chosen: nothing left to decide
    assert state.view(0).to_move is None  # R4: nobody is to move during setup


def test_r7_the_second_card_is_my_decision_only(north_america):
    state = started(north_america, 2)
    seat = state.current
    state.apply(DrawDeck())
    assert state.view(seat).decision == SecondCard(seat)
    assert state.view(1 - seat).decision is None


def test_view_is_a_snapshot(north_america):
    state = started(north_america, 2)
    seat = state.current
    view = state.view(seat)
    hand, deck_size, owners = view.hand, view.deck_size, view.owners
    state.apply(DrawDeck())
    state.apply(DrawDeck())
    give = state.board.route_index["Atlanta-Nashville"]
    state.take_route(seat, give)
    assert (view.hand, view.deck_size, view.owners) == (hand, deck_size, owners)
    fresh = state.view(seat)
    assert sum(fresh.hand) == sum(hand) + 2
    assert fresh.deck_size == deck_size - 2
    assert fresh.owners[give] == seat and owners[give] == -1
