"""Engine benchmark: complete random-bot games per second, and the longest-path
search (R16) on end-game networks, called as scoring calls it (the board's route
table and a player's route indices).

    .venv/bin/python benchmarks/engine_bench.py [--games 300] [--map north_america] [--views]

Random bots play through the game loop's playout path (`ttr_core.engine.loop.run`: the
bot gets `legal_actions(seat)`, no view is built); `--views` also measures the
same games with a view built for every decision (what bots that read the table
cost). Rates are per CPU second of this one process (time.process_time), so that
other work on the machine does not distort them; wall-clock rates are printed too.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.longest_path import longest_trail_in
from ttr_core.engine.loop import bot_seed, play_game, run
from ttr_core.engine.state import GameState
from ttr_maps import load_map

#: Timed passes over all the end-game networks (one pass takes a few tens of ms).
PASSES = 7


def games_per_second(
    game_map, players: int, games: int, playout: bool = True
) -> tuple[float, float, list]:
    finished = []
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
        finished.append(run(GameState(game_map, players, seed), bots, playout=playout))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return games / cpu, games / wall, finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--map", default="north_america")
    parser.add_argument("--views", action="store_true", help="also time games with views")
    args = parser.parse_args()
    game_map = load_map(args.map)
    networks = []
    for players in (2, 4):
        play_game(game_map, [RandomBot(1), RandomBot(2)], 0)  # warm the board caches
        per_cpu, per_wall, finished = games_per_second(game_map, players, args.games)
        actions = sum(len(s.history) for s in finished) / len(finished)
        print(
            f"{args.map}, {players} players, random bots: {per_cpu:.0f} games/s "
            f"({per_wall:.0f} wall-clock), {actions:.0f} actions per game"
        )
        if args.views:
            per_cpu, per_wall, _ = games_per_second(game_map, players, args.games, False)
            print(f"  with a view for every decision: {per_cpu:.0f} games/s")
        networks += [state.claimed_routes(seat) for state in finished for seat in range(players)]
        table = finished[0].board.trail_table
        del finished  # score_game runs with one game in memory, not hundreds
    per_network = []
    for _ in range(PASSES):
        cpu = time.process_time()
        for network in networks:
            longest_trail_in(table, network)
        per_network.append((time.process_time() - cpu) / len(networks) * 1e6)
    routes = sum(len(n) for n in networks) / len(networks)
    print(
        f"longest path (R16): {len(networks)} end-game networks of {routes:.1f} routes on "
        f"average, {statistics.median(per_network):.0f} µs each "
        f"(median of {PASSES} passes; best {min(per_network):.0f} µs)"
    )


if __name__ == "__main__":
    main()
