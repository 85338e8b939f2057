"""Calibration benchmark: are the numbers a designer acts on right?

    .venv/bin/python benchmarks/calibration_bench.py [--only SECTION[,SECTION…]]
        [--jobs 2] [--seed 11] [--order-runs 6] [--order-games 200]
        [--baseline-runs 10] [--stability-seeds 20] [--stability-games 100]
        [--truth-games 10000] [--pairs 100] [--set-games 300] [--power-runs 30]
        [--power-games 200] [--findings-games 1000] [--crowding-games 500]
        [--estimate-games 100] [--deck-games 300] [--deck-sizes 4,2]

Sections (all by default). The unfitted maps are test maps of real places made by
`ttr new --cities` (tests/data/maps/new_*.yaml: Italy, the Nordic countries,
Iberia, Germany), by a region script (nordic.yaml, japan.yaml), and Iran (our own
board): none of the play-test's numbers was fitted to them unless said.

- `order`: `ttr compare` of a map with the same map written in another order (every
  list shuffled, each route's and ticket's cities swapped, a double's colours
  reversed), played alike: rows flagged (target: none) and the map diff (none).
- `baseline`: `ttr simulate north_america --bots greedy,long-route --players 2` with
  the default baseline (auto): reports with a finding on the published board itself
  (target: none), against the same runs set against fair shares.
- `stability`: the findings of `--stability-seeds` runs of `--stability-games` games
  (greedy, 4 players) on two unfitted maps: pairs whose confirmed findings differ;
  pairs where one run confirms what the other does not name at all (neither a finding
  nor undecided: target none); severities decided both ways (flips: target none);
  and each finding of a `--truth-games` run, how often the short runs confirm it,
  leave it undecided or do not name it.
- `fpr`: `ttr compare` on a map against itself: North America, 4 players, greedy,
  `--pairs` comparisons of two disjoint `--set-games`-game runs (the per-comparison
  false-positive rate: target at most 5 %), with the per-row rate of raw p < 0.05
  as a check of the tests' variance.
- `power`: `ttr compare` of North America against itself without one track of a
  double, played alike (paired), for three doubles (most, median and least claimed
  second track at 4 players): how often the changed connection is found; the same
  runs unpaired.
- `findings`: the findings on the published boards at `--findings-games` games and
  2-5 players with the shipped baseline's bots, on seeds the baseline did not use:
  target no finding whose severity reaches medium.
- `crowding`: the connections a game takes from players who needed them, counted by
  `ttr tickets --games` (`--estimate-games` games a table size) against a long run
  of play (`--crowding-games`, another seed): target within 15 % at 2-5 players on
  every map, the unfitted ones included; and the old model's count beside them.
- `deck`: decks of many difficulties on each map (its own, random, short, long and
  suggested decks), played `--deck-games` times by greedy bots at `--deck-sizes`
  players: Spearman's rank correlation of the deck number with the completion of
  held tickets, with scipy's p-value, per map and table size and over every deck of
  the unfitted maps; target |rho| >= 0.7 and p < 0.01.
- `probe`: `ttr probe` on the three bundled maps with 45 wagons, and North America
  with the printed values (target: 285, 223 from tickets).

Every section prints its CPU seconds (this process and its worker processes) and
the machine's load average before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ttr_core.playtest.baseline import DEFAULT_SEED, SHIPPED_BOTS, find_baseline
from ttr_core.playtest.compare import compare_maps, compare_reports, play_alike
from ttr_core.playtest.crowding import games_at, played_deck
from ttr_core.playtest.executors import Workers, iter_games
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.simulate import Run, simulate
from ttr_core.playtest.stats import wilson_interval
from ttr_maps import load_map
from ttr_maps.analysis.tickets import TicketBoard
from ttr_maps.io.bundled import bundled_map_path, resolve_map_argument
from ttr_maps.model import Map, Ticket

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "data" / "reference"
TEST_MAPS = ROOT / "tests" / "data" / "maps"
#: Maps made by `ttr new --cities` from four real regions, none fitted to.
NEW_MAPS = ("new_italy", "new_nordic", "new_iberia", "new_germany")


def test_map(name: str) -> str:
    return str(TEST_MAPS / f"{name}.yaml")


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


def spearman(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """Spearman's rho and its two-sided p-value (scipy)."""
    from scipy.stats import spearmanr

    result = spearmanr(xs, ys)
    return float(result.statistic), float(result.pvalue)


