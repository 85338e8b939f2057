"""Hover: what a city, a route or a ticket means for the game, in a few lines.

- On a **ticket**: its value against the shortest distance in wagons (R2), and one
  shortest path with the length of each leg.
- On a **city** (its entry under `cities:` or its name anywhere): its routes and
  the tickets that name it; a name that is no city says so, with the closest ones.
- On a **route**: its length, colours, the points it scores (R10), what it asks
  for as a tunnel (E2) or a ferry (E3), and how many tickets have a shortest path
  over it (`ttr stats`' ticket load), and for how many it is the only way.

The numbers are those the checks computed (the report's `CheckContext`): the map
without the entries the schema rejected, so hover works on a map being edited.
Names are user text: they pass through `for_markdown`.
"""

from __future__ import annotations

from itertools import pairwise

from lsprotocol import types

from ttr_core.lsp.outline import CityEntry, Entry, Mention
from ttr_core.lsp.snapshot import Snapshot
from ttr_maps.checks.registry import CheckContext
from ttr_maps.model import Route, Ticket
from ttr_maps.spelling import closest_spellings
from ttr_maps.text import for_markdown as md

#: Most lines listed under one heading (a hub city can have dozens of routes).
MOST_LISTED = 20


def hover(snapshot: Snapshot, offset: int) -> types.Hover | None:
    """The hover at `offset`, or None when there is nothing to say."""
    outline, context = snapshot.outline, snapshot.context
    if outline is None or context is None:
        return None
    target = outline.at(offset)
    if isinstance(target, Mention | CityEntry):
        span = target.key if isinstance(target, CityEntry) else target.span
        if isinstance(target, CityEntry) and not target.key.holds(offset):
            span = target.span
        text = city_text(context, target.name, outline.city_names)
    elif isinstance(target, Entry) and target.kind == "ticket":
        span, text = target.span, ticket_text(context, target.index)
    elif isinstance(target, Entry):
        span, text = target.span, route_text(snapshot, target.index)
    else:
        return None
    if text is None:
        return None
    contents = types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
    return types.Hover(contents=contents, range=snapshot.range(span.start, span.end))


