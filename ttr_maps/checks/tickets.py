"""Checks on destination tickets, R2 above all: a ticket is worth the shortest
wagon distance between its cities."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import CheckContext, Finding, check
from ttr_maps.model import Ticket
from ttr_maps.spelling import did_you_mean


@dataclass(frozen=True, slots=True)
class WrongValue:
    """A ticket whose printed value is not its shortest wagon distance (R2)."""

    ticket: Ticket
    shortest: int
    path: list[str]


def iter_wrong_values(ctx: CheckContext) -> Iterator[WrongValue]:
    """R2: tickets whose value differs from the shortest wagon distance, with the
    distance and one shortest path. Tickets with unknown or unreachable cities are
    left out (TTR301, TTR302, TTR305 report them), and so are tickets that a gap in
    the route graph may explain (TTR351). `ttr fix` uses this too."""
    for ticket in ctx.routable_tickets:
        shortest = ctx.wagon_distance(ticket.a, ticket.b)
        if shortest is not None and shortest != ticket.value and not _is_unsure(ctx, ticket):
            yield WrongValue(ticket, shortest, ctx.shortest_path(ticket.a, ticket.b))


def _is_unsure(ctx: CheckContext, ticket: Ticket) -> bool:
    """Whether the broken part of the route graph could change this ticket's verdict:
    a missing route can only shorten distances, so a distance found longer than the
    value (or none at all) may be the gap's doing; a shorter one is wrong anyway."""
    if not ctx.graph_gaps:
        return False
    shortest = ctx.wagon_distance(ticket.a, ticket.b)
    return shortest is None or shortest > ticket.value


@check("TTR301", Level.ERROR, "a ticket names an unknown city")
def ticket_unknown_city(ctx: CheckContext) -> Iterator[Finding]:
    """Both cities of a ticket must be declared under `cities`.

    Failing:

        tickets:
          - {between: [Denver, El Pasoo], value: 4}

    Passing:

        tickets:
          - {between: [Denver, El Paso], value: 4}
    """
    known = ctx.known_cities
    for ticket in ctx.map.tickets:
        for side, name in enumerate(ticket.cities):
            if name not in known:
                yield Finding(
                    f"ticket {ticket.a}–{ticket.b} names unknown city {name!r}"
                    + did_you_mean(name, known),
                    ("tickets", ticket.entry, "between", side),
                )


@check("TTR302", Level.ERROR, "a ticket joins a city to itself")
def ticket_to_itself(ctx: CheckContext) -> Iterator[Finding]:
    """A ticket joins two different cities.

    Failing:

        tickets:
          - {between: [Denver, Denver], value: 1}

    Passing:

        tickets:
          - {between: [Denver, El Paso], value: 4}
    """
    for ticket in ctx.map.tickets:
        if ticket.a == ticket.b:
            yield Finding(
                f"ticket from {ticket.a!r} to itself", ("tickets", ticket.entry, "between")
            )


@check("TTR303", Level.ERROR, "two tickets join the same two cities")
def duplicate_ticket(ctx: CheckContext) -> Iterator[Finding]:
    """Every ticket joins a different pair of cities (in either order).

    Failing:

        tickets:
          - {between: [Denver, El Paso], value: 4}
          - {between: [El Paso, Denver], value: 4}

    Passing:

        tickets:
          - {between: [Denver, El Paso], value: 4}
    """
    first: dict[frozenset[str], Ticket] = {}
    for ticket in ctx.map.tickets:
        pair = frozenset(ticket.cities)
        if pair in first:
            line = ctx.document.position(("tickets", first[pair].entry)).line
            yield Finding(
                f"ticket {ticket.a}–{ticket.b} repeats the ticket on line {line}",
                ("tickets", ticket.entry),
            )
        else:
            first[pair] = ticket


@check("TTR304", Level.ERROR, "a ticket's value is not the shortest wagon distance (R2)")
def ticket_value(ctx: CheckContext) -> Iterator[Finding]:
    """R2: a ticket is worth the shortest distance between its cities in wagons
    (the sum of route lengths along the shortest path). `ttr fix` rewrites it.

    Failing (the shortest way from Denver to El Paso is 2 + 2 wagons via Santa Fe):

        tickets:
          - {between: [Denver, El Paso], value: 5}

    Passing:

        tickets:
          - {between: [Denver, El Paso], value: 4}
    """
    for wrong in iter_wrong_values(ctx):
        ticket = wrong.ticket
        yield Finding(
            f"ticket {ticket.a}–{ticket.b} has value {ticket.value} but the shortest "
            f"distance is {wrong.shortest} wagons (R2): {' – '.join(wrong.path)}",
            ("tickets", ticket.entry, "value"),
        )


@check("TTR305", Level.ERROR, "a ticket's cities are not connected")
def ticket_unreachable(ctx: CheckContext) -> Iterator[Finding]:
    """A ticket that no chain of routes can complete.

    Failing (no route leads to Miami):

        tickets:
          - {between: [Denver, Miami], value: 20}

    Passing:

        tickets:
          - {between: [Denver, El Paso], value: 4}
    """
    for ticket in ctx.routable_tickets:
        if ctx.wagon_distance(ticket.a, ticket.b) is None and not _is_unsure(ctx, ticket):
            yield Finding(
                f"no chain of routes joins {ticket.a} and {ticket.b}",
                ("tickets", ticket.entry, "between"),
            )


@check("TTR351", Level.WARNING, "a ticket's value could not be checked: the route graph has errors")
def ticket_value_unchecked(ctx: CheckContext) -> Iterator[Finding]:
    """R2 needs the whole route graph. While a route names an unknown city or a
    route entry has schema errors, a ticket whose shortest distance comes out longer
    than its value (or that no chain joins) may be right: the broken route may be
    the missing shortcut. Such tickets are not reported as wrong (no TTR304 or
    TTR305, so nobody "fixes" a correct value); this says they were not checked.

    Failing (Omahaa is a typo; Denver–Omaha is 4 wagons once it is fixed):

        cities: {Denver: {x: 0, y: 0}, Omaha: {x: 4, y: 0}, Wichita: {x: 3, y: -2}}
        routes:
          - {between: [Denver, Omahaa], length: 4, color: red}
          - {between: [Denver, Wichita], length: 3, color: red}
          - {between: [Wichita, Omaha], length: 3, color: red}
        tickets:
          - {between: [Denver, Omaha], value: 4}

    Passing: the same map with `between: [Denver, Omaha]`.
    """
    for ticket in ctx.routable_tickets:
        if not _is_unsure(ctx, ticket):
            continue
        shortest = ctx.wagon_distance(ticket.a, ticket.b)
        found = (
            "no chain of routes joins them"
            if shortest is None
            else f"the shortest distance found is {shortest} wagons"
        )
        yield Finding(
            f"ticket {ticket.a}–{ticket.b} (value {ticket.value}) could not be checked: "
            f"{found}, but the route graph is incomplete ({'; '.join(ctx.graph_gaps[:3])}"
            f"{' …' if len(ctx.graph_gaps) > 3 else ''}); fix the routes first",
            ("tickets", ticket.entry, "value"),
        )
