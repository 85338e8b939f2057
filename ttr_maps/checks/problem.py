"""Problems found in a map file: what, where, and how bad."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from ttr_maps.text import for_terminal, shorten_message

if TYPE_CHECKING:  # the YAML reader is not needed to hold or print a problem
    from ttr_maps.io.document import Position


class Level(StrEnum):
    """How bad a problem is. Warnings fail a run only with `--strict`."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem at one place in one file.

    >>> from ttr_maps.io.document import Position
    >>> str(Problem("maps/x.yaml", Position(12, 5), Level.ERROR, "TTR304", "value 9 ..."))
    'maps/x.yaml:12:5: error TTR304 value 9 ...'
    """

    path: str
    position: Position
    level: Level
    code: str
    message: str

    def __str__(self) -> str:
        """One line for a terminal or a text report (control characters escaped,
        long user text cut to a glimpse)."""
        where = f"{self.path}:{self.position.line}:{self.position.column}"
        message = shorten_message(self.message)
        return for_terminal(f"{where}: {self.level.value} {self.code} {message}")

    @property
    def sort_key(self) -> tuple[str, Position, str]:
        return (self.path, self.position, self.code)
