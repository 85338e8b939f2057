"""The registry of semantic checks.

A check is a small function that receives a `CheckContext` and yields
`Finding`s (a message and where it applies). It never prints or raises. Each is
registered with a stable code, a default level and a one-line summary; its
docstring holds a failing and a passing YAML example.

    @check("TTR201", Level.ERROR, "route names an unknown city")
    def route_unknown_city(ctx: CheckContext) -> Iterator[Finding]:
        ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ttr_maps.document import DataPath, MapDocument
from ttr_maps.model import Map
from ttr_maps.problem import Level, Problem

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True, slots=True)
class Finding:
    """What a check found: a message, and the document path it points at."""

    message: str
    path: DataPath = ()
    on_key: bool = False


@dataclass
class CheckContext:
    """What checks read: the map, its document (for positions), and derived data
    computed once and shared between checks."""

    map: Map
    document: MapDocument

    @cached_property
    def graph(self) -> nx.Graph:
        from ttr_maps.graph import wagon_graph

        return wagon_graph(self.map)

    @cached_property
    def ticket_distances(self) -> dict[str, dict[str, int]]:
        """Shortest wagon distances from every city that starts a ticket."""
        from ttr_maps.graph import wagon_distances_from

        known = self.map.city_index
        sources = [t.a for t in self.map.tickets if t.a in known]
        return wagon_distances_from(self.map, sources, self.graph)


CheckFunction = Callable[[CheckContext], Iterator[Finding]]


@dataclass(frozen=True)
class Check:
    code: str
    level: Level
    summary: str
    function: CheckFunction = field(repr=False)

    @property
    def doc(self) -> str:
        return self.function.__doc__ or ""

    def run(self, ctx: CheckContext) -> Iterator[Problem]:
        for finding in self.function(ctx):
            yield Problem(
                ctx.document.path,
                ctx.document.position(finding.path, key=finding.on_key),
                self.level,
                self.code,
                finding.message,
            )


REGISTRY: dict[str, Check] = {}


def check(code: str, level: Level, summary: str) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check under a stable code."""

    def register(function: CheckFunction) -> CheckFunction:
        if code in REGISTRY:
            raise ValueError(f"check code {code} registered twice")
        REGISTRY[code] = Check(code, level, summary, function)
        return function

    return register


def all_checks() -> list[Check]:
    """Every registered check, by code."""
    _load_check_modules()
    return [REGISTRY[code] for code in sorted(REGISTRY)]


def _load_check_modules() -> Any:
    # Importing the modules registers their checks.
    from ttr_maps.checks import cities, routes, tickets, topology  # noqa: F401
