"""Which cards pay for a route, a station or a tunnel's extra cards (R9, E1-E3).

A person names what they want; the table picks the cards. A *sensible* payment
uses each colour the hand can pay with at its fewest locomotives (locomotives only
when no colour can pay, or when asked for). When exactly one sensible payment
uses the fewest locomotives, it is chosen without asking; otherwise the person
picks from the short list.

>>> from ttr_core.engine.cards import CARD_INDEX
>>> hand = [0] * 9
>>> hand[CARD_INDEX["red"]], hand[CARD_INDEX["blue"]], hand[CARD_INDEX["loco"]] = 2, 3, 1
>>> [str(p) for p in sensible_payments(3, -1, hand)]
['blue:3', 'red:2 loco:1']
>>> str(fewest_locos(sensible_payments(3, -1, hand)))
'blue:3'
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.engine.actions import Payment
from ttr_core.engine.cards import CARD_NAMES, LOCO
from ttr_core.engine.moves.claims import payment_shapes


def sensible_payments(
    length: int,
    color: int,
    hand: Sequence[int],
    min_locos: int = 0,
    only: int | None = None,
) -> list[Payment]:
    """R9 (E3 with `min_locos`): every colour that can pay `length` cards of route
    colour `color` (GRAY_INDEX: any one colour) at its fewest locomotives, fewest
    locomotives first. `only` keeps one card colour (LOCO: locomotives only)."""
    shapes = payment_shapes(length, color, hand, min_locos)
    payments = [
        Payment(CARD_NAMES[card], length - fewest, fewest)
        for card, fewest, _ in shapes
        if card != LOCO and only in (None, card)
    ]
    locos_only = any(card == LOCO for card, _, _ in shapes)
    if locos_only and (only == LOCO or (only is None and not payments)):
        payments.append(Payment(None, 0, length))
    return sorted(payments, key=lambda p: p.locos)


def fewest_locos(payments: Sequence[Payment]) -> Payment | None:
    """The one payment using the fewest locomotives, or None when there is no
    payment or several tie (then the person chooses)."""
    if not payments:
        return None
    least = min(p.locos for p in payments)
    best = [p for p in payments if p.locos == least]
    return best[0] if len(best) == 1 else None


def tunnel_payments(
    hand: Sequence[int], laid: Payment, extra: int, only: int | None = None
) -> list[Payment]:
    """E2: the sensible ways to pay a tunnel's `extra` cards: as many cards of the
    colour laid down as the hand still holds, the rest locomotives (or, with `only`
    LOCO, locomotives only)."""
    locos = hand[LOCO] - laid.locos
    if laid.color is None or only == LOCO:
        return [Payment(None, 0, extra)] if locos >= extra else []
    have = hand[CARD_NAMES.index(laid.color)] - laid.colored
    colored = min(extra, have)
    return [Payment(laid.color, colored, extra - colored)] if extra - colored <= locos else []
