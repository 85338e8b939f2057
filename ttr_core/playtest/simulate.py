"""Many bot games on one map, in parallel, summed up into a balance report.

Game `i` of a run with seed `S` is played with seed `game_seed(S, i)`; seat `s`
of game `i` is played by `bots[(s + i) % len(bots)]`, so every bot sits in every
seat equally often. Games are spread over processes in chunks and summed in game
order, so the same seed gives the same report whatever the number of processes.

Shared first places (R17): each of `k` tied winners is credited `1/k` of a win,
so wins add up to the number of games exactly; `outright_wins` counts only
unshared first places.

Ticket completion and score parts come from each game's final result, so with the
europe rules a ticket completed through a station's borrowed route (E1) counts as
completed and the `stations` part is reported like the others.

>>> summary = play_summarised("north_america", ("greedy", "random"), 1)
>>> summary.names, summary.end_reason
(('greedy', 'random'), 'final round')
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr_core.bots import make_bot
from ttr_core.engine.actions import GiveUpTunnel, PayTunnel
from ttr_core.engine.enums import EndReason
from ttr_core.engine.loop import bot_seed, run
from ttr_core.engine.state import GameState
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet

if TYPE_CHECKING:
    from ttr_core.playtest.executors import Executor

#: z for a 95 % confidence interval.
Z95 = 1.959963984540054


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded `seed`."""
    return (seed * 1_000_033 + index * 7_777 + 1) % (2**62)


def seat_names(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """Who plays game `index`: the bot list rotated by one seat per game."""
    return tuple(bots[(seat + index) % len(bots)] for seat in range(players))


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    >>> [round(x, 3) for x in wilson_interval(8, 10)]
    [0.49, 0.943]
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class SeatSummary:
    total: int
    score: dict[str, int]
    rank: int
    longest_path: int
    wagons_left: int
    routes: tuple[int, ...]
    #: (ticket index, completed) for every ticket held at the end; completed as
    #: scored, with the routes the seat's stations borrowed (E1).
    tickets: tuple[tuple[int, bool], ...]
    #: E1 (europe rules): stations built, and routes of others they lent.
    stations: int = 0
    borrowed_routes: int = 0
    #: E2 (europe rules): tunnel claims, and how many asked for extra cards that
    #: were paid or given up (the rest were claimed at once).
    tunnel_claims: int = 0
    tunnels_paid: int = 0
    tunnels_given_up: int = 0


@dataclass(frozen=True)
class GameSummary:
    """What the report needs of one game (small, so it crosses processes cheaply)."""

    index: int
    seed: int
    names: tuple[str, ...]
    end_reason: str
    turns: int
    first_player: int
    seats: tuple[SeatSummary, ...]
    #: After each turn: (mean route points, mean wagons left) over the seats.
    arc: tuple[tuple[float, float], ...]
    record: str | None = field(default=None, repr=False)
    #: The MAP argument the game was played on (for a command that replays it).
    map_argument: str = ""
    #: For a game that ended with everybody passing (R6): what had run out, a
    #: subset of STALL_CAUSES ("track", "cards", "tickets"); empty otherwise.
    stall_causes: tuple[str, ...] = ()


_MAPS: dict[str, Map] = {}


def install_map(map_argument: str, game_map: Map) -> None:
    """Make `game_map` the map that `map_argument` names in this process (workers
    receive maps by content, not by path: `ttr_core.playtest.executors.MapPayload`)."""
    _MAPS[map_argument] = game_map


def _load(map_argument: str) -> Map:
    """A map by id or path, loaded once per process."""
    game_map = _MAPS.get(map_argument)
    if game_map is None:
        from ttr_maps.checks.validate import load_map

        game_map = _MAPS[map_argument] = load_map(map_argument)
    return game_map


def play_summarised(
    map_argument: str,
    names: Sequence[str],
    seed: int,
    index: int = 0,
    record: bool = False,
    rules: RuleSet | None = None,
) -> GameSummary:
    """Play one bot game (with `rules`, default the map's) and summarise it."""
    game_map = _load(map_argument)
    bots = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(names)]
    arc: list[tuple[float, float]] = []
    players = len(bots)

    def after_turns(state: GameState, seat: int, action: object) -> None:
        if state.turns != len(arc):  # a turn ended: one point of the arc per turn
            arc.append((sum(state.route_points) / players, sum(state.wagons) / players))

    state = run(GameState(game_map, players, seed, rules), bots, after_turns)
    result = state.result()
    tunnels = _tunnel_counts(state)
    seats = tuple(
        SeatSummary(
            total=s.total,
            score=dict(s.score),
            rank=s.rank,
            longest_path=s.longest_path,
            wagons_left=s.wagons_left,
            routes=tuple(state.claimed_routes(s.seat)),
            tickets=tuple(
                (t, outcome.completed)
                for t, outcome in zip(state.tickets[s.seat], s.tickets, strict=True)
            ),
            stations=len(s.stations),
            borrowed_routes=len(s.station_routes),
            tunnel_claims=tunnels[s.seat][0],
            tunnels_paid=tunnels[s.seat][1],
            tunnels_given_up=tunnels[s.seat][2],
        )
        for s in result.seats
    )
    text = None
    if record:
        from ttr_core.engine.record import dump_record, record_of

        text = dump_record(record_of(state, list(names)))
    return GameSummary(
        index,
        seed,
        tuple(names),
        state.end_reason or "",
        state.turns,
        state.first_player,
        seats,
        tuple(arc),
        text,
        map_argument,
        stall_causes(state) if state.end_reason == EndReason.ALL_PASSED else (),
    )


