"""A strength ladder: bots play a round robin on one map and get ratings.

Every table of `players` distinct bots (every combination of the bots given)
plays `games` games through `ttr_core.playtest.simulate.iter_games`, the machinery of
`ttr simulate`: seat `s` of game `i` goes to the table's bot `(s + i) mod players`,
so with `games` a multiple of `players` every bot sits in every seat equally
often. Table `t` is seeded `game_seed(seed, t)`.

Each game is read as pairwise results between the bots at the table: the one
ranked higher (R17) beats the other, equal ranks share the point. In a game of
`P` players each pair counts `1/(P-1)`, so every game weighs one result per bot.

Ratings are Bradley–Terry strengths fitted by maximum likelihood (Hunter's MM
iterations), shown on the Elo scale (`400 log10` of the strength) around a mean
of 1500: a 200-point gap means the stronger bot wins about 76 % of its pairs.
A prior of one shared (drawn) result per pair that met keeps ratings finite when
a bot wins every game. The 95 % intervals come from the observed Fisher
information of the fit (each rating against the mean of all).

>>> report = run_ladder("north_america", ["greedy", "random"], games=2, players=2, seed=1)
>>> [row["bot"] for row in report["ratings"]]
['greedy', 'random']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ttr_core.playtest.simulate import GameSummary, game_seed, iter_games, wilson_interval

if TYPE_CHECKING:
    from ttr_core.playtest.executors import Executor

#: z for a 95 % confidence interval.
Z95 = 1.959963984540054
#: Elo points per natural-log unit of strength.
ELO = 400 / math.log(10)
#: The mean rating.
ELO_MEAN = 1500.0


class LadderError(ValueError):
    """The ladder cannot be played as asked (the message says why)."""


def ladder_tables(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every table of `players` distinct bots, in the order the bots were given."""
    if len(set(bots)) != len(bots):
        raise LadderError(f"--bots names a bot twice: {', '.join(bots)}")
    if len(bots) < 2:
        raise LadderError("a ladder needs at least two bots")
    if players > len(bots):
        raise LadderError(
            f"{players} players need at least {players} different bots; got {len(bots)}"
        )
    return list(combinations(bots, players))


class PairResults:
    """Pairwise results between bots: wins[a][b] is a's (weighted) wins over b."""

    def __init__(self, bots: Sequence[str]) -> None:
        self.bots = list(bots)
        self.wins = {a: dict.fromkeys(bots, 0.0) for a in bots}
        self.meetings = {a: dict.fromkeys(bots, 0.0) for a in bots}
        self.games = {a: dict.fromkeys(bots, 0) for a in bots}

    def add(self, game: GameSummary) -> None:
        """R17: the better rank wins the pair; equal ranks share it."""
        weight = 1 / (len(game.names) - 1)
        for i, j in combinations(range(len(game.names)), 2):
            a, b = game.names[i], game.names[j]
            rank_a, rank_b = game.seats[i].rank, game.seats[j].rank
            share_a = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
            self.wins[a][b] += weight * share_a
            self.wins[b][a] += weight * (1 - share_a)
            self.meetings[a][b] += weight
            self.meetings[b][a] += weight
            self.games[a][b] += 1
            self.games[b][a] += 1

    def head_to_head(self, a: str, b: str) -> dict[str, Any]:
        """a against b: games at the same table, a's share of the pair results."""
        meetings = self.meetings[a][b]
        games = self.games[a][b]
        if not games:
            return {"games": 0, "rate": None, "ci95": None}
        rate = self.wins[a][b] / meetings
        # The interval of a proportion over the games they met in (shares count).
        low, high = wilson_interval(rate * games, games)
        return {
            "games": games,
            "wins": round(rate * games, 6),
            "rate": round(rate, 6),
            "ci95": [round(low, 6), round(high, 6)],
        }


