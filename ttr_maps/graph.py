"""Graph analysis of a map with networkx: distances in wagons, paths, components.

networkx is imported inside the functions, so importing this module stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ttr_maps.model import Map

if TYPE_CHECKING:
    import networkx as nx


def wagon_graph(game_map: Map) -> nx.Graph:
    """The map as a simple weighted graph: one edge per pair of neighbouring cities,
    weighted by the route length (parallel tracks have one length; the shortest is
    taken if a broken map says otherwise). Edge attribute `routes` lists the route ids.
    """
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(c.name for c in game_map.cities)
    for route in game_map.routes:
        if route.a == route.b:
            continue
        if graph.has_edge(route.a, route.b):
            edge = graph.edges[route.a, route.b]
            edge["weight"] = min(edge["weight"], route.length)
            edge["routes"].append(route.id)
        else:
            graph.add_edge(route.a, route.b, weight=route.length, routes=[route.id])
    return graph


def wagon_distances_from(
    game_map: Map, sources: Iterable[str], graph: nx.Graph | None = None
) -> dict[str, dict[str, int]]:
    """Shortest wagon distance (R2) from each source to every reachable city.

    One single-source Dijkstra per distinct source, so checking many tickets costs
    one search per ticket city, not one per ticket.
    """
    import networkx as nx

    graph = wagon_graph(game_map) if graph is None else graph
    return {
        source: nx.single_source_dijkstra_path_length(graph, source, weight="weight")
        for source in dict.fromkeys(sources)
        if source in graph
    }


def shortest_wagon_distance(game_map: Map, a: str, b: str) -> int | None:
    """R2: the shortest distance between two cities in wagons, None if unreachable.

    >>> from ttr_maps.model import Map
    >>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
    ...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 1, "y": 0}, "C": {"x": 2, "y": 0}},
    ...     "routes": [{"between": ["A", "B"], "length": 2, "color": "red"},
    ...                {"between": ["B", "C"], "length": 3, "color": "red"}], "tickets": []})
    >>> shortest_wagon_distance(m, "A", "C")
    5
    """
    return wagon_distances_from(game_map, [a]).get(a, {}).get(b)


def shortest_city_path(game_map: Map, a: str, b: str, graph: nx.Graph | None = None) -> list[str]:
    """One shortest path (in wagons) from `a` to `b` as a list of city names, or []."""
    import networkx as nx

    graph = wagon_graph(game_map) if graph is None else graph
    try:
        return nx.dijkstra_path(graph, a, b, weight="weight")
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return []


def connected_city_groups(game_map: Map, graph: nx.Graph | None = None) -> list[list[str]]:
    """Groups of cities joined by routes, largest first, each sorted by name."""
    import networkx as nx

    graph = wagon_graph(game_map) if graph is None else graph
    groups = [sorted(c) for c in nx.connected_components(graph)]
    return sorted(groups, key=lambda g: (-len(g), g))
