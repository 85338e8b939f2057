"""Play-tests from the editor: the games of `ttr simulate` (the one simulation
pipeline: playouts, the tally, findings) run in a background thread on the map as
it is in the editor, with progress after every game and a stop.

>>> from ttr_maps import load_map
>>> run = Playtest(load_map("north_america"), ("greedy", "long-route"), 2, 3, seed=1)
>>> run.start(); run.wait(); run.status().state, run.status().played
('done', 3)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from ttr_maps.model import Map

#: Most games one play-test from the page plays (a larger run: `ttr simulate`).
MAX_GAMES = 2000


class PlaytestStopped(Exception):
    """Raised inside the game loop's callback when the designer stops the run."""


@dataclass(frozen=True)
class PlaytestStatus:
    state: str  # "running", "done", "stopped" or "failed"
    #: Games played so far of `games`: the published boards' first when their
    #: baseline must be played (`phase` says which).
    played: int
    games: int
    #: The JSON the page shows when done: findings, win rates, the heatmap.
    result: dict[str, Any] | None = None
    error: str | None = None
    phase: str = ""

    def payload(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "played": self.played,
            "games": self.games,
            "result": self.result,
            "error": self.error,
            "phase": self.phase,
        }


class Playtest:
    """One background run."""

    def __init__(
        self, game_map: Map, bots: tuple[str, ...], players: int, games: int, seed: int = 1
    ) -> None:
        self.map, self.bots, self.players, self.games, self.seed = (
            game_map,
            bots,
            players,
            games,
            seed,
        )
        self._played = 0
        self._total = games
        self._phase = "the map"
        self._stop = threading.Event()
        self._state = "running"
        self._result: dict[str, Any] | None = None
        self._error: str | None = None
        self._thread = threading.Thread(target=self._run, name="ttr-edit-playtest", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def wait(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def status(self) -> PlaytestStatus:
        return PlaytestStatus(
            self._state, self._played, self._total, self._result, self._error, self._phase
        )

    def _on_game(self, game: object) -> None:
        self._played += 1
        if self._stop.is_set():
            raise PlaytestStopped

    def _run(self) -> None:
        """The run `ttr simulate --baseline auto` makes: the published boards played
        by the same bots first when no baseline is shipped or cached (then cached),
        then the map, findings set against that baseline."""
        from ttr_core.playtest.baseline import baseline_for, baseline_games, find_baseline
        from ttr_core.playtest.executors import InProcess, SimulationError, Workers
        from ttr_core.playtest.plan import PlayedMap, RunPlan
        from ttr_core.playtest.simulate import simulate

        # The bots rotate over the seats game by game, as in `ttr simulate`, so the
        # baseline for the same bots is the same one.
        plan = RunPlan(self.games, self.players, self.bots, self.seed)
        here = Workers(1, InProcess())
        try:
            if find_baseline(plan.bots, plan.players) is None:
                self._total = baseline_games(plan.players) + self.games
                self._phase = "the published boards (baseline, cached for next time)"
            baseline, _ = baseline_for(plan.bots, plan.players, here, self._on_game)
            self._phase = "the map"
            simulation = simulate(
                PlayedMap(self.map, self.map.id), plan, here, on_game=self._on_game,
                baseline=baseline,
            )  # fmt: skip
        except PlaytestStopped:
            self._state = "stopped"
            return
        except (SimulationError, ValueError) as problem:
            self._error, self._state = str(problem), "failed"
            return
        self._result = result_payload(simulation.report)
        self._state = "done"


def result_payload(report: Any) -> dict[str, Any]:
    """What the page shows of a balance report: its findings, win rates by bot and
    by seat with their 95 % intervals, each route's claim rate (the heatmap)."""
    from ttr_core.playtest.findings import summary_lines

    return {
        "games": report.games,
        "summary": summary_lines(report),
        "findings": [
            {"code": f.code, "severity": f.severity, "title": f.title, "suggestion": f.suggestion}
            for f in report.findings
        ],
        "by_bot": {
            name: {"rate": rate.rate, "ci95": list(rate.ci95), "games": rate.games}
            for name, rate in report.win_rate.by_bot.items()
        },
        "by_seat": [{"rate": r.rate, "ci95": list(r.ci95)} for r in report.win_rate.by_seat],
        "fair_share": report.win_rate.fair_share,
        "heatmap": {claims.route: claims.rate for claims in report.routes},
        "heat_colors": heat_colors(),
        "mean_turns": report.turns.mean,
    }


#: Colours sent for the heatmap's scale, evenly from a claim rate of 0 to 1.
HEAT_STEPS = 11


def heat_colors() -> list[str]:
    """The heatmap's scale as `ttr preview` draws it (`HEAT_CMAP`, a sequential
    ColorBrewer scale that reads in grey and to colour-blind eyes), as hex colours."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    from ttr_maps.render.palette import HEAT_CMAP

    cmap = colormaps[HEAT_CMAP]
    return [to_hex(cmap(i / (HEAT_STEPS - 1))) for i in range(HEAT_STEPS)]
