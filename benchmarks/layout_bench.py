"""Benchmark of `ttr layout` (ttr_maps.geometry.layout.compute_layout).

Run with `.venv/bin/python benchmarks/layout_bench.py`. It lays out afresh (the
stored layouts ignored), timing each in CPU seconds (`time.process_time`, so a
busy machine matters less):

1. each bundled map and the test maps of real regions in `tests/data/maps/`;
2. a map of three cities no layout makes readable (a route of six cars beside a
   chain of two short ones: the repair runs to the end of its budget);
3. a generated map of 200 cities (`--cities`): random towns in a 3:2 rectangle,
   joined along a Delaunay triangulation (scipy) minus its longest edges, lengths
   following the distance (1 to 6), every tenth route a double.

For each it prints the rules of a readable board (`ttr_maps.geometry.readability`)
as measured on the result: the largest detour (how far a route's line strays from
its chord, as a share of the bound), the smallest clearance between a route's cars
and another city's dot (cm), the largest gap between two cars of a route (cm),
compass-order flips, label misses, overlaps, cities moved from geography (mean,
max, cm), bowed routes, board size and time. `--stored` measures the maps' stored
layouts instead of laying them out.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import time
from pathlib import Path

from ttr_maps import load_map
from ttr_maps.geometry.board import BoardGeometry, board_geometry
from ttr_maps.geometry.layout import compute_layout
from ttr_maps.geometry.readability import clearances, readability, route_detours, route_gaps
from ttr_maps.io.bundled import bundled_map_ids
from ttr_maps.model import Map
from ttr_maps.rules import CARD_COLORS

TEST_MAPS = Path(__file__).resolve().parent.parent / "tests" / "data" / "maps"


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


def unreadable_map() -> Map:
    """P–R needs six cars' length while P–Q–R gives two: no layout chains all three."""
    return Map.from_data(
        {
            "format": 1,
            "id": "tight",
            "name": "Tight",
            "coordinates": "plane",
            "cities": {"P": {"x": 0, "y": 0}, "Q": {"x": 1, "y": 0.2}, "R": {"x": 2, "y": 0}},
            "routes": [
                {"between": ["P", "Q"], "length": 1, "color": "red"},
                {"between": ["Q", "R"], "length": 1, "color": "blue"},
                {"between": ["P", "R"], "length": 6, "color": "green"},
            ],
            "tickets": [{"between": ["P", "R"], "value": 2}],
        }
    )


def measures(game_map: Map, board: BoardGeometry) -> str:
    """The readability numbers of a laid-out board, as one line."""
    found = readability(game_map, board)
    detour = max((d.deviation / d.limit for d in route_detours(board)), default=0.0)
    nearest = min((m.distance for m in clearances(board, within=100.0)), default=math.inf)
    car_gap = max(
        (
            gap
            for shape in board.routes.values()
            if shape.cars
            for gap in route_gaps(shape, board.positions, board.city_radius)[2][1:-1]
        ),
        default=0.0,
    )
    return (
        f"detour {detour:4.2f} of bound  clearance {nearest:4.2f} cm  car gap {car_gap:4.2f} cm  "
        f"flips {len(found.flips)}  labels {len(found.labels)}  overlaps {len(found.overlaps)}  "
        f"chain breaks {len({g.route for g in found.gaps})}"
    )


def report(label: str, game_map: Map, stored: bool) -> None:
    if stored:
        board = board_geometry(game_map)
        print(f"{label:>14}: stored layout  {measures(game_map, board)}")
        return
    start = time.process_time()
    result = compute_layout(dataclasses.replace(game_map, layout=None))
    seconds = time.process_time() - start
    width, height = result.layout.size or (0, 0)
    far_name, far = result.max_displacement
    print(
        f"{label:>14}: {len(game_map.cities):4d} cities {len(game_map.routes):4d} routes  "
        f"{seconds:5.1f} s CPU  {measures(game_map, result.board)}  moved mean "
        f"{result.mean_displacement:.1f} cm, max {far:.1f} cm ({far_name})  "
        f"board {width:.0f} x {height:.0f} cm  bows {len(result.layout.bends)}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cities", type=int, default=200, help="Cities of the generated map.")
    parser.add_argument("--stored", action="store_true", help="Measure the stored layouts.")
    args = parser.parse_args()
    for map_id in bundled_map_ids():
        report(map_id, load_map(map_id), args.stored)
    for path in sorted(TEST_MAPS.glob("*.yaml")):
        report(path.stem, load_map(str(path)), args.stored)
    if not args.stored:
        report("unreadable 3", unreadable_map(), False)
        report(f"generated {args.cities}", generated_map(args.cities), False)


if __name__ == "__main__":
    main()
