"""Names the engine, the views, the results and the bots share, as string enums.

A leaf module: it imports nothing from the engine, so every other module can use
these names without an import cycle. The values are plain strings
(`Status.ACTIVE == "active"`, `repr` shows `'active'`), so records, JSON, reprs and
string comparisons see no change.
"""

from __future__ import annotations

from enum import StrEnum


class _Name(StrEnum):
    """A string enum that prints like its string (`'setup'`), in reprs and doctests."""

    def __repr__(self) -> str:
        return repr(self.value)


class Phase(_Name):
    """Where a game is: choosing tickets (R4), playing, or over."""

    SETUP = "setup"
    PLAYING = "playing"
    OVER = "over"


class Status(_Name):
    """A seat in the game, or one that left it (D5)."""

    ACTIVE = "active"
    RESIGNED = "resigned"
    REMOVED = "removed"


class EndReason(_Name):
    """Why a game ended: R14, R6, or D5."""

    FINAL_ROUND = "final round"
    ALL_PASSED = "all passed"
    ONE_LEFT = "one player left"


class DecisionKind(_Name):
    """A pending decision of one seat (see `ttr_core.engine.decisions`)."""

    CHOOSE_TICKETS = "choose_tickets"
    SECOND_CARD = "second_card"
    TUNNEL_PAYMENT = "tunnel_payment"