#: What can run out and make every player pass (R6): no route anyone may still
#: claim with the wagons left (R9, R11), no train card to draw (D3), no ticket (D4).
STALL_CAUSES = ("track", "cards", "tickets")


def stall_causes(state: GameState) -> tuple[str, ...]:
    """What had run out when a game ended with everybody passing, read from a
    seat's public view (what everyone can see)."""
    from ttr_core.engine.open_routes import can_claim_route

    view = state.view(0)
    players = view.num_players
    track = not any(
        can_claim_route(view.board, route, seat, view.owners, players, view.wagons[seat])
        for seat in range(players)
        for route, owner in enumerate(view.owners)
        if owner == -1
    )
    cards = not view.deck_size and not view.discard_size and all(c is None for c in view.market)
    tickets = not view.ticket_deck_size
    found = dict(zip(STALL_CAUSES, (track, cards, tickets), strict=True))
    return tuple(cause for cause, ran_out in found.items() if ran_out)


def _tunnel_counts(state: GameState) -> list[tuple[int, int, int]]:
    """Per seat, from the history (E2): (tunnel claims, extra paid, given up)."""
    counts = [[0, 0, 0] for _ in range(state.num_players)]
    for index in state.tunnel_reveals:
        seat = state.history[index][0]
        if seat is not None:
            counts[seat][0] += 1
    for seat, action in state.history:
        if seat is not None and isinstance(action, PayTunnel):
            counts[seat][1] += 1
        elif seat is not None and isinstance(action, GiveUpTunnel):
            counts[seat][2] += 1
    return [(c[0], c[1], c[2]) for c in counts]


def rule_changes(game_map: Map, rules: RuleSet | None) -> list[str]:
    """The `--set` texts that turn `game_map`'s own rules into `rules`."""
    from ttr_maps.rules import rules_for

    return [] if rules is None else rules.changes_from(rules_for(game_map))


def play_command(
    map_argument: str, names: Sequence[str], seed: int, changes: Sequence[str] = ()
) -> str:
    """A `ttr play` command line that plays the same game again (same seed, same
    bots in the same seats: `ttr play` seeds its bots as `play_summarised` does;
    `changes` are the run's `--set` overrides)."""
    parts = ["ttr", "play", map_argument, "--players", str(len(names))]
    parts += ["--bots", ",".join(names), "--seed", str(seed)]
    for change in changes:
        parts += ["--set", change]
    return shlex.join(parts)


