"""Benchmark of `ttr validate`.

Run with `.venv/bin/python benchmarks/validate_bench.py` (add `--profile` to print a
pyinstrument profile of the big map). It times:

1. `ttr validate` on the bundled maps, as a subprocess, so interpreter start-up and
   imports count (target: well under 1 s);
2. `load_map` of each bundled map, in CPU time: the first load in a fresh process
   (the loader's imports warmed on a starter map), which runs the error checks only,
   and a second load of the unchanged file, which returns the same `Map`;
3. validating a generated map of 10,000 cities, 30,000 routes and 5,000 tickets
   (target: under 10 s). The map is a jittered grid: each city joins its right and
   upper neighbours and some diagonals, lengths follow the distance, and tickets
   join cities a few steps apart, with correct values (R2), as a designer would.
   A planar grid with one diagonal per cell holds 29,601 routes, so the last few
   hundred routes cross others and raise TTR252 warnings.
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COLORS = ["red", "orange", "yellow", "green", "blue", "pink", "black", "white", "gray"]


def generate_map(
    cities: int = 10_000, routes: int = 30_000, tickets: int = 5_000, *, far: bool = False
) -> str:
    """YAML text of a big, valid map (plane coordinates). With `far`, tickets join
    cities anywhere on the board (the hostile case: every ticket search crosses the
    whole map) instead of a few steps apart."""
    rng = random.Random(20240601)
    side = int(cities**0.5)
    names = [f"C{i}" for i in range(side * side)]
    pos = {
        names[r * side + c]: (c * 10 + rng.uniform(-2, 2), r * 10 + rng.uniform(-2, 2))
        for r in range(side)
        for c in range(side)
    }
    edges: dict[tuple[str, str], int] = {}

    def join(a: str, b: str) -> None:
        (x1, y1), (x2, y2) = pos[a], pos[b]
        length = max(1, min(8, round(((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 / 4)))
        edges[(a, b)] = length

    for r in range(side):
        for c in range(side):
            here = names[r * side + c]
            if c + 1 < side:
                join(here, names[r * side + c + 1])
            if r + 1 < side:
                join(here, names[(r + 1) * side + c])
    cells = [(r, c) for r in range(side - 1) for c in range(side - 1)]
    rng.shuffle(cells)
    for r, c in cells:  # one diagonal per cell: a planar map, no crossings
        if len(edges) < routes:
            join(names[r * side + c], names[(r + 1) * side + c + 1])
    for r, c in cells:  # a planar grid holds fewer than 30,000: the rest cross
        if len(edges) < routes:
            join(names[r * side + c + 1], names[(r + 1) * side + c])
    adjacency: dict[str, dict[str, int]] = {n: {} for n in names}
    for (a, b), length in edges.items():
        adjacency[a][b] = adjacency[b][a] = length
    chosen: dict[frozenset[str], tuple[str, str, int]] = {}
    while len(chosen) < tickets:
        a = rng.choice(names)
        b = rng.choice(names) if far else a
        for _ in range(0 if far else rng.randint(3, 8)):  # a ticket a few cities away
            b = rng.choice(list(adjacency[b]))
        if a != b:
            chosen.setdefault(frozenset((a, b)), (a, b, _distance(adjacency, a, b)))
    lines = ["format: 1", "id: big", "name: Big", "coordinates: plane", "cities:"]
    lines += [f"  {n}: {{x: {x:.2f}, y: {y:.2f}}}" for n, (x, y) in pos.items()]
    lines.append("routes:")
    lines += [
        f"  - {{between: [{a}, {b}], length: {length}, color: {COLORS[i % 9]}}}"
        for i, ((a, b), length) in enumerate(edges.items())
    ]
    lines.append("tickets:")
    lines += [f"  - {{between: [{a}, {b}], value: {v}}}" for a, b, v in chosen.values()]
    return "\n".join(lines) + "\n"


def _distance(adjacency: dict[str, dict[str, int]], a: str, b: str) -> int:
    best, queue = {a: 0}, [(0, a)]
    while queue:
        d, city = heapq.heappop(queue)
        if city == b:
            return d
        if d > best[city]:
            continue
        for n, length in adjacency[city].items():
            if d + length < best.get(n, d + length + 1):
                best[n] = d + length
                heapq.heappush(queue, (d + length, n))
    raise ValueError("unreachable")


def time_bundled(repeat: int) -> list[float]:
    ttr = Path(sys.executable).with_name("ttr")
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([str(ttr), "validate"], cwd=ROOT, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"ttr validate failed:\n{done.stdout}{done.stderr}")
    return times


#: Run in a fresh process: CPU seconds of the first and of a second load of one map.
_LOAD = """
import sys, tempfile, time
from pathlib import Path
from ttr_maps.authoring.starter import starter_map_text
from ttr_maps.load import load_map
with tempfile.TemporaryDirectory() as folder:
    warm = Path(folder) / "warm.yaml"
    warm.write_text(starter_map_text("warm"), encoding="utf-8")
    load_map(warm)
start = time.process_time(); load_map(sys.argv[1]); first = time.process_time() - start
start = time.process_time(); load_map(sys.argv[1]); again = time.process_time() - start
print(first, again)
"""


def time_load_map(repeat: int) -> None:
    """Median CPU time of `load_map` per bundled map, first and cached."""
    from ttr_maps.io.bundled import bundled_map_ids

    for map_id in bundled_map_ids():
        firsts, agains = [], []
        for _ in range(repeat):
            done = subprocess.run(
                [sys.executable, "-c", _LOAD, map_id], capture_output=True, text=True, check=True
            )
            first, again = (float(x) for x in done.stdout.split())
            firsts.append(first)
            agains.append(again)
        print(
            f"load_map {map_id}: first load {1000 * statistics.median(firsts):.1f} ms CPU, "
            f"unchanged file again {1000 * statistics.median(agains):.2f} ms "
            f"(medians of {repeat})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of the bundled-maps timing")
    parser.add_argument("--profile", action="store_true", help="profile the big map")
    args = parser.parse_args()

    times = time_bundled(args.repeat)
    print(
        f"ttr validate (bundled maps, subprocess): median {statistics.median(times):.3f} s, "
        f"best {min(times):.3f} s over {len(times)} runs (target < 1 s)"
    )
    time_load_map(args.repeat)
    from ttr_maps.checks.validate import validate_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.yaml"
        start = time.perf_counter()
        path.write_text(generate_map(), encoding="utf-8")
        print(f"generated big map in {time.perf_counter() - start:.1f} s")
        profiler = None
        if args.profile:
            from pyinstrument import Profiler

            profiler = Profiler()
            profiler.start()
        start = time.perf_counter()
        report = validate_file(path)
        elapsed = time.perf_counter() - start
        if profiler is not None:
            profiler.stop()
            print(profiler.output_text(unicode=True, color=False))
        assert report.map is not None
        print(
            f"validate big map ({len(report.map.cities)} cities, {len(report.map.routes)} routes, "
            f"{len(report.map.tickets)} tickets): {elapsed:.2f} s (target < 10 s), "
            f"{len(report.errors)} errors, {len(report.warnings)} warnings"
        )


if __name__ == "__main__":
    main()
