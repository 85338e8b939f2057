"""The pages and pictures of a balance report: `report.html` and the PNGs it shows.

Pictures are drawn on figures with their own Agg canvas (no pyplot state); the
page is one `ttr_maps.reports.page.html_page` with every name from the map or the
command line escaped (`ttr_maps.text.for_html`). `ttr_core.playtest.folder` writes
them into the report folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ttr_core.playtest.findings import fit_completion
from ttr_core.playtest.report import (
    ArcPoint,
    BalanceReport,
    Europe,
    Rate,
    ScoreDistribution,
    SeatRate,
    Stalls,
    TicketCompletion,
    TicketOutliersEvidence,
)
from ttr_core.playtest.tally import FinalScores
from ttr_maps.model import Map
from ttr_maps.reports.page import html_page
from ttr_maps.text import for_html, for_matplotlib

PICTURES = {
    "heatmap": "heatmap.png",
    "scores_by_seat": "scores-by-seat.png",
    "scores_by_bot": "scores-by-bot.png",
    "arc": "game-arc.png",
    "tickets": "tickets.png",
    "ticket_fit": "ticket-completion-vs-value.png",
    "score_parts": "score-parts-by-seat.png",
}


def write_pictures(
    report: BalanceReport, game_map: Map, out_dir: Path, scores: FinalScores
) -> list[Path]:
    from ttr_maps.render.draw import render_map
    from ttr_maps.render.overlay import Heat, Overlay

    games = max(report.games, 1)
    # Absolute scale: the share of games (routes) or of seat-games (cities), so two
    # reports' heatmaps compare at a glance.
    route_heat = {r.route: r.claimed / games for r in report.routes}
    city_heat = dict(report.cities)
    written = [
        render_map(
            game_map,
            out_dir / PICTURES["heatmap"],
            Overlay(heat=Heat(route_heat, city_heat, "share of games claimed (0 to 1)")),
            title=f"{game_map.name}: routes and cities claimed in {games} games",
        )
    ]
    written.append(
        _boxplot(scores.by_seat, "Final score by seat", out_dir / PICTURES["scores_by_seat"])
    )
    written.append(
        _boxplot(scores.by_bot, "Final score by bot", out_dir / PICTURES["scores_by_bot"])
    )
    written.append(_arc(report.arc, out_dir / PICTURES["arc"]))
    written.append(_tickets(report.tickets.by_ticket, out_dir / PICTURES["tickets"]))
    written.append(_ticket_fit(report, out_dir / PICTURES["ticket_fit"]))
    written.append(_score_parts(report.scores.by_seat, out_dir / PICTURES["score_parts"]))
    return written


def _score_parts(by_seat: Sequence[ScoreDistribution], path: Path) -> Path:
    """Mean score parts per seat (R15, R16; E1's stations): bars side by side, so a
    seat that lives on one part stands out."""
    from ttr_maps.render.draw import new_figure, save_figure

    seats = [str(seat) for seat in range(len(by_seat))]
    parts = list(dict.fromkeys(p for d in by_seat for p in d.parts))
    figure = new_figure((8.0, 4.5))
    ax = figure.add_subplot()
    width = 0.8 / max(len(parts), 1)
    for k, part in enumerate(parts):
        means = [_zero_if_none(_part_mean(d, part)) for d in by_seat]
        ax.bar([i + k * width for i in range(len(seats))], means, width, label=part)
    ax.set_xticks([i + width * (len(parts) - 1) / 2 for i in range(len(seats))], seats)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("seat")
    ax.set_ylabel("mean points")
    ax.set_title("Score parts by seat")
    low, high = ax.get_ylim()
    ax.set_ylim(low, high + 0.2 * (high - low))  # room for the legend above the bars
    ax.legend(fontsize=8, loc="upper center", ncol=len(parts) or 1)
    ax.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return save_figure(figure, path)


def _zero_if_none(value: float | None) -> float:
    return 0 if value is None else value


def _part_mean(scores: ScoreDistribution, part: str) -> float | None:
    """The mean of one score part, None where the part was never scored."""
    distribution = scores.parts.get(part)
    return None if distribution is None else distribution.mean


def _ticket_fit(report: BalanceReport, path: Path) -> Path:
    """Completion rate against value, one dot per ticket (size: times held), the
    fitted line, and the outliers of the `ticket-outliers` finding named."""
    from ttr_maps.render.draw import new_figure, save_figure

    tickets = [t for t in report.tickets.by_ticket if t.held]
    figure = new_figure((8.0, 4.5))
    ax = figure.add_subplot()
    ax.scatter(
        [t.value for t in tickets],
        [t.rate for t in tickets],
        s=[10 + 40 * t.held / max(x.held for x in tickets) for t in tickets] or None,
        alpha=0.6,
        color="#4c72b0",
    )
    fit = fit_completion(tickets)
    if fit is not None and tickets:
        values = [min(t.value for t in tickets), max(t.value for t in tickets)]
        ax.plot(
            values, [fit.intercept + fit.slope * v for v in values], color="#dd8452", label="fit"
        )
        ax.legend()
    outliers = next(
        (
            f.evidence.tickets
            for f in report.findings
            if isinstance(f.evidence, TicketOutliersEvidence)
        ),
        (),
    )
    for o in outliers:
        ax.annotate(for_matplotlib(o.ticket), (o.value, o.rate), fontsize=7)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("ticket value")
    ax.set_ylabel("completed when held")
    ax.set_title("Ticket completion against value (dot size: times held)")
    ax.grid(alpha=0.3)
    figure.tight_layout()
    return save_figure(figure, path)


def _boxplot(groups: Mapping[str, Iterable[int]], title: str, path: Path) -> Path:
    from ttr_maps.render.draw import new_figure, save_figure

    figure = new_figure((8.0, 4.5))
    ax = figure.add_subplot()
    labels = list(groups)
    ax.boxplot([list(groups[k]) or [0] for k in labels], showmeans=True)
    ax.set_xticks(range(1, len(labels) + 1), labels)
    ax.set_title(title)
    ax.set_ylabel("final score")
    ax.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return save_figure(figure, path)


def _arc(arc: Sequence[ArcPoint], path: Path) -> Path:
    from ttr_maps.render.draw import new_figure, save_figure

    figure = new_figure((8.0, 4.5))
    ax = figure.add_subplot()
    turns = [a.turn for a in arc]
    ax.plot(turns, [a.mean_route_points for a in arc], label="route points (mean per seat)")
    ax.plot(turns, [a.mean_wagons for a in arc], label="wagons left (mean per seat)")
    ax.set_xlabel("turn (all seats counted)")
    ax.set_title(
        "Game arc (mean over all games; a finished game keeps its final values)", fontsize=10
    )
    ax.legend()
    ax.grid(alpha=0.3)
    figure.tight_layout()
    return save_figure(figure, path)


def _tickets(tickets: Sequence[TicketCompletion], path: Path) -> Path:
    from ttr_maps.render.draw import new_figure, save_figure

    held = sorted((t for t in tickets if t.held), key=lambda t: (t.rate, -t.value, t.ticket))
    height = max(3.0, 0.22 * len(held) + 1.0)
    figure = new_figure((8.0, height))
    ax = figure.add_subplot()
    labels = [for_matplotlib(f"{t.ticket} ({t.value})") for t in held]
    ax.barh(labels, [t.rate for t in held], color="#4c72b0")
    ax.set_xlim(0, 1)
    ax.set_xlabel("completed when held")
    ax.set_title("Ticket completion")
    ax.tick_params(axis="y", labelsize=7)
    figure.tight_layout()
    return save_figure(figure, path)


# ------------------------------------------------------------------------ HTML


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{for_html(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{for_html(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _interval(rate: Rate) -> str:
    return f"{_pct(rate.ci95[0])} – {_pct(rate.ci95[1])}"


def _rate_rows(rates: Iterable[tuple[Any, SeatRate]]) -> list[list[Any]]:
    return [
        [key, r.games, round(r.wins, 2), r.outright_wins, _pct(r.rate), _interval(r)]
        for key, r in rates
    ]


def _score_table(label: str, groups: Iterable[tuple[Any, ScoreDistribution]]) -> str:
    """Score distributions with the mean of every score part (the result's parts:
    routes, tickets, longest_path_bonus, and stations with the europe rules)."""
    groups = list(groups)
    names = list(dict.fromkeys(p for _, d in groups for p in d.parts))
    return _table(
        [label, "mean", "sd", "q10", "median", "q90", *(f"{p} (mean)" for p in names)],
        [
            [
                key,
                d.total.mean,
                d.total.sd,
                d.total.q10,
                d.total.median,
                d.total.q90,
                *(_part_mean(d, p) for p in names),
            ]
            for key, d in groups
        ],
    )


def _stalls(stalls: Stalls) -> str:
    causes = ", ".join(f"{c}: {n}" for c, n in stalls.causes.items())
    text = f"<p>Stalls (all passed): {stalls.count}"
    text += f" (ran out of {for_html(causes)}).</p>" if causes else ".</p>"
    if not stalls.examples:
        return text
    shown = stalls.examples[:20]
    items = "".join(
        f"<li>game {g.index} (seed {g.seed}): <code>{for_html(g.command)}</code></li>"
        for g in shown
    )
    more = stalls.count - len(shown)
    tail = f"<p>… and {more} more (the same seeds rule gives every game).</p>" if more else ""
    return f"{text}<p>Play one again:</p><ul>{items}</ul>{tail}"


def _europe(europe: Europe | None) -> list[str]:
    if europe is None:
        return []
    rows = [
        [
            name,
            e.seat_games,
            e.stations_built,
            e.stations_per_game,
            e.routes_borrowed,
            e.tunnel_claims,
            e.tunnels_claimed_at_once,
            e.tunnels_paid,
            e.tunnels_given_up,
        ]
        for name, e in europe.by_bot.items()
    ]
    head = ["bot", "seat-games", "stations", "per game", "routes borrowed", "tunnel claims"]
    head += ["claimed at once", "extra paid", "given up"]
    return ["<h2>Stations (E1) and tunnels (E2)</h2>", _table(head, rows)]


def _findings(report: BalanceReport) -> list[str]:
    """The findings, first on the page: severity, what, the evidence, what to try;
    then the undecided numbers with the games that would decide them, what the run
    could have seen, what hardly reaches play, and how it was tested."""
    from ttr_core.playtest.findings import needed_text
    from ttr_core.playtest.reach import note_text

    found, screening = report.findings, report.screening
    parts = ["<h2>Findings</h2>"]
    if not found:
        parts.append("<p>No finding confirmed (each must pass the correction and show in "
                     "both halves of the games).</p>")  # fmt: skip
    else:
        items = "".join(
            f'<li class="{for_html(f.severity)}"><b>[{for_html(f.severity)}]</b> '
            f"{for_html(f.title)}<br><i>Try:</i> {for_html(f.suggestion)}"
            f"<details><summary>evidence</summary><pre>"
            f"{for_html(json.dumps(f.evidence.to_dict(), indent=1, ensure_ascii=False)[:4000])}"
            f"</pre></details></li>"
            for f in found
        )
        parts.append(f'<ul class="findings">{items}</ul>')
    if report.undecided:
        items = "".join(
            f"<li>{for_html(u.title)}: {for_html(needed_text(u))}</li>" for u in report.undecided
        )
        parts += ["<h3>Undecided: more games would tell</h3>", f"<ul>{items}</ul>"]
    if screening.detectable:
        items = "".join(f"<li>{for_html(d.text)}</li>" for d in screening.detectable)
        parts += [
            f"<h3>What {report.games} games would find (80 % of the time)</h3>",
            f"<ul>{items}</ul>",
        ]
    if report.reach:
        items = "".join(f"<li>{for_html(note_text(n))}</li>" for n in report.reach)
        parts += ["<h3>Hardly in play</h3>", f"<ul>{items}</ul>"]
    parts.append(
        f"<p><small>{screening.tests} numbers tested, Holm-corrected at "
        f"{100 * screening.alpha:.0f} % together; {for_html(screening.replication)}; "
        f"baseline: {for_html(screening.baseline)}.</small></p>"
    )
    return parts


STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;"
    "padding:2px 8px;text-align:right}td:first-child{text-align:left}"
    "img{max-width:49%}img.wide{max-width:100%}"
    "li.high{color:#a00}li.medium,li.medium.or.high{color:#a60}ul.findings li{margin:.4em 0}"
)


def to_html(report: BalanceReport) -> str:
    """One self-contained page; pictures are referenced relatively."""
    s = report.settings
    win = report.win_rate
    scores = report.scores
    hard = sorted((t for t in report.tickets.by_ticket if t.held), key=lambda t: t.rate)[:10]
    routes = sorted(report.routes, key=lambda r: -r.claimed)
    rate_head = ["", "seat-games", "wins", "outright", "win rate", "95 % interval"]
    first = win.first_player
    parts = [
        f"<h1>Play-test report: {for_html(s.map_name)}</h1>",
        f"<p>{report.games} games, {s.players} players, bots "
        f"{for_html(', '.join(s.bots))}, seed {s.seed}. "
        f"Fair share of wins: {_pct(win.fair_share)}. "
        f"Shared first places count 1/k of a win each.</p>",
        *_findings(report),
        "<h2>Win rate by bot</h2>",
        _table(rate_head, _rate_rows(win.by_bot.items())),
        "<h2>Win rate by seat</h2>",
        _table(rate_head, _rate_rows(enumerate(win.by_seat))),
        "<h2>Win rate by turn order (1 = the first player, R4)</h2>",
        _table(
            ["", "games", "wins", "win rate", "95 % interval"],
            [
                [order, r.games, round(r.wins, 2), _pct(r.rate), _interval(r)]
                for order, r in enumerate(win.by_turn_order, start=1)
            ],
        ),
        f"<p>First player wins {_pct(first.rate)} ({_interval(first)}).</p>",
        "<h2>End of the games</h2>",
        _table(["end reason", "games"], [[k, v] for k, v in report.end_reasons.items()]),
        _stalls(report.stalls),
        f"<p>Turns per game: mean {_zero_if_none(report.turns.mean)}, "
        f"min {_zero_if_none(report.turns.min)}, max {_zero_if_none(report.turns.max)}.</p>",
        "<h2>Scores</h2>",
        _score_table("bot", scores.by_bot.items()),
        _score_table("seat", enumerate(scores.by_seat)),
        f'<img src="{PICTURES["scores_by_bot"]}" alt="scores by bot">',
        f'<img src="{PICTURES["scores_by_seat"]}" alt="scores by seat">',
        f'<img src="{PICTURES["score_parts"]}" alt="score parts by seat">',
        "<h2>Longest path bonus (R16)</h2>",
        _table(["bot", "bonuses"], [[k, v] for k, v in report.longest_path_bonus.by_bot.items()]),
        "<h2>Where the games are played</h2>",
        f'<img src="{PICTURES["heatmap"]}" alt="route and city heatmap" class="wide">',
        _table(
            ["most claimed route", "claimed in games"],
            [[r.route, _pct(r.rate)] for r in routes[:10]],
        ),
        _table(
            ["least claimed route", "claimed in games"],
            [[r.route, _pct(r.rate)] for r in routes[::-1][:10]],
        ),
        "<p>Never claimed: " + (for_html(", ".join(report.unclaimed_routes)) or "none") + "</p>",
        *_europe(report.europe),
        "<h2>Game arc</h2>",
        f'<img src="{PICTURES["arc"]}" alt="game arc">',
        "<h2>Tickets</h2>",
        _table(
            ["bot", "held", "completed", "rate"],
            [[n, t.held, t.completed, _pct(t.rate)] for n, t in report.tickets.by_bot.items()],
        ),
        _table(
            ["hardest tickets", "value", "held", "completed"],
            [[t.ticket, t.value, t.held, _pct(t.rate)] for t in hard],
        ),
        f'<img src="{PICTURES["tickets"]}" alt="ticket completion">',
        f'<img src="{PICTURES["ticket_fit"]}" alt="ticket completion against value">',
        '<p>All numbers: <a href="report.json">report.json</a>.</p>',
    ]
    body = "\n".join(parts)
    return html_page(f"Play-test report: {s.map_name}", f"\n{body}\n", STYLE)
