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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ttr_core.bots import make_bot
from ttr_core.playtest.executors import iter_games
from ttr_core.playtest.findings import findings
from ttr_core.playtest.playout import GameSummary, rule_changes
from ttr_core.playtest.report import BalanceReport, Settings
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
) -> Simulation:
    """Play `games` games on `game_map` (with `rules`, default the map's) and sum
    them up into a report. `map_argument` is how the map was named (a bundled id or
    a path): workers read the map from it, and the replay commands name it."""
    for name in bots:
        make_bot(name, 0)  # unknown names fail here, before any process starts
    changes = rule_changes(game_map, rules)
    rules = rules or rules_for(game_map)
    tally = Tally(game_map, players, rules, tuple(changes))
    kept: list[tuple[int, str]] = []
    played = iter_games(
        game_map, map_argument, games, players, bots, seed, jobs, records, rules, executor
    )
    for game in played:
        tally.add(game)
        if game.record is not None:
            kept.append((game.seed, game.record))
        if on_game is not None:
            on_game(game)
    settings = Settings(
        map=game_map.id,
        map_name=game_map.name,
        games=games,
        players=players,
        bots=tuple(bots),
        seed=seed,
        rule_changes=tuple(changes),
    )
    report = tally.to_report(settings)
    # The findings come first in the file, and are read from the rest.
    report = replace(report, findings=findings(report, rules))
    return Simulation(report, tuple(kept), tally.final_scores())
