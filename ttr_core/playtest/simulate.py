"""Many bot games on one map, summed up into a balance report: the pipeline
`ttr simulate` runs.

    playout (one game) → executors (where: this process, local processes, Ray)
    → tally (running sums) → findings → a BalanceReport

Games are spread over workers in batches and summed in game order, so the same
seed gives the same report whatever the executor and the number of workers.

>>> from ttr_maps import load_map
>>> played = PlayedMap(load_map("north_america"), "north_america")
>>> simulation = simulate(played, RunPlan(2, 2, ("greedy", "random"), 1))
>>> simulation.report.games, simulation.report.settings.bots
(2, ('greedy', 'random'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from ttr_core.bots import make_bot
from ttr_core.playtest.executors import IN_THIS_PROCESS, Workers, iter_games
from ttr_core.playtest.findings import screen
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.playout import GameSummary
from ttr_core.playtest.reach import reach_notes
from ttr_core.playtest.report import BalanceReport, Baseline, Settings
from ttr_core.playtest.tally import FinalScores, Tally


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

    def __init__(self, played: PlayedMap, plan: RunPlan) -> None:
        for name in plan.bots:
            make_bot(name, 0)  # unknown names fail here, before any process starts
        self.played, self.plan = played, plan
        self.tally = Tally(played.map, plan.players, played.rule_set, played.changes)
        #: The even and the odd games apart: a finding must show in both halves.
        self.halves = tuple(
            Tally(played.map, plan.players, played.rule_set, played.changes) for _ in range(2)
        )
        self.kept: list[tuple[int, str]] = []

    def games(
        self, where: Workers = IN_THIS_PROCESS, records: bool = False
    ) -> Iterator[GameSummary]:
        """The run's games, played where `where` says and yielded in order."""
        return iter_games(self.played, self.plan, where, records)

    def add(self, game: GameSummary) -> None:
        self.tally.add(game)
        self.halves[game.index % 2].add(game)
        if game.record is not None:
            self.kept.append((game.seed, game.record))

    def finish(self, baseline: Baseline | None = None) -> Simulation:
        """The report of the games added, with its findings (set against `baseline`)."""
        game_map, plan = self.played.map, self.plan
        settings = Settings(
            map=game_map.id,
            map_name=game_map.name,
            games=plan.games,
            players=plan.players,
            bots=plan.bots,
            seed=plan.seed,
            rule_changes=self.played.changes,
            rules=self.played.rule_set.to_dict(),
        )
        report = replace(self.tally.to_report(settings), baseline=baseline)
        report = replace(report, reach=reach_notes(report))
        halves = tuple(
            replace(half.to_report(replace(settings, games=half.games)), baseline=baseline)
            for half in self.halves
        )
        # The findings come first in the file, and are read from the rest.
        screened = screen(report, self.played.rule_set, (halves[0], halves[1]))
        report = replace(
            report,
            findings=screened.findings,
            undecided=screened.undecided,
            screening=screened.screening,
        )
        return Simulation(report, tuple(self.kept), self.tally.final_scores())


def simulate(
    played: PlayedMap,
    plan: RunPlan,
    where: Workers = IN_THIS_PROCESS,
    *,
    records: bool = False,
    on_game: Callable[[GameSummary], None] | None = None,
    baseline: Baseline | None = None,
) -> Simulation:
    """Play the games of `plan` on `played` (where `where` says) and sum them up into
    a report, with every game's record when `records`. Workers read the map from
    `played.argument`, and the replay commands name it. The findings are judged
    against `baseline` (the published boards played alike,
    `ttr_core.playtest.baseline`) when given."""
    run = Run(played, plan)
    for game in run.games(where, records):
        run.add(game)
        if on_game is not None:
            on_game(game)
    return run.finish(baseline)
