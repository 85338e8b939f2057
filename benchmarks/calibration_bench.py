"""Calibration benchmark: are the numbers a designer acts on right?

    .venv/bin/python benchmarks/calibration_bench.py [--only SECTION[,SECTION…]]
        [--jobs 2] [--pairs 100] [--set-games 300] [--power-runs 30]
        [--power-games 200] [--findings-games 1000] [--crowding-games 500]
        [--deck-games 400] [--decks 14] [--seed 11]

Sections (all by default):

- `fpr`: `ttr compare` on a map against itself: North America, 4 players, greedy,
  `--pairs` comparisons of two disjoint `--set-games`-game runs (the per-comparison
  false-positive rate: target at most 5 %), with the per-row rate of raw p < 0.05
  as a check of the tests' variance.
- `power`: `ttr compare` of North America against itself without one track of a
  double, played alike (paired, as `ttr compare A B` does with two maps), for three
  doubles (most, median and least claimed second track at 4 players): how often the
  changed connection is found, and how often anything is; the same runs unpaired.
- `findings`: the findings on the published boards (North America, Europe) at
  `--findings-games` games and 2-5 players with the shipped baseline's bots
  (greedy; the four styles), on seeds the baseline did not use: target no finding of
  medium or high severity.
- `crowding`: `ttr tickets`'s connections a game wanted by a player who finds no
  free track (the expected excess) against play: per game, per seat, the
  connections on the cheapest path of a ticket the seat holds at the end that it
  does not own and the others' tracks closed to it (R11), unless one of its
  stations lent it a track there (E1); equally cheap paths count alike (the chance
  that the one the seat plays goes through the connection); target within 15 % at 2-5
  players on North America and Europe (where the model's `HAND_WAGON_SHARE` was
  fitted); `--crowding-maps` adds boards it was not fitted to (by default Iran and
  the test maps Nordic and Japan) as a check; and the Spearman rank correlation of
  the connections' expected excess with how often each was blocked in play.
- `deck`: decks of several scores on North America (the published deck, suggested
  decks and random decks), each played `--deck-games` times by greedy bots at 4
  players: how the deck score relates to the ticket completion rate, the spread of
  final scores and the winner's margin (Spearman, with a permutation p-value).
- `probe`: `ttr probe` on the three bundled maps with 45 wagons, and North America
  with the printed values (target: 285, 223 from tickets).

Every section prints its CPU seconds (this process and its worker processes) and
the machine's load average before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ttr_core.playtest.baseline import DEFAULT_SEED, SHIPPED_BOTS, find_baseline
from ttr_core.playtest.compare import compare_reports, play_alike
from ttr_core.playtest.executors import iter_games
from ttr_core.playtest.playout import GameSummary
from ttr_core.playtest.simulate import Run, simulate
from ttr_core.playtest.stats import wilson_interval
from ttr_maps import load_map
from ttr_maps.analysis.tickets import TicketBoard
from ttr_maps.io.bundled import bundled_map_path
from ttr_maps.model import Map

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "data" / "reference"


# ------------------------------------------------------------------ helpers


def cpu_seconds() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    own = time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + children.ru_utime + children.ru_stime


@dataclass
class Section:
    name: str
    started_cpu: float = 0.0
    started_wall: float = 0.0
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def __enter__(self) -> Section:
        self.started_cpu, self.started_wall = cpu_seconds(), time.perf_counter()
        self.load = os.getloadavg()
        print(f"\n== {self.name} (load average {self.load[0]:.1f})", flush=True)
        return self

    def __exit__(self, *exc: object) -> None:
        cpu = cpu_seconds() - self.started_cpu
        wall = time.perf_counter() - self.started_wall
        load = os.getloadavg()
        print(
            f"-- {self.name}: {cpu:.0f} CPU s, {wall:.0f} s wall; load average "
            f"{self.load[0]:.1f} before, {load[0]:.1f} after (1 min)",
            flush=True,
        )


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def interval(successes: float, trials: int) -> str:
    low, high = wilson_interval(successes, trials)
    return f"{pct(successes / trials)} ({pct(low)}–{pct(high)})"


def map_with(game_map_id: str, text_change: Callable[[str], str], folder: Path, name: str) -> str:
    """A copy of a bundled map with its text changed, written to `folder`: its
    path (worker processes read maps from files)."""
    text = bundled_map_path(game_map_id).read_text(encoding="utf-8")
    path = folder / f"{name}.yaml"
    path.write_text(text_change(text), encoding="utf-8")
    return str(path)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(xs, ys).statistic)


def permutation_p(xs: Sequence[float], ys: Sequence[float], rounds: int = 5000) -> float:
    """Two-sided permutation p-value of Spearman's rho (seeded)."""
    observed = abs(spearman(xs, ys))
    rng = random.Random(0)
    shuffled = list(ys)
    hits = 0
    for _ in range(rounds):
        rng.shuffle(shuffled)
        hits += abs(spearman(xs, shuffled)) >= observed - 1e-12
    return (hits + 1) / (rounds + 1)


