"""Engine benchmark: complete random-bot games per second, and the longest-path
search (R16) on end-game networks, called as scoring calls it (the board's route
table and a player's route indices).

    .venv/bin/python benchmarks/engine_bench.py [--games 300] [--map north_america] [--views]
        [--loopy-games 150]

Random bots play through the game loop's playout path (`ttr_core.engine.loop.run`: the
bot gets `legal_actions(seat)`, no view is built); `--views` also measures the
same games with a view built for every decision (what bots that read the table
cost). Rates are per CPU second of this one process (time.process_time) spent in
the games, so that other work on the machine does not distort them; wall-clock
rates are printed too. The first line says whether the compiled build
(`python -m ttr_core.accel`) or the source runs; `--loopy-games 0` leaves the
loopy networks out.

The longest path is timed on two sets: the networks of the random games (mostly
trees and single routes), and loopy ones: every player's routes at the end of 4- and
5-player games of the heuristic styles (seats rotating through them) that hold a
network with a loop, the networks that need the search proper.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ttr_core.bots import make_bot
from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.compiled import board_for
from ttr_core.engine.longest_path import RouteTable, longest_trail_in
from ttr_core.engine.loop import bot_seed, play_game, run
from ttr_core.engine.state import GameState
from ttr_maps import load_map

#: Timed passes over all the end-game networks (one pass takes a few tens of ms).
PASSES = 7
#: The bots of the loopy networks' games, seats rotating through them.
STYLES = ("greedy", "route-focus", "destination-hungry", "long-route", "one-step")


def games_per_second(
    game_map, players: int, games: int, playout: bool = True
) -> tuple[float, float, list[int], list[list[int]]]:
    """Games per CPU second and per wall-clock second, the actions of each game and
    every seat's routes at its end. Only the games are timed, and each finished game
    is dropped before the next (hundreds of finished games kept alive would time the
    garbage collector walking them, not the engine)."""
    actions, networks = [], []
    cpu = wall = 0.0
    for seed in range(games):
        bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        state = run(GameState(game_map, players, seed), bots, playout=playout)
        cpu += time.process_time() - cpu_start
        wall += time.perf_counter() - wall_start
        actions.append(len(state.history))
        networks += [state.claimed_routes(seat) for seat in range(players)]
    return games / cpu, games / wall, actions, networks


def loopy_networks(game_map, games: int) -> list[list[int]]:
    """Players' routes at the end of 4- and 5-player style-bot games that hold a
    network with a loop (as many routes as cities or more)."""
    found = []
    for players in (4, 5):
        for seed in range(games):
            names = [STYLES[(seed + seat) % len(STYLES)] for seat in range(players)]
            bots = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(names)]
            state = run(GameState(game_map, players, seed), bots)
            for seat in range(players):
                routes = state.claimed_routes(seat)
                if has_loop(state.board.trail_table, routes):
                    found.append(routes)
    return found


def has_loop(table: RouteTable, routes: list[int]) -> bool:
    """Whether some network of `routes` has a loop (more routes than cities - 1)."""
    parent = list(range(table.cities))

    def root(city: int) -> int:
        while parent[city] != city:
            city = parent[city]
        return city

    for route in routes:
        a, b = root(table.routes[route][0]), root(table.routes[route][1])
        if a == b:
            return True
        parent[a] = b
    return False


def time_networks(label: str, table: RouteTable, networks: list[list[int]]) -> None:
    if not networks:
        return
    per_network = []
    for _ in range(PASSES):
        cpu = time.process_time()
        for network in networks:
            longest_trail_in(table, network)
        per_network.append((time.process_time() - cpu) / len(networks) * 1e6)
    routes = sum(len(n) for n in networks) / len(networks)
    print(
        f"longest path (R16), {label}: {len(networks)} end-game networks of {routes:.1f} "
        f"routes on average, {statistics.median(per_network):.1f} µs each "
        f"(median of {PASSES} passes; best {min(per_network):.1f} µs)"
    )


def flavour() -> str:
    """Which build runs (the compiled one of `ttr_core.accel`, or the source)."""
    try:
        from ttr_core.accel import flavour
    except ImportError:  # a checkout from before the compiled build: source only
        return "pure Python"
    return flavour()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--map", default="north_america")
    parser.add_argument("--views", action="store_true", help="also time games with views")
    parser.add_argument("--loopy-games", type=int, default=150, help="games per player count")
    args = parser.parse_args()
    game_map = load_map(args.map)
    print(f"engine: {flavour()}")
    networks = []
    for players in (2, 4):
        play_game(game_map, [RandomBot(1), RandomBot(2)], 0)  # warm the board caches
        per_cpu, per_wall, actions, ends = games_per_second(game_map, players, args.games)
        print(
            f"{args.map}, {players} players, random bots: {per_cpu:.0f} games/s "
            f"({per_wall:.0f} wall-clock), {sum(actions) / len(actions):.0f} actions per game"
        )
        if args.views:
            per_cpu, per_wall, *_ = games_per_second(game_map, players, args.games, False)
            print(f"  with a view for every decision: {per_cpu:.0f} games/s")
        networks += ends
    table = board_for(game_map).trail_table
    time_networks("random 2- and 4-player games", table, networks)
    time_networks("loopy (4 and 5 players)", table, loopy_networks(game_map, args.loopy_games))


if __name__ == "__main__":
    main()