def iter_games(
    map_argument: str,
    games: int,
    players: int,
    bots: Sequence[str],
    seed: int,
    jobs: int = 1,
    records: bool = False,
    rules: RuleSet | None = None,
    executor: Executor | None = None,
) -> Iterator[GameSummary]:
    """Play the games of a run and yield their summaries in game order.

    `executor` says where (`ttr_core.playtest.executors`); by default this process when
    `jobs` is 1, else `jobs` local worker processes."""
    from ttr_core.playtest.executors import EXECUTORS, MapPayload, Work, batch_size, iter_batches

    if executor is None:
        executor = EXECUTORS["local"](jobs, None)
    work = Work(map_argument, tuple(bots), players, seed, records, rules)
    payload = MapPayload.from_map(map_argument, _load(map_argument))
    batches = iter_batches(games, batch_size(games, max(1, jobs)))
    for summaries in executor.run(work, payload, batches):
        yield from summaries


# ---------------------------------------------------------------- the report


#: Stalled games listed with their replay command in a report (the rest are counted).
STALL_EXAMPLES = 20


class Counts:
    """Whole numbers seen over the games (scores, turns, wagons left), kept as how
    often each value was seen: memory grows with the distinct values, not with
    the games, so a run of 100,000 games tallies in the space of 100.

    >>> counts = Counts()
    >>> for value in (3, 1, 3, 2):
    ...     counts.append(value)
    >>> len(counts), list(counts), counts.value_at(2)
    (4, [1, 2, 3, 3], 3)
    """

    __slots__ = ("_counts", "_total")

    def __init__(self) -> None:
        self._counts: dict[int, int] = {}
        self._total = 0

    def append(self, value: int) -> None:
        self._counts[value] = self._counts.get(value, 0) + 1
        self._total += 1

    def __len__(self) -> int:
        return self._total

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counts) and self._counts == other._counts

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Counts({dict(self.items())})"

    def __iter__(self) -> Iterator[int]:
        """Every value seen, in increasing order (for pictures)."""
        for value in sorted(self._counts):
            yield from [value] * self._counts[value]

    def items(self) -> list[tuple[int, int]]:
        """(value, how often) in increasing order of value."""
        return sorted(self._counts.items())

    def value_at(self, index: int) -> int:
        """The value at `index` of the values in increasing order."""
        seen = 0
        for value, count in self.items():
            seen += count
            if index < seen:
                return value
        raise IndexError(index)


def _distribution(values: Counts) -> dict[str, float]:
    n = len(values)
    if not n:
        return {"count": 0}
    pairs = values.items()

    def quantile(q: float) -> float:
        position = q * (n - 1)
        low = math.floor(position)
        high = min(low + 1, n - 1)
        at_low, at_high = values.value_at(low), values.value_at(high)
        return at_low + (at_high - at_low) * (position - low)

    mean = sum(v * c for v, c in pairs) / n
    spread = sum(c * (v - mean) ** 2 for v, c in pairs)
    sd = math.sqrt(spread / (n - 1)) if n > 1 else 0.0
    return {
        "count": n,
        "mean": round(mean, 3),
        "sd": round(sd, 3),
        "min": pairs[0][0],
        "q10": round(quantile(0.1), 3),
        "q25": round(quantile(0.25), 3),
        "median": round(quantile(0.5), 3),
        "q75": round(quantile(0.75), 3),
        "q90": round(quantile(0.9), 3),
        "max": pairs[-1][0],
    }


def _rate(wins: float, games: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, games)
    return {
        "games": games,
        "wins": round(wins, 6),
        "rate": round(wins / games, 6) if games else 0.0,
        "ci95": [round(low, 6), round(high, 6)],
    }


