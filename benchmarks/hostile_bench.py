"""Benchmark of the commands on the biggest maps ttr reads (issue 17).

Run with `.venv/bin/python benchmarks/hostile_bench.py`. Each command runs as a
subprocess; the report gives its CPU time (user + system, so a busy machine does
not inflate it), its wall time and its peak memory (max RSS). Targets: under 30 s
and 1 GB.

1. `ttr validate`, `ttr stats` and `ttr preview` on a generated map of 10,000
   cities (the most `ttr_maps.io.limits` allows), 30,000 routes and 5,000 tickets
   (`validate_bench.generate_map`); `ttr preview` refuses it with a clear message
   (previews stop at `MAX_PREVIEW_CITIES`);
2. `ttr preview` on a map of `MAX_PREVIEW_CITIES` cities, the biggest it draws.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from validate_bench import generate_map

from ttr_maps.io.limits import MAX_CITIES, MAX_PREVIEW_CITIES

TTR = Path(sys.executable).with_name("ttr")


def run(*args: str) -> tuple[int, float, float, float, str]:
    """Run `ttr args`: exit code, CPU seconds, wall seconds, peak MB, last stderr line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([str(TTR), *args], capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # ru_maxrss of children is the largest of any child so far: run the biggest last.
    peak_mb = after.ru_maxrss / 1024
    last = (done.stderr.strip().splitlines() or [""])[-1]
    return done.returncode, cpu, wall, peak_mb, last


def report(name: str, result: tuple[int, float, float, float, str]) -> None:
    code, cpu, wall, peak, last = result
    print(f"{name}: exit {code}, CPU {cpu:.1f} s, wall {wall:.1f} s, peak <= {peak:.0f} MB")
    if code not in (0, 1):
        print(f"    {last}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        small = Path(folder) / "preview_max.yaml"
        big = Path(folder) / "big.yaml"
        small.write_text(
            generate_map(MAX_PREVIEW_CITIES, 3 * MAX_PREVIEW_CITIES, MAX_PREVIEW_CITIES // 2),
            encoding="utf-8",
        )
        big.write_text(generate_map(MAX_CITIES, 30_000, 5_000), encoding="utf-8")
        print(f"maps: {MAX_PREVIEW_CITIES:,} and {MAX_CITIES:,} cities (plane, generated)")
        report(
            f"ttr preview ({MAX_PREVIEW_CITIES:,} cities)",
            run("preview", str(small), "-o", str(Path(folder) / "small.png")),
        )
        report(
            f"ttr preview ({MAX_CITIES:,} cities, refused)",
            run("preview", str(big), "-o", str(Path(folder) / "big.png")),
        )
        report(f"ttr validate ({MAX_CITIES:,} cities)", run("validate", str(big)))
        report(f"ttr stats ({MAX_CITIES:,} cities)", run("stats", str(big)))
        report(
            f"ttr stats --plot ({MAX_CITIES:,} cities)",
            run("stats", str(big), "--plot", str(Path(folder) / "stats.png")),
        )


if __name__ == "__main__":
    main()
