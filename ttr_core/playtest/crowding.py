"""A deck in play: the share of held tickets completed, and the connections a game
takes from players who needed them, counted in games of greedy bots (`ttr tickets
MAP --games N`).

A connection is *taken from a seat* in a game when it lies on the cheapest path of
a ticket the seat holds at the end, the seat owns no track of it, the others'
tracks closed it (R11: below the rule set's `double_routes_from` players one track
of a double closes it), and none of the seat's stations lent it one of those
tracks (E1: a station lets its owner use a route of another player into its city,
so nothing was taken). A ticket with several equally cheap paths counts each alike:
the seat needs a connection with the chance that the cheapest path it plays goes
through it. Summed over the seats, a game's blocked connections; over the games,
their mean with a 95 % interval (normal, over games), and each connection's share.

This replaces a model of who wants what (`ttr_maps.analysis.tickets`, `Crowding`)
as the number `ttr tickets` reports: the model was within 12 % of play on the
boards it was fitted to and 20-60 % low on maps it was not (docs/tickets.md); a
hundred games a table size are within a few per cent of a run of five hundred, on
any map (benchmarks/calibration_bench.py, section `crowding`).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ttr_core.playtest.executors import IN_THIS_PROCESS, Workers, iter_games
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_maps.analysis.tickets import PlayedDeck, TicketBoard

if TYPE_CHECKING:
    from ttr_core.playtest.playout import GameSummary

#: The bots whose games crowding is counted in (the play-tests' default).
CROWDING_BOTS = ("greedy",)
#: Games at 4 players by default, and the seed of the games.
DEFAULT_CROWDING_GAMES = 100
CROWDING_SEED = 1


def games_at(players: int, games: int) -> int:
    """Games at a table size for `games` at 4 players: as many seat-games at every
    size (2 players play twice as many games, each about half as long), so that the
    count of a small table, a few connections a game, is as precise as a large one's."""
    return max(1, round(games * 4 / players))


class BlockedCounter:
    """Counts the connections taken from the seats of games on one map (see the
    module), game by game."""

    def __init__(self, board: TicketBoard, players: int) -> None:
        ordered = board.map.in_play_order  # how the games number things
        self.board = board
        self.players = players
        self.tickets = ordered.tickets
        self.connection_of = [board.connection_index[frozenset(r.cities)] for r in ordered.routes]
        self.route_connection = {
            r.id: c for r, c in zip(ordered.routes, self.connection_of, strict=True)
        }
        self.single = board.rules.is_single_track(players)
        self.shares: dict[tuple[str, str], dict[int, float]] = {}

    def path_shares(self, a: str, b: str) -> dict[int, float]:
        """Connection -> the share of the equally cheapest paths between `a` and
        `b` (of the board's `PATHS_PER_TICKET`) that go through it."""
        key = (a, b) if a <= b else (b, a)
        found = self.shares.get(key)
        if found is None:
            paths = self.board.paths(*key)
            cheapest = [
                p for c, p in zip(paths.costs, paths.paths, strict=True) if c == paths.value
            ]
            found = {}
            for path in cheapest:
                for x, y in itertools.pairwise(path):
                    c = self.board.connection_index[frozenset((x, y))]
                    found[c] = found.get(c, 0.0) + 1.0 / len(cheapest)
            self.shares[key] = found
        return found

    def blocked(self, game: GameSummary) -> tuple[dict[int, float], float]:
        """The connections taken from the game's seats (connection -> the chance
        summed over the seats), and how much more was closed to a seat but lent by
        one of its stations (E1; not counted)."""
        owned = [[0] * len(self.board.connections) for _ in game.seats]
        for seat, summary in enumerate(game.seats):
            for route in summary.routes:
                owned[seat][self.connection_of[route]] += 1
        found: dict[int, float] = {}
        lent_closed = 0.0
        for seat, summary in enumerate(game.seats):
            missed: dict[int, float] = {}  # connection -> chance no held ticket needs it
            for index, _ in summary.tickets:
                ticket = self.tickets[index]
                for c, share in self.path_shares(ticket.a, ticket.b).items():
                    missed[c] = missed.get(c, 1.0) * (1.0 - share)
            lent = {self.route_connection[r] for r in summary.station_routes}
            for c, chance_not in missed.items():
                others = sum(owned[s][c] for s in range(len(game.seats)) if s != seat)
                closed = others >= 1 if self.single else others >= self.board.connections[c].tracks
                if owned[seat][c] or not closed:
                    continue
                if c in lent:
                    lent_closed += 1.0 - chance_not
                else:
                    found[c] = found.get(c, 0.0) + 1.0 - chance_not
        return found, lent_closed


def played_deck(
    played: PlayedMap,
    board: TicketBoard,
    players: int,
    games: int = DEFAULT_CROWDING_GAMES,
    seed: int = CROWDING_SEED,
    where: Workers = IN_THIS_PROCESS,
    bots: Sequence[str] = CROWDING_BOTS,
    on_game: Callable[[GameSummary], None] | None = None,
) -> PlayedDeck:
    """The deck in play at one table size, over `games` games: ticket completion and
    the connections taken (see the module)."""
    from ttr_core.playtest.stats import ClusterSums, rate_interval

    counter = BlockedCounter(board, players)
    per_game: list[float] = []
    per_connection = [0.0] * len(board.connections)
    tickets = ClusterSums()
    for game in iter_games(played, RunPlan(games, players, tuple(bots), seed), where):
        blocked, _ = counter.blocked(game)
        per_game.append(sum(blocked.values()))
        for c, chance in blocked.items():
            per_connection[c] += chance
        held = [done for seat in game.seats for _, done in seat.tickets]
        tickets.add(len(held), sum(held))
        if on_game is not None:
            on_game(game)
    count = len(per_game)
    mean = statistics.fmean(per_game) if per_game else 0.0
    half = 1.96 * statistics.stdev(per_game) / math.sqrt(count) if count > 1 else 0.0
    completion = tickets.y / tickets.x if tickets.x else 0.0
    low, high = (
        rate_interval(completion, tickets.x, tickets.design_effect()) if tickets.x else (0, 1)
    )
    return PlayedDeck(
        players,
        count,
        tuple(bots),
        round(completion, 4),
        (round(low, 4), round(high, 4)),
        round(mean, 4),
        (round(max(0.0, mean - half), 4), round(mean + half, 4)),
        tuple(round(v / max(count, 1), 5) for v in per_connection),
    )
