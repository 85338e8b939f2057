"""A strength ladder: bots play a round robin on one map and get ratings.

Every table of `players` distinct bots (every combination of the bots given)
plays `games` games through `ttr_core.playtest.executors.iter_games`, the machinery of
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

>>> from ttr_maps import load_map
>>> played = PlayedMap(load_map("iran"), "iran")
>>> ladder = run_ladder(played, ["greedy", "random"], games=2, seed=1)
>>> [row.bot for row in ladder.ratings]
['greedy', 'random']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from ttr_core.playtest.executors import IN_THIS_PROCESS, Workers, iter_games
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.playout import GameSummary, game_seed
from ttr_core.playtest.report import JsonRecord
from ttr_core.playtest.stats import ALPHA, Z95, holm, normal_p, wilson_interval
from ttr_maps.text import for_matplotlib

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


@dataclass(frozen=True)
class HeadToHead(JsonRecord):
    """One bot against another: the games they met in, the first one's share of
    their pair results with its 95 % interval; only `games` when they never met."""

    games: int
    wins: float | None = None
    rate: float | None = None
    ci95: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return super().to_dict() if self.games else {"games": 0, "rate": None, "ci95": None}


@dataclass(frozen=True)
class Rating(JsonRecord):
    """A bot's Bradley–Terry rating (Elo scale) with its 95 % interval, and its
    plain win rate over every game it played. `rests_on_prior`: the bot won or lost
    every one of its pair results, so the data only bound its rating and the
    number shown comes from the prior (one drawn result per pair)."""

    bot: str
    rating: float
    ci95: tuple[float, float]
    games: int
    wins: float
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_score: float
    rests_on_prior: bool


@dataclass(frozen=True)
class Contradiction(JsonRecord):
    """A pair whose head-to-head result goes against the ratings: `winner` beat
    `loser` in most of their pair results (significant after Holm's correction
    over all pairs) though `loser` is rated higher. The ratings fit every table at
    once; strengths need not be transitive."""

    winner: str
    loser: str
    rate: float
    ci95: tuple[float, float]
    p_value: float


@dataclass(frozen=True)
class TableResult(JsonRecord):
    """One table of the round robin: its bots, seed, games and wins per bot."""

    bots: tuple[str, ...]
    seed: int
    games: int
    wins: Mapping[str, float]


@dataclass(frozen=True)
class LadderSettings(JsonRecord):
    map: str
    map_name: str
    rules: str
    bots: tuple[str, ...]
    players: int
    games_per_table: int
    tables: int
    games: int
    seed: int


#: How the ladder decides what it counts (written into every ladder).
DECISIONS = {
    "tables": "every combination of `players` distinct bots plays games_per_table games",
    "seats": "seat s of game i at a table is the table's bot (s + i) mod players",
    "table_seed": "table t is seeded game_seed(seed, t); its games as in ttr simulate",
    "pairs": "in each game every pair of bots is one result, the better rank "
    "winning (ties shared), weighted 1/(players-1)",
    "rating": "Bradley-Terry maximum likelihood on the Elo scale (400 log10), "
    "mean 1500, a prior of one drawn result per pair that met",
    "ci95": "from the observed Fisher information, each rating against the mean",
    "rests_on_prior": "a bot that won or lost every pair result: its rating is the prior's",
    "contradictions": "a pair result significant after Holm over all pairs (normal test "
    "of the share against 1/2) that goes against the ratings; cycles: such wins in a ring",
    "wins": "a shared first place counts 1/k of a win",
}


@dataclass(frozen=True)
class Ladder:
    """The ladder of a round robin; `--json` writes `to_dict()`."""

    settings: LadderSettings
    #: Best first.
    ratings: tuple[Rating, ...]
    #: head_to_head[a][b]: a against b, for every other bot b.
    head_to_head: Mapping[str, Mapping[str, HeadToHead]]
    tables: tuple[TableResult, ...]
    #: Head-to-head results the ratings contradict, and cycles of significant wins
    #: (a beats b beats c beats a), each as the bots in order.
    contradictions: tuple[Contradiction, ...] = ()
    cycles: tuple[tuple[str, ...], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "ttr-ladder",
            "version": 2,
            "settings": self.settings.to_dict(),
            "decisions": dict(DECISIONS),
            "ratings": [r.to_dict() for r in self.ratings],
            "head_to_head": {
                a: {b: cell.to_dict() for b, cell in row.items()}
                for a, row in self.head_to_head.items()
            },
            "tables": [t.to_dict() for t in self.tables],
            "contradictions": [c.to_dict() for c in self.contradictions],
            "cycles": [list(c) for c in self.cycles],
        }


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

    def head_to_head(self, a: str, b: str) -> HeadToHead:
        """a against b: games at the same table, a's share of the pair results."""
        meetings = self.meetings[a][b]
        games = self.games[a][b]
        if not games:
            return HeadToHead(0)
        rate = self.wins[a][b] / meetings
        # The interval of a proportion over the games they met in (shares count).
        low, high = wilson_interval(rate * games, games)
        return HeadToHead(
            games, round(rate * games, 6), round(rate, 6), (round(low, 6), round(high, 6))
        )


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
    played: PlayedMap,
    bots: Sequence[str],
    games: int,
    players: int = 2,
    seed: int = 0,
    where: Workers = IN_THIS_PROCESS,
    on_game: Callable[[GameSummary], None] | None = None,
) -> Ladder:
    """Play the round robin on `played` and return its ladder: every table of
    `players` of the `bots` plays `games` games. Games are played where `where`
    says (`ttr_core.playtest.executors`), so the ladder is the same wherever they
    run."""
    from ttr_core.bots import check_bot_name

    for name in bots:
        try:
            check_bot_name(name)
        except ValueError as error:
            raise LadderError(str(error)) from None
    if games < 1:
        raise LadderError(f"--games must be at least 1, not {games}")
    tables = ladder_tables(bots, players)
    results = PairResults(bots)
    won = dict.fromkeys(bots, 0.0)
    seat_games = dict.fromkeys(bots, 0)
    scores: dict[str, list[int]] = {bot: [] for bot in bots}
    table_results = []
    for number, table in enumerate(tables):
        table_won = dict.fromkeys(table, 0.0)
        table_seed = game_seed(seed, number)
        table_games = iter_games(played, RunPlan(games, players, table, table_seed), where)
        for game in table_games:
            results.add(game)
            winners = [s for s in game.seats if s.rank == 1]
            for name, seat in zip(game.names, game.seats, strict=True):
                seat_games[name] += 1
                scores[name].append(seat.total)
                if seat.rank == 1:
                    won[name] += 1 / len(winners)
                    table_won[name] += 1 / len(winners)
            if on_game is not None:
                on_game(game)
        wins = {name: round(w, 6) for name, w in table_won.items()}
        table_results.append(TableResult(table, table_seed, games, wins))
    fit = bradley_terry(results)
    swept = {
        bot
        for bot in bots
        if (total := sum(results.meetings[bot].values()))
        and sum(results.wins[bot].values()) in (0.0, total)
    }
    ratings = []
    for bot in sorted(bots, key=lambda b: (-fit[b][0], bots.index(b))):
        theta, error = fit[bot]
        low, high = wilson_interval(won[bot], seat_games[bot])
        ratings.append(
            Rating(
                bot=bot,
                rating=round(ELO_MEAN + ELO * theta, 1),
                ci95=(
                    round(ELO_MEAN + ELO * (theta - Z95 * error), 1),
                    round(ELO_MEAN + ELO * (theta + Z95 * error), 1),
                ),
                games=seat_games[bot],
                wins=round(won[bot], 6),
                win_rate=round(won[bot] / seat_games[bot], 6),
                win_rate_ci95=(round(low, 6), round(high, 6)),
                mean_score=round(sum(scores[bot]) / len(scores[bot]), 3),
                rests_on_prior=bot in swept,
            )
        )
    settings = LadderSettings(
        map=played.map.id,
        map_name=played.map.name,
        rules=played.map.rules,
        bots=tuple(bots),
        players=players,
        games_per_table=games,
        tables=len(tables),
        games=games * len(tables),
        seed=seed,
    )
    head_to_head = {a: {b: results.head_to_head(a, b) for b in bots if b != a} for a in bots}
    contradictions, cycles = judge_head_to_head(ratings, head_to_head)
    return Ladder(
        settings, tuple(ratings), head_to_head, tuple(table_results), contradictions, cycles
    )


