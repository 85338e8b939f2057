"""Findings: what a balance report says a designer should look at, and why.

`screen(report, rules)` reads the numbers of a `BalanceReport`
(`ttr_core.playtest.report`) and returns its findings, most severe first, and how
they were tested (`Screening`); `findings(report, rules)` returns the findings
alone. Each finding has a stable `code`, a `severity` ("high", "medium", "low"), a
one-line `title`, the `evidence` (numbers with their 95 % intervals, the same
intervals as the report's tables) and a `suggestion`. How a finding is decided:

1. **A reference.** Every number a rule looks at (each place in the turn order,
   bot, route, ticket, …) is set against the published boards (North America and
   Europe) played by the same bots at the same table size, the report's `baseline`
   (`ttr_core.playtest.baseline`), as the range the two boards span; without a
   baseline, against the fair value (the fair share of wins, no stall, the share
   of seats).
2. **A minimum effect.** A number is a finding only when it departs from its
   reference by more than the rule's minimum effect, a departure a designer would
   act on (`SEAT_MIN_EFFECT`, …): the test is one-sided against that margin
   (`stats.excess_p`), with the baseline's own uncertainty added.
3. **Controlled together.** The tests of all rules (every number looked at, not
   only the flagged ones) go through one Holm correction at 5 %: the chance that a
   report holds any false finding stays at 5 % however many routes, tickets and
   seats it has.
4. **Severity from the interval**, not from the point estimate: "high" only when
   the whole 95 % interval lies beyond the rule's high threshold.

>>> from ttr_core.playtest.simulate import simulate
>>> from ttr_maps import load_map
>>> from ttr_maps.rules import BASE
>>> report = simulate(load_map("iran"), "iran", 4, 2, ["greedy", "random"], 1).report
>>> [f.code for f in findings(report, BASE)]
[]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ttr_core.playtest.report import (
    SEVERITIES,
    BalanceReport,
    Baseline,
    BonusEvidence,
    Estimate,
    Finding,
    Fit,
    GameLengthEvidence,
    RouteFlag,
    RoutesEvidence,
    Screening,
    StallEvidence,
    StyleEvidence,
    TicketCompletion,
    TicketOutlier,
    TicketOutliersEvidence,
    TurnOrderEvidence,
)
from ttr_core.playtest.stats import ALPHA, Z95, excess_p, holm, rate_interval
from ttr_maps.rules import RuleSet

#: A place in the turn order whose win rate departs from the published boards'
#: by more than this (points of win rate) is a finding; "high" beyond HIGH.
SEAT_MIN_EFFECT = 0.03
SEAT_HIGH = 0.06
#: A bot style winning this much more often than on the published boards.
STYLE_MIN_EFFECT = 0.05
STYLE_HIGH = 0.10
#: Stalled games (R6) beyond the published boards' share by this much; "high"
#: when the whole interval is above STALL_HIGH.
STALL_MIN_EFFECT = 0.01
STALL_HIGH = 0.05
#: Routes claimed in fewer / more than these shares of games (exact binomial test).
RARE_ROUTE = 0.05
COMMON_ROUTE = 0.95
#: Rarely claimed routes are "medium" when they hold this much more of the map's
#: track than on the published boards (without a baseline: more than
#: RARE_TRACK_UNANCHORED of it); otherwise "low": the published boards have some.
RARE_TRACK_MARGIN = 0.05
RARE_TRACK_UNANCHORED = 0.10
#: A ticket completed this much more or less often than the fit over all tickets
#: predicts for its value (or than the published boards' farthest ticket, if
#: farther) is an outlier; "high" beyond TICKET_HIGH.
TICKET_MIN_EFFECT = 0.10
TICKET_HIGH = 0.20
#: Fewest times a ticket must be held before it is judged.
MIN_HELD = 20
#: A style's share of the longest-path bonuses (R16) this much above the published
#: boards' (or its share of the seats).
BONUS_MIN_EFFECT = 0.10
#: Turns per player this far from the published boards' (turns per player).
LENGTH_MIN_EFFECT = 3.0
LENGTH_HIGH = 6.0
#: Without a baseline for the bots, game length is set against the published
#: boards with the four style bots (destination-hungry, greedy, long-route,
#: route-focus) at 2-5 players: 34.6 to 44.5 turns per player (10th-90th
#: percentiles of 40 games each, seed 7).
PUBLISHED_TURNS_PER_PLAYER = (34.0, 45.0)

SEVERITY_ORDER = {severity: order for order, severity in enumerate(SEVERITIES)}


# ------------------------------------------------------------------ machinery


@dataclass(frozen=True)
class Reference:
    """What a number is set against: the range the published boards span (each
    end with its standard error), or one fair value (no error)."""

    low: float
    high: float
    se_low: float = 0.0
    se_high: float = 0.0
    published: bool = False

    @classmethod
    def of(cls, estimates: Sequence[Estimate], fair: float) -> Reference:
        if not estimates:
            return cls(fair, fair)
        low = min(estimates, key=lambda e: e.value)
        high = max(estimates, key=lambda e: e.value)
        return cls(low.value, high.value, low.se, high.se, True)

    @property
    def span(self) -> tuple[float, float] | None:
        """The published range, for the evidence (None: a fair value)."""
        return (round(self.low, 4), round(self.high, 4)) if self.published else None


@dataclass(frozen=True)
class Test:
    """One number a rule looks at: the p-value of "no departure beyond the
    minimum effect", and what the rule needs to write its finding."""

    p_value: float
    item: object