def reordered_file(source: str, folder: Path, seed: int) -> str:
    """The map at `source` written in another order (tests/reordered.py), as a file."""
    import yaml

    sys.path.insert(0, str(ROOT / "tests"))
    from reordered import map_data, reordered_data  # the test suite's own shuffle

    data = reordered_data(map_data(source), random.Random(seed))
    path = folder / f"{Path(source).stem}-reordered.yaml"
    text = "# ttr: disable=TTR352,TTR451\n" + yaml.safe_dump(
        data, allow_unicode=True, sort_keys=False
    )
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ order


def section_order(args: argparse.Namespace) -> None:
    print(
        f"each map against itself written in another order, played alike: {args.order_runs} "
        f"comparisons of {args.order_games} games a map, greedy, 4 players"
    )
    where = Workers(args.jobs)
    with tempfile.TemporaryDirectory() as folder:
        for name in NEW_MAPS[:2]:
            source = test_map(name)
            other = reordered_file(source, Path(folder), 1)
            a, b = PlayedMap(load_map(source), source), PlayedMap(load_map(other), other)
            flagged = []
            for run in range(args.order_runs):
                plan = RunPlan(args.order_games, 4, ("greedy",), args.seed + run)
                comparison = compare_maps(a, b, plan, where)
                flagged.append(len(comparison.significant))
                diff = len(comparison.diff)
            print(
                f"{name:12} rows flagged per comparison {flagged} of {len(comparison.rows)} "
                f"(target 0); map diff {diff} changes (target 0)",
                flush=True,
            )


# ------------------------------------------------------------------ baseline


def section_baseline(args: argparse.Namespace) -> None:
    from ttr_core.playtest.baseline import baseline_for

    bots = ("greedy", "long-route")
    print(
        f"north_america, {','.join(bots)}, 2 players, {args.baseline_runs} runs of 100 games: "
        "findings with the default baseline against the same runs set against fair shares"
    )
    played = PlayedMap(load_map("north_america"), "north_america")
    published, path = baseline_for(bots, 2, Workers(args.jobs))
    print(f"baseline: {published.source}" + (f" (played now, cached in {path})" if path else ""))
    with_baseline = against_fair = 0
    for run in range(args.baseline_runs):
        plan = RunPlan(100, 2, bots, args.seed + run)
        report = simulate(played, plan, Workers(args.jobs), baseline=published).report
        fair = simulate(played, plan, Workers(args.jobs)).report
        with_baseline += bool(report.findings)
        against_fair += bool(fair.findings)
        codes = [f"{f.code} ({f.severity})" for f in fair.findings]
        print(
            f"seed {plan.seed}: findings {[f.code for f in report.findings]} (against fair "
            f"shares: {codes})",
            flush=True,
        )
    print(
        f"reports with a finding on the published board: {with_baseline} of "
        f"{args.baseline_runs} (target 0); against fair shares {against_fair}"
    )


# ------------------------------------------------------------------ stability


def _finding_items(report: object) -> tuple[dict[str, str], set[str]]:
    """The findings of a report (item -> severity) and its undecided items, an item
    being a rule and its subject (a place in the turn order, a bot)."""
    confirmed: dict[str, str] = {}
    for f in report.findings:  # type: ignore[attr-defined]
        subject = getattr(f.evidence, "turn_order", None) or getattr(f.evidence, "bot", "")
        confirmed[f"{f.code} {subject}".strip()] = f.severity
    undecided = set()
    for u in report.undecided:  # type: ignore[attr-defined]
        words = u.subject.split()
        code = u.code
        if code == "routes":
            code = "rarely-claimed-routes" if words[0] == "rare" else "always-claimed-routes"
            subject = ""
        elif code in ("seat-advantage", "dominant-style", "longest-path-concentrated"):
            subject = words[1]
        else:
            subject = ""
        undecided.add(f"{code} {subject}".strip())
    return confirmed, undecided


