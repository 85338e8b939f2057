"""Many bot games on one map, summed up into a balance report: the pipeline
`ttr simulate` runs.

    playout (one game) → executors (where: this process, local processes, Ray)
    → tally (running sums) → findings → a BalanceReport

Games are spread over workers in batches and summed in game order, so the same
seed gives the same report whatever the executor and the number of workers.

>>> from ttr_maps import load_map
>>> simulation = simulate(load_map("north_america"), "north_america", 2, 2, ["greedy", "random"], 1)
>>> simulation.report.games, simulation.report.settings.bots
(2, ('greedy', 'random'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ttr_core.bots import make_bot
from ttr_core.playtest.executors import iter_games
from ttr_core.playtest.findings import screen
from ttr_core.playtest.playout import GameSummary, rule_changes
from ttr_core.playtest.reach import reach_notes
from ttr_core.playtest.report import BalanceReport, Baseline, Settings
from ttr_core.playtest.tally import FinalScores, Tally
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet, rules_for

if TYPE_CHECKING:
    from ttr_core.playtest.executors import Executor


@dataclass(frozen=True)
class Simulation:
    """What a run gives: the report, and what the report folder needs besides."""

    report: BalanceReport
    #: (seed, record text) per game, when records were asked for.
    records: tuple[tuple[int, str], ...]
    #: Every final score, for the distribution pictures.
    scores: FinalScores


class Run:
    """One run being summed up: feed it the run's games in order (`games()` plays
    them), then `finish`. `simulate` is one run; `ttr compare` drives two in step."""

    def __init__(
        self,
        game_map: Map,
        map_argument: str,
        games: int,
        players: int,
        bots: Sequence[str],
        seed: int,
        rules: RuleSet | None = None,
    ) -> None:
        for name in bots:
            make_bot(name, 0)  # unknown names fail here, before any process starts
        self.game_map, self.map_argument = game_map, map_argument
        self.count, self.players, self.bots, self.seed = games, players, tuple(bots), seed
        self.changes = tuple(rule_changes(game_map, rules))
        self.given_rules = rules
        self.rules = rules or rules_for(game_map)
        self.tally = Tally(game_map, players, self.rules, self.changes)
        self.kept: list[tuple[int, str]] = []

    def games(
        self, jobs: int = 1, records: bool = False, executor: Executor | None = None
    ) -> Iterator[GameSummary]:
        """The run's games, played (where `executor` says) and yielded in order."""
        return iter_games(
            self.game_map,
            self.map_argument,
            self.count,
            self.players,
            self.bots,
            self.seed,
            jobs,
            records,
            self.given_rules,
            executor,
        )

    def add(self, game: GameSummary) -> None:
        self.tally.add(game)
        if game.record is not None:
            self.kept.append((game.seed, game.record))

    def finish(self, baseline: Baseline | None = None) -> Simulation:
        """The report of the games added, with its findings (set against `baseline`)."""
        settings = Settings(
            map=self.game_map.id,
            map_name=self.game_map.name,
            games=self.count,
            players=self.players,
            bots=self.bots,
            seed=self.seed,
            rule_changes=self.changes,
            rules=self.rules.to_dict(),
        )
        report = replace(self.tally.to_report(settings), baseline=baseline)
        report = replace(report, reach=reach_notes(report))
        # The findings come first in the file, and are read from the rest.
        found, screening = screen(report, self.rules)
        report = replace(report, findings=found, screening=screening)
        return Simulation(report, tuple(self.kept), self.tally.final_scores())


def simulate(
    game_map: Map,
    map_argument: str,
    games: int,
    players: int,
    bots: Sequence[str],
    seed: int,
    jobs: int = 1,
    records: bool = False,
    on_game: Callable[[GameSummary], None] | None = None,
    rules: RuleSet | None = None,
    executor: Executor | None = None,
    baseline: Baseline | None = None,
) -> Simulation:
    """Play `games` games on `game_map` (with `rules`, default the map's) and sum
    them up into a report. `map_argument` is how the map was named (a bundled id or
    a path): workers read the map from it, and the replay commands name it. The
    findings are judged against `baseline` (the published boards played alike,
    `ttr_core.playtest.baseline`) when given."""
    run = Run(game_map, map_argument, games, players, bots, seed, rules)
    for game in run.games(jobs, records, executor):
        run.add(game)
        if on_game is not None:
            on_game(game)
    return run.finish(baseline)
