"""Train cards (R3) as small integers, so the engine counts instead of searching.

Colours 0-7 follow `ttr_maps.CARD_COLORS`; 8 is the locomotive. A hand is a list
of nine counts indexed by card.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ttr_maps.model import CARD_COLORS
from ttr_maps.rules import CARDS_PER_COLOR, LOCOMOTIVES, MARKET_RESETS_IN_A_ROW

LOCO = 8
CARD_KINDS = 9
CARD_NAMES: tuple[str, ...] = (*CARD_COLORS, "loco")
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}


def full_deck() -> list[int]:
    """R3: the 110 train cards, unshuffled."""
    deck = [color for color in range(len(CARD_COLORS)) for _ in range(CARDS_PER_COLOR)]
    return deck + [LOCO] * LOCOMOTIVES


def shuffle(rng: random.Random, items: list) -> None:
    """R3, R8: the shuffles of the deck (and of the ticket decks, R4), as
    `rng.shuffle(items)`: the same draws and the same order (CPython's: from the last
    item down, a swap with one below it drawn by `_randbelow`, `k` random bits until
    they fall below the count), without a Python-level call per item in the compiled
    build. `tests/engine/test_cards.py` compares the two on many lengths.
    Any other random source (a subclass may draw otherwise) shuffles itself.

    >>> a, b = random.Random(3), random.Random(3)
    >>> x, y = list(range(20)), list(range(20))
    >>> a.shuffle(x); shuffle(b, y); x == y and a.random() == b.random()
    True
    """
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        count = i + 1
        k = count.bit_length()
        j = bits(k)
        while j >= count:
            j = bits(k)
        items[i], items[j] = items[j], items[i]


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
        shuffle(rng, self.deck)
        self.discard: list[int] = []
        self.market: list[int | None] = [None] * market_size
        self.limit = locomotive_limit

    def copy(self, rng: random.Random) -> CardPiles:
        twin = CardPiles.__new__(CardPiles)
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
        shuffle(self.rng, self.deck)

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

    def reset_market_while_needed(self) -> int:
        """R8/D2: while `limit` or more locomotives lie face up, discard the whole
        market and turn up new cards, but only while a reset can help
        (`reset_can_help`) and at most `MARKET_RESETS_IN_A_ROW` times in a row, so
        it always ends (the proof is in docs/rules.md, D2). Returns the resets made."""
        market = self.market
        resets = 0
        while (
            market.count(LOCO) >= self.limit
            and resets < MARKET_RESETS_IN_A_ROW
            and self.reset_can_help()
        ):
            self.discard.extend([card for card in market if card is not None])
            for slot in range(len(market)):
                market[slot] = self.draw()
            resets += 1
        return resets

    def reset_can_help(self) -> bool:
        """D2: whether resetting the market now can lead to a market with fewer
        than `limit` locomotives (docs/rules.md, D2, has the proof that this is
        exact). The engine knows the order of the deck, and what a shuffle of the
        discards may turn up:

        1. the markets a run of resets turns up from the deck, one market's worth
           at a time from the top, are known: if one of them holds fewer than
           `limit` locomotives, the resets before it lead there;
        2. otherwise a later reset needs the discards, shuffled. If the cards
           outside the hands number other than twice a market, the shuffles mix
           them, and any market they can make may come up: a reset helps if they
           hold enough other cards for a market with fewer than `limit`
           locomotives;
        3. with exactly twice a market, the first shuffle splits them into two
           groups that then only swap places (the market becomes the deck, which
           becomes the market): a reset helps only if one of the two groups that
           shuffle can make holds fewer than `limit` locomotives.
        """
        size, limit, deck = len(self.market), self.limit, self.deck
        top = len(deck)
        while top >= size:  # 1: the next markets from the deck, top first
            if deck[top - size : top].count(LOCO) < limit:
                return True
            top -= size
        market = [card for card in self.market if card is not None]
        total = len(deck) + len(self.discard) + len(market)
        locos = deck.count(LOCO) + self.discard.count(LOCO) + market.count(LOCO)
        if total <= size:  # the market holds all of them, whatever the order
            return locos < limit
        if total != 2 * size or len(market) != size:  # 2: the shuffles mix the cards
            return total - locos > size - limit
        # 3: two groups of `size` cards that swap for ever once the discards are shuffled.
        if len(deck) >= size:  # the deck is one group (no better: see 1), the market the other
            return False
        known, known_locos = len(deck), deck.count(LOCO)  # the deck's cards, then the shuffle's
        shuffled, shuffled_locos, taken = total - known, locos - known_locos, size - known
        fewest = known_locos + max(0, taken - (shuffled - shuffled_locos))
        left_behind = shuffled_locos - min(shuffled_locos, taken)  # the other group's
        return fewest < limit or left_behind < limit

    def second_card_exists(self, locomotive_ends_draw: bool = True) -> bool:
        """D3: the deck (or discards) or a face-up card other than a locomotive (P1,
        without `locomotive_ends_draw`: any face-up card)."""
        if self.deck or self.discard:
            return True
        for card in self.market:
            if card is not None and (card != LOCO or not locomotive_ends_draw):
                return True
        return False

    def count_all(self, hands: Iterable[Sequence[int]], elsewhere: Iterable[int] = ()) -> int:
        """Every card in the piles, the hands and `elsewhere` (cards a tunnel turned
        up, E2): 110 in a consistent game (R3)."""
        in_market = sum(1 for card in self.market if card is not None)
        in_hands = sum(sum(hand) for hand in hands)
        return len(self.deck) + len(self.discard) + in_market + in_hands + len(list(elsewhere))