# ---------------------------------------------------------- compare: FPR


def section_fpr(args: argparse.Namespace) -> None:
    game_map = load_map("north_america")
    per_set, pairs = args.set_games, args.pairs
    total = 2 * per_set * pairs
    print(
        f"North America, 4 players, greedy: {pairs} comparisons of two disjoint runs of "
        f"{per_set} games ({total} games, seed {args.seed})"
    )
    false_alarms = 0
    rows = raw_hits = 0
    by_group: dict[str, list[int]] = {}
    runs: list[Run] = []
    for game in iter_games(game_map, "north_america", total, 4, ["greedy"], args.seed, args.jobs):
        if not runs:
            runs = [Run(game_map, "north_america", per_set, 4, ["greedy"], args.seed) for _ in "ab"]
        side = (game.index // per_set) % 2
        runs[side].add(game)
        if side == 1 and runs[1].tally.games == per_set:
            a, b = (run.finish().report for run in runs)
            comparison = compare_reports(a, b)
            false_alarms += bool(comparison.significant)
            # The raw (uncorrected) p-values: a calibrated test is below 5 % one time in 20.
            raw = _raw_p_values(a, b)
            for group, p in raw:
                counts = by_group.setdefault(group, [0, 0])
                counts[0] += p < 0.05
                counts[1] += 1
            rows += len(raw)
            raw_hits += sum(p < 0.05 for _, p in raw)
            runs = []
    print(f"comparisons with a significant difference (false alarms): {false_alarms} of {pairs}")
    print(f"  per-comparison false-positive rate {interval(false_alarms, pairs)}; target ≤ 5 %")
    print(f"rows with raw p < 0.05: {interval(raw_hits, rows)} of {rows} (a calibrated test: 5 %)")
    for group, (hits, n) in by_group.items():
        print(f"  {group:32} {interval(hits, n)} of {n}")


def _raw_p_values(a, b) -> list[tuple[str, float]]:  # type: ignore[no-untyped-def]
    """Every row's unadjusted p-value (the tests `compare_reports` corrects)."""
    from ttr_core.playtest.compare import _numbers, _unpaired_p

    return [(n.group, _unpaired_p(n.a, n.b)[0]) for n in _numbers(a, b)]


# -------------------------------------------------------- compare: power


def section_power(args: argparse.Namespace) -> None:
    game_map = load_map("north_america")
    base = simulate(game_map, "north_america", 400, 4, ["greedy"], args.seed + 1, args.jobs)
    claims = {r.route: r.rate for r in base.report.routes}
    doubles = sorted(
        ((claims[c.routes[1]], c) for c in base.report.connections if len(c.routes) == 2),
        key=lambda item: (item[0], item[1].key),
    )
    chosen = {"most": doubles[-1], "median": doubles[len(doubles) // 2], "least": doubles[0]}
    with tempfile.TemporaryDirectory() as folder:
        original = map_with("north_america", lambda t: t, Path(folder), "north_america")
        for label, (rate, connection) in chosen.items():
            a, b = connection.between
            line = _double_line(a, b)
            changed = map_with(
                "north_america",
                lambda text, line=line: _single_track(text, line),
                Path(folder),
                f"without-{label}",
            )
            other = load_map(changed)
            found = anything = unpaired_found = 0
            for run in range(args.power_runs):
                seed = args.seed * 100 + run
                a_report, b_report, sums = play_alike(
                    game_map, original, other, changed, args.power_games, 4, ["greedy"],
                    seed, args.jobs,
                )  # fmt: skip
                paired = compare_reports(a_report, b_report, paired=sums)
                plain = compare_reports(a_report, b_report)
                key = connection.key
                found += any(r.what == key for r in paired.significant)
                anything += bool(paired.significant)
                unpaired_found += any(r.what == key for r in plain.significant)
            print(
                f"{label:6} claimed second track: {connection.key} (second track in "
                f"{pct(rate)} of games): found {interval(found, args.power_runs)} "
                f"of {args.power_runs} paired comparisons of {args.power_games} games; "
                f"any difference {interval(anything, args.power_runs)}; the same runs "
                f"unpaired: found {interval(unpaired_found, args.power_runs)}",
                flush=True,
            )


def _double_line(a: str, b: str) -> str:
    return f"[{a}, {b}]"


def _single_track(text: str, between: str) -> str:
    """The map text with the double route `between` made a single track (its
    first colour kept)."""
    lines = []
    for line in text.splitlines(keepends=True):
        if f"between: {between}" in line and "color: [" in line:
            head, _, colours = line.partition("color: [")
            first = colours.split(",")[0].split("]")[0].strip()
            rest = colours.split("]", 1)[1]
            line = f"{head}color: {first}{rest}"
        lines.append(line)
    changed = "".join(lines)
    if changed == text:
        raise SystemExit(f"no double route {between} in the map text")
    return changed.replace("id: north_america", "id: north_america_changed", 1)


# ---------------------------------------------------------------- findings


def section_findings(args: argparse.Namespace) -> None:
    seed = args.seed + 7 if args.seed + 7 != DEFAULT_SEED else args.seed + 8
    print(
        f"published boards, {args.findings_games} games, seed {seed} (the baseline's is "
        f"{DEFAULT_SEED}); findings by severity"
    )
    bot_sets = [SHIPPED_BOTS[0], SHIPPED_BOTS[-1]]
    medium_or_high = 0
    for bots in bot_sets:
        for map_id in ("north_america", "europe"):
            game_map = load_map(map_id)
            for players in (2, 3, 4, 5):
                baseline = find_baseline(bots, players)
                report = simulate(
                    game_map, map_id, args.findings_games, players, list(bots), seed, args.jobs,
                    baseline=baseline,
                ).report  # fmt: skip
                found = report.findings
                serious = [f for f in found if f.severity in ("high", "medium")]
                medium_or_high += len(serious)
                names = ", ".join(f"{f.code} ({f.severity})" for f in found) or "none"
                print(
                    f"{','.join(bots):45} {map_id:14} {players}p: {len(serious)} medium/high; "
                    f"{names}; {report.screening.tests} tests",
                    flush=True,
                )
    print(f"findings of medium or high severity: {medium_or_high} (target 0)")


# ---------------------------------------------------------------- crowding


def blocked_in_play(
    game_map: Map, board: TicketBoard, game: GameSummary, players: int
) -> tuple[dict[int, float], float]:
    """Connections taken from a seat that needed them: on the cheapest path of a
    ticket it holds at the end, not owned by it, closed to it by the others' tracks
    (R11) and not lent to it by one of its stations (E1: a station lets its owner
    use one of the others' routes into its city, so nothing was taken). A ticket
    with several equally cheap paths plays each alike, as the model's usage does:
    a seat needs a connection with the chance that the cheapest path it plays for
    some ticket goes through it. The connections (index -> that chance, summed over
    the seats), and how much more was closed to a seat but lent by its station."""
    connection_of = [board.connection_index[frozenset(r.cities)] for r in game_map.routes]
    by_id = game_map.route_by_id
    owned = [[0] * len(board.connections) for _ in range(players)]
    for seat, summary in enumerate(game.seats):
        for route in summary.routes:
            owned[seat][connection_of[route]] += 1
    single = board.rules.is_single_track(players)
    blocked: dict[int, float] = {}
    lent_closed = 0.0
    for seat, summary in enumerate(game.seats):
        missed: dict[int, float] = {}  # connection -> chance no ticket's path needs it
        for ticket_index, _ in summary.tickets:
            ticket = game_map.tickets[ticket_index]
            for c, share in cheapest_path_shares(board, ticket.a, ticket.b).items():
                missed[c] = missed.get(c, 1.0) * (1.0 - share)
        lent = {board.connection_index[frozenset(by_id[r].cities)] for r in summary.station_routes}
        for c, chance_not in missed.items():
            others = sum(owned[s][c] for s in range(players) if s != seat)
            tracks = board.connections[c].tracks
            closed = others >= 1 if single else others >= tracks
            if not owned[seat][c] and closed:
                if c in lent:
                    lent_closed += 1.0 - chance_not
                else:
                    blocked[c] = blocked.get(c, 0.0) + 1.0 - chance_not
    return blocked, lent_closed


def cheapest_path_shares(board: TicketBoard, a: str, b: str) -> dict[int, float]:
    """Connection -> the share of the equally cheapest paths between `a` and `b`
    (of the board's `PATHS_PER_TICKET`) that go through it."""
    found = board.paths(a, b)
    cheapest = [p for cost, p in zip(found.costs, found.paths, strict=True) if cost == found.value]
    shares: dict[int, float] = {}
    for path in cheapest:
        for x, y in itertools.pairwise(path):
            c = board.connection_index[frozenset((x, y))]
            shares[c] = shares.get(c, 0.0) + 1.0 / len(cheapest)
    return shares


#: The boards the crowding target is on (and `HAND_WAGON_SHARE` was fitted to);
#: the other maps of `--crowding-maps` check the model on boards it never saw.
CROWDING_TARGET_MAPS = ("north_america", "europe")
CROWDING_MAPS = ",".join(
    [*CROWDING_TARGET_MAPS, "iran", "tests/data/maps/nordic.yaml", "tests/data/maps/japan.yaml"]
)


def section_crowding(args: argparse.Namespace) -> None:
    from ttr_maps.analysis.tickets import analyse_deck

    print(
        f"expected excess (ttr tickets) against blocked connections in play, greedy, "
        f"{args.crowding_games} games each"
    )
    worst = 0.0
    for map_id in args.crowding_maps.split(","):
        # A bundled id, or a path (from here, else from the checkout).
        here = not map_id.endswith(".yaml") or Path(map_id).exists()
        game_map = load_map(map_id if here else str(ROOT / map_id))
        targeted = map_id in CROWDING_TARGET_MAPS
        analysis = analyse_deck(game_map, samples=0)
        board = analysis.board
        for crowd in analysis.measures.crowding:
            players = crowd.players
            per_game: list[float] = []
            per_connection = [0.0] * len(board.connections)
            lent = 0.0
            held = held_long = 0
            played = iter_games(
                game_map, map_id, args.crowding_games, players, ["greedy"], args.seed, args.jobs
            )
            for game in played:
                blocked, lent_closed = blocked_in_play(game_map, board, game, players)
                per_game.append(sum(blocked.values()))
                lent += lent_closed
                for c, chance in blocked.items():
                    per_connection[c] += chance
                for seat in game.seats:
                    held += len(seat.tickets)
                    held_long += sum(game_map.tickets[t].long for t, _ in seat.tickets)
            games = len(per_game)
            in_play = statistics.mean(per_game)
            # 95 % interval of the mean over games (normal: hundreds of games).
            half = 1.96 * statistics.stdev(per_game) / math.sqrt(games)
            model = crowd.blocked_per_game
            off = (model - in_play) / in_play if in_play else math.inf
            if targeted:
                worst = max(worst, abs(off))
            rho = spearman(list(crowd.excess), per_connection)
            print(
                f"{Path(map_id).stem:14} {players}p{'' if targeted else ' (checked, not fitted)'}: "
                f"hand {crowd.hand:.2f}, model {model:5.2f}, play {in_play:5.2f} a game "
                f"(95 % {in_play - half:.2f}–{in_play + half:.2f}; model {off:+.1%}); "
                f"Spearman of the connections {rho:.2f}; closed but lent by a station (E1, "
                f"not counted) {lent / games:.2f} a game; tickets held a seat "
                f"{held / games / players:.2f} ({held_long / games / players:.2f} long)",
                flush=True,
            )
    print(f"largest departure on {', '.join(CROWDING_TARGET_MAPS)}: {worst:.1%} (target ≤ 15 %)")


# -------------------------------------------------------------------- decks


def section_deck(args: argparse.Namespace) -> None:
    from ttr_maps.analysis.tickets import random_deck, score_deck, suggest_deck
    from ttr_maps.authoring.ticket_block import deck_to_yaml, replace_tickets_block

    game_map = load_map("north_america")
    board = TicketBoard(game_map)
    decks = [("published", list(game_map.tickets))]
    for seed in range(2):
        decks.append((f"suggested {seed}", suggest_deck(board, 30, seed=seed)))
    decks.append(("suggested, europe profile", suggest_deck(board, 30, profile="europe")))
    rng = random.Random(args.seed)
    while len(decks) < args.decks:
        decks.append((f"random {len(decks)}", random_deck(board, 30, 0, rng)))
    print(
        f"North America, 4 players, greedy, {args.deck_games} games a deck: score "
        "(structure; lower is better) against play"
    )
    rows = []
    text = bundled_map_path("north_america").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        for name, deck in decks:
            path = Path(folder) / f"deck{len(rows)}.yaml"
            path.write_text(replace_tickets_block(text, deck_to_yaml(deck, "bench")), "utf-8")
            score = score_deck(board, deck)
            played = load_map(path)
            completed = held = 0
            totals: list[int] = []
            margins: list[int] = []
            for game in iter_games(
                played, str(path), args.deck_games, 4, ["greedy"], args.seed, args.jobs
            ):
                finals = sorted((s.total for s in game.seats), reverse=True)
                margins.append(finals[0] - finals[1])
                totals += finals
                for seat in game.seats:
                    held += len(seat.tickets)
                    completed += sum(1 for _, done in seat.tickets if done)
            rows.append(
                (name, score.total, completed / held, statistics.stdev(totals),
                 statistics.mean(margins), score.resemblance)
            )  # fmt: skip
            spread, margin = statistics.stdev(totals), statistics.mean(margins)
            print(
                f"{name:26} score {score.total:5.1f} (resemblance {score.resemblance:.2f}): "
                f"completion {interval(completed, held)}, score sd {spread:5.1f}, "
                f"winner margin {margin:5.1f}",
                flush=True,
            )
    scores = [r[1] for r in rows]
    for label, column in (("completion rate", 2), ("score spread (sd)", 3), ("winner margin", 4)):
        values = [r[column] for r in rows]
        rho = spearman(scores, values)
        print(
            f"deck score vs {label:18}: Spearman {rho:+.2f} (permutation p = "
            f"{permutation_p(scores, values):.3f}, {len(rows)} decks)"
        )


# -------------------------------------------------------------------- probe


def section_probe(args: argparse.Namespace) -> None:
    from ttr_maps.analysis.probe import load_ticket_values, solve_max_score

    for map_id in ("north_america", "europe", "iran"):
        game_map = load_map(map_id)
        variants: list[tuple[str, object]] = [("R2 values", None)]
        reference = REFERENCE / f"{map_id}.json"
        if map_id == "north_america" and reference.is_file():
            variants.append(("printed values", load_ticket_values(reference, game_map)))
        for label, tickets in variants:
            started = time.process_time()
            result = solve_max_score(game_map, 45, tickets=tickets)  # type: ignore[arg-type]
            longs = sum(t.long for t in result.tickets)
            print(
                f"{map_id:14} {label:15} {result.score:4} ({result.ticket_points} from "
                f"{len(result.tickets)} tickets, {longs} long) {result.status}, "
                f"{time.process_time() - started:.1f} CPU s",
                flush=True,
            )


SECTIONS: dict[str, Callable[[argparse.Namespace], None]] = {
    "fpr": section_fpr,
    "power": section_power,
    "findings": section_findings,
    "crowding": section_crowding,
    "deck": section_deck,
    "probe": section_probe,
}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--set-games", type=int, default=300)
    parser.add_argument("--power-runs", type=int, default=30)
    parser.add_argument("--power-games", type=int, default=200)
    parser.add_argument("--findings-games", type=int, default=1000)
    parser.add_argument("--crowding-games", type=int, default=500)
    parser.add_argument("--crowding-maps", default=CROWDING_MAPS)
    parser.add_argument("--deck-games", type=int, default=400)
    parser.add_argument("--decks", type=int, default=14)
    args = parser.parse_args(argv)
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {', '.join(unknown)}; sections: {', '.join(SECTIONS)}")
    started = cpu_seconds()
    for name in chosen:
        with Section(name):
            SECTIONS[name](args)
    print(f"\nall sections: {cpu_seconds() - started:.0f} CPU s")


if __name__ == "__main__":
    main()
