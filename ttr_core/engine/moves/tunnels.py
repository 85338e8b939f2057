"""E2: tunnel claims, and the extra cards they may ask for (the `TunnelPayment`
decision). `GameState.apply` hands these functions the claims and the answers;
they change the state through its bookkeeping, as its own methods would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttr_core.engine.actions import Action, GiveUpTunnel, Payment, PayTunnel
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.decisions import TunnelPayment
from ttr_core.engine.errors import IllegalAction
from ttr_core.engine.legal import tunnel_actions

if TYPE_CHECKING:
    from ttr_core.engine.state import GameState


def dig_tunnel(state: GameState, seat: int, route: int, payment: Payment) -> None:
    """E2: turn up three cards; each of the colour laid down, or a locomotive,
    asks for one more card (only locomotives count when only locomotives were
    laid). With nothing to add the tunnel is claimed at once."""
    revealed = []
    for _ in range(state.rule_set.tunnel_reveal):
        card = state.cards.draw()
        if card is not None:
            revealed.append(card)
    state.tunnel_reveals[len(state.history)] = tuple(revealed)
    laid = LOCO if payment.color is None else CARD_INDEX[payment.color]
    extra = sum(1 for card in revealed if card in (laid, LOCO))
    if extra == 0:
        state._discard(revealed)
        state._pay(seat, payment)
        state._take_route(seat, route)
        state._end_turn(seat)
    else:
        state.pending.append(TunnelPayment(seat, route, payment, tuple(revealed), extra))


def pay_tunnel(state: GameState, seat: int, decision: TunnelPayment, action: Action) -> None:
    """E2: pay the extra cards and take the route, or give up; either way the
    turned-up cards are discarded and the turn ends."""
    if not isinstance(action, (PayTunnel, GiveUpTunnel)):
        raise IllegalAction("E2", "pay the tunnel's extra cards or give up first")
    if isinstance(action, PayTunnel):
        if action not in tunnel_actions(state.hands[seat], decision.payment, decision.extra):
            laid = decision.payment.color or "loco"
            kinds = "locomotives" if laid == "loco" else f"{laid} cards or locomotives"
            raise IllegalAction("E2", f"pay exactly {decision.extra} more {kinds} from your hand")
        state._pay(seat, decision.payment)
        state._pay(seat, action.payment)
        state._take_route(seat, decision.route)
    state.pending.remove(decision)
    state._discard(decision.revealed)
    state._end_turn(seat)


def abandon_tunnel(state: GameState, decision: TunnelPayment) -> None:
    """E2, D5: the turned-up cards go to the discard pile."""
    state._discard(decision.revealed)
