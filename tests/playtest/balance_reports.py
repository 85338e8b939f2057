"""Support for the play-test tests: the balance-report schema check every report
the tests produce goes through, and synthetic reports with known numbers.

`checked(report)` asserts that `report.to_dict()` is valid against
`schemas/balance-report.schema.json` and reads back (through JSON) to the same
report, and returns the dict. `synthetic_report(...)` builds a fair report of a
made-up map (by default 1000 four-player games of bots `a` and `b`, every rate at
its fair share); its keyword arguments change one part at a time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from ttr_core.playtest.report import (
    DECISIONS,
    BalanceReport,
    Baseline,
    BoardBaseline,
    ConnectionClaims,
    Distribution,
    Estimate,
    LongestPathBonus,
    Rate,
    RouteClaims,
    ScoreDistribution,
    Scores,
    SeatRate,
    Settings,
    Stalls,
    TicketCompletion,
    TicketRate,
    Tickets,
    WinRates,
)
from ttr_core.playtest.stats import wilson_interval
from ttr_maps.io.bundled import schema_path
from ttr_maps.rules import BASE


@cache
def validator() -> Draft202012Validator:
    schema = json.loads(schema_path("balance-report").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def schema_errors(data: Any) -> list[str]:
    return [f"{error.json_path}: {error.message}" for error in validator().iter_errors(data)]


def checked(report: BalanceReport) -> dict[str, Any]:
    """The report as report.json holds it, after asserting that it is valid against
    the schema and reads back to the same report."""
    data = json.loads(json.dumps(report.to_dict(), ensure_ascii=False))
    assert schema_errors(data) == []
    assert BalanceReport.from_dict(data) == report
    return data


def interval(successes: float, trials: int) -> tuple[float, float]:
    low, high = wilson_interval(successes, trials)
    return (round(low, 6), round(high, 6))


def rate(wins: float, games: int) -> Rate:
    return Rate(games, wins, wins / games if games else 0.0, interval(wins, games), 1.0)


def seat_rate(wins: float, games: int) -> SeatRate:
    r = rate(wins, games)
    return SeatRate(r.games, r.wins, r.rate, r.ci95, 1.0, int(wins))


def ticket_completion(name: str, value: int, held: int, done: int) -> TicketCompletion:
    rate_done = done / held if held else None
    return TicketCompletion(
        name, value, False, 0, held, held, done, rate_done, interval(done, held), 1.0
    )


def connection(name: str, claimed: int, games: int) -> ConnectionClaims:
    """A single-track connection `A-B` claimed in `claimed` of `games` games."""
    a, _, b = name.split("/")[0].partition("-")
    return ConnectionClaims(
        (a, b or a + "'"),
        (name,),
        2,
        (games - claimed, claimed),
        claimed,
        claimed / games,
        interval(claimed, games),
        claimed / games,
    )


def board_baseline(
    map_id: str,
    players: int = 4,
    *,
    turn_order: Sequence[float] | None = None,
    by_bot: Mapping[str, float] | None = None,
    games: int = 1000,
) -> BoardBaseline:
    """A published board's numbers: fair by default (standard errors of `games`)."""

    def estimate(p: float, n: float = games) -> Estimate:
        return Estimate(p, (p * (1 - p) / n) ** 0.5)

    fair = 1 / players
    order = turn_order or [fair] * players
    bots = by_bot or {"a": fair, "b": fair}
    return BoardBaseline(
        map=map_id,
        games=games,
        turn_order=tuple(estimate(p) for p in order),
        by_bot={name: estimate(p, games * players / len(bots)) for name, p in bots.items()},
        stalls=Estimate(0.0, 0.0),
        bonus_share={name: estimate(1 / len(bots)) for name in bots},
        turns_per_player=Estimate(39.0, 0.1),
        rare_track_share=0.02,
        common_track_share=0.0,
        ticket_departure=0.05,
    )


def baseline(players: int = 4, **numbers: Any) -> Baseline:
    """North America and Europe, both with `board_baseline`'s numbers."""
    boards = tuple(board_baseline(m, players, **numbers) for m in ("north_america", "europe"))
    return Baseline("test", ("a", "b"), players, 0, boards)


def distribution(count: int, mean: float, sd: float) -> Distribution:
    low, high = int(mean - 2 * sd), int(mean + 2 * sd)
    return Distribution(count, mean, sd, low, mean, mean, mean, mean, mean, high)


