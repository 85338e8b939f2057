"""Findings: what a balance report says a designer should look at, and why.

`screen(report, rules, halves)` reads the numbers of a `BalanceReport`
(`ttr_core.playtest.report`) and returns its findings, most severe first, the
numbers that look like findings but are not decided, and how they were tested
(`Screening`). Each finding has a stable `code`, a `severity`, a one-line `title`,
the `evidence` (numbers with their 95 % intervals, the same intervals as the
report's tables) and a `suggestion`. How a finding is decided:

1. **A reference.** Every number a rule looks at (each place in the turn order,
   bot, route, ticket, …) is set against the published boards played by the same
   bots at the same table size, the report's `baseline`
   (`ttr_core.playtest.baseline`), as the range the boards span; with `--baseline
   off`, against the fair value (the fair share of wins, no stall, the share of
   seats), and the report says so.
2. **A minimum effect.** A number is a finding only when it departs from its
   reference by more than the rule's minimum effect, a departure a designer would
   act on (`SEAT_MIN_EFFECT`, …): each direction is its own one-sided test against
   that margin (`stats.excess_p`), with the baseline's own uncertainty added.
3. **Controlled together.** The tests of all rules (every number looked at, not
   only the flagged ones) go through one Holm correction at 5 %: the chance that a
   report holds any false finding stays at 5 % however many routes, tickets and
   seats it has.
4. **Replicated.** The games of a run are split in two halves (even and odd
   games: independent games, each half a run of its own); a significant test is a
   finding only when the same test in each half departs beyond the minimum effect
   at `REPLICATION_P`. A significant test one half does not show, and a test beyond
   its minimum effect before the correction (`UNDECIDED_P`), is *undecided*: the
   report lists it with about how many games would decide it (80 % power at the
   departure seen).
5. **Severity from the 99 % interval**, not from the point estimate: "high" only
   when the whole interval lies beyond the rule's high threshold, "medium" only
   when it lies short of it, else "medium or high". Two runs then give one finding
   two different decided severities only when their 99 % intervals are apart.
6. **What the run could see.** `Screening.detectable` says, per rule, the smallest
   departure this run would find 80 % of the time: "findings: none confirmed" comes
   with it, so that a quiet report of 100 games is not read as a clean bill.

>>> from ttr_core.playtest.plan import PlayedMap, RunPlan
>>> from ttr_core.playtest.simulate import simulate
>>> from ttr_maps import load_map
>>> from ttr_maps.rules import BASE
>>> played = PlayedMap(load_map("iran"), "iran")
>>> report = simulate(played, RunPlan(4, 2, ("greedy", "random"), 1)).report
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
    Detectable,
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
    Undecided,
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

#: Each half of the games must show a finding's test at this level (one-sided).
REPLICATION_P = 0.05
#: A test beyond its minimum effect at this level (one-sided, before the
#: correction: the departure seen is 0.84 standard errors or more beyond the
#: minimum effect) that is not a finding is listed as undecided. Loose on purpose:
#: a departure one run confirms is then rarely left unnamed by another run of the
#: same size (calibration_bench.py, section `stability`).
UNDECIDED_P = 0.2
#: Severities are decided on the 99 % interval.
Z_SEVERITY = 2.5758293035489004
#: The power of `Detectable` and of an undecided number's games needed.
POWER = 0.8
#: Games needed beyond this are reported as this many ("more than").
MOST_GAMES = 10_000_000


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
    """One direction of one number a rule looks at. `key` names it (the same in
    each half of the games), `p_value` is that of "no departure beyond the minimum
    effect this way" (one-sided), `excess` the departure seen beyond the minimum
    effect (positive: beyond it) with its standard error `se`; `subject` says in
    words what the number is and what it was; `item` is what the rule needs to
    write its finding."""

    key: str
    p_value: float
    excess: float
    se: float
    subject: str
    item: object


@dataclass(frozen=True)
class Passed:
    """A test that is a finding: its Holm-adjusted p-value and the one-sided
    p-values of the same test in each half of the games (None: not split)."""

    test: Test
    adjusted: float
    halves_p: tuple[float, float] | None


@dataclass(frozen=True)
class Typical:
    """What a rule's numbers are like in this run, for `Detectable`: the smallest
    departure the run finds is `margin + (z + z_power) × se`, shown × `scale` in `unit`."""

    what: str
    margin: float
    se: float
    unit: str = "points"
    scale: float = 100.0
    #: For rarely claimed routes (an exact binomial test): the run's games.
    rare_route_games: int = 0


@dataclass(frozen=True)
class Judged:
    """A rule's tests, how it turns those that are findings into findings, and what
    its numbers are like (for what the run could have seen)."""

    tests: list[Test]
    conclude: Callable[[list[Passed]], Iterable[Finding]]
    typical: Typical | None = None


def _proportion_se(p: float, trials: float, design_effect: float = 1.0) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.sqrt(p * (1 - p) * design_effect / max(trials, 1e-9))


def _one_way(
    value: float, edge: float, edge_se: float, margin: float, se: float, up: bool
) -> tuple[float, float, float]:
    """p of H0 "value departs from `edge` by at most `margin`, upward (`up`) or
    downward", the excess seen beyond the margin and its standard error (the edge's
    error added)."""
    departure = value - edge if up else edge - value
    total_se = math.hypot(se, edge_se)
    return excess_p(departure, margin, total_se), departure - margin, total_se


def _rate_tests(
    key: str,
    subject: str,
    item: object,
    rate: float,
    trials: float,
    reference: Reference,
    margin: float,
    design_effect: float = 1.0,
    both_ways: bool = True,
) -> list[Test]:
    """A rate departing from a reference range by more than `margin`: one test
    upward (and one downward, `both_ways`), the standard error taken at the
    boundary of the null hypothesis (a score test: right for rates near 0)."""
    up_se = _proportion_se(min(reference.high + margin, 1.0), trials, design_effect)
    p, excess, se = _one_way(rate, reference.high, reference.se_high, margin, up_se, True)
    tests = [Test(f"{key} up", p, excess, se, subject, (item, True))]
    if both_ways:
        down_se = _proportion_se(max(reference.low - margin, 0.0), trials, design_effect)
        p, excess, se = _one_way(rate, reference.low, reference.se_low, margin, down_se, False)
        tests.append(Test(f"{key} down", p, excess, se, subject, (item, False)))
    return tests


def _graded(
    value: float,
    se: float,
    boundary: float,
    up: bool,
    levels: tuple[str, str, str] = ("high", "medium or high", "medium"),
) -> str:
    """The severity of a departure beyond `boundary` (the reference and the high
    threshold, upward or downward): the first level when the whole 99 % interval
    (`value` ± Z_SEVERITY × `se`) lies beyond it, the last when it lies short of
    it, the middle one when the run cannot tell."""
    low, high = value - Z_SEVERITY * se, value + Z_SEVERITY * se
    beyond, short = (low > boundary, high <= boundary) if up else (high < boundary, low >= boundary)
    return levels[0] if beyond else levels[2] if short else levels[1]


def _pct(value: float) -> str:
    return f"{100 * value:.1f} %"


def _range_text(reference: Reference, show: Callable[[float], str] = _pct) -> str:
    if reference.low == reference.high:
        return show(reference.low)
    return f"{show(reference.low)}–{show(reference.high)}"


def _interval(low: float, high: float) -> tuple[float, float]:
    return (round(low, 4), round(high, 4))


def _worst_halves(passed: Sequence[Passed]) -> tuple[float, float] | None:
    """The largest half p-values of a finding made of several tests."""
    halves = [p.halves_p for p in passed if p.halves_p is not None]
    if not halves:
        return None
    return (max(h[0] for h in halves), max(h[1] for h in halves))


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

    def against(self, reference: Reference, fair: float, what: str) -> str:
        """`the published boards' 24.0–27.1 % with the same bots` or `the fair 25.0 %
        (no baseline: --baseline off)`."""
        if reference.published:
            return f"the published boards' {_range_text(reference)} {what}"
        return f"the fair {_pct(fair)} (no published-board baseline: --baseline off)"


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
    tests: list[Test] = []
    if fair:
        for place, rate in enumerate(report.win_rate.by_turn_order, start=1):
            reference = ctx.published(
                fair,
                lambda b, i=place - 1: b.turn_order[i] if i < len(b.turn_order) else None,
            )
            low, high = rate.ci95
            subject = (
                f"player {place} in turn order wins {_pct(rate.rate)} (95 % interval "
                f"{_pct(low)}–{_pct(high)}; {ctx.against(reference, fair, 'with the same bots')})"
            )
            tests += _rate_tests(
                f"seat-advantage {place}", subject, (place, rate, reference),
                rate.rate, rate.games, reference, SEAT_MIN_EFFECT, rate.design_effect,
            )  # fmt: skip

    def conclude(passed: list[Passed]) -> Iterator[Finding]:
        for found in passed:
            (place, rate, reference), more = found.test.item  # type: ignore[misc]
            low, high = rate.ci95
            edge = reference.high + SEAT_HIGH if more else reference.low - SEAT_HIGH
            yield Finding(
                "seat-advantage",
                _graded(rate.rate, found.test.se, edge, more),
                f"player {place} in turn order wins {_pct(rate.rate)} of games (95 % interval "
                f"{_pct(low)}–{_pct(high)}), {'more' if more else 'less'} than "
                + ctx.against(reference, fair, "with the same bots"),
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
                found.adjusted,
                found.halves_p,
            )

    typical = None
    if fair and report.games:
        typical = Typical(
            "a place in the turn order winning more (or less) often",
            SEAT_MIN_EFFECT,
            _proportion_se(fair, report.games),
            "points of win rate",
        )
    return Judged(tests, conclude, typical)


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
    tests: list[Test] = []
    reference = ctx.published(0.0, lambda b: b.stalls)
    if count and games:
        low, high = rate_interval(count / games, games)
        subject = (
            f"{count} of {games} games stalled ({_pct(count / games)}, 95 % interval "
            f"{_pct(low)}–{_pct(high)})"
        )
        tests += _rate_tests(
            "stalls", subject, reference, count / games, games, reference, STALL_MIN_EFFECT,
            both_ways=False,
        )  # fmt: skip

    def conclude(passed: list[Passed]) -> Iterator[Finding]:
        for found in passed:
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
                _graded(count / games, found.test.se, reference.high + STALL_HIGH, True),
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
                found.adjusted,
                found.halves_p,
            )

    typical = None
    if games:
        typical = Typical(
            "games stalled (everybody passing, R6)",
            STALL_MIN_EFFECT,
            _proportion_se(reference.high + STALL_MIN_EFFECT, games),
            "points of the games",
        )
    return Judged(tests, conclude, typical)


def _dominant_style(ctx: _Context) -> Judged:
    """A bot style winning more often than the same style on the published boards
    with the same bots (or than the fair share) by STYLE_MIN_EFFECT: a style's
    strength is the map's only when the published boards do not give it too."""
    report = ctx.report
    fair = report.win_rate.fair_share
    by_bot = report.win_rate.by_bot
    tests: list[Test] = []
    if fair and len(by_bot) >= 2:
        for name, rate in by_bot.items():
            reference = ctx.published(fair, lambda b, n=name: b.by_bot.get(n))
            low, high = rate.ci95
            subject = (
                f"{name} wins {_pct(rate.rate)} of its seats (95 % interval {_pct(low)}–"
                f"{_pct(high)}; {ctx.against(reference, fair, f'for {name} with the same bots')})"
            )
            tests += _rate_tests(
                f"dominant-style {name}", subject, (name, rate, reference),
                rate.rate, rate.games, reference, STYLE_MIN_EFFECT, rate.design_effect,
                both_ways=False,
            )  # fmt: skip

    def conclude(passed: list[Passed]) -> Iterator[Finding]:
        for found in passed:
            (name, rate, reference), _ = found.test.item  # type: ignore[misc]
            low, high = rate.ci95
            yield Finding(
                "dominant-style",
                _graded(rate.rate, found.test.se, reference.high + STYLE_HIGH, True),
                f"{name} wins {_pct(rate.rate)} of its seats (95 % interval {_pct(low)}–"
                f"{_pct(high)}), above "
                + ctx.against(reference, fair, f"for {name} with the same bots"),
                StyleEvidence(
                    name, rate.rate, _interval(low, high), fair, reference.span, STYLE_MIN_EFFECT
                ),
                f"this map rewards the {name} style more than the published boards do: compare "
                "its score parts with the others' (routes, tickets, longest path) and weaken "
                "what it lives on",
                found.adjusted,
                found.halves_p,
            )

    typical = None
    if fair and len(by_bot) >= 2:
        seats = min(rate.games for rate in by_bot.values())
        typical = Typical(
            "a bot style winning more often than on the published boards",
            STYLE_MIN_EFFECT,
            _proportion_se(fair, seats),
            "points of win rate",
        )
    return Judged(tests, conclude, typical)


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