def bradley_terry(results: PairResults, iterations: int = 10_000) -> dict[str, tuple[float, float]]:
    """Per bot: (log strength, its standard error), log strengths centred on 0.

    MM iterations (Hunter 2004) with one drawn result added to every pair that met.
    """
    bots = results.bots
    wins = {a: {b: results.wins[a][b] + _prior(results, a, b) for b in bots} for a in bots}
    meetings = {
        a: {b: results.meetings[a][b] + 2 * _prior(results, a, b) for b in bots} for a in bots
    }
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(iterations):
        changed = 0.0
        updated = {}
        for a in bots:
            total = sum(wins[a].values())
            denominator = sum(meetings[a][b] / (strength[a] + strength[b]) for b in bots if b != a)
            updated[a] = total / denominator if denominator else strength[a]
        # Fix the scale: the geometric mean of the strengths is 1.
        centre = math.exp(sum(math.log(s) for s in updated.values()) / len(bots))
        for a in bots:
            value = updated[a] / centre
            changed = max(changed, abs(math.log(value) - math.log(strength[a])))
            strength[a] = value
        if changed < 1e-10:
            break
    theta = {a: math.log(strength[a]) for a in bots}
    errors = _standard_errors(bots, theta, meetings)
    return {a: (theta[a], errors[a]) for a in bots}


def _prior(results: PairResults, a: str, b: str) -> float:
    return 0.5 if a != b and results.games[a][b] else 0.0


def _standard_errors(
    bots: list[str], theta: dict[str, float], meetings: dict[str, dict[str, float]]
) -> dict[str, float]:
    """From the observed information, a graph Laplacian L with the constant vector
    in its null space; the covariance of the centred ratings is its pseudo-inverse
    (L + J/n)^-1 - J/n (J all ones)."""
    n = len(bots)
    info = [[0.0] * n for _ in range(n)]
    for i, a in enumerate(bots):
        for j, b in enumerate(bots):
            if i != j and meetings[a][b]:
                p = 1 / (1 + math.exp(theta[b] - theta[a]))
                w = meetings[a][b] * p * (1 - p)
                info[i][j] -= w
                info[i][i] += w
    shifted = [[info[i][j] + 1 / n for j in range(n)] for i in range(n)]
    inverse = _invert(shifted)
    return {a: math.sqrt(max(inverse[i][i] - 1 / n, 0.0)) for i, a in enumerate(bots)}


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan inverse with partial pivoting (a few bots: a tiny matrix)."""
    n = len(matrix)
    rows = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(rows[r][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        scale = rows[column][column]
        rows[column] = [value / scale for value in rows[column]]
        for r in range(n):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [v - factor * p for v, p in zip(rows[r], rows[column], strict=True)]
    return [row[n:] for row in rows]


def run_ladder(
    map_argument: str,
    bots: Sequence[str],
    games: int,
    players: int = 2,
    seed: int = 0,
    jobs: int = 1,
    on_game: Callable[[GameSummary], None] | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Play the round robin and return the ladder report (a JSON-ready dict).
    Games are played by `executor` (`ttr_core.playtest.executors`; default: `jobs` local
    processes), so the report is the same wherever they run."""
    from ttr_core.bots import check_bot_name
    from ttr_maps.load import load_map

    for name in bots:
        try:
            check_bot_name(name)
        except ValueError as error:
            raise LadderError(str(error)) from None
    if games < 1:
        raise LadderError(f"--games must be at least 1, not {games}")
    tables = ladder_tables(bots, players)
    game_map = load_map(map_argument)
    results = PairResults(bots)
    won = dict.fromkeys(bots, 0.0)
    played = dict.fromkeys(bots, 0)
    scores: dict[str, list[int]] = {bot: [] for bot in bots}
    table_rows = []
    for number, table in enumerate(tables):
        table_won = dict.fromkeys(table, 0.0)
        table_seed = game_seed(seed, number)
        table_games = iter_games(
            map_argument, games, players, table, table_seed, jobs, executor=executor
        )
        for game in table_games:
            results.add(game)
            winners = [s for s in game.seats if s.rank == 1]
            for name, seat in zip(game.names, game.seats, strict=True):
                played[name] += 1
                scores[name].append(seat.total)
                if seat.rank == 1:
                    won[name] += 1 / len(winners)
                    table_won[name] += 1 / len(winners)
            if on_game is not None:
                on_game(game)
        table_rows.append(
            {
                "bots": list(table),
                "seed": table_seed,
                "games": games,
                "wins": {name: round(w, 6) for name, w in table_won.items()},
            }
        )
    fit = bradley_terry(results)
    ratings = []
    for bot in sorted(bots, key=lambda b: (-fit[b][0], bots.index(b))):
        theta, error = fit[bot]
        low, high = wilson_interval(won[bot], played[bot])
        ratings.append(
            {
                "bot": bot,
                "rating": round(ELO_MEAN + ELO * theta, 1),
                "ci95": [
                    round(ELO_MEAN + ELO * (theta - Z95 * error), 1),
                    round(ELO_MEAN + ELO * (theta + Z95 * error), 1),
                ],
                "games": played[bot],
                "wins": round(won[bot], 6),
                "win_rate": round(won[bot] / played[bot], 6),
                "win_rate_ci95": [round(low, 6), round(high, 6)],
                "mean_score": round(sum(scores[bot]) / len(scores[bot]), 3),
            }
        )
    return {
        "format": "ttr-ladder",
        "version": 1,
        "settings": {
            "map": game_map.id,
            "map_name": game_map.name,
            "rules": game_map.rules,
            "bots": list(bots),
            "players": players,
            "games_per_table": games,
            "tables": len(tables),
            "games": games * len(tables),
            "seed": seed,
        },
        "decisions": {
            "tables": "every combination of `players` distinct bots plays games_per_table games",
            "seats": "seat s of game i at a table is the table's bot (s + i) mod players",
            "table_seed": "table t is seeded game_seed(seed, t); its games as in ttr simulate",
            "pairs": "in each game every pair of bots is one result, the better rank "
            "winning (ties shared), weighted 1/(players-1)",
            "rating": "Bradley-Terry maximum likelihood on the Elo scale (400 log10), "
            "mean 1500, a prior of one drawn result per pair that met",
            "ci95": "from the observed Fisher information, each rating against the mean",
            "wins": "a shared first place counts 1/k of a win",
        },
        "ratings": ratings,
        "head_to_head": {a: {b: results.head_to_head(a, b) for b in bots if b != a} for a in bots},
        "tables": table_rows,
    }