def section_stability(args: argparse.Namespace) -> None:
    print(
        f"findings of {args.stability_seeds} runs of {args.stability_games} games (greedy, "
        f"4 players, the shipped baseline) against one run of {args.truth_games} games"
    )
    where = Workers(args.jobs)
    published = find_baseline(["greedy"], 4)
    decided = {"high", "medium", "low"}
    for name in NEW_MAPS[:2]:
        played = PlayedMap(load_map(test_map(name)), test_map(name))
        truth = simulate(
            played, RunPlan(args.truth_games, 4, ("greedy",), 9999), where, baseline=published
        ).report
        true_items, _ = _finding_items(truth)
        runs = []
        for seed in range(1, args.stability_seeds + 1):
            plan = RunPlan(args.stability_games, 4, ("greedy",), seed)
            runs.append(_finding_items(simulate(played, plan, where, baseline=published).report))
        pairs = list(itertools.combinations(runs, 2))
        differ = sum(set(a[0]) != set(b[0]) for a, b in pairs)
        unnamed = sum(
            any(item not in y[0] and item not in y[1] for item in x[0])
            for a, b in pairs
            for x, y in ((a, b), (b, a))
        )
        flips = sum(
            1
            for a, b in pairs
            for item in set(a[0]) & set(b[0])
            if a[0][item] != b[0][item] and {a[0][item], b[0][item]} <= decided
        )
        print(
            f"{name}: {len(pairs)} pairs; confirmed findings differ in {differ} "
            f"({100 * differ / len(pairs):.0f} %); one confirms what the other does not name "
            f"{unnamed} (target 0); severity flips {flips} (target 0); reports with nothing "
            f"confirmed {sum(not r[0] for r in runs)}"
        )
        for item, severity in true_items.items():
            confirmed = sum(item in r[0] for r in runs)
            undecided = sum(item in r[1] and item not in r[0] for r in runs)
            print(
                f"  {args.truth_games}-game finding {item} ({severity}): confirmed in "
                f"{confirmed}, undecided in {undecided}, not named in "
                f"{len(runs) - confirmed - undecided} of {len(runs)} runs",
                flush=True,
            )


# ---------------------------------------------------------- compare: FPR


def section_fpr(args: argparse.Namespace) -> None:
    played = PlayedMap(load_map("north_america"), "north_america")
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
    plan = RunPlan(total, 4, ("greedy",), args.seed)
    for game in iter_games(played, plan, Workers(args.jobs)):
        if not runs:
            runs = [Run(played, RunPlan(per_set, 4, ("greedy",), args.seed)) for _ in "ab"]
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
    played = PlayedMap(game_map, "north_america")
    base = simulate(played, RunPlan(400, 4, ("greedy",), args.seed + 1), Workers(args.jobs))
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
            other = PlayedMap(load_map(changed), changed)
            found = anything = unpaired_found = 0
            for run in range(args.power_runs):
                plan = RunPlan(args.power_games, 4, ("greedy",), args.seed * 100 + run)
                a_report, b_report, sums = play_alike(
                    PlayedMap(game_map, original), other, plan, Workers(args.jobs)
                )
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
    from ttr_core.playtest.baseline import PUBLISHED_BOARDS

    seed = args.seed + 7 if args.seed + 7 != DEFAULT_SEED else args.seed + 8
    print(
        f"published boards, {args.findings_games} games, seed {seed} (the baseline's is "
        f"{DEFAULT_SEED}); findings by severity"
    )
    bot_sets = [SHIPPED_BOTS[0], SHIPPED_BOTS[-1]]
    serious_count = 0
    for bots in bot_sets:
        for map_id in PUBLISHED_BOARDS:
            played = PlayedMap(load_map(map_id), map_id)
            for players in (2, 3, 4, 5):
                plan = RunPlan(args.findings_games, players, tuple(bots), seed)
                report = simulate(
                    played, plan, Workers(args.jobs), baseline=find_baseline(bots, players)
                ).report
                found = report.findings
                serious = [f for f in found if "medium" in f.severity or "high" in f.severity]
                serious_count += len(serious)
                names = ", ".join(f"{f.code} ({f.severity})" for f in found) or "none"
                print(
                    f"{','.join(bots):45} {map_id:14} {players}p: {len(serious)} medium or "
                    f"more; {names}; {len(report.undecided)} undecided; "
                    f"{report.screening.tests} tests",
                    flush=True,
                )
    print(f"findings of medium severity or more: {serious_count} (target 0)")