def synthetic_report(
    *,
    games: int = 1000,
    players: int = 4,
    bots: Sequence[str] = ("a", "b"),
    map_id: str = "test",
    wins_by_bot: Mapping[str, float] | None = None,
    wins_by_seat: Sequence[float] | None = None,
    wins_by_turn_order: Sequence[float] | None = None,
    routes: Mapping[str, int] | None = None,
    tickets: Sequence[tuple[str, int, int, int]] | None = None,
    tickets_by_bot: Mapping[str, tuple[int, int]] | None = None,
    stalls: tuple[int, Mapping[str, int]] = (0, {}),
    bonus_by_bot: Mapping[str, int] | None = None,
    turns: tuple[int, float, float] | None = None,
    score_by_seat: tuple[int, float, float] | None = None,
    published: Baseline | None = None,
) -> BalanceReport:
    """A fair report: `wins_*` are wins (of `games`, or of a bot's seat-games);
    `routes` claims per route (default 40 routes claimed in half the games);
    `tickets` (ticket, value, held, completed) (default 12 tickets on the line
    completion = 1 − 0.05 × value); `stalls` (count, causes); `turns` and
    `score_by_seat` (count, mean, sd); `published` the baseline the findings read."""
    seat_games = games * players // len(bots)
    fair = 1 / players
    if wins_by_bot is None:
        wins_by_bot = dict.fromkeys(bots, games / len(bots))
    if wins_by_seat is None:
        wins_by_seat = [games * fair] * players
    if wins_by_turn_order is None:
        wins_by_turn_order = [games * fair] * players
    if routes is None:
        routes = {f"R{i}": games // 2 for i in range(40)}
    if tickets is None:
        tickets = [(f"T{v}", v, 400, 400 - 20 * v) for v in range(4, 16)]
    if tickets_by_bot is None:
        tickets_by_bot = dict.fromkeys(bots, (3000, 2000))
    if bonus_by_bot is None:
        bonus_by_bot = dict.fromkeys(bots, games // len(bots))
    turns_distribution = distribution(*(turns or (games, 150.0, 10.0)))
    seat_scores = ScoreDistribution(distribution(*(score_by_seat or (games, 100.0, 20.0))), {})
    by_ticket = tuple(
        ticket_completion(name, value, held, done) for name, value, held, done in tickets
    )
    claims = tuple(
        RouteClaims(name, 2, "gray", False, 0, claimed, claimed / games)
        for name, claimed in routes.items()
    )
    connections = _connections(routes, games)
    return BalanceReport(
        findings=(),
        settings=Settings(
            map_id, map_id.title(), games, players, tuple(bots), 0, (), BASE.to_dict()
        ),
        games=games,
        decisions=dict(DECISIONS),
        win_rate=WinRates(
            by_bot={name: seat_rate(wins, seat_games) for name, wins in wins_by_bot.items()},
            by_seat=tuple(seat_rate(wins, games) for wins in wins_by_seat),
            first_player=rate(wins_by_turn_order[0], games),
            by_turn_order=tuple(rate(wins, games) for wins in wins_by_turn_order),
            fair_share=fair,
        ),
        scores=Scores(by_bot=dict.fromkeys(bots, seat_scores), by_seat=(seat_scores,) * players),
        longest_path_bonus=LongestPathBonus(dict(bonus_by_bot), (0,) * players),
        tickets=Tickets(
            {
                name: TicketRate(held, done, done / held, interval(done, held), 1.0)
                for name, (held, done) in tickets_by_bot.items()
            },
            by_ticket,
            tuple(t.ticket for t in by_ticket if not t.held),
        ),
        routes=claims,
        connections=connections,
        unclaimed_routes=tuple(r.route for r in claims if not r.claimed),
        cities={},
        turns=turns_distribution,
        wagons_left=distribution(games * players, 5.0, 3.0),
        end_reasons={"final round": games - stalls[0], "all passed": stalls[0]},
        stalls=Stalls(stalls[0], dict(stalls[1]), ()),
        arc=(),
        baseline=published,
    )


def _connections(routes: Mapping[str, int], games: int) -> tuple[ConnectionClaims, ...]:
    """The connections of `routes`: tracks `X/1`, `X/2` of one connection summed."""
    groups: dict[str, list[tuple[str, int]]] = {}
    for name, claimed in routes.items():
        groups.setdefault(name.split("/")[0], []).append((name, claimed))
    found = []
    for base, tracks in groups.items():
        if len(tracks) == 1:
            found.append(connection(tracks[0][0], tracks[0][1], games))
            continue
        # Tracks claimed independently of each other: the games by tracks claimed.
        first, second = (claimed / games for _, claimed in tracks[:2])
        none = round(games * (1 - first) * (1 - second))
        both = round(games * first * second)
        counts = (none, games - none - both, both)
        a, _, b = base.partition("-")
        mean = (counts[1] + 2 * counts[2]) / games
        found.append(
            ConnectionClaims(
                (a, b),
                tuple(name for name, _ in tracks),
                2,
                counts,
                games - none,
                (games - none) / games,
                interval(games - none, games),
                mean,
            )
        )
    return tuple(sorted(found, key=lambda c: c.between))
