"""Pending decisions: the multi-step parts of a turn, as frozen values.

A decision belongs to one seat and restricts what that seat may do next. The
module of its action family lists its answers and applies them
(`ttr_core.engine.legal.DECISIONS` says which); a seat sees its own pending
decision in its view (`PlayerView.decision`).

A decision may hold cards or tickets out of their piles (the tickets offered, the
cards a tunnel turned up): `held_tickets` and `held_cards` say which, so that the
110 cards and every ticket stay accounted for (R3), and so that a decision nobody
will answer gives them back the same way whatever its kind
(`Books.abandon`: D5, R12, E2).
"""

from __future__ import annotations

from dataclasses import dataclass

from ttr_core.engine.actions import Payment
from ttr_core.engine.enums import DecisionKind


@dataclass(frozen=True, slots=True)
class ChooseTickets:
    """R4/R12: keep at least `minimum` of the offered tickets (indices into the map);
    `setup` for the simultaneous choice of R4."""

    seat: int
    offered: tuple[int, ...]
    minimum: int
    setup: bool = False

    kind = DecisionKind.CHOOSE_TICKETS

    @property
    def held_tickets(self) -> tuple[int, ...]:
        return self.offered

    @property
    def held_cards(self) -> tuple[int, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class SecondCard:
    """R7: the player took one card and may take a second one."""

    seat: int

    kind = DecisionKind.SECOND_CARD

    @property
    def held_tickets(self) -> tuple[int, ...]:
        return ()

    @property
    def held_cards(self) -> tuple[int, ...]:
        return ()


#: The `SecondCard` of each seat, made once: a value, and half the draws of a game
#: pend one (a frozen dataclass's `__init__` is a Python-level call).
_SECOND_CARDS: dict[int, SecondCard] = {}


def second_card(seat: int) -> SecondCard:
    """R7: `SecondCard(seat)`, the same value every time."""
    decision = _SECOND_CARDS.get(seat)
    if decision is None:
        decision = _SECOND_CARDS[seat] = SecondCard(seat)
    return decision


@dataclass(frozen=True, slots=True)
class TunnelPayment:
    """E2: the cards for a tunnel (`route`, an index) are laid down and three cards
    turned up; the player pays `extra` more cards of the colour laid or locomotives
    (only locomotives if only locomotives were laid), or gives up. Everything in it
    lies face up on the table: every view shows it (`PlayerView.tunnel`)."""

    seat: int
    route: int
    payment: Payment
    revealed: tuple[int, ...]
    extra: int

    kind = DecisionKind.TUNNEL_PAYMENT

    @property
    def held_tickets(self) -> tuple[int, ...]:
        return ()

    @property
    def held_cards(self) -> tuple[int, ...]:
        return self.revealed


Decision = ChooseTickets | SecondCard | TunnelPayment