def _route_share_severity(routes: Sequence[_Claims], games: int, track: int, edge: float) -> str:
    """Rarely claimed routes' severity from the share of the track they hold: of
    the routes whose 99 % interval lies below RARE_ROUTE (surely rare) and of those
    whose interval reaches below it (maybe rare): "medium" when even the surely rare
    hold more than `edge`, "low" when even the maybe rare do not, else "low or medium"."""
    from ttr_core.playtest.stats import wilson_interval

    surely = maybe = 0
    for route in routes:
        low, high = wilson_interval(route.claimed, games, Z_SEVERITY)
        surely += route.length if high < RARE_ROUTE else 0
        maybe += route.length if low < RARE_ROUTE else 0
    return (
        "medium" if surely / track > edge else "low" if maybe / track <= edge else "low or medium"
    )


def _routes(ctx: _Context) -> Judged:
    """Routes claimed in almost no game (rarely), and in almost every game."""
    report, games = ctx.report, ctx.report.games
    routes = claimable_routes(report, ctx.rules) if games else []
    tests: list[Test] = []
    for route in routes:
        rate = route.claimed / games
        subject = f"route {route.route} claimed in {route.claimed} of {games} games"
        se_rare, se_common = _proportion_se(RARE_ROUTE, games), _proportion_se(COMMON_ROUTE, games)
        rare = _binomial_tail(route.claimed, games, RARE_ROUTE, True)
        common = _binomial_tail(route.claimed, games, COMMON_ROUTE, False)
        tests.append(Test(f"rare {route.route}", rare, RARE_ROUTE - rate, se_rare, subject,
                          ("rare", route)))  # fmt: skip
        tests.append(Test(f"common {route.route}", common, rate - COMMON_ROUTE, se_common,
                          subject, ("common", route)))  # fmt: skip
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

    def conclude(passed: list[Passed]) -> Iterator[Finding]:
        for kind in ("rare", "common"):
            chosen = [p for p in passed if p.test.item[0] == kind]  # type: ignore[index]
            if not chosen:
                continue
            found = [p.test.item[1] for p in chosen]  # type: ignore[index]
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
            adjusted = min(p.adjusted for p in chosen)
            if kind == "rare":
                edge = published[1] + RARE_TRACK_MARGIN if published else RARE_TRACK_UNANCHORED
                yield Finding(
                    "rarely-claimed-routes",
                    _route_share_severity(routes, games, track, edge),
                    f"{len(found)} routes ({_pct(share)} of the track{against}) are claimed "
                    f"in fewer than {_pct(RARE_ROUTE)} of games: {names}",
                    RoutesEvidence(flags(found), round(share, 4), published),
                    "nobody needs them: put them on a ticket's path, shorten them, or remove "
                    "them (the published boards have a few such routes too)",
                    adjusted,
                    _worst_halves(chosen),
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
                    adjusted,
                    _worst_halves(chosen),
                )

    typical = None
    if games:
        typical = Typical(
            f"a route claimed in fewer than {_pct(RARE_ROUTE)} of games", RARE_ROUTE, 0.0,
            "% of games", rare_route_games=games,
        )  # fmt: skip
    return Judged(tests, conclude, typical)


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
    tests: list[Test] = []
    if fit is not None:
        number = {id(t): i for i, t in enumerate(tickets)}  # two tickets may join one pair
        for t, _ in ticket_departures(tickets):
            expected = expected_completion(fit, t.value)
            around = Reference(expected, expected)
            low, up = t.ci95
            subject = (
                f"ticket {t.ticket} ({t.value}) completed {_pct(t.completed / t.held)} of "
                f"{t.held} times held (95 % interval {_pct(low)}–{_pct(up)}), where its value "
                f"predicts {_pct(expected)}"
            )
            tests += _rate_tests(
                f"ticket {number[id(t)]} {t.ticket}", subject, (t, expected),
                t.completed / t.held, t.held,
                around, margin, t.design_effect,
            )  # fmt: skip

    def conclude(passed: list[Passed]) -> Iterator[Finding]:
        if not passed or fit is None:
            return
        outliers = []
        grades = []
        for found in passed:
            (t, expected), more = found.test.item  # type: ignore[misc]
            low, up = t.ci95
            rate = t.completed / t.held
            edge = expected + TICKET_HIGH if more else expected - TICKET_HIGH
            grades.append(_graded(rate, found.test.se, edge, more))
            outliers.append(
                TicketOutlier(
                    t.ticket,
                    t.value,
                    t.held,
                    round(rate, 4),
                    round(expected, 4),
                    _interval(low, up),
                    round(rate - expected, 4),
                )
            )
        outliers.sort(key=lambda o: (-abs(o.departure), o.ticket))
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
        # The most severe decided grade of the outliers; "medium or high" when none
        # is decided high and one may be.
        severity = min(grades, key=SEVERITY_ORDER.__getitem__)
        yield Finding(
            "ticket-outliers",
            severity,
            f"{len(outliers)} tickets are completed more than {100 * margin:.0f} points from "
            f"what their value predicts{against}: {named}",
            TicketOutliersEvidence(fit, tuple(outliers), margin, published),
            "a ticket completed much less often than its value predicts is harder than its "
            "distance says (contested or fragile path, see TTR353): give it a bonus (D7) or "
            "open its path; one completed much more often is cheap for its value",
            min(p.adjusted for p in passed),
            _worst_halves(passed),
        )

    typical = None
    held = sorted(t.held for t in tickets if t.held >= MIN_HELD)
    if fit is not None and held:
        typical = Typical(
            "a ticket completed more or less often than its value predicts (a ticket held "
            f"{held[len(held) // 2]} times)",
            margin,
            _proportion_se(0.5, held[len(held) // 2]),
            "points of completion",
        )
    return Judged(tests, conclude, typical)


def _longest_path_bonus(ctx: _Context) -> Judged:
    """One style taking more of the longest-path bonuses (R16) than on the
    published boards (or than its share of the seats) by BONUS_MIN_EFFECT."""
    report = ctx.report
    bonus = report.longest_path_bonus.by_bot
    by_bot = report.win_rate.by_bot
    total = sum(bonus.values())
    seat_games = sum(by_bot[n].games for n in bonus if n in by_bot)
    tests: list[Test] = []
    if len(bonus) >= 2 and total and seat_games:
        for name, count in bonus.items():
            seat_share = (by_bot[name].games if name in by_bot else 0) / seat_games
            reference = ctx.published(seat_share, lambda b, n=name: b.bonus_share.get(n))
            subject = (
                f"{name} takes {_pct(count / total)} of the {total} longest-path bonuses"
                + ctx.while_published(reference)
            )
            tests += _rate_tests(
                f"longest-path {name}", subject, (name, count, seat_share, reference),
                count / total, total, reference, BONUS_MIN_EFFECT, both_ways=False,
            )  # fmt: skip

    def conclude(passed: list[Passed]) -> Iterator[Finding]:
        for found in passed:
            (name, count, seat_share, reference), _ = found.test.item  # type: ignore[misc]
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
                found.adjusted,
                found.halves_p,
            )

    typical = None
    if len(bonus) >= 2 and total:
        typical = Typical(
            "a bot style taking more of the longest-path bonuses (R16)",
            BONUS_MIN_EFFECT,
            _proportion_se(1 / len(bonus), total),
            "points of the bonuses",
        )
    return Judged(tests, conclude, typical)


def _game_length(ctx: _Context) -> Judged:
    """Games longer or shorter (turns per player) than on the published boards by
    more than LENGTH_MIN_EFFECT."""
    turns = ctx.report.turns
    players = ctx.report.settings.players
    tests: list[Test] = []
    se = 0.0
    if turns.count >= 2 and players and turns.mean is not None and turns.sd is not None:
        value = turns.mean / players
        se = turns.sd / math.sqrt(turns.count) / players
        reference = ctx.published(0.0, lambda b: b.turns_per_player)
        if not reference.published:
            reference = Reference(*PUBLISHED_TURNS_PER_PLAYER)
        subject = (
            f"games last {value:.1f} turns per player (95 % interval {value - Z95 * se:.1f}–"
            f"{value + Z95 * se:.1f}; the published boards "
            f"{_range_text(reference, lambda v: f'{v:.1f}')})"
        )
        for up in (True, False):
            edge, edge_se = (
                (reference.high, reference.se_high) if up else (reference.low, reference.se_low)
            )
            p, excess, total_se = _one_way(value, edge, edge_se, LENGTH_MIN_EFFECT, se, up)
            key = f"game-length {'up' if up else 'down'}"
            tests.append(Test(key, p, excess, total_se, subject, ((value, se, reference), up)))

    def conclude(passed: list[Passed]) -> Iterator[Finding]:
        for found in passed:
            (value, se, reference), longer = found.test.item  # type: ignore[misc]
            low, high = value - Z95 * se, value + Z95 * se
            source = (
                "the published boards with the same bots"
                if reference.published
                else "the published boards with the four style bots"
            )
            edge = reference.high + LENGTH_HIGH if longer else reference.low - LENGTH_HIGH
            yield Finding(
                "game-length",
                _graded(value, found.test.se, edge, longer),
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
                found.adjusted,
                found.halves_p,
            )

    typical = None
    if se:
        typical = Typical(
            "games longer or shorter than on the published boards", LENGTH_MIN_EFFECT, se,
            "turns per player", 1.0,
        )  # fmt: skip
    return Judged(tests, conclude, typical)


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
            f"none: findings on {bots} at {settings.players} players set against fair shares "
            "(--baseline off), so a bot's own strength on any board may read as the map's"
        )
    boards = ", ".join(
        f"{b.map.replace('_', ' ').title()} ({b.games} games)" for b in baseline.boards
    )
    return f"{boards}, {','.join(baseline.bots)} at {baseline.players} players ({baseline.source})"


