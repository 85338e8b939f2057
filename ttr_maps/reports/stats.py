"""Reporting a map's designer metrics (`ttr stats MAP`): text tables for people,
JSON for scripts (`REPORTERS`, the `--format` choices), and a one-page figure.

The numbers come from `ttr_maps.analysis.stats.map_stats`, of the map and of the
published boards beside it; nothing here computes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ttr_maps.text import for_matplotlib, for_rich

if TYPE_CHECKING:
    from ttr_maps.analysis.stats import MapStats
    from ttr_maps.published import PublishedBoard

#: JSON layout version of `stats_to_dict`; bump it when a key changes meaning.
STATS_FORMAT = 2
#: The text report sets the map's numbers beside as many of the nearest published
#: boards as the terminal's width holds: the number's label takes this many
#: columns, each board this many more (the JSON report holds every board).
LABEL_WIDTH = 44
BOARD_WIDTH = 11


@cache
def published_stats() -> tuple[MapStats, ...]:
    """The metrics of the published boards (`PUBLISHED_MAPS`), computed once. (Here,
    not in `ttr_maps.analysis.stats`: loading a map validates it, and the checks use
    that module.)"""
    from ttr_maps.analysis.stats import map_stats
    from ttr_maps.io.bundled import PUBLISHED_MAPS
    from ttr_maps.load import load_map

    return tuple(map_stats(load_map(map_id)) for map_id in PUBLISHED_MAPS)


def boards_beside(stats: MapStats) -> list[tuple[PublishedBoard, MapStats]]:
    """The published boards and their metrics, nearest to `stats`'s map first (same
    rule family, same table sizes, then size: `ttr_maps.published.nearest_first`;
    a published board comes first beside itself)."""
    from ttr_maps.published import nearest_first

    by_id = {board.map_id: board for board in published_stats()}
    boards = nearest_first(
        stats.rules, stats.player_counts, cities=stats.cities, routes=stats.segments
    )
    return [(b, by_id[b.map_id]) for b in boards]


def stats_to_dict(stats: MapStats) -> dict[str, Any]:
    """A JSON-ready dict with stable keys (histogram keys become strings);
    `published` holds the comparable numbers of this map and of the published
    boards, side by side."""
    beside = boards_beside(stats)
    return {
        "format": STATS_FORMAT,
        "map": {
            "id": stats.map_id,
            "name": stats.map_name,
            "rules": stats.rules,
            "players": list(stats.player_counts),
            "not_modelled": list(stats.not_modelled),
        },
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
        "published": {
            "order": "nearest first: the same rules, the same table sizes, then size",
            "maps": [board.map_id for board, _ in beside],
            "boards": [board.to_dict() for board, _ in beside],
            "numbers": [
                {
                    "key": mine.key,
                    "label": mine.label,
                    "value": mine.value,
                    "published": [_by_key(theirs, mine.key) for _, theirs in beside],
                }
                for mine in stats.comparables()
            ],
        },
    }


def _by_key(stats: MapStats, key: str) -> float | None:
    return next((c.value for c in stats.comparables() if c.key == key), None)


def stats_renderables(stats: MapStats, *, top: int = 12, width: int = 80) -> Iterator[Any]:
    """rich renderables for a terminal report: one table per topic.

    `top` limits the chokepoint table to the most loaded connections; `width` (the
    terminal's columns) how many published boards the numbers are set beside.
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
    if stats.not_modelled:
        counts.caption = for_rich("not modelled: " + "; ".join(stats.not_modelled))
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

    yield from _beside_tables(stats, table, max(1, (width - LABEL_WIDTH) // BOARD_WIDTH))


def _beside_tables(stats: MapStats, table: Callable[..., Any], count: int) -> Iterator[Any]:
    """The published boards, nearest first (what each plays and leaves out), and the
    numbers of the map beside the nearest `count` of them."""
    beside = boards_beside(stats)
    sizes = "–".join(str(n) for n in (stats.player_counts[0], stats.player_counts[-1]))
    boards = table(
        f"Published boards, nearest first (this map: {stats.rules}, {sizes} players)",
        "board",
        "rules",
        "players",
        "cities",
        "routes",
        "not modelled",
    )
    for board, theirs in beside:
        boards.add_row(
            for_rich(board.name),
            board.family,
            board.table_sizes,
            str(theirs.cities),
            str(theirs.segments),
            for_rich("; ".join(board.not_modelled)) or "–",
        )
    yield boards
    shown = beside[:count]
    numbers = table(
        f"Beside the {len(shown)} nearest published boards (all {len(beside)}: a wider "
        "terminal, or --format json)",
        "number", for_rich(stats.map_name), *(for_rich(b.name) for b, _ in shown),
    )  # fmt: skip
    numbers.columns[0].no_wrap = True
    for mine in stats.comparables():
        values = [_by_key(theirs, mine.key) for _, theirs in shown]
        numbers.add_row(
            mine.label,
            f"{mine.value:.{mine.digits}f}",
            *("–" if v is None else f"{v:.{mine.digits}f}" for v in values),
        )
    yield numbers


def plot_stats(stats: MapStats, path: str | Path, *, dpi: float = 100) -> Path:
    """Write a one-page figure of the distributions (PNG, SVG or PDF by extension)."""
    from matplotlib.ticker import MaxNLocator

    from ttr_maps.render.figure import check_figure_path, font_properties, new_figure, save_figure
    from ttr_maps.render.palette import CAR_EDGE, CAR_FILL

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


def write_text(stats: MapStats, out: TextIO) -> None:
    """The tables of `stats_renderables`, printed by rich to `out`."""
    from rich.console import Console

    console = Console(file=out)
    for renderable in stats_renderables(stats, width=console.width):
        console.print(renderable)


def write_json(stats: MapStats, out: TextIO) -> None:
    """`stats_to_dict` as indented JSON, one line at the end."""
    import json

    out.write(json.dumps(stats_to_dict(stats), indent=2, ensure_ascii=False) + "\n")
    out.flush()


#: `--format` names and their reporters: each writes the whole report to a stream.
REPORTERS: dict[str, Callable[[MapStats, TextIO], None]] = {
    "text": write_text,
    "json": write_json,
}
