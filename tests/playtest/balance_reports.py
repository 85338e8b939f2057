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
    Distribution,
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


def rate(wins: float, games: int) -> Rate:
    low, high = wilson_interval(wins, games)
    return Rate(games, wins, wins / games if games else 0.0, (round(low, 6), round(high, 6)))


def seat_rate(wins: float, games: int) -> SeatRate:
    r = rate(wins, games)
    return SeatRate(r.games, r.wins, r.rate, r.ci95, int(wins))


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
) -> BalanceReport:
    """A fair report: `wins_*` are wins (of `games`, or of a bot's seat-games);
    `routes` claims per route (default 40 routes claimed in half the games);
    `tickets` (ticket, value, held, completed) (default 12 tickets on the line
    completion = 1 − 0.05 × value); `stalls` (count, causes); `turns` and
    `score_by_seat` (count, mean, sd)."""
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
        TicketCompletion(name, value, held, done, done / held if held else None)
        for name, value, held, done in tickets
    )
    claims = tuple(
        RouteClaims(name, 2, "gray", claimed, claimed / games) for name, claimed in routes.items()
    )
    return BalanceReport(
        findings=(),
        settings=Settings(map_id, map_id.title(), games, players, tuple(bots), 0, ()),
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
                name: TicketRate(held, done, done / held)
                for name, (held, done) in tickets_by_bot.items()
            },
            by_ticket,
            tuple(t.ticket for t in by_ticket if not t.held),
        ),
        routes=claims,
        unclaimed_routes=tuple(r.route for r in claims if not r.claimed),
        cities={},
        turns=turns_distribution,
        wagons_left=distribution(games * players, 5.0, 3.0),
        end_reasons={"final round": games - stalls[0], "all passed": stalls[0]},
        stalls=Stalls(stalls[0], dict(stalls[1]), ()),
        arc=(),
    )
