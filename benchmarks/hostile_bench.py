"""Benchmark of the commands on the biggest maps ttr reads (issue 17).

Run with `.venv/bin/python benchmarks/hostile_bench.py`. Each command runs as a
subprocess; the report gives its CPU time (user + system, so a busy machine does
not inflate it), its wall time and its peak memory (max RSS). Targets: under 30 s
and 1 GB.

1. `ttr validate`, `ttr stats` and `ttr preview` on a generated map of 10,000
   cities (the most `ttr_maps.io.limits` allows), 30,000 routes and 5,000 tickets
   (`validate_bench.generate_map`); `ttr preview` refuses it with a clear message
   (previews stop at `MAX_PREVIEW_CITIES`);
2. `ttr preview` on a map of `MAX_PREVIEW_CITIES` cities, the biggest it draws;
3. `--growth` (issue 27): the growth table, the commands that read a whole map
   on generated maps of 1,000, 3,000 and 10,000 cities (three routes and half a
   ticket a city) whose tickets join cities anywhere on the board, the hostile
   case for ticket searches: CPU time and peak memory of each command, each
   measured in a fresh process of its own. `--baseline CHECKOUT` runs every
   command on another checkout too (its `ttr_core`/`ttr_maps` first on the
   path), alternated with this one, for a before/after table. `--timeout`
   stops a command that runs longer (reported as "> T").
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


#: The growth table's commands: arguments given the map and a scratch folder.
#: `probe` gets a time limit per solve (its node limit does not bound the solver's
#: first node); `tickets` analyses the deck among 20 random decks. A command that
#: refuses the map (exit 2, such as preview past MAX_PREVIEW_CITIES) is shown as
#: "refused" with the time it took to say so.
GROWTH_COMMANDS = {
    "validate": lambda m, d: ["validate", m],
    "stats": lambda m, d: ["stats", m],
    "preview": lambda m, d: ["preview", m, "-o", f"{d}/preview.png"],
    "layout": lambda m, d: ["layout", m],
    "tickets": lambda m, d: ["tickets", m, "--samples", "20"],
    "probe": lambda m, d: ["probe", m, "--time-limit", "20"],
}
GROWTH_SIZES = (1_000, 3_000, 10_000)

#: Runs one command in a process of its own and prints its exit code, CPU seconds
#: and peak memory (RUSAGE_CHILDREN of this wrapper covers that one command only),
#: then the last line of its error output.
_MEASURE = """
import resource, subprocess, sys
timeout = float(sys.argv[1])
last = ""
try:
    done = subprocess.run(sys.argv[2:], capture_output=True, text=True, timeout=timeout)
    code = done.returncode
    last = (done.stderr.strip().splitlines() or [""])[-1]
except subprocess.TimeoutExpired:
    code = "timeout"
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
print(last[:200])
"""


def measure(
    args: list[str], timeout: float, checkout: Path | None
) -> tuple[str, float, float, str]:
    """(exit code or "timeout", CPU seconds, peak MB, last error line) of
    `ttr args`, run from `checkout`'s code if given."""
    import os

    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    command = [sys.executable, "-c", _MEASURE, str(timeout), sys.executable, "-m", "ttr_core"]
    # From a neutral folder: `-m` puts the working folder first on the path.
    done = subprocess.run(
        [*command, *args], capture_output=True, text=True, env=env, cwd=tempfile.gettempdir()
    )
    first, _, last = done.stdout.partition("\n")
    code, cpu, peak = first.split()
    return code, float(cpu), float(peak), last.strip()


def _cells(run: tuple[str, float, float, str], timeout: float) -> tuple[str, str, str]:
    """The CPU, peak and exit cells of one measurement."""
    code, cpu, peak, _ = run
    if code == "timeout":
        return f"> {timeout:.0f} s (stopped)", f"{peak:.0f} MB", code
    if code == "2":  # a valid generated map: exit 2 is a refusal (too big)
        return f"refused, {cpu:.1f} s", f"{peak:.0f} MB", code
    return f"{cpu:.1f} s", f"{peak:.0f} MB", code


def growth(
    timeout: float, baseline: Path | None, commands: list[str], sizes: tuple[int, ...]
) -> None:
    """The growth table: for each map size and command, CPU and peak memory."""
    import os

    print(f"growth table (load average at start {os.getloadavg()[0]:.1f}; timeout {timeout:.0f} s)")
    header = "| command | cities | CPU | peak memory | exit |"
    if baseline is not None:
        header = "| command | cities | CPU before | CPU after | peak before | peak after | exit |"
    print(header)
    print("|" + " --- |" * (header.count("|") - 1))
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            path = Path(folder) / f"far{size}.yaml"
            path.write_text(generate_map(size, 3 * size, size // 2, far=True), encoding="utf-8")
            for name in commands:
                args = GROWTH_COMMANDS[name](str(path), folder)
                runs = [measure(args, timeout, baseline)] if baseline is not None else []
                runs.append(measure(args, timeout, None))
                cells = [_cells(run, timeout) for run in runs]
                if baseline is None:
                    ((cpu, peak, code),) = cells
                    print(f"| `ttr {name}` | {size:,} | {cpu} | {peak} | {code} |", flush=True)
                else:
                    (cpu0, peak0, code0), (cpu1, peak1, code1) = cells
                    print(
                        f"| `ttr {name}` | {size:,} | {cpu0} | {cpu1} | {peak0} | {peak1} | "
                        f"{code0} / {code1} |",
                        flush=True,
                    )
                for run in runs:
                    if run[0] not in ("0", "1", "timeout"):
                        print(f"    ttr {name}: {run[3]}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--growth", action="store_true", help="only the growth table")
    parser.add_argument("--baseline", type=Path, help="a checkout to compare with")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per command")
    parser.add_argument(
        "--commands", default=",".join(GROWTH_COMMANDS), help="growth table commands"
    )
    parser.add_argument(
        "--sizes", default=",".join(map(str, GROWTH_SIZES)), help="growth table map sizes"
    )
    args = parser.parse_args()
    if args.growth:
        sizes = tuple(int(n) for n in args.sizes.split(","))
        growth(args.timeout, args.baseline, args.commands.split(","), sizes)
        return
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
