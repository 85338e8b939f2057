"""ttr edit: time from an edit to the checked state the page shows (validate_text,
the board SVG, the element list), on the bundled maps and a 50-city map.

    .venv/bin/python benchmarks/edit_bench.py [--rounds 20]

CPU seconds per edit (process time), median over the rounds; the target is under
0.3 s on a 50-city map.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from ttr_core.edit.edits import MoveCity
from ttr_core.edit.payloads import state_payload
from ttr_core.edit.session import EditSession


def fifty_cities(folder: Path) -> Path:
    """A 50-city plane map on a jittered grid, every neighbour joined."""
    import random

    rng = random.Random(5)
    names = [f"C{i:02d}" for i in range(50)]
    lines = ["format: 1", "id: fifty", "name: Fifty", "coordinates: plane", "cities:"]
    for i, name in enumerate(names):
        lines.append(
            f"  {name}: {{x: {i % 10 * 3 + rng.random():.2f}, y: {i // 10 * 3 + rng.random():.2f}}}"
        )
    lines.append("routes:")
    colors = ["red", "orange", "yellow", "green", "blue", "pink", "black", "white", "gray"]
    k = 0
    for i in range(50):
        for j in (i + 1, i + 10):
            if j < 50 and (j != i + 1 or (i + 1) % 10):
                lines.append(
                    f"  - {{between: [{names[i]}, {names[j]}], length: 3, color: {colors[k % 9]}}}"
                )
                k += 1
    lines.append("tickets:")
    for i in range(0, 40, 2):
        lines.append(f"  - {{between: [{names[i]}, {names[49 - i]}], value: 1}}")
    path = folder / "fifty.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def measure(path: Path, rounds: int) -> float:
    session = EditSession.open(path)
    state_payload(session)
    city = session.checked.drawable.cities[0]
    times = []
    for step in range(rounds):
        started = time.process_time()
        x, y = city.position
        session.apply(MoveCity(city.name, (x + 0.01 * (step + 1), y)))
        state_payload(session)
        times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as folder:
        maps = [fifty_cities(Path(folder))]
        for name in ("north_america", "europe", "iran"):
            copy = Path(folder) / f"{name}.yaml"
            copy.write_text(Path(f"maps/{name}.yaml").read_text(encoding="utf-8"))
            maps.append(copy)
        for path in maps:
            cpu_ms = measure(path, rounds) * 1000
            print(f"{path.stem:15} {cpu_ms:7.1f} ms CPU per edit (median of {rounds})")


if __name__ == "__main__":
    main()
