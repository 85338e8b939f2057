"""R2's one implementation (`ttr_maps.graph.TicketDistances`) against an oracle
written here from the rule: the shortest sum of route lengths, by brute force
(Floyd–Warshall over the routes as written, parallel tracks and all)."""

from __future__ import annotations

import itertools
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_maps.graph import (
    TicketDistances,
    shortest_wagon_distance,
    wagon_adjacency,
    wagon_distances_from,
    wagon_graph,
)
from ttr_maps.model import Map

NAMES = [f"C{i}" for i in range(7)]


def _oracle(cities: list[str], routes: list[tuple[str, str, int]]) -> dict:
    best = {(a, b): (0 if a == b else math.inf) for a in cities for b in cities}
    for a, b, length in routes:
        if a != b:
            best[a, b] = best[b, a] = min(best[a, b], length)
    for k, i, j in itertools.product(cities, repeat=3):
        if best[i, k] + best[k, j] < best[i, j]:
            best[i, j] = best[i, k] + best[k, j]
    return best


@st.composite
def maps(draw):
    count = draw(st.integers(2, len(NAMES)))
    cities = NAMES[:count]
    pair = st.tuples(st.sampled_from(cities), st.sampled_from(cities))
    routes = draw(
        st.lists(st.tuples(pair, st.integers(1, 8)), max_size=14).map(
            lambda rs: [(a, b, n) for (a, b), n in rs]
        )
    )
    game_map = Map.from_data(
        {
            "format": 1,
            "id": "g",
            "name": "G",
            "coordinates": "plane",
            "cities": {c: {"x": i, "y": i % 3} for i, c in enumerate(cities)},
            "routes": [{"between": [a, b], "length": n, "color": "red"} for a, b, n in routes],
            "tickets": [],
        }
    )
    return game_map, cities, routes


@settings(max_examples=150, deadline=None)
@given(maps())
def test_r2_every_distance_is_the_shortest_sum_of_route_lengths(case):
    game_map, cities, routes = case
    truth = _oracle(cities, routes)
    pairs = list(itertools.combinations(cities, 2))
    distances = TicketDistances(wagon_adjacency(game_map), pairs)
    from_each = wagon_distances_from(game_map, cities)
    graph = wagon_graph(game_map)
    for a, b in pairs:
        expected = None if truth[a, b] == math.inf else truth[a, b]
        assert distances.distance(a, b) == expected
        assert distances.distance(b, a) == expected
        assert shortest_wagon_distance(game_map, a, b) == expected
        assert from_each[a].get(b) == expected
        path = distances.path(a, b)
        if expected is None:
            assert path == []
        else:  # a real chain of routes whose lengths add up to the distance
            assert path[0] == a and path[-1] == b
            assert sum(graph.edges[p, q]["weight"] for p, q in itertools.pairwise(path)) == expected
