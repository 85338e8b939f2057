"""The balance report of a simulation: a frozen, typed value.

`Tally.to_report` (tally.py) makes it from the games, `findings` (findings.py) read
it, `html`, `compare` and `ttr simulate` show it. `to_dict()` is exactly the
content of `report.json`, key order included, and `from_dict` reads it back:
`BalanceReport.from_dict(report.to_dict()) == report`.
`schemas/balance-report.schema.json` describes the file.

How the JSON maps onto the values: a list is a tuple; the groups by seat (`"0"`,
`"1"`, …) and by place in the turn order (`"1"` = the first player, …) are tuples
indexed by seat and by place − 1; the groups by bot are mappings in the report's
order (bots sorted by name). Every rate carries its 95 % Wilson interval (`ci95`,
`ttr_core.playtest.stats`).

>>> from ttr_core.playtest.plan import PlayedMap, RunPlan
>>> from ttr_core.playtest.simulate import simulate
>>> from ttr_maps import load_map
>>> played = PlayedMap(load_map("iran"), "iran")
>>> report = simulate(played, RunPlan(2, 2, ("greedy", "random"), 1)).report
>>> report.games, sorted(report.win_rate.by_bot), len(report.win_rate.by_seat)
(2, ['greedy', 'random'], 2)
>>> BalanceReport.from_dict(report.to_dict()) == report
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import Any, Self, TypeVar

FORMAT = "ttr-simulation-report"
#: 2: design effects and intervals for every rate, connections, the rules played,
#: the screening of the findings and the published-board baseline.
VERSION = 3

#: How the report decides what it counts (written into every report).
DECISIONS = {
    "shared_wins": "each of k tied first places counts 1/k of a win "
    "(wins add up to games); outright_wins counts unshared first places",
    "seat_assignment": "seat s of game i is bots[(s + i) % len(bots)]",
    "game_seed": "game_seed(seed, i) = (seed * 1000033 + i * 7777 + 1) mod 2**62",
    "cities": "share of seat-games in which the seat claimed a route touching the city",
    "arc": "means over all games; a game that is over keeps its final values",
    "ci95": "95 % Wilson interval over trials / design_effect effective trials: "
    "a rate whose trials cluster in games (a bot's seats, the tickets of a game) "
    "has its variance clustered by game (ttr_core.playtest.stats)",
    "connections": "a connection is a pair of neighbouring cities; its tracks (a double "
    "has two) are counted together, games_by_tracks[k] = games in which k were claimed",
}


class ReportError(ValueError):
    """Data that is not a balance report of this format (the message says why)."""


T = TypeVar("T")


# ------------------------------------------------------------ JSON <-> values


def _plain(value: Any) -> Any:
    """A typed value as JSON data: records as dicts, tuples as lists."""
    if isinstance(value, JsonRecord):
        return value.to_dict()
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _frozen(value: Any) -> Any:
    """A JSON value as the value of a flat record's field: a list as a tuple, a
    mapping as a dict (one level: a flat record holds no deeper structure)."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def _key(f: Any) -> str:
    return f.metadata.get("json", f.name)


