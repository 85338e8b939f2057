"""Train cards (R3) as small integers, so the engine counts instead of searching.

Colours 0-7 follow `ttr_maps.CARD_COLORS`; 8 is the locomotive. A hand is a list
of nine counts indexed by card.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ttr_maps.model import CARD_COLORS
from ttr_maps.rules import CARDS_PER_COLOR, LOCOMOTIVES

LOCO = 8
CARD_KINDS = 9
CARD_NAMES: tuple[str, ...] = (*CARD_COLORS, "loco")
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}


def full_deck() -> list[int]:
    """R3: the 110 train cards, unshuffled."""
    deck = [color for color in range(len(CARD_COLORS)) for _ in range(CARDS_PER_COLOR)]
    return deck + [LOCO] * LOCOMOTIVES


class CardPiles:
    """The train cards not in any hand (R3, R7, R8): the deck (top card last), the
    discard pile and the face-up market (None for an empty slot).

    Cards move between the piles and the hands only through these methods, so with
    the hands they always make the 110 cards of R3 (`count_all`).
    """

    __slots__ = ("deck", "discard", "limit", "market", "rng")

    def __init__(self, rng: random.Random, market_size: int, locomotive_limit: int) -> None:
        self.rng = rng
        self.deck: list[int] = full_deck()
        rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.market: list[int | None] = [None] * market_size
        self.limit = locomotive_limit

    def copy(self, rng: random.Random) -> CardPiles:
        twin = object.__new__(CardPiles)
        twin.rng, twin.limit = rng, self.limit
        twin.deck, twin.discard, twin.market = self.deck[:], self.discard[:], self.market[:]
        return twin

    def can_draw(self) -> bool:
        """Whether the deck (or the discards shuffled into it) holds a card (D3)."""
        return bool(self.deck or self.discard)

    def draw(self) -> int | None:
        """R8: the top card of the deck; an empty deck is first replaced by the
        shuffled discards, and a deck that runs out is replaced at once. None when
        deck and discards are both empty (D3)."""
        if not self.deck:
            if not self.discard:
                return None
            self._reshuffle()
        card = self.deck.pop()
        if not self.deck and self.discard:
            self._reshuffle()  # the deck ran out: a new one at once
        return card

    def _reshuffle(self) -> None:
        self.deck, self.discard = self.discard, []
        self.rng.shuffle(self.deck)

    def throw(self, cards: Iterable[int]) -> None:
        """Cards to the discard pile. A market left with empty slots (deck and
        discards had run out) is refilled as soon as cards come back (R7, R8)."""
        self.discard.extend(cards)
        if None in self.market:
            self.refill_market()

    def refill_market(self) -> None:
        """R7: fill every empty face-up slot from the deck, then apply R8."""
        market = self.market
        for slot in range(len(market)):
            if market[slot] is None:
                market[slot] = self.draw()
        self.reset_market_while_needed()

    def take(self, slot: int) -> int:
        """R7: the face-up card in `slot`, replaced at once (then R8)."""
        card = self.market[slot]
        self.market[slot] = self.draw()
        self.reset_market_while_needed()
        return card  # type: ignore[return-value]

    def reset_market_while_needed(self) -> None:
        """R8/D2: while the limit of locomotives (3) lies face up, discard the whole
        market and turn up new cards, unless no reset can help (deck and discards
        hold fewer non-locomotive cards than the limit), so it never loops forever."""
        market = self.market
        while market.count(LOCO) >= self.limit and self._reset_can_help():
            self.discard.extend(card for card in market if card is not None)
            for slot in range(len(market)):
                market[slot] = self.draw()

    def _reset_can_help(self) -> bool:
        non_locos = len(self.deck) - self.deck.count(LOCO)
        non_locos += len(self.discard) - self.discard.count(LOCO)
        return non_locos >= self.limit

    def second_card_exists(self, locomotive_ends_draw: bool = True) -> bool:
        """D3: the deck (or discards) or a face-up card other than a locomotive (P1,
        without `locomotive_ends_draw`: any face-up card)."""
        if self.deck or self.discard:
            return True
        return any(
            card is not None and (card != LOCO or not locomotive_ends_draw) for card in self.market
        )

    def count_all(self, hands: Iterable[Sequence[int]], elsewhere: Iterable[int] = ()) -> int:
        """Every card in the piles, the hands and `elsewhere` (cards a tunnel turned
        up, E2): 110 in a consistent game (R3)."""
        in_market = sum(1 for card in self.market if card is not None)
        in_hands = sum(sum(hand) for hand in hands)
        return len(self.deck) + len(self.discard) + in_market + in_hands + len(list(elsewhere))
