"""R16: the longest continuous path of a player's routes.

Each route counts once, but a city may be passed more than once: this is the
longest *trail* of the graph, found exactly by a depth-first search over routes
(not over cities), one connected network at a time.

>>> longest_trail([(0, 1, 2), (1, 2, 3), (2, 0, 4), (1, 3, 5)])  # a loop with a tail
14
"""

from __future__ import annotations

from collections.abc import Iterable


def longest_trail(routes: Iterable[tuple[int, int, int]]) -> int:
    """The length of the longest trail through `(city_a, city_b, length)` routes."""
    edges = list(routes)
    adjacency: dict[int, list[tuple[int, int, int]]] = {}
    for index, (a, b, length) in enumerate(edges):
        adjacency.setdefault(a, []).append((b, 1 << index, length))
        adjacency.setdefault(b, []).append((a, 1 << index, length))
    best = 0
    for component, total in _components(adjacency, edges):
        if total <= best:
            continue
        found = _longest_in_component(adjacency, component, total)
        best = max(best, found)
    return best


def _components(
    adjacency: dict[int, list[tuple[int, int, int]]], edges: list[tuple[int, int, int]]
) -> list[tuple[list[int], int]]:
    """Connected networks with their total length, longest first."""
    seen: set[int] = set()
    found = []
    for start in adjacency:
        if start in seen:
            continue
        stack, cities = [start], []
        seen.add(start)
        while stack:
            city = stack.pop()
            cities.append(city)
            for neighbour, _, _ in adjacency[city]:
                if neighbour not in seen:
                    seen.add(neighbour)
                    stack.append(neighbour)
        members = set(cities)
        total = sum(length for a, _, length in edges if a in members)
        found.append((cities, total))
    return sorted(found, key=lambda item: -item[1])


def _longest_in_component(
    adjacency: dict[int, list[tuple[int, int, int]]], cities: list[int], total: int
) -> int:
    best = 0

    def extend(city: int, used: int, length: int) -> None:
        nonlocal best
        if length > best:
            best = length
        for neighbour, bit, route_length in adjacency[city]:
            if not used & bit:
                extend(neighbour, used | bit, length + route_length)
                if best == total:  # every route is used: nothing can be longer
                    return

    # A longest trail that is not closed ends at cities of odd degree, so those are
    # the only starts needed; a network without any has an Euler circuit (all of it).
    odd = [c for c in cities if len(adjacency[c]) % 2 == 1]
    if not odd:
        return total
    for start in odd:
        extend(start, 0, 0)
        if best == total:
            break
    return best
