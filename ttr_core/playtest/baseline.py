"""The published-board baseline of the findings: the published boards
(`PUBLISHED_MAPS`) that seat the table size, each with its own rules, played by the
same bots at the same table size. The shipped file holds all twelve.

A finding says "… while the published boards give X": the numbers X come from a
`Baseline` (`ttr_core.playtest.report`), found in this order:

1. **shipped** with ttr (`data/baseline.json`, in the wheel): 200 games a board
   at 2-5 players for the bot sets in `SHIPPED_BOTS` (the file says how many; each
   estimate keeps its standard error, so the findings' intervals widen with fewer
   games). Regenerate it for a new version (the engine or a bot changed) with

       python -m ttr_core.playtest.baseline --games 200 --jobs 2

   (390 CPU s for the twelve boards; 1,000 games a board take five times that).

2. **cached**: computed once on demand (`ttr simulate … --baseline compute`) for
   other bots, and kept in the user's cache folder
   (`$XDG_CACHE_HOME/ttr/baselines/VERSION/`, else `~/.cache/ttr/…`) for this ttr
   version.

Bots are matched as a multiset (their order only rotates the seats).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ttr_core.playtest.executors import IN_THIS_PROCESS, Workers
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.report import (
    BalanceReport,
    Baseline,
    BaselineFile,
    BoardBaseline,
    Estimate,
)
from ttr_maps.about import installed_version
from ttr_maps.io.bundled import PUBLISHED_MAPS

if TYPE_CHECKING:
    from ttr_core.playtest.playout import GameSummary
    from ttr_maps.rules import RuleSet

#: The published boards (bundled map ids), each played with its own rule set.
PUBLISHED_BOARDS = PUBLISHED_MAPS


def boards_seating(players: int) -> tuple[str, ...]:
    """The published boards whose rules seat `players` (R1): a baseline at 4
    players leaves out Nordic Countries and Switzerland (2-3 players)."""
    from ttr_maps.published import published_boards

    return tuple(b.map_id for b in published_boards() if players in b.players)


#: The bot sets of the shipped baseline: `ttr simulate`'s default (greedy), the
#: editor's play-test panel's (greedy with long-route), greedy with
#: destination-hungry (docs/tickets.md) and the four style bots together. Other
#: bots: computed on first use and cached (`baseline_for`).
SHIPPED_BOTS: tuple[tuple[str, ...], ...] = (
    ("greedy",),
    ("greedy", "long-route"),
    ("destination-hungry", "greedy"),
    ("destination-hungry", "greedy", "long-route", "route-focus"),
)
DEFAULT_GAMES = 1000
#: The shipped baseline's seed (any seed would do; a fixed one makes the file
#: reproducible).
DEFAULT_SEED = 2301
SHIPPED = Path(__file__).resolve().parent / "data" / "baseline.json"


def bot_key(bots: Sequence[str]) -> tuple[str, ...]:
    """Bots as a multiset (the seat rotation does not change what a board gives),
    a list that repeats itself taken once: `greedy,greedy,greedy` seats the same
    games as `greedy`.

    >>> bot_key(["greedy", "random", "greedy", "random"]), bot_key(["greedy"] * 4)
    (('greedy', 'random'), ('greedy',))
    """
    names = list(bots)
    for period in range(1, len(names) + 1):
        if len(names) % period == 0 and names == names[:period] * (len(names) // period):
            return tuple(sorted(names[:period]))
    return tuple(sorted(names))


def _se(p: float, n: float, design_effect: float = 1.0) -> float:
    return math.sqrt(max(p * (1 - p), 0.0) * design_effect / n) if n else 0.0


def board_baseline(report: BalanceReport, rules: RuleSet) -> BoardBaseline:
    """What the findings need of a report of a published board."""
    from ttr_core.playtest.findings import (
        COMMON_ROUTE,
        RARE_ROUTE,
        claimable_routes,
        ticket_departures,
    )

    games = report.games
    players = report.settings.players
    routes = claimable_routes(report, rules)
    track = sum(r.length for r in routes) or 1

    def track_share(keep: Callable[[float], bool]) -> float:
        share = sum(r.length for r in routes if games and keep(r.claimed / games)) / track
        return round(share, 4)

    bonus = report.longest_path_bonus.by_bot
    bonuses = sum(bonus.values())
    turns = report.turns
    departures = [abs(d) for _, d in ticket_departures(report.tickets.by_ticket)]
    return BoardBaseline(
        map=report.settings.map,
        games=games,
        turn_order=tuple(
            Estimate(round(r.rate, 6), round(_se(r.rate, r.games), 6))
            for r in report.win_rate.by_turn_order
        ),
        by_bot={
            name: Estimate(round(r.rate, 6), round(_se(r.rate, r.games, r.design_effect), 6))
            for name, r in report.win_rate.by_bot.items()
        },
        stalls=Estimate(
            round(report.stalls.count / games, 6),
            round(_se(report.stalls.count / games, games), 6),
        ),
        bonus_share={
            name: Estimate(round(n / bonuses, 6), round(_se(n / bonuses, bonuses), 6))
            for name, n in bonus.items()
            if bonuses
        },
        turns_per_player=Estimate(
            round((turns.mean or 0.0) / players, 4),
            round((turns.sd or 0.0) / math.sqrt(max(turns.count, 1)) / players, 4),
        ),
        rare_track_share=track_share(lambda rate: rate < RARE_ROUTE),
        common_track_share=track_share(lambda rate: rate > COMMON_ROUTE),
        ticket_departure=round(max(departures, default=0.0), 4),
    )


def compute_baseline(
    bots: Sequence[str],
    players: int,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    where: Workers = IN_THIS_PROCESS,
    on_game: Callable[[GameSummary], None] | None = None,
    source: str = "computed",
) -> Baseline:
    """Play `games` games with `bots` at `players` on each published board (where
    `where` says) and keep what the findings need."""
    from ttr_core.playtest.simulate import simulate
    from ttr_maps.load import load_map

    boards = []
    plan = RunPlan(games, players, tuple(bots), seed)
    for map_id in boards_seating(players):
        played = PlayedMap(load_map(map_id), map_id)
        run = simulate(played, plan, where, on_game=on_game)
        boards.append(board_baseline(run.report, played.rule_set))
    return Baseline(source, bot_key(bots), players, seed, tuple(boards))


@cache
def shipped_baselines() -> tuple[Baseline, ...]:
    """The baselines shipped with ttr (none if the file is missing)."""
    try:
        data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    except OSError:
        return ()
    return BaselineFile.from_dict(data).baselines


def cache_folder() -> Path:
    """`$XDG_CACHE_HOME/ttr/baselines/VERSION-BOARDS/` (else `~/.cache/…`): BOARDS a
    digest of the published boards as the engine plays them, so that a changed
    board, or a change of play, is not read from an old cache."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "ttr" / "baselines" / f"{installed_version()}-{published_digest()}"