@dataclass(frozen=True)
class Judged:
    """A rule's tests, and how it turns the significant ones (with their adjusted
    p-values) into findings."""

    tests: list[Test]
    conclude: Callable[[list[tuple[Test, float]]], Iterable[Finding]]


def _proportion_se(p: float, trials: float, design_effect: float = 1.0) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.sqrt(p * (1 - p) * design_effect / max(trials, 1e-9))


def _above(value: float, edge: float, edge_se: float, margin: float, se: float) -> float:
    """p of H0: value ≤ edge + margin (one-sided), the edge's error added."""
    return excess_p(value - edge, margin, math.hypot(se, edge_se))


def _rate_test(
    rate: float,
    trials: float,
    reference: Reference,
    margin: float,
    design_effect: float = 1.0,
    both_ways: bool = True,
) -> float:
    """A rate departing from a reference range by more than `margin`: one-sided
    above (and below, `both_ways`, doubled), the standard error taken at the
    boundary of the null hypothesis (a score test: right for rates near 0)."""
    up_boundary = min(reference.high + margin, 1.0)
    p_up = _above(
        rate,
        reference.high,
        reference.se_high,
        margin,
        _proportion_se(up_boundary, trials, design_effect),
    )
    if not both_ways:
        return p_up
    down_boundary = max(reference.low - margin, 0.0)
    p_down = _above(
        -rate,
        -reference.low,
        reference.se_low,
        margin,
        _proportion_se(down_boundary, trials, design_effect),
    )
    return min(1.0, 2 * min(p_up, p_down))


def _clears(low: float, high: float, reference: Reference, threshold: float) -> bool:
    """Whether a whole 95 % interval lies beyond the reference by `threshold`."""
    return low > reference.high + threshold or high < reference.low - threshold


def _pct(value: float) -> str:
    return f"{100 * value:.1f} %"


def _range_text(reference: Reference, show: Callable[[float], str] = _pct) -> str:
    if reference.low == reference.high:
        return show(reference.low)
    return f"{show(reference.low)}–{show(reference.high)}"


def _interval(low: float, high: float) -> tuple[float, float]:
    return (round(low, 4), round(high, 4))


