"""Pending decisions: the multi-step parts of a turn, held by the game state.

A decision belongs to one seat and restricts what that seat may do next. Rule
sets add their own kinds (the `europe` tunnel payment) the same way.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChooseTickets:
    """R4/R12: keep at least `minimum` of the offered tickets (indices into the map)."""

    seat: int
    offered: tuple[int, ...]
    minimum: int
    setup: bool = False

    kind = "choose_tickets"


@dataclass(frozen=True, slots=True)
class SecondCard:
    """R7: the player took one card and may take a second one."""

    seat: int

    kind = "second_card"


Decision = ChooseTickets | SecondCard
