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

>>> from ttr_core.playtest.simulate import simulate
>>> from ttr_maps import load_map
>>> report = simulate(load_map("iran"), "iran", 2, 2, ["greedy", "random"], 1).report
>>> report.games, sorted(report.win_rate.by_bot), len(report.win_rate.by_seat)
(2, ['greedy', 'random'], 2)
>>> BalanceReport.from_dict(report.to_dict()) == report
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Self, TypeVar

FORMAT = "ttr-simulation-report"
VERSION = 1

#: How the report decides what it counts (written into every report).
DECISIONS = {
    "shared_wins": "each of k tied first places counts 1/k of a win "
    "(wins add up to games); outright_wins counts unshared first places",
    "seat_assignment": "seat s of game i is bots[(s + i) % len(bots)]",
    "game_seed": "game_seed(seed, i) = (seed * 1000033 + i * 7777 + 1) mod 2**62",
    "cities": "share of seat-games in which the seat claimed a route touching the city",
    "arc": "means over all games; a game that is over keeps its final values",
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
    Wilson interval of the rate."""

    games: int
    wins: float
    rate: float
    ci95: tuple[float, float]


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

    def to_dict(self) -> dict[str, Any]:
        return {**self.total.to_dict(), "parts": _plain(self.parts)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScoreDistribution:
        return cls(Distribution.from_dict(data), _by_name(Distribution.from_dict, data["parts"]))


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
    is None when none was held."""

    held: int
    completed: int
    rate: float | None


@dataclass(frozen=True)
class TicketCompletion(JsonRecord):
    """One ticket of the map: `ticket` is "A–B"."""

    ticket: str
    value: int
    held: int
    completed: int
    rate: float | None


@dataclass(frozen=True)
class Tickets(JsonRecord):
    by_bot: Mapping[str, TicketRate]
    #: In the map's ticket order.
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
    """One route segment of the map (a track of a double is one): the games in
    which it was claimed."""

    route: str
    length: int
    color: str
    claimed: int
    rate: float


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


# ---------------------------------------------------------------- findings


@dataclass(frozen=True)
class TurnOrderEvidence(JsonRecord):
    """`seat-advantage`: a place in the turn order (1 = the first player)."""

    turn_order: int
    rate: float
    ci95: tuple[float, float]
    fair_share: float


@dataclass(frozen=True)
class StallEvidence(JsonRecord):
    """`stalls`: the stalled games, and what had run out."""

    stalled: int
    games: int
    rate: float
    ci95: tuple[float, float]
    causes: Mapping[str, int]


@dataclass(frozen=True)
class StyleEvidence(JsonRecord):
    """`dominant-style`: a bot winning above the fair share."""

    bot: str
    rate: float
    ci95: tuple[float, float]
    fair_share: float


@dataclass(frozen=True)
class RouteFlag(JsonRecord):
    route: str
    rate: float
    ci95: tuple[float, float]


@dataclass(frozen=True)
class RoutesEvidence(JsonRecord):
    """`rarely-claimed-routes`, `always-claimed-routes`."""

    routes: tuple[RouteFlag, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoutesEvidence:
        return cls(tuple(RouteFlag.from_dict(r) for r in data["routes"]))


@dataclass(frozen=True)
class Fit(JsonRecord):
    """Completion rate against ticket value: intercept + slope × value."""

    intercept: float
    slope: float


@dataclass(frozen=True)
class TicketOutlier(JsonRecord):
    ticket: str
    value: int
    held: int
    rate: float
    expected: float
    ci95: tuple[float, float]
    z: float


@dataclass(frozen=True)
class TicketOutliersEvidence(JsonRecord):
    """`ticket-outliers`: the fit, and the tickets far from it (largest |z| first)."""

    fit: Fit
    tickets: tuple[TicketOutlier, ...]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TicketOutliersEvidence:
        tickets = tuple(TicketOutlier.from_dict(t) for t in data["tickets"])
        return cls(Fit.from_dict(data["fit"]), tickets)


@dataclass(frozen=True)
class BonusEvidence(JsonRecord):
    """`longest-path-concentrated`: one bot's share of the R16 bonuses."""

    bot: str
    bonuses: int
    total: int
    share: float
    ci95: tuple[float, float]
    seat_share: float


@dataclass(frozen=True)
class GameLengthEvidence(JsonRecord):
    """`game-length`: turns per player against the published boards' band."""

    turns_per_player: float
    ci95: tuple[float, float]
    published: tuple[float, float]


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

SEVERITIES = ("high", "medium", "low")


@dataclass(frozen=True)
class Finding(JsonRecord):
    """What a designer should look at: a stable `code`, a `severity` (SEVERITIES),
    a one-line `title`, the numbers behind it and what to try."""

    code: str
    severity: str
    title: str
    evidence: Evidence
    suggestion: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "title": self.title,
            "evidence": self.evidence.to_dict(),
            "suggestion": self.suggestion,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Finding:
        code = data["code"]
        if code not in EVIDENCE:
            raise ReportError(f"unknown finding code {code!r}")
        evidence = EVIDENCE[code].from_dict(data["evidence"])
        return cls(code, data["severity"], data["title"], evidence, data["suggestion"])


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
    #: In the map's route order.
    routes: tuple[RouteClaims, ...]
    unclaimed_routes: tuple[str, ...]
    #: Per city: the share of seat-games that claimed a route touching it.
    cities: Mapping[str, float]
    turns: Distribution
    wagons_left: Distribution
    #: Games per end reason, sorted by reason.
    end_reasons: Mapping[str, int]
    stalls: Stalls
    arc: tuple[ArcPoint, ...]
    #: With stations or tunnels in the rules (E1, E2) only.
    europe: Europe | None = None

    def to_dict(self) -> dict[str, Any]:
        data = {
            "format": FORMAT,
            "version": VERSION,
            "findings": _plain(self.findings),
            "settings": self.settings.to_dict(),
            "games": self.games,
            "decisions": dict(self.decisions),
            "win_rate": self.win_rate.to_dict(),
            "scores": self.scores.to_dict(),
            "longest_path_bonus": self.longest_path_bonus.to_dict(),
            "tickets": self.tickets.to_dict(),
            "routes": _plain(self.routes),
            "unclaimed_routes": list(self.unclaimed_routes),
            "cities": dict(self.cities),
            "turns": self.turns.to_dict(),
            "wagons_left": self.wagons_left.to_dict(),
            "end_reasons": dict(self.end_reasons),
            "stalls": self.stalls.to_dict(),
            "arc": _plain(self.arc),
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
            raise ReportError(f"version {data.get('version')!r}, not {VERSION}")
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
                tuple(data["unclaimed_routes"]),
                dict(data["cities"]),
                Distribution.from_dict(data["turns"]),
                Distribution.from_dict(data["wagons_left"]),
                dict(data["end_reasons"]),
                Stalls.from_dict(data["stalls"]),
                tuple(ArcPoint.from_dict(a) for a in data["arc"]),
                Europe.from_dict(data["europe"]) if "europe" in data else None,
            )
        except ReportError:
            raise
        except KeyError as error:
            raise ReportError(f"no field {error}") from None
        except (TypeError, ValueError, AttributeError) as error:
            raise ReportError(f"a field of the wrong kind ({error})") from None
