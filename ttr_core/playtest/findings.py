"""Findings: what a balance report says a designer should look at, and why.

`findings(report, rules)` reads the numbers of a `BalanceReport` (`ttr_core.playtest.report`)
and returns its findings, most severe first. Each has a stable `code`, a
`severity` ("high", "medium", "low"), a one-line `title`, the `evidence` (numbers
with 95 % confidence intervals) and a `suggestion`. **No finding without
significance**: a rate is flagged only when its whole 95 % Wilson interval lies on
the wrong side of the threshold (widened by Bonferroni's correction when many seats,
routes or tickets are screened at once), so a short run says less, not something
false. The evidence's `ci95` is that (possibly widened) interval.

>>> from ttr_core.playtest.simulate import simulate
>>> from ttr_maps import load_map
>>> from ttr_maps.rules import BASE
>>> report = simulate(load_map("iran"), "iran", 4, 2, ["greedy", "random"], 1).report
>>> [f.code for f in findings(report, BASE)]
[]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ttr_core.playtest.report import (
    SEVERITIES,
    BalanceReport,
    BonusEvidence,
    Finding,
    Fit,
    GameLengthEvidence,
    RouteFlag,
    RoutesEvidence,
    StallEvidence,
    StyleEvidence,
    TicketCompletion,
    TicketOutlier,
    TicketOutliersEvidence,
    TurnOrderEvidence,
)
from ttr_core.playtest.stats import bonferroni_z, wilson_interval
from ttr_maps.rules import RuleSet

#: Routes claimed in fewer / more than these shares of games are flagged.
RARE_ROUTE = 0.05
COMMON_ROUTE = 0.95
#: A ticket is an outlier when its completion rate is this many standard errors
#: away from what the fit over all tickets predicts for its value.
TICKET_OUTLIER_Z = 3.0
#: Fewest times a ticket must be held before it can be an outlier.
MIN_HELD = 20
#: A seat's or a style's win rate this far from the fair share (in points) is "high".
HIGH_GAP = 0.05
#: A longest-path bonus is "concentrated" when one style takes more than this share.
BONUS_SHARE = 0.5
#: Turns per player in games of the published boards (North America, Europe) with
#: the four style bots (destination-hungry, greedy, long-route, route-focus),
#: 40 games at each of 2-5 players, seed 7: the 10th to 90th percentiles ranged
#: from 34.6 to 44.5 turns per player; a run whose whole interval of mean turns
#: per player lies outside this band is flagged.
PUBLISHED_TURNS_PER_PLAYER = (34.0, 45.0)

SEVERITY_ORDER = {severity: order for order, severity in enumerate(SEVERITIES)}


def findings(report: BalanceReport, rules: RuleSet) -> tuple[Finding, ...]:
    """Every significant finding of a report of games played with `rules`, most
    severe first."""
    found: list[Finding] = []
    for rule in (
        _seat_advantage,
        _stalls,
        _dominant_style,
        _routes,
        _tickets,
        _longest_path_bonus,
        _game_length,
    ):
        found.extend(rule(report, rules))
    return tuple(sorted(found, key=lambda f: SEVERITY_ORDER[f.severity]))


def _interval(successes: float, trials: int, tests: int = 1) -> tuple[float, float]:
    """The Wilson interval at 95 % for one test, widened (Bonferroni) when `tests`
    rates are screened at once, so that among many seats, routes or tickets the
    chance of one false finding stays near 5 %."""
    low, high = wilson_interval(successes, trials, bonferroni_z(tests))
    return (round(low, 4), round(high, 4))


def _pct(value: float) -> str:
    return f"{100 * value:.1f} %"


def _seat_advantage(report: BalanceReport, rules: RuleSet) -> Iterator[Finding]:
    """A place in the turn order (1 = the first player, chosen at random, R4) whose
    win-rate interval excludes the fair share (1 / players).

    Seat *numbers* are not judged: the first player is random, so a seat number means
    nothing on the board; its win rate only reflects which bots sit next to which in
    the rotation (with 4 bots at 3 seats, seat 1 always follows the bot listed before
    its own)."""
    fair = report.win_rate.fair_share
    if not fair:
        return
    places = report.win_rate.by_turn_order
    for place, rate in enumerate(places, start=1):
        low, high = _interval(rate.wins, rate.games, len(places))
        if low <= fair <= high:
            continue
        gap = rate.rate - fair
        more = "more" if gap > 0 else "less"
        yield Finding(
            "seat-advantage",
            "high" if abs(gap) >= HIGH_GAP else "medium",
            f"player {place} in turn order wins {_pct(rate.rate)} of games "
            f"({_pct(low)}–{_pct(high)}), {more} than the fair {_pct(fair)}",
            TurnOrderEvidence(place, rate.rate, (low, high), fair),
            "moving early pays: look for short, cheap routes that complete many "
            "tickets (the most claimed routes) and double or lengthen them"
            if gap > 0
            else "this place loses the contested routes: add parallel tracks on the "
            "busiest connections",
        )


#: What to do about stalls, by what ran out first (`playout.STALL_CAUSES`).
STALL_ADVICE = {
    "track": "add track (routes or double routes) or give fewer wagons "
    "(settings.wagons): `ttr validate` says how many (TTR451)",
    "cards": "players hold every train card: shorten the longest colored routes or "
    "color fewer spaces of the scarce colors (TTR254)",
    "tickets": "the ticket deck runs out: add tickets (TTR352)",
}


def _stalls(report: BalanceReport, rules: RuleSet) -> Iterator[Finding]:
    """Games that ended with everybody passing (R6), with what had run out."""
    count, games = report.stalls.count, report.games
    if not count or not games:
        return
    causes = report.stalls.causes
    low, high = _interval(count, games)
    named = ", ".join(f"{cause}: {n}" for cause, n in causes.items()) or "unknown"
    # Track running out is the root: cards and tickets then run out as players hoard.
    first = next((c for c in STALL_ADVICE if causes.get(c)), None)
    suggestion = STALL_ADVICE[first] if first else "replay one with the command in report.json"
    yield Finding(
        "stalls",
        "high" if count / games >= 0.05 else "medium",
        f"{count} of {games} games stalled (everybody passed, R6): ran out of {named}",
        StallEvidence(count, games, round(count / games, 4), (low, high), dict(causes)),
        suggestion,
    )


def _dominant_style(report: BalanceReport, rules: RuleSet) -> Iterator[Finding]:
    """A bot style whose win rate is significantly above the fair share."""
    fair = report.win_rate.fair_share
    by_bot = report.win_rate.by_bot
    if not fair or len(by_bot) < 2:
        return
    for name, rate in by_bot.items():
        low, high = _interval(rate.wins, rate.games, len(by_bot))
        if low > fair:
            yield Finding(
                "dominant-style",
                "high" if rate.rate - fair >= HIGH_GAP else "medium",
                f"{name} wins {_pct(rate.rate)} of its seats ({_pct(low)}–{_pct(high)}), "
                f"above the fair {_pct(fair)}",
                StyleEvidence(name, rate.rate, (low, high), fair),
                f"the map rewards the {name} style: compare its score parts with the others' "
                "(routes, tickets, longest path) and weaken what it lives on; a style that "
                "wins as often on the published boards is a stronger bot, not a map problem",
            )


class _Claims(NamedTuple):
    route: str
    claimed: int
    rate: float


def _claimable_routes(report: BalanceReport, rules: RuleSet) -> list[_Claims]:
    """The report's routes; where one track of a double closes the other (R11: with
    fewer players than the rules' `double_routes_from`) the tracks count as one
    route, claimed when either track is, so a closed second track is not "never
    claimed"."""
    if not rules.is_single_track(report.settings.players):
        return [_Claims(r.route, r.claimed, r.rate) for r in report.routes]
    merged: dict[str, int] = {}
    for route in report.routes:
        name = route.route.split("/")[0]
        merged[name] = merged.get(name, 0) + route.claimed
    games = max(report.games, 1)
    return [_Claims(name, claimed, round(claimed / games, 6)) for name, claimed in merged.items()]


