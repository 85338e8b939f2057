"""Ticket decks: the deck number (the share of held tickets players complete,
predicted per table size), value profile, coverage, a model of crowding per table
size (who wants which connection: its ranking and the deck number's crowding term;
no count of play, which `ttr_core.playtest.crowding` makes), fragility, structural
parts, random decks to set a deck among, and suggested decks.

Every measure works on a `TicketBoard`: the map's connections (a pair of
neighbouring cities, whatever its number of tracks), all-pairs wagon distances
(R2) and, for each city pair asked about, its `PATHS_PER_TICKET` cheapest paths
with weights. A ticket *uses* a connection with the total weight of the paths
through it, so a ticket with two equally cheap paths uses each half.

The numbers below are the model's assumptions; docs/tickets.md explains them.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING

from ttr_maps.model import Map, Ticket
from ttr_maps.rules import RuleSet, map_rules

if TYPE_CHECKING:
    import numpy as np

#: Paths per ticket that share its usage, and how fast a dearer path loses weight:
#: a path `PATH_TEMPERATURE` wagons dearer than the cheapest weighs e⁻¹ as much.
PATHS_PER_TICKET = 4
PATH_TEMPERATURE = 2.0
#: A second path is "cheap" when it costs at most this much more than the cheapest.
CHEAP_PATH_SLACK_SHARE = 0.25
CHEAP_PATH_SLACK_MIN = 2
#: Crowding's hand: after the setup tickets (R4) a player goes on drawing tickets
#: (R12) while they have wagons to spend on them, so a typical hand holds as many
#: tickets as take this share of the R4 wagon supply along their paths (the rest
#: goes on detours and route points). Fitted to greedy play on the published
#: boards (where the tickets held at the end take 0.62-0.74 of the wagons) and
#: checked on maps it was not fitted to: docs/tickets.md, "Crowding per table size".
HAND_WAGON_SHARE = 0.72
#: Two tickets share most of their path when the wagons they expect to share are at
#: least this share of the longer ticket's value (near-duplicates).
OVERLAP_SHARE = 0.6
#: Pairs at least this share of the map's diameter apart may be long tickets (E4);
#: Europe's published long tickets are 20–21 on a diameter of 29.
LONG_SHARE = 0.65
#: The resemblance to a published profile is the distance of the values
#: (Wasserstein, in diameters) over this: 0 the same values, 1 a distance of 0.15
#: of the diameter (a value 3 or 4 off on average on North America).
VALUE_SCALE = 0.15
#: The spread of a deck's values is the span between its 5th and 95th percentile
#: values, in diameters; the published decks span at least this much (Europe:
#: 5-20 on a diameter of 29, North America 5.5-20 on 23), and a deck spanning
#: less than that scores `value_spread` 1 - span / VALUE_SPAN.
VALUE_SPAN_QUANTILES = (0.05, 0.95)


@dataclass(frozen=True)
class CompletionModel:
    """The deck number's model: the share of held tickets greedy players complete
    at a table size is 1 / (1 + e^-z), with z = `intercept` + `value` × (the deck's
    mean ticket value / the wagon supply, R2 and R4) + `crowding` × (crowding's
    excess share at that table size: wanted wagons no free track serves) + `load` ×
    (wagons in play / claimable spaces at that table size, R11: how full the board
    gets). Fitted by least squares on the logit of completion, deck by deck
    (benchmarks/calibration_bench.py, section `deck`; docs/tickets.md)."""

    intercept: float
    value: float
    crowding: float
    load: float

    def completion(self, mean_value_share: float, excess_share: float, load: float) -> float:
        z = (
            self.intercept
            + self.value * mean_value_share
            + self.crowding * excess_share
            + self.load * load
        )
        return 1.0 / (1.0 + math.exp(-z))


#: Fitted to ten decks each on North America, Europe, Iran and the `new_nordic`
#: test map (a map made by `ttr new` of Nordic cities), 300 greedy games a deck at
#: 2 and 4 players and 200 at 3 and 5; checked on maps it was not fitted to
#: (docs/tickets.md, The deck number).
COMPLETION_MODEL = CompletionModel(7.48, -8.625, -4.302, -3.002)
#: The table size the deck number is quoted at (or the map's largest, if smaller).
REFERENCE_PLAYERS = 4

#: Weights of the score's structural parts (each part lies in 0..1); they sum to
#: 1 and the score is 100 × the weighted sum, plus `DUPLICATE_PENALTY` per repeated
#: pair. The resemblance to a published value profile is not a part: it is a
#: number of its own (`DeckScore.resemblance`). docs/tickets.md says how the score
#: relates to play (benchmarks/calibration_bench.py).
SCORE_WEIGHTS: Mapping[str, float] = {
    "coverage": 0.20,
    "uncovered": 0.15,
    "regions": 0.15,
    "crowding": 0.15,
    "single_path": 0.10,
    "overlap": 0.10,
    "value_spread": 0.15,
}
#: How much a suggestion weighs the resemblance to its profile against the
#: structural parts (as 0.35 of a part worth 100).
RESEMBLANCE_WEIGHT = 0.35
#: The random decks that set a deck's score scored at most: no more than this many
#: tickets in all (300 decks of Europe's 46 tickets are 13,800), and never fewer
#: than `MIN_RANDOM_DECKS` decks (`calibration_samples`).
RANDOM_TICKETS = 15_000
MIN_RANDOM_DECKS = 30
#: A repeated city pair costs as much as every other part together can, so adding
#: a duplicate never improves a deck.
DUPLICATE_PENALTY = 100.0


@dataclass(frozen=True)
class PublishedDeck:
    """A published deck's values, and the diameter of its map, as the reference
    profile (relative value = value / diameter)."""

    key: str
    name: str
    diameter: int
    regular: tuple[int, ...]
    long: tuple[int, ...] = ()


#: The bundled published decks (maps/north_america.yaml, maps/europe.yaml; a test
#: keeps these in step with the files). Values are the R2 distances.
PUBLISHED_DECKS: tuple[PublishedDeck, ...] = (
    PublishedDeck(
        "north_america",
        "North America",
        23,
        (12, 13, 7, 7, 9, 11, 4, 11, 10, 8, 8, 5, 15, 19, 20,
         9, 13, 6, 17, 11, 17, 8, 8, 9, 20, 10, 20, 13, 12, 11),
    ),
    PublishedDeck(
        "europe",
        "Europe",
        29,
        (7, 12, 10, 5, 11, 8, 8, 8, 12, 9, 7, 8, 9, 5, 7, 10, 5, 13, 6, 8,
         7, 9, 8, 8, 8, 8, 8, 7, 10, 8, 5, 8, 8, 5, 11, 10, 6, 6, 6, 6),
        (20, 21, 20, 21, 20, 20),
    ),
)  # fmt: skip


class DeckError(ValueError):
    """A deck cannot be analysed or suggested as asked (the message says why)."""


# ---------------------------------------------------------------- the board


@dataclass(frozen=True)
class Connection:
    """A pair of neighbouring cities and its tracks (R11: a double has two)."""

    index: int
    a: str
    b: str
    length: int
    route_ids: tuple[str, ...]

    @property
    def tracks(self) -> int:
        return len(self.route_ids)

    def capacity(self, players: int, rules: RuleSet) -> int:
        """R11: with 2 or 3 players (below `double_routes_from`) only one track of
        a double may be claimed."""
        return 1 if rules.is_single_track(players) else self.tracks

    def __str__(self) -> str:
        return f"{self.a}–{self.b}"


@dataclass(frozen=True)
class TicketPaths:
    """The cheapest paths of one city pair and what the pair uses of the board."""

    a: str
    b: str
    costs: tuple[int, ...]
    paths: tuple[tuple[str, ...], ...]
    #: The connections the paths go through (indices) and the weight (0..1) of the
    #: paths through each: kept sparse, as a big map has thousands of connections
    #: and a ticket uses a few dozen.
    used: np.ndarray
    weights: np.ndarray
    #: The board's number of connections.
    size: int

    @property
    def usage(self) -> np.ndarray:
        """Connection index -> weight (0..1) of the paths through it."""
        import numpy as np

        dense = np.zeros(self.size)
        dense[self.used] = self.weights
        return dense

    @property
    def value(self) -> int:
        """R2: the shortest distance."""
        return self.costs[0]

    @property
    def cheap_alternative(self) -> int | None:
        """The cost of the second cheapest path if it is cheap, else None."""
        slack = max(CHEAP_PATH_SLACK_MIN, CHEAP_PATH_SLACK_SHARE * self.value)
        if len(self.costs) > 1 and self.costs[1] <= self.value + slack:
            return self.costs[1]
        return None


class TicketBoard:
    """What the ticket measures need to know about a map, computed once, with the
    rules of its rule set (`ttr_maps.rules.map_rules`)."""

    def __init__(self, game_map: Map):
        from ttr_maps.graph import wagon_distances_from, wagon_graph
        from ttr_maps.io.limits import MAX_TICKET_CITIES

        if len(game_map.cities) > MAX_TICKET_CITIES:
            raise DeckError(
                f"the map has {len(game_map.cities):,} cities; the ticket analysis works on "
                f"at most {MAX_TICKET_CITIES:,} (it keeps the distance of every pair of "
                "cities; docs/tickets.md, Big maps)"
            )
        self.map = game_map
        self.rules = map_rules(game_map)
        self.graph = wagon_graph(game_map)
        self.connections: tuple[Connection, ...] = tuple(
            Connection(i, *sorted((a, b)), int(data["weight"]), tuple(data["routes"]))
            for i, (a, b, data) in enumerate(sorted(self.graph.edges(data=True)))
        )
        self.connection_index = {frozenset((c.a, c.b)): c.index for c in self.connections}
        cities = [c.name for c in game_map.cities]
        self.distance = wagon_distances_from(game_map, cities)
        self.diameter = max((max(d.values()) for d in self.distance.values()), default=0)
        self._paths: dict[tuple[str, str], TicketPaths] = {}
        self._capacity: dict[int, np.ndarray] = {}
        self._design_codes: dict[tuple[str, str], tuple[str, ...]] = {}
        self._adjacency: dict[str, dict[str, int]] | None = None

    @cached_property
    def lengths(self) -> np.ndarray:
        import numpy as np

        return np.array([c.length for c in self.connections], dtype=float)

    def capacity(self, players: int) -> np.ndarray:
        """Every connection's capacity at a table size (R11)."""
        import numpy as np

        found = self._capacity.get(players)
        if found is None:
            found = np.array(
                [c.capacity(players, self.rules) for c in self.connections], dtype=float
            )
            self._capacity[players] = found
        return found

    @cached_property
    def degree(self) -> dict[str, int]:
        """Neighbouring cities of every city."""
        return {city: self.graph.degree(city) for city in self.graph.nodes}

    @cached_property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """Every pair of distinct cities joined by routes, sorted."""
        names = sorted(self.distance)
        return tuple(
            (a, b) for i, a in enumerate(names) for b in names[i + 1 :] if b in self.distance[a]
        )

    def design_codes(self, a: str, b: str) -> tuple[str, ...]:
        """The warnings `ttr validate` would give a ticket between `a` and `b`
        (TTR353, TTR354), cached."""
        key = (a, b) if a <= b else (b, a)
        found = self._design_codes.get(key)
        if found is None:
            from ttr_maps.checks.design import ticket_design_codes
            from ttr_maps.graph import wagon_adjacency

            if self._adjacency is None:
                self._adjacency = wagon_adjacency(self.map)
            distance = self.distance[a][b]
            ticket = Ticket(a, b, distance)
            found = self._design_codes[key] = ticket_design_codes(
                self.map, self._adjacency, ticket, distance
            )
        return found

    @property
    def long_threshold(self) -> int:
        """The least distance of a long ticket (E4) on this map."""
        return math.ceil(LONG_SHARE * self.diameter)

    @cached_property
    def long_pairs(self) -> tuple[tuple[str, str], ...]:
        """The city pairs far enough apart for a long ticket (E4)."""
        threshold = self.long_threshold
        return tuple((a, b) for a, b in self.pairs if self.distance[a][b] >= threshold)

    @cached_property
    def regions(self) -> dict[str, int]:
        """City -> region number: `region_count` geographic clusters (Ward)."""
        from scipy.cluster.hierarchy import fcluster, linkage

        from ttr_maps.geometry.projection import projected_positions

        positions = projected_positions(self.map)
        names = [c.name for c in self.map.cities]
        if len(names) < 2:
            return dict.fromkeys(names, 0)
        tree = linkage([positions[n] for n in names], method="ward")
        labels = fcluster(tree, t=self.region_count, criterion="maxclust")
        # Number regions from west to east by their centre, so names are stable.
        members: dict[int, list[float]] = {}
        for name, label in zip(names, labels, strict=True):
            members.setdefault(int(label), []).append(positions[name][0])
        centres = {label: sum(xs) / len(xs) for label, xs in members.items()}
        order = {label: i for i, label in enumerate(sorted(centres, key=centres.__getitem__))}
        return {n: order[lab] for n, lab in zip(names, labels, strict=True)}

    @property
    def region_count(self) -> int:
        return min(4, max(1, len(self.map.cities) // 8))

    @cached_property
    def region_names(self) -> tuple[str, ...]:
        """Each region named after its best-connected city."""
        best: dict[int, str] = {}
        for city, region in sorted(self.regions.items()):
            if region not in best or self.degree.get(city, 0) > self.degree.get(best[region], 0):
                best[region] = city
        return tuple(f"{best[r]} region" for r in sorted(best))

    def paths(self, a: str, b: str) -> TicketPaths:
        """The cheapest paths between two cities (cached); DeckError if none."""
        key = (a, b) if a <= b else (b, a)
        found = self._paths.get(key)
        if found is None:
            found = self._paths[key] = self._compute_paths(*key)
        return found

    def _compute_paths(self, a: str, b: str) -> TicketPaths:
        import numpy as np

        from ttr_maps.graph import k_cheapest_paths

        found = k_cheapest_paths(self.graph, a, b, PATHS_PER_TICKET, self.distance.get(b))
        if not found:
            raise DeckError(f"no path between {a} and {b}")
        cheapest = found[0][0]
        weights = [math.exp(-(cost - cheapest) / PATH_TEMPERATURE) for cost, _ in found]
        usage = np.zeros(len(self.connections))
        for weight, (_, path) in zip(weights, found, strict=True):
            for x, y in itertools.pairwise(path):
                usage[self.connection_index[frozenset((x, y))]] += weight / sum(weights)
        used = np.flatnonzero(usage)
        return TicketPaths(
            a,
            b,
            tuple(c for c, _ in found),
            tuple(tuple(p) for _, p in found),
            used,
            usage[used],
            len(usage),
        )


# ---------------------------------------------------------------- the measures


@dataclass(frozen=True)
class RouteDemand:
    """Expected players wanting a connection at one table size, against its
    tracks, and the expected number of them left without a track:
    `excess` = E[max(0, D − capacity)] for D players wanting it (D binomial)."""

    connection: Connection
    demand: float
    capacity: int
    excess: float


@dataclass(frozen=True)
class CityDemand:
    """The demand, tracks and excess of every connection at a city, summed."""

    city: str
    demand: float
    capacity: int
    excess: float


@dataclass(frozen=True)
class Crowding:
    """The model of crowding at one table size: every connection's expected demand
    (players wanting it) against its R11 capacity; `excess`, the expected players
    left without a track of it; `blocked_per_game`, their sum over the connections;
    and `excess_share`, the share of wanted wagons that no free track can serve (0 =
    none). Its ranking of connections follows play; its counts are 16-59 % below
    play on maps it was not fitted to, so no output shows them as a count (what a
    designer reads is `PlayedDeck`'s): `blocked_per_game` is for the calibration
    benchmark, `excess_share` the deck number's crowding term."""

    players: int
    #: Tickets a player holds in the model (`typical_hands`).
    hand: float
    connections: tuple[Connection, ...]
    demand: tuple[float, ...]
    #: Every connection's R11 capacity at this table size.
    capacity: tuple[int, ...]
    excess: tuple[float, ...]
    excess_share: float

    @property
    def blocked_per_game(self) -> float:
        return sum(self.excess)

    def routes(self) -> list[RouteDemand]:
        """Every connection, most over-demanded first."""
        rows = [
            RouteDemand(c, d, capacity, e)
            for c, d, capacity, e in zip(
                self.connections, self.demand, self.capacity, self.excess, strict=True
            )
        ]
        return sorted(rows, key=lambda r: (-r.excess, -r.demand, str(r.connection)))

    def cities(self) -> list[CityDemand]:
        """Every city with its connections' demand summed, most over-demanded first."""
        totals: dict[str, list[float]] = {}
        for r in self.routes():
            for city in (r.connection.a, r.connection.b):
                row = totals.setdefault(city, [0.0, 0.0, 0.0])
                row[0] += r.demand
                row[1] += r.capacity
                row[2] += r.excess
        rows = [CityDemand(city, d, int(c), e) for city, (d, c, e) in totals.items()]
        return sorted(rows, key=lambda r: (-r.excess, -r.demand, r.city))


@dataclass(frozen=True)
class PlayedDeck:
    """The deck and its board at one table size, counted in play
    (`ttr_core.playtest.crowding`, `ttr tickets --games N`): over `games` games of
    `bots`, the share of held tickets completed (with its 95 % interval, clustered
    by game), and the connections a game took from players who needed them, per
    game (95 % interval) and per connection (indices of `TicketBoard.connections`).
    What `ttr tickets` reports for crowding instead of the model's
    `Crowding.blocked_per_game`, which misses on maps it was not fitted to."""

    players: int
    games: int
    bots: tuple[str, ...]
    completion: float
    completion_ci95: tuple[float, float]
    blocked_per_game: float
    blocked_ci95: tuple[float, float]
    blocked: tuple[float, ...]

    def routes(self, board: TicketBoard) -> list[tuple[Connection, float]]:
        """The connections taken in play, most often first."""
        rows = [(c, b) for c, b in zip(board.connections, self.blocked, strict=True) if b > 0]
        return sorted(rows, key=lambda row: (-row[1], str(row[0])))


@dataclass(frozen=True)
class OverlappingPair:
    first: Ticket
    second: Ticket
    share: float


@dataclass(frozen=True)
class DeckScore:
    """The deck score (lower is better) and its structural parts (each 0..1,
    duplicates a count); apart, the deck's `resemblance` to a published value
    profile (`profile`: 0 = its values exactly, 1 = far), which is not in the
    score: a published deck would win it by construction. `resemblance` is not
    capped: 2 is twice as far as 1."""

    parts: Mapping[str, float]
    duplicates: int
    resemblance: float = 0.0
    profile: str = ""

    @property
    def total(self) -> float:
        weighted = sum(SCORE_WEIGHTS[name] * value for name, value in self.parts.items())
        return 100.0 * weighted + DUPLICATE_PENALTY * self.duplicates

    @property
    def with_resemblance(self) -> float:
        """What a suggestion minimises: the score plus the resemblance, weighted."""
        return self.total + 100.0 * RESEMBLANCE_WEIGHT * self.resemblance


@dataclass(frozen=True)
class DeckMeasures:
    """Everything measured of one deck on one board: the deck number
    (`completion`, per table size) and the structure it comes with."""

    tickets: tuple[Ticket, ...]
    city_tickets: Mapping[str, int]
    region_pairs: Mapping[tuple[int, int], int]
    crowding: tuple[Crowding, ...]
    single_path: tuple[Ticket, ...]
    overlapping: tuple[OverlappingPair, ...]
    score: DeckScore
    #: The deck number per table size: the share of held tickets greedy players
    #: complete, as `COMPLETION_MODEL` predicts it.
    completion: Mapping[int, float]

    @property
    def deck_number(self) -> float:
        """The deck number at `REFERENCE_PLAYERS` (or the largest table size)."""
        sizes = sorted(self.completion)
        size = REFERENCE_PLAYERS if REFERENCE_PLAYERS in self.completion else sizes[-1]
        return self.completion[size]

    @property
    def reference_players(self) -> int:
        sizes = sorted(self.completion)
        return REFERENCE_PLAYERS if REFERENCE_PLAYERS in self.completion else sizes[-1]


def wasserstein(values: Sequence[float], reference: Sequence[float]) -> float:
    """The 1-D earth mover's distance between two samples (0 if either is empty)."""
    if not values or not reference:
        return 0.0
    from scipy.stats import wasserstein_distance

    return float(wasserstein_distance(values, reference))


def reference_profile(long: bool, profile: str | None = None) -> list[tuple[str, list[float]]]:
    """The published decks' relative values (value / diameter), one list per deck;
    only the deck whose key is `profile` if given."""
    return [
        (deck.name, [v / deck.diameter for v in (deck.long if long else deck.regular)])
        for deck in PUBLISHED_DECKS
        if (deck.long if long else deck.regular) and profile in (None, deck.key)
    ]


def value_distance(
    board: TicketBoard, tickets: Sequence[Ticket], profile: str | None = None
) -> float:
    """How far the deck's relative values are from the nearest published profile
    (or the one named `profile`), regular and long tickets apart and weighted by
    their counts, in diameters."""
    total, count = 0.0, 0
    for long in (False, True):
        values = [t.value / board.diameter for t in tickets if t.long == long]
        profiles = (
            reference_profile(long, profile)
            or reference_profile(long)
            or reference_profile(False, profile)
        )
        if values:
            total += len(values) * min(wasserstein(values, ref) for _, ref in profiles)
            count += len(values)
    return total / count if count else 0.0


def value_span(values: Sequence[float]) -> float:
    """The span between the VALUE_SPAN_QUANTILES of some (relative) values."""
    import numpy as np

    if not values:
        return 0.0
    low, high = np.quantile(values, VALUE_SPAN_QUANTILES)
    return float(high - low)


def published_value_span() -> float:
    """The least span of the published decks' relative values (VALUE_SPAN_QUANTILES)."""
    return min(value_span([v / d.diameter for v in (*d.regular, *d.long)]) for d in PUBLISHED_DECKS)


def value_spread(board: TicketBoard, tickets: Sequence[Ticket]) -> float:
    """0 when the deck's values span the map's distances at least as widely as the
    published decks span theirs, up to 1 when every ticket has the same value."""
    if not board.diameter:
        return 0.0
    span = value_span([t.value / board.diameter for t in tickets])
    return max(0.0, 1.0 - span / published_value_span())


def default_profile(rules: RuleSet) -> str:
    """The published deck dealt like the map's rules deal: Europe's (regular and
    long decks, E4) with long tickets, else North America's."""
    with_long = [d.key for d in PUBLISHED_DECKS if d.long]
    without = [d.key for d in PUBLISHED_DECKS if not d.long]
    return (with_long if rules.long_tickets else without)[0]


def measure_deck(
    board: TicketBoard, tickets: Sequence[Ticket], profile: str | None = None
) -> DeckMeasures:
    """Measure a deck on a board: coverage, regions, crowding, fragility, score
    (values against the nearest published profile, or the one named `profile`)."""
    import numpy as np

    if not tickets:
        raise DeckError("the deck has no tickets")
    tickets = tuple(tickets)
    paths = [board.paths(t.a, t.b) for t in tickets]
    cities = [c.name for c in board.map.cities]

    # Coverage: each city's share of ticket ends against its share of degree.
    ends = Counter(city for t in tickets for city in t.cities)
    degree_total = sum(board.degree.values()) or 1
    coverage = 0.5 * sum(
        abs(ends[c] / (2 * len(tickets)) - board.degree.get(c, 0) / degree_total) for c in cities
    )
    uncovered = sum(1 for c in cities if ends[c] == 0) / len(cities)

    # Regions: ticket ends per region against the region's share of degree.
    regions = board.regions
    region_ends = Counter(regions[city] for t in tickets for city in t.cities)
    region_degree = Counter()
    for city, region in regions.items():
        region_degree[region] += board.degree.get(city, 0)
    region_balance = 0.5 * sum(
        abs(region_ends[r] / (2 * len(tickets)) - region_degree[r] / degree_total)
        for r in range(board.region_count)
    )
    region_pairs = Counter(tuple(sorted((regions[t.a], regions[t.b]))) for t in tickets)

    mean_usage = np.mean([p.usage for p in paths], axis=0)
    hands = typical_hands(board, mean_usage, len(tickets))
    crowding = tuple(_crowding(board, mean_usage, hands[n], n) for n in hands)
    # Listed by the tickets' cities, never by the file's order.
    single = tuple(
        sorted(
            (t for t, p in zip(tickets, paths, strict=True) if p.cheap_alternative is None),
            key=_ticket_key,
        )
    )
    overlapping = _overlapping_pairs(board, tickets, paths)
    in_overlap = {id(x) for pair in overlapping for x in (pair.first, pair.second)}
    duplicates = len(tickets) - len({frozenset(t.cities) for t in tickets})
    parts = {
        "coverage": coverage,
        "uncovered": uncovered,
        "regions": region_balance,
        "crowding": float(np.mean([c.excess_share for c in crowding])),
        "single_path": len(single) / len(tickets),
        "overlap": sum(1 for t in tickets if id(t) in in_overlap) / len(tickets),
        "value_spread": value_spread(board, tickets),
    }
    named = profile or nearest_profile(board, tickets).key
    resemblance = value_distance(board, tickets, named) / VALUE_SCALE
    return DeckMeasures(
        tickets,
        {c: ends[c] for c in sorted(cities)},
        dict(region_pairs),
        crowding,
        single,
        overlapping,
        DeckScore(parts, duplicates, resemblance, named),
        deck_completion(board, tickets, crowding),
    )


def deck_completion(
    board: TicketBoard, tickets: Sequence[Ticket], crowding: Sequence[Crowding]
) -> dict[int, float]:
    """The deck number at every table size (`COMPLETION_MODEL`)."""
    from ttr_maps.model import player_loads

    loads = {load.players: load.wagon_ratio for load in player_loads(board.map, board.rules)}
    share = sum(t.value for t in tickets) / len(tickets) / max(board.rules.wagons, 1)
    return {
        crowd.players: round(
            COMPLETION_MODEL.completion(share, crowd.excess_share, loads[crowd.players]), 4
        )
        for crowd in crowding
    }


def expected_excess(players: int, want: np.ndarray, capacity: np.ndarray) -> np.ndarray:
    """E[max(0, D − capacity)] per connection, D ~ Binomial(players, want): the
    expected players who want a connection and find no free track. Not
    max(0, E[D] − capacity): with 2 players wanting a single track half the time
    each, one of them is shut out a quarter of the time.

    >>> import numpy as np
    >>> expected_excess(2, np.array([0.5, 1.0]), np.array([1.0, 1.0])).tolist()
    [0.25, 1.0]
    """
    import numpy as np

    excess = np.zeros_like(want)
    for k in range(players + 1):
        chance = math.comb(players, k) * want**k * (1.0 - want) ** (players - k)
        excess += np.maximum(0.0, k - capacity) * chance
    return excess


def typical_hands(board: TicketBoard, mean_usage: np.ndarray, deck: int) -> dict[int, float]:
    """Table size -> the tickets a player holds in the crowding model: as many as
    take `HAND_WAGON_SHARE` of the wagons along their paths, where h tickets drawn
    from the deck use a connection with the chance 1 - (1 - mean usage)^h (a
    fractional h interpolates). Never fewer than R4 lets a player keep, nor more
    than the `deck` of tickets shared among the players.

    >>> import numpy as np
    >>> from ttr_maps.load import load_map
    >>> board = TicketBoard(load_map("north_america"))
    >>> typical_hands(board, np.zeros(len(board.connections)), 30)  # tickets that use nothing
    {2: 15.0, 3: 10.0, 4: 7.5, 5: 6.0}
    >>> typical_hands(board, np.ones(len(board.connections)), 30)  # tickets that use everything
    {2: 2.0, 3: 2.0, 4: 2.0, 5: 2.0}
    """
    from scipy.optimize import brentq

    rules = board.rules
    used = mean_usage > 0
    usage, lengths = mean_usage[used], board.lengths[used]
    target = HAND_WAGON_SHARE * rules.wagons
    low = float(rules.setup_keep)

    def short_of(hand: float) -> float:
        return float(lengths @ (1.0 - (1.0 - usage) ** hand)) - target

    # The wagons taken grow with the hand, so one solve under the loosest bound
    # serves every table size, each cut to its own share of the deck.
    loosest = max(low, deck / min(rules.player_counts()))
    if short_of(low) >= 0:
        hand = low
    elif short_of(loosest) <= 0:
        hand = loosest
    else:
        hand = float(brentq(short_of, low, loosest, xtol=1e-6))
    return {n: max(low, min(hand, deck / n)) for n in rules.player_counts()}


def _crowding(board: TicketBoard, mean_usage: np.ndarray, hand: float, players: int) -> Crowding:
    """Each player holds a typical hand (`typical_hands`) drawn from all the deck's
    tickets (long ones as likely as any: E4 deals one to each player, who may
    return it); the chance that a player wants a connection is
    1 - (1 - mean usage)^hand (a player claims a connection once, however many
    tickets use it); demand = players × that chance, against the R11 capacity;
    the excess is the expected number of players wanting it beyond its capacity
    (`expected_excess`). docs/tickets.md shows how this compares with blocking in
    play."""
    want = 1.0 - (1.0 - mean_usage) ** hand
    demand = players * want
    capacity = board.capacity(players)
    excess = expected_excess(players, want, capacity)
    wanted = float(demand @ board.lengths)
    return Crowding(
        players,
        hand,
        board.connections,
        tuple(demand.tolist()),
        tuple(int(c) for c in capacity),
        tuple(excess.tolist()),
        float(excess @ board.lengths) / wanted if wanted else 0.0,
    )


def _overlapping_pairs(
    board: TicketBoard, tickets: Sequence[Ticket], paths: Sequence[TicketPaths]
) -> tuple[OverlappingPair, ...]:
    """Pairs whose expected shared wagons are at least `OVERLAP_SHARE` of the
    longer ticket's value."""
    import numpy as np

    usage = np.array([p.usage for p in paths])
    values = np.array([p.value for p in paths], dtype=float)
    found = []
    # Ticket by ticket against the later ones, on the connections it uses only
    # (a few dozen of a big map's thousands).
    for i in range(len(paths) - 1):
        used = paths[i].used
        shared = np.minimum(usage[i, used], usage[i + 1 :, used]) @ board.lengths[used]
        share = shared / np.maximum(values[i], values[i + 1 :])
        for j in np.flatnonzero(share >= OVERLAP_SHARE - 1e-9):
            first, second = sorted((tickets[i], tickets[i + 1 + j]), key=_ticket_key)
            found.append(OverlappingPair(first, second, float(share[j])))
    # Most shared first, then by the tickets' cities (never the file's order).
    return tuple(
        sorted(
            found, key=lambda p: (-round(p.share, 9), _ticket_key(p.first), _ticket_key(p.second))
        )
    )


def _ticket_key(ticket: Ticket) -> tuple[str, str, int, bool]:
    """A ticket by its cities (in name order), then value and kind: an order that
    does not depend on the file's."""
    a, b = sorted(ticket.cities)
    return (a, b, ticket.value, ticket.long)


def score_deck(
    board: TicketBoard, tickets: Sequence[Ticket], profile: str | None = None
) -> DeckScore:
    """The deck score of `tickets` on `board` (lower is better)."""
    return measure_deck(board, tickets, profile).score


# ---------------------------------------------------------------- random decks


def ticket_for(board: TicketBoard, a: str, b: str, long: bool = False) -> Ticket:
    """A ticket between two cities with its R2 value."""
    return Ticket(a, b, board.paths(a, b).value, long=long)


def random_deck(board: TicketBoard, regular: int, long: int, rng: random.Random) -> list[Ticket]:
    """Distinct city pairs drawn uniformly (long ones among `TicketBoard.long_pairs`), R2 values."""
    long_choices = board.long_pairs
    if regular > len(board.pairs) or long > len(long_choices):
        raise DeckError("the map has too few city pairs for a deck this size")
    chosen_long = rng.sample(long_choices, long)
    taken = set(chosen_long)
    rest = [p for p in board.pairs if p not in taken] if taken else board.pairs
    return [ticket_for(board, a, b) for a, b in rng.sample(rest, regular)] + [
        ticket_for(board, a, b, long=True) for a, b in chosen_long
    ]


@dataclass(frozen=True)
class Calibration:
    """The deck among random decks of the same size on the same map: their deck
    numbers (`numbers`), and the deck's (`deck_number`)."""

    numbers: tuple[float, ...]
    deck_number: float

    @property
    def easier_share(self) -> float:
        """Share of random decks predicted to complete fewer tickets (harder ones)."""
        return sum(1 for n in self.numbers if n < self.deck_number) / len(self.numbers)

    @property
    def mean(self) -> float:
        return sum(self.numbers) / len(self.numbers)


def calibration_samples(samples: int, deck_size: int) -> int:
    """How many of the `samples` random decks asked for are scored: no more than
    `RANDOM_TICKETS` tickets in all, and never fewer than `MIN_RANDOM_DECKS`
    (every ticket of a random deck is a city pair whose cheapest paths are
    searched: a 1,000-city map with a 333-ticket deck would search about 100,000
    pairs for 300 decks). The bundled maps' decks keep all 300."""
    return min(samples, max(MIN_RANDOM_DECKS, RANDOM_TICKETS // max(1, deck_size)))


def calibrate(
    board: TicketBoard, tickets: Sequence[Ticket], samples: int = 300, seed: int = 0
) -> Calibration:
    """The deck numbers of random decks of the deck's size, `calibration_samples`
    of the `samples` asked for (deterministic for a seed)."""
    rng = random.Random(seed)
    long = sum(1 for t in tickets if t.long)
    numbers = tuple(
        measure_deck(board, random_deck(board, len(tickets) - long, long, rng)).deck_number
        for _ in range(calibration_samples(samples, len(tickets)))
    )
    return Calibration(numbers, measure_deck(board, tickets).deck_number)


# ---------------------------------------------------------------- suggestions


def default_long_tickets(rules: RuleSet) -> int:
    """Long tickets a suggestion holds by default: as many as E4 deals to the most
    players the rules allow (TTR352 asks for that many), none without a long deck."""
    return rules.setup_long_tickets * rules.max_players if rules.long_tickets else 0


def deck_size_problem(rules: RuleSet, regular: int, long: int) -> str | None:
    """What TTR352 would say of a deck of `regular` and `long` tickets under
    `rules` (R4, R12, E4), or None."""
    players = rules.max_players
    needed = (rules.setup_tickets + rules.tickets_drawn) * players
    if regular < needed:
        return (
            f"{regular} regular tickets are too few for {players} players: R4 deals "
            f"{rules.setup_tickets * players} and R12 draws {rules.tickets_drawn * players} "
            f"more (TTR352); ask for at least {needed}, or set the map's max_players"
        )
    long_needed = default_long_tickets(rules)
    if long < long_needed:
        return (
            f"{long} long tickets are too few for {players} players: E4 deals "
            f"{long_needed} (TTR352); ask for at least {long_needed}"
        )
    return None


#: Pairs a suggestion draws for a swap while its deck number is far from the target.
PROPOSALS = 4
#: How much a suggestion weighs one point of the deck number's distance to its
#: target against one point of the structural parts (0..100): a deck 1 % off its
#: target costs as much as 10 points of structure.
TARGET_WEIGHT = 1000.0


def published_completion() -> float:
    """The deck number of the published boards' own decks, on average: what a
    suggestion aims at unless told otherwise."""
    numbers = [m.deck_number for _, m in published_measures()]
    return round(sum(numbers) / len(numbers), 4)


def suggestion_cost(
    board: TicketBoard, deck: Sequence[Ticket], target: float, profile: str = "none"
) -> float:
    """What a suggestion minimises: `TARGET_WEIGHT` × the deck number's distance to
    `target`, plus the structural score (and the resemblance to `profile`'s values,
    unless "none")."""
    measures = measure_deck(board, deck, None if profile == "none" else profile)
    score = measures.score
    structure = score.total if profile == "none" else score.with_resemblance
    return TARGET_WEIGHT * abs(measures.deck_number - target) + structure


@dataclass(frozen=True)
class Suggestion:
    """A suggested deck, the deck number it was aimed at, and the cities it could
    not cover (no ticket to them passes the ticket checks: a dead end on one
    single-track route makes every ticket to it fragile, TTR353)."""

    tickets: tuple[Ticket, ...]
    target: float
    uncovered: tuple[str, ...]


def suggest_deck(
    board: TicketBoard,
    count: int,
    long: int | None = None,
    seed: int = 0,
    iterations: int = 3000,
    profile: str | None = "none",
    completion: float | None = None,
) -> Suggestion:
    """A deck of `count` regular and `long` long tickets (E4; default: as many as
    the rule set deals, `default_long_tickets`), values by R2, whose deck number
    (the share of held tickets players complete, at `REFERENCE_PLAYERS`) is as near
    `completion` as it can be (default: the published decks', `published_completion`),
    with a sound structure: it covers every city some ticket may reach, has no
    duplicate or near-duplicate (`OVERLAP_SHARE`) and no ticket `ttr validate` would
    warn about (TTR353, TTR354: `ticket_design_codes`), and among decks as near the
    target a low structural score. A covering start, then seeded local search that
    swaps one ticket at a time and keeps a swap when that does not get worse. Whether
    the deck is big enough for the rules (TTR352) is the caller's question:
    `deck_size_problem`.

    Cities no allowed ticket reaches (a dead end whose every ticket would be fragile)
    are left off and named (`Suggestion.uncovered`). `profile` (a key of
    `PUBLISHED_DECKS`) also weighs the resemblance of the values to that published
    deck; "none" (the default) does not.
    """
    long, chosen, target = _checked_request(board, count, long, profile, completion)
    choices = _choices(board, count, long)
    rng = random.Random(seed)
    deck = _covering_deck(board, count, long, choices.regular, choices.long, choices.cities, rng)
    deck = _improved(board, deck, choices, _Aim(target, chosen), iterations, rng)
    return Suggestion(tuple(deck), target, choices.uncovered)


def _checked_request(
    board: TicketBoard,
    count: int,
    long: int | None,
    profile: str | None,
    completion: float | None,
) -> tuple[int, str, float]:
    """The long tickets, the profile and the deck number a suggestion aims at (the
    defaults filled in), or DeckError naming what cannot be asked."""
    keys = {d.key for d in PUBLISHED_DECKS}
    if profile is not None and profile not in keys | {"none"}:
        raise DeckError(
            f"no published profile {profile!r}; profiles: {', '.join(sorted(keys))}, none"
        )
    if completion is not None and not 0.0 < completion < 1.0:
        raise DeckError("--completion is a share between 0 and 1 (e.g. 0.9)")
    long = default_long_tickets(board.rules) if long is None else long
    if count < 1 or long < 0:
        raise DeckError("--count must be at least 1 and --long at least 0")
    chosen = default_profile(board.rules) if profile is None else profile
    target = published_completion() if completion is None else completion
    return long, chosen, target


@dataclass(frozen=True)
class _Choices:
    """The city pairs a suggestion may use (those no ticket check warns about),
    regular and long, the cities they reach, and the cities none reaches."""

    regular: list[tuple[str, str]]
    long: list[tuple[str, str]]
    cities: list[str]
    uncovered: tuple[str, ...]


def _choices(board: TicketBoard, count: int, long: int) -> _Choices:
    """The pairs a deck of `count` regular and `long` long tickets may use, or
    DeckError when they cannot make one that covers every city they reach."""
    long_choices = [p for p in board.long_pairs if not board.design_codes(*p)]
    # With a long deck (E4) the far pairs are its own; without one, a regular
    # ticket may join any two cities, as North America's deck does (up to 20 of 23).
    reserved = set(long_choices) if long else set()
    regular_choices = [p for p in board.pairs if p not in reserved and not board.design_codes(*p)]
    reachable = {c for pair in (*regular_choices, *(long_choices if long else ())) for c in pair}
    cities = [c.name for c in board.map.cities if c.name in reachable]
    uncovered = tuple(sorted(c.name for c in board.map.cities if c.name not in reachable))
    return _enough(_Choices(regular_choices, long_choices, cities, uncovered), count, long)


def _enough(choices: _Choices, count: int, long: int) -> _Choices:
    """`choices`, or DeckError when `count` regular and `long` long tickets cannot
    cover the cities they reach, or there are too few pairs for them."""
    cities = choices.cities
    if 2 * (count + long) < len(cities):
        raise DeckError(
            f"{count + long} tickets cannot cover {len(cities)} cities "
            f"(each ticket covers two); ask for at least {math.ceil(len(cities) / 2)}"
        )
    if long > len(choices.long) or count > len(choices.regular):
        raise DeckError(
            "the map has too few city pairs that pass the ticket checks (TTR353, TTR354) "
            "for a deck this size"
        )
    return choices


@dataclass(frozen=True)
class _Aim:
    """What a suggestion aims at: a deck number, and the value profile weighed
    ("none": no profile)."""

    target: float
    profile: str


def _improved(
    board: TicketBoard,
    deck: list[Ticket],
    choices: _Choices,
    aim: _Aim,
    iterations: int,
    rng: random.Random,
) -> list[Ticket]:
    """Seeded local search from `deck`: swap one ticket at a time and keep a swap
    that keeps the deck sound and covering and does not get worse
    (`suggestion_cost`)."""
    best = suggestion_cost(board, deck, aim.target, aim.profile)
    number = measure_deck(board, deck).deck_number
    for _ in range(iterations):
        slot, candidate = _proposal(board, deck, choices, number, aim.target, rng)
        others = deck[:slot] + deck[slot + 1 :]
        if not _fits(board, candidate, others):
            continue
        trial = [*others[:slot], candidate, *others[slot:]]
        if not _covers(trial, choices.cities):
            continue
        total = suggestion_cost(board, trial, aim.target, aim.profile)
        if total <= best:
            deck, best = trial, total
            number = measure_deck(board, deck).deck_number
    return deck


def _proposal(
    board: TicketBoard,
    deck: Sequence[Ticket],
    choices: _Choices,
    number: float,
    target: float,
    rng: random.Random,
) -> tuple[int, Ticket]:
    """A slot of the deck and a ticket of the same kind to put there. Far from the
    target, every other swap takes, of a few pairs, the one whose value moves the
    deck number most its way (a longer ticket lowers it); the others, and every
    swap near the target, any pair."""
    slot = rng.randrange(len(deck))
    is_long = deck[slot].long
    pool = choices.long if is_long else choices.regular
    directed = abs(number - target) > 0.005 and rng.random() < 0.5
    pairs = [rng.choice(pool) for _ in range(PROPOSALS if directed else 1)]
    sign = 1 if number > target else -1
    a, b = max(pairs, key=lambda pair: (sign * board.distance[pair[0]][pair[1]], pair))
    return slot, ticket_for(board, a, b, long=is_long)


def _fits(board: TicketBoard, candidate: Ticket, others: Sequence[Ticket]) -> bool:
    """No duplicate and no near-duplicate of `candidate` among `others`."""
    pair = frozenset(candidate.cities)
    mine = board.paths(candidate.a, candidate.b)
    for other in others:
        if frozenset(other.cities) == pair:
            return False
        theirs = board.paths(other.a, other.b)
        shared = float(_shared(mine, theirs) @ board.lengths)
        if shared / max(mine.value, theirs.value) >= OVERLAP_SHARE:
            return False
    return True


def _shared(first: TicketPaths, second: TicketPaths) -> np.ndarray:
    import numpy as np

    return np.minimum(first.usage, second.usage)


def _covers(deck: Sequence[Ticket], cities: Iterable[str]) -> bool:
    ends = {c for t in deck for c in t.cities}
    return all(c in ends for c in cities)


def _covering_deck(
    board: TicketBoard,
    count: int,
    long: int,
    regular_choices: Sequence[tuple[str, str]],
    long_choices: Sequence[tuple[str, str]],
    cities: Sequence[str],
    rng: random.Random,
) -> list[Ticket]:
    """A start that covers `cities` (those some allowed ticket reaches): each slot
    takes a pair with as many uncovered cities as possible, the cities with the
    fewest allowed tickets first; later slots are random."""
    deck: list[Ticket] = []
    uncovered = set(cities)
    options = Counter(c for pair in (*regular_choices, *long_choices) for c in pair)

    def rank(pair: tuple[str, str]) -> tuple[int, int]:
        new = [c for c in pair if c in uncovered]
        return (-len(new), min((options[c] for c in new), default=0))

    for is_long, slots, choices in ((True, long, long_choices), (False, count, regular_choices)):
        pool = list(choices)
        for _ in range(slots):
            rng.shuffle(pool)
            ranked = sorted(pool, key=rank)
            for a, b in ranked:
                candidate = ticket_for(board, a, b, long=is_long)
                if _fits(board, candidate, deck):
                    break
            else:
                raise DeckError("cannot find enough tickets without near-duplicates")
            deck.append(candidate)
            uncovered -= {a, b}
    if uncovered:
        raise DeckError(
            f"cannot cover every city with {count + long} tickets: "
            f"{', '.join(sorted(uncovered))} left over; ask for more tickets"
        )
    return deck


# ---------------------------------------------------------------- the analysis


@dataclass(frozen=True)
class DeckAnalysis:
    """A map's deck measured, and (optionally) set among random decks."""

    board: TicketBoard
    measures: DeckMeasures
    calibration: Calibration | None = None
    #: The deck in play per table size (`ttr tickets --games N`), if asked.
    played: tuple[PlayedDeck, ...] = ()

    @property
    def map(self) -> Map:
        return self.board.map


def nearest_profile(board: TicketBoard, tickets: Sequence[Ticket]) -> PublishedDeck:
    """The published deck whose relative regular values are nearest the deck's."""
    values = [t.value / board.diameter for t in tickets if not t.long] or [
        t.value / board.diameter for t in tickets
    ]
    return min(
        (d for d in PUBLISHED_DECKS if d.regular),
        key=lambda d: wasserstein(values, [v / d.diameter for v in d.regular]),
    )


@cache
def published_measures() -> tuple[tuple[str, DeckMeasures], ...]:
    """The published boards' own decks measured (name, measures), computed once:
    the numbers `ttr tickets` sets a deck's beside."""
    from ttr_maps.io.bundled import PUBLISHED_MAPS
    from ttr_maps.load import load_map

    found = []
    for map_id in PUBLISHED_MAPS:
        game_map = load_map(map_id)
        found.append((game_map.name, measure_deck(TicketBoard(game_map), game_map.tickets)))
    return tuple(found)


def analyse_deck(game_map: Map, *, samples: int = 300, seed: int = 0) -> DeckAnalysis:
    """Measure the map's own deck; with `samples` > 0, also score that many random
    decks of the same size (deterministic for `seed`)."""
    board = TicketBoard(game_map)
    measures = measure_deck(board, game_map.tickets)
    calibration = calibrate(board, game_map.tickets, samples, seed) if samples > 0 else None
    return DeckAnalysis(board, measures, calibration)
