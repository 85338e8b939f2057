"""Go to definition, find references, and the outline of a map file.

- **Definition**: from a city name in a route, a ticket or the board layout to
  its entry under `cities:` (the first one, if the city is repeated: TTR101).
- **References**: every place the city is named (and its entry, when asked).
- **Document symbols**: the sections `cities`, `routes` and `tickets`, each with
  its entries (a route or ticket is named by its two cities), for the editor's
  outline and "go to symbol".
"""

from __future__ import annotations

from lsprotocol import types

from ttr_core.lsp.hover import count
from ttr_core.lsp.outline import CityEntry, Entry, Mention, Outline, Span
from ttr_core.lsp.snapshot import Snapshot


def _city_at(outline: Outline, offset: int) -> str | None:
    target = outline.at(offset)
    if isinstance(target, Mention) or (isinstance(target, CityEntry) and target.key.holds(offset)):
        return target.name
    return None


def definition(snapshot: Snapshot, offset: int) -> types.Location | None:
    """Where the city named at `offset` is declared under `cities:`."""
    outline = snapshot.outline
    name = _city_at(outline, offset) if outline is not None else None
    city = outline.city(name) if outline is not None and name is not None else None
    if city is None:
        return None
    return types.Location(snapshot.uri, snapshot.range(city.key.start, city.key.end))


def references(snapshot: Snapshot, offset: int, declaration: bool) -> list[types.Location]:
    """Every place the city named at `offset` is written."""
    outline = snapshot.outline
    name = _city_at(outline, offset) if outline is not None else None
    if outline is None or name is None:
        return []
    spans = [m.span for m in outline.mentions_of(name)]
    if declaration:
        spans += [city.key for city in outline.cities if city.name == name]
    return [
        types.Location(snapshot.uri, snapshot.range(span.start, span.end))
        for span in sorted(spans, key=lambda s: s.start)
    ]


def _entry_name(entry: Entry) -> str:
    if len(entry.cities) == 2:
        return f"{entry.cities[0].name}–{entry.cities[1].name}"
    return f"{entry.kind} {entry.index + 1}"


def _entry_details(snapshot: Snapshot) -> dict[tuple[str, int], str]:
    """A short detail for each route entry (length, colours) and ticket (value),
    from the map the checks read."""
    context = snapshot.context
    if context is None:
        return {}
    details: dict[tuple[str, int], str] = {}
    for route in context.map.routes:
        key = ("route", route.entry)
        if key in details:
            details[key] += f" and {route.color}"
        else:
            details[key] = f"{count(route.length, 'wagon')}, {route.color}"
    for ticket in context.map.tickets:
        details[("ticket", ticket.entry)] = f"{ticket.points} points"
    return details


_KINDS = {
    "cities": types.SymbolKind.Namespace,
    "routes": types.SymbolKind.Namespace,
    "tickets": types.SymbolKind.Namespace,
}


def document_symbols(snapshot: Snapshot) -> list[types.DocumentSymbol]:
    """The outline: each section with its entries."""
    outline = snapshot.outline
    if outline is None:
        return []
    details = _entry_details(snapshot)

    def symbol(
        name: str,
        kind: types.SymbolKind,
        span: Span,
        key: Span,
        detail: str | None = None,
        children: list[types.DocumentSymbol] | None = None,
    ) -> types.DocumentSymbol:
        return types.DocumentSymbol(
            name=name or "(no name)",
            kind=kind,
            range=snapshot.range(span.start, span.end),
            selection_range=snapshot.range(key.start, key.end),
            detail=detail,
            children=children,
        )

    children: dict[str, list[types.DocumentSymbol]] = {
        "cities": [
            symbol(city.name, types.SymbolKind.Constant, city.span, city.key)
            for city in outline.cities
        ],
        "routes": [
            symbol(
                _entry_name(entry),
                types.SymbolKind.Field,
                entry.span,
                _selection(entry),
                details.get(("route", entry.index)),
            )
            for entry in outline.routes
        ],
        "tickets": [
            symbol(
                _entry_name(entry),
                types.SymbolKind.Event,
                entry.span,
                _selection(entry),
                details.get(("ticket", entry.index)),
            )
            for entry in outline.tickets
        ],
    }
    return [
        symbol(
            name,
            kind,
            span,
            Span(span.start, span.start + len(name)),
            f"{len(children[name])}",
            children[name],
        )
        for name, kind in _KINDS.items()
        if (span := outline.sections.get(name)) is not None
    ]


def _selection(entry: Entry) -> Span:
    """What an entry's symbol selects: its two city names (or its start)."""
    if entry.cities:
        return Span(entry.cities[0].span.start, entry.cities[-1].span.end)
    return Span(entry.span.start, entry.span.start)


def flat_symbols(snapshot: Snapshot) -> list[types.SymbolInformation]:
    """The outline for a client without hierarchical symbols."""
    found: list[types.SymbolInformation] = []
    for section in document_symbols(snapshot):
        for child in section.children or []:
            location = types.Location(snapshot.uri, child.range)
            found.append(
                types.SymbolInformation(
                    location=location, name=child.name, kind=child.kind, container_name=section.name
                )
            )
    return found
