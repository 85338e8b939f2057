"""Reporting a deck analysis (`ttr tickets MAP`): text tables for people, JSON
for scripts (`REPORTERS`, the `--format` choices), and a one-page figure drawn
with the preview's public functions.

The numbers come from `ttr_maps.analysis.tickets`; nothing here computes them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ttr_maps.text import for_matplotlib

if TYPE_CHECKING:
    from ttr_maps.analysis.tickets import DeckAnalysis

#: Version of the JSON layout (3: the deck number, predicted completion per table
#: size, and the deck in play: completion and blocked connections counted in games;
#: 4: the model of crowding under `crowding_model`, without a count a game).
TICKETS_FORMAT = 4
#: Connections and cities are listed as crowded from this expected excess.
SHOWN_EXCESS = 0.005
#: What the share of random decks says (benchmarks/calibration_bench.py, section deck).
CALIBRATION_MEANING = (
    "the share of random decks of the same size whose deck number is lower: decks predicted "
    "to be harder to complete (docs/tickets.md, The deck number)"
)
#: What the model of crowding is, and is not.
CROWDING_MODEL_MEANING = (
    "a model of who wants which connection (every player holds a hand of tickets drawn from "
    "the deck): its ranking of connections follows play and it is the deck number's crowding "
    "term; it is no count of play (16-55 % low on maps it was not fitted to): `played` "
    "counts the connections taken (docs/tickets.md)"
)
#: What the deck number is, in one line.
DECK_NUMBER_MEANING = (
    "the share of held tickets greedy players complete, predicted from the deck's values "
    "against the wagons, crowding and how full the board gets (docs/tickets.md)"
)


def published_beside(analysis: DeckAnalysis) -> list[tuple[str, Any]]:
    """The published decks measured, as (name, measures), nearest boards first: the
    same rule family, the same table sizes, then size
    (`ttr_maps.published.nearest_first`; a published board first beside itself)."""
    from ttr_maps.analysis.tickets import published_measures
    from ttr_maps.published import nearest_first
    from ttr_maps.rules import map_rules

    game_map = analysis.board.map
    measured = dict(published_measures())
    boards = nearest_first(
        game_map.rules,
        map_rules(game_map).player_counts(),
        cities=len(game_map.cities),
        routes=len(game_map.routes),
    )
    return [(b.name, measured[b.name]) for b in boards]


def analysis_to_dict(analysis: DeckAnalysis, *, top: int = 10) -> dict[str, Any]:
    """A JSON-ready dict with stable keys (the published boards nearest first)."""
    from ttr_maps.analysis.tickets import (
        SCORE_WEIGHTS,
        nearest_profile,
        value_distance,
        value_span,
    )

    board, measures = analysis.board, analysis.measures
    tickets = measures.tickets
    score = measures.score
    regions = board.regions
    published = published_beside(analysis)
    result: dict[str, Any] = {
        "format": TICKETS_FORMAT,
        "map": {
            "id": board.map.id,
            "name": board.map.name,
            "diameter": board.diameter,
            "not_modelled": list(board.map.not_modelled),
        },
        "deck_number": {
            "players": measures.reference_players,
            "completion": measures.deck_number,
            "by_players": {str(n): c for n, c in sorted(measures.completion.items())},
            "published": {name: m.deck_number for name, m in published},
            "meaning": DECK_NUMBER_MEANING,
        },
        "played": [
            {
                "players": p.players,
                "games": p.games,
                "bots": list(p.bots),
                "completion": p.completion,
                "completion_ci95": list(p.completion_ci95),
                "blocked_per_game": p.blocked_per_game,
                "blocked_ci95": list(p.blocked_ci95),
                "most_blocked": [
                    {"between": [c.a, c.b], "routes": list(c.route_ids), "per_game": round(b, 4)}
                    for c, b in p.routes(board)[:top]
                ],
            }
            for p in analysis.played
        ],
        "structure": {
            "total": round(score.total, 3),
            "parts": {k: round(v, 4) for k, v in score.parts.items()},
            "weights": dict(SCORE_WEIGHTS),
            "duplicates": score.duplicates,
            "published": {
                name: {
                    "total": round(m.score.total, 3),
                    "parts": {k: round(v, 4) for k, v in m.score.parts.items()},
                }
                for name, m in published
            },
        },
        "resemblance": {
            "profile": score.profile,
            "value": round(score.resemblance, 4),
            "meaning": "distance of the values to a published deck's, in 0.15 diameters "
            "(0 = the same values); not part of the score",
        },
        "values": {
            "regular": sorted(t.value for t in tickets if not t.long),
            "long": sorted(t.value for t in tickets if t.long),
            "relative_distance": round(value_distance(board, tickets), 4),
            "nearest_published": nearest_profile(board, tickets).name,
            "span": round(value_span([t.value / board.diameter for t in tickets]), 4),
        },
        "coverage": [
            {
                "city": city,
                "degree": board.degree.get(city, 0),
                "tickets": count,
            }
            for city, count in measures.city_tickets.items()
        ],
        "regions": {
            "names": list(board.region_names),
            "cities": {c: regions[c] for c in sorted(regions)},
            "ticket_pairs": [
                {"regions": list(pair), "tickets": n}
                for pair, n in sorted(measures.region_pairs.items())
            ],
        },
        "crowding_model": {
            "meaning": CROWDING_MODEL_MEANING,
            "by_players": _crowding_model(measures, published, top),
        },
        "fragility": {
            "single_path": [
                {
                    "between": list(t.cities),
                    "value": t.value,
                    "next_path": _next_cost(analysis, t.a, t.b),
                }
                for t in measures.single_path
            ],
            "overlapping_pairs": [
                {
                    "tickets": [list(p.first.cities), list(p.second.cities)],
                    "shared": round(p.share, 3),
                }
                for p in measures.overlapping
            ],
        },
    }
    if analysis.calibration is not None:
        cal = analysis.calibration
        result["calibration"] = {
            "random_decks": len(cal.numbers),
            "random_mean": round(cal.mean, 4),
            "random_min": round(min(cal.numbers), 4),
            "random_max": round(max(cal.numbers), 4),
            "easier_share": round(cal.easier_share, 4),
            "meaning": CALIBRATION_MEANING,
        }
    return result


def _crowding_model(measures: Any, published: list[tuple[str, Any]], top: int) -> list[Any]:
    """The model of crowding by table size, for JSON: the hand, the share of wanted
    wagons over capacity (the structure's `crowding` part) beside the published
    decks', and the connections and cities it ranks most over-demanded."""
    return [
        {
            "players": c.players,
            "hand": round(c.hand, 2),
            "excess_share": round(c.excess_share, 4),
            "published": {
                name: {"excess_share": round(theirs.excess_share, 4)}
                for name, m in published
                for theirs in m.crowding
                if theirs.players == c.players
            },
            "over_demanded_routes": [
                {
                    "between": [r.connection.a, r.connection.b],
                    "routes": list(r.connection.route_ids),
                    "demand": round(r.demand, 3),
                    "capacity": r.capacity,
                    "excess": round(r.excess, 3),
                }
                for r in c.routes()[:top]
                if r.excess >= SHOWN_EXCESS
            ],
            "over_demanded_cities": [
                {
                    "city": r.city,
                    "demand": round(r.demand, 3),
                    "capacity": r.capacity,
                    "excess": round(r.excess, 3),
                }
                for r in c.cities()[:top]
                if r.excess >= SHOWN_EXCESS
            ],
        }
        for c in measures.crowding
    ]


def _next_cost(analysis: DeckAnalysis, a: str, b: str) -> int | None:
    costs = analysis.board.paths(a, b).costs
    return costs[1] if len(costs) > 1 else None


def analysis_renderables(analysis: DeckAnalysis, *, top: int = 8, width: int = 80) -> Iterator[Any]:
    """rich tables for the terminal, one per topic: the deck number, the deck in
    play, the structure, values, coverage, regions, crowding and fragility. Beside
    the map, the nearest published boards (the same rules, the same table sizes,
    then size), as many as the terminal's width holds (all of them in --format json)."""
    every = published_beside(analysis)
    published = every[: max(1, (width - 50) // 12)]
    yield from _deck_number(analysis, published, len(every))
    if analysis.played:
        yield _played_table(analysis)
    yield from _structure(analysis, published)
    yield _values_table(analysis)
    yield _coverage_table(analysis, top)
    yield _regions_table(analysis)
    yield from _crowding(analysis, top)
    yield from _fragility(analysis, top)


def _table(title: str, *columns: str) -> Any:
    """A rich table titled `title` (escaped), the first column and `cities` left."""
    from rich.markup import escape
    from rich.table import Table

    t = Table(title=escape(title), title_justify="left", title_style="bold", min_width=len(title))
    for i, name in enumerate(columns):
        t.add_column(escape(name), justify="left" if i == 0 or name == "cities" else "right")
    return t


def _deck_number(
    analysis: DeckAnalysis, published: list[tuple[str, Any]], boards: int
) -> Iterator[str]:
    """What of the map ttr does not model, the deck number by table size beside the
    nearest published decks', and where it falls among random decks."""
    from rich.markup import escape

    board, measures = analysis.board, analysis.measures
    by_size = ", ".join(
        f"{n} players {100 * c:.0f} %" for n, c in sorted(measures.completion.items())
    )
    beside = ", ".join(f"{escape(name)} {100 * m.deck_number:.0f} %" for name, m in published)
    if board.map.not_modelled:
        yield escape(f"{board.map.name} plays without: " + "; ".join(board.map.not_modelled))
    yield (
        f"[bold]{escape(board.map.name)}: deck number {100 * measures.deck_number:.0f} % at "
        f"{measures.reference_players} players[/bold] ({by_size}; the {len(published)} "
        f"nearest of {boards} published decks: {beside}): {DECK_NUMBER_MEANING}. "
        "It ranks decks of one map as greedy play does "
        "(Spearman 0.90-0.95 over 40 decks of four maps it was not fitted to, at each of "
        "2-5 players); read its level to about 10 points.\n"
    )
    if analysis.calibration is not None:
        cal = analysis.calibration
        yield (
            f"Against {len(cal.numbers)} random decks of the same size: deck numbers "
            f"{100 * min(cal.numbers):.0f}-{100 * max(cal.numbers):.0f} % (mean "
            f"{100 * cal.mean:.0f} %); {100 * cal.easier_share:.0f} % of them are predicted "
            "harder than this deck.\n"
        )


def _played_table(analysis: DeckAnalysis) -> Any:
    """The deck in play: completion and connections taken, by table size."""
    measures = analysis.measures
    played = _table(
        f"In play: games of {','.join(analysis.played[0].bots)} bots",
        "players",
        "games",
        "tickets completed",
        "95 %",
        "deck number",
        "connections taken a game",
        "95 %",
    )
    for p in analysis.played:
        played.add_row(
            str(p.players),
            str(p.games),
            f"{100 * p.completion:.1f} %",
            f"{100 * p.completion_ci95[0]:.1f}-{100 * p.completion_ci95[1]:.1f} %",
            f"{100 * measures.completion.get(p.players, 0.0):.0f} %",
            f"{p.blocked_per_game:.2f}",
            f"{p.blocked_ci95[0]:.2f}-{p.blocked_ci95[1]:.2f}",
        )
    played.caption = (
        "connections taken: on the cheapest path of a ticket a player holds at the end, "
        "closed to them by the others' tracks (R11) and not lent by a station (E1)"
    )
    return played


def _structure(analysis: DeckAnalysis, published: list[tuple[str, Any]]) -> Iterator[Any]:
    """The structure's parts beside the published decks', and the value profile's
    resemblance."""
    from rich.markup import escape

    from ttr_maps.analysis.tickets import PUBLISHED_DECKS, SCORE_WEIGHTS

    board, score = analysis.board, analysis.measures.score
    head = _table(
        f"{board.map.name}: structure (diagnostics; lower is better; {score.total:.1f} in all)",
        "part",
        "value 0..1",
        "weight",
        "points",
        *(f"{name} value" for name, _ in published),
    )
    for name, value in score.parts.items():
        weight = SCORE_WEIGHTS[name]
        head.add_row(
            name,
            f"{value:.3f}",
            f"{weight:.2f}",
            f"{100 * weight * value:.1f}",
            *(f"{m.score.parts[name]:.3f}" for _, m in published),
        )
    head.add_row(
        "duplicates",
        str(score.duplicates),
        "",
        f"{100 * score.duplicates:.0f}",
        *(str(m.score.duplicates) for _, m in published),
    )
    head.add_row(
        "structure", "", "", f"{score.total:.1f}", *(f"{m.score.total:.1f}" for _, m in published)
    )
    where = "are below" if analysis.played else "are counted with --games"
    head.caption = (
        "crowding here: the model's share of wanted wagons over capacity (a part of the "
        f"structure, no count of play; the connections taken in play {where})"
    )
    yield head
    profile = next((d.name for d in PUBLISHED_DECKS if d.key == score.profile), score.profile)
    yield (
        f"Resemblance to a published value profile: {score.resemblance:.2f} against "
        f"{escape(profile)}'s (0 = the same values; 1 = 0.15 of the diameter away on "
        "average).\n"
    )


def _values_table(analysis: DeckAnalysis) -> Any:
    """Tickets by value, regular and long, with a bar."""
    from ttr_maps.analysis.tickets import nearest_profile

    board, tickets = analysis.board, analysis.measures.tickets
    values = _table(
        f"Values (diameter {board.diameter}; nearest published profile: "
        f"{nearest_profile(board, tickets).name})",
        "value",
        "regular",
        "long",
        "",
    )
    regular = Counter(t.value for t in tickets if not t.long)
    long = Counter(t.value for t in tickets if t.long)
    peak = max([*regular.values(), *long.values()])
    for v in sorted(set(regular) | set(long)):
        bar = "█" * max(1, round(16 * (regular[v] + long[v]) / peak))
        values.add_row(str(v), str(regular[v] or ""), str(long[v] or ""), bar)
    return values


def _coverage_table(analysis: DeckAnalysis, top: int) -> Any:
    """The cities with the fewest and the most ticket ends against their degree."""
    from rich.markup import escape

    board, measures = analysis.board, analysis.measures
    coverage = _table("Coverage: ticket ends against degree", "city", "degree", "tickets")
    rows = sorted(
        measures.city_tickets.items(),
        key=lambda item: (item[1] - board.degree.get(item[0], 0), item[0]),
    )
    for city, count in [*rows[:top], *rows[-3:]] if len(rows) > top + 3 else rows:
        coverage.add_row(escape(city), str(board.degree.get(city, 0)), str(count))
    return coverage


def _regions_table(analysis: DeckAnalysis) -> Any:
    """Tickets per pair of regions."""
    from rich.markup import escape

    names = analysis.board.region_names
    pairs = analysis.measures.region_pairs
    regions = _table("Tickets per region pair", "region", *names)
    for i, name in enumerate(names):
        regions.add_row(
            escape(name),
            *(str(pairs.get((min(i, j), max(i, j)), 0)) for j in range(len(names))),
        )
    return regions


def _crowding(analysis: DeckAnalysis, top: int) -> Iterator[Any]:
    """Where the crowding falls, by table size: the connections taken in play
    where the deck was played (`--games`), else the model's ranking of who wants
    which connection, which follows play's ranking but counts nothing of play."""
    played = {p.players: p for p in analysis.played}
    modelled = [c for c in analysis.measures.crowding if c.players not in played]
    for p in analysis.played:
        yield _played_crowding(analysis.board, p, top)
    if modelled:
        yield (
            "Not played (--games 0): the tables below rank connections by a model of who "
            "wants which (every player holds a hand of tickets drawn from the deck). Its "
            "ranking follows play; its numbers are no count of play (16-55 % low on maps "
            "it was not fitted to): --games counts the connections taken.\n"
        )
    for crowd in modelled:
        yield _model_crowding(crowd, top)


def _played_crowding(board: Any, played: Any, top: int) -> Any:
    """One table size's connections taken in play, most often first, and the
    cities they lead to."""
    from rich.markup import escape

    low, high = played.blocked_ci95
    title = (
        f"Crowding in play at {played.players} players: {played.blocked_per_game:.2f} "
        f"connections taken a game ({low:.2f}-{high:.2f}, 95 %; {played.games} "
        f"{','.join(played.bots)} games)"
    )
    taken = [(c, b) for c, b in played.routes(board) if b >= SHOWN_EXCESS][:top]
    if not taken:
        return f"[bold]{escape(title)}[/bold]: no connection taken\n"
    table = _table(title, "route", "length", "tracks (R11)", "taken a game")
    for connection, per_game in taken:
        table.add_row(
            escape(str(connection)),
            str(connection.length),
            str(connection.capacity(played.players, board.rules)),
            f"{per_game:.2f}",
        )
    cities: Counter[str] = Counter()
    for connection, per_game in played.routes(board):
        cities[connection.a] += per_game
        cities[connection.b] += per_game
    table.caption = "cities most taken from: " + escape(
        ", ".join(f"{city} ({n:.2f})" for city, n in cities.most_common(5))
    )
    return table


def _model_crowding(crowd: Any, top: int) -> Any:
    """One table size's model ranking: a table of the most over-demanded
    connections, or a line."""
    from rich.markup import escape

    over = [r for r in crowd.routes() if r.excess >= SHOWN_EXCESS][:top]
    title = (
        f"Where the model puts the crowding at {crowd.players} players "
        f"(a hand of {crowd.hand:.1f} tickets)"
    )
    if not over:
        return f"[bold]{escape(title)}[/bold]: no route over-demanded\n"
    crowded = _table(title, "route", "length", "players wanting", "tracks", "model excess")
    for r in over:
        crowded.add_row(
            escape(str(r.connection)),
            str(r.connection.length),
            f"{r.demand:.2f}",
            str(r.capacity),
            f"{r.excess:.2f}",
        )
    cities = [c for c in crowd.cities() if c.excess >= SHOWN_EXCESS][:5]
    crowded.caption = "busiest cities (model): " + escape(
        ", ".join(f"{c.city} (+{c.excess:.2f})" for c in cities)
    )
    return crowded


def _fragility(analysis: DeckAnalysis, top: int) -> Iterator[Any]:
    """Tickets with a single cheap path, and ticket pairs sharing most of theirs."""
    from rich.markup import escape

    measures = analysis.measures
    fragile = _table("Fragility: tickets with a single cheap path", "ticket", "value", "next path")
    for t in measures.single_path:
        cost = _next_cost(analysis, t.a, t.b)
        fragile.add_row(
            escape(f"{t.a} – {t.b}"), str(t.value), "none" if cost is None else str(cost)
        )
    yield fragile
    pairs = _table("Ticket pairs sharing most of their path", "tickets", "shared")
    for p in measures.overlapping[: 2 * top]:
        pairs.add_row(
            escape(f"{p.first.a} – {p.first.b} / {p.second.a} – {p.second.b}"), f"{p.share:.2f}"
        )
    yield pairs


def plot_analysis(analysis: DeckAnalysis, path: str | Path, *, dpi: float = 90) -> Path:
    """One page: crowding on the map at each table size (the preview's `draw_map`
    with route and city heat), the value profile against the published decks,
    coverage against degree, tickets per region pair and the deck number among
    random decks."""
    from ttr_maps.analysis.tickets import reference_profile
    from ttr_maps.render.draw import draw_map
    from ttr_maps.render.figure import check_figure_path, font_properties, new_figure, save_figure
    from ttr_maps.render.overlay import Heat, Overlay
    from ttr_maps.render.palette import CAR_EDGE

    check_figure_path(path)
    board, measures = analysis.board, analysis.measures
    figure = new_figure((16.0, 15.5), dpi)
    figure.suptitle(
        f"{for_matplotlib(board.map.name)}: ticket deck (deck number "
        f"{100 * measures.deck_number:.0f} % at {measures.reference_players} players: held "
        "tickets completed, predicted)",
        fontproperties=font_properties(15, "bold"),
    )
    grid = figure.add_gridspec(
        3, 4, height_ratios=[1.0, 1.0, 0.8], hspace=0.22, wspace=0.3,
        left=0.03, right=0.98, top=0.95, bottom=0.04,
    )  # fmt: skip
    drawing = None
    for i, crowd in enumerate(measures.crowding):
        ax = figure.add_subplot(grid[i // 2, 2 * (i % 2) : 2 * (i % 2) + 2])
        route_heat = {}
        for r in crowd.routes():
            ratio = min(1.0, r.demand / r.capacity / 2)
            route_heat.update(dict.fromkeys(r.connection.route_ids, ratio))
        worst = max((c.excess for c in crowd.cities()), default=0.0) or 1.0
        city_heat = {c.city: c.excess / worst for c in crowd.cities() if c.excess > 0}
        overlay = Overlay(heat=Heat(routes=route_heat, cities=city_heat))
        drawing = draw_map(ax, board.map, overlay, legend=False, colorbar=False)
        ax.set_title(
            f"{crowd.players} players: where the model puts the crowding "
            "(its ranking; --games counts play)",
            fontproperties=font_properties(11, "bold"),
        )
    if drawing is not None and drawing.heat_mappable is not None:
        bar = figure.colorbar(
            drawing.heat_mappable,
            ax=figure.axes,
            orientation="horizontal",
            fraction=0.02,
            pad=0.01,
            aspect=60,
            shrink=0.5,
            anchor=(0.5, 3.2),
        )
        bar.set_ticks([0, 0.5, 1.0], labels=["0", "full (1×)", "2× or more"])
        bar.set_label(
            "route: players wanting it / free tracks (R11); city dot: excess demand",
            fontproperties=font_properties(9),
        )

    ax = figure.add_subplot(grid[2, 0])
    tickets = measures.tickets
    bins = [i / 20 for i in range(21)]
    for name, values in reference_profile(False) + [
        (f"{name} long", v) for name, v in reference_profile(True)
    ]:
        ax.hist(values, bins=bins, histtype="step", density=True, linewidth=1.4, label=name)
    ax.hist(
        [t.value / board.diameter for t in tickets],
        bins=bins,
        density=True,
        color="#6a8caf",
        alpha=0.6,
        edgecolor=CAR_EDGE,
        label="this deck",
    )
    ax.set_title("Values / diameter", fontproperties=font_properties(10))
    ax.legend(prop=font_properties(7))

    ax = figure.add_subplot(grid[2, 1])
    ends = 2 * len(tickets)
    degree_total = sum(board.degree.values()) or 1
    xs = [board.degree.get(c, 0) / degree_total for c in measures.city_tickets]
    ys = [n / ends for n in measures.city_tickets.values()]
    ax.scatter(xs, ys, s=18, color="#d7301f", edgecolors=CAR_EDGE, linewidths=0.4)
    top = max([*xs, *ys, 0.01])
    ax.plot([0, top], [0, top], color="#888888", linewidth=0.8, linestyle="--")
    ax.set_xlabel("share of degree", fontproperties=font_properties(8))
    ax.set_ylabel("share of ticket ends", fontproperties=font_properties(8))
    ax.set_title("Coverage", fontproperties=font_properties(10))

    ax = figure.add_subplot(grid[2, 2])
    count = board.region_count
    matrix = [
        [measures.region_pairs.get((min(i, j), max(i, j)), 0) for j in range(count)]
        for i in range(count)
    ]
    ax.imshow(matrix, cmap="Blues")
    for i in range(count):
        for j in range(count):
            ax.text(j, i, str(matrix[i][j]), ha="center", va="center", fontsize=9)
    labels = [name.removesuffix(" region") for name in board.region_names]
    ax.set_xticks(range(count), labels, rotation=30, fontsize=7)
    ax.set_yticks(range(count), labels, fontsize=7)
    ax.set_title("Tickets per region pair", fontproperties=font_properties(10))

    ax = figure.add_subplot(grid[2, 3])
    if analysis.calibration is not None:
        cal = analysis.calibration
        ax.hist(cal.numbers, bins=30, color="#bbbbbb", edgecolor=CAR_EDGE, linewidth=0.4)
        ax.axvline(cal.deck_number, color="#d7301f", linewidth=2)
        ax.set_title(
            f"Deck number vs {len(cal.numbers)} random decks: "
            f"easier than {100 * cal.easier_share:.0f} %",
            fontproperties=font_properties(10),
        )
        ax.set_xlabel(
            "predicted share of held tickets completed", fontproperties=font_properties(8)
        )
    else:
        ax.set_axis_off()
    return save_figure(figure, path, dpi=dpi)


def write_text(analysis: DeckAnalysis, out: TextIO) -> None:
    """The tables of `analysis_renderables`, printed by rich to `out`."""
    from rich.console import Console

    console = Console(file=out)
    for renderable in analysis_renderables(analysis, width=console.width):
        console.print(renderable)


def write_json(analysis: DeckAnalysis, out: TextIO) -> None:
    """`analysis_to_dict` as indented JSON, one line at the end."""
    import json

    out.write(json.dumps(analysis_to_dict(analysis), indent=2, ensure_ascii=False) + "\n")
    out.flush()


#: `--format` names and their reporters: each writes the whole report to a stream.
REPORTERS: dict[str, Callable[[DeckAnalysis, TextIO], None]] = {
    "text": write_text,
    "json": write_json,
}
