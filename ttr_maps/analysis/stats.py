"""Designer metrics of a map: counts, colours, shape of the network, ticket load.

`map_stats(game_map)` computes everything once and returns a frozen `MapStats`;
the reporters only render it: `stats_to_dict` (JSON for scripts, stable keys),
`stats_renderables` (rich tables for people) and `plot_stats` (a one-page figure).

Chokepoints. For every ticket we take *all* its shortest paths in wagons (R2) and
split the ticket's weight of 1 equally among them: a connection that lies on k of
the n shortest paths receives k/n of that ticket. A connection's `ticket_load` is the
sum over tickets, so the loads of one ticket always add up to 1 per connection it
must cross, and a detour of equal length halves the pressure on each alternative.
`tickets` counts the tickets with at least one shortest path over the connection and
`unavoidable` those whose every shortest path crosses it. A connection is the pair of
neighbouring cities: the tracks of a double route share one entry (they are
alternatives for the same move); `route_ids` lists them.

>>> from ttr_maps.model import Map
>>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
...     "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 2, "y": 0}, "C": {"x": 4, "y": 0}},
...     "routes": [{"between": ["A", "B"], "length": 2, "color": ["red", "gray"]},
...                {"between": ["B", "C"], "length": 2, "color": "blue"}],
...     "tickets": [{"between": ["A", "C"], "value": 4}]})
>>> s = map_stats(m)
>>> s.segments, s.doubles, s.spaces, s.bridges
(3, 1, 6, (('A', 'B'), ('B', 'C')))
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_maps.model import ROUTE_COLORS, Map
from ttr_maps.rules import RuleSet, map_rules
from ttr_maps.text import for_matplotlib, for_rich

if TYPE_CHECKING:
    import networkx as nx

#: JSON layout version of `stats_to_dict`; bump it when a key changes meaning.
STATS_FORMAT = 1


@dataclass(frozen=True, slots=True)
class ColorUse:
    """Segments and wagon spaces of one route colour."""

    color: str
    segments: int
    spaces: int


@dataclass(frozen=True, slots=True)
class ConnectionLoad:
    """How much the tickets lean on one connection (see the module docstring)."""

    a: str
    b: str
    length: int
    route_ids: tuple[str, ...]
    ticket_load: float
    tickets: int
    unavoidable: int


@dataclass(frozen=True, slots=True)
class PlayerLoad:
    """Spaces against wagons for one player count.

    `claimable_spaces` counts one track per double route with 2 or 3 players (R11:
    below the rule set's `double_routes_from`).
    `wagon_ratio` is wagons in play per claimable space: near 1 the board fills up.
    """

    players: int
    wagons_in_play: int
    spaces: int
    claimable_spaces: int
    wagon_ratio: float


@dataclass(frozen=True)
class MapStats:
    """Everything `ttr stats` reports about one map."""

    map_id: str
    map_name: str
    rules: str
    wagons: int
    cities: int
    segments: int
    doubles: int
    spaces: int
    tunnels: int
    ferries: int
    ferry_locomotives: int
    tickets: int
    long_tickets: int
    colors: tuple[ColorUse, ...]
    length_histogram: Mapping[int, int]
    degree_histogram: Mapping[int, int]
    bridges: tuple[tuple[str, str], ...]
    articulation_points: tuple[str, ...]
    connection_loads: tuple[ConnectionLoad, ...]
    cities_without_ticket: tuple[str, ...]
    ticket_value_histogram: Mapping[int, int]
    unreachable_tickets: tuple[str, ...]
    players: tuple[PlayerLoad, ...]
    #: D7: tickets priced above their value, as ("A:B", bonus).
    ticket_bonuses: tuple[tuple[str, int], ...] = ()

    def color(self, name: str) -> ColorUse:
        """The use of one colour, e.g. `stats.color("gray").spaces`."""
        for use in self.colors:
            if use.color == name:
                return use
        raise KeyError(name)


def map_stats(game_map: Map) -> MapStats:
    """Compute the designer metrics of a map (which should be valid), with the
    numbers of its rule set (`ttr_maps.rules.map_rules`)."""
    import networkx as nx

    from ttr_maps.graph import wagon_graph

    rules = map_rules(game_map)
    graph = wagon_graph(game_map)
    routes = game_map.routes
    colors = tuple(
        ColorUse(
            color,
            sum(1 for r in routes if r.color == color),
            sum(r.length for r in routes if r.color == color),
        )
        for color in ROUTE_COLORS
    )
    ticket_cities = {name for t in game_map.tickets for name in t.cities}
    return MapStats(
        map_id=game_map.id,
        map_name=game_map.name,
        rules=game_map.rules,
        wagons=rules.wagons,
        cities=len(game_map.cities),
        segments=len(routes),
        doubles=sum(1 for group in game_map.parallel_routes.values() if len(group) > 1),
        spaces=game_map.total_spaces,
        tunnels=sum(1 for r in routes if r.tunnel),
        ferries=sum(1 for r in routes if r.ferry),
        ferry_locomotives=sum(r.ferry for r in routes),
        tickets=len(game_map.tickets),
        long_tickets=sum(1 for t in game_map.tickets if t.long),
        colors=colors,
        length_histogram=dict(sorted(Counter(r.length for r in routes).items())),
        degree_histogram=dict(sorted(Counter(d for _, d in graph.degree()).items())),
        bridges=tuple(sorted(tuple(sorted(edge)) for edge in nx.bridges(graph))),  # type: ignore[misc]
        articulation_points=tuple(sorted(nx.articulation_points(graph))),
        connection_loads=_connection_loads(game_map, graph),
        cities_without_ticket=tuple(
            sorted(c.name for c in game_map.cities if c.name not in ticket_cities)
        ),
        ticket_value_histogram=dict(sorted(Counter(t.value for t in game_map.tickets).items())),
        unreachable_tickets=_unreachable_tickets(game_map, graph),
        players=player_loads(game_map, rules),
        ticket_bonuses=tuple((f"{t.a}:{t.b}", t.bonus) for t in game_map.tickets if t.bonus),
    )


def _unreachable_tickets(game_map: Map, graph: nx.Graph) -> tuple[str, ...]:
    """Tickets whose cities no routes join, as "A:B" (one pass over the components)."""
    import networkx as nx

    group = {city: i for i, part in enumerate(nx.connected_components(graph)) for city in part}
    return tuple(
        f"{t.a}:{t.b}"
        for t in game_map.tickets
        if t.a not in group or t.b not in group or group[t.a] != group[t.b]
    )


def player_loads(game_map: Map, rules: RuleSet) -> tuple[PlayerLoad, ...]:
    """Spaces against wagons for every player count of `rules` (R1, R4, R11);
    TTR451 reads it."""
    spaces = game_map.total_spaces
    # R11: in a 2- or 3-player game a double route gives one claimable track.
    single_track = sum(group[0].length for group in game_map.parallel_routes.values())
    loads = []
    for players in rules.player_counts():
        claimable = single_track if rules.is_single_track(players) else spaces
        in_play = players * rules.wagons
        ratio = in_play / claimable if claimable else math.inf
        loads.append(PlayerLoad(players, in_play, spaces, claimable, round(ratio, 3)))
    return tuple(loads)


def _connection_loads(game_map: Map, graph: nx.Graph) -> tuple[ConnectionLoad, ...]:
    """Ticket load of every connection, heaviest first (ties split, see module doc).

    For each ticket, two searches bounded by its distance (`shortest_path_counts`)
    find the cities on its shortest paths; only their connections are looked at.
    Linear in the tickets times the size of their neighbourhoods, not in the
    tickets times the whole map (10,000 cities in seconds).
    """
    from ttr_maps.graph import shortest_path_counts

    adjacency = {
        city: {n: int(data["weight"]) for n, data in graph[city].items()} for city in graph
    }
    load: dict[frozenset[str], float] = {}
    touched: Counter[frozenset[str]] = Counter()
    unavoidable: Counter[frozenset[str]] = Counter()
    for ticket in game_map.tickets:
        a, b = ticket.a, ticket.b
        if a not in adjacency or b not in adjacency or a == b:
            continue
        from_a, paths_a = shortest_path_counts(adjacency, a, target=b)
        if b not in from_a:
            continue
        from_b, paths_b = shortest_path_counts(adjacency, b, target=a)
        total, all_paths = from_a[b], paths_a[b]
        through: dict[frozenset[str], int] = {}
        for x, to_x in from_a.items():
            if to_x >= total or to_x + from_b.get(x, total) != total:
                continue  # x is on no shortest path of this ticket
            for y, length in adjacency[x].items():
                if to_x + length + from_b.get(y, total) == total:
                    pair = frozenset((x, y))
                    through[pair] = through.get(pair, 0) + paths_a[x] * paths_b[y]
        for pair, paths in through.items():
            load[pair] = load.get(pair, 0.0) + paths / all_paths
            touched[pair] += 1
            unavoidable[pair] += paths == all_paths

    result = []
    for u, v, data in graph.edges(data=True):
        pair = frozenset((u, v))
        a, b = sorted(pair)
        result.append(
            ConnectionLoad(
                a,
                b,
                int(data["weight"]),
                tuple(data["routes"]),
                round(load.get(pair, 0.0), 4),
                touched[pair],
                unavoidable[pair],
            )
        )
    result.sort(key=lambda c: (-c.ticket_load, -c.tickets, c.a, c.b))
    return tuple(result)


# ---------------------------------------------------------------- reporters


def stats_to_dict(stats: MapStats) -> dict[str, Any]:
    """A JSON-ready dict with stable keys (histogram keys become strings)."""
    return {
        "format": STATS_FORMAT,
        "map": {"id": stats.map_id, "name": stats.map_name, "rules": stats.rules},
        "counts": {
            "cities": stats.cities,
            "segments": stats.segments,
            "doubles": stats.doubles,
            "spaces": stats.spaces,
            "tunnels": stats.tunnels,
            "ferries": stats.ferries,
            "ferry_locomotives": stats.ferry_locomotives,
            "tickets": stats.tickets,
            "long_tickets": stats.long_tickets,
            "wagons_per_player": stats.wagons,
        },
        "colors": {c.color: {"segments": c.segments, "spaces": c.spaces} for c in stats.colors},
        "length_histogram": {str(k): v for k, v in stats.length_histogram.items()},
        "degree_histogram": {str(k): v for k, v in stats.degree_histogram.items()},
        "bridges": [list(pair) for pair in stats.bridges],
        "articulation_points": list(stats.articulation_points),
        "connections": [
            {
                "between": [c.a, c.b],
                "length": c.length,
                "routes": list(c.route_ids),
                "ticket_load": c.ticket_load,
                "tickets": c.tickets,
                "unavoidable": c.unavoidable,
            }
            for c in stats.connection_loads
        ],
        "cities_without_ticket": list(stats.cities_without_ticket),
        "ticket_value_histogram": {str(k): v for k, v in stats.ticket_value_histogram.items()},
        "unreachable_tickets": list(stats.unreachable_tickets),
        "ticket_bonuses": dict(stats.ticket_bonuses),
        "players": [
            {
                "players": p.players,
                "wagons_in_play": p.wagons_in_play,
                "spaces": p.spaces,
                "claimable_spaces": p.claimable_spaces,
                "wagon_ratio": p.wagon_ratio,
            }
            for p in stats.players
        ],
    }


def stats_renderables(stats: MapStats, *, top: int = 12) -> Iterator[Any]:
    """rich renderables for a terminal report: one table per topic.

    `top` limits the chokepoint table to the most loaded connections.
    """
    from rich.table import Table

    def table(title: str, *columns: str) -> Table:
        """A table whose first and last-if-text columns are left-aligned, numbers right."""
        t = Table(title=title, title_justify="left", title_style="bold", min_width=len(title))
        for i, name in enumerate(columns):
            text_column = i == 0 or name in ("", "cities")
            t.add_column(name, justify="left" if text_column else "right")
        return t

    counts = table(
        for_rich(f"{stats.map_name} ({stats.map_id}, rules {stats.rules})"), "count", "value"
    )
    for label, value in (
        ("cities", stats.cities),
        ("route segments", stats.segments),
        ("double routes", stats.doubles),
        ("wagon spaces", stats.spaces),
        ("tunnels", stats.tunnels),
        ("ferries", stats.ferries),
        ("ferry locomotives", stats.ferry_locomotives),
        ("tickets", stats.tickets),
        ("long tickets", stats.long_tickets),
        ("wagons per player", stats.wagons),
    ):
        counts.add_row(label, str(value))
    yield counts

    colors = table("Colours", "colour", "segments", "spaces")
    for use in stats.colors:
        colors.add_row(use.color, str(use.segments), str(use.spaces))
    yield colors

    for title, key, histogram in (
        ("Route lengths", "length", stats.length_histogram),
        ("City degrees (neighbouring cities)", "degree", stats.degree_histogram),
        ("Ticket values", "value", stats.ticket_value_histogram),
    ):
        hist = table(title, key, "count", "")
        peak = max(histogram.values(), default=1)
        for k, v in histogram.items():
            hist.add_row(str(k), str(v), "█" * max(1, round(20 * v / peak)))
        yield hist

    players = table(
        "Spaces and wagons (R1, R4, R11)", "players", "wagons", "claimable spaces", "ratio"
    )
    for p in stats.players:
        players.add_row(
            str(p.players), str(p.wagons_in_play), str(p.claimable_spaces), f"{p.wagon_ratio:.2f}"
        )
    yield players

    loads = table(
        f"Chokepoints: ticket load on the {top} busiest connections",
        "connection",
        "length",
        "tracks",
        "load",
        "tickets",
        "unavoidable",
    )
    for c in stats.connection_loads[:top]:
        loads.add_row(
            for_rich(f"{c.a} – {c.b}"),
            str(c.length),
            str(len(c.route_ids)),
            f"{c.ticket_load:.2f}",
            str(c.tickets),
            str(c.unavoidable),
        )
    yield loads

    shape = table("Network", "finding", "cities")
    bridges = ", ".join(f"{a} – {b}" for a, b in stats.bridges)
    shape.add_row("bridges", for_rich(bridges) or "none")
    shape.add_row("articulation points", for_rich(", ".join(stats.articulation_points)) or "none")
    shape.add_row("cities on no ticket", for_rich(", ".join(stats.cities_without_ticket)) or "none")
    if stats.unreachable_tickets:
        shape.add_row("unreachable tickets", for_rich(", ".join(stats.unreachable_tickets)))
    if stats.ticket_bonuses:
        bonuses = ", ".join(f"{t} +{b}" for t, b in stats.ticket_bonuses)
        shape.add_row("tickets with a bonus (D7)", for_rich(bonuses))
    yield shape


def plot_stats(stats: MapStats, path: str | Path, *, dpi: float = 100) -> Path:
    """Write a one-page figure of the distributions (PNG, SVG or PDF by extension)."""
    from matplotlib.ticker import MaxNLocator

    from ttr_maps.render.draw import (
        CAR_EDGE,
        CAR_FILL,
        check_figure_path,
        font_properties,
        new_figure,
        save_figure,
    )

    check_figure_path(path)
    figure = new_figure((12.0, 8.5), dpi)
    figure.suptitle(
        for_matplotlib(f"{stats.map_name}: designer metrics"),
        fontproperties=font_properties(14, "bold"),
    )
    grid = figure.add_gridspec(
        2, 3, hspace=0.45, wspace=0.3, left=0.06, right=0.98, top=0.9, bottom=0.08
    )

    ax = figure.add_subplot(grid[0, 0])
    names = [c.color for c in stats.colors]
    ax.bar(
        names,
        [c.spaces for c in stats.colors],
        color=[CAR_FILL[n] for n in names],
        edgecolor=CAR_EDGE,
        linewidth=0.6,
    )
    ax.set_title("Wagon spaces per colour", fontproperties=font_properties(10))
    ax.tick_params(axis="x", labelrotation=60, labelsize=8)

    for cell, title, histogram, xlabel in (
        (grid[0, 1], "Route lengths", stats.length_histogram, "length"),
        (grid[0, 2], "City degrees", stats.degree_histogram, "neighbouring cities"),
        (grid[1, 0], "Ticket values", stats.ticket_value_histogram, "value"),
    ):
        ax = figure.add_subplot(cell)
        ax.bar(
            list(histogram),
            list(histogram.values()),
            color="#6a8caf",
            edgecolor=CAR_EDGE,
            linewidth=0.6,
        )
        ax.set_title(title, fontproperties=font_properties(10))
        ax.set_xlabel(xlabel, fontproperties=font_properties(8))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))

    ax = figure.add_subplot(grid[1, 1])
    busiest = [c for c in stats.connection_loads[:10] if c.ticket_load > 0][::-1]
    ax.barh(
        [for_matplotlib(f"{c.a} – {c.b}") for c in busiest],
        [c.ticket_load for c in busiest],
        color="#d7301f",
        edgecolor=CAR_EDGE,
        linewidth=0.6,
    )
    ax.set_title("Busiest connections (ticket load)", fontproperties=font_properties(10))
    ax.tick_params(axis="y", labelsize=7)
    for label in ax.get_yticklabels():
        label.set_fontproperties(font_properties(7))

    ax = figure.add_subplot(grid[1, 2])
    counts = [p.players for p in stats.players]
    ax.bar(
        counts,
        [p.claimable_spaces for p in stats.players],
        color="#bbbbbb",
        edgecolor=CAR_EDGE,
        label="claimable spaces",
    )
    ax.plot(
        counts,
        [p.wagons_in_play for p in stats.players],
        "o-",
        color="#2166ac",
        label="wagons in play",
    )
    ax.set_xticks(counts)
    ax.set_xlabel("players", fontproperties=font_properties(8))
    ax.set_title("Spaces vs wagons", fontproperties=font_properties(10))
    ax.legend(prop=font_properties(8), loc="upper left")
    return save_figure(figure, path, dpi=dpi)