@dataclass
class Tally:
    """Running sums over games, fed in game order."""

    game_map: Map
    players: int
    games: int = 0
    wins_bot: dict[str, float] = field(default_factory=dict)
    outright_bot: dict[str, int] = field(default_factory=dict)
    seats_bot: dict[str, int] = field(default_factory=dict)
    wins_seat: list[float] = field(default_factory=list)
    outright_seat: list[int] = field(default_factory=list)
    wins_first_player: float = 0.0
    #: Wins by turn order: index 0 is the first player (R4), 1 the next seat, …
    wins_order: list[float] = field(default_factory=list)
    totals_bot: dict[str, Counts] = field(default_factory=dict)
    totals_seat: list[Counts] = field(default_factory=list)
    parts_bot: dict[str, dict[str, Counts]] = field(default_factory=dict)
    parts_seat: list[dict[str, Counts]] = field(default_factory=list)
    bonus_bot: dict[str, int] = field(default_factory=dict)
    bonus_seat: list[int] = field(default_factory=list)
    ticket_held: list[int] = field(default_factory=list)
    ticket_done: list[int] = field(default_factory=list)
    tickets_bot: dict[str, list[int]] = field(default_factory=dict)  # [held, done]
    route_claims: list[int] = field(default_factory=list)
    city_claims: list[int] = field(default_factory=list)
    turns: Counts = field(default_factory=Counts)
    end_reasons: dict[str, int] = field(default_factory=dict)
    #: Stalled games (R6: everybody passed), and the first STALL_EXAMPLES of them
    #: with the command that replays each.
    stall_count: int = 0
    stalls: list[dict[str, Any]] = field(default_factory=list)
    #: Stalled games per cause (a game may count under several).
    stall_causes: dict[str, int] = field(default_factory=dict)
    wagons_left: Counts = field(default_factory=Counts)
    #: Per turn, over the games still running then: [points, wagons, games].
    arc_sums: list[list[float]] = field(default_factory=list)
    #: Per game length: [points, wagons, games] after the last turn, carried forward.
    arc_ended: dict[int, list[float]] = field(default_factory=dict)
    #: E1/E2 per bot: stations, borrowed routes, tunnel claims, paid, given up.
    europe_bot: dict[str, list[int]] = field(default_factory=dict)
    #: The run's `--set` overrides, for the commands that replay its games.
    rule_changes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        m = self.game_map
        self.wins_seat = [0.0] * self.players
        self.outright_seat = [0] * self.players
        self.wins_order = [0.0] * self.players
        self.totals_seat = [Counts() for _ in range(self.players)]
        self.parts_seat = [{} for _ in range(self.players)]
        self.bonus_seat = [0] * self.players
        self.ticket_held = [0] * len(m.tickets)
        self.ticket_done = [0] * len(m.tickets)
        self.route_claims = [0] * len(m.routes)
        self.city_claims = [0] * len(m.cities)

    def add(self, game: GameSummary) -> None:
        self.games += 1
        city_index = self.game_map.city_index
        routes = self.game_map.routes
        winners = [seat for seat, s in enumerate(game.seats) if s.rank == 1]
        share = 1 / len(winners)
        for seat, (name, s) in enumerate(zip(game.names, game.seats, strict=True)):
            self.seats_bot[name] = self.seats_bot.get(name, 0) + 1
            self.wins_bot.setdefault(name, 0.0)
            self.outright_bot.setdefault(name, 0)
            self.bonus_bot.setdefault(name, 0)
            if s.rank == 1:
                self.wins_bot[name] += share
                self.wins_seat[seat] += share
                if len(winners) == 1:
                    self.outright_bot[name] += 1
                    self.outright_seat[seat] += 1
                self.wins_order[(seat - game.first_player) % self.players] += share
                if seat == game.first_player:
                    self.wins_first_player += share
            self.totals_bot.setdefault(name, Counts()).append(s.total)
            self.totals_seat[seat].append(s.total)
            # The parts of the result (with `stations` for europe), so they sum to totals.
            for parts in (self.parts_bot.setdefault(name, {}), self.parts_seat[seat]):
                for part, points in s.score.items():
                    parts.setdefault(part, Counts()).append(points)
            europe = self.europe_bot.setdefault(name, [0, 0, 0, 0, 0])
            europe[0] += s.stations
            europe[1] += s.borrowed_routes
            europe[2] += s.tunnel_claims
            europe[3] += s.tunnels_paid
            europe[4] += s.tunnels_given_up
            if s.score.get("longest_path_bonus", 0) > 0:
                self.bonus_bot[name] += 1
                self.bonus_seat[seat] += 1
            counts = self.tickets_bot.setdefault(name, [0, 0])
            for ticket, done in s.tickets:
                self.ticket_held[ticket] += 1
                counts[0] += 1
                if done:
                    self.ticket_done[ticket] += 1
                    counts[1] += 1
            touched = set()
            for route in s.routes:
                self.route_claims[route] += 1
                touched.update(routes[route].cities)
            for city in touched:
                self.city_claims[city_index[city]] += 1
            self.wagons_left.append(s.wagons_left)
        self.turns.append(game.turns)
        self.end_reasons[game.end_reason] = self.end_reasons.get(game.end_reason, 0) + 1
        if game.end_reason == EndReason.ALL_PASSED:
            self.stall_count += 1
        if game.end_reason == EndReason.ALL_PASSED and len(self.stalls) < STALL_EXAMPLES:
            self.stalls.append(
                {
                    "seed": game.seed,
                    "index": game.index,
                    "bots": list(game.names),
                    "command": play_command(
                        game.map_argument, game.names, game.seed, self.rule_changes
                    ),
                    "causes": list(game.stall_causes),
                }
            )
        if game.end_reason == EndReason.ALL_PASSED:
            for cause in game.stall_causes or ("none ran out",):
                self.stall_causes[cause] = self.stall_causes.get(cause, 0) + 1
        for turn, (points, wagons) in enumerate(game.arc):
            if turn == len(self.arc_sums):
                self.arc_sums.append([0.0, 0.0, 0])
            sums = self.arc_sums[turn]
            sums[0] += points
            sums[1] += wagons
            sums[2] += 1
        if game.arc:
            ended = self.arc_ended.setdefault(len(game.arc), [0.0, 0.0, 0])
            ended[0] += game.arc[-1][0]
            ended[1] += game.arc[-1][1]
            ended[2] += 1

    def arc(self) -> list[dict[str, Any]]:
        """Mean route points and wagons per seat after each turn, over every game:
        a game that is over keeps its final values (so the curve does not jump
        when short games drop out); `running` counts the games still going."""
        rows = []
        carried = [0.0, 0.0, 0]
        for turn, (points, wagons, running) in enumerate(self.arc_sums):
            games = running + carried[2]
            rows.append(
                {
                    "turn": turn + 1,
                    "running": int(running),
                    "mean_route_points": round((points + carried[0]) / games, 3),
                    "mean_wagons": round((wagons + carried[1]) / games, 3),
                }
            )
            ended = self.arc_ended.get(turn + 1)
            if ended is not None:
                carried = [c + e for c, e in zip(carried, ended, strict=True)]
        return rows

    def europe_report(self, names: Sequence[str]) -> dict[str, Any]:
        """E1 and E2 by bot: stations built, routes borrowed, tunnel claims."""
        by_bot = {}
        for name in names:
            stations, borrowed, claims, paid, given_up = self.europe_bot[name]
            seat_games = self.seats_bot[name]
            by_bot[name] = {
                "seat_games": seat_games,
                "stations_built": stations,
                "stations_per_game": round(stations / seat_games, 3),
                "routes_borrowed": borrowed,
                "tunnel_claims": claims,
                "tunnels_claimed_at_once": claims - paid - given_up,
                "tunnels_paid": paid,
                "tunnels_given_up": given_up,
            }
        return {"by_bot": by_bot}

    def to_report(self, settings: dict[str, Any]) -> dict[str, Any]:
        m = self.game_map
        games = self.games
        names = sorted(self.seats_bot)
        seat_games = games  # every seat plays every game
        tickets = [
            {
                "ticket": f"{t.a}–{t.b}",
                "value": t.value,
                "held": self.ticket_held[i],
                "completed": self.ticket_done[i],
                "rate": round(self.ticket_done[i] / self.ticket_held[i], 6)
                if self.ticket_held[i]
                else None,
            }
            for i, t in enumerate(m.tickets)
        ]
        routes = [
            {
                "route": r.id,
                "length": r.length,
                "color": r.color,
                "claimed": self.route_claims[i],
                "rate": round(self.route_claims[i] / games, 6) if games else 0.0,
            }
            for i, r in enumerate(m.routes)
        ]
        cities = {
            c.name: round(self.city_claims[i] / (games * self.players), 6) if games else 0.0
            for i, c in enumerate(m.cities)
        }
        report = {
            "format": "ttr-simulation-report",
            "version": 1,
            "findings": [],
            "settings": settings,
            "games": games,
            "decisions": {
                "shared_wins": "each of k tied first places counts 1/k of a win "
                "(wins add up to games); outright_wins counts unshared first places",
                "seat_assignment": "seat s of game i is bots[(s + i) % len(bots)]",
                "game_seed": "game_seed(seed, i) = (seed * 1000033 + i * 7777 + 1) mod 2**62",
                "cities": "share of seat-games in which the seat claimed a route touching the city",
                "arc": "means over all games; a game that is over keeps its final values",
            },
            "win_rate": {
                "by_bot": {
                    n: {
                        **_rate(self.wins_bot[n], self.seats_bot[n]),
                        "outright_wins": self.outright_bot[n],
                    }
                    for n in names
                },
                "by_seat": {
                    str(s): {
                        **_rate(self.wins_seat[s], seat_games),
                        "outright_wins": self.outright_seat[s],
                    }
                    for s in range(self.players)
                },
                "first_player": _rate(self.wins_first_player, games),
                "by_turn_order": {
                    str(order + 1): _rate(self.wins_order[order], games)
                    for order in range(self.players)
                },
                "fair_share": round(1 / self.players, 6),
            },
            "scores": {
                "by_bot": {
                    n: {
                        **_distribution(self.totals_bot[n]),
                        "parts": {p: _distribution(v) for p, v in self.parts_bot[n].items()},
                    }
                    for n in names
                },
                "by_seat": {
                    str(s): {
                        **_distribution(v),
                        "parts": {p: _distribution(d) for p, d in self.parts_seat[s].items()},
                    }
                    for s, v in enumerate(self.totals_seat)
                },
            },
            "longest_path_bonus": {
                "by_bot": {n: self.bonus_bot[n] for n in names},
                "by_seat": {str(s): self.bonus_seat[s] for s in range(self.players)},
            },
            "tickets": {
                "by_bot": {
                    n: {
                        "held": c[0],
                        "completed": c[1],
                        "rate": round(c[1] / c[0], 6) if c[0] else None,
                    }
                    for n, c in sorted(self.tickets_bot.items())
                },
                "by_ticket": tickets,
                "never_held": [t["ticket"] for t in tickets if not t["held"]],
            },
            "routes": routes,
            "unclaimed_routes": [r["route"] for r in routes if not r["claimed"]],
            "cities": cities,
            "turns": _distribution(self.turns),
            "wagons_left": _distribution(self.wagons_left),
            "end_reasons": dict(sorted(self.end_reasons.items())),
            "stalls": {
                "count": self.stall_count,
                "causes": dict(sorted(self.stall_causes.items())),
                "seeds": self.stalls,
            },
            "arc": self.arc(),
            **({"europe": self.europe_report(names)} if m.rules == "europe" else {}),
        }
        from ttr_core.playtest.findings import findings

        report["findings"] = findings(report)  # first in the file, computed from the rest
        return report