class _Context:
    """The report, its baseline, and a phrase naming the baseline's bots."""

    def __init__(self, report: BalanceReport, rules: RuleSet):
        self.report = report
        self.rules = rules
        self.baseline: Baseline | None = report.baseline
        players = report.settings.players
        self.boards = (
            self.baseline.boards
            if self.baseline is not None and self.baseline.players == players
            else ()
        )

    def published(self, fair: float, pick: Callable[[object], Estimate | None]) -> Reference:
        estimates = [e for e in (pick(board) for board in self.boards) if e is not None]
        return Reference.of(estimates, fair)

    def while_published(self, reference: Reference, show: Callable[[float], str] = _pct) -> str:
        if not reference.published:
            return ""
        return f"; the published boards give {_range_text(reference, show)} with the same bots"


# ------------------------------------------------------------------- the rules


def _seat_advantage(ctx: _Context) -> Judged:
    """A place in the turn order (1 = the first player, chosen at random, R4) whose
    win rate departs from the published boards' (or the fair share) by more than
    SEAT_MIN_EFFECT.

    Seat *numbers* are not judged: the first player is random, so a seat number means
    nothing on the board; its win rate only reflects which bots sit next to which in
    the rotation."""
    report = ctx.report
    fair = report.win_rate.fair_share
    tests = []
    if fair:
        for place, rate in enumerate(report.win_rate.by_turn_order, start=1):
            reference = ctx.published(
                fair,
                lambda b, i=place - 1: b.turn_order[i] if i < len(b.turn_order) else None,
            )
            p = _rate_test(rate.rate, rate.games, reference, SEAT_MIN_EFFECT, rate.design_effect)
            tests.append(Test(p, (place, rate, reference)))

    def conclude(passed: list[tuple[Test, float]]) -> Iterator[Finding]:
        for test, adjusted in passed:
            place, rate, reference = test.item
            low, high = rate.ci95
            more = rate.rate > reference.high
            yield Finding(
                "seat-advantage",
                "high" if _clears(low, high, reference, SEAT_HIGH) else "medium",
                f"player {place} in turn order wins {_pct(rate.rate)} of games (95 % interval "
                f"{_pct(low)}–{_pct(high)}), {'more' if more else 'less'} than "
                + (
                    f"the published boards' {_range_text(reference)} with the same bots"
                    if reference.published
                    else f"the fair {_pct(fair)}"
                ),
                TurnOrderEvidence(
                    place,
                    rate.rate,
                    _interval(low, high),
                    fair,
                    reference.span,
                    SEAT_MIN_EFFECT,
                ),
                "moving early pays: look for short, cheap routes that complete many "
                "tickets (the most claimed routes) and double or lengthen them"
                if more
                else "this place loses the contested routes: add parallel tracks on the "
                "busiest connections",
                adjusted,
            )

    return Judged(tests, conclude)


#: What to do about stalls, by what ran out first (`playout.STALL_CAUSES`).
STALL_ADVICE = {
    "track": "add track (routes or double routes) or give fewer wagons "
    "(settings.wagons): `ttr validate` says how many (TTR451)",
    "cards": "players hold every train card: shorten the longest colored routes or "
    "color fewer spaces of the scarce colors (TTR254)",
    "tickets": "the ticket deck runs out: add tickets (TTR352)",
}


def _stalls(ctx: _Context) -> Judged:
    """Games that ended with everybody passing (R6), more often than on the
    published boards (or at all) by STALL_MIN_EFFECT, with what had run out."""
    report = ctx.report
    count, games = report.stalls.count, report.games
    tests = []
    if count and games:
        reference = ctx.published(0.0, lambda b: b.stalls)
        p = _rate_test(count / games, games, reference, STALL_MIN_EFFECT, both_ways=False)
        tests.append(Test(p, reference))

    def conclude(passed: list[tuple[Test, float]]) -> Iterator[Finding]:
        for test, adjusted in passed:
            reference = test.item
            causes = report.stalls.causes
            low, high = rate_interval(count / games, games)
            named = ", ".join(f"{cause}: {n}" for cause, n in causes.items()) or "unknown"
            # Track running out is the root: cards and tickets then run out as players hoard.
            first = next((c for c in STALL_ADVICE if causes.get(c)), None)
            suggestion = (
                STALL_ADVICE[first] if first else "replay one with the command in report.json"
            )
            yield Finding(
                "stalls",
                "high" if low > reference.high + STALL_HIGH else "medium",
                f"{count} of {games} games stalled (everybody passed, R6; 95 % interval "
                f"{_pct(low)}–{_pct(high)}): ran out of {named}" + ctx.while_published(reference),
                StallEvidence(
                    count,
                    games,
                    round(count / games, 4),
                    _interval(low, high),
                    dict(causes),
                    reference.span,
                    STALL_MIN_EFFECT,
                ),
                suggestion,
                adjusted,
            )

    return Judged(tests, conclude)


