"""R7, R8, D3: drawing train cards, listed and applied: the first card of a draw,
and the second (the `SecondCard` decision). P1 (rule set field
`face_up_locomotive_ends_draw` false, Nordic Countries and Switzerland): a face-up
locomotive is drawn like any other card.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.engine.actions import DRAW_DECK, DRAW_MARKET, Action, DrawDeck, DrawMarket
from ttr_core.engine.books import Books
from ttr_core.engine.cards import LOCO
from ttr_core.engine.decisions import SecondCard, second_card
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.facts import LegalFacts


def card_draw_actions(market: Sequence[int | None], can_draw_deck: bool) -> list[Action]:
    """R7, D3: the deck (while it or the discards hold a card), then every face-up
    card."""
    actions: list[Action] = [DRAW_DECK] if can_draw_deck else []
    if None not in market:
        actions.extend(DRAW_MARKET[: len(market)])
    else:
        actions.extend(DRAW_MARKET[slot] for slot, card in enumerate(market) if card is not None)
    return actions


def second_card_actions(decision: SecondCard, facts: LegalFacts) -> list[Action]:
    """R7: the answers to a `SecondCard` decision (see `second_card_draws`)."""
    return second_card_draws(
        facts.market, facts.can_draw_deck, facts.rule_set.face_up_locomotive_ends_draw
    )


def second_card_draws(
    market: Sequence[int | None], can_draw_deck: bool, locomotive_ends_draw: bool = True
) -> list[Action]:
    """R7: the second card of a draw: the deck, or a face-up card that is not a
    locomotive (P1: any face-up card, without `locomotive_ends_draw`). (The state
    lists these straight from its piles: half the draws of a game are second cards.)"""
    actions: list[Action] = [DRAW_DECK] if can_draw_deck else []
    for slot, card in enumerate(market):
        if card is not None and (card != LOCO or not locomotive_ends_draw):
            actions.append(DRAW_MARKET[slot])
    return actions


def draw_first_card(books: Books, seat: int, action: DrawDeck | DrawMarket) -> None:
    """R7: the first card. A face-up locomotive ends the turn at once (not under P1);
    so does a draw after which no second card exists (D3)."""
    whole_draw = books.rule_set.face_up_locomotive_ends_draw
    if isinstance(action, DrawDeck):
        _draw_from_deck(books, seat)
        ends_turn = False
    else:
        _check_market_slot(books, action)
        ends_turn = _take_market_card(books, seat, action.slot) == LOCO and whole_draw
    if ends_turn or not books.cards.second_card_exists(whole_draw):
        books.end_turn(seat)
    else:
        books.pending.append(second_card(seat))


def draw_second_card(books: Books, seat: int, decision: SecondCard, action: Action) -> None:
    """R7: the second card; a face-up locomotive may not be taken (P1: it may)."""
    if isinstance(action, DrawDeck):
        _draw_from_deck(books, seat)
    elif isinstance(action, DrawMarket):
        card = _check_market_slot(books, action)
        if card == LOCO and books.rule_set.face_up_locomotive_ends_draw:
            raise IllegalAction("R7", "a face-up locomotive cannot be your second card")
        _take_market_card(books, seat, action.slot)
    else:
        raise IllegalAction("R7", "take your second card ('draw deck' or 'draw market N')")
    books.pending.pop()
    books.end_turn(seat)


def _draw_from_deck(books: Books, seat: int) -> None:
    """R8: the top card of the deck into the hand (D3: refused when none is left)."""
    card = books.cards.draw()
    if card is None:
        raise IllegalAction("D3", "the deck and the discard pile are empty")
    books.hands[seat][card] += 1


def _check_market_slot(books: Books, action: DrawMarket) -> int:
    """The card in the slot `action` names (InvalidAction for no such slot, D3 for
    an empty one)."""
    market = books.cards.market
    if not 0 <= action.slot < len(market):
        raise InvalidAction(f"market slots are 0 to {len(market) - 1}")
    card = market[action.slot]
    if card is None:
        raise IllegalAction("D3", f"market slot {action.slot} is empty")
    return card


def _take_market_card(books: Books, seat: int, slot: int) -> int:
    card = books.cards.take(slot)  # R7: replaced at once, then R8
    books.hands[seat][card] += 1
    return card