@dataclass(frozen=True)
class Simulation:
    report: dict[str, Any]
    #: (seed, record text) per game, when records were asked for.
    records: list[tuple[int, str]]
    #: Every final score: {"by_seat": {"seat 0": Counts}, "by_bot": {"greedy": Counts}}.
    totals: dict[str, dict[str, Counts]]


def simulate(
    map_argument: str,
    games: int,
    players: int,
    bots: Sequence[str],
    seed: int,
    jobs: int = 1,
    records: bool = False,
    on_game: Callable[[GameSummary], None] | None = None,
    rules: RuleSet | None = None,
    executor: Executor | None = None,
) -> Simulation:
    """Play `games` games (with `rules`, default the map's) and sum them up into a
    report (a JSON-ready dict)."""
    game_map = _load(map_argument)
    for name in bots:
        make_bot(name, 0)  # unknown names fail here, before any process starts
    changes = rule_changes(game_map, rules)
    tally = Tally(game_map, players, rule_changes=tuple(changes))
    kept: list[tuple[int, str]] = []
    for game in iter_games(
        map_argument, games, players, bots, seed, jobs, records, rules, executor
    ):
        tally.add(game)
        if game.record is not None:
            kept.append((game.seed, game.record))
        if on_game is not None:
            on_game(game)
    settings = {
        "map": game_map.id,
        "map_name": game_map.name,
        "games": games,
        "players": players,
        "bots": list(bots),
        "seed": seed,
        "set": changes,
    }
    totals = {
        "by_seat": {f"seat {s}": v for s, v in enumerate(tally.totals_seat)},
        "by_bot": dict(sorted(tally.totals_bot.items())),
    }
    return Simulation(tally.to_report(settings), kept, totals)