def count(number: int, noun: str) -> str:
    """`1 wagon`, `2 wagons`."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _pair(a: str, b: str) -> str:
    return f"{md(a)}–{md(b)}"


def _listed(lines: list[str]) -> list[str]:
    if len(lines) <= MOST_LISTED:
        return lines
    return [*lines[:MOST_LISTED], f"- … and {len(lines) - MOST_LISTED} more"]


def _colors(routes: list[Route]) -> str:
    return " and ".join(route.color for route in routes)


def _entries(routes: tuple[Route, ...]) -> dict[int, list[Route]]:
    """The map's routes grouped by their entry in the file (a double route is one
    entry with a track per colour)."""
    grouped: dict[int, list[Route]] = {}
    for route in routes:
        grouped.setdefault(route.entry, []).append(route)
    return grouped


def city_text(context: CheckContext, name: str, declared: tuple[str, ...]) -> str:
    """A city: its routes and the tickets that name it."""
    if name not in context.known_cities:
        text = f"**{md(name)}** is not a city of this map (it has no entry under `cities:`)"
        close = closest_spellings(name, declared, count=3)
        if close:
            text += "; did you mean " + " or ".join(f"**{md(c)}**" for c in close) + "?"
        return text
    routes = [
        tracks
        for tracks in _entries(context.map.routes).values()
        if name in (tracks[0].a, tracks[0].b) and tracks[0].a != tracks[0].b
    ]
    tickets = [t for t in context.map.tickets if name in t.cities]
    counts = f"{count(len(routes), 'route')}, {count(len(tickets), 'ticket')}"
    lines = [f"**{md(name)}**: {counts}", ""]
    if routes:
        lines += ["Routes:", ""]
        lines += _listed(
            [
                f"- to {md(r[0].b if r[0].a == name else r[0].a)}: "
                f"{count(r[0].length, 'wagon')}, {_colors(r)}"
                for r in sorted(routes, key=lambda r: r[0].b if r[0].a == name else r[0].a)
            ]
        )
        lines.append("")
    if tickets:
        lines += ["Tickets naming it:", ""]
        lines += _listed([f"- {md(str(ticket))}" for ticket in tickets])
    return "\n".join(lines).rstrip()


def ticket_text(context: CheckContext, entry: int) -> str | None:
    """A ticket: its value against the shortest distance (R2), one shortest path."""
    ticket = next((t for t in context.map.tickets if t.entry == entry), None)
    if ticket is None:
        return "This ticket has schema errors: fix them to see its shortest path."
    title = f"**Ticket {_pair(ticket.a, ticket.b)}**{' (long ticket)' if ticket.long else ''}"
    price = f"value {ticket.value}" + (f" + bonus {ticket.bonus} (D7)" if ticket.bonus else "")
    known = context.known_cities
    if ticket.a not in known or ticket.b not in known or ticket.a == ticket.b:
        return f"{title}: {price}; no shortest path (see the problems on this ticket)"
    shortest = context.wagon_distance(ticket.a, ticket.b)
    if shortest is None:
        return f"{title}: {price}; no routes join its cities, so it can never be completed"
    lines = [f"{title}: {price}", ""]
    if shortest == ticket.value:
        lines.append(f"Shortest distance: {count(shortest, 'wagon')}, equal to the value (R2).")
    else:
        lines.append(
            f"Shortest distance: {count(shortest, 'wagon')}, but the value is {ticket.value}: "
            f"R2 says {shortest}."
        )
        if context.graph_gaps:
            lines.append(
                "Routes with errors are left out of the distances, so the shortest "
                "distance may be shorter still."
            )
    lines += ["", f"Shortest path: {_path_text(context, ticket)}"]
    return "\n".join(lines)


def _path_text(context: CheckContext, ticket: Ticket) -> str:
    path = context.shortest_path(ticket.a, ticket.b)
    legs = [context.adjacency[x][y] for x, y in pairwise(path)]
    cities = " → ".join(md(city) for city in path)
    return f"{cities} ({' + '.join(map(str, legs))} = {count(sum(legs), 'wagon')})"


def route_text(snapshot: Snapshot, entry: int) -> str | None:
    """A route: length, colours, points (R10), tunnel or ferry, ticket load."""
    context = snapshot.context
    assert context is not None
    tracks = _entries(context.map.routes).get(entry)
    if not tracks:
        return "This route has schema errors: fix them to see its points and use."
    first = tracks[0]
    kind = {1: "route", 2: "double route"}.get(len(tracks), f"{len(tracks)} tracks")
    title = f"**{_pair(first.a, first.b)}** ({kind})"
    lines = [f"{title}: {count(first.length, 'wagon')}, {_colors(tracks)}"]
    rules = context.rules
    if 1 <= first.length <= len(rules.route_points):
        each = " per track" if len(tracks) > 1 else ""
        lines.append(f"Scores {rules.route_score(first.length)} points{each} (R10).")
    if first.tunnel and rules.tunnels:
        lines.append(
            f"A tunnel (E2): {rules.tunnel_reveal} cards are turned up, and each one of "
            "the colour used (or a locomotive) asks for one card more."
        )
    elif first.tunnel:
        lines.append(f"Marked as a tunnel, which the {rules.name!r} rules do not play (E2).")
    if first.ferry and rules.ferries:
        lines.append(f"A ferry (E3): {first.ferry} of its cards must be locomotives.")
    elif first.ferry:
        lines.append(f"Marked as a ferry, which the {rules.name!r} rules do not play (E3).")
    load = snapshot.connection_loads.get(frozenset((first.a, first.b)))
    if load is not None:
        if load.tickets:
            only = f", and the only way for {load.unavoidable}" if load.unavoidable else ""
            lines.append(
                f"On a shortest path of {load.tickets} of the {len(context.map.tickets)} "
                f"tickets{only} (ticket load {load.ticket_load:.2f})."
            )
        else:
            lines.append("On no ticket's shortest path.")
    return "\n\n".join(lines)  # one paragraph each