def judge_head_to_head(
    ratings: Sequence[Rating], head_to_head: Mapping[str, Mapping[str, HeadToHead]]
) -> tuple[tuple[Contradiction, ...], tuple[tuple[str, ...], ...]]:
    """The pair results that are significant (Holm over all pairs that met: the
    share of pair results against 1/2), those that go against the ratings, and the
    cycles they make (a beats b beats c … beats a)."""
    rating = {r.bot: r.rating for r in ratings}
    pairs = [
        (a, b, cell)
        for a, row in head_to_head.items()
        for b, cell in row.items()
        if a < b and cell.games and cell.rate is not None
    ]
    p_values = [normal_p(cell.rate - 0.5, math.sqrt(0.25 / cell.games)) for _, _, cell in pairs]
    wins: dict[str, set[str]] = {bot: set() for bot in rating}
    contradictions = []
    for (a, b, cell), p in zip(pairs, holm(p_values), strict=True):
        if p >= ALPHA or cell.rate is None or cell.ci95 is None:
            continue
        winner, loser = (a, b) if cell.rate > 0.5 else (b, a)
        wins[winner].add(loser)
        if rating[loser] > rating[winner]:
            won = head_to_head[winner][loser]
            assert won.rate is not None and won.ci95 is not None
            contradictions.append(Contradiction(winner, loser, won.rate, won.ci95, round(p, 6)))
    return tuple(contradictions), _cycles(wins)


