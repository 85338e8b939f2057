"""R7, R8, D3: drawing train cards, and the second card of a draw (the `SecondCard`
decision). `GameState.apply` hands these functions the actions and the answers;
they change the state through its bookkeeping, as its own methods would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttr_core.engine.actions import Action, DrawDeck, DrawMarket
from ttr_core.engine.cards import LOCO
from ttr_core.engine.decisions import SecondCard
from ttr_core.engine.errors import IllegalAction, InvalidAction

if TYPE_CHECKING:
    from ttr_core.engine.state import GameState


def draw_first_card(state: GameState, seat: int, action: DrawDeck | DrawMarket) -> None:
    """R7: the first card. A face-up locomotive ends the turn at once; so does a
    draw after which no second card exists (D3)."""
    if isinstance(action, DrawDeck):
        _draw_from_deck(state, seat)
        ends_turn = False
    else:
        _check_market_slot(state, action)
        ends_turn = _take_market_card(state, seat, action.slot) == LOCO
    if ends_turn or not state.cards.second_card_exists():
        state._end_turn(seat)
    else:
        state.pending.append(SecondCard(seat))


def draw_second_card(state: GameState, seat: int, decision: SecondCard, action: Action) -> None:
    """R7: the second card; a face-up locomotive may not be taken."""
    if isinstance(action, DrawDeck):
        _draw_from_deck(state, seat)
    elif isinstance(action, DrawMarket):
        if _check_market_slot(state, action) == LOCO:
            raise IllegalAction("R7", "a face-up locomotive cannot be your second card")
        _take_market_card(state, seat, action.slot)
    else:
        raise IllegalAction("R7", "take your second card ('draw deck' or 'draw market N')")
    state.pending.pop()
    state._end_turn(seat)


def _draw_from_deck(state: GameState, seat: int) -> None:
    """R8: the top card of the deck into the hand (D3: refused when none is left)."""
    card = state.cards.draw()
    if card is None:
        raise IllegalAction("D3", "the deck and the discard pile are empty")
    state.hands[seat][card] += 1


def _check_market_slot(state: GameState, action: DrawMarket) -> int:
    """The card in the slot `action` names (InvalidAction for no such slot, D3 for
    an empty one)."""
    market = state.cards.market
    if not 0 <= action.slot < len(market):
        raise InvalidAction(f"market slots are 0 to {len(market) - 1}")
    card = market[action.slot]
    if card is None:
        raise IllegalAction("D3", f"market slot {action.slot} is empty")
    return card


def _take_market_card(state: GameState, seat: int, slot: int) -> int:
    card = state.cards.take(slot)  # R7: replaced at once, then R8
    state.hands[seat][card] += 1
    return card
