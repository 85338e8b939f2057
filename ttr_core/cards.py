"""Train cards (R3) as small integers, so the engine counts instead of searching.

Colours 0-7 follow `ttr_maps.CARD_COLORS`; 8 is the locomotive. A hand is a list
of nine counts indexed by card.
"""

from __future__ import annotations

from ttr_maps.model import CARD_COLORS

LOCO = 8
CARD_KINDS = 9
CARD_NAMES: tuple[str, ...] = (*CARD_COLORS, "loco")
CARD_INDEX: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}

#: R3: 12 cards of each colour and 14 locomotives.
CARDS_PER_COLOR = 12
LOCOMOTIVES = 14
DECK_SIZE = CARDS_PER_COLOR * len(CARD_COLORS) + LOCOMOTIVES  # 110

MARKET_SIZE = 5
#: R8: three face-up locomotives reset the market.
MARKET_LOCO_LIMIT = 3


def full_deck() -> list[int]:
    """R3: the 110 train cards, unshuffled."""
    deck = [color for color in range(len(CARD_COLORS)) for _ in range(CARDS_PER_COLOR)]
    return deck + [LOCO] * LOCOMOTIVES
