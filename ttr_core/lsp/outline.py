"""Where the cities, routes and tickets of a map file are written.

`Outline.of(root)` reads the YAML node tree that the validator parsed (the same
tree `ttr fix` splices into) and keeps the span of every city entry, route entry,
ticket entry, city name mentioned in a route, a ticket or the board layout, and
colour. Hover, go-to-definition, references, document symbols, completion and
the "did you mean" action look things up here by offset.

Spans are character offsets into the text, end exclusive. A value reached through
an alias (`*name`) lies elsewhere in the file and is left out: the outline holds
only what is written inside its entry.

>>> import yaml
>>> text = "cities:\\n  A: {x: 0, y: 0}\\nroutes:\\n  - {between: [A, B], length: 1, color: red}\\n"
>>> outline = Outline.of(yaml.compose(text))
>>> [(m.name, m.kind, text[m.span.start:m.span.end]) for m in outline.mentions]
[('A', 'route', 'A'), ('B', 'route', 'B')]
>>> outline.city("A").key, outline.at(38).kind
(Span(start=10, end=11), 'route')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import yaml

EntryKind = Literal["route", "ticket"]
MentionKind = Literal["route", "ticket", "layout", "bend"]


@dataclass(frozen=True, slots=True)
class Span:
    """Characters `start` to `end` (exclusive) of the text."""

    start: int
    end: int

    @classmethod
    def of(cls, node: yaml.Node) -> Span:
        return cls(node.start_mark.index, node.end_mark.index)

    def to(self, node: yaml.Node) -> Span:
        """From this span's start to the end of `node`."""
        return Span(self.start, node.end_mark.index)

    def holds(self, offset: int) -> bool:
        """Whether a cursor at `offset` is on this span (its end included: a
        cursor just after a word is on the word)."""
        return self.start <= offset <= self.end

    def overlaps(self, start: int, end: int) -> bool:
        return self.start <= end and start <= self.end


@dataclass(frozen=True, slots=True)
class CityEntry:
    """A city under `cities:`: its key, and the whole entry (key and value)."""

    name: str
    key: Span
    span: Span


@dataclass(frozen=True, slots=True)
class Mention:
    """A city name written in a route's or ticket's `between`, under
    `layout: cities:` or in a bend's `between`. `entry` is the index of the route,
    ticket or bend (-1 under `layout: cities:`); `is_key` for a mapping key."""

    name: str
    span: Span
    kind: MentionKind
    entry: int
    is_key: bool = False


@dataclass(frozen=True, slots=True)
class Entry:
    """A route or ticket entry: its index in its list, its span, its cities."""

    kind: EntryKind
    index: int
    span: Span
    cities: tuple[Mention, ...]


@dataclass(frozen=True)
class Outline:
    """The spans of one map file (see the module doc)."""

    cities: tuple[CityEntry, ...]
    routes: tuple[Entry, ...]
    tickets: tuple[Entry, ...]
    mentions: tuple[Mention, ...]
    #: Each top-level section (`cities`, `routes`, `tickets`, …): key to value end.
    sections: dict[str, Span]
    #: The smallest node (or key) starting at each offset ends here.
    node_ends: dict[int, int]

    @classmethod
    def of(cls, root: yaml.Node | None) -> Outline:
        cities: list[CityEntry] = []
        routes: list[Entry] = []
        tickets: list[Entry] = []
        mentions: list[Mention] = []
        sections: dict[str, Span] = {}
        for key, value in _pairs(root):
            name = key.value
            if name in sections:
                continue  # a repeated key: the reader keeps the first (TTR003)
            sections[name] = Span.of(key).to(value)
            if name == "cities":
                cities += (
                    CityEntry(city.value, Span.of(city), Span.of(city).to(v))
                    for city, v in _pairs(value)
                )
            elif name == "routes" or name == "tickets":
                kind: EntryKind = "route" if name == "routes" else "ticket"
                found = routes if kind == "route" else tickets
                for index, item in enumerate(_items(value)):
                    if isinstance(item, yaml.MappingNode) and _is_inside(item, value):
                        between = tuple(_between(item, kind, index))
                        found.append(Entry(kind, index, Span.of(item), between))
                        mentions += between
            elif name == "layout":
                mentions += _layout_mentions(value)
        return cls(
            tuple(cities),
            tuple(routes),
            tuple(tickets),
            tuple(sorted(mentions, key=lambda m: m.span.start)),
            sections,
            _node_ends(root),
        )

    def city(self, name: str) -> CityEntry | None:
        """The first entry of a city under `cities:` (a repeat is TTR101)."""
        return next((city for city in self.cities if city.name == name), None)

    @property
    def city_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(city.name for city in self.cities))

    def at(self, offset: int) -> Mention | CityEntry | Entry | None:
        """What the cursor at `offset` is on: a city name (mentioned, or its key
        under `cities:`), else the route or ticket entry around it."""
        for mention in self.mentions:
            if mention.span.holds(offset):
                return mention
            if mention.span.start > offset:
                break
        for city in self.cities:
            if city.key.holds(offset):
                return city
        for entry in (*self.routes, *self.tickets):
            if entry.span.holds(offset):
                return entry
        for city in self.cities:
            if city.span.holds(offset):
                return city
        return None

    def mentions_of(self, name: str) -> Iterator[Mention]:
        return (mention for mention in self.mentions if mention.name == name)


def _pairs(node: yaml.Node | None) -> Iterator[tuple[yaml.ScalarNode, yaml.Node]]:
    """The (key, value) pairs of a mapping whose keys are scalars written inside it."""
    if not isinstance(node, yaml.MappingNode):
        return
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and _is_inside(key, node):
            yield key, value


def _items(node: yaml.Node) -> list[yaml.Node]:
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _is_inside(node: yaml.Node, parent: yaml.Node) -> bool:
    """Whether `node` is written inside `parent` (an alias's node is written at its
    anchor, elsewhere)."""
    return (
        parent.start_mark.index
        <= node.start_mark.index
        < max(parent.end_mark.index, parent.start_mark.index + 1)
    )


def _between(item: yaml.Node, kind: MentionKind, index: int) -> Iterator[Mention]:
    for key, value in _pairs(item):
        if key.value == "between" and _is_inside(value, item):
            for city in _items(value):
                if isinstance(city, yaml.ScalarNode) and _is_inside(city, value):
                    yield Mention(city.value, Span.of(city), kind, index)
            return


def _layout_mentions(layout: yaml.Node) -> Iterator[Mention]:
    for key, value in _pairs(layout):
        if key.value == "cities":
            for city, _ in _pairs(value):
                yield Mention(city.value, Span.of(city), "layout", -1, is_key=True)
        elif key.value == "bends":
            for index, bend in enumerate(_items(value)):
                if isinstance(bend, yaml.MappingNode) and _is_inside(bend, value):
                    yield from _between(bend, "bend", index)


def _node_ends(root: yaml.Node | None) -> dict[int, int]:
    """For each offset where a node or key starts, where the smallest one ends.
    Each node is visited once, even when aliases reach it again."""
    ends: dict[int, int] = {}
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        start, end = node.start_mark.index, node.end_mark.index
        if end > start and (start not in ends or end < ends[start]):
            ends[start] = end
        if isinstance(node, yaml.MappingNode):
            stack.extend(child for pair in node.value for child in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return ends
