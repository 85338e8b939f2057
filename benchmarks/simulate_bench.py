"""Simulation benchmark: four-player greedy games per second on North America,
with 1 and 2 processes, through `ttr_core.playtest.simulate` (the code `ttr simulate` runs).

    .venv/bin/python benchmarks/simulate_bench.py [--games 1000] [--bots greedy]
        [--map north_america] [--players 4] [--jobs 1,2] [--profile]

Rates are wall-clock (the processes run in parallel; other work on the machine
slows them), and for one job also per CPU second of this process; the target is 10,000 games
in under a minute on two cores, about 170 games per second. `--profile` runs one
process under pyinstrument and prints where the time goes.
"""

from __future__ import annotations

import argparse
import time

from ttr_core.playtest.executors import Workers
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.simulate import simulate
from ttr_maps import load_map


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--map", default="north_america")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    bots = tuple(args.bots.split(","))
    played = PlayedMap(load_map(args.map), args.map)
    simulate(played, RunPlan(4, args.players, bots, 0))  # warm the board caches
    if args.profile:
        from pyinstrument import Profiler

        profiler = Profiler()
        profiler.start()
        simulate(played, RunPlan(args.games, args.players, bots, 1))
        profiler.stop()
        print(profiler.output_text(unicode=True, color=False))
        return
    reports = []
    for jobs in (int(j) for j in args.jobs.split(",")):
        start, cpu = time.perf_counter(), time.process_time()
        result = simulate(played, RunPlan(args.games, args.players, bots, 1), Workers(jobs))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        reports.append(result.report)
        # With one job every game runs in this process: its CPU rate ignores other load.
        per_cpu = f", {args.games / cpu:.1f} games per CPU second" if jobs == 1 else ""
        print(
            f"{args.map}, {args.players} players, {args.bots}, jobs {jobs}: "
            f"{args.games} games in {elapsed:.1f} s = {args.games / elapsed:.1f} games/s "
            f"({10_000 * elapsed / args.games:.0f} s for 10,000){per_cpu}"
        )
    print("same report for every --jobs:", all(r == reports[0] for r in reports))


if __name__ == "__main__":
    main()
