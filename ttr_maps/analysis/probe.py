"""The most one player could score: a mixed-integer programme solved with HiGHS.

A lone player with a wagon budget claims routes and completes tickets (after
Schaefer & Schaefer, "Maximizing the Score in Ticket to Ride", arXiv 2511.08441).
The programme chooses

- x_c ∈ {0, 1} for every connection c (a pair of neighbouring cities): one track
  of a double at most, since one player may never own both (R11);
- one network: a tree of claimed connections, directed away from a root city.
  u_v ∈ {0, 1} says city v is in it, z_uv ∈ {0, 1} that the tree goes from u to v
  over a claimed connection (z_uv + z_vu ≤ x_c), r_v ∈ [0, 1] that v is the root
  (Σ r ≤ 1; the root is the first city of the tree in name order, so each tree
  is counted once). Every city of the tree has exactly one way in:
  Σ_u z_uv + r_v = u_v;
- a single-commodity flow from the root that delivers one unit to every city of
  the tree over its arcs (flow_uv ≤ (n - 1) z_uv), so the tree is connected;
- y_t ∈ {0, 1} for every ticket t: completed (R13) only if both its cities are in
  the tree: y_t ≤ u_a, y_t ≤ u_b;

subject to Σ length_c x_c ≤ wagons, maximising Σ points_c x_c (R10) + Σ value_t y_t.
Claimed connections outside the tree score their points but join nothing.
Incomplete tickets cost nothing: a lone player keeps only what they complete.

Modelling choices (docs/tickets.md): the tickets are completed by one connected
network (routes claimed for their points alone may lie anywhere); the
longest-path bonus (R16, which a lone player always wins) and unbuilt stations
(E1) are constants and are left out, as in the paper. With the printed values of
North America this gives the paper's 285, 223 of it from tickets.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ttr_maps.model import Map, Ticket
from ttr_maps.rules import map_rules


class ProbeError(ValueError):
    """The programme cannot be set up as asked (the message says why)."""


@dataclass(frozen=True)
class ProbeRoute:
    """A connection the programme may claim, and what it scores (R10)."""

    a: str
    b: str
    length: int
    points: int


@dataclass(frozen=True)
class ProbeResult:
    """One solve: the best solo score for a wagon budget and what makes it."""

    wagons: int
    status: str
    optimal: bool
    routes: tuple[ProbeRoute, ...]
    tickets: tuple[Ticket, ...]
    #: Relative gap between the best score found and the bound (0 when optimal).
    gap: float
    cpu_seconds: float

    @property
    def route_points(self) -> int:
        return sum(r.points for r in self.routes)

    @property
    def ticket_points(self) -> int:
        return sum(t.value for t in self.tickets)

    @property
    def score(self) -> int:
        return self.route_points + self.ticket_points

    @property
    def wagons_used(self) -> int:
        return sum(r.length for r in self.routes)


@dataclass(frozen=True)
class TicketRate:
    """What a ticket pays per wagon when built alone along its cheapest path:
    (value + the path's route points) / the path's wagons."""

    ticket: Ticket
    wagons: int
    route_points: int

    @property
    def points_per_wagon(self) -> float:
        return (self.ticket.value + self.route_points) / self.wagons if self.wagons else 0.0


def solve_max_score(
    game_map: Map,
    wagons: int | None = None,
    *,
    tickets: Sequence[Ticket] | None = None,
    time_limit: float | None = None,
) -> ProbeResult:
    """The highest solo score with `wagons` (default: the map's rule set's, R4) and
    `tickets` (default: the map's deck, regular and long)."""
    programme = MaxScoreProgramme(game_map, tickets)
    return programme.solve(map_rules(game_map).wagons if wagons is None else wagons, time_limit)


class MaxScoreProgramme:
    """The programme of the module docstring, built once; `solve` changes only
    the wagon budget, so a sweep reuses it."""

    def __init__(self, game_map: Map, tickets: Sequence[Ticket] | None = None):
        self.map = game_map
        self.deck = list(game_map.tickets if tickets is None else tickets)
        self.connections = _connections(game_map)
        names = sorted(c.name for c in game_map.cities)
        for t in self.deck:
            for city in t.cities:
                if city not in names:
                    raise ProbeError(f"ticket {t.a}–{t.b}: no city {city!r} on {game_map.name}")
        h = self.highs = _quiet_highs()
        h.setOptionValue("random_seed", 0)
        h.setOptionValue("threads", 1)
        self.claim = [h.addBinary(obj=c.points) for c in self.connections]
        lengths = zip(self.connections, self.claim, strict=True)
        self.budget_row = h.addConstr(h.qsum(c.length * x for c, x in lengths) <= 0)

        in_tree = {v: h.addBinary() for v in names}
        root = {v: h.addVariable(lb=0, ub=1) for v in names}
        h.addConstr(h.qsum(root.values()) <= 1)
        for i, v in enumerate(names):  # the root is the tree's first city by name
            for earlier in names[:i]:
                h.addConstr(root[v] + in_tree[earlier] <= 1)
        ways_in: dict[str, list[Any]] = {v: [] for v in names}
        flow_in: dict[str, list[Any]] = {v: [] for v in names}
        flow_out: dict[str, list[Any]] = {v: [] for v in names}
        n = len(names)
        for c, x in zip(self.connections, self.claim, strict=True):
            arcs = [(c.a, c.b, h.addBinary()), (c.b, c.a, h.addBinary())]
            h.addConstr(arcs[0][2] + arcs[1][2] - x <= 0)
            for tail, head, arc in arcs:
                h.addConstr(arc - in_tree[tail] <= 0)
                ways_in[head].append(arc)
                flow = h.addVariable(lb=0, ub=n)
                h.addConstr(flow - (n - 1) * arc <= 0)
                flow_out[tail].append(flow)
                flow_in[head].append(flow)
        for v in names:
            h.addConstr(h.qsum(ways_in[v]) + root[v] - in_tree[v] == 0)
            from_root = h.addVariable(lb=0, ub=n)
            h.addConstr(from_root - n * root[v] <= 0)
            h.addConstr(from_root + h.qsum(flow_in[v]) - h.qsum(flow_out[v]) - in_tree[v] == 0)
        self.done = []
        for t in self.deck:
            y = h.addBinary(obj=t.value)
            h.addConstr(y - in_tree[t.a] <= 0)
            h.addConstr(y - in_tree[t.b] <= 0)
            self.done.append(y)
        h.setMaximize()

    def solve(self, wagons: int, time_limit: float | None = None) -> ProbeResult:
        """Solve for a budget; after a time limit, the best choice found so far
        and its gap to the bound."""
        if wagons < 0:
            raise ProbeError("the wagon budget must not be negative")
        h = self.highs
        h.changeRowBounds(self.budget_row.index, -highs_infinity(), wagons)
        if time_limit is not None:
            h.setOptionValue("time_limit", float(time_limit))
        started = time.process_time()
        h.run()
        status = h.modelStatusToString(h.getModelStatus())
        info = h.getInfo()
        has_solution = info.primal_solution_status == 2  # a feasible point exists
        values = h.getSolution().col_value if has_solution else []
        routes = tuple(
            c
            for c, x in zip(self.connections, self.claim, strict=True)
            if has_solution and values[x.index] > 0.5
        )
        completed = tuple(
            t
            for t, y in zip(self.deck, self.done, strict=True)
            if has_solution and values[y.index] > 0.5
        )
        optimal = status == "Optimal"
        return ProbeResult(
            wagons=wagons,
            status=status,
            optimal=optimal,
            routes=routes,
            tickets=completed,
            gap=0.0 if optimal else float(info.mip_gap) if has_solution else float("inf"),
            cpu_seconds=time.process_time() - started,
        )


def _quiet_highs() -> Any:
    """A HiGHS instance that prints nothing (not even its banner, which it
    writes to the process's standard output when created)."""
    import os
    import sys

    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            highs = highspy.Highs()
            highs.setOptionValue("output_flag", False)
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    return highs


def highs_infinity() -> float:
    import highspy

    return float(highspy.kHighsInf)


def _connections(game_map: Map) -> list[ProbeRoute]:
    """One entry per pair of neighbouring cities (R11: a lone player claims one
    track of a double), as in `wagon_graph`, scored by the map's rule set (R10)."""
    from ttr_maps.graph import wagon_graph

    rules = map_rules(game_map)
    edges = wagon_graph(game_map).edges(data="weight")
    routes = (
        ProbeRoute(*sorted((a, b)), int(length), rules.route_score(int(length)))
        for a, b, length in edges
    )
    return sorted(routes, key=lambda r: (r.a, r.b))


def ticket_rates(game_map: Map, tickets: Sequence[Ticket] | None = None) -> list[TicketRate]:
    """Every ticket's points per wagon along its cheapest path, best first (route
    points by the map's rule set, R10)."""
    from ttr_maps.graph import shortest_city_path, wagon_graph

    rules = map_rules(game_map)
    graph = wagon_graph(game_map)
    rates = []
    for t in game_map.tickets if tickets is None else tickets:
        path = shortest_city_path(game_map, t.a, t.b, graph)
        lengths = [graph.edges[u, v]["weight"] for u, v in itertools.pairwise(path)]
        rates.append(TicketRate(t, sum(lengths), sum(rules.route_score(n) for n in lengths)))
    return sorted(rates, key=lambda r: (-r.points_per_wagon, str(r.ticket)))


@dataclass(frozen=True)
class Sweep:
    """Optima over a range of wagon budgets, and how often each ticket is in one."""

    results: tuple[ProbeResult, ...]

    def ticket_counts(self) -> Counter[Ticket]:
        return Counter(t for r in self.results for t in r.tickets)

    def likely_undervalued(self) -> list[tuple[Ticket, int]]:
        """Tickets completed in more than half of the optima, most often first."""
        half = len(self.results) / 2
        counts = self.ticket_counts()
        return sorted(
            ((t, n) for t, n in counts.items() if n > half),
            key=lambda item: (-item[1], str(item[0])),
        )


def sweep_max_score(
    game_map: Map,
    budgets: Iterable[int],
    *,
    tickets: Sequence[Ticket] | None = None,
    time_limit: float | None = None,
) -> Sweep:
    """`solve_max_score` for every budget."""
    return Sweep(
        tuple(solve_max_score(game_map, w, tickets=tickets, time_limit=time_limit) for w in budgets)
    )


@dataclass(frozen=True)
class ProbeReport:
    """What `ttr probe` reports: one solve, or one per budget of a sweep, and every
    ticket's points per wagon. `values` says where the ticket values came from
    ("map", or the file of other values)."""

    map: Map
    values: str
    solves: tuple[ProbeResult, ...]
    rates: tuple[TicketRate, ...]
    #: The sweep, when budgets were given.
    sweep: Sweep | None = None

    @property
    def optimal(self) -> bool:
        """Whether every solve reached optimality (no time limit stopped one)."""
        return all(r.optimal for r in self.solves)


def probe_map(
    game_map: Map,
    *,
    wagons: int | None = None,
    budgets: Iterable[int] | None = None,
    tickets: Sequence[Ticket] | None = None,
    values: str = "map",
    time_limit: float | None = None,
) -> ProbeReport:
    """Solve for `wagons` (default: the rule set's), or for every budget of
    `budgets` (a sweep), with `tickets` (default: the map's deck)."""
    sweep = None
    if budgets is not None:
        sweep = sweep_max_score(game_map, budgets, tickets=tickets, time_limit=time_limit)
        solves = sweep.results
    else:
        solves = (solve_max_score(game_map, wagons, tickets=tickets, time_limit=time_limit),)
    rates = tuple(ticket_rates(game_map, tickets))
    return ProbeReport(game_map, values, solves, rates, sweep)


def parse_budget_range(text: str) -> range:
    """`30..50` (both ends included) as a range of wagon budgets.

    >>> parse_budget_range("30..32")
    range(30, 33)
    """
    first, sep, last = text.partition("..")
    try:
        low, high = int(first), int(last)
    except ValueError:
        low = high = -1
    if not sep or low < 0 or high < low:
        raise ProbeError(f"--sweep {text!r}: give LOW..HIGH wagons, e.g. 30..50")
    return range(low, high + 1)


def load_ticket_values(path: str | Path, game_map: Map) -> list[Ticket]:
    """Tickets with other values (e.g. the printed ones) from a JSON file: a list,
    or an object with a `tickets` list, of `{a, b, value}` (or `printed_value`, as
    in tests/data/reference/) or `{between: [a, b], value}`; `long: true` marks a
    long ticket. Cities must be on the map."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ProbeError(f"{path}: cannot read: {error.strerror or error}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ProbeError(f"{path}: not JSON: {error}") from None
    entries = data.get("tickets") if isinstance(data, dict) else data
    if not isinstance(entries, list) or not entries:
        raise ProbeError(f"{path}: expected a list of tickets (or an object with 'tickets')")
    names = {c.name for c in game_map.cities}
    tickets = []
    for i, entry in enumerate(entries):
        try:
            a, b = entry["between"] if "between" in entry else (entry["a"], entry["b"])
            value = entry["value"] if "value" in entry else entry["printed_value"]
            if not (isinstance(value, int) and value > 0 and {a, b} <= names):
                raise ValueError
        except (KeyError, TypeError, ValueError):
            raise ProbeError(
                f"{path}: ticket {i + 1}: need two cities of {game_map.name} and a "
                "positive whole value"
            ) from None
        tickets.append(Ticket(a, b, value, long=bool(entry.get("long", False)), entry=i))
    return tickets
