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
from ttr_core.engine.decisions import TunnelPayment
from ttr_core.engine.moves.claims import payment_shapes
from ttr_core.engine.view import PlayerView
from ttr_core.table.texts import payment_text


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


def laid_cards(payment: Payment) -> dict[int, int]:
    """The cards a payment lays down, by card index (E2: a tunnel's, while its
    extra cards are asked for)."""
    cards = {}
    if payment.color is not None and payment.colored:
        cards[CARD_NAMES.index(payment.color)] = payment.colored
    if payment.locos:
        cards[LOCO] = payment.locos
    return cards


def hand_besides(hand: Sequence[int], payment: Payment) -> list[int]:
    """The hand without the cards `payment` lays down."""
    rest = list(hand)
    for card, count in laid_cards(payment).items():
        rest[card] -= count
    return rest


def tunnel_refusal(view: PlayerView) -> str | None:
    """E2: why the seat's tunnel's extra cards cannot be paid, counting only the
    cards it holds besides those laid down; None when they can (or no tunnel of
    its own waits)."""
    tunnel = view.decision
    if not isinstance(tunnel, TunnelPayment):
        return None
    if tunnel_payments(view.hand, tunnel.payment, tunnel.extra):
        return None
    rest = hand_besides(view.hand, tunnel.payment)
    color = tunnel.payment.color
    if color is not None:
        kinds = f"{color} or loco"
        held = f"{color} {rest[CARD_NAMES.index(color)]} and loco {rest[LOCO]}"
    else:
        kinds, held = "loco", f"loco {rest[LOCO]}"
    return (
        f"E2: you cannot pay {tunnel.extra} more {kinds}: besides the "
        f"{payment_text(tunnel.payment)} laid down you hold {held}"
    )
