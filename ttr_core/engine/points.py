"""R15 ticket points, written once for the final score, the stations' choice
(E1) and the bots.

>>> signed_ticket_points([8, 5], [True, False])
3
"""

from __future__ import annotations

from collections.abc import Sequence


def signed_ticket_points(values: Sequence[int], completed: Sequence[bool]) -> int:
    """R15: + the value of each completed ticket, - the value of each incomplete one."""
    return sum(v if done else -v for v, done in zip(values, completed, strict=True))