def _dominant_style(ctx: _Context) -> Judged:
    """A bot style winning more often than on the published boards with the same
    bots (or than the fair share) by STYLE_MIN_EFFECT."""
    report = ctx.report
    fair = report.win_rate.fair_share
    by_bot = report.win_rate.by_bot
    tests = []
    if fair and len(by_bot) >= 2:
        for name, rate in by_bot.items():
            reference = ctx.published(fair, lambda b, n=name: b.by_bot.get(n))
            p = _rate_test(
                rate.rate,
                rate.games,
                reference,
                STYLE_MIN_EFFECT,
                rate.design_effect,
                both_ways=False,
            )
            tests.append(Test(p, (name, rate, reference)))

    def conclude(passed: list[tuple[Test, float]]) -> Iterator[Finding]:
        for test, adjusted in passed:
            name, rate, reference = test.item
            low, high = rate.ci95
            yield Finding(
                "dominant-style",
                "high" if low > reference.high + STYLE_HIGH else "medium",
                f"{name} wins {_pct(rate.rate)} of its seats (95 % interval {_pct(low)}–"
                f"{_pct(high)}), above "
                + (
                    f"the published boards' {_range_text(reference)} for the same bots"
                    if reference.published
                    else f"the fair {_pct(fair)}"
                ),
                StyleEvidence(
                    name, rate.rate, _interval(low, high), fair, reference.span, STYLE_MIN_EFFECT
                ),
                f"the map rewards the {name} style: compare its score parts with the others' "
                "(routes, tickets, longest path) and weaken what it lives on",
                adjusted,
            )

    return Judged(tests, conclude)


@dataclass(frozen=True)
class _Claims:
    route: str
    claimed: int
    length: int


def claimable_routes(report: BalanceReport, rules: RuleSet) -> list[_Claims]:
    """What the route rules judge: every track when both tracks of a double may be
    claimed (R11: from the rules' `double_routes_from` players), else every
    connection (a double counts as claimed when either track is, so a closed
    second track is not "never claimed")."""
    if rules.is_single_track(report.settings.players):
        return [_Claims(c.routes[0].split("/")[0], c.claimed, c.length) for c in report.connections]
    return [_Claims(r.route, r.claimed, r.length) for r in report.routes]


def _binomial_tail(k: int, n: int, p: float, lower: bool) -> float:
    """P(X ≤ k) (lower) or P(X ≥ k) for X ~ Binomial(n, p): games are independent,
    so a claim rate is tested exactly."""
    from scipy.stats import binom

    return float(binom.cdf(k, n, p) if lower else binom.sf(k - 1, n, p))


