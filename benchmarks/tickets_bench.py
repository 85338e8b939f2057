"""Benchmark of `ttr probe` and `ttr tickets` on the bundled maps.

Run with `.venv/bin/python benchmarks/tickets_bench.py`. For each bundled map it
measures, in CPU seconds of this process (`time.process_time`, so a busy shared
machine does not inflate the numbers; wall seconds are shown too):

1. the max-score programme with 45 wagons (target: seconds), with the map's own
   values and, where tests/data/reference/ has them, the printed values;
2. the deck analysis with 300 random decks, and one suggestion of the deck's size.
"""

from __future__ import annotations

import time
from pathlib import Path

from ttr_maps import load_map
from ttr_maps.analysis.probe import load_ticket_values, solve_max_score
from ttr_maps.analysis.tickets import TicketBoard, analyse_deck, suggest_deck
from ttr_maps.io.bundled import bundled_map_ids

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "reference"


def timed(work, *args, **kwargs):
    cpu, wall = time.process_time(), time.perf_counter()
    result = work(*args, **kwargs)
    return result, time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    for map_id in bundled_map_ids():
        game_map = load_map(map_id)
        variants = [("R2 values", None)]
        reference = REFERENCE / f"{map_id}.json"
        if reference.is_file():
            variants.append(("printed values", load_ticket_values(reference, game_map)))
        for label, tickets in variants:
            result, cpu, wall = timed(solve_max_score, game_map, 45, tickets=tickets)
            print(
                f"probe {map_id:14} {label:15} score {result.score:4} "
                f"(tickets {result.ticket_points:3}) {result.status:8} "
                f"{cpu:6.2f} s CPU {wall:6.2f} s wall"
            )
        analysis, cpu, wall = timed(analyse_deck, game_map, samples=300)
        print(
            f"tickets {map_id:12} score {analysis.measures.score.total:5.1f}, beats "
            f"{100 * analysis.calibration.beaten_share:5.1f} % of 300 random decks "
            f"(mean {analysis.calibration.mean:.1f}); {cpu:6.2f} s CPU {wall:6.2f} s wall"
        )
        long = sum(t.long for t in game_map.tickets)
        board = TicketBoard(game_map)
        _, cpu, wall = timed(suggest_deck, board, len(game_map.tickets) - long, long)
        print(f"suggest {map_id:12} {cpu:6.2f} s CPU {wall:6.2f} s wall")


if __name__ == "__main__":
    main()