def _routes(report: BalanceReport, rules: RuleSet) -> Iterator[Finding]:
    """Routes claimed in almost no game, and in almost every game."""
    games = report.games
    if not games:
        return
    rare: list[RouteFlag] = []
    common: list[RouteFlag] = []
    routes = _claimable_routes(report, rules)
    for route in routes:
        low, high = _interval(route.claimed, games, len(routes))
        if high < RARE_ROUTE:
            rare.append(RouteFlag(route.route, route.rate, (low, high)))
        elif low > COMMON_ROUTE:
            common.append(RouteFlag(route.route, route.rate, (low, high)))
    if rare:
        yield Finding(
            "rarely-claimed-routes",
            "medium",
            f"{len(rare)} routes are claimed in fewer than {_pct(RARE_ROUTE)} of games: "
            + ", ".join(r.route for r in rare[:8])
            + (" …" if len(rare) > 8 else ""),
            RoutesEvidence(tuple(rare)),
            "nobody needs them: put them on a ticket's path, shorten them, or remove them",
        )
    if common:
        yield Finding(
            "always-claimed-routes",
            "low",
            f"{len(common)} routes are claimed in more than {_pct(COMMON_ROUTE)} of games: "
            + ", ".join(r.route for r in common[:8])
            + (" …" if len(common) > 8 else ""),
            RoutesEvidence(tuple(common)),
            "everybody needs them: a parallel track or an alternative way would open the "
            "map (unless the whole board fills up: see stalls)",
        )


