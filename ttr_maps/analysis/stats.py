"""Designer metrics of a map: counts, colours, shape of the network, ticket load.

`map_stats(game_map)` computes everything once and returns a frozen `MapStats`;
`ttr_maps.reports.stats` only renders it (text, JSON, a one-page figure).

Chokepoints. For every ticket we take *all* its shortest paths in wagons (R2) and
split the ticket's weight of 1 equally among them: a connection that lies on k of
the n shortest paths receives k/n of that ticket. A connection's `ticket_load` is the
sum over tickets, so the loads of one ticket always add up to 1 per connection it
must cross, and a detour of equal length halves the pressure on each alternative.
`tickets` counts the tickets with at least one shortest path over the connection and
`unavoidable` those whose every shortest path crosses it. A connection is the pair of
neighbouring cities: the tracks of a double route share one entry (they are
alternatives for the same move); `route_ids` lists them.

>>> from ttr_maps.model import Map
>>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 2, "y": 0}, "C": {"x": 4, "y": 0}},
...     "routes": [{"between": ["A", "B"], "length": 2, "color": ["red", "gray"]},
...                {"between": ["B", "C"], "length": 2, "color": "blue"}],
...     "tickets": [{"between": ["A", "C"], "value": 4}]})
>>> s = map_stats(m)
>>> s.segments, s.doubles, s.spaces, s.bridges
(3, 1, 6, (('A', 'B'), ('B', 'C')))
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ttr_maps.model import ROUTE_COLORS, Map, PlayerLoad, player_loads
from ttr_maps.rules import map_rules

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True, slots=True)
class ColorUse:
    """Segments and wagon spaces of one route colour."""

    color: str
    segments: int
    spaces: int


@dataclass(frozen=True, slots=True)
class ConnectionLoad:
    """How much the tickets lean on one connection (see the module docstring)."""

    a: str
    b: str
    length: int
    route_ids: tuple[str, ...]
    ticket_load: float
    tickets: int
    unavoidable: int


@dataclass(frozen=True, slots=True)
class Comparable:
    """A number that means something beside the same number of another map."""

    key: str
    label: str
    value: float
    #: Decimal places to show.
    digits: int


@dataclass(frozen=True)
class MapStats:
    """Everything `ttr stats` reports about one map."""

    map_id: str
    map_name: str
    rules: str
    wagons: int
    cities: int
    segments: int
    doubles: int
    spaces: int
    tunnels: int
    ferries: int
    ferry_locomotives: int
    tickets: int
    long_tickets: int
    colors: tuple[ColorUse, ...]
    length_histogram: Mapping[int, int]
    degree_histogram: Mapping[int, int]
    bridges: tuple[tuple[str, str], ...]
    articulation_points: tuple[str, ...]
    connection_loads: tuple[ConnectionLoad, ...]
    cities_without_ticket: tuple[str, ...]
    ticket_value_histogram: Mapping[int, int]
    unreachable_tickets: tuple[str, ...]
    players: tuple[PlayerLoad, ...]
    #: D7: tickets priced above their value, as ("A:B", bonus).
    ticket_bonuses: tuple[tuple[str, int], ...] = ()
    #: The map's rules ttr does not model (`not_modelled:`).
    not_modelled: tuple[str, ...] = ()

    @property
    def player_counts(self) -> tuple[int, ...]:
        """R1: the table sizes the map's rules allow."""
        return tuple(p.players for p in self.players)

    def comparables(self) -> tuple[Comparable, ...]:
        """The numbers to set beside another map's: two sizes for context, then
        shares, means and ratios, which mean something whatever the map's size."""
        degrees = sum(k * v for k, v in self.degree_histogram.items())
        nodes = sum(self.degree_histogram.values()) or 1
        lengths = sum(k * v for k, v in self.length_histogram.items())
        values = sum(k * v for k, v in self.ticket_value_histogram.items())
        connections = len(self.connection_loads) or 1
        busiest = self.connection_loads[0].ticket_load if self.connection_loads else 0.0
        numbers = [
            ("cities", "cities", self.cities, 0),
            ("route_segments", "route segments", self.segments, 0),
            ("double_share", "share of connections with two tracks", self.doubles / connections, 2),
            ("mean_length", "mean route length", lengths / (self.segments or 1), 2),
            ("mean_degree", "mean neighbouring cities", degrees / nodes, 2),
            (
                "gray_share",
                "share of gray spaces",
                self.color("gray").spaces / (self.spaces or 1),
                2,
            ),
            ("tickets_per_city", "tickets per city", self.tickets / (self.cities or 1), 2),
            ("mean_ticket_value", "mean ticket value", values / (self.tickets or 1), 1),
            ("busiest_load", "ticket load of the busiest connection", busiest, 2),
        ]
        numbers += [
            (f"wagon_ratio_{p.players}", f"wagons per claimable space, {p.players} players",
             p.wagon_ratio, 2)
            for p in self.players
        ]  # fmt: skip
        return tuple(
            Comparable(key, label, round(value, 4), digits) for key, label, value, digits in numbers
        )

    def color(self, name: str) -> ColorUse:
        """The use of one colour, e.g. `stats.color("gray").spaces`."""
        for use in self.colors:
            if use.color == name:
                return use
        raise KeyError(name)


