"""`ttr compare`: two balance reports side by side — how a designer checks that a
change helped.

A comparison opens with the **map diff** (cities, routes, tickets and rules added,
removed or changed, read from the two reports), then lists every compared number
(`Row`) with both values, each with its 95 % interval, and the difference with
its interval:

- win rate by place in the turn order, win rate and mean score by bot, stalled
  games, turns per game, ticket completion by bot and **per ticket** (tickets
  matched by their two cities), and **tracks claimed per game for every
  connection** (routes matched by their two cities, whatever their ids: a
  double's tracks are summed, and shown track by track where both maps have
  them).
- **Tests.** Rates whose trials cluster in games (tickets, a bot's seats) are
  tested with their variance clustered by game (design effects); when both runs
  were played here on common seeds (`compare_maps`: game i of A and of B share
  their seed, their bots and seats) every test is **paired** game by game, so
  what the two runs share cancels (`ttr_core.playtest.stats.PairedSums`).
- **One family.** The p-values of all rows go through Holm's correction: the
  chance that a comparison of two maps that play alike shows any significant
  difference is at most 5 % (`ALPHA`), however many rows it has.

`REPORTERS` turn the comparison into text, JSON or a page.

>>> from ttr_core.playtest.plan import PlayedMap, RunPlan
>>> from ttr_core.playtest.simulate import simulate
>>> from ttr_maps import load_map
>>> a = simulate(PlayedMap(load_map("iran"), "iran"), RunPlan(4, 2, ("greedy", "random"), 1)).report
>>> comparison = compare_reports(a, a)
>>> comparison.significant, comparison.diff
((), ())
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttr_core.playtest.executors import IN_THIS_PROCESS, Workers
from ttr_core.playtest.reach import connection_reach, ticket_reach
from ttr_core.playtest.report import (
    BalanceReport,
    ConnectionClaims,
    RouteClaims,
    Settings,
    TicketCompletion,
)
from ttr_core.playtest.stats import (
    ALPHA,
    Z95,
    PairedSums,
    holm,
    normal_p,
    proportions_p,
    rate_interval,
    welch_p,
)
from ttr_maps.reports.page import html_page
from ttr_maps.text import for_html, for_terminal

if TYPE_CHECKING:
    from ttr_core.playtest.plan import PlayedMap, RunPlan
    from ttr_core.playtest.playout import GameSummary
    from ttr_maps.model import Map

#: The settings that make seat and bot numbers not like for like when they differ.
LIKE_FOR_LIKE = ("players", "bots", "games")

#: The groups of rows, in the order they are listed.
GROUPS = (
    "win rate by place in turn order",
    "win rate by bot",
    "mean score by bot",
    "stalled games",
    "turns per game",
    "ticket completion by bot",
    "ticket completion by ticket",
    "tracks claimed per game",
)


def method_text(paired: bool, rows: int) -> str:
    """How the rows were tested, in words (printed with every comparison)."""
    how = (
        "paired game by game (both runs played here on common seeds)"
        if paired
        else "unpaired: rates with variance clustered by game (design effects), "
        "means by Welch's t test"
    )
    return (
        f"{rows} numbers compared, {how}; significant when the Holm-adjusted p-value "
        f"over all {rows} is below {ALPHA:g} (the chance of any false difference in "
        f"the comparison); values are rates or means with their 95 % intervals"
    )


@dataclass(frozen=True)
class Row:
    """One compared number: its value in A and in B with their 95 % intervals (None
    when a side has nothing to count), the difference B − A with its interval, the
    p-value of the difference, Holm-adjusted over all rows, and whether it is
    significant. `tracks`: for a connection with several tracks in both maps, the
    claim rate of each track in A and in B."""

    group: str
    what: str
    a: float | None
    a_ci95: tuple[float, float] | None
    b: float | None
    b_ci95: tuple[float, float] | None
    difference: float | None
    difference_ci95: tuple[float, float] | None
    p_value: float
    significant: bool
    tracks: tuple[tuple[float, ...], tuple[float, ...]] | None = None

    def to_dict(self) -> dict[str, Any]:
        tracks = (
            {}
            if self.tracks is None
            else {"tracks": {"a": list(self.tracks[0]), "b": list(self.tracks[1])}}
        )
        return {
            "group": self.group,
            "what": self.what,
            "a": self.a,
            "a_ci95": _list(self.a_ci95),
            "b": self.b,
            "b_ci95": _list(self.b_ci95),
            "difference": self.difference,
            "difference_ci95": _list(self.difference_ci95),
            "p_value": self.p_value,
            "significant": self.significant,
            **tracks,
        }


def _list(pair: tuple[float, float] | None) -> list[float] | None:
    return None if pair is None else list(pair)


@dataclass(frozen=True)
class Change:
    """One line of the map diff: `kind` is "added", "removed" or "changed", `what`
    "city", "route", "ticket" or "rule"; `a` and `b` describe it on each side;
    `reach` how much of the run it reached (`ttr_core.playtest.reach`: a ticket
    kept 4 % of the times offered hardly shows in any number)."""

    kind: str
    what: str
    name: str
    a: str | None
    b: str | None
    reach: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "what": self.what,
            "name": self.name,
            "a": self.a,
            "b": self.b,
            "reach": self.reach,
        }

    def __str__(self) -> str:
        reach = f"; {self.reach}" if self.reach else ""
        if self.kind == "changed":
            return f"{self.what} {self.name}: {self.a} → {self.b}{reach}"
        side = self.b if self.kind == "added" else self.a
        return f"{self.what} {self.kind}: {self.name}" + (f" ({side})" if side else "") + reach


@dataclass(frozen=True)
class Comparison:
    """Two runs compared: what each played, the column titles (from the file
    names), the map diff, the rows, and whether the tests are paired."""

    a: Settings
    b: Settings
    titles: tuple[str, str]
    diff: tuple[Change, ...]
    #: Of LIKE_FOR_LIKE, those that differ.
    settings_differ: tuple[str, ...]
    rows: tuple[Row, ...]
    paired: bool = False

    @property
    def significant(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.significant)

    @property
    def method(self) -> str:
        return method_text(self.paired, len(self.rows))

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "ttr-comparison",
            "version": 3,
            "titles": list(self.titles),
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "diff": [c.to_dict() for c in self.diff],
            "settings_differ": list(self.settings_differ),
            "paired": self.paired,
            "test": self.method,
            "significant": [r.to_dict() for r in self.significant],
            "rows": [r.to_dict() for r in self.rows],
        }


# ------------------------------------------------------------------ map diff


def _pair_key(cities: Iterable[str]) -> str:
    return "–".join(sorted(cities))


def _ticket_cities(name: str) -> tuple[str, str]:
    a, _, b = name.partition("–")
    return (a, b)


def _tracks_text(report: BalanceReport, connection: ConnectionClaims) -> str:
    """A connection's tracks as `2 blue + 2 red`, in an order of their own (the
    order the file lists a double's colours in is no change)."""
    by_id = {r.route: r for r in report.routes}
    return " + ".join(sorted(_track_text(by_id[r]) if r in by_id else r for r in connection.routes))


