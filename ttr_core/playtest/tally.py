"""Running sums over the games of a run, fed in game order, and the balance
report they add up to (`Tally.to_report`).

Shared first places (R17): each of `k` tied winners is credited `1/k` of a win,
so wins add up to the number of games exactly; `outright_wins` counts only
unshared first places. Memory does not grow with the games: whole numbers are
kept as how often each value was seen (`Counts`), the arc as sums per turn.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ttr_core.engine.enums import EndReason
from ttr_core.playtest.playout import GameSummary, play_command
from ttr_core.playtest.report import (
    DECISIONS,
    ArcPoint,
    BalanceReport,
    ConnectionClaims,
    Distribution,
    Europe,
    EuropeBot,
    LongestPathBonus,
    Rate,
    RouteClaims,
    ScoreDistribution,
    Scores,
    SeatRate,
    Settings,
    StalledGame,
    Stalls,
    TicketCompletion,
    TicketRate,
    Tickets,
    WinRates,
)
from ttr_core.playtest.stats import ClusterSums, rate_interval
from ttr_maps.model import Map, Route
from ttr_maps.rules import RuleSet

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

    def distribution(self) -> Distribution:
        """Count, mean, sample sd, quantiles (linear between order statistics),
        min and max of the values, rounded to 3 places."""
        n = len(self)
        if not n:
            return Distribution(0)
        pairs = self.items()

        def quantile(q: float) -> float:
            position = q * (n - 1)
            low = math.floor(position)
            high = min(low + 1, n - 1)
            at_low, at_high = self.value_at(low), self.value_at(high)
            return at_low + (at_high - at_low) * (position - low)

        mean = sum(v * c for v, c in pairs) / n
        spread = sum(c * (v - mean) ** 2 for v, c in pairs)
        sd = math.sqrt(spread / (n - 1)) if n > 1 else 0.0
        return Distribution(
            count=n,
            mean=round(mean, 3),
            sd=round(sd, 3),
            min=pairs[0][0],
            q10=round(quantile(0.1), 3),
            q25=round(quantile(0.25), 3),
            median=round(quantile(0.5), 3),
            q75=round(quantile(0.75), 3),
            q90=round(quantile(0.9), 3),
            max=pairs[-1][0],
        )


def _interval(rate: float, trials: float, design_effect: float) -> tuple[float, float]:
    low, high = rate_interval(rate, trials, design_effect)
    return (round(low, 6), round(high, 6))


def _rate(wins: float, games: int, design_effect: float = 1.0) -> Rate:
    rate = wins / games if games else 0.0
    effect = round(design_effect, 4)
    return Rate(games, round(wins, 6), round(rate, 6), _interval(rate, games, effect), effect)


def _seat_rate(wins: float, games: int, outright: int, design_effect: float = 1.0) -> SeatRate:
    rate = _rate(wins, games, design_effect)
    return SeatRate(rate.games, rate.wins, rate.rate, rate.ci95, rate.design_effect, outright)


def _scores(
    totals: Counts, parts: Mapping[str, Counts], sums: ClusterSums | None = None
) -> ScoreDistribution:
    distribution = totals.distribution()
    effect = 1.0
    if sums is not None and distribution.count > 1 and distribution.sd:
        effect = sums.design_effect(distribution.sd**2 / distribution.count)
    return ScoreDistribution(
        distribution,
        {part: counts.distribution() for part, counts in parts.items()},
        round(effect, 4),
    )


def _ticket_numbers(sums: ClusterSums) -> tuple[float | None, tuple[float, float], float]:
    """A completion rate, its interval (clustered by game) and design effect."""
    held = sums.x
    if not held:
        return None, (0.0, 1.0), 1.0
    rate = sums.y / held
    effect = round(sums.design_effect(), 4)
    return round(rate, 6), _interval(rate, held, effect), effect


def connections_of(game_map: Map) -> list[tuple[tuple[str, str], tuple[Route, ...]]]:
    """Every connection of a map (a pair of neighbouring cities) with its tracks
    (R11: a double has two), sorted by the city names."""
    pairs = [(tuple(sorted(pair)), routes) for pair, routes in game_map.parallel_routes.items()]
    return sorted(pairs, key=lambda item: item[0])  # type: ignore[return-value]


@dataclass(frozen=True)
class FinalScores:
    """Every final score of a run, for the distribution pictures: by seat
    ("seat 0", …) and by bot (sorted by name)."""

    by_seat: Mapping[str, Counts]
    by_bot: Mapping[str, Counts]


@dataclass
class Tally:
    """Running sums over games, fed in game order."""

    game_map: Map
    players: int
    #: The run's rules: with stations or tunnels (E1, E2) the report has a europe part.
    rules: RuleSet
    #: The run's `--set` overrides, for the commands that replay its games.
    rule_changes: tuple[str, ...] = ()
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
    ticket_offered: list[int] = field(default_factory=list)
    ticket_held: list[int] = field(default_factory=list)
    ticket_done: list[int] = field(default_factory=list)
    tickets_bot: dict[str, list[int]] = field(default_factory=dict)  # [held, done]
    #: Per-game sums (variance clustered by game, `stats.ClusterSums`): tickets
    #: held/completed per ticket and per bot, seats/wins and seats/points per bot.
    ticket_sums: list[ClusterSums] = field(default_factory=list)
    ticket_bot_sums: dict[str, ClusterSums] = field(default_factory=dict)
    wins_bot_sums: dict[str, ClusterSums] = field(default_factory=dict)
    score_bot_sums: dict[str, ClusterSums] = field(default_factory=dict)
    #: Per connection (`connections`): games in which 0, 1, … of its tracks were claimed.
    connection_games: list[list[int]] = field(default_factory=list)
    route_claims: list[int] = field(default_factory=list)
    city_claims: list[int] = field(default_factory=list)
    turns: Counts = field(default_factory=Counts)
    end_reasons: dict[str, int] = field(default_factory=dict)
    #: Stalled games (R6: everybody passed), and the first STALL_EXAMPLES of them
    #: with the command that replays each.
    stall_count: int = 0
    stalls: list[StalledGame] = field(default_factory=list)
    #: Stalled games per cause (a game may count under several).
    stall_causes: dict[str, int] = field(default_factory=dict)
    wagons_left: Counts = field(default_factory=Counts)
    #: Per turn, over the games still running then: [points, wagons, games].
    arc_sums: list[list[float]] = field(default_factory=list)
    #: Per game length: [points, wagons, games] after the last turn, carried forward.
    arc_ended: dict[int, list[float]] = field(default_factory=dict)
    #: E1/E2 per bot: stations, borrowed routes, tunnel claims, paid, given up.
    europe_bot: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The games number cities, routes and tickets in play order (the engine's,
        # `ttr_maps.model.Map.in_play_order`), and so do the report's lists.
        m = self.game_map = self.game_map.in_play_order
        self.wins_seat = [0.0] * self.players
        self.outright_seat = [0] * self.players
        self.wins_order = [0.0] * self.players
        self.totals_seat = [Counts() for _ in range(self.players)]
        self.parts_seat = [{} for _ in range(self.players)]
        self.bonus_seat = [0] * self.players
        self.ticket_offered = [0] * len(m.tickets)
        self.ticket_held = [0] * len(m.tickets)
        self.ticket_done = [0] * len(m.tickets)
        self.ticket_sums = [ClusterSums() for _ in m.tickets]
        self.route_claims = [0] * len(m.routes)
        self.city_claims = [0] * len(m.cities)
        self.connections = connections_of(m)
        self.connection_of_route = {
            route.index: i for i, (_, routes) in enumerate(self.connections) for route in routes
        }
        self.connection_games = [[0] * (len(routes) + 1) for _, routes in self.connections]

    def add(self, game: GameSummary) -> None:
        self.games += 1
        city_index = self.game_map.city_index
        routes = self.game_map.routes
        winners = [seat for seat, s in enumerate(game.seats) if s.rank == 1]
        share = 1 / len(winners)
        held = [0] * len(self.ticket_sums)
        done = [0] * len(self.ticket_sums)
        bot_game: dict[str, list[float]] = {}  # seats, wins, points, held, completed
        tracks = [0] * len(self.connections)
        for seat, (name, s) in enumerate(zip(game.names, game.seats, strict=True)):
            mine = bot_game.setdefault(name, [0, 0.0, 0, 0, 0])
            mine[0] += 1
            mine[1] += share if s.rank == 1 else 0.0
            mine[2] += s.total
            mine[3] += len(s.tickets)
            mine[4] += sum(1 for _, completed in s.tickets if completed)
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
            for ticket in s.offered:
                self.ticket_offered[ticket] += 1
            counts = self.tickets_bot.setdefault(name, [0, 0])
            for ticket, completed in s.tickets:
                self.ticket_held[ticket] += 1
                held[ticket] += 1
                counts[0] += 1
                if completed:
                    self.ticket_done[ticket] += 1
                    done[ticket] += 1
                    counts[1] += 1
            touched = set()
            for route in s.routes:
                self.route_claims[route] += 1
                tracks[self.connection_of_route[route]] += 1
                touched.update(routes[route].cities)
            for city in touched:
                self.city_claims[city_index[city]] += 1
            self.wagons_left.append(s.wagons_left)
        for sums, h, d in zip(self.ticket_sums, held, done, strict=True):
            sums.add(h, d)
        for name, (seats, wins, points, bot_held, bot_done) in bot_game.items():
            self.wins_bot_sums.setdefault(name, ClusterSums()).add(seats, wins)
            self.score_bot_sums.setdefault(name, ClusterSums()).add(seats, points)
            self.ticket_bot_sums.setdefault(name, ClusterSums()).add(bot_held, bot_done)
        for counts_by_tracks, claimed in zip(self.connection_games, tracks, strict=True):
            counts_by_tracks[claimed] += 1
        self.turns.append(game.turns)
        self.end_reasons[game.end_reason] = self.end_reasons.get(game.end_reason, 0) + 1
        if game.end_reason == EndReason.ALL_PASSED:
            self.stall_count += 1
            if len(self.stalls) < STALL_EXAMPLES:
                command = play_command(game.map_argument, game.names, game.seed, self.rule_changes)
                self.stalls.append(
                    StalledGame(game.seed, game.index, game.names, command, game.stall_causes)
                )
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

    def arc(self) -> tuple[ArcPoint, ...]:
        """Mean route points and wagons per seat after each turn, over every game:
        a game that is over keeps its final values (so the curve does not jump
        when short games drop out); `running` counts the games still going."""
        points_after: list[ArcPoint] = []
        carried = [0.0, 0.0, 0]
        for turn, (points, wagons, running) in enumerate(self.arc_sums):
            games = running + carried[2]
            points_after.append(
                ArcPoint(
                    turn=turn + 1,
                    running=int(running),
                    mean_route_points=round((points + carried[0]) / games, 3),
                    mean_wagons=round((wagons + carried[1]) / games, 3),
                )
            )
            ended = self.arc_ended.get(turn + 1)
            if ended is not None:
                carried = [c + e for c, e in zip(carried, ended, strict=True)]
        return tuple(points_after)

    def europe_report(self, names: Sequence[str]) -> Europe:
        """E1 and E2 by bot: stations built, routes borrowed, tunnel claims."""
        by_bot = {}
        for name in names:
            stations, borrowed, claims, paid, given_up = self.europe_bot[name]
            seat_games = self.seats_bot[name]
            by_bot[name] = EuropeBot(
                seat_games=seat_games,
                stations_built=stations,
                stations_per_game=round(stations / seat_games, 3),
                routes_borrowed=borrowed,
                tunnel_claims=claims,
                tunnels_claimed_at_once=claims - paid - given_up,
                tunnels_paid=paid,
                tunnels_given_up=given_up,
            )
        return Europe(by_bot)

    def final_scores(self) -> FinalScores:
        return FinalScores(
            {f"seat {s}": v for s, v in enumerate(self.totals_seat)},
            dict(sorted(self.totals_bot.items())),
        )

    def _connection(
        self, pair: tuple[str, str], tracks: tuple[Route, ...], games_by_tracks: list[int]
    ) -> ConnectionClaims:
        games = self.games
        claimed = games - games_by_tracks[0]
        rate = claimed / games if games else 0.0
        low, high = rate_interval(rate, games)
        mean = sum(k * n for k, n in enumerate(games_by_tracks)) / games if games else 0.0
        return ConnectionClaims(
            between=pair,
            routes=tuple(r.id for r in tracks),
            length=min(r.length for r in tracks),
            games_by_tracks=tuple(games_by_tracks),
            claimed=claimed,
            rate=round(rate, 6),
            ci95=(round(low, 6), round(high, 6)),
            tracks_per_game=round(mean, 6),
        )

    def to_report(self, settings: Settings) -> BalanceReport:
        """The report of the games added so far, without findings (those are read
        from it: `ttr_core.playtest.findings`)."""
        m = self.game_map
        games = self.games
        names = sorted(self.seats_bot)
        seat_games = games  # every seat plays every game
        tickets = tuple(
            TicketCompletion(
                "–".join(sorted(t.cities)),  # by name: the file's order does not count
                t.value,
                t.long,
                t.bonus,
                self.ticket_offered[i],
                self.ticket_held[i],
                self.ticket_done[i],
                *_ticket_numbers(self.ticket_sums[i]),
            )
            for i, t in enumerate(m.tickets)
        )
        routes = tuple(
            RouteClaims(
                route=r.id,
                length=r.length,
                color=r.color,
                tunnel=r.tunnel,
                ferry=r.ferry,
                claimed=self.route_claims[i],
                rate=round(self.route_claims[i] / games, 6) if games else 0.0,
            )
            for i, r in enumerate(m.routes)
        )
        connections = tuple(
            self._connection(pair, tracks, counts)
            for (pair, tracks), counts in zip(self.connections, self.connection_games, strict=True)
        )
        cities = {
            c.name: round(self.city_claims[i] / (games * self.players), 6) if games else 0.0
            for i, c in enumerate(m.cities)
        }
        win_rate = WinRates(
            by_bot={
                n: _seat_rate(
                    self.wins_bot[n],
                    self.seats_bot[n],
                    self.outright_bot[n],
                    self.wins_bot_sums[n].design_effect(),
                )
                for n in names
            },
            by_seat=tuple(
                _seat_rate(self.wins_seat[s], seat_games, self.outright_seat[s])
                for s in range(self.players)
            ),
            first_player=_rate(self.wins_first_player, games),
            by_turn_order=tuple(_rate(self.wins_order[o], games) for o in range(self.players)),
            fair_share=round(1 / self.players, 6),
        )
        scores = Scores(
            by_bot={
                n: _scores(self.totals_bot[n], self.parts_bot[n], self.score_bot_sums[n])
                for n in names
            },
            by_seat=tuple(
                _scores(totals, self.parts_seat[s]) for s, totals in enumerate(self.totals_seat)
            ),
        )
        ticket_rates = {
            n: TicketRate(c[0], c[1], *_ticket_numbers(self.ticket_bot_sums[n]))
            for n, c in sorted(self.tickets_bot.items())
        }
        has_europe = self.rules.stations > 0 or self.rules.tunnels
        return BalanceReport(
            findings=(),
            settings=settings,
            games=games,
            decisions=dict(DECISIONS),
            win_rate=win_rate,
            scores=scores,
            longest_path_bonus=LongestPathBonus(
                {n: self.bonus_bot[n] for n in names}, tuple(self.bonus_seat)
            ),
            tickets=Tickets(ticket_rates, tickets, tuple(t.ticket for t in tickets if not t.held)),
            routes=routes,
            connections=connections,
            unclaimed_routes=tuple(r.route for r in routes if not r.claimed),
            cities=cities,
            turns=self.turns.distribution(),
            wagons_left=self.wagons_left.distribution(),
            end_reasons=dict(sorted(self.end_reasons.items())),
            stalls=Stalls(
                self.stall_count, dict(sorted(self.stall_causes.items())), tuple(self.stalls)
            ),
            arc=self.arc(),
            europe=self.europe_report(names) if has_europe else None,
        )