def map_stats(game_map: Map) -> MapStats:
    """Compute the designer metrics of a map (which should be valid), with the
    numbers of its rule set (`ttr_maps.rules.map_rules`)."""
    import networkx as nx

    from ttr_maps.graph import wagon_graph

    rules = map_rules(game_map)
    graph = wagon_graph(game_map)
    routes = game_map.routes
    colors = tuple(
        ColorUse(
            color,
            sum(1 for r in routes if r.color == color),
            sum(r.length for r in routes if r.color == color),
        )
        for color in ROUTE_COLORS
    )
    ticket_cities = {name for t in game_map.tickets for name in t.cities}
    return MapStats(
        map_id=game_map.id,
        map_name=game_map.name,
        not_modelled=game_map.not_modelled,
        rules=game_map.rules,
        wagons=rules.wagons,
        cities=len(game_map.cities),
        segments=len(routes),
        doubles=sum(1 for group in game_map.parallel_routes.values() if len(group) > 1),
        spaces=game_map.total_spaces,
        tunnels=sum(1 for r in routes if r.tunnel),
        ferries=sum(1 for r in routes if r.ferry),
        ferry_locomotives=sum(r.ferry for r in routes),
        tickets=len(game_map.tickets),
        long_tickets=sum(1 for t in game_map.tickets if t.long),
        colors=colors,
        length_histogram=dict(sorted(Counter(r.length for r in routes).items())),
        degree_histogram=dict(sorted(Counter(d for _, d in graph.degree()).items())),
        bridges=tuple(sorted(tuple(sorted(edge)) for edge in nx.bridges(graph))),  # type: ignore[misc]
        articulation_points=tuple(sorted(nx.articulation_points(graph))),
        connection_loads=_connection_loads(game_map, graph),
        cities_without_ticket=tuple(
            sorted(c.name for c in game_map.cities if c.name not in ticket_cities)
        ),
        ticket_value_histogram=dict(sorted(Counter(t.value for t in game_map.tickets).items())),
        unreachable_tickets=_unreachable_tickets(game_map, graph),
        players=player_loads(game_map, rules),
        ticket_bonuses=tuple((f"{t.a}:{t.b}", t.bonus) for t in game_map.tickets if t.bonus),
    )


def connection_loads(game_map: Map) -> tuple[ConnectionLoad, ...]:
    """The ticket load of every connection (`MapStats.connection_loads`), heaviest
    first, without the rest of the statistics (`ttr lsp` shows it on a route).

    >>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
    ...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 2, "y": 0}, "C": {"x": 4, "y": 0}},
    ...     "routes": [{"between": ["A", "B"], "length": 2, "color": "red"},
    ...                {"between": ["B", "C"], "length": 2, "color": "blue"}],
    ...     "tickets": [{"between": ["A", "C"], "value": 4}, {"between": ["A", "B"], "value": 2}]})
    >>> [(load.a, load.b, load.tickets) for load in connection_loads(m)]
    [('A', 'B', 2), ('B', 'C', 1)]
    """
    from ttr_maps.graph import wagon_graph

    return _connection_loads(game_map, wagon_graph(game_map))


def _unreachable_tickets(game_map: Map, graph: nx.Graph) -> tuple[str, ...]:
    """Tickets whose cities no routes join, as "A:B" (one pass over the components)."""
    import networkx as nx

    group = {city: i for i, part in enumerate(nx.connected_components(graph)) for city in part}
    return tuple(
        f"{t.a}:{t.b}"
        for t in game_map.tickets
        if t.a not in group or t.b not in group or group[t.a] != group[t.b]
    )


