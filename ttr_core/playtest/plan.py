"""What a run plays, as typed values shared by `simulate`, `compare`, the ladder,
the baseline, the editor's play-test panel and the command line: the map and how it
was named (`PlayedMap`), and the games and who plays them (`RunPlan`). Where they
are played is `ttr_core.playtest.executors.Workers`.

>>> from ttr_maps import load_map
>>> plan = RunPlan(games=10, players=2, bots=("greedy", "random"), seed=1)
>>> plan.seats(0), plan.seats(1)
(('greedy', 'random'), ('random', 'greedy'))
>>> PlayedMap(load_map("iran"), "iran").changes
()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ttr_maps.model import Map
    from ttr_maps.rules import RuleSet


@dataclass(frozen=True)
class PlayedMap:
    """The map a run plays, how the command line named it (a bundled id or a path:
    worker processes read the map from it, and the commands that replay a game
    name it), and the rules when `--set` changed the map's own (None: its own)."""

    map: Map
    argument: str
    rules: RuleSet | None = None

    @cached_property
    def rule_set(self) -> RuleSet:
        """The rules the games are played with."""
        from ttr_maps.rules import rules_for

        return self.rules or rules_for(self.map)

    @cached_property
    def changes(self) -> tuple[str, ...]:
        """`rules` as the `--set` texts that make them from the map's own rules."""
        from ttr_maps.rules import rules_for

        return () if self.rules is None else tuple(self.rules.changes_from(rules_for(self.map)))


@dataclass(frozen=True)
class RunPlan:
    """The games of a run: how many, at how many seats, which bots (rotated over
    the seats game by game: seat s of game i is `bots[(s + i) % len(bots)]`) and
    the run's seed (game i is played with `playout.game_seed(seed, i)`)."""

    games: int
    players: int
    bots: tuple[str, ...]
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", tuple(self.bots))

    def seats(self, index: int) -> tuple[str, ...]:
        """Who plays game `index`, seat by seat."""
        from ttr_core.playtest.playout import seat_names

        return seat_names(self.bots, self.players, index)

    def with_bots(self, bots: Sequence[str]) -> RunPlan:
        return RunPlan(self.games, self.players, tuple(bots), self.seed)
