"""Rules as data: every number and switch of a rule set in one frozen value.

`BASE` is the base game (R1-R17); `EUROPE` adds stations (E1), tunnels (E2),
ferries (E3) and long tickets (E4). A map picks one with `rules:` and may change
documented fields in its `settings:` block; `ttr play` and `ttr simulate` accept
more changes with `--set FIELD=VALUE`. docs/rules.md lists the fields.

>>> BASE.wagons, EUROPE.stations
(45, 3)
>>> BASE.with_overrides({"wagons": "40"}).wagons
40
>>> BASE.route_score(4)
7
>>> BASE.with_overrides({"colour": "red"})
Traceback (most recent call last):
...
ttr_maps.rules.RuleSetError: unknown rule field 'colour'; fields: min_players, max_players, ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from functools import cache
from typing import Any

from ttr_maps.text import glimpse

#: The rule sets a map may name (`rules:`); their values are `RULE_SET_VALUES`.
RULE_SETS: tuple[str, ...] = ("base", "europe", "nordic")

#: R3: the eight card colours, in the order the engine indexes them.
CARD_COLORS: tuple[str, ...] = (
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "pink",
    "black",
    "white",
)
#: R3: 12 train cards of each colour and 14 locomotives (110 cards). Every rule set
#: plays with this deck.
CARDS_PER_COLOR = 12
LOCOMOTIVES = 14
DECK_SIZE = CARDS_PER_COLOR * len(CARD_COLORS) + LOCOMOTIVES

#: Bounds no variant may leave: five seat colours.
SEATS_MAX = 5
#: R11: the most parallel tracks two cities may have (Old West, Northern Lights and
#: Italy have triple routes).
MAX_PARALLEL_TRACKS = 3
#: How many face-up slots a variant may have.
MARKET_SIZE_MAX = 8
#: D2: the most market resets (R8) made one after another, whatever the cards: the
#: bound that makes the reset loop end in every state (docs/rules.md, D2).
MARKET_RESETS_IN_A_ROW = 100


#: Bounds on the counts a user gives on the command line, beside the ranges of the
#: rule-set fields (`field_ranges`): every accepted value finishes in hours at
#: most, and Ctrl-C stops it sooner. The bound is in the option's help and in
#: the message that refuses a value past it.
#: Games of one `ttr simulate` run, and of each table of `ttr ladder`
#: (a greedy game takes about 10 ms of CPU: a million is a few hours on 2 cores).
MAX_GAMES = 1_000_000
#: Playouts a move of the search bot (`--bots search:N`): about 25 s a move
#: (the default 200 take 0.25 s).
MAX_SEARCH_PLAYOUTS = 20_000
#: Wagon budgets one `ttr probe --sweep` solves (each budget is a MIP solve,
#: each from the documented range of `wagons`).
MAX_SWEEP_BUDGETS = 100
#: Random decks `ttr tickets analyse --samples` scores the deck among (each is a
#: full deck analysis: 300, the default, take a few seconds on a published map).
MAX_DECK_SAMPLES = 100_000
#: Regular tickets `ttr tickets suggest --count` proposes (published decks have
#: under 50; a deck size past the map's cities is refused by TTR352 anyway).
MAX_SUGGESTED_TICKETS = 1_000
#: Long tickets `ttr tickets suggest --long` proposes (a separate deck, E4; the
#: published one has 6): the same bound as the regular deck.
MAX_SUGGESTED_LONG_TICKETS = MAX_SUGGESTED_TICKETS
#: Local-search steps of `ttr tickets suggest --iterations` (about 0.3 ms a step
#: on a published map with 30 tickets: a million is about 5 minutes).
MAX_SUGGEST_ITERATIONS = 1_000_000
#: Seeds (`--seed`) are whole numbers of at most 19 digits, -MAX_SEED to MAX_SEED:
#: a record or report keeps the seed, and is read back with numbers of at most
#: 30 characters (`ttr_maps.io.limits.MAX_NUMBER_CHARS`).
MAX_SEED = 2**63 - 1


class RuleSetError(ValueError):
    """A rule set, or a change to one, that cannot be played; the message names the field."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every number and switch of the rules. Build variants with `with_overrides`."""

    #: The rule set the values start from: "base" or "europe" (the map's `rules`).
    name: str = "base"
    #: R1: players in a game.
    min_players: int = 2
    max_players: int = 5
    #: R4: wagons each player starts with (a map's `settings.wagons`).
    wagons: int = 45
    #: R4: train cards dealt to each player.
    starting_cards: int = 4
    #: R4: tickets offered to each player at setup, and kept at least.
    setup_tickets: int = 3
    setup_keep: int = 2
    #: R12: tickets drawn during the game, and kept at least.
    tickets_drawn: int = 3
    tickets_keep: int = 1
    #: R7: face-up cards; R8: face-up locomotives that reset the market.
    market_size: int = 5
    market_locomotive_limit: int = 3
    #: R14: the final round begins when a player ends a turn with this many wagons or fewer.
    final_round_wagons: int = 2
    #: R10: points for a route of length 1, 2, ..., 8.
    route_points: tuple[int, ...] = (1, 2, 4, 7, 10, 15, 18, 21)
    #: R11: with fewer players than this, taking one track of a double route closes the other.
    double_routes_from: int = 4
    #: R16: bonus for the longest continuous path (0: no bonus).
    longest_path_bonus: int = 10
    #: E1: stations per player, the cost of the 1st, 2nd, ... station (the last cost
    #: repeats), and the points for each station not built.
    stations: int = 0
    station_costs: tuple[int, ...] = (1, 2, 3)
    station_points: int = 4
    #: E2: tunnels ask for extra cards, after turning up this many.
    tunnels: bool = False
    tunnel_reveal: int = 3
    #: E3: ferries need their locomotives.
    ferries: bool = False
    #: E4: long tickets form a deck of their own; this many are dealt at setup.
    long_tickets: bool = False
    setup_long_tickets: int = 1
    #: R7: a face-up locomotive is a whole draw (taken first it ends the turn; never
    #: the second card). P1: false on Nordic Countries and Switzerland.
    face_up_locomotive_ends_draw: bool = True
    #: R9: locomotives pay any route. P2: false: only tunnels and ferries.
    plain_route_locomotives: bool = True
    #: R4, R12: tickets not kept go under the ticket deck. P3: true: they leave the
    #: game instead (at setup, and for tickets drawn during the game).
    setup_returns_leave: bool = False
    drawn_returns_leave: bool = False
    #: P4: the Globetrotter bonus: points for the most completed tickets (0: none).
    most_tickets_bonus: int = 0
    #: P5: the Grand Tour bonus (India's mandala): the points for 1, 2, ... tickets
    #: whose cities two of the seat's paths join without sharing a route (the last
    #: number for that many or more; empty: none).
    grand_tour_points: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        problem = self._problem()
        if problem:
            raise RuleSetError(problem)

    def _problem(self) -> str | None:
        if self.name not in RULE_SETS:
            return f"unknown rule set {self.name!r}; known: {', '.join(RULE_SETS)}"
        for f in fields(self):
            problem = _out_of_range(f.name, getattr(self, f.name))
            if problem:
                return problem
        # Each field is in its range; what is left are the fields that must fit together.
        if self.min_players > self.max_players:
            return f"min_players ({self.min_players}) is more than max_players ({self.max_players})"
        if self.max_players * self.starting_cards + self.market_size > DECK_SIZE // 2:
            return (
                f"starting_cards: {self.max_players} hands (max_players) of "
                f"{self.starting_cards} and a market_size of {self.market_size} need more "
                f"than half the {DECK_SIZE} cards"
            )
        offered = self.setup_tickets + self.setup_long_tickets * self.long_tickets
        if self.setup_keep > offered:
            return (
                f"setup_keep ({self.setup_keep}) is more than the tickets offered at setup "
                f"({offered}: setup_tickets, plus setup_long_tickets with long_tickets)"
            )
        if self.tickets_keep > self.tickets_drawn:
            return (
                f"tickets_keep ({self.tickets_keep}) is more than tickets_drawn "
                f"({self.tickets_drawn})"
            )
        return None

    # ----------------------------------------------------------------- queries
    def route_score(self, length: int) -> int:
        """R10: points for claiming a route of `length`."""
        return self.route_points[length - 1]

    @property
    def longest_scored_route(self) -> int:
        """R10: the longest route `route_points` scores (8 in the base game).

        >>> nordic = BASE.with_overrides({"route_points": "1,2,4,7,10,15,18,21,27"})
        >>> BASE.longest_scored_route, nordic.longest_scored_route
        (8, 9)
        """
        return len(self.route_points)

    def player_counts(self) -> range:
        """R1: the player counts a game may have.

        >>> list(BASE.player_counts())
        [2, 3, 4, 5]
        """
        return range(self.min_players, self.max_players + 1)

    def is_single_track(self, players: int) -> bool:
        """R11: whether taking one track of a double route closes the other."""
        return players < self.double_routes_from

    def single_track_counts(self) -> range:
        """R11: the player counts at which a double route gives one track.

        >>> list(BASE.single_track_counts())
        [2, 3]
        >>> list(BASE.with_overrides({"double_routes_from": 2}).single_track_counts())
        []
        """
        last = min(self.double_routes_from, self.max_players + 1)
        return range(self.min_players, max(self.min_players, last))

    def station_cost(self, stations_left: int) -> int:
        """E1: cards the next station costs when `stations_left` remain."""
        built = self.stations - stations_left
        return self.station_costs[min(built, len(self.station_costs) - 1)]

    # --------------------------------------------------------------- variants
    def with_overrides(self, changes: Mapping[str, Any]) -> RuleSet:
        """A copy with `changes` (field name -> value, or its text as on the command
        line). Raises `RuleSetError` naming the field and the allowed fields."""
        if not changes:
            return self
        values = {name: _convert(name, value) for name, value in changes.items()}
        return replace(self, **values)

    def changes_from(self, other: RuleSet) -> list[str]:
        """The `--set FIELD=VALUE` texts that turn `other` into this rule set.

        >>> BASE.with_overrides({"wagons": 30}).changes_from(BASE)
        ['wagons=30']
        """
        mine, theirs = self.to_dict(), other.to_dict()
        return [
            f"{name}={_text(value)}"
            for name, value in mine.items()
            if name != "name" and value != theirs[name]
        ]

    def to_dict(self) -> dict[str, Any]:
        """Every field, as JSON values (tuples as lists), in field order."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """The rule set a record stored: the named set, with the stored fields
        (fields a record does not hold keep the named set's values)."""
        if not isinstance(data, Mapping):
            raise RuleSetError("a rule set must be an object of fields")
        base = named(str(data.get("name", "base")))
        return base.with_overrides({k: v for k, v in data.items() if k != "name"})


@cache
def _map_schema() -> dict[str, Any]:
    import json

    from ttr_maps.io.bundled import schema_path

    return json.loads(schema_path("map").read_text(encoding="utf-8"))


def _range_of(spec: Mapping[str, Any]) -> FieldRange:
    items = spec.get("items", spec)
    return FieldRange(
        spec["type"],
        items.get("minimum"),
        items.get("maximum"),
        spec.get("minItems"),
        spec.get("maxItems"),
    )


@cache
def field_ranges() -> dict[str, FieldRange]:
    """The documented range of every field (docs/rules.md, Rule-set fields): the map
    schema's `settings`, the one table of them, so a map's settings, `--set`,
    a record's rule set, the editor and the web table accept the same values."""
    settings = _map_schema()["properties"]["settings"]["properties"]
    return {name: _range_of(spec) for name, spec in settings.items()}


@cache
def route_lengths() -> FieldRange:
    """R9: the lengths a route may have, as the map schema gives them (R10 scores
    each: `route_points` has one entry per length up to the maximum).

    >>> route_lengths().minimum, route_lengths().maximum
    (1, 10)
    """
    return _range_of(_map_schema()["$defs"]["route"]["properties"]["length"])


@dataclass(frozen=True, slots=True)
class FieldRange:
    """The range of one field: its type ("integer", "boolean", "array" of
    integers), the bounds of each number, and of an array's length."""

    kind: str
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    max_items: int | None = None

    def describe(self) -> str:
        numbers = f"{self.minimum} to {self.maximum}"
        if self.kind == "array":
            count = (
                f"{self.min_items}"
                if self.min_items == self.max_items
                else f"{self.min_items} to {self.max_items}"
            )
            return f"{count} numbers, each {numbers}"
        return "true or false" if self.kind == "boolean" else numbers


def _out_of_range(name: str, value: Any) -> str | None:
    """What is wrong with `value` for field `name`, or None when it is in range."""
    allowed = field_ranges().get(name)
    if allowed is None:
        return None
    shown = glimpse(_text(value) if isinstance(value, bool | int | tuple | list) else repr(value))
    if allowed.kind == "boolean":
        return None if isinstance(value, bool) else f"{name} must be true or false, not {shown}"
    numbers = list(value) if allowed.kind == "array" and isinstance(value, tuple) else [value]
    if allowed.kind == "array" and not (
        isinstance(value, tuple) and allowed.min_items <= len(value) <= allowed.max_items
    ):
        return f"{name} must be {allowed.describe()}, not {shown}"
    for number in numbers:
        if isinstance(number, bool) or not isinstance(number, int):
            return f"{name} must be {allowed.describe()}, not {shown}"
        if not allowed.minimum <= number <= allowed.maximum:
            return f"{name} must be {allowed.describe()}, not {shown}"
    return None


def _text(value: Any) -> str:
    """A field's value as `--set` reads it back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ",".join(str(item) for item in value)
    return str(value)


def _field_types() -> dict[str, type]:
    return {f.name: type(getattr(BASE, f.name)) for f in fields(RuleSet) if f.name != "name"}


def _convert(name: str, value: Any) -> Any:
    """`value` (a value or its text) as the type of field `name`."""
    types = _field_types()
    if name not in types:
        raise RuleSetError(f"unknown rule field {name!r}; fields: {', '.join(types)}")
    kind = types[name]
    try:
        if kind is bool:
            return _as_bool(value)
        if kind is tuple:
            items = value.split(",") if isinstance(value, str) else value
            return tuple(_as_int(item) for item in items)
        return _as_int(value)
    except (TypeError, ValueError) as error:
        expected = {bool: "true or false", tuple: "numbers separated by commas"}.get(
            kind, "a whole number"
        )
        shown = glimpse(repr(value))
        raise RuleSetError(f"{name}: {shown} is not {expected} ({error})") from None


def _as_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("a switch is not a number")
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if not text.isascii() or not text.lstrip("-").isdigit():
        raise ValueError("write ASCII digits")
    return int(text)


def _as_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text == "true":
        return True
    if text == "false":
        return False
    raise ValueError("write true or false")


def parse_overrides(assignments: Iterable[str]) -> dict[str, Any]:
    """`["wagons=40", "longest_path_bonus=0"]` as a dict of checked values.
    Raises `RuleSetError` naming the bad assignment or field."""
    changes: dict[str, Any] = {}
    for text in assignments:
        name, sep, value = text.partition("=")
        name = name.strip()
        if not sep or not name:
            raise RuleSetError(f"{text!r}: write FIELD=VALUE, e.g. wagons=40")
        if name == "name":
            raise RuleSetError("name: the rule set is the map's `rules`; change its fields")
        changes[name] = _convert(name, value)
    return changes


BASE = RuleSet()
EUROPE = RuleSet(name="europe", stations=3, tunnels=True, ferries=True, long_tickets=True)
#: Nordic Countries (and Switzerland, which set its locomotive rules first): 2-3
#: players, tunnels and ferries without stations or long tickets, P1-P4.
NORDIC = RuleSet(
    name="nordic",
    wagons=40,
    max_players=3,
    double_routes_from=3,
    setup_tickets=5,
    longest_path_bonus=0,
    tunnels=True,
    ferries=True,
    face_up_locomotive_ends_draw=False,
    plain_route_locomotives=False,
    setup_returns_leave=True,
    drawn_returns_leave=True,
    most_tickets_bonus=10,
)
RULE_SET_VALUES: dict[str, RuleSet] = {"base": BASE, "europe": EUROPE, "nordic": NORDIC}


def named(name: str) -> RuleSet:
    """The rule set called `name` ("base", "europe" or "nordic")."""
    if name not in RULE_SET_VALUES:
        raise RuleSetError(f"unknown rule set {name!r}; known: {', '.join(RULE_SETS)}")
    return RULE_SET_VALUES[name]


def rules_for(game_map: Any, rules: str | RuleSet | None = None) -> RuleSet:
    """The rules a game on `game_map` is played with: `rules` itself when it is a
    `RuleSet`; else the named set (default: the map's `rules`) with the map's
    `settings` applied."""
    if isinstance(rules, RuleSet):
        return rules
    chosen = named(rules or game_map.rules)
    settings = dict(getattr(game_map, "settings", None) or {})
    settings.setdefault("wagons", game_map.wagons)
    try:
        return chosen.with_overrides(settings)
    except RuleSetError as error:
        raise RuleSetError(f"settings of map {game_map.id!r}: {error}") from None


def misfit(rule_set: RuleSet, game_map: Any) -> str | None:
    """Why `rule_set` cannot play `game_map`, or None: R10 needs points for its
    longest route (a `--set route_points=...` of 8 numbers on Nordic Countries).

    >>> from ttr_maps import load_map
    >>> print(misfit(BASE, load_map("nordic_countries")))
    R10: route_points score routes up to 8 but this map has a route of 9: give ...
    """
    longest = max((route.length for route in game_map.routes), default=0)
    if longest > rule_set.longest_scored_route:
        return (
            f"R10: route_points score routes up to {rule_set.longest_scored_route} "
            f"but this map has a route of {longest}: give route_points {longest} numbers"
        )
    return None


def map_rules(game_map: Any) -> RuleSet:
    """The rules that a map's checks, analyses and printouts read: `rules_for(game_map)`.

    A map whose settings do not make a playable rule set (`setup_keep` above
    `setup_tickets`, say) cannot be played: `rules_for` raises, and so does the
    engine. Its reports still say what they can, from the named set with the
    map's wagons.
    """
    try:
        return rules_for(game_map)
    except RuleSetError:
        return named(game_map.rules).with_overrides({"wagons": game_map.wagons})