class JsonRecord:
    """A frozen dataclass whose JSON keys are its field names (or a field's `json`
    metadata), in field order, with lists read as tuples. Records holding other
    records override `from_dict`."""

    def to_dict(self) -> dict[str, Any]:
        return {_key(f): _plain(getattr(self, f.name)) for f in fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return cls(**{f.name: _frozen(data[_key(f)]) for f in fields(cls)})  # type: ignore[arg-type]


def _by_name(parse: Callable[[Any], T], data: Mapping[str, Any]) -> dict[str, T]:
    return {name: parse(value) for name, value in data.items()}


def _numbered(values: Sequence[Any], start: int = 0) -> dict[str, Any]:
    """Seats (from 0) or places in the turn order (from 1) as JSON keys."""
    return {str(number): _plain(v) for number, v in enumerate(values, start=start)}


def _from_numbered(
    parse: Callable[[Any], T], data: Mapping[str, Any], start: int = 0
) -> tuple[T, ...]:
    return tuple(parse(data[str(number)]) for number in range(start, start + len(data)))


def _same(value: T) -> T:
    return value


# ------------------------------------------------------------------- rates


@dataclass(frozen=True)
class Rate(JsonRecord):
    """Wins over games (a shared first place counts 1/k, R17) with the 95 %
    Wilson interval of the rate over the effective trials (games / design effect)."""

    games: int
    wins: float
    rate: float
    ci95: tuple[float, float]
    #: The rate's variance, clustered by game, over that of as many independent
    #: trials: 1 for one trial a game; below 1 for a bot holding several seats of
    #: a game (only one of them can win).
    design_effect: float


@dataclass(frozen=True)
class SeatRate(Rate):
    """A win rate over seat-games (of a bot or a seat), with the unshared wins."""

    outright_wins: int


@dataclass(frozen=True)
class WinRates(JsonRecord):
    by_bot: Mapping[str, SeatRate]
    #: Index: the seat.
    by_seat: tuple[SeatRate, ...]
    first_player: Rate
    #: Index: the place in the turn order − 1 (0 = the first player, R4).
    by_turn_order: tuple[Rate, ...]
    #: 1 / players.
    fair_share: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "by_bot": _plain(self.by_bot),
            "by_seat": _numbered(self.by_seat),
            "first_player": self.first_player.to_dict(),
            "by_turn_order": _numbered(self.by_turn_order, start=1),
            "fair_share": self.fair_share,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WinRates:
        return cls(
            _by_name(SeatRate.from_dict, data["by_bot"]),
            _from_numbered(SeatRate.from_dict, data["by_seat"]),
            Rate.from_dict(data["first_player"]),
            _from_numbered(Rate.from_dict, data["by_turn_order"], start=1),
            data["fair_share"],
        )


# ----------------------------------------------------------- distributions


@dataclass(frozen=True)
class Distribution(JsonRecord):
    """Whole numbers seen over the games: count, mean, sample sd, quantiles
    (linear between order statistics), min and max. With no value only `count`."""

    count: int
    mean: float | None = None
    sd: float | None = None
    min: int | None = None
    q10: float | None = None
    q25: float | None = None
    median: float | None = None
    q75: float | None = None
    q90: float | None = None
    max: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return super().to_dict() if self.count else {"count": 0}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return super().from_dict(data) if data["count"] else cls(0)


@dataclass(frozen=True)
class ScoreDistribution(JsonRecord):
    """Final scores and each part of them (routes, tickets, longest_path_bonus;
    stations with E1), in the order the result names them."""

    total: Distribution
    parts: Mapping[str, Distribution]
    #: The variance of the mean total, clustered by game, over sd² / count (1 for
    #: one seat a game).
    design_effect: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.total.to_dict(),
            "design_effect": self.design_effect,
            "parts": _plain(self.parts),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScoreDistribution:
        return cls(
            Distribution.from_dict({k: v for k, v in data.items() if k != "design_effect"}),
            _by_name(Distribution.from_dict, data["parts"]),
            data["design_effect"],
        )

    @property
    def standard_error(self) -> float:
        """The standard error of the mean total, clustered by game."""
        total = self.total
        if total.count < 2 or total.sd is None:
            return 0.0
        return (total.sd**2 * self.design_effect / total.count) ** 0.5


@dataclass(frozen=True)
class Scores(JsonRecord):
    by_bot: Mapping[str, ScoreDistribution]
    by_seat: tuple[ScoreDistribution, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"by_bot": _plain(self.by_bot), "by_seat": _numbered(self.by_seat)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scores:
        return cls(
            _by_name(ScoreDistribution.from_dict, data["by_bot"]),
            _from_numbered(ScoreDistribution.from_dict, data["by_seat"]),
        )


@dataclass(frozen=True)
class LongestPathBonus(JsonRecord):
    """Seat-games that scored the R16 bonus."""

    by_bot: Mapping[str, int]
    by_seat: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"by_bot": dict(self.by_bot), "by_seat": _numbered(self.by_seat)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LongestPathBonus:
        return cls(dict(data["by_bot"]), _from_numbered(_same, data["by_seat"]))


# ------------------------------------------------- tickets, routes, cities


@dataclass(frozen=True)
class TicketRate(JsonRecord):
    """Tickets held at the end, and completed (with E1's borrowed routes); `rate`
    is None when none was held. The tickets of a game cluster (the same board, the
    same opponents): `design_effect` and the interval count that."""

    held: int
    completed: int
    rate: float | None
    ci95: tuple[float, float]
    design_effect: float


@dataclass(frozen=True)
class TicketCompletion(JsonRecord):
    """One ticket of the map: `ticket` is "A–B", its cities in alphabetical order
    (whichever way the file writes them); `long` for a long ticket (E4);
    `bonus` a designer's price on top of the value (D7). `offered`: the times it
    was dealt to a seat to choose from (R4, R12; a returned ticket may come again),
    `held` the times a seat held it at the end. The completion interval is
    clustered by game, like `TicketRate`'s."""

    ticket: str
    value: int
    long: bool
    bonus: int
    offered: int
    held: int
    completed: int
    rate: float | None
    ci95: tuple[float, float]
    design_effect: float


@dataclass(frozen=True)
class Tickets(JsonRecord):
    by_bot: Mapping[str, TicketRate]
    #: In the map's play order (by the cities' names: `Map.in_play_order`).
    by_ticket: tuple[TicketCompletion, ...]
    never_held: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "by_bot": _plain(self.by_bot),
            "by_ticket": _plain(self.by_ticket),
            "never_held": list(self.never_held),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tickets:
        return cls(
            _by_name(TicketRate.from_dict, data["by_bot"]),
            tuple(TicketCompletion.from_dict(t) for t in data["by_ticket"]),
            tuple(data["never_held"]),
        )


@dataclass(frozen=True)
class RouteClaims(JsonRecord):
    """One route segment of the map (a track of a double is one): what it is
    (a tunnel, E2; a ferry's locomotives, E3) and the games in which it was claimed."""

    route: str
    length: int
    color: str
    tunnel: bool
    ferry: int
    claimed: int
    rate: float


@dataclass(frozen=True)
class ConnectionClaims(JsonRecord):
    """A connection: two neighbouring cities and their tracks (route ids; a double
    has two, R11). `games_by_tracks[k]` is the number of games in which k of its
    tracks were claimed; `claimed` the games with at least one, `rate` their share
    with its 95 % Wilson interval; `tracks_per_game` the mean tracks claimed."""

    between: tuple[str, str]
    routes: tuple[str, ...]
    length: int
    games_by_tracks: tuple[int, ...]
    claimed: int
    rate: float
    ci95: tuple[float, float]
    tracks_per_game: float

    @property
    def key(self) -> str:
        """The connection's name, "A–B" with the cities in name order."""
        return "–".join(sorted(self.between))

    def tracks_variance(self) -> float:
        """The sample variance of the tracks claimed per game."""
        games = sum(self.games_by_tracks)
        if games < 2:
            return 0.0
        mean = sum(k * n for k, n in enumerate(self.games_by_tracks)) / games
        squares = sum(n * (k - mean) ** 2 for k, n in enumerate(self.games_by_tracks))
        return squares / (games - 1)


# ---------------------------------------------------------- how games end


@dataclass(frozen=True)
class StalledGame(JsonRecord):
    """A game that ended with everybody passing (R6), and the `ttr play` command
    that plays it again."""

    seed: int
    index: int
    bots: tuple[str, ...]
    command: str
    #: What had run out (`ttr_core.playtest.playout.STALL_CAUSES`).
    causes: tuple[str, ...]


@dataclass(frozen=True)
class Stalls(JsonRecord):
    count: int
    #: Stalled games per cause ("none ran out" when none had); a game may count
    #: under several.
    causes: Mapping[str, int]
    #: The first stalled games (`report.json` calls them `seeds`).
    examples: tuple[StalledGame, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "causes": dict(self.causes), "seeds": _plain(self.examples)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Stalls:
        examples = tuple(StalledGame.from_dict(g) for g in data["seeds"])
        return cls(data["count"], dict(data["causes"]), examples)


@dataclass(frozen=True)
class ArcPoint(JsonRecord):
    """Mean route points and wagons per seat after a turn, over every game (a game
    that is over keeps its final values); `running` games were still going."""

    turn: int
    running: int
    mean_route_points: float
    mean_wagons: float


# ------------------------------------------------- stations and tunnels


@dataclass(frozen=True)
class EuropeBot(JsonRecord):
    """E1 and E2 of one bot over its seat-games."""

    seat_games: int
    stations_built: int
    stations_per_game: float
    routes_borrowed: int
    tunnel_claims: int
    tunnels_claimed_at_once: int
    tunnels_paid: int
    tunnels_given_up: int


@dataclass(frozen=True)
class Europe(JsonRecord):
    """Stations (E1) and tunnels (E2) by bot, in runs whose rules have them."""

    by_bot: Mapping[str, EuropeBot]

    def to_dict(self) -> dict[str, Any]:
        return {"by_bot": _plain(self.by_bot)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Europe:
        return cls(_by_name(EuropeBot.from_dict, data["by_bot"]))


# ---------------------------------------------------------------- baseline


@dataclass(frozen=True)
class Estimate(JsonRecord):
    """A number measured on a published board, with its standard error."""

    value: float
    se: float


@dataclass(frozen=True)
class BoardBaseline(JsonRecord):
    """What the same bots at the same table size do on one published board: the
    numbers the findings set a map's against."""

    map: str
    games: int
    #: Win rate by place in the turn order (index: place − 1).
    turn_order: tuple[Estimate, ...]
    #: Win rate of each bot over its seat-games.
    by_bot: Mapping[str, Estimate]
    stalls: Estimate
    #: Each bot's share of the longest-path bonuses (R16).
    bonus_share: Mapping[str, Estimate]
    turns_per_player: Estimate
    #: Share of the board's track (spaces) in routes claimed in fewer than 5 % of
    #: games (the findings' RARE_ROUTE; point estimates), and in more than 95 %.
    rare_track_share: float
    common_track_share: float
    #: The largest departure of a ticket's completion rate from what the fit of
    #: completion against value predicts (point estimates, tickets held 20+ times).
    ticket_departure: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "map": self.map,
            "games": self.games,
            "turn_order": _plain(self.turn_order),
            "by_bot": _plain(self.by_bot),
            "stalls": self.stalls.to_dict(),
            "bonus_share": _plain(self.bonus_share),
            "turns_per_player": self.turns_per_player.to_dict(),
            "rare_track_share": self.rare_track_share,
            "common_track_share": self.common_track_share,
            "ticket_departure": self.ticket_departure,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BoardBaseline:
        return cls(
            data["map"],
            data["games"],
            tuple(Estimate.from_dict(e) for e in data["turn_order"]),
            _by_name(Estimate.from_dict, data["by_bot"]),
            Estimate.from_dict(data["stalls"]),
            _by_name(Estimate.from_dict, data["bonus_share"]),
            Estimate.from_dict(data["turns_per_player"]),
            data["rare_track_share"],
            data["common_track_share"],
            data["ticket_departure"],
        )


@dataclass(frozen=True)
class Baseline(JsonRecord):
    """The published boards played by the same bots at the same table size
    (`ttr_core.playtest.baseline`): `source` says where the numbers come from
    (shipped with ttr, cached, computed for this run) and with which ttr."""

    source: str
    bots: tuple[str, ...]
    players: int
    seed: int
    boards: tuple[BoardBaseline, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "bots": list(self.bots),
            "players": self.players,
            "seed": self.seed,
            "boards": _plain(self.boards),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Baseline:
        boards = tuple(BoardBaseline.from_dict(b) for b in data["boards"])
        return cls(data["source"], tuple(data["bots"]), data["players"], data["seed"], boards)


@dataclass(frozen=True)
class BaselineFile(JsonRecord):
    """The shipped baselines (`ttr_core/playtest/data/baseline.json`): what made
    them (`command`, with the ttr version, games and seed) and the baselines."""

    format: str
    version: int
    ttr: str
    games: int
    seed: int
    command: str
    baselines: tuple[Baseline, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BaselineFile:
        values = {f.name: data[f.name] for f in fields(cls) if f.name != "baselines"}
        return cls(**values, baselines=tuple(Baseline.from_dict(b) for b in data["baselines"]))


@dataclass(frozen=True)
class Detectable(JsonRecord):
    """What a run of this size would find: a departure of `departure` (in `unit`)
    beyond the published boards' range (or the fair value) on the number `what`
    looks at, confirmed 80 % of the time (`ttr_core.playtest.findings`); `text` says
    it in words."""

    code: str
    what: str
    #: None: nothing this rule looks at could be confirmed at this size (`text` says
    #: from how many games).
    departure: float | None
    unit: str
    text: str


@dataclass(frozen=True)
class Screening(JsonRecord):
    """How the findings were tested: `tests` hypotheses (every seat place, bot,
    route, ticket, … a rule looks at, each direction apart), controlled together
    (`correction`, at `alpha`: the chance of any false finding in the report), the
    baseline, how a finding was replicated, and what the run could have seen."""

    tests: int
    correction: str
    alpha: float
    #: What the published-board numbers are, or why there are none.
    baseline: str
    #: How a finding is confirmed beyond the correction (the two halves of the games).
    replication: str = ""
    #: Per rule, the smallest departure this run would find (`Detectable`).
    detectable: tuple[Detectable, ...] = ()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Screening:
        return cls(
            data["tests"],
            data["correction"],
            data["alpha"],
            data["baseline"],
            data["replication"],
            tuple(Detectable.from_dict(d) for d in data["detectable"]),
        )


@dataclass(frozen=True)
class Undecided(JsonRecord):
    """A number that looks like a finding but is not decided: beyond its minimum
    effect without the multiple-comparison control (`p_value`, one-sided,
    unadjusted), or significant but not in both halves of the games (`halves_p`).
    `games_needed`: about how many games in all would confirm it (80 % power) if the
    departure is what this run saw; None when more games would not (the departure
    seen is within the minimum effect)."""

    code: str
    subject: str
    title: str
    p_value: float
    halves_p: tuple[float, float] | None
    games_needed: int | None


# ---------------------------------------------------------------- findings


@dataclass(frozen=True)
class TurnOrderEvidence(JsonRecord):
    """`seat-advantage`: a place in the turn order (1 = the first player), its
    win rate with the 95 % interval, and the published boards' range (None: no
    baseline, judged against the fair share)."""

    turn_order: int
    rate: float
    ci95: tuple[float, float]
    fair_share: float
    published: tuple[float, float] | None
    min_effect: float


@dataclass(frozen=True)
class StallEvidence(JsonRecord):
    """`stalls`: the stalled games, and what had run out."""

    stalled: int
    games: int
    rate: float
    ci95: tuple[float, float]
    causes: Mapping[str, int]
    published: tuple[float, float] | None
    min_effect: float


@dataclass(frozen=True)
class StyleEvidence(JsonRecord):
    """`dominant-style`: a bot winning above the fair share (and the published
    boards' rate for the same bot)."""

    bot: str
    rate: float
    ci95: tuple[float, float]
    fair_share: float
    published: tuple[float, float] | None
    min_effect: float


@dataclass(frozen=True)
class RouteFlag(JsonRecord):
    route: str
    rate: float
    ci95: tuple[float, float]


@dataclass(frozen=True)
class RoutesEvidence(JsonRecord):
    """`rarely-claimed-routes`, `always-claimed-routes`: the routes, the share of
    the map's track they hold, and the published boards' share (range)."""

    routes: tuple[RouteFlag, ...]
    track_share: float
    published: tuple[float, float] | None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoutesEvidence:
        routes = tuple(RouteFlag.from_dict(r) for r in data["routes"])
        published = data["published"]
        return cls(routes, data["track_share"], tuple(published) if published else None)


@dataclass(frozen=True)
class Fit(JsonRecord):
    """Completion rate against ticket value: intercept + slope × value."""

    intercept: float
    slope: float


@dataclass(frozen=True)
class TicketOutlier(JsonRecord):
    """A ticket's completion rate (95 % interval clustered by game) against what
    the fit predicts for its value; `departure` = rate − expected."""

    ticket: str
    value: int
    held: int
    rate: float
    expected: float
    ci95: tuple[float, float]
    departure: float


@dataclass(frozen=True)
class TicketOutliersEvidence(JsonRecord):
    """`ticket-outliers`: the fit, the tickets far from it (largest departure
    first), the departure a ticket needed (`min_effect`), and the published boards'
    largest departures."""

    fit: Fit
    tickets: tuple[TicketOutlier, ...]
    min_effect: float
    published: tuple[float, float] | None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TicketOutliersEvidence:
        tickets = tuple(TicketOutlier.from_dict(t) for t in data["tickets"])
        published = data["published"]
        return cls(
            Fit.from_dict(data["fit"]),
            tickets,
            data["min_effect"],
            tuple(published) if published else None,
        )


@dataclass(frozen=True)
class BonusEvidence(JsonRecord):
    """`longest-path-concentrated`: one bot's share of the R16 bonuses."""

    bot: str
    bonuses: int
    total: int
    share: float
    ci95: tuple[float, float]
    seat_share: float
    published: tuple[float, float] | None
    min_effect: float


@dataclass(frozen=True)
class GameLengthEvidence(JsonRecord):
    """`game-length`: turns per player against the published boards'."""

    turns_per_player: float
    ci95: tuple[float, float]
    published: tuple[float, float]
    min_effect: float


Evidence = (
    TurnOrderEvidence
    | StallEvidence
    | StyleEvidence
    | RoutesEvidence
    | TicketOutliersEvidence
    | BonusEvidence
    | GameLengthEvidence
)

#: The evidence of each finding code.
EVIDENCE: dict[str, type[Evidence]] = {
    "seat-advantage": TurnOrderEvidence,
    "stalls": StallEvidence,
    "dominant-style": StyleEvidence,
    "rarely-claimed-routes": RoutesEvidence,
    "always-claimed-routes": RoutesEvidence,
    "ticket-outliers": TicketOutliersEvidence,
    "longest-path-concentrated": BonusEvidence,
    "game-length": GameLengthEvidence,
}

#: Most severe first. A severity between two levels ("medium or high") is one the
#: run cannot decide: its 99 % interval reaches both sides of the threshold. So
#: two runs never give one finding two decided severities unless their 99 %
#: intervals are apart.
SEVERITIES = ("high", "medium or high", "medium", "low or medium", "low")


@dataclass(frozen=True)
class Finding(JsonRecord):
    """What a designer should look at: a stable `code`, a `severity` (SEVERITIES,
    decided on the interval), a one-line `title`, the numbers behind it, what to
    try, the adjusted p-value of its strongest test (`Screening`), and the one-sided
    p-values of the same test in each half of the games (`halves_p`: a finding is
    reported only when both are below the replication level; None when the run was
    not split)."""

    code: str
    severity: str
    title: str
    evidence: Evidence
    suggestion: str
    p_value: float
    halves_p: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "title": self.title,
            "evidence": self.evidence.to_dict(),
            "suggestion": self.suggestion,
            "p_value": self.p_value,
            "halves_p": None if self.halves_p is None else list(self.halves_p),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Finding:
        code = data["code"]
        if code not in EVIDENCE:
            raise ReportError(f"unknown finding code {code!r}")
        evidence = EVIDENCE[code].from_dict(data["evidence"])
        halves = data["halves_p"]
        return cls(
            code,
            data["severity"],
            data["title"],
            evidence,
            data["suggestion"],
            data["p_value"],
            None if halves is None else (halves[0], halves[1]),
        )


def _undecided(data: Mapping[str, Any]) -> Undecided:
    halves = data["halves_p"]
    return Undecided(
        data["code"],
        data["subject"],
        data["title"],
        data["p_value"],
        None if halves is None else (halves[0], halves[1]),
        data["games_needed"],
    )


# ------------------------------------------------------------------ reach


@dataclass(frozen=True)
class ReachNote(JsonRecord):
    """A part of the map that hardly reaches play (`ttr_core.playtest.reach`): e.g.
    the long tickets, `verb` "kept" at `rate` (95 % `ci95`) `per` "of the times
    offered", over `trials` offers; `names` the tickets or routes it is about."""

    part: str
    verb: str
    per: str
    rate: float
    ci95: tuple[float, float]
    trials: int
    names: tuple[str, ...]


# ------------------------------------------------------------------ report


@dataclass(frozen=True)
class Settings(JsonRecord):
    """What was played: the map, how many games, players and which bots, the seed
    and the `--set` changes."""

    map: str
    map_name: str
    games: int
    players: int
    bots: tuple[str, ...]
    seed: int
    #: The `--set` texts of the run (`report.json` calls them `set`).
    rule_changes: tuple[str, ...] = field(metadata={"json": "set"})
    #: Every field of the rule set the games were played with (the map's rules,
    #: its settings and the `--set` changes; `ttr_maps.rules.RuleSet.to_dict`).
    rules: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BalanceReport(JsonRecord):
    """Everything `ttr simulate` learnt of a run; `report.json` is `to_dict()`."""

    #: Most severe first (`ttr_core.playtest.findings`).
    findings: tuple[Finding, ...]
    settings: Settings
    games: int
    decisions: Mapping[str, str]
    win_rate: WinRates
    scores: Scores
    longest_path_bonus: LongestPathBonus
    tickets: Tickets
    #: In the map's play order (by the cities' names: `Map.in_play_order`).
    routes: tuple[RouteClaims, ...]
    #: Every pair of neighbouring cities, its tracks counted together, sorted by name.
    connections: tuple[ConnectionClaims, ...]
    unclaimed_routes: tuple[str, ...]
    #: Per city: the share of seat-games that claimed a route touching it.
    cities: Mapping[str, float]
    turns: Distribution
    wagons_left: Distribution
    #: Games per end reason, sorted by reason.
    end_reasons: Mapping[str, int]
    stalls: Stalls
    arc: tuple[ArcPoint, ...]
    #: How the findings were tested, and against which baseline.
    screening: Screening = Screening(0, "holm", 0.05, "none")
    #: The published boards played alike, when known (`ttr_core.playtest.baseline`).
    baseline: Baseline | None = None
    #: With stations or tunnels in the rules (E1, E2) only.
    europe: Europe | None = None
    #: Parts of the map that hardly reach play (`ttr_core.playtest.reach`).
    reach: tuple[ReachNote, ...] = ()
    #: Numbers that look like findings but are not decided (with the games needed).
    undecided: tuple[Undecided, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "findings": _plain(self.findings),
            "undecided": _plain(self.undecided),
            "reach": _plain(self.reach),
            "settings": self.settings.to_dict(),
            "games": self.games,
            "decisions": dict(self.decisions),
            "win_rate": self.win_rate.to_dict(),
            "scores": self.scores.to_dict(),
            "longest_path_bonus": self.longest_path_bonus.to_dict(),
            "tickets": self.tickets.to_dict(),
            "routes": _plain(self.routes),
            "connections": _plain(self.connections),
            "unclaimed_routes": list(self.unclaimed_routes),
            "cities": dict(self.cities),
            "turns": self.turns.to_dict(),
            "wagons_left": self.wagons_left.to_dict(),
            "end_reasons": dict(self.end_reasons),
            "stalls": self.stalls.to_dict(),
            "arc": _plain(self.arc),
            "screening": self.screening.to_dict(),
            "baseline": None if self.baseline is None else self.baseline.to_dict(),
        }
        if self.europe is not None:
            data["europe"] = self.europe.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BalanceReport:
        """The report `data` holds (`json.loads` of a report.json). Raises
        `ReportError` naming what is missing or of the wrong kind."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ReportError(f"not a {FORMAT}")
        if data.get("version") != VERSION:
            older = isinstance(data.get("version"), int) and data["version"] < VERSION
            raise ReportError(
                f"version {data.get('version')!r}, not {VERSION}"
                + (": written by an older ttr; simulate again" if older else "")
            )
        try:
            return cls(
                tuple(Finding.from_dict(f) for f in data["findings"]),
                Settings.from_dict(data["settings"]),
                data["games"],
                dict(data["decisions"]),
                WinRates.from_dict(data["win_rate"]),
                Scores.from_dict(data["scores"]),
                LongestPathBonus.from_dict(data["longest_path_bonus"]),
                Tickets.from_dict(data["tickets"]),
                tuple(RouteClaims.from_dict(r) for r in data["routes"]),
                tuple(ConnectionClaims.from_dict(c) for c in data["connections"]),
                tuple(data["unclaimed_routes"]),
                dict(data["cities"]),
                Distribution.from_dict(data["turns"]),
                Distribution.from_dict(data["wagons_left"]),
                dict(data["end_reasons"]),
                Stalls.from_dict(data["stalls"]),
                tuple(ArcPoint.from_dict(a) for a in data["arc"]),
                Screening.from_dict(data["screening"]),
                None if data["baseline"] is None else Baseline.from_dict(data["baseline"]),
                Europe.from_dict(data["europe"]) if "europe" in data else None,
                tuple(ReachNote.from_dict(n) for n in data["reach"]),
                tuple(_undecided(u) for u in data["undecided"]),
            )
        except ReportError:
            raise
        except KeyError as error:
            raise ReportError(f"no field {error}") from None
        except (TypeError, ValueError, AttributeError) as error:
            raise ReportError(f"a field of the wrong kind ({error})") from None


# ------------------------------------------------------------ report.json files

#: The largest report.json read (a report of a 10,000-city map is a few megabytes).
MAX_REPORT_BYTES = 200_000_000
#: Deepest nesting of arrays and objects in a report.json (a report needs 6).
MAX_REPORT_DEPTH = 20


def read_report(path: str | Path) -> BalanceReport:
    """The report a report.json holds, read like any input from anyone: through the
    guarded reader (a regular file of at most `MAX_REPORT_BYTES`: a FIFO or device
    is refused, never waited on), JSON nested at most `MAX_REPORT_DEPTH` deep with
    numbers of at most 30 characters, then checked against
    `schemas/balance-report.schema.json` before use. Raises `ReportError` saying
    why (the JSON path of the first field that breaks the schema), without the path.
    """
    from ttr_core.engine.record import RecordError, parse_json
    from ttr_maps.io.files import describe_os_error, read_regular_file

    try:
        text = read_regular_file(path, MAX_REPORT_BYTES).decode("utf-8")
    except OSError as error:
        raise ReportError(f"cannot read the report: {describe_os_error(error)}") from None
    except UnicodeDecodeError as error:
        raise ReportError(
            f"cannot read the report: not UTF-8 text ({error.reason} at byte {error.start})"
        ) from None
    try:
        data = parse_json(text, "the report", MAX_REPORT_DEPTH, kind="report.json")
    except RecordError as error:
        raise ReportError(f"cannot read the report: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReportError("not a report.json written by `ttr simulate`")
    if data.get("version") == VERSION:  # another version: from_dict says which
        problem = first_schema_problem(data)
        if problem:
            raise ReportError(f"not a valid report.json: {problem}")
    return BalanceReport.from_dict(data)


def first_schema_problem(data: Any) -> str | None:
    """The first way `data` breaks the balance-report schema, or None: the JSON
    path of the deepest field that breaks it and why (`$.games: -5 is less than
    the minimum of 0`)."""
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(data))
    if error is None:
        return None
    while error.context:  # "not valid under any of the given schemas": say which part
        error = best_match(error.context) or error.context[0]
    return f"{error.json_path}: {error.message}"


@cache
def _validator() -> Any:
    import json

    from jsonschema import Draft202012Validator

    from ttr_maps.io.bundled import schema_path

    schema = json.loads(schema_path("balance-report").read_text(encoding="utf-8"))
    return Draft202012Validator(schema)