def fit_completion(tickets: Sequence[TicketCompletion]) -> Fit | None:
    """Least-squares line of completion rate against value, weighted by times held,
    or None with fewer than 3 held tickets or one value only.

    >>> fit_completion([TicketCompletion("A–B", 4, 10, 9, 0.9),
    ...                 TicketCompletion("B–C", 8, 10, 7, 0.7),
    ...                 TicketCompletion("C–D", 12, 10, 5, 0.5)])
    Fit(intercept=1.1, slope=-0.05)
    """
    held = [t for t in tickets if t.held]
    weight = sum(t.held for t in held)
    if len(held) < 3 or not weight:
        return None
    mean_x = sum(t.held * t.value for t in held) / weight
    mean_y = sum(t.completed for t in held) / weight
    sxx = sum(t.held * (t.value - mean_x) ** 2 for t in held)
    if sxx == 0:
        return None
    sxy = sum(t.held * (t.value - mean_x) * (t.completed / t.held - mean_y) for t in held)
    slope = sxy / sxx
    return Fit(round(mean_y - slope * mean_x, 6), round(slope, 6))


def _tickets(report: BalanceReport, rules: RuleSet) -> Iterator[Finding]:
    """Tickets completed far more or far less often than their value predicts."""
    tickets = report.tickets.by_ticket
    fit = fit_completion(tickets)
    if fit is None:
        return
    outliers = []
    for t in tickets:
        if t.held < MIN_HELD:
            continue
        expected = min(max(fit.intercept + fit.slope * t.value, 0.01), 0.99)
        error = math.sqrt(expected * (1 - expected) / t.held)
        z = (t.completed / t.held - expected) / error
        if abs(z) >= max(TICKET_OUTLIER_Z, bonferroni_z(len(tickets))):
            outliers.append(
                TicketOutlier(
                    ticket=t.ticket,
                    value=t.value,
                    held=t.held,
                    rate=round(t.completed / t.held, 4),
                    expected=round(expected, 4),
                    ci95=_interval(t.completed, t.held, len(tickets)),
                    z=round(z, 2),
                )
            )
    if not outliers:
        return
    outliers.sort(key=lambda o: -abs(o.z))
    named = ", ".join(
        f"{o.ticket} ({o.value}): {_pct(o.rate)} vs {_pct(o.expected)}" for o in outliers[:5]
    )
    yield Finding(
        "ticket-outliers",
        "medium",
        f"{len(outliers)} tickets are completed far from what their value predicts: {named}",
        TicketOutliersEvidence(fit, tuple(outliers)),
        "a ticket completed much less often than its value predicts is harder than its "
        "distance says (contested or fragile path, see TTR353): give it a bonus (D7) or "
        "open its path; one completed much more often is cheap for its value",
    )


def _longest_path_bonus(report: BalanceReport, rules: RuleSet) -> Iterator[Finding]:
    """One style taking most longest-path bonuses (R16), beyond its share of seats."""
    bonus = report.longest_path_bonus.by_bot
    by_bot = report.win_rate.by_bot
    total = sum(bonus.values())
    if len(bonus) < 2 or not total:
        return
    seat_games = sum(by_bot[n].games for n in bonus if n in by_bot)
    if not seat_games:
        return
    for name, count in bonus.items():
        share = count / total
        expected = (by_bot[name].games if name in by_bot else 0) / seat_games
        low, high = _interval(count, total, len(bonus))
        if share > BONUS_SHARE and low > expected:
            yield Finding(
                "longest-path-concentrated",
                "medium",
                f"{name} takes {_pct(share)} of the longest-path bonuses ({_pct(low)}–"
                f"{_pct(high)}) while holding {_pct(expected)} of the seats",
                BonusEvidence(name, count, total, round(share, 4), (low, high), round(expected, 4)),
                "the 10 points (R16) go to one way of playing: more branching or shorter "
                "routes in the open stretches make long paths contested",
            )


def _game_length(report: BalanceReport, rules: RuleSet) -> Iterator[Finding]:
    """Games much shorter or longer (turns per player) than on the published boards."""
    turns = report.turns
    players = report.settings.players
    if turns.count < 2 or not players or turns.mean is None or turns.sd is None:
        return
    mean, sd, n = turns.mean, turns.sd, turns.count
    half = 1.96 * sd / math.sqrt(n)
    per_player = (round((mean - half) / players, 2), round((mean + half) / players, 2))
    low, high = PUBLISHED_TURNS_PER_PLAYER
    if per_player[1] < low:
        side, advice = "shorter", "add track or wagons, or longer tickets"
    elif per_player[0] > high:
        side, advice = "longer", "fewer wagons (settings.wagons) or more long routes"
    else:
        return
    yield Finding(
        "game-length",
        "medium",
        f"games last {mean / players:.1f} turns per player ({per_player[0]}–{per_player[1]}), "
        f"{side} than on the published boards ({low:.0f}–{high:.0f})",
        GameLengthEvidence(round(mean / players, 2), per_player, PUBLISHED_TURNS_PER_PLAYER),
        advice,
    )


def summary_lines(found: Sequence[Finding]) -> list[str]:
    """The findings as terminal lines: severity, title, then the suggestion."""
    if not found:
        return ["findings: none significant"]
    from ttr_maps.text import for_terminal

    lines = [f"findings ({len(found)}):"]
    for f in found:  # titles name cities: text from the map, shown as text
        lines.append(f"  [{f.severity}] {for_terminal(f.title)}")
        lines.append(f"      try: {for_terminal(f.suggestion)}")
    return lines
