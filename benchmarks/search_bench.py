"""Search bot benchmark: its speed (moves and playouts per CPU second, time per
move) and its strength against the heuristic bots (issue #15's targets).

    .venv/bin/python benchmarks/search_bench.py [--only PART] [--bot search] [--games 400]
        [--four-player-games 200] [--speed-games 4] [--playtest-games 8] [--jobs 1]
        [--map north_america]

- playouts: whole games by the playout policy against the same games by greedy
  bots (`--playout-games` per player count), and the cost of a sampled world and
  of a copy of it;
- speed: `--speed-games` two-player games of the bot against greedy in this
  process, timed per move with time.process_time (CPU time of one core, so other
  work on a shared machine distorts it little);
- playtest: what a designer waits for, `--playtest-games` four-player games of the
  bot against three greedy bots through `ttr simulate`'s machinery in this process,
  the bot's seat rotating: games per CPU hour (issue 39);
- strength: two players, seats alternated, `--games` games against one-step and
  as many against greedy; four players, the bot and three one-step bots (the
  best heuristic style at a five-style table), `--four-player-games` games, the
  bot's seat rotating. Games run through `ttr_core.playtest.executors.iter_games` (the
  machinery of `ttr simulate`); shared first places count 1/k of a win.
  Wins are printed as they come in, with 95 % Wilson intervals, so a run can be
  stopped early and still report.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ttr_core.bots import make_bot
from ttr_core.bots.determinize import determinize
from ttr_core.bots.rollout import rollout_players
from ttr_core.engine.loop import SampledWorld, bot_seed, play_game, run
from ttr_core.engine.state import GameState
from ttr_core.playtest.executors import Workers, iter_games
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.stats import wilson_interval
from ttr_maps import load_map


def speed(map_id: str, bot: str, games: int) -> None:
    game_map = load_map(map_id)
    per_move: list[float] = []
    playouts = searched = 0
    cpu = 0.0
    for index in range(games):
        names = [bot, "greedy"] if index % 2 == 0 else ["greedy", bot]
        bots = [make_bot(name, bot_seed(index, seat)) for seat, name in enumerate(names)]
        play_game(game_map, bots, index)
        stats = bots[names.index(bot)].stats  # type: ignore[attr-defined]
        per_move += stats.per_move
        playouts += stats.playouts
        searched += stats.searched
        cpu += stats.cpu_seconds
    per_move.sort()
    p95 = per_move[int(0.95 * (len(per_move) - 1))]
    print(
        f"speed, {map_id}, 2 players, {bot} vs greedy, {games} games: "
        f"{len(per_move) / cpu:.2f} moves/s, {playouts / cpu:.0f} playouts/s, "
        f"{playouts / max(searched, 1):.0f} playouts a searched move; per move "
        f"mean {statistics.mean(per_move):.3f} s, median {statistics.median(per_move):.3f} s, "
        f"95th percentile {p95:.3f} s, max {per_move[-1]:.3f} s (CPU time)",
        flush=True,
    )


def playout_speed(map_id: str, games: int) -> None:
    """What the search is built from, per CPU second: whole games played by the
    playout policy (`ttr_core.bots.rollout`, no views) against the same games by
    greedy bots (a view every decision); and the cost of one sampled world
    (`determinize`) and of one copy of it (`GameState.clone`)."""
    game_map = load_map(map_id)
    for players in (2, 4):
        rates = {}
        for name in ("rollout", "greedy"):
            cpu = time.process_time()
            for seed in range(games):
                # A sampled world for the policy (it reads the state), a game for the bots.
                kind = SampledWorld if name == "rollout" else GameState
                state = kind(game_map, players, seed)
                if name == "rollout":
                    run(state, rollout_players(state))
                else:
                    run(state, [make_bot("greedy", bot_seed(seed, s)) for s in range(players)])
            rates[name] = games / (time.process_time() - cpu)
        print(
            f"playouts, {map_id}, {players} players: rollout policy {rates['rollout']:.0f} "
            f"games/s, greedy bots {rates['greedy']:.0f} games/s "
            f"({rates['rollout'] / rates['greedy']:.1f}x)",
            flush=True,
        )
    state = GameState(game_map, 2, 1)
    greedy = [make_bot("greedy", s) for s in range(2)]
    for _ in range(60):  # into the game
        seat = state.to_move
        assert seat is not None
        state.apply(greedy[seat].act(state.view(seat)), seat)
    seat = state.to_move
    assert seat is not None
    view, rng = state.view(seat), random.Random(1)
    count = 2000
    cpu = time.process_time()
    worlds = [determinize(view, rng) for _ in range(count)]
    sampled = (time.process_time() - cpu) / count
    cpu = time.process_time()
    for world in worlds:
        world.clone()
    copied = (time.process_time() - cpu) / count
    print(
        f"a sampled world (determinize) {sampled * 1e6:.0f} µs, a copy (clone) "
        f"{copied * 1e6:.0f} µs (2 players, after 60 actions)",
        flush=True,
    )


def playtest(map_id: str, bot: str, games: int, seed: int) -> None:
    """What a designer waits for: four-player play-tests of the bot against three
    greedy bots through `ttr simulate`'s machinery in this process, the bot's seat
    rotating; games per CPU hour (time.process_time of this process, all four
    seats' moves, scoring included)."""
    plan = RunPlan(games, 4, (bot, "greedy", "greedy", "greedy"), seed)
    played = PlayedMap(load_map(map_id), map_id)
    cpu_per_game = []
    started = time.process_time()
    for game in iter_games(played, plan, Workers(1)):
        del game
        now = time.process_time()
        cpu_per_game.append(now - started)
        started = now
    total = sum(cpu_per_game)
    print(
        f"play-test, {map_id}, 4 players, {bot} vs greedy x3, {games} games: "
        f"{3600 * games / total:.0f} games per CPU hour (CPU a game: mean "
        f"{total / games:.1f} s, median {statistics.median(cpu_per_game):.1f} s)",
        flush=True,
    )


def strength(map_id: str, bot: str, opponents: list[str], games: int, seed: int, jobs: int) -> None:
    table = [bot, *opponents]
    label = f"{map_id}, {len(table)} players, {bot} vs {'+'.join(opponents)}"
    wins = 0.0
    started = time.perf_counter()
    plan = RunPlan(games, len(table), tuple(table), seed)
    games_played = iter_games(PlayedMap(load_map(map_id), map_id), plan, Workers(jobs))
    for played, game in enumerate(games_played, start=1):
        winners = [s for s, seat in enumerate(game.seats) if seat.rank == 1]
        wins += sum(1 / len(winners) for s in winners if game.names[s] == bot)
        if played % 2 == 0 or played == games:
            low, high = wilson_interval(wins, played)
            print(
                f"{label}: {wins:g}/{played} = {100 * wins / played:.1f} % "
                f"(95 % CI {100 * low:.1f}-{100 * high:.1f}) "
                f"[{time.perf_counter() - started:.0f} s wall]",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search")
    parser.add_argument("--map", default="north_america")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--four-player-games", type=int, default=200)
    parser.add_argument("--speed-games", type=int, default=4)
    parser.add_argument("--playtest-games", type=int, default=8)
    parser.add_argument("--playout-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--only",
        choices=("playouts", "speed", "playtest", "one-step", "greedy", "four"),
        help="Run one part only.",
    )
    args = parser.parse_args()
    parts = {
        "playouts": lambda: playout_speed(args.map, args.playout_games),
        "speed": lambda: speed(args.map, args.bot, args.speed_games),
        "playtest": lambda: playtest(args.map, args.bot, args.playtest_games, args.seed),
        "one-step": lambda: strength(
            args.map, args.bot, ["one-step"], args.games, args.seed, args.jobs
        ),
        "greedy": lambda: strength(
            args.map, args.bot, ["greedy"], args.games, args.seed, args.jobs
        ),
        "four": lambda: strength(
            args.map, args.bot, ["one-step"] * 3, args.four_player_games, args.seed, args.jobs
        ),
    }
    for name, part in parts.items():
        if args.only in (None, name):
            part()


if __name__ == "__main__":
    main()
