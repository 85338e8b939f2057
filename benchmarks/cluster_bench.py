"""Executors benchmark: games per second and the driver's peak memory for
`ttr simulate` with local processes and with Ray, on the same games.

    .venv/bin/python benchmarks/cluster_bench.py [--games 20000] [--players 4]
        [--bots greedy] [--map north_america] [--runs local:1,local:2,ray:2]

Each run is a fresh process (so its peak memory is its own): it plays the games
through `ttr_core.playtest.simulate.simulate` with the executor named (`local:J` is J local
processes, `ray:J` J Ray actors on a local Ray instance started for the run) and
prints wall time, games per second, the driver's peak RSS and a digest of the report,
which must be the same for every run. `--memory 10000,100000` instead compares the
driver's peak RSS for two game counts (cheap random bots, two players, 2 local
processes), to show it does not grow with --games.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

RUN = r"""
import hashlib, json, resource, sys, time
from ttr_core.playtest.executors import EXECUTORS, Workers
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.simulate import simulate
from ttr_maps import load_map
map_, games, players, bots, kind, workers = sys.argv[1:]
games, players, workers = int(games), int(players), int(workers)
executor = EXECUTORS[kind](workers, None)
game_map = load_map(map_)
start = time.perf_counter()
if kind == "ray":
    import ray
    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    ready = time.perf_counter() - start
else:
    ready = 0.0
start = time.perf_counter()
names = bots.split(",")
plan = RunPlan(games, players, tuple(names), 1)
result = simulate(PlayedMap(game_map, map_), plan, Workers(workers, executor))
elapsed = time.perf_counter() - start
digest = hashlib.sha256(json.dumps(result.report.to_dict()).encode()).hexdigest()[:16]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": elapsed, "startup": ready, "peak_mib": peak, "digest": digest}))
"""


def run(map_: str, games: int, players: int, bots: str, kind: str, workers: int) -> dict:
    command = [sys.executable, "-c", RUN, map_, str(games), str(players), bots, kind, str(workers)]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--map", default="north_america")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--runs", default="local:1,local:2,ray:2")
    parser.add_argument("--memory", help="two game counts, e.g. 10000,100000")
    args = parser.parse_args()
    if args.memory:
        for games in (int(g) for g in args.memory.split(",")):
            row = run(args.map, games, 2, "random", "local", 2)
            print(
                f"{games} games (2 players, random, local:2): driver peak {row['peak_mib']:.0f} MiB"
            )
        return
    digests = set()
    rates = {}
    for spec in args.runs.split(","):
        kind, workers = spec.split(":")
        row = run(args.map, args.games, args.players, args.bots, kind, int(workers))
        rates[spec] = args.games / row["seconds"]
        digests.add(row["digest"])
        startup = f", Ray start {row['startup']:.1f} s" if kind == "ray" else ""
        print(
            f"{spec}: {args.games} games in {row['seconds']:.1f} s = {rates[spec]:.1f} games/s, "
            f"driver peak {row['peak_mib']:.0f} MiB{startup}"
        )
    if "local:2" in rates and "ray:2" in rates:
        overhead = 100 * (rates["local:2"] / rates["ray:2"] - 1)
        print(f"Ray overhead against local:2: {overhead:.1f} %")
    print("same report for every run:", len(digests) == 1)


if __name__ == "__main__":
    main()