def _routes(ctx: _Context) -> Judged:
    """Routes claimed in almost no game (rarely), and in almost every game."""
    report, games = ctx.report, ctx.report.games
    routes = claimable_routes(report, ctx.rules) if games else []
    tests = []
    for route in routes:
        tests.append(Test(_binomial_tail(route.claimed, games, RARE_ROUTE, True), ("rare", route)))
        common = _binomial_tail(route.claimed, games, COMMON_ROUTE, False)
        tests.append(Test(common, ("common", route)))
    track = sum(r.length for r in routes) or 1

    def flags(chosen: list[_Claims]) -> tuple[RouteFlag, ...]:
        return tuple(
            RouteFlag(
                r.route,
                round(r.claimed / games, 6),
                _interval(*rate_interval(r.claimed / games, games)),
            )
            for r in chosen
        )

    def conclude(passed: list[tuple[Test, float]]) -> Iterator[Finding]:
        for kind in ("rare", "common"):
            chosen = [(t.item[1], adjusted) for t, adjusted in passed if t.item[0] == kind]
            if not chosen:
                continue
            found = [route for route, _ in chosen]
            share = sum(r.length for r in found) / track
            shares = [
                b.rare_track_share if kind == "rare" else b.common_track_share for b in ctx.boards
            ]
            published = (round(min(shares), 4), round(max(shares), 4)) if shares else None
            names = ", ".join(r.route for r in found[:8]) + (" …" if len(found) > 8 else "")
            against = (
                f"; the published boards: {_pct(published[0])}–{_pct(published[1])}"
                if published
                else ""
            )
            if kind == "rare":
                beyond = (
                    share > published[1] + RARE_TRACK_MARGIN
                    if published
                    else share > RARE_TRACK_UNANCHORED
                )
                yield Finding(
                    "rarely-claimed-routes",
                    "medium" if beyond else "low",
                    f"{len(found)} routes ({_pct(share)} of the track{against}) are claimed "
                    f"in fewer than {_pct(RARE_ROUTE)} of games: {names}",
                    RoutesEvidence(flags(found), round(share, 4), published),
                    "nobody needs them: put them on a ticket's path, shorten them, or remove "
                    "them (the published boards have a few such routes too)",
                    min(adjusted for _, adjusted in chosen),
                )
            else:
                yield Finding(
                    "always-claimed-routes",
                    "low",
                    f"{len(found)} routes ({_pct(share)} of the track{against}) are claimed "
                    f"in more than {_pct(COMMON_ROUTE)} of games: {names}",
                    RoutesEvidence(flags(found), round(share, 4), published),
                    "everybody needs them: a parallel track or an alternative way would open "
                    "the map (unless the whole board fills up: see stalls)",
                    min(adjusted for _, adjusted in chosen),
                )

    return Judged(tests, conclude)


def fit_completion(tickets: Sequence[TicketCompletion]) -> Fit | None:
    """Least-squares line of completion rate against value, weighted by times held,
    or None with fewer than 3 held tickets or one value only.

    >>> fit_completion([TicketCompletion("A–B", 4, False, 0, 12, 10, 9, 0.9, (0.6, 1.0), 1.0),
    ...                 TicketCompletion("B–C", 8, False, 0, 12, 10, 7, 0.7, (0.4, 0.9), 1.0),
    ...                 TicketCompletion("C–D", 12, False, 0, 12, 10, 5, 0.5, (0.2, 0.8), 1.0)])
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


def expected_completion(fit: Fit, value: int) -> float:
    """What the fit predicts for a ticket of `value`, kept within 1 %–99 %."""
    return min(max(fit.intercept + fit.slope * value, 0.01), 0.99)


def ticket_departures(tickets: Sequence[TicketCompletion]) -> list[tuple[TicketCompletion, float]]:
    """Each ticket held at least MIN_HELD times, with its completion rate minus
    what the fit predicts for its value."""
    fit = fit_completion(tickets)
    if fit is None:
        return []
    return [
        (t, t.completed / t.held - expected_completion(fit, t.value))
        for t in tickets
        if t.held >= MIN_HELD
    ]


def _tickets(ctx: _Context) -> Judged:
    """Tickets completed far more or far less often than their value predicts: by
    more than TICKET_MIN_EFFECT, or than the published boards' farthest ticket."""
    tickets = ctx.report.tickets.by_ticket
    fit = fit_completion(tickets)
    departures = [b.ticket_departure for b in ctx.boards]
    margin = max([TICKET_MIN_EFFECT, *departures])
    tests = []
    if fit is not None:
        for t, _ in ticket_departures(tickets):
            expected = expected_completion(fit, t.value)
            around = Reference(expected, expected)
            p = _rate_test(t.completed / t.held, t.held, around, margin, t.design_effect)
            tests.append(Test(p, (t, expected)))

    def conclude(passed: list[tuple[Test, float]]) -> Iterator[Finding]:
        if not passed or fit is None:
            return
        outliers = []
        high = False
        for test, _ in passed:
            t, expected = test.item
            low, up = t.ci95
            high = high or _clears(low, up, Reference(expected, expected), TICKET_HIGH)
            outliers.append(
                TicketOutlier(
                    t.ticket,
                    t.value,
                    t.held,
                    round(t.completed / t.held, 4),
                    round(expected, 4),
                    _interval(low, up),
                    round(t.completed / t.held - expected, 4),
                )
            )
        outliers.sort(key=lambda o: -abs(o.departure))
        named = ", ".join(
            f"{o.ticket} ({o.value}): {_pct(o.rate)} (95 % interval {_pct(o.ci95[0])}–"
            f"{_pct(o.ci95[1])}) vs {_pct(o.expected)}"
            for o in outliers[:3]
        )
        published = (round(min(departures), 4), round(max(departures), 4)) if departures else None
        against = (
            f"; no published ticket is more than {100 * published[1]:.0f} points off"
            if published
            else ""
        )
        yield Finding(
            "ticket-outliers",
            "high" if high else "medium",
            f"{len(outliers)} tickets are completed more than {100 * margin:.0f} points from "
            f"what their value predicts{against}: {named}",
            TicketOutliersEvidence(fit, tuple(outliers), margin, published),
            "a ticket completed much less often than its value predicts is harder than its "
            "distance says (contested or fragile path, see TTR353): give it a bonus (D7) or "
            "open its path; one completed much more often is cheap for its value",
            min(adjusted for _, adjusted in passed),
        )

    return Judged(tests, conclude)


