"""Pending decisions: the multi-step parts of a turn, held by the game state.

A decision belongs to one seat and restricts what that seat may do next. Rule
sets add their own kinds (the `europe` tunnel payment) the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from ttr_core.engine.actions import Payment
from ttr_core.engine.enums import DecisionKind


@dataclass(frozen=True, slots=True)
class ChooseTickets:
    """R4/R12: keep at least `minimum` of the offered tickets (indices into the map)."""

    seat: int
    offered: tuple[int, ...]
    minimum: int
    setup: bool = False

    kind = DecisionKind.CHOOSE_TICKETS


@dataclass(frozen=True, slots=True)
class SecondCard:
    """R7: the player took one card and may take a second one."""

    seat: int

    kind = DecisionKind.SECOND_CARD


@dataclass(frozen=True, slots=True)
class TunnelPayment:
    """E2: the cards for a tunnel are laid down and three cards turned up; the
    player pays `extra` more cards of `color` or locomotives (only locomotives if
    `color` is None), or gives up."""

    seat: int
    route: int
    payment: Payment
    revealed: tuple[int, ...]
    extra: int

    kind = DecisionKind.TUNNEL_PAYMENT


Decision = ChooseTickets | SecondCard | TunnelPayment