@cache
def published_digest() -> str:
    """A short digest of the published boards' fingerprints (in play order)."""
    import hashlib

    from ttr_core.engine.record import RECORD_VERSION, map_fingerprint
    from ttr_maps.load import load_map

    prints = [f"{m}:{map_fingerprint(load_map(m))}" for m in PUBLISHED_BOARDS]
    text = f"record {RECORD_VERSION};" + ";".join(prints)
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def cache_path(bots: Sequence[str], players: int) -> Path:
    name = "+".join(bot_key(bots)).replace("/", "_").replace(":", "_")
    return cache_folder() / f"{players}p-{name}.json"


def covers_published(baseline: Baseline) -> bool:
    """Whether `baseline` holds every published board that seats its table size
    (`boards_seating`): one made before a board joined the list is not used."""
    return sorted(b.map for b in baseline.boards) == sorted(boards_seating(baseline.players))


def find_baseline(bots: Sequence[str], players: int) -> Baseline | None:
    """The shipped or cached baseline for these bots at `players` over every
    published board, or None."""
    key = bot_key(bots)
    for baseline in shipped_baselines():
        if baseline.bots == key and baseline.players == players and covers_published(baseline):
            return baseline
    path = cache_path(bots, players)
    try:
        cached = Baseline.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None  # none yet, or a damaged cache file: computed again
    return cached if covers_published(cached) else None