REPLICATION_TEXT = (
    "a finding passes the Holm correction and each half of the games (even and odd "
    f"games) at one-sided p < {REPLICATION_P:g}; undecided: beyond the minimum effect at "
    f"p < {UNDECIDED_P:g} before the correction, or significant but not in both halves"
)


@dataclass(frozen=True)
class Screened:
    """What `screen` finds: the findings (most severe first), the undecided numbers
    (most promising first) and how they were tested."""

    findings: tuple[Finding, ...]
    undecided: tuple[Undecided, ...]
    screening: Screening


def _z_for(p: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(1.0 - p)


def games_needed(test: Test, games: int, tests: int) -> int | None:
    """About how many games in all would confirm `test` (Holm's first step over
    `tests` tests, 80 % power) if its excess is what this run of `games` saw; None
    when the excess seen is not beyond the minimum effect (more games would rather
    show it is not a finding)."""
    if test.excess <= 0 or test.se <= 0 or not games:
        return None
    z = _z_for(ALPHA / max(tests, 1)) + _z_for(1 - POWER)
    needed = games * (z * test.se / test.excess) ** 2
    return min(MOST_GAMES, max(games + 1, math.ceil(needed / 100) * 100))


def _detectable(code: str, typical: Typical, tests: int) -> Detectable:
    if typical.rare_route_games:
        return _rare_route_detectable(code, typical, tests)
    z = _z_for(ALPHA / max(tests, 1)) + _z_for(1 - POWER)
    departure = round((typical.margin + z * typical.se) * typical.scale, 1)
    text = f"{typical.what}: by {departure:g} {typical.unit} or more"
    return Detectable(code, typical.what, departure, typical.unit, text)


def _rare_route_detectable(code: str, typical: Typical, tests: int) -> Detectable:
    """Rarely claimed routes are tested exactly: the run finds a route claimed at
    rate r when its claims fall, 80 % of the time, at or below the most claims the
    test still confirms (Holm's first step over `tests`)."""
    from scipy.stats import binom

    games = typical.rare_route_games
    level = ALPHA / max(tests, 1)
    most = -1  # the most claims a confirmed route may have
    while binom.cdf(most + 1, games, RARE_ROUTE) < level:
        most += 1
    if most < 0:
        needed = math.ceil(math.log(level) / math.log(1 - RARE_ROUTE))
        text = (
            f"{typical.what}: not at this size (a route never claimed is confirmed from "
            f"{needed} games)"
        )
        return Detectable(code, typical.what, None, typical.unit, text)
    low, high = 0.0, RARE_ROUTE
    for _ in range(40):  # the largest rate at which P(claims <= most) >= POWER
        middle = (low + high) / 2
        low, high = (middle, high) if binom.cdf(most, games, middle) >= POWER else (low, middle)
    departure = round(100 * low, 1)
    text = f"{typical.what}: if claimed in {departure:g} % of games or fewer"
    return Detectable(code, typical.what, departure, typical.unit, text)


def screen(
    report: BalanceReport,
    rules: RuleSet,
    halves: tuple[BalanceReport, BalanceReport] | None = None,
) -> Screened:
    """Every finding of a report of games played with `rules`, most severe first,
    the undecided numbers, and how they were tested: all tests of all rules under
    one Holm correction, each significant one checked in both `halves` of the games
    (reports of the even and of the odd games; without them a finding is not
    checked for replication)."""
    ctx = _Context(report, rules)
    judged = [(rule.__name__, rule(ctx)) for rule in RULES]
    tests = [test for _, j in judged for test in j.tests]
    adjusted = dict(zip((t.key for t in tests), holm([t.p_value for t in tests]), strict=True))
    in_halves = [
        {t.key: t.p_value for rule in RULES for t in rule(_Context(half, rules)).tests}
        for half in halves or ()
    ]
    found: list[Finding] = []
    undecided: list[tuple[Test, Undecided]] = []
    codes = dict(zip(RULES, CODES, strict=True))
    for (_, j), rule in zip(judged, RULES, strict=True):
        passed = []
        for test in j.tests:
            p = adjusted[test.key]
            halves_p = (
                (in_halves[0].get(test.key, 1.0), in_halves[1].get(test.key, 1.0))
                if in_halves
                else None
            )
            replicated = halves_p is None or max(halves_p) < REPLICATION_P
            if p < ALPHA and replicated:
                passed.append(Passed(test, round(p, 6), halves_p))
            elif p < ALPHA or (test.p_value < UNDECIDED_P and test.excess > 0):
                needed = games_needed(test, report.games, len(tests))
                undecided.append(
                    (
                        test,
                        Undecided(
                            codes[rule],
                            test.key,
                            test.subject,
                            round(test.p_value, 6),
                            None
                            if halves_p is None
                            else (round(halves_p[0], 6), round(halves_p[1], 6)),
                            needed,
                        ),
                    )
                )
        if passed:
            found.extend(j.conclude(passed))
    detectable = tuple(
        _detectable(codes[rule], j.typical, len(tests))
        for (_, j), rule in zip(judged, RULES, strict=True)
        if j.typical is not None
    )
    screening = Screening(
        len(tests), "holm", ALPHA, baseline_text(report), REPLICATION_TEXT, detectable
    )
    ordered = tuple(sorted(found, key=lambda f: SEVERITY_ORDER[f.severity]))
    undecided.sort(key=lambda item: (item[0].p_value, item[1].subject))
    return Screened(ordered, tuple(u for _, u in undecided), screening)


#: The finding code of each rule's undecided numbers.
CODES = (
    "seat-advantage",
    "stalls",
    "dominant-style",
    "routes",
    "ticket-outliers",
    "longest-path-concentrated",
    "game-length",
)


def findings(report: BalanceReport, rules: RuleSet) -> tuple[Finding, ...]:
    """Every finding of a report of games played with `rules`, most severe first
    (`screen`)."""
    return screen(report, rules).findings


#: Undecided numbers printed by `summary_lines` (the report holds them all).
UNDECIDED_SHOWN = 8


def summary_lines(report: BalanceReport) -> list[str]:
    """The findings as terminal lines: severity, title, then the suggestion; the
    undecided numbers with the games that would decide them; what the run could
    have seen; what hardly reaches play; then how it was all tested."""
    from ttr_core.playtest.reach import note_text
    from ttr_maps.text import for_terminal

    found, screening = report.findings, report.screening
    lines = []
    if found:
        lines.append(f"findings ({len(found)}, each in both halves of the games too):")
        for f in found:  # titles name cities: text from the map, shown as text
            lines.append(f"  [{f.severity}] {for_terminal(f.title)}")
            lines.append(f"      try: {for_terminal(f.suggestion)}")
    else:
        lines.append("findings: none confirmed")
    if report.undecided:
        lines.append(f"undecided ({len(report.undecided)}: more games would tell):")
        for item in report.undecided[:UNDECIDED_SHOWN]:
            lines.append(f"  {for_terminal(item.title)}: {needed_text(item)}")
        if len(report.undecided) > UNDECIDED_SHOWN:
            lines.append(f"  … and {len(report.undecided) - UNDECIDED_SHOWN} more in report.json")
    if screening.detectable:
        lines.append(f"this run of {report.games} games would find (80 % of the time):")
        for d in screening.detectable:
            lines.append(f"  {d.text}")
    for note in report.reach:
        lines.append(f"hardly in play: {for_terminal(note_text(note))}")
    lines.append(
        f"  ({screening.tests} numbers tested, Holm-corrected at {100 * screening.alpha:.0f} "
        f"% together; baseline: {for_terminal(screening.baseline)})"
    )
    return lines


def needed_text(item: Undecided) -> str:
    """What would decide an undecided number, in words."""
    if item.games_needed is None:
        return "within its minimum effect so far (more games would rather clear it)"
    if item.games_needed >= MOST_GAMES:
        return f"more than {MOST_GAMES:,} games would decide it"
    return f"about {item.games_needed:,} games in all would decide it"
