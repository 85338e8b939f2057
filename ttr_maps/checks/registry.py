"""The registry of checks: every problem code the validator can report.

A check is a small function that yields `Finding`s (a message and where it
applies). It never prints or raises. Each is registered with a stable code, a
default level and a one-line summary; its docstring holds a failing and a
passing YAML example.

    @check("TTR201", Level.ERROR, "route names an unknown city")
    def route_unknown_city(ctx: CheckContext) -> Iterator[Finding]:
        ...

Checks run at one of two stages:

- `document` checks receive the parsed `MapDocument` and run on every file that
  is YAML at all, before the schema (duplicate keys must always be reported);
- `map` checks (the default) receive a `CheckContext` and run only on
  schema-valid files, so they can rely on the structure the schema guarantees.
  They must tolerate what other checks report: a route to an unknown city or a
  route from a city to itself must never make a later check fail.
- `design` checks (`checks/design.py`) receive a `CheckContext` too, but run only
  on a map without errors: their numbers (spaces, tickets, paths) would be wrong
  advice on a broken map.

Codes enforced by the reader or by the JSON Schema itself (TTR001, TTR002, TTR203,
TTR204) are registered with `rule`, so reports, `ttr validate --list-checks` and
SARIF know them too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from ttr_maps.checks.problem import Level, Problem
from ttr_maps.graph import TicketDistances, wagon_adjacency
from ttr_maps.io.document import DataPath, MapDocument, Position
from ttr_maps.model import Map, Ticket
from ttr_maps.rules import RuleSet, map_rules

Stage = Literal["reader", "schema", "document", "map", "design"]


@dataclass(frozen=True, slots=True)
class Finding:
    """What a check found: a message, and the document path it points at.

    `position` overrides the path when the place has no path of its own (the
    second occurrence of a repeated key).
    """

    message: str
    path: DataPath = ()
    on_key: bool = False
    position: Position | None = None


@dataclass
class CheckContext:
    """What map checks read: the map, its document (for positions), and derived
    data computed once and shared between checks."""

    map: Map
    document: MapDocument
    #: Route entries the schema rejected, left out of `map` (their index in the file).
    left_out_routes: tuple[int, ...] = ()
    #: Cities whose coordinates the schema rejected: kept, without a position.
    unplaced_cities: frozenset[str] = frozenset()

    @cached_property
    def graph_gaps(self) -> tuple[str, ...]:
        """What is missing from the route graph because of errors, one phrase each
        ("route Denver–Omahaa on line 11 names an unknown city"). Shortest distances
        are then upper bounds only: a distance longer than a ticket's value proves
        nothing (TTR351), a shorter one still proves the value wrong."""
        known = self.known_cities
        gaps = [
            f"route entry on line {self.document.position(('routes', entry)).line} "
            "has schema errors"
            for entry in self.left_out_routes
        ]
        seen: set[int] = set()
        for route in self.map.routes:
            if route.entry in seen or (route.a in known and route.b in known):
                continue
            seen.add(route.entry)
            line = self.document.position(("routes", route.entry)).line
            gaps.append(f"route {route.a}–{route.b} on line {line} names an unknown city")
        return tuple(gaps)

    @cached_property
    def rules(self) -> RuleSet:
        """The rules the map is played with (its rule set and settings): the one
        source of every rule number a check uses."""
        return map_rules(self.map)

    @cached_property
    def known_cities(self) -> frozenset[str]:
        return frozenset(self.map.city_index)

    @cached_property
    def routable_tickets(self) -> tuple[Ticket, ...]:
        """Tickets between two different declared cities: the ones R2 can price
        (TTR301 and TTR302 report the others)."""
        known = self.known_cities
        return tuple(t for t in self.map.tickets if t.a in known and t.b in known and t.a != t.b)

    @cached_property
    def adjacency(self) -> dict[str, dict[str, int]]:
        """Neighbours of every declared city with the wagon length between them
        (see `ttr_maps.graph.wagon_adjacency`)."""
        return wagon_adjacency(self.map)

    @cached_property
    def ticket_distances(self) -> TicketDistances:
        """R2: the shortest wagon distances between the routable tickets' cities
        (`ttr_maps.graph.TicketDistances`, the one implementation)."""
        return TicketDistances(self.adjacency, self.routable_tickets)

    def wagon_distance(self, a: str, b: str) -> int | None:
        """R2: the shortest distance between two ticket cities, None if unreachable."""
        return self.ticket_distances.distance(a, b)

    def shortest_path(self, a: str, b: str) -> list[str]:
        """One shortest city path from `a` to `b` between ticket cities, or []."""
        return self.ticket_distances.path(a, b)


CheckFunction = Callable[[Any], Iterator[Finding]]


@dataclass(frozen=True)
class Check:
    """One registered code. `function` is None for codes that the reader or the
    schema enforce; `doc` then holds their description."""

    code: str
    level: Level
    summary: str
    stage: Stage
    function: CheckFunction | None = field(default=None, repr=False)
    description: str = field(default="", repr=False)

    @property
    def doc(self) -> str:
        if self.function is not None and self.function.__doc__:
            return self.function.__doc__
        return self.description

    def run(self, subject: CheckContext | MapDocument) -> Iterator[Problem]:
        """Run the check on a `CheckContext` (map stage) or a `MapDocument`."""
        if self.function is None:
            return
        document = subject.document if isinstance(subject, CheckContext) else subject
        for finding in self.function(subject):
            position = finding.position or document.position(finding.path, key=finding.on_key)
            yield Problem(document.path, position, self.level, self.code, finding.message)


REGISTRY: dict[str, Check] = {}


def _register(entry: Check) -> None:
    if entry.code in REGISTRY:
        raise ValueError(f"check code {entry.code} registered twice")
    REGISTRY[entry.code] = entry


def check(
    code: str, level: Level, summary: str, *, stage: Literal["document", "map", "design"] = "map"
) -> Callable[[CheckFunction], CheckFunction]:
    """Register a check function under a stable code."""

    def register(function: CheckFunction) -> CheckFunction:
        _register(Check(code, level, summary, stage, function))
        return function

    return register


def rule(
    code: str, level: Level, summary: str, description: str, *, stage: Stage = "schema"
) -> None:
    """Register a code that the reader or the JSON Schema enforces (no function)."""
    _register(Check(code, level, summary, stage, None, description))