def store_cached(baseline: Baseline) -> Path:
    """Keep a computed baseline in the cache folder (written atomically)."""
    from ttr_maps.io.files import write_text_atomically

    path = cache_path(baseline.bots, baseline.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomically(path, json.dumps(as_cached(baseline, path).to_dict(), indent=1) + "\n")
    return path


def as_cached(baseline: Baseline, path: Path) -> Baseline:
    """The baseline as kept in the cache file `path` (its source says so)."""
    from dataclasses import replace

    return replace(baseline, source=f"computed by ttr {installed_version()}, cached in {path}")


def baseline_games(players: int, games: int = DEFAULT_GAMES) -> int:
    """How many games `baseline_for` plays when it computes a baseline: `games` on
    each published board that seats `players`."""
    return games * len(boards_seating(players))


def baseline_for(
    bots: Sequence[str],
    players: int,
    where: Workers = IN_THIS_PROCESS,
    on_game: Callable[[GameSummary], None] | None = None,
    *,
    refresh: bool = False,
    games: int = DEFAULT_GAMES,
) -> tuple[Baseline, Path | None]:
    """The published boards played by `bots` at `players`: the shipped or cached
    one, else (or with `refresh`) played now (`games` a board, `on_game` after each:
    `baseline_games` in all) and kept in the cache. Returns it and the cache file it
    was written to (None when found, or when the cache cannot be written: then it is
    used all the same)."""
    if not refresh:
        found = find_baseline(bots, players)
        if found is not None:
            return found, None
    computed = compute_baseline(bots, players, games, DEFAULT_SEED, where, on_game)
    try:
        path = store_cached(computed)
    except OSError:
        return computed, None
    return as_cached(computed, path), path


def main(argv: Sequence[str] | None = None) -> None:
    """Regenerate the shipped baseline (`python -m ttr_core.playtest.baseline`):
    every bot set of `SHIPPED_BOTS` at 2-5 players on every published board, or
    only the sets `--only` names (the others are kept from the file as it is).
    Prints each set's CPU seconds (this process and its workers)."""
    import argparse
    import resource
    import time

    from ttr_maps.io.files import write_text_atomically

    def cpu() -> float:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.process_time() + children.ru_utime + children.ru_stime

    parser = argparse.ArgumentParser(description="Regenerate ttr's shipped baseline.")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games a board")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument(
        "--only", action="append", default=[], metavar="BOTS",
        help="regenerate only this bot set of SHIPPED_BOTS (comma-separated; repeatable)",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args(argv)
    only = {bot_key(spec.split(",")) for spec in args.only}
    unknown = only - {bot_key(bots) for bots in SHIPPED_BOTS}
    if unknown:
        parser.error(f"not a shipped bot set: {', '.join(','.join(k) for k in sorted(unknown))}")
    kept = {
        (b.bots, b.players): b
        for b in (shipped_baselines() if only and args.out == SHIPPED else ())
    }
    version = installed_version()
    print(f"{len(PUBLISHED_BOARDS)} published boards: {', '.join(PUBLISHED_BOARDS)}", flush=True)
    baselines = []
    started = cpu()
    for bots in SHIPPED_BOTS:
        for players in range(2, 6):
            old = kept.get((bot_key(bots), players))
            if only and bot_key(bots) not in only and old is not None:
                baselines.append(old)
                continue
            before = cpu()
            source = f"shipped with ttr {version}"
            where = Workers(args.jobs)
            baselines.append(
                compute_baseline(bots, players, args.games, args.seed, where, source=source)
            )
            print(f"{','.join(bots)} at {players} players: {cpu() - before:.0f} CPU s", flush=True)
    data = {
        "format": "ttr-baseline",
        "version": 1,
        "ttr": version,
        "games": args.games,
        "seed": args.seed,
        "command": f"python -m ttr_core.playtest.baseline --games {args.games} --seed {args.seed}",
        "baselines": [b.to_dict() for b in baselines],
    }
    write_text_atomically(args.out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out} ({cpu() - started:.0f} CPU s, this process and its workers)")


if __name__ == "__main__":
    main()
