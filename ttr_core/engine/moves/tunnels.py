"""E2: tunnels, listed and applied: digging one (a claim of a tunnel turns up
cards), and the extra cards it may ask for (the `TunnelPayment` decision): paying
them, or giving up.
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.engine.actions import GIVE_UP, Action, GiveUpTunnel, Payment, PayTunnel
from ttr_core.engine.books import Books
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.decisions import TunnelPayment
from ttr_core.engine.errors import IllegalAction
from ttr_core.engine.facts import LegalFacts


def dig_tunnel(books: Books, seat: int, route: int, payment: Payment) -> None:
    """E2: turn up three cards; each of the colour laid down, or a locomotive,
    asks for one more card (only locomotives count when only locomotives were
    laid). With nothing to add the tunnel is claimed at once."""
    revealed = []
    for _ in range(books.rule_set.tunnel_reveal):
        card = books.cards.draw()
        if card is not None:
            revealed.append(card)
    books.tunnel_reveals[len(books.history)] = tuple(revealed)
    laid = LOCO if payment.color is None else CARD_INDEX[payment.color]
    extra = sum(1 for card in revealed if card in (laid, LOCO))
    if extra == 0:
        books.discard(revealed)
        books.pay(seat, payment)
        books.take_route(seat, route)
        books.end_turn(seat)
    else:
        books.pending.append(TunnelPayment(seat, route, payment, tuple(revealed), extra))


def tunnel_payments(hand: Sequence[int], laid: Payment, extra: int) -> list[Action]:
    """E2: every way to pay `extra` more cards of the colour laid down or
    locomotives (only locomotives if only locomotives were laid), then giving up."""
    locos = hand[LOCO] - laid.locos
    actions: list[Action] = []
    if laid.color is not None:
        have = hand[CARD_INDEX[laid.color]] - laid.colored
        for colored in range(min(extra, have), -1, -1):
            if extra - colored <= locos:
                actions.append(PayTunnel(Payment(laid.color, colored, extra - colored)))
    elif locos >= extra:
        actions.append(PayTunnel(Payment(None, 0, extra)))
    actions.append(GIVE_UP)
    return actions


def tunnel_actions(decision: TunnelPayment, facts: LegalFacts) -> list[Action]:
    """E2: the answers to a tunnel payment (see `tunnel_payments`)."""
    return tunnel_payments(facts.hand, decision.payment, decision.extra)


def pay_tunnel(books: Books, seat: int, decision: TunnelPayment, action: Action) -> None:
    """E2: pay the extra cards and take the route, or give up; either way the
    turned-up cards are discarded and the turn ends."""
    if not isinstance(action, (PayTunnel, GiveUpTunnel)):
        raise IllegalAction("E2", "pay the tunnel's extra cards or give up first")
    if isinstance(action, PayTunnel):
        if action not in tunnel_payments(books.hands[seat], decision.payment, decision.extra):
            laid = decision.payment.color or "loco"
            kinds = "locomotives" if laid == "loco" else f"{laid} cards or locomotives"
            raise IllegalAction("E2", f"pay exactly {decision.extra} more {kinds} from your hand")
        books.pay(seat, decision.payment)
        books.pay(seat, action.payment)
        books.take_route(seat, decision.route)
    books.pending.remove(decision)
    books.discard(decision.revealed)
    books.end_turn(seat)