def ladder_picture(report: dict[str, Any]) -> bytes:
    """A PNG: the ratings with their intervals, and the head-to-head table."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = report["ratings"]
    order = [row["bot"] for row in ratings]
    n = len(order)
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(7 + 0.5 * n, 1.2 + 0.45 * n + 1.5), gridspec_kw={"width_ratios": [1, 1.1]}
    )
    settings = report["settings"]
    figure.suptitle(
        f"{settings['map']}: {settings['players']} players, "
        f"{settings['games_per_table']} games a table, {settings['games']} games",
        fontsize=11,
    )
    positions = list(range(n))[::-1]
    values = [row["rating"] for row in ratings]
    lows = [row["rating"] - row["ci95"][0] for row in ratings]
    highs = [row["ci95"][1] - row["rating"] for row in ratings]
    left.errorbar(values, positions, xerr=[lows, highs], fmt="o", color="#1f77b4", capsize=4)
    left.axvline(ELO_MEAN, color="#999999", linewidth=0.8, linestyle="--")
    left.set_yticks(positions, order)
    left.set_xlabel("rating (Bradley–Terry, Elo scale, 95 % interval)")
    left.grid(axis="x", alpha=0.3)
    grid = [[float("nan")] * n for _ in range(n)]
    head = report["head_to_head"]
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            cell = head[a].get(b) if a != b else None
            if cell and cell["rate"] is not None:
                grid[i][j] = cell["rate"]
                ink = "white" if abs(cell["rate"] - 0.5) > 0.3 else "black"
                right.text(
                    j,
                    i,
                    f"{100 * cell['rate']:.0f}",
                    ha="center",
                    va="center",
                    color=ink,
                    fontsize=8,
                )
    right.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    right.set_xticks(range(n), order, rotation=40, ha="right")
    right.set_yticks(range(n), order)
    right.set_title("row beats column, % of pair results", fontsize=9)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110)
    plt.close(figure)
    return buffer.getvalue()
