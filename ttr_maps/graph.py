"""Graph analysis of a map: distances in wagons, paths, components.

networkx is imported inside the functions that use it, so importing this module
stays cheap. Adjacency, components and `shortest_paths_from` (the R2 search that
validation runs on every map) need no networkx at all.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ttr_maps.model import Map, Ticket

if TYPE_CHECKING:
    import networkx as nx


def wagon_graph(game_map: Map) -> nx.Graph:
    """The map as a simple weighted graph: one edge per pair of neighbouring cities,
    weighted by its wagon length as `wagon_adjacency` gives it (R2's one reading of
    a map), in the order of the routes. Edge attribute `routes` lists the route ids.
    """
    import networkx as nx

    adjacency = wagon_adjacency(game_map)
    graph = nx.Graph()
    graph.add_nodes_from(c.name for c in game_map.cities)
    for route in game_map.routes:
        length = adjacency.get(route.a, {}).get(route.b)
        if length is None:
            continue
        if graph.has_edge(route.a, route.b):
            graph.edges[route.a, route.b]["routes"].append(route.id)
        else:
            graph.add_edge(route.a, route.b, weight=length, routes=[route.id])
    return graph


def wagon_distances_from(game_map: Map, sources: Iterable[str]) -> dict[str, dict[str, int]]:
    """Shortest wagon distance (R2) from each source to every reachable city: one
    full search per distinct source (`shortest_paths_from`)."""
    adjacency = wagon_adjacency(game_map)
    return {
        source: shortest_paths_from(adjacency, source).distance
        for source in dict.fromkeys(sources)
        if source in adjacency
    }


def shortest_wagon_distance(game_map: Map, a: str, b: str) -> int | None:
    """R2: the shortest distance between two cities in wagons, None if unreachable
    (`TicketDistances`, the search `ttr validate` prices tickets with).

    >>> from ttr_maps.model import Map
    >>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
    ...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 1, "y": 0}, "C": {"x": 2, "y": 0}},
    ...     "routes": [{"between": ["A", "B"], "length": 2, "color": "red"},
    ...                {"between": ["B", "C"], "length": 3, "color": "red"}], "tickets": []})
    >>> shortest_wagon_distance(m, "A", "C")
    5
    """
    adjacency = wagon_adjacency(game_map)
    if a not in adjacency or b not in adjacency:
        return None
    return TicketDistances(adjacency, [(a, b)]).distance(a, b)


def shortest_city_path(game_map: Map, a: str, b: str, graph: nx.Graph | None = None) -> list[str]:
    """One shortest path (in wagons) from `a` to `b` as a list of city names, or []."""
    import networkx as nx

    graph = wagon_graph(game_map) if graph is None else graph
    try:
        return nx.dijkstra_path(graph, a, b, weight="weight")
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return []


def wagon_adjacency(game_map: Map) -> dict[str, dict[str, int]]:
    """Neighbours of every declared city with the wagon length between them (no
    networkx: validation uses it on every map).

    Routes naming an undeclared city and routes from a city to itself are left out
    (TTR201 and TTR202 report them); parallel tracks count once, with their
    shortest length.
    """
    adjacency: dict[str, dict[str, int]] = {name: {} for name in game_map.city_index}
    for route in game_map.routes:
        a, b = route.a, route.b
        if a == b or a not in adjacency or b not in adjacency:
            continue
        old = adjacency[a].get(b)
        if old is None or route.length < old:
            adjacency[a][b] = adjacency[b][a] = route.length
    return adjacency


def connected_city_groups(
    game_map: Map, adjacency: dict[str, dict[str, int]] | None = None
) -> list[list[str]]:
    """Groups of declared cities joined by routes, largest first, each sorted by
    name (TTR401). `adjacency` defaults to `wagon_adjacency(game_map)`."""
    adjacency = wagon_adjacency(game_map) if adjacency is None else adjacency
    seen: set[str] = set()
    groups: list[list[str]] = []
    for start in adjacency:
        if start in seen:
            continue
        seen.add(start)
        group, stack = [start], [start]
        while stack:
            for neighbour in adjacency[stack.pop()]:
                if neighbour not in seen:
                    seen.add(neighbour)
                    group.append(neighbour)
                    stack.append(neighbour)
        groups.append(sorted(group))
    return sorted(groups, key=lambda g: (-len(g), g))


@dataclass
class ShortestPaths:
    """The result of one single-source search: distances and predecessors.

    `complete` is True when the search ran out of cities (so a city missing from
    `distance` is unreachable), False when it stopped early.
    """

    source: str
    distance: dict[str, int]
    previous: dict[str, str]
    complete: bool

    def path_to(self, target: str) -> list[str]:
        if target not in self.distance:
            return []
        path = [target]
        while path[-1] != self.source:
            path.append(self.previous[path[-1]])
        return path[::-1]


def shortest_paths_from(
    adjacency: dict[str, dict[str, int]], source: str, wanted: Iterable[str] = ()
) -> ShortestPaths:
    """Dijkstra from `source`; stops once every city in `wanted` is settled
    (searches everything when `wanted` is empty)."""
    remaining = set(wanted)
    remaining.discard(source)
    settled: dict[str, int] = {}
    previous: dict[str, str] = {}
    best = {source: 0}
    queue = [(0, source)]
    everything = not remaining
    while queue:
        dist, city = heapq.heappop(queue)
        if city in settled:
            continue
        settled[city] = dist
        remaining.discard(city)
        if not remaining and not everything:
            return ShortestPaths(source, settled, previous, complete=False)
        for neighbour, length in adjacency[city].items():
            candidate = dist + length
            if neighbour not in settled and candidate < best.get(neighbour, candidate + 1):
                best[neighbour] = candidate
                previous[neighbour] = city
                heapq.heappush(queue, (candidate, neighbour))
    return ShortestPaths(source, settled, previous, complete=True)


#: Cities the pure-Python searches of `shortest_paths_to_targets` may settle in all
#: before the remaining sources go to scipy's compiled Dijkstra: local tickets on
#: any map stay below it (and never import scipy), tickets across a huge map do
#: not (10,000 cities, 5,000 tickets from corner to corner: 70 s in Python, 3 s
#: compiled; benchmarks/hostile_bench.py). A Python search settles a city in about
#: 6 µs, a compiled one in well under 1 µs: past this budget (a few hundred
#: ticket searches on a mid-size map) compiling the graph has paid for itself.
PYTHON_SEARCH_BUDGET = 30_000
#: Sources per compiled batch: the batch's distance rows are held at once.
_BATCH = 64


def shortest_paths_to_targets(
    adjacency: dict[str, dict[str, int]],
    targets: Mapping[str, Iterable[str]],
    budget: int = PYTHON_SEARCH_BUDGET,
    limits: Mapping[str, float] | None = None,
) -> dict[str, ShortestPaths]:
    """`shortest_paths_from(adjacency, source, wanted)` for every source of
    `targets`, in near-linear time whatever the sources: searches run in Python
    (each stops at its farthest wanted city) until they have settled `budget`
    cities in all, then the rest run compiled, in batches. A compiled result
    holds only the wanted cities it reached and the cities on their paths, so it
    is never `complete`: a city missing from it is unknown, as after a search
    that stopped early.

    `limits` may give, for a source, the distance within which its wanted cities
    are expected (a ticket's printed value): a compiled search then stops there,
    and a source whose wanted cities are not all within it is searched again
    without a limit, so the answers never depend on the guess."""
    found: dict[str, ShortestPaths] = {}
    pending = list(targets.items())
    settled = 0
    while pending and settled <= budget:
        source, wanted = pending.pop(0)
        paths = shortest_paths_from(adjacency, source, wanted)
        settled += len(paths.distance)
        found[source] = paths
    if pending:
        found.update(_compiled_searches(adjacency, pending, limits or {}))
    return found


class TicketDistances:
    """R2, in one place: the shortest wagon distance between ticket cities, over
    `wagon_adjacency`. Validation (TTR3xx), the editor, the language server and
    `ttr new` all price tickets with it.

    One search per chosen city, not one per ticket (`ticket_search_sources`): a
    ticket is answered from either of its ends. Each search stops once the
    farthest city asked of it is settled, so tickets between nearby cities stay
    cheap on huge maps.
    """

    def __init__(
        self, adjacency: dict[str, dict[str, int]], tickets: Iterable[Ticket | tuple[str, str]]
    ):
        targets, values = ticket_search_sources(tickets)
        self.searches = shortest_paths_to_targets(adjacency, targets, limits=values)

    def distance(self, a: str, b: str) -> int | None:
        """The shortest distance between two of the ticket cities, None if unreachable."""
        if a == b:
            return 0
        for source, target in ((a, b), (b, a)):
            found = self.searches.get(source)
            if found is not None and (target in found.distance or found.complete):
                return found.distance.get(target)
        return None

    def path(self, a: str, b: str) -> list[str]:
        """One shortest city path from `a` to `b`, or []."""
        for source, target, flip in ((a, b, False), (b, a, True)):
            found = self.searches.get(source)
            if found is not None and target in found.distance:
                path = found.path_to(target)
                return path[::-1] if flip else path
        return []


def ticket_search_sources(
    tickets: Iterable[Ticket | tuple[str, str]],
) -> tuple[dict[str, set[str]], dict[str, float]]:
    """Where the R2 searches of `tickets` (or city pairs) start: one search per
    chosen city, not one per ticket. A ticket is answered from either end; a city
    that ends many tickets is chosen first, and a ticket one of whose ends is
    already chosen joins it. Returns each chosen city's other ends, and the largest
    printed value among its tickets (the distance its search expects to go, for
    `shortest_paths_to_targets`' `limits`; a bare pair expects nothing)."""
    pairs = [
        (t.a, t.b, t.value) if isinstance(t, Ticket) else (t[0], t[1], math.inf) for t in tickets
    ]
    uses: dict[str, int] = {}
    for a, b, _ in pairs:
        uses[a] = uses.get(a, 0) + 1
        uses[b] = uses.get(b, 0) + 1
    targets: dict[str, set[str]] = {}
    values: dict[str, float] = {}
    for a, b, value in sorted(pairs, key=lambda p: -max(uses[p[0]], uses[p[1]])):
        if a in targets:
            source, other = a, b
        elif b in targets:
            source, other = b, a
        else:
            source, other = (a, b) if uses[a] >= uses[b] else (b, a)
        targets.setdefault(source, set()).add(other)
        values[source] = max(values.get(source, 0), value)
    return targets, values


class CompiledGraph:
    """A city graph in scipy's compressed form, for batches of compiled Dijkstra
    searches (`rows`). Cities are numbered in the order of `adjacency`."""

    def __init__(self, adjacency: Mapping[str, Mapping[str, int]]) -> None:
        from scipy.sparse import csr_matrix

        self.names = list(adjacency)
        self.index = {name: i for i, name in enumerate(self.names)}
        rows, columns, lengths = [], [], []
        for city, neighbours in adjacency.items():
            for neighbour, length in neighbours.items():
                rows.append(self.index[city])
                columns.append(self.index[neighbour])
                lengths.append(length)
        size = len(self.names)
        self.matrix = csr_matrix((lengths, (rows, columns)), shape=(size, size))

    def rows(
        self,
        sources: Iterable[str],
        limits: Mapping[str, float] | None = None,
        *,
        previous: bool = False,
    ) -> Iterator[tuple[str, Any, Any]]:
        """(source, distances, predecessors or None) for every source, as numpy
        rows indexed like `names` (inf where unreached). With `limits`, a search
        may stop past its source's limit (sources of similar limits share a batch
        and its largest limit; a source without one is searched to the end)."""
        import numpy as np
        from scipy.sparse.csgraph import dijkstra

        limits = limits or {}
        ordered = sorted(sources, key=lambda s: limits.get(s, np.inf))
        for start in range(0, len(ordered), _BATCH):
            batch = ordered[start : start + _BATCH]
            limit = max(limits.get(s, np.inf) for s in batch)
            found = dijkstra(
                self.matrix,
                indices=[self.index[s] for s in batch],
                return_predecessors=previous,
                limit=limit,
            )
            distance, before = found if previous else (found, None)
            for row, source in enumerate(batch):
                yield source, distance[row], None if before is None else before[row]


def _compiled_searches(
    adjacency: dict[str, dict[str, int]],
    pending: list[tuple[str, Iterable[str]]],
    limits: Mapping[str, float],
) -> dict[str, ShortestPaths]:
    import numpy as np

    compiled = CompiledGraph(adjacency)
    wanted_of = {source: [compiled.index[t] for t in wanted] for source, wanted in pending}
    found: dict[str, ShortestPaths] = {}
    guessed = [source for source in wanted_of if source in limits]
    for source, distance, previous in compiled.rows(guessed, limits, previous=True):
        if np.isfinite(distance[wanted_of[source]]).all():
            found[source] = _paths_of_row(compiled, source, wanted_of[source], distance, previous)
    rest = [source for source in wanted_of if source not in found]
    for source, distance, previous in compiled.rows(rest, previous=True):
        found[source] = _paths_of_row(compiled, source, wanted_of[source], distance, previous)
    return found


def _paths_of_row(
    compiled: CompiledGraph, source: str, wanted: list[int], distance: Any, previous: Any
) -> ShortestPaths:
    """The wanted cities a compiled search reached, and the cities on their paths."""
    import numpy as np

    names = compiled.names
    paths = ShortestPaths(source, {source: 0}, {}, complete=False)
    home = compiled.index[source]
    for at in wanted:
        if not np.isfinite(distance[at]):
            continue
        while at != home and names[at] not in paths.distance:
            before = int(previous[at])
            paths.distance[names[at]] = int(distance[at])
            paths.previous[names[at]] = names[before]
            at = before
    return paths


def distances_within(
    adjacency: dict[str, dict[str, int]],
    source: str,
    limit: float,
    without: frozenset[str] | None = None,
    target: str | None = None,
) -> dict[str, int]:
    """Shortest wagon distances from `source` to every city at most `limit` away,
    optionally with one connection (the pair of cities `without`) taken out — what
    an opponent's claim of that route does to a ticket (TTR353). With a `target`,
    the search stops once the target is settled.

    >>> adjacency = {"A": {"B": 1, "C": 5}, "B": {"A": 1, "C": 1}, "C": {"A": 5, "B": 1}}
    >>> distances_within(adjacency, "A", 10)
    {'A': 0, 'B': 1, 'C': 2}
    >>> distances_within(adjacency, "A", 10, without=frozenset({"B", "C"}))
    {'A': 0, 'B': 1, 'C': 5}
    """
    settled: dict[str, int] = {}
    queue = [(0, source)]
    while queue:
        dist, city = heapq.heappop(queue)
        if city in settled:
            continue
        settled[city] = dist
        if city == target:
            break
        for neighbour, length in adjacency[city].items():
            candidate = dist + length
            if candidate > limit or neighbour in settled:
                continue
            if without is not None and city in without and neighbour in without:
                continue
            heapq.heappush(queue, (candidate, neighbour))
    return settled


def k_cheapest_paths(
    graph: nx.Graph, a: str, b: str, k: int, to_b: Mapping[str, int] | None = None
) -> list[tuple[int, list[str]]]:
    """The `k` cheapest simple paths from `a` to `b` in a `wagon_graph`, cheapest
    first, as (wagons, cities); [] when `b` cannot be reached. Parallel tracks are
    one edge, so a double route is never counted as a second path. Ties between
    equally cheap paths are settled by the cities' names, never by the order of
    the routes in the file.

    Yen's algorithm with Lawler's saving (a path spurs only from where it left its
    parent); each spur search is an A* guided by `to_b`, the wagon distances to
    `b` (computed when not given), and stops at the cost of the candidates already
    good enough.

    >>> from ttr_maps.model import Map
    >>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
    ...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 1, "y": 0}, "C": {"x": 2, "y": 0}},
    ...     "routes": [{"between": ["A", "B"], "length": 2, "color": "red"},
    ...                {"between": ["B", "C"], "length": 3, "color": "red"},
    ...                {"between": ["A", "C"], "length": 6, "color": "red"}], "tickets": []})
    >>> k_cheapest_paths(wagon_graph(m), "A", "C", 3)
    [(5, ['A', 'B', 'C']), (6, ['A', 'C'])]
    """
    import math

    if a not in graph or b not in graph or a == b:
        return []
    if to_b is None:
        import networkx as nx

        to_b = nx.single_source_dijkstra_path_length(graph, b, weight="weight")
    first = _cheapest_spur(graph, to_b, a, b, frozenset(), frozenset(), math.inf)
    if first is None:
        return []
    chosen = [(first[0], first[1], 0)]
    # Candidates: (cost, the path read backwards, the path, where it left its parent).
    candidates: list[tuple[int, tuple[str, ...], tuple[str, ...], int]] = []
    seen = {first[1]}
    while len(chosen) < k:
        _, previous, left_at = chosen[-1]
        root_cost = sum(
            graph[x][y]["weight"] for x, y in itertools.pairwise(previous[: left_at + 1])
        )
        for i in range(left_at, len(previous) - 1):
            root = previous[: i + 1]
            taken = frozenset(p[i + 1] for _, p, _ in chosen if p[: i + 1] == root)
            need = k - len(chosen)
            limit = math.inf
            if len(candidates) >= need:
                limit = heapq.nsmallest(need, candidates)[-1][0] - root_cost
            spur = _cheapest_spur(graph, to_b, previous[i], b, frozenset(root[:-1]), taken, limit)
            if spur is not None:
                path = root[:-1] + spur[1]
                if path not in seen:
                    seen.add(path)
                    heapq.heappush(candidates, (root_cost + spur[0], path[::-1], path, i))
            root_cost += graph[previous[i]][previous[i + 1]]["weight"]
        if not candidates:
            break
        cost, _, path, left = heapq.heappop(candidates)
        chosen.append((cost, path, left))
    return [(int(cost), list(path)) for cost, path, _ in chosen]


def _cheapest_spur(
    graph: nx.Graph,
    to_t: Mapping[str, int],
    s: str,
    t: str,
    banned: frozenset[str],
    not_first: frozenset[str],
    limit: float,
) -> tuple[int, tuple[str, ...]] | None:
    """The cheapest path from `s` to `t` through none of the `banned` cities and
    whose first step is to none of `not_first`, costing at most `limit` (None if
    there is none): A* with the unrestricted distances `to_t` as its (consistent)
    estimate, the frontier ordered by estimate, then the furthest from `s`, then
    the city's name, so that a tie never depends on the order of the routes."""
    if s not in to_t or to_t[s] > limit:
        return None
    best: dict[str, int] = {s: 0}
    parent: dict[str, str] = {}
    settled: set[str] = set()
    heap = [(to_t[s], 0, s)]
    while heap:
        _, negative, u = heapq.heappop(heap)
        if u == t:
            path = [t]
            while path[-1] != s:
                path.append(parent[path[-1]])
            return -negative, tuple(reversed(path))
        if u in settled:
            continue
        settled.add(u)
        for v, data in graph[u].items():
            if v in banned or v in settled or (u == s and v in not_first):
                continue
            h = to_t.get(v)
            if h is None:
                continue
            g = best[u] + data["weight"]
            if g + h <= limit and g < best.get(v, g + 1):
                best[v] = g
                parent[v] = u
                heapq.heappush(heap, (g + h, -g, v))
    return None