def _longest_path_bonus(ctx: _Context) -> Judged:
    """One style taking more of the longest-path bonuses (R16) than on the
    published boards (or than its share of the seats) by BONUS_MIN_EFFECT."""
    report = ctx.report
    bonus = report.longest_path_bonus.by_bot
    by_bot = report.win_rate.by_bot
    total = sum(bonus.values())
    seat_games = sum(by_bot[n].games for n in bonus if n in by_bot)
    tests = []
    if len(bonus) >= 2 and total and seat_games:
        for name, count in bonus.items():
            seat_share = (by_bot[name].games if name in by_bot else 0) / seat_games
            reference = ctx.published(seat_share, lambda b, n=name: b.bonus_share.get(n))
            p = _rate_test(count / total, total, reference, BONUS_MIN_EFFECT, both_ways=False)
            tests.append(Test(p, (name, count, seat_share, reference)))

    def conclude(passed: list[tuple[Test, float]]) -> Iterator[Finding]:
        for test, adjusted in passed:
            name, count, seat_share, reference = test.item
            share = count / total
            low, high = rate_interval(share, total)
            yield Finding(
                "longest-path-concentrated",
                "medium",
                f"{name} takes {_pct(share)} of the longest-path bonuses (95 % interval "
                f"{_pct(low)}–{_pct(high)}) while holding {_pct(seat_share)} of the seats"
                + ctx.while_published(reference),
                BonusEvidence(
                    name,
                    count,
                    total,
                    round(share, 4),
                    _interval(low, high),
                    round(seat_share, 4),
                    reference.span,
                    BONUS_MIN_EFFECT,
                ),
                "the 10 points (R16) go to one way of playing: more branching or shorter "
                "routes in the open stretches make long paths contested",
                adjusted,
            )

    return Judged(tests, conclude)