# ---------------------------------------------------------------- crowding


#: The maps the crowding section checks: the published boards, Iran, and test maps
#: of real places (none of them tunes the count in play: it is counted).
CROWDING_MAPS = ",".join(
    ["north_america", "europe", "iran", *(test_map(n) for n in NEW_MAPS), test_map("japan")]
)


def section_crowding(args: argparse.Namespace) -> None:
    from ttr_maps.analysis.tickets import analyse_deck

    print(
        f"connections taken a game: `ttr tickets --games {args.estimate_games}` (that many games "
        "at 4 players, as many seat-games at the others; seed 1) "
        f"against {args.crowding_games} games of play (seed {args.seed}), greedy; the old "
        "model beside"
    )
    worst = 0.0
    where = Workers(args.jobs)
    for map_id in args.crowding_maps.split(","):
        game_map = load_map(map_id)
        played = PlayedMap(game_map, map_id)
        analysis = analyse_deck(game_map, samples=0)
        board = analysis.board
        model = {c.players: c.blocked_per_game for c in analysis.measures.crowding}
        for players in board.rules.player_counts():
            estimate = played_deck(
                played, board, players, games_at(players, args.estimate_games), where=where
            )
            play = played_deck(played, board, players, args.crowding_games, args.seed, where)
            off = (estimate.blocked_per_game - play.blocked_per_game) / play.blocked_per_game
            model_off = (model[players] - play.blocked_per_game) / play.blocked_per_game
            worst = max(worst, abs(off))
            rho, _ = spearman(estimate.blocked, play.blocked)
            low, high = play.blocked_ci95
            print(
                f"{Path(map_id).stem:14} {players}p: estimate {estimate.blocked_per_game:5.2f}, "
                f"play {play.blocked_per_game:5.2f} a game (95 % {low:.2f}–{high:.2f}): "
                f"{off:+.1%} (target within 15 %); the model {model[players]:5.2f} "
                f"({model_off:+.1%}); Spearman of the connections {rho:.2f}; completion "
                f"{pct(estimate.completion)} / {pct(play.completion)}",
                flush=True,
            )
    print(f"largest departure of the estimate from play: {worst:.1%} (target ≤ 15 %)")


# -------------------------------------------------------------------- decks


def _band_deck(
    board: TicketBoard, size: int, low: float, high: float, rng: random.Random, keep: list[Ticket]
) -> list[Ticket]:
    """`size` tickets between cities `low`..`high` of the diameter apart (plus `keep`)."""
    from ttr_maps.analysis.tickets import ticket_for

    taken = {frozenset(t.cities) for t in keep}
    pairs = [
        p
        for p in board.pairs
        if low <= board.distance[p[0]][p[1]] / board.diameter <= high and frozenset(p) not in taken
    ]
    return [ticket_for(board, a, b) for a, b in rng.sample(pairs, min(size, len(pairs)))] + keep


def bench_decks(game_map: Map, board: TicketBoard, seed: int) -> list[tuple[str, list[Ticket]]]:
    """Decks of many difficulties on a map: its own, three random, two short, two
    long and two suggested (aimed at the published decks' number), all of at least
    30 regular tickets (and the map's long ones)."""
    from ttr_maps.analysis.tickets import DeckError, random_deck, suggest_deck

    rng = random.Random(seed)
    own = list(game_map.tickets)
    longs = [t for t in own if t.long]
    size = max(len(own) - len(longs), 30)
    decks = [("own", own)]
    decks += [(f"random {i}", random_deck(board, size, len(longs), rng)) for i in range(3)]
    decks += [(f"short {i}", _band_deck(board, size, 0.0, 0.4, rng, longs)) for i in range(2)]
    decks += [(f"long {i}", _band_deck(board, size, 0.5, 1.0, rng, longs)) for i in range(2)]
    for i in range(2):
        try:
            suggested = suggest_deck(board, size, len(longs), seed=i, iterations=600)
        except DeckError as error:
            print(f"  no suggestion: {error}")
            continue
        decks.append((f"suggested {i}", list(suggested.tickets)))
    return decks


