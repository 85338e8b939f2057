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

subject to Σ length_c x_c ≤ wagons, maximising Σ points_c x_c (R10) + Σ points_t y_t
(the ticket's value and a designer's bonus, D7). Claimed connections outside the
tree score their points but join nothing. Incomplete tickets cost nothing: a lone
player keeps only what they complete. With a separate long deck (E4) at most
`setup_long_tickets` long tickets count: that many are dealt to a player, and the
rest leave the game.

What the programme takes from the map's rule set (`map_rules`): the wagons (R4),
the route points (R10), one track of a double (R11), the long tickets a player is
dealt (E4). What it leaves out (`LEFT_OUT`, printed with every result): the
longest-path bonus (R16, which a lone player always wins) and unbuilt stations
(E1) are constants, as in the paper; the train cards (R7, R9: colours, tunnels E2,
ferries' locomotives E3); drawing tickets three at a time and keeping at least one
(R12: a lone player here chooses from the whole deck); and other players.

Solves are deterministic: one thread, a fixed seed, and a limit in branch-and-bound
nodes (not seconds), so the same command gives the same answer on any machine. A
sweep solves budgets from the smallest up and starts each from the previous
optimum (still feasible with more wagons), so its scores never fall as the budget
grows. With the printed values of North America this gives the paper's 285, 223
of it from tickets.
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

from ttr_maps.io.limits import MAX_PROBE_CITIES
from ttr_maps.model import Map, Ticket
from ttr_maps.rules import RuleSet, map_rules

#: What the programme does not model, in words (docs/tickets.md).
LEFT_OUT = (
    "the longest-path bonus (R16) and unbuilt stations (E1): constants for a lone player",
    "train cards: colours (R9), tunnels (E2) and ferries' locomotives (E3)",
    "drawing tickets three at a time and keeping one (R12): the whole deck is open",
    "other players",
)


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
        """The completed tickets' points: value and bonus (D7)."""
        return sum(t.points for t in self.tickets)

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
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> ProbeResult:
    """The highest solo score with `wagons` (default: the map's rule set's, R4) and
    `tickets` (default: the map's deck, regular and long)."""
    programme = MaxScoreProgramme(game_map, tickets)
    wagons = map_rules(game_map).wagons if wagons is None else wagons
    return programme.solve(wagons, node_limit, time_limit)


def long_ticket_limit(rules: RuleSet, tickets: Sequence[Ticket]) -> int | None:
    """E4: the long tickets one player can hold (`setup_long_tickets`, dealt at
    setup; the others leave the game), or None when the rules have no long deck."""
    if rules.long_tickets and any(t.long for t in tickets):
        return rules.setup_long_tickets
    return None


class MaxScoreProgramme:
    """The programme of the module docstring, built once; `solve` changes only
    the wagon budget, so a sweep reuses it."""

    def __init__(self, game_map: Map, tickets: Sequence[Ticket] | None = None):
        self.map = game_map
        self.deck = list(game_map.tickets if tickets is None else tickets)
        self.long_limit = long_ticket_limit(map_rules(game_map), self.deck)
        self.last: list[float] | None = None  # the previous solution, to start from
        self.last_wagons = 0
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
        # The root is the tree's first city by name: `before` says that a city
        # earlier than v is in the tree (at least each earlier city's u), and then
        # v cannot be the root. A chain, linear in the cities.
        before = None
        for v in names:
            if before is not None:
                h.addConstr(root[v] + before <= 1)
            after = h.addVariable(lb=0, ub=1)
            h.addConstr(after - in_tree[v] >= 0)
            if before is not None:
                h.addConstr(after - before >= 0)
            before = after
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
            y = h.addBinary(obj=t.points)  # R15 with a designer's bonus (D7)
            h.addConstr(y - in_tree[t.a] <= 0)
            h.addConstr(y - in_tree[t.b] <= 0)
            self.done.append(y)
        if self.long_limit is not None:  # E4: the long tickets one player is dealt
            long_done = [y for t, y in zip(self.deck, self.done, strict=True) if t.long]
            h.addConstr(h.qsum(long_done) <= self.long_limit)
        h.setMaximize()

    def solve(
        self, wagons: int, node_limit: int | None = None, time_limit: float | None = None
    ) -> ProbeResult:
        """Solve for a budget; after `node_limit` branch-and-bound nodes, the best
        choice found so far and its gap to the bound (deterministic: nodes, not
        seconds), or after `time_limit` seconds of wall time (which bounds the
        root node too, where a big map spends minutes before the first node; the
        answer then depends on the machine). Ctrl-C or SIGTERM stops the solve.
        A budget at least the last one solved starts from its solution."""
        if wagons < 0:
            raise ProbeError("the wagon budget must not be negative")
        h = self.highs
        h.changeRowBounds(self.budget_row.index, -highs_infinity(), wagons)
        if node_limit is not None:
            h.setOptionValue("mip_max_nodes", int(node_limit))
        if time_limit is not None:
            h.setOptionValue("time_limit", float(time_limit))
        if self.last is not None and wagons >= self.last_wagons:
            h.setSolution(_solution(h, self.last))  # feasible still: more wagons
        started = time.process_time()
        _run_stoppably(h)
        status = h.modelStatusToString(h.getModelStatus())
        info = h.getInfo()
        has_solution = info.primal_solution_status == 2  # a feasible point exists
        values = list(h.getSolution().col_value) if has_solution else []
        if has_solution:
            self.last, self.last_wagons = values, wagons
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


def _run_stoppably(h: Any) -> None:
    """Run HiGHS so that a signal stops it: its C code does not return to Python
    until the solve ends, so it runs in HiGHS's own thread while this one waits;
    Ctrl-C (KeyboardInterrupt) or SIGTERM (`SystemExit`, `cli.app.stop_on_signals`)
    cancels the solve, waits for it to stop, and goes on unwinding."""
    h.HandleUserInterrupt = True
    h.startSolve()
    try:
        while not h.wait(0.1)[0]:
            pass
    except BaseException:
        h.cancelSolve()
        while not h.wait(0.1)[0]:
            pass
        raise


def _solution(h: Any, values: list[float]) -> Any:
    """A HiGHS solution holding `values` (to start the next solve from)."""
    import highspy

    solution = highspy.HighsSolution()
    solution.col_value = values
    solution.value_valid = True
    return solution


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

    @property
    def proven(self) -> tuple[ProbeResult, ...]:
        """The solves proven optimal: the only ones the ticket table reads."""
        return tuple(r for r in self.results if r.optimal)

    def ticket_counts(self) -> Counter[Ticket]:
        return Counter(t for r in self.proven for t in r.tickets)

    def likely_undervalued(self) -> list[tuple[Ticket, int]]:
        """Tickets completed in more than half of the proven optima, most often first."""
        half = len(self.proven) / 2
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
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> Sweep:
    """`solve_max_score` for every budget, from the smallest up, on one programme:
    each solve starts from the previous optimum (feasible with more wagons), so
    the scores never fall as the budget grows."""
    programme = MaxScoreProgramme(game_map, tickets)
    ordered = sorted(set(budgets))
    return Sweep(tuple(programme.solve(w, node_limit, time_limit) for w in ordered))


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
    #: E4: the most long tickets counted (None: no long deck).
    long_limit: int | None = None
    #: Per ticket of `rates`, the warnings `ttr validate` gives it (TTR353, TTR354).
    checks: tuple[tuple[str, ...], ...] = ()

    @property
    def optimal(self) -> bool:
        """Whether every solve reached optimality (no node limit stopped one)."""
        return all(r.optimal for r in self.solves)

    @property
    def left_out(self) -> tuple[str, ...]:
        return LEFT_OUT


def probe_map(
    game_map: Map,
    *,
    wagons: int | None = None,
    budgets: Iterable[int] | None = None,
    tickets: Sequence[Ticket] | None = None,
    values: str = "map",
    node_limit: int | None = None,
    time_limit: float | None = None,
) -> ProbeReport:
    """Solve for `wagons` (default: the rule set's), or for every budget of
    `budgets` (a sweep), with `tickets` (default: the map's deck); `node_limit`
    and `time_limit` apply to each solve. A map of more than `MAX_PROBE_CITIES`
    cities is refused (`ProbeError`)."""
    if len(game_map.cities) > MAX_PROBE_CITIES:
        raise ProbeError(
            f"{len(game_map.cities):,} cities: ttr probe solves maps of at most "
            f"{MAX_PROBE_CITIES:,} cities (its programme grows with the map, and the "
            "solver's first node alone takes minutes past that)"
        )
    limits = {"node_limit": node_limit, "time_limit": time_limit}
    sweep = None
    if budgets is not None:
        sweep = sweep_max_score(game_map, budgets, tickets=tickets, **limits)
        solves = sweep.results
    else:
        solves = (solve_max_score(game_map, wagons, tickets=tickets, **limits),)
    rates = tuple(ticket_rates(game_map, tickets))
    deck = game_map.tickets if tickets is None else tickets
    return ProbeReport(
        game_map,
        values,
        solves,
        rates,
        sweep,
        long_ticket_limit(map_rules(game_map), deck),
        ticket_checks(game_map, [r.ticket for r in rates]),
    )


def ticket_checks(game_map: Map, tickets: Sequence[Ticket]) -> tuple[tuple[str, ...], ...]:
    """The design warnings `ttr validate` gives each ticket (TTR353, TTR354), for
    the tickets that follow R2 (a printed value is judged at its R2 distance).
    The fragility searches share validation's budget (`FRAGILE_SEARCH_BUDGET`):
    past it a ticket says "TTR353 unchecked", as validate says how many it left."""
    from ttr_maps.checks.design import FRAGILE_SEARCH_BUDGET, ticket_design_codes
    from ttr_maps.graph import shortest_paths_to_targets, wagon_adjacency

    adjacency = wagon_adjacency(game_map)
    targets: dict[str, set[str]] = {}
    for t in tickets:
        targets.setdefault(t.a, set()).add(t.b)
    searches = shortest_paths_to_targets(adjacency, targets)
    budget = [FRAGILE_SEARCH_BUDGET]
    found = []
    for t in tickets:
        distance = 0 if t.a == t.b else searches[t.a].distance.get(t.b)
        found.append(
            ()
            if distance is None
            else ticket_design_codes(game_map, adjacency, t, distance, budget)
        )
    return tuple(found)


def parse_budget_range(text: str) -> range:
    """`30..50` (both ends included) as a range of wagon budgets: at most
    `MAX_SWEEP_BUDGETS` of them, each within the documented range of `wagons`
    (docs/rules.md, Rule-set fields). Raises `ProbeError` naming the bound.

    >>> parse_budget_range("30..32")
    range(30, 33)
    """
    from ttr_maps.rules import MAX_SWEEP_BUDGETS, field_ranges
    from ttr_maps.text import glimpse

    wagons = field_ranges()["wagons"]
    first, sep, last = text.partition("..")
    shown = glimpse(text)
    first, last = first.strip(), last.strip()
    if not sep or not (
        first.isdecimal() and first.isascii() and last.isdecimal() and last.isascii()
    ):
        raise ProbeError(f"--sweep {shown!r}: give LOW..HIGH wagons, e.g. 30..50")
    # A bound of more digits than any budget is past the range (and never parsed whole).
    low, high = (int(n) if len(n) <= 9 else 10**9 for n in (first, last))
    if high < low:
        raise ProbeError(f"--sweep {shown!r}: give LOW..HIGH wagons with LOW <= HIGH, e.g. 30..50")
    assert wagons.minimum is not None and wagons.maximum is not None
    if low < wagons.minimum or high > wagons.maximum:
        raise ProbeError(
            f"--sweep {shown!r}: each budget must be from {wagons.minimum} to "
            f"{wagons.maximum} wagons (the range of `wagons`)"
        )
    if high - low + 1 > MAX_SWEEP_BUDGETS:
        raise ProbeError(
            f"--sweep {shown!r}: {high - low + 1:,} budgets; at most "
            f"{MAX_SWEEP_BUDGETS} budgets in one sweep"
        )
    return range(low, high + 1)


def load_ticket_values(path: str | Path, game_map: Map) -> list[Ticket]:
    """Tickets with other values (e.g. the printed ones) from a JSON file: a list,
    or an object with a `tickets` list, of `{a, b, value}` (or `printed_value`, as
    in tests/data/reference/) or `{between: [a, b], value}`; `long: true` marks a
    long ticket. Cities must be on the map."""
    from ttr_maps.io.files import describe_os_error, read_regular_file
    from ttr_maps.io.limits import MAX_MAP_BYTES

    try:  # the guarded reader: a FIFO, a device or a huge file is refused
        data = json.loads(read_regular_file(path, MAX_MAP_BYTES).decode("utf-8"))
    except OSError as error:
        raise ProbeError(f"{path}: cannot read: {describe_os_error(error)}") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ProbeError(f"{path}: not JSON: {error}") from None
    except RecursionError:
        raise ProbeError(f"{path}: not JSON a ticket list can be: nested too deep") from None
    entries = data.get("tickets") if isinstance(data, dict) else data
    if not isinstance(entries, list) or not entries:
        raise ProbeError(f"{path}: expected a list of tickets (or an object with 'tickets')")
    names = {c.name for c in game_map.cities}
    tickets = []
    for i, entry in enumerate(entries):
        try:
            a, b = entry["between"] if "between" in entry else (entry["a"], entry["b"])
            value = entry["value"] if "value" in entry else entry["printed_value"]
            if not (
                isinstance(value, int)
                and not isinstance(value, bool)
                and 0 < value <= 1000
                and {a, b} <= names
            ):
                raise ValueError
        except (KeyError, TypeError, ValueError):
            raise ProbeError(
                f"{path}: ticket {i + 1}: need two cities of {game_map.name} and a "
                "whole value of 1 to 1000"
            ) from None
        tickets.append(Ticket(a, b, value, long=bool(entry.get("long", False)), entry=i))
    return tickets