def _game_length(ctx: _Context) -> Judged:
    """Games longer or shorter (turns per player) than on the published boards by
    more than LENGTH_MIN_EFFECT."""
    turns = ctx.report.turns
    players = ctx.report.settings.players
    tests = []
    if turns.count >= 2 and players and turns.mean is not None and turns.sd is not None:
        value = turns.mean / players
        se = turns.sd / math.sqrt(turns.count) / players
        reference = ctx.published(0.0, lambda b: b.turns_per_player)
        if not reference.published:
            reference = Reference(*PUBLISHED_TURNS_PER_PLAYER)
        p_up = _above(value, reference.high, reference.se_high, LENGTH_MIN_EFFECT, se)
        p_down = _above(-value, -reference.low, reference.se_low, LENGTH_MIN_EFFECT, se)
        tests.append(Test(min(1.0, 2 * min(p_up, p_down)), (value, se, reference)))

    def conclude(passed: list[tuple[Test, float]]) -> Iterator[Finding]:
        for test, adjusted in passed:
            value, se, reference = test.item
            low, high = value - Z95 * se, value + Z95 * se
            longer = value > reference.high
            source = (
                "the published boards with the same bots"
                if reference.published
                else "the published boards with the four style bots"
            )
            yield Finding(
                "game-length",
                "high" if _clears(low, high, reference, LENGTH_HIGH) else "medium",
                f"games last {value:.1f} turns per player (95 % interval {low:.1f}–{high:.1f}), "
                f"{'longer' if longer else 'shorter'} than on {source} "
                f"({_range_text(reference, lambda v: f'{v:.1f}')})",
                GameLengthEvidence(
                    round(value, 2),
                    (round(low, 2), round(high, 2)),
                    (round(reference.low, 2), round(reference.high, 2)),
                    LENGTH_MIN_EFFECT,
                ),
                "fewer wagons (settings.wagons) or more long routes"
                if longer
                else "add track or wagons, or longer tickets",
                adjusted,
            )

    return Judged(tests, conclude)


#: Every rule, in the order its findings are listed at equal severity.
RULES = (
    _seat_advantage,
    _stalls,
    _dominant_style,
    _routes,
    _tickets,
    _longest_path_bonus,
    _game_length,
)


def baseline_text(report: BalanceReport) -> str:
    """What the findings were set against, in words."""
    baseline = report.baseline
    settings = report.settings
    bots = ",".join(settings.bots)
    if baseline is None or baseline.players != settings.players:
        return (
            f"none: no published-board baseline for {bots} at {settings.players} players; "
            "findings set against fair shares (`ttr simulate --baseline compute` plays one)"
        )
    boards = " and ".join(
        f"{b.map.replace('_', ' ').title()} ({b.games} games)" for b in baseline.boards
    )
    return f"{boards}, {','.join(baseline.bots)} at {baseline.players} players ({baseline.source})"


def screen(report: BalanceReport, rules: RuleSet) -> tuple[tuple[Finding, ...], Screening]:
    """Every finding of a report of games played with `rules`, most severe first,
    and how they were tested: all tests of all rules under one Holm correction."""
    ctx = _Context(report, rules)
    judged = [rule(ctx) for rule in RULES]
    p_values = [test.p_value for j in judged for test in j.tests]
    adjusted = iter(holm(p_values))
    found: list[Finding] = []
    for j in judged:
        passed = []
        for test in j.tests:
            p = next(adjusted)
            if p < ALPHA:
                passed.append((test, round(p, 6)))
        if passed:
            found.extend(j.conclude(passed))
    screening = Screening(len(p_values), "holm", ALPHA, baseline_text(report))
    ordered = tuple(sorted(found, key=lambda f: SEVERITY_ORDER[f.severity]))
    return ordered, screening


def findings(report: BalanceReport, rules: RuleSet) -> tuple[Finding, ...]:
    """Every significant finding of a report of games played with `rules`, most
    severe first (`screen`)."""
    return screen(report, rules)[0]


def summary_lines(found: Sequence[Finding], screening: Screening | None = None) -> list[str]:
    """The findings as terminal lines: severity, title, then the suggestion; then
    how they were tested."""
    from ttr_maps.text import for_terminal

    how = []
    if screening is not None:
        how = [
            f"  ({screening.tests} numbers tested, Holm-corrected at {100 * screening.alpha:.0f} "
            f"% together; baseline: {for_terminal(screening.baseline)})"
        ]
    if not found:
        return ["findings: none significant", *how]
    lines = [f"findings ({len(found)}):"]
    for f in found:  # titles name cities: text from the map, shown as text
        lines.append(f"  [{f.severity}] {for_terminal(f.title)}")
        lines.append(f"      try: {for_terminal(f.suggestion)}")
    return lines + how