def _track_text(route: RouteClaims) -> str:
    text = f"{route.length} {route.color}"
    if route.tunnel:
        text += " tunnel"
    if route.ferry:
        text += f" ferry {route.ferry}"
    return text


def _matched_tracks(report: BalanceReport, connection: ConnectionClaims) -> tuple[str, ...]:
    """A connection's track ids, ordered by what each track is (length, colour,
    tunnel, ferry), so two maps' tracks pair up whatever their ids' numbers."""
    by_id = {r.route: r for r in report.routes}
    return tuple(
        sorted(connection.routes, key=lambda r: _track_text(by_id[r]) if r in by_id else r)
    )


def _ticket_text(ticket: TicketCompletion) -> str:
    """`12`, `12+3` (a bonus, D7), `20 long` (E4)."""
    price = f"{ticket.value}+{ticket.bonus}" if ticket.bonus else f"{ticket.value}"
    return price + (" long" if ticket.long else "")


def _reach(a: str | None, b: str | None) -> str:
    """The reach of a change on each side it exists on."""
    if a and b and a != b:
        return f"A: {a}; B: {b}"
    return a or b or ""


def map_diff(a: BalanceReport, b: BalanceReport) -> tuple[Change, ...]:
    """What B's map and rules change against A's: cities, routes (by connection:
    tracks, lengths, colours, tunnels, ferries' locomotives), tickets (by city pair:
    value, bonus, long) and rule fields (the map's settings among them), each with
    how much of the runs it reached."""
    changes: list[Change] = []
    cities_a, cities_b = set(a.cities), set(b.cities)
    changes += [Change("removed", "city", c, None, None) for c in sorted(cities_a - cities_b)]
    changes += [Change("added", "city", c, None, None) for c in sorted(cities_b - cities_a)]

    routes_a = {c.key: c for c in a.connections}
    routes_b = {c.key: c for c in b.connections}
    for key in sorted(routes_a.keys() | routes_b.keys()):
        one, other = routes_a.get(key), routes_b.get(key)
        text_a = _tracks_text(a, one) if one else None
        text_b = _tracks_text(b, other) if other else None
        reach = _reach(
            connection_reach(one.claimed, a.games) if one else None,
            connection_reach(other.claimed, b.games) if other else None,
        )
        if one is None:
            changes.append(Change("added", "route", key, None, text_b, reach))
        elif other is None:
            changes.append(Change("removed", "route", key, text_a, None, reach))
        elif text_a != text_b:
            changes.append(Change("changed", "route", key, text_a, text_b, reach))

    def tickets_of(report: BalanceReport) -> dict[str, TicketCompletion]:
        return {_pair_key(_ticket_cities(t.ticket)): t for t in report.tickets.by_ticket}

    tickets_a, tickets_b = tickets_of(a), tickets_of(b)
    for key in sorted(tickets_a.keys() | tickets_b.keys()):
        one, other = tickets_a.get(key), tickets_b.get(key)
        text_a = _ticket_text(one) if one else None
        text_b = _ticket_text(other) if other else None
        reach = _reach(
            ticket_reach(one, a.games) if one else None,
            ticket_reach(other, b.games) if other else None,
        )
        if one is None:
            changes.append(Change("added", "ticket", key, None, text_b, reach))
        elif other is None:
            changes.append(Change("removed", "ticket", key, text_a, None, reach))
        elif text_a != text_b:
            changes.append(Change("changed", "ticket", key, text_a, text_b, reach))

    rules_a, rules_b = a.settings.rules, b.settings.rules
    for name in rules_a:
        if name in rules_b and rules_a[name] != rules_b[name]:
            texts = _value(rules_a[name]), _value(rules_b[name])
            changes.append(Change("changed", "rule", name, *texts))
    return tuple(changes)


