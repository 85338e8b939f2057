"""Big-map benchmark: how the designer commands grow with the size of a map.

    .venv/bin/python benchmarks/big_maps_bench.py [--cities 100,300,1000,3000]
        [--commands stats]

For each size it writes a generated map (`validate_bench.generate_map`: a jittered
grid with some diagonals, about 2.7 routes a city, a ticket for every third city,
a few cities apart, with correct values) and runs each command on it as a user
does, `ttr COMMAND FILE` in a subprocess, so start-up and imports count. Each run
is timed in CPU seconds of the child (user + system, `resource.RUSAGE_CHILDREN`;
a shared machine inflates wall-clock seconds, printed too) and its exit status is
shown. Targets (issue 28): under 10 s on 100 cities, under 2 minutes on 1,000, or a
refusal with a message above a documented size (`ttr layout` refuses maps of more
than `ttr_maps.io.limits.MAX_LAYOUT_CITIES` cities: exit 2).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from validate_bench import generate_map

TTR = Path(sys.executable).with_name("ttr")


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(command: str, path: Path) -> tuple[float, float, int]:
    cpu, wall = child_cpu(), time.perf_counter()
    done = subprocess.run([str(TTR), command, str(path)], capture_output=True, check=False)
    return child_cpu() - cpu, time.perf_counter() - wall, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cities", default="100,300,1000,3000")
    parser.add_argument("--commands", default="stats")
    args = parser.parse_args()
    commands = args.commands.split(",")
    print(f"| cities | routes | tickets | {' | '.join(commands)} |")
    print(f"|---|---|---|{'---|' * len(commands)}")
    with tempfile.TemporaryDirectory() as folder:
        for cities in (int(c) for c in args.cities.split(",")):
            routes, tickets = round(2.7 * cities), max(cities // 3, 10)
            path = Path(folder) / f"big{cities}.yaml"
            path.write_text(generate_map(cities, routes, tickets), encoding="utf-8")
            cells = []
            for command in commands:
                cpu, wall, status = timed_run(command, path)
                failed = "" if status == 0 else f", exit {status}"
                cells.append(f"{cpu:.2f} s CPU ({wall:.1f} s wall{failed})")
            print(f"| {cities:,} | {routes:,} | {tickets:,} | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