#: The maps the deck number was fitted to (`COMPLETION_MODEL`), and the others.
DECK_FIT_MAPS = ("north_america", "europe", "iran", "new_nordic")
DECK_MAPS = ",".join(
    ["north_america", "europe", "iran", "new_nordic", "new_italy", "new_iberia", "new_germany",
     "japan", "nordic"]
)  # fmt: skip


def section_deck(args: argparse.Namespace) -> None:
    from ttr_maps.analysis.tickets import measure_deck
    from ttr_maps.authoring.ticket_block import deck_to_yaml, replace_tickets_block

    sizes = [int(n) for n in args.deck_sizes.split(",")]
    print(
        f"decks of many difficulties, {args.deck_games} greedy games a deck at {sizes} players: "
        "the deck number against the completion of held tickets"
    )
    unfitted: dict[int, list[tuple[float, float]]] = {n: [] for n in sizes}
    where = Workers(args.jobs)
    for name in args.deck_maps.split(","):
        argument = name if name in ("north_america", "europe", "iran") else test_map(name)
        game_map = load_map(argument)
        board = TicketBoard(game_map)
        text = Path(resolve_map_argument(argument)).read_text(encoding="utf-8")
        fitted = name in DECK_FIT_MAPS
        rows: dict[int, list[tuple[float, float]]] = {n: [] for n in sizes}
        with tempfile.TemporaryDirectory() as folder:
            for label, deck in bench_decks(game_map, board, args.seed):
                path = Path(folder) / f"{label.replace(' ', '-')}.yaml"
                new = replace_tickets_block(text, deck_to_yaml(deck, "bench"))
                path.write_text("# ttr: disable=TTR352,TTR451\n" + new, encoding="utf-8")
                played = PlayedMap(load_map(path), str(path))
                numbers = measure_deck(board, deck).completion
                line = f"{name:14} {label:12}"
                for players in sizes:
                    held = done = 0
                    plan = RunPlan(args.deck_games, players, ("greedy",), args.seed)
                    for game in iter_games(played, plan, where):
                        for seat in game.seats:
                            held += len(seat.tickets)
                            done += sum(ok for _, ok in seat.tickets)
                    rows[players].append((numbers[players], done / held))
                    line += f"  {players}p number {pct(numbers[players])} play {pct(done / held)}"
                print(line, flush=True)
        for players in sizes:
            rho, p = spearman(*zip(*rows[players], strict=True))
            error = statistics.fmean(abs(a - b) for a, b in rows[players])
            print(
                f"{name:14} {players}p{' (fitted)' if fitted else ''}: Spearman {rho:+.2f}, "
                f"p = {p:.2g} ({len(rows[players])} decks); mean |number − play| "
                f"{100 * error:.1f} points",
                flush=True,
            )
            if not fitted:
                unfitted[players] += rows[players]
    for players in sizes:
        if unfitted[players]:
            rho, p = spearman(*zip(*unfitted[players], strict=True))
            print(
                f"every deck of the maps not fitted to, {players}p: Spearman {rho:+.2f}, "
                f"p = {p:.2g} ({len(unfitted[players])} decks); target |rho| >= 0.7, p < 0.01"
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
    "order": section_order,
    "baseline": section_baseline,
    "stability": section_stability,
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
    parser.add_argument("--order-runs", type=int, default=6)
    parser.add_argument("--order-games", type=int, default=200)
    parser.add_argument("--baseline-runs", type=int, default=10)
    parser.add_argument("--stability-seeds", type=int, default=20)
    parser.add_argument("--stability-games", type=int, default=100)
    parser.add_argument("--truth-games", type=int, default=10_000)
    parser.add_argument("--pairs", type=int, default=100)
    parser.add_argument("--set-games", type=int, default=300)
    parser.add_argument("--power-runs", type=int, default=30)
    parser.add_argument("--power-games", type=int, default=200)
    parser.add_argument("--findings-games", type=int, default=1000)
    parser.add_argument("--crowding-games", type=int, default=500)
    parser.add_argument("--estimate-games", type=int, default=100)
    parser.add_argument("--crowding-maps", default=CROWDING_MAPS)
    parser.add_argument("--deck-games", type=int, default=300)
    parser.add_argument("--deck-sizes", default="4,2")
    parser.add_argument("--deck-maps", default=DECK_MAPS)
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