def _value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


# ---------------------------------------------------------------------- rows


@dataclass(frozen=True)
class _Side:
    """One side of a row: the value, its interval, and what the unpaired test needs
    (for a rate: successes, trials, design effect; for a mean: mean, sd, count, or
    a clustered standard error)."""

    value: float | None
    ci95: tuple[float, float] | None
    successes: float = 0.0
    trials: float = 0.0
    design_effect: float = 1.0
    sd: float | None = None
    count: int = 0
    se: float | None = None
    #: A mean of one value a game: tested by Welch's t test (else by its clustered `se`).
    welch: bool = False


def _rate_side(successes: float, trials: float, design_effect: float = 1.0) -> _Side:
    if not trials:
        return _Side(None, None)
    rate = successes / trials
    low, high = rate_interval(rate, trials, design_effect)
    return _Side(rate, (low, high), successes, trials, design_effect)


def _mean_side(
    mean: float | None,
    sd: float | None,
    count: int,
    se: float | None = None,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> _Side:
    """A mean; with `se` (clustered by game) tested by it, else by Welch's test.
    Its normal interval is cut to `bounds`, the values the mean can take."""
    if mean is None or not count:
        return _Side(None, None)
    error = se if se is not None else (sd or 0.0) / math.sqrt(count)
    low, high = bounds
    interval = (max(low, mean - Z95 * error), min(high, mean + Z95 * error))
    return _Side(mean, interval, sd=sd, count=count, se=error, welch=se is None)


def _unpaired_p(one: _Side, other: _Side) -> tuple[float, float]:
    """The unpaired p-value of B − A, and the standard error of the difference."""
    if one.trials and other.trials:  # two rates
        p = proportions_p(
            other.successes,
            other.trials,
            one.successes,
            one.trials,
            other.design_effect,
            one.design_effect,
        )
        se = math.hypot(
            _rate_se(other.value or 0.0, other.trials, other.design_effect),
            _rate_se(one.value or 0.0, one.trials, one.design_effect),
        )
        return p, se
    se = math.hypot(one.se or 0.0, other.se or 0.0)
    if one.welch and other.welch and one.sd is not None and other.sd is not None:
        p = welch_p(one.value or 0.0, one.sd, one.count, other.value or 0.0, other.sd, other.count)
    else:
        p = normal_p((other.value or 0.0) - (one.value or 0.0), se)
    return p, se


def _rate_se(rate: float, trials: float, design_effect: float) -> float:
    return math.sqrt(rate * (1 - rate) * design_effect / trials) if trials else 0.0


@dataclass(frozen=True)
class _Number:
    """A number compared before the correction: its group, name and two sides."""

    group: str
    what: str
    a: _Side
    b: _Side
    tracks: tuple[tuple[float, ...], tuple[float, ...]] | None = None


def _numbers(a: BalanceReport, b: BalanceReport) -> list[_Number]:
    numbers: list[_Number] = []
    order_a, order_b = a.win_rate.by_turn_order, b.win_rate.by_turn_order
    for place in range(min(len(order_a), len(order_b))):
        one, other = order_a[place], order_b[place]
        numbers.append(
            _Number(
                GROUPS[0],
                str(place + 1),
                _rate_side(one.wins, one.games),
                _rate_side(other.wins, other.games),
            )
        )
    bots = [n for n in a.win_rate.by_bot if n in b.win_rate.by_bot]
    if len(bots) > 1:  # one bot alone wins its fair share by definition
        for name in bots:
            one, other = a.win_rate.by_bot[name], b.win_rate.by_bot[name]
            numbers.append(
                _Number(
                    GROUPS[1],
                    name,
                    _rate_side(one.wins, one.games, one.design_effect),
                    _rate_side(other.wins, other.games, other.design_effect),
                )
            )
    for name in (n for n in a.scores.by_bot if n in b.scores.by_bot):
        one, other = a.scores.by_bot[name], b.scores.by_bot[name]
        numbers.append(
            _Number(
                GROUPS[2],
                name,
                _mean_side(one.total.mean, one.total.sd, one.total.count, one.standard_error),
                _mean_side(
                    other.total.mean, other.total.sd, other.total.count, other.standard_error
                ),
            )
        )
    numbers.append(
        _Number(
            GROUPS[3],
            "stalled games",
            _rate_side(a.stalls.count, a.games),
            _rate_side(b.stalls.count, b.games),
        )
    )
    numbers.append(
        _Number(
            GROUPS[4],
            "turns",
            _mean_side(a.turns.mean, a.turns.sd, a.turns.count),
            _mean_side(b.turns.mean, b.turns.sd, b.turns.count),
        )
    )
    for name in (n for n in a.tickets.by_bot if n in b.tickets.by_bot):
        one, other = a.tickets.by_bot[name], b.tickets.by_bot[name]
        numbers.append(
            _Number(
                GROUPS[5],
                name,
                _rate_side(one.completed, one.held, one.design_effect),
                _rate_side(other.completed, other.held, other.design_effect),
            )
        )
    tickets_b = {_pair_key(_ticket_cities(t.ticket)): t for t in b.tickets.by_ticket}
    for one in a.tickets.by_ticket:
        other = tickets_b.get(_pair_key(_ticket_cities(one.ticket)))
        if other is None or not one.held or not other.held:
            continue
        numbers.append(
            _Number(
                GROUPS[6],
                _pair_key(_ticket_cities(one.ticket)),
                _rate_side(one.completed, one.held, one.design_effect),
                _rate_side(other.completed, other.held, other.design_effect),
            )
        )
    connections_b = {c.key: c for c in b.connections}
    claims_a = {r.route: r.rate for r in a.routes}
    claims_b = {r.route: r.rate for r in b.routes}
    for one in a.connections:
        other = connections_b.get(one.key)
        if other is None:
            continue
        tracks = None
        if len(one.routes) > 1 and len(other.routes) > 1:
            tracks = (
                tuple(claims_a.get(r, 0.0) for r in _matched_tracks(a, one)),
                tuple(claims_b.get(r, 0.0) for r in _matched_tracks(b, other)),
            )
        numbers.append(
            _Number(
                GROUPS[7],
                one.key,
                _connection_side(one),
                _connection_side(other),
                tracks,
            )
        )
    return numbers


def _connection_side(connection: ConnectionClaims) -> _Side:
    games = sum(connection.games_by_tracks)
    mean = sum(k * n for k, n in enumerate(connection.games_by_tracks)) / games if games else None
    bounds = (0.0, float(len(connection.routes)))
    return _mean_side(mean, math.sqrt(connection.tracks_variance()), games, bounds=bounds)


def _settings_differ(a: Settings, b: Settings) -> tuple[str, ...]:
    return tuple(key for key in LIKE_FOR_LIKE if getattr(a, key) != getattr(b, key))


def compare_reports(
    a: BalanceReport,
    b: BalanceReport,
    titles: tuple[str, str] | None = None,
    paired: Mapping[tuple[str, str], PairedSums] | None = None,
) -> Comparison:
    """Every compared number of two reports, each row with both values, the
    difference, its Holm-adjusted p-value and whether it is significant. With
    `paired` (the per-game sums of two runs on common seeds, `compare_maps`), a
    row found there is tested paired."""
    numbers = _numbers(a, b)
    tested = []
    for number in numbers:
        sums = paired.get((number.group, number.what)) if paired else None
        if sums is not None:
            difference = -(sums.difference or 0.0)  # the sums hold A − B
            se = math.sqrt(sums.variance())
            p = normal_p(difference, se)
        else:
            p, se = _unpaired_p(number.a, number.b)
            difference = (number.b.value or 0.0) - (number.a.value or 0.0)
        tested.append((number, p, difference, se))
    adjusted = holm([p for _, p, _, _ in tested])
    rows = []
    for (number, _, difference, se), p in zip(tested, adjusted, strict=True):
        both = number.a.value is not None and number.b.value is not None
        rows.append(
            Row(
                group=number.group,
                what=number.what,
                a=_round(number.a.value),
                a_ci95=_round_pair(number.a.ci95),
                b=_round(number.b.value),
                b_ci95=_round_pair(number.b.ci95),
                difference=round(difference, 4) if both else None,
                difference_ci95=(
                    (round(difference - Z95 * se, 4), round(difference + Z95 * se, 4))
                    if both
                    else None
                ),
                p_value=round(p, 6),
                significant=both and p < ALPHA,
                tracks=(
                    None
                    if number.tracks is None
                    else (_rounded(number.tracks[0]), _rounded(number.tracks[1]))
                ),
            )
        )
    return Comparison(
        a.settings,
        b.settings,
        titles or (a.settings.map, b.settings.map),
        map_diff(a, b),
        _settings_differ(a.settings, b.settings),
        tuple(rows),
        paired=paired is not None,
    )


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _round_pair(pair: tuple[float, float] | None) -> tuple[float, float] | None:
    return None if pair is None else (round(pair[0], 4), round(pair[1], 4))


def _rounded(values: Sequence[float]) -> tuple[float, ...]:
    return tuple(round(v, 4) for v in values)


# --------------------------------------------------------- paired, by game


class _GameKeys:
    """How one map's game summaries read as row keys: tickets and routes by their
    cities, so two maps with other ids match."""

    def __init__(self, game_map: Map):
        game_map = game_map.in_play_order  # how the games number things
        self.tickets = [_pair_key(t.cities) for t in game_map.tickets]
        self.connection = [_pair_key(r.cities) for r in game_map.routes]
        self.connections = sorted(set(self.connection))


def game_values(game: GameSummary, keys: _GameKeys) -> dict[tuple[str, str], tuple[float, float]]:
    """Per row key, this game's (trials, counted) — the `x, y` of a ratio whose
    runs' totals are the report's number (see `ttr_core.playtest.stats`)."""
    values: dict[tuple[str, str], tuple[float, float]] = {}

    def add(key: tuple[str, str], x: float, y: float) -> None:
        old = values.get(key, (0.0, 0.0))
        values[key] = (old[0] + x, old[1] + y)

    players = len(game.seats)
    winners = sum(1 for s in game.seats if s.rank == 1)
    for place in range(players):
        seat = game.seats[(game.first_player + place) % players]
        add((GROUPS[0], str(place + 1)), 1, 1 / winners if seat.rank == 1 else 0.0)
    for name, seat in zip(game.names, game.seats, strict=True):
        add((GROUPS[1], name), 1, 1 / winners if seat.rank == 1 else 0.0)
        add((GROUPS[2], name), 1, seat.total)
        add((GROUPS[5], name), len(seat.tickets), sum(1 for _, done in seat.tickets if done))
        for ticket, done in seat.tickets:
            add((GROUPS[6], keys.tickets[ticket]), 1, 1 if done else 0)
        for route in seat.routes:
            add((GROUPS[7], keys.connection[route]), 0, 1)
    from ttr_core.engine.enums import EndReason

    add((GROUPS[3], "stalled games"), 1, 1 if game.end_reason == EndReason.ALL_PASSED else 0)
    add((GROUPS[4], "turns"), 1, game.turns)
    for connection in keys.connections:
        add((GROUPS[7], connection), 1, 0)
    return values


def play_alike(
    a: PlayedMap,
    b: PlayedMap,
    plan: RunPlan,
    where: Workers = IN_THIS_PROCESS,
    on_game: Callable[[GameSummary], None] | None = None,
) -> tuple[BalanceReport, BalanceReport, dict[tuple[str, str], PairedSums]]:
    """Play both maps alike (the games of `plan` on each: game i of each run has the
    same seed and seats): the two reports and, per row, the per-game sums that pair
    them. Local processes are shared out between the two runs."""
    from ttr_core.playtest.simulate import Run

    runs = [Run(a, plan), Run(b, plan)]
    keys = [_GameKeys(a.map), _GameKeys(b.map)]
    sums: dict[tuple[str, str], PairedSums] = {}
    streams = [run.games(half) for run, half in zip(runs, where.halves(), strict=True)]
    for game_a, game_b in zip(*streams, strict=True):
        values_a, values_b = game_values(game_a, keys[0]), game_values(game_b, keys[1])
        for key in values_a.keys() | values_b.keys():
            xa, ya = values_a.get(key, (0.0, 0.0))
            xb, yb = values_b.get(key, (0.0, 0.0))
            sums.setdefault(key, PairedSums()).add(xa, ya, xb, yb)
        for run, game in zip(runs, (game_a, game_b), strict=True):
            run.add(game)
            if on_game is not None:
                on_game(game)
    for paired in sums.values():  # games where a number counted nothing count too
        paired.pad_to(plan.games)
    one, other = (run.finish().report for run in runs)
    return one, other, sums


def compare_maps(
    a: PlayedMap,
    b: PlayedMap,
    plan: RunPlan,
    where: Workers = IN_THIS_PROCESS,
    titles: tuple[str, str] | None = None,
    on_game: Callable[[GameSummary], None] | None = None,
) -> Comparison:
    """Play both maps alike (`play_alike`) and compare them with paired tests."""
    one, other, sums = play_alike(a, b, plan, where, on_game)
    return compare_reports(one, other, titles, sums)


# ------------------------------------------------------------------ reporters


def _number(value: float | None, ci95: tuple[float, float] | None) -> str:
    if value is None:
        return "–"
    text = f"{value:.4g}"
    return f"{text} ({ci95[0]:.4g}–{ci95[1]:.4g})" if ci95 else text


def _difference(row: Row) -> str:
    if row.difference is None or row.difference_ci95 is None:
        return "–"
    low, high = row.difference_ci95
    return f"{row.difference:+.4g} ({low:+.4g} to {high:+.4g})"


def _p(p_value: float) -> str:
    """A Holm-adjusted p-value as printed: two digits, or a bound below 0.0001."""
    return "< 0.0001" if p_value < 1e-4 else f"{p_value:.2g}"


def _tracks(row: Row) -> str:
    if row.tracks is None:
        return ""
    a, b = row.tracks
    show = lambda values: " / ".join(f"{v:.3g}" for v in values)  # noqa: E731
    return f"; per track A {show(a)}, B {show(b)}"


def _settings_line(settings: Settings) -> str:
    changes = f", --set {' '.join(settings.rule_changes)}" if settings.rule_changes else ""
    return (
        f"{settings.map_name}: {settings.games} games, {settings.players} players, bots "
        f"{','.join(settings.bots)}, seed {settings.seed}{changes}"
    )


def to_text(comparison: Comparison) -> str:
    """The map diff, the significant differences (one line each), then how the rows
    were tested."""
    title_a, title_b = (for_terminal(t) for t in comparison.titles)
    lines = [
        f"A: {title_a} — {for_terminal(_settings_line(comparison.a))}",
        f"B: {title_b} — {for_terminal(_settings_line(comparison.b))}",
    ]
    if comparison.diff:
        lines.append(f"map diff (B against A), {len(comparison.diff)} changes:")
        lines += [f"  {for_terminal(str(change))}" for change in comparison.diff]
    else:
        lines.append("map diff: the maps and rules are the same")
    if comparison.settings_differ:
        lines.append(
            "note: the runs differ in "
            + ", ".join(comparison.settings_differ)
            + ": seat and bot numbers are not like for like"
        )
    significant = comparison.significant
    lines.append("significant differences (B − A):" if significant else "no significant difference")
    for row in significant:
        lines.append(
            f"  {row.group}: {for_terminal(row.what)}: A {_number(row.a, row.a_ci95)}  "
            f"B {_number(row.b, row.b_ci95)}  difference {_difference(row)}, "
            f"p (Holm) {_p(row.p_value) if row.p_value < 1e-4 else '= ' + _p(row.p_value)}"
            f"{_tracks(row)}"
        )
    lines.append(comparison.method)
    return "\n".join(lines) + "\n"


def to_json(comparison: Comparison) -> str:
    return json.dumps(comparison.to_dict(), indent=1, ensure_ascii=False) + "\n"


STYLE = (
    "body{font-family:sans-serif;max-width:1200px;margin:2em auto}table{border-collapse:"
    "collapse}td,th{border:1px solid #ccc;padding:2px 8px}tr.sig{background:#fde}"
)


def _table(rows: Sequence[Row], titles: tuple[str, str]) -> str:
    a, b = (for_html(t) for t in titles)
    head = (
        f"<tr><th>group</th><th>what</th><th>A: {a}</th><th>B: {b}</th>"
        "<th>B − A</th><th>p (Holm)</th></tr>"
    )
    body = "".join(
        f'<tr class="{"sig" if r.significant else ""}"><td>{for_html(r.group)}'
        f"</td><td>{for_html(r.what)}{for_html(_tracks(r))}</td>"
        f"<td>{_number(r.a, r.a_ci95)}</td><td>{_number(r.b, r.b_ci95)}</td>"
        f"<td>{_difference(r)}</td><td>{for_html(_p(r.p_value))}</td></tr>"
        for r in rows
    )
    return f"<table>{head}{body}</table>"


def to_html(comparison: Comparison) -> str:
    """One page: the map diff, the significant differences, then every number."""
    a, b = comparison.titles
    note = (
        "<p><b>Note:</b> the runs differ in "
        + for_html(", ".join(comparison.settings_differ))
        + ": seat and bot numbers are not like for like.</p>"
        if comparison.settings_differ
        else ""
    )
    diff = (
        "<ul>" + "".join(f"<li>{for_html(str(c))}</li>" for c in comparison.diff) + "</ul>"
        if comparison.diff
        else "<p>The maps and rules are the same.</p>"
    )
    significant = comparison.significant
    body = (
        f"<h1>A: {for_html(a)} — B: {for_html(b)}</h1>"
        f"<p>A: {for_html(_settings_line(comparison.a))}<br>"
        f"B: {for_html(_settings_line(comparison.b))}</p>"
        f"<p>{for_html(comparison.method)}</p>"
        + note
        + "<h2>Map diff (B against A)</h2>"
        + diff
        + "<h2>Significant differences</h2>"
        + (_table(significant, comparison.titles) if significant else "<p>None.</p>")
        + "<h2>Everything compared</h2>"
        + _table(comparison.rows, comparison.titles)
    )
    return html_page(f"Comparison: {a} / {b}", body, STYLE)


#: The comparison's reporters, by the name `--format` takes.
REPORTERS: dict[str, Callable[[Comparison], str]] = {
    "text": to_text,
    "json": to_json,
    "html": to_html,
}
