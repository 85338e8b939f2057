"""Benchmark of `ttr layout` (ttr_maps.geometry.layout.compute_layout).

Run with `.venv/bin/python benchmarks/layout_bench.py`. It times, in CPU seconds
(`time.process_time`, so a busy machine matters less), the layout of:

1. each bundled map (targets: under a minute, no overlaps, cars within 2 %);
2. a generated map of 200 cities (target: under a minute): random towns in a
   3:2 rectangle, joined along a Delaunay triangulation (scipy) minus its longest
   edges, lengths following the distance (1 to 6), every tenth route a double.

For each it prints the time, remaining overlaps, car-size spread, mean and largest
city displacement, board size and the number of bent routes.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from ttr_maps import load_map
from ttr_maps.geometry.layout import compute_layout
from ttr_maps.io.bundled import bundled_map_ids
from ttr_maps.model import Map
from ttr_maps.rules import CARD_COLORS


def generated_map(cities: int = 200, seed: int = 20261130) -> Map:
    """A plane map of `cities` towns joined like a designer's network."""
    import numpy as np
    from scipy.spatial import Delaunay

    rng = random.Random(seed)
    points = np.array([(rng.uniform(0, 300), rng.uniform(0, 200)) for _ in range(cities)])
    names = [f"Town {i:03d}" for i in range(cities)]
    edges: set[tuple[int, int]] = set()
    for simplex in Delaunay(points).simplices:
        for k in range(3):
            a, b = sorted((int(simplex[k]), int(simplex[(k + 1) % 3])))
            edges.add((a, b))
    lengths = sorted(math.dist(points[a], points[b]) for a, b in edges)
    cut = lengths[int(0.85 * len(lengths))]
    unit = lengths[len(lengths) // 2] / 2.5
    routes = []
    for n, (a, b) in enumerate(sorted(edges)):
        distance = math.dist(points[a], points[b])
        if distance > cut:
            continue
        color: str | list[str] = CARD_COLORS[n % 8] if n % 5 else "gray"
        if n % 10 == 0:
            color = [CARD_COLORS[n % 8], CARD_COLORS[(n + 3) % 8]]
        routes.append(
            {
                "between": [names[a], names[b]],
                "length": max(1, min(6, round(distance / unit))),
                "color": color,
            }
        )
    return Map.from_data(
        {
            "format": 1,
            "id": "generated",
            "name": "Generated",
            "coordinates": "plane",
            "cities": {
                name: {"x": float(x), "y": float(y)}
                for name, (x, y) in zip(names, points, strict=True)
            },
            "routes": routes,
            "tickets": [],
        }
    )


def report(label: str, game_map: Map) -> None:
    start = time.process_time()
    result = compute_layout(game_map)
    seconds = time.process_time() - start
    width, height = result.layout.size or (0, 0)
    far_name, far = result.max_displacement
    print(
        f"{label:>14}: {len(game_map.cities):4d} cities {len(game_map.routes):4d} routes  "
        f"{seconds:6.1f} s CPU  overlaps {len(result.overlaps):3d}  "
        f"car spread {100 * result.car_size_spread:.2f} %  moved mean "
        f"{result.mean_displacement:.1f} cm, most {far:.1f} cm ({far_name})  "
        f"board {width:.0f} x {height:.0f} cm  bends {len(result.layout.bends)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cities", type=int, default=200, help="Cities of the generated map.")
    args = parser.parse_args()
    for map_id in bundled_map_ids():
        report(map_id, load_map(map_id))
    report(f"generated {args.cities}", generated_map(args.cities))


if __name__ == "__main__":
    main()