def _cycles(wins: Mapping[str, set[str]]) -> tuple[tuple[str, ...], ...]:
    """Every simple cycle of the win graph, once each, starting at its first bot
    by name (a few bots: a depth-first search is enough)."""
    found: list[tuple[str, ...]] = []

    def walk(path: list[str]) -> None:
        for nxt in sorted(wins[path[-1]]):
            if nxt == path[0] and len(path) > 2:
                found.append(tuple(path))
            elif nxt > path[0] and nxt not in path:
                walk([*path, nxt])

    for start in sorted(wins):
        walk([start])
    return tuple(found)


def ladder_picture(ladder: Ladder) -> bytes:
    """A PNG: the ratings with their intervals, and the head-to-head table."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ttr_maps.render.figure import text_safe_figure_class

    ratings = ladder.ratings
    order = [row.bot for row in ratings]
    n = len(order)
    figure, (left, right) = plt.subplots(
        1,
        2,
        figsize=(7 + 0.5 * n, 1.2 + 0.45 * n + 1.5),
        gridspec_kw={"width_ratios": [1, 1.1]},
        FigureClass=text_safe_figure_class(),  # names never stop the drawing
    )
    settings = ladder.settings
    figure.suptitle(
        f"{for_matplotlib(settings.map)}: {settings.players} players, "
        f"{settings.games_per_table} games a table, {settings.games} games",
        fontsize=11,
    )
    positions = list(range(n))[::-1]
    values = [row.rating for row in ratings]
    lows = [row.rating - row.ci95[0] for row in ratings]
    highs = [row.ci95[1] - row.rating for row in ratings]
    left.errorbar(values, positions, xerr=[lows, highs], fmt="o", color="#1f77b4", capsize=4)
    left.axvline(ELO_MEAN, color="#999999", linewidth=0.8, linestyle="--")
    left.set_yticks(positions, order)
    left.set_xlabel("rating (Bradley–Terry, Elo scale, 95 % interval)")
    left.grid(axis="x", alpha=0.3)
    grid = [[float("nan")] * n for _ in range(n)]
    head = ladder.head_to_head
    for i, a in enumerate(order):
        for j, b in enumerate(order):
            cell = head[a].get(b) if a != b else None
            if cell is not None and cell.rate is not None:
                grid[i][j] = cell.rate
                ink = "white" if abs(cell.rate - 0.5) > 0.3 else "black"
                right.text(
                    j,
                    i,
                    f"{100 * cell.rate:.0f}",
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