def _connection_loads(game_map: Map, graph: nx.Graph) -> tuple[ConnectionLoad, ...]:
    """Ticket load of every connection, heaviest first (ties split, see module doc).

    One compiled search per city that starts tickets (`ticket_search_sources`), bounded
    by the farthest of its tickets' printed values (searched again without a
    bound where a value is too small), gives the distances from it; a ticket's
    shortest paths are then the edges that keep distance going back from its
    other city (`_ticket_paths`), counted over that small subgraph only. The loads
    are added up ticket by ticket in the map's order, so they do not depend on
    how the searches were grouped. Near-linear in the map whatever its tickets:
    10,000 cities with tickets joining any two of them in seconds.
    """
    from ttr_maps.graph import CompiledGraph, ticket_search_sources

    adjacency = {
        city: {n: int(data["weight"]) for n, data in graph[city].items()} for city in graph
    }
    tickets = [t for t in game_map.tickets if t.a in adjacency and t.b in adjacency and t.a != t.b]
    compiled = CompiledGraph(adjacency)
    index = compiled.index
    neighbours = [
        [(index[n], length) for n, length in adjacency[name].items()] for name in compiled.names
    ]
    targets, limits = ticket_search_sources(tickets)
    by_source: dict[str, list[int]] = {}
    for i, ticket in enumerate(tickets):
        source = ticket.a if ticket.b in targets.get(ticket.a, ()) else ticket.b
        by_source.setdefault(source, []).append(i)
    shares: dict[int, dict[tuple[int, int], float]] = {}
    unavoidable_pairs: dict[int, list[tuple[int, int]]] = {}
    retry: set[str] = set()
    for bound in (limits, None):
        wanted = list(by_source) if bound is not None else list(retry)
        for source, distance, _ in compiled.rows(wanted, bound):
            row = distance.tolist()
            for i in by_source[source]:
                if i in shares:
                    continue
                ticket = tickets[i]
                other = index[ticket.b if source == ticket.a else ticket.a]
                if row[other] == math.inf:
                    if bound is not None:
                        retry.add(source)
                    continue  # unreachable (or past the bound: searched again)
                through, all_paths = _ticket_paths(row, neighbours, index[source], other)
                shares[i] = {pair: paths / all_paths for pair, paths in through.items()}
                unavoidable_pairs[i] = [p for p, paths in through.items() if paths == all_paths]
    load: dict[tuple[int, int], float] = {}
    touched: Counter[tuple[int, int]] = Counter()
    unavoidable: Counter[tuple[int, int]] = Counter()
    for i in sorted(shares):  # the map's order: the same sums whatever the grouping
        for pair, share in shares[i].items():
            load[pair] = load.get(pair, 0.0) + share
            touched[pair] += 1
        unavoidable.update(unavoidable_pairs[i])

    result = []
    for u, v, data in graph.edges(data=True):
        i, j = index[u], index[v]
        key = (i, j) if i < j else (j, i)
        a, b = sorted((u, v))
        result.append(
            ConnectionLoad(
                a,
                b,
                int(data["weight"]),
                tuple(data["routes"]),
                round(load.get(key, 0.0), 4),
                touched[key],
                unavoidable[key],
            )
        )
    result.sort(key=lambda c: (-c.ticket_load, -c.tickets, c.a, c.b))
    return tuple(result)


def _ticket_paths(
    distance: list[float], neighbours: list[list[tuple[int, int]]], source: int, target: int
) -> tuple[dict[tuple[int, int], int], int]:
    """The connections on a ticket's shortest paths, each with how many of them
    cross it, and how many there are in all.

    `distance` holds the wagon distances from `source` (R2). Going back from
    `target` along the connections that keep the distance exact (d(u) + length =
    d(v)) finds exactly the cities and connections of the shortest paths; the
    paths through a connection u–v are the shortest paths from the source to u
    times those from v to the target, both counted over that subgraph.
    """
    before: dict[int, list[int]] = {target: []}
    stack = [target]
    while stack:
        city = stack.pop()
        here, entries = distance[city], before[city]
        for neighbour, length in neighbours[city]:
            if distance[neighbour] + length == here:
                entries.append(neighbour)
                if neighbour not in before:
                    before[neighbour] = []
                    stack.append(neighbour)
    order = sorted(before, key=distance.__getitem__)  # the source first
    paths_from = {source: 1}
    for city in order[1:]:
        paths_from[city] = sum(paths_from[u] for u in before[city])
    paths_to = dict.fromkeys(order, 0)
    paths_to[target] = 1
    through: dict[tuple[int, int], int] = {}
    for city in reversed(order):
        for u in before[city]:
            paths_to[u] += paths_to[city]
            through[(u, city) if u < city else (city, u)] = paths_from[u] * paths_to[city]
    return through, paths_from[target]
