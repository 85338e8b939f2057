"""Which cities a set of routes joins: one union-find over city indices, shared by
ticket completion during the game (R13) and the stations' borrowed routes (E1).

>>> cities = Connectivity(4)
>>> cities.join(0, 1); cities.join(1, 2)
>>> cities.connected(0, 2), cities.connected(0, 3)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable


class Connectivity:
    """Cities joined by routes added one at a time (never removed)."""

    __slots__ = ("parent",)

    def __init__(self, cities: int) -> None:
        self.parent = list(range(cities))

    @classmethod
    def of_routes(cls, cities: int, ends: Iterable[tuple[int, int]]) -> Connectivity:
        """The cities joined by routes given as (city a, city b)."""
        joined = cls(cities)
        for a, b in ends:
            joined.join(a, b)
        return joined

    def copy(self) -> Connectivity:
        twin = Connectivity.__new__(Connectivity)
        twin.parent = self.parent[:]
        return twin

    def find(self, city: int) -> int:
        """The representative city of `city`'s network (paths halved on the way)."""
        parent = self.parent
        while parent[city] != city:
            parent[city] = parent[parent[city]]
            city = parent[city]
        return city

    def join(self, a: int, b: int) -> None:
        """A route between cities `a` and `b`."""
        root_a, root_b = self.find(a), self.find(b)
        if root_a != root_b:
            self.parent[root_a] = root_b

    def connected(self, a: int, b: int) -> bool:
        return self.find(a) == self.find(b)
