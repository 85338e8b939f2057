"""R16: the longest continuous path of a player's routes.

Each route counts once, but a city may be passed more than once: this is the
longest *trail* of the graph, found exactly, one connected network at a time.

>>> longest_trail([(0, 1, 2), (1, 2, 3), (2, 0, 4), (1, 3, 5)])  # a loop with a tail
14

The engine asks for one player's routes out of a board's `RouteTable`, which is
built once per map (`Board.trail_table`), so no per-route tuples are made at
scoring time:

>>> table = route_table([(0, 1, 2), (1, 2, 3), (2, 0, 4), (1, 3, 5)])
>>> longest_trail_in(table, [0, 1, 3])  # without 2-0: three routes from city 1
8
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

#: A route seen from one of its cities: (the other city, the route's bit, length).
Link = tuple[int, int, int]
#: Per city index, its links: a list with None for cities outside the network, or a
#: dict of the cities in it.
Adjacency = list[Any] | dict[int, list[Link]]
#: A connected network while it is gathered: [total length, routes, cities].
Network = list[Any]


class RouteTable(NamedTuple):
    """Routes as the search reads them: per route (city a, city b, length, the link
    seen from a, the link seen from b); cities are numbered 0 to `cities` - 1."""

    cities: int
    routes: tuple[tuple[int, int, int, Link, Link], ...]


def route_table(routes: Iterable[tuple[int, int, int]]) -> RouteTable:
    """`(city_a, city_b, length)` routes (cities numbered from 0) as a table; route
    `i` gets the bit `1 << i`."""
    rows = tuple(
        (a, b, length, (b, 1 << i, length), (a, 1 << i, length))
        for i, (a, b, length) in enumerate(routes)
    )
    return RouteTable(max((max(a, b) for a, b, *_ in rows), default=-1) + 1, rows)


def longest_trail(routes: Iterable[tuple[int, int, int]]) -> int:
    """The length of the longest trail through `(city_a, city_b, length)` routes."""
    table = route_table(routes)
    return longest_trail_in(table, range(len(table.routes)))


def longest_trail_in(table: RouteTable, owned: Iterable[int]) -> int:
    """The length of the longest trail through the routes `owned` (indices into
    `table`)."""
    best = 0
    networks, adjacency = _networks(table, owned)
    for total, routes, cities in networks:
        if total <= best:
            break  # longest networks first: no other one can beat `best`
        if len(routes) == 1:
            found = total
        else:
            if len(routes) == len(cities) - 1:  # a tree: one path between two cities
                found = _farthest(adjacency, _farthest(adjacency, cities[0])[0])[1]
            else:
                found = _longest_in_network(adjacency, cities, total)
        if found > best:
            best = found
    return best


def _networks(table: RouteTable, owned: Iterable[int]) -> tuple[list[Network], Adjacency]:
    """The connected networks of the routes as [total length, routes, cities],
    longest first, and per city its links (a list indexed by city, None for cities
    without a route: quicker to read than a dict), in one pass: each route either
    starts a network, grows one, closes a loop in one or joins two (the smaller one
    moves into the larger and is left with total 0, which sorts it last).
    `ttr_core.engine.connectivity` answers only whether two cities are joined; the
    search needs each network's routes, cities and total, which these labels gather
    on the way."""
    rows = table.routes
    network_of: list[Network | None] = [None] * table.cities
    adjacency: list[Any] = [None] * table.cities
    networks: list[Network] = []
    for route in owned:
        a, b, length, from_a, from_b = rows[route]
        at_a = network_of[a]
        at_b = network_of[b]
        if at_a is None:
            adjacency[a] = [from_a]
            if at_b is None:
                adjacency[b] = [from_b]
                network_of[a] = network_of[b] = new = [length, [route], [a, b]]
                networks.append(new)
            else:
                adjacency[b].append(from_b)
                at_b[0] += length
                at_b[1].append(route)
                at_b[2].append(a)
                network_of[a] = at_b
            continue
        adjacency[a].append(from_a)
        if at_b is None:
            adjacency[b] = [from_b]
            at_a[0] += length
            at_a[1].append(route)
            at_a[2].append(b)
            network_of[b] = at_a
            continue
        adjacency[b].append(from_b)
        if at_a is at_b:
            at_a[0] += length
            at_a[1].append(route)
        else:
            large, small = (at_a, at_b) if len(at_a[2]) >= len(at_b[2]) else (at_b, at_a)
            large[0] += small[0] + length
            large[1] += small[1]
            large[1].append(route)
            large[2] += small[2]
            for city in small[2]:
                network_of[city] = large
            small[0] = 0
    networks.sort(reverse=True)
    return networks, adjacency


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


def _longest_in_network(adjacency: Adjacency, cities: list[int], total: int) -> int:
    # A longest trail that is not closed ends at cities of odd degree (at an even
    # one an unused route would extend it), so those are the only starts needed. A
    # network with no or two such cities has an Euler circuit or path: all of it.
    odd = [c for c in cities if len(adjacency[c]) & 1]
    if len(odd) <= 2:
        return total

    # With more than two, no closed trail is longest (one could be turned to start
    # next to an unused route and take it), so a longest one joins two different
    # odd cities and is found from either end: the last one need not be tried.
    links = _chains_joined(adjacency, cities)
    # Each odd city with its shortest link other than a loop, longest first: a
    # city at the end of a long link is the likelier end of a longest trail.
    ends = sorted([(_shortest_link(links[c], c), c) for c in odd], reverse=True)
    # The routes a trail leaves out have odd degree at every odd city but its two
    # ends, so each of those cities has a link left out, at least as long as its
    # shortest one. A left-out link serves at most two such cities and is at least
    # the mean of their shortest links: a trail from `start` leaves out at least half
    # the sum of the shortest links of the odd cities but `start` and its other end
    # (at best the one with the longest link). That ceiling stops a search from
    # `start` once reached, and skips the start when the best trail found reaches it.
    # Starts go highest ceiling first: the first one's is the network's.
    left = sum([shortest for shortest, _ in ends]) + 1
    best = 0
    for index, (shortest, start) in enumerate(ends[:-1]):
        other = ends[1][0] if index == 0 else ends[0][0]
        ceiling = total - (left - shortest - other) // 2
        if ceiling <= best:
            continue
        stack = [(start, 0, 0)]  # depth first over (city, links used, length so far)
        pop, push = stack.pop, stack.append
        while stack:
            city, used, length = pop()
            if length > best:
                best = length
                if best == ceiling:  # nothing from `start` can be longer
                    break
            for neighbour, bit, link_length in links[city]:
                if not used & bit:
                    push((neighbour, used | bit, length + link_length))
    return best


def _shortest_link(links: list[Link], city: int) -> int:
    """The shortest of a city's links that is not a loop back to it."""
    return min([length for other, _, length in links if other != city])


def _chains_joined(adjacency: Adjacency, cities: list[int]) -> Adjacency:
    """The network with every chain of cities that have two routes made into one
    link: a trail that enters such a city leaves it by the other route, and never
    ends there (its degree is even), so the search need not stop at it. A chain
    that comes back to where it started becomes a loop, listed once. Links get
    small bits of their own (1, 2, 4, ...), which keep the search's sets short."""
    links: Adjacency = {c: [] for c in cities if len(adjacency[c]) != 2}
    walked = 0  # bits of the first and last route of every chain made so far
    bit = 1
    for city in links:
        for neighbour, first, length in adjacency[city]:
            if walked & first:
                continue  # made from its other end
            last = first
            while len(adjacency[neighbour]) == 2:
                one, two = adjacency[neighbour]
                neighbour, last, step = two if one[1] == last else one
                length += step
            walked |= first | last
            links[city].append((neighbour, bit, length))
            if neighbour != city:
                links[neighbour].append((city, bit, length))
            bit <<= 1
    return links
