"""R16: the longest continuous path of a player's routes.

Each route counts once, but a city may be passed more than once: this is the
longest *trail* of the graph, found exactly by a depth-first search over routes
(not over cities), one connected network at a time.

>>> longest_trail([(0, 1, 2), (1, 2, 3), (2, 0, 4), (1, 3, 5)])  # a loop with a tail
14
"""

from __future__ import annotations

from collections.abc import Iterable

#: Per city: (neighbour, bit of the route, route length) for each of its routes.
Adjacency = dict[int, list[tuple[int, int, int]]]


def longest_trail(routes: Iterable[tuple[int, int, int]]) -> int:
    """The length of the longest trail through `(city_a, city_b, length)` routes."""
    adjacency: Adjacency = {}
    bit = 1
    for a, b, length in routes:
        if a in adjacency:
            adjacency[a].append((b, bit, length))
        else:
            adjacency[a] = [(b, bit, length)]
        if b in adjacency:
            adjacency[b].append((a, bit, length))
        else:
            adjacency[b] = [(a, bit, length)]
        bit <<= 1
    best = 0
    for total, routes_in, cities, far in _components(adjacency):
        if total <= best:
            break  # longest networks first: no other one can beat `best`
        if routes_in == 1:
            found = total
        elif routes_in == len(cities) - 1:  # a tree: one path between any two cities
            found = _farthest(adjacency, far)[1]
        else:
            found = _longest_in_component(adjacency, cities, total)
        if found > best:
            best = found
    return best


def _components(adjacency: Adjacency) -> list[tuple[int, int, list[int], int]]:
    """Connected networks as (total length, routes, cities, the city farthest from
    the first one if the network is a tree), longest first, in one pass over the
    cities (each route is seen from both ends, so halved)."""
    seen: set[int] = set()
    found = []
    for start in adjacency:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, 0)]
        cities, twice, ends, far, far_length = [], 0, 0, start, 0
        while stack:
            city, distance = stack.pop()
            cities.append(city)
            if distance > far_length:
                far, far_length = city, distance
            links = adjacency[city]
            ends += len(links)
            for neighbour, _, length in links:
                twice += length
                if neighbour not in seen:
                    seen.add(neighbour)
                    stack.append((neighbour, distance + length))
        found.append((twice // 2, ends // 2, cities, far))
    found.sort(reverse=True)  # longest first (ties in any order)
    return found


def _farthest(adjacency: Adjacency, start: int) -> tuple[int, int]:
    """In a tree: the city farthest from `start`, and its distance. (From the city
    farthest from anywhere, that distance is the tree's longest path.)"""
    far, far_length = start, 0
    stack = [(start, -1, 0)]
    while stack:
        city, came_from, length = stack.pop()
        if length > far_length:
            far, far_length = city, length
        for neighbour, _, route_length in adjacency[city]:
            if neighbour != came_from:
                stack.append((neighbour, city, length + route_length))
    return far, far_length


def _longest_in_component(adjacency: Adjacency, cities: list[int], total: int) -> int:
    # A longest trail that is not closed ends at cities of odd degree (at an even
    # one an unused route would extend it), so those are the only starts needed. A
    # network with no or two such cities has an Euler circuit or path: all of it.
    odd = [c for c in cities if len(adjacency[c]) & 1]
    if len(odd) <= 2:
        return total

    # With more than two, no closed trail is longest (one could be turned to start
    # next to an unused route and take it), so a longest one joins two different
    # odd cities and is found from either end: the last one need not be tried.
    best = 0
    for start in odd[:-1]:  # depth first over (city, routes used, length so far)
        stack = [(start, 0, 0)]
        pop, push = stack.pop, stack.append
        while stack:
            city, used, length = pop()
            if length > best:
                best = length
                if best == total:  # every route is used: nothing can be longer
                    return best
            for neighbour, bit, route_length in adjacency[city]:
                if not used & bit:
                    push((neighbour, used | bit, length + route_length))
    return best
