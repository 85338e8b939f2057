"""Writing a simulation report: `report.json`, pictures and `report.html`.

Pictures are drawn on figures with their own Agg canvas (no pyplot state). The
files are written into a hidden staging folder (inside the target folder if it
exists, else beside it) and moved into place only when all of them are written,
`report.json` last, so a failure (a picture that cannot be drawn, a full disk)
leaves the target folder as it was.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ttr_maps.model import Map

PICTURES = {
    "heatmap": "heatmap.png",
    "scores_by_seat": "scores-by-seat.png",
    "scores_by_bot": "scores-by-bot.png",
    "arc": "game-arc.png",
    "tickets": "tickets.png",
    "ticket_fit": "ticket-completion-vs-value.png",
    "score_parts": "score-parts-by-seat.png",
}
#: Every file of a report, in the order they are moved into place (report.json last).
REPORT_FILES = ("report.html", *PICTURES.values(), "report.json")
RECORDS_FOLDER = "records"


class ReportFolderError(ValueError):
    """The report cannot be written to the folder asked for; the message says why."""


def prepare_report_folder(out_dir: Path) -> Path:
    """Check that a report can be written to `out_dir` and make the staging folder
    for it: a new hidden folder inside `out_dir` when it exists, else in its parent
    (created if needed), so it is on the same file system. Call it before the games
    are played, so a bad folder fails at once.

    Raises `ReportFolderError`.
    """
    _check_targets(out_dir)
    target = out_dir.absolute()
    folder = target if target.is_dir() else target.parent
    prefix = f".{target.name}."
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _remove_abandoned_staging(folder, prefix)
        staging_name = f"{prefix}{os.getpid()}."
        staging = Path(tempfile.mkdtemp(dir=folder, prefix=staging_name, suffix=".tmp"))
    except OSError as error:
        raise ReportFolderError(f"cannot write in {folder}: {error.strerror or error}") from None
    return staging


def _remove_abandoned_staging(folder: Path, prefix: str) -> None:
    """Remove staging folders left by runs that were killed (SIGKILL, power loss):
    their name carries the process id, and that process is gone. A run still going
    keeps its folder."""
    for candidate in folder.glob(f"{prefix}*.tmp"):
        pid_text = candidate.name[len(prefix) :].split(".", 1)[0]
        if candidate.is_dir() and pid_text.isdecimal() and not _is_running(int(pid_text)):
            shutil.rmtree(candidate, ignore_errors=True)


def _is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # someone else's process (or a pid we cannot ask about)
    return True


def _check_targets(out_dir: Path, record_names: list[str] | None = None) -> None:
    """Refuse a target whose folder, or one of whose files, is of the wrong kind."""
    for folder in (out_dir, *out_dir.absolute().parents):
        if folder.exists():
            if not folder.is_dir():
                raise ReportFolderError(f"{folder} exists and is not a folder")
            break
    if not out_dir.is_dir():
        return
    for name in REPORT_FILES:
        if (out_dir / name).is_dir():
            raise ReportFolderError(f"{out_dir / name} is a folder, not a file")
    records = out_dir / RECORDS_FOLDER
    if records.exists() and not records.is_dir():
        raise ReportFolderError(f"{records} exists and is not a folder")
    for name in record_names or []:
        if (records / name).is_dir():
            raise ReportFolderError(f"{records / name} is a folder, not a file")


def _publish(staging: Path, out_dir: Path) -> None:
    """Move the staged report into `out_dir`: the whole folder at once when
    `out_dir` does not exist, else file by file with report.json last."""
    records = staging / RECORDS_FOLDER
    record_names = sorted(p.name for p in records.iterdir()) if records.is_dir() else []
    _check_targets(out_dir, record_names)
    if not out_dir.exists():
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)  # mkdtemp makes the folder private
        os.rename(staging, out_dir)
        return
    if record_names:
        (out_dir / RECORDS_FOLDER).mkdir(exist_ok=True)
        for name in record_names:
            os.replace(records / name, out_dir / RECORDS_FOLDER / name)
    for name in REPORT_FILES:
        os.replace(staging / name, out_dir / name)


def write_report(
    report: Mapping[str, Any],
    game_map: Map,
    out_dir: Path,
    totals: Mapping[str, Mapping[str, Iterable[int]]],
    records: list[tuple[int, str]] | None = None,
    *,
    staging: Path | None = None,
) -> list[Path]:
    """Write everything into `out_dir` (created if needed); return the files.

    `totals` holds raw score lists {"by_seat": {...}, "by_bot": {...}} for the
    distribution pictures. The files are written into `staging` (from
    `prepare_report_folder`; made here if not given), then moved into place; the
    staging folder is removed whatever happens. Raises `ReportFolderError`,
    `PreviewError` or `OSError`, leaving `out_dir` as it was.
    """
    from ttr_maps.io.files import write_text_atomically

    if staging is None:
        staging = prepare_report_folder(out_dir)
    try:
        write_text_atomically(staging / "report.html", to_html(report))
        write_pictures(report, game_map, staging, totals)
        if records:
            folder = staging / RECORDS_FOLDER
            folder.mkdir()
            for seed, text in records:
                write_text_atomically(folder / f"game-{seed}.json", text)
        text = json.dumps(report, indent=1, ensure_ascii=False) + "\n"
        write_text_atomically(staging / "report.json", text)
        _publish(staging, out_dir)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    written = [out_dir / name for name in REPORT_FILES]
    if records:
        written.append(out_dir / RECORDS_FOLDER)
    return written


def write_pictures(
    report: Mapping[str, Any],
    game_map: Map,
    out_dir: Path,
    totals: Mapping[str, Mapping[str, Iterable[int]]],
) -> list[Path]:
    from ttr_maps.render.draw import render_map
    from ttr_maps.render.overlay import Heat, Overlay

    games = max(report["games"], 1)
    # Absolute scale: the share of games (routes) or of seat-games (cities), so two
    # reports' heatmaps compare at a glance.
    route_heat = {r["route"]: r["claimed"] / games for r in report["routes"]}
    city_heat = dict(report["cities"])
    written = [
        render_map(
            game_map,
            out_dir / PICTURES["heatmap"],
            Overlay(heat=Heat(route_heat, city_heat, "share of games claimed (0 to 1)")),
            title=f"{game_map.name}: routes and cities claimed in {games} games",
        )
    ]
    written.append(
        _boxplot(totals["by_seat"], "Final score by seat", out_dir / PICTURES["scores_by_seat"])
    )
    written.append(
        _boxplot(totals["by_bot"], "Final score by bot", out_dir / PICTURES["scores_by_bot"])
    )
    written.append(_arc(report["arc"], out_dir / PICTURES["arc"]))
    written.append(_tickets(report["tickets"]["by_ticket"], out_dir / PICTURES["tickets"]))
    written.append(_ticket_fit(report, out_dir / PICTURES["ticket_fit"]))
    written.append(_score_parts(report["scores"]["by_seat"], out_dir / PICTURES["score_parts"]))
    return written


def _score_parts(by_seat: Mapping[str, Mapping[str, Any]], path: Path) -> Path:
    """Mean score parts per seat (R15, R16; E1's stations): bars side by side, so a
    seat that lives on one part stands out."""
    from ttr_maps.render.draw import new_figure, save_figure

    seats = list(by_seat)
    parts = list(dict.fromkeys(p for d in by_seat.values() for p in d.get("parts", {})))
    figure = new_figure((8.0, 4.5))
    ax = figure.add_subplot()
    width = 0.8 / max(len(parts), 1)
    for k, part in enumerate(parts):
        means = [by_seat[s].get("parts", {}).get(part, {}).get("mean", 0) for s in seats]
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


def _ticket_fit(report: Mapping[str, Any], path: Path) -> Path:
    """Completion rate against value, one dot per ticket (size: times held), the
    fitted line, and the outliers of the `ticket-outliers` finding named."""
    from ttr_core.playtest.findings import fit_completion
    from ttr_maps.render.draw import new_figure, save_figure
    from ttr_maps.text import for_matplotlib

    tickets = [t for t in report["tickets"]["by_ticket"] if t["held"]]
    figure = new_figure((8.0, 4.5))
    ax = figure.add_subplot()
    ax.scatter(
        [t["value"] for t in tickets],
        [t["rate"] for t in tickets],
        s=[10 + 40 * t["held"] / max(x["held"] for x in tickets) for t in tickets] or None,
        alpha=0.6,
        color="#4c72b0",
    )
    fit = fit_completion(tickets)
    if fit is not None and tickets:
        values = [min(t["value"] for t in tickets), max(t["value"] for t in tickets)]
        ax.plot(values, [fit[0] + fit[1] * v for v in values], color="#dd8452", label="fit")
        ax.legend()
    outliers = next(
        (f["evidence"]["tickets"] for f in report["findings"] if f["code"] == "ticket-outliers"),
        [],
    )
    for o in outliers:
        ax.annotate(for_matplotlib(o["ticket"]), (o["value"], o["rate"]), fontsize=7)
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


def _arc(arc: list[Mapping[str, Any]], path: Path) -> Path:
    from ttr_maps.render.draw import new_figure, save_figure

    figure = new_figure((8.0, 4.5))
    ax = figure.add_subplot()
    turns = [a["turn"] for a in arc]
    ax.plot(turns, [a["mean_route_points"] for a in arc], label="route points (mean per seat)")
    ax.plot(turns, [a["mean_wagons"] for a in arc], label="wagons left (mean per seat)")
    ax.set_xlabel("turn (all seats counted)")
    ax.set_title(
        "Game arc (mean over all games; a finished game keeps its final values)", fontsize=10
    )
    ax.legend()
    ax.grid(alpha=0.3)
    figure.tight_layout()
    return save_figure(figure, path)


def _tickets(tickets: list[Mapping[str, Any]], path: Path) -> Path:
    from ttr_maps.render.draw import new_figure, save_figure

    held = sorted(
        (t for t in tickets if t["held"]), key=lambda t: (t["rate"], -t["value"], t["ticket"])
    )
    height = max(3.0, 0.22 * len(held) + 1.0)
    figure = new_figure((8.0, height))
    ax = figure.add_subplot()
    ax.barh(
        [f"{t['ticket']} ({t['value']})" for t in held], [t["rate"] for t in held], color="#4c72b0"
    )
    ax.set_xlim(0, 1)
    ax.set_xlabel("completed when held")
    ax.set_title("Ticket completion")
    ax.tick_params(axis="y", labelsize=7)
    figure.tight_layout()
    return save_figure(figure, path)


# ------------------------------------------------------------------------ HTML


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


def _rate_rows(rates: Mapping[str, Mapping[str, Any]]) -> list[list[Any]]:
    return [
        [
            key,
            r["games"],
            round(r["wins"], 2),
            r["outright_wins"],
            _pct(r["rate"]),
            f"{_pct(r['ci95'][0])} – {_pct(r['ci95'][1])}",
        ]
        for key, r in rates.items()
    ]


def _score_table(label: str, groups: Mapping[str, Mapping[str, Any]]) -> str:
    """Score distributions with the mean of every score part (the result's parts:
    routes, tickets, longest_path_bonus, and stations with the europe rules)."""
    names = list(dict.fromkeys(p for d in groups.values() for p in d.get("parts", {})))
    return _table(
        [label, "mean", "sd", "q10", "median", "q90", *(f"{p} (mean)" for p in names)],
        [
            [
                key,
                d.get("mean"),
                d.get("sd"),
                d.get("q10"),
                d.get("median"),
                d.get("q90"),
                *(d.get("parts", {}).get(p, {}).get("mean") for p in names),
            ]
            for key, d in groups.items()
        ],
    )


def _stalls(stalls: Mapping[str, Any]) -> str:
    causes = ", ".join(f"{c}: {n}" for c, n in stalls.get("causes", {}).items())
    text = f"<p>Stalls (all passed): {stalls['count']}"
    text += f" (ran out of {html.escape(causes)}).</p>" if causes else ".</p>"
    if not stalls["seeds"]:
        return text
    shown = stalls["seeds"][:20]
    items = "".join(
        f"<li>game {g['index']} (seed {g['seed']}): <code>{html.escape(g['command'])}</code></li>"
        for g in shown
    )
    more = stalls["count"] - len(shown)
    tail = f"<p>… and {more} more (the same seeds rule gives every game).</p>" if more else ""
    return f"{text}<p>Play one again:</p><ul>{items}</ul>{tail}"


def _europe(europe: Mapping[str, Any] | None) -> list[str]:
    if not europe:
        return []
    rows = [
        [
            name,
            e["seat_games"],
            e["stations_built"],
            e["stations_per_game"],
            e["routes_borrowed"],
            e["tunnel_claims"],
            e["tunnels_claimed_at_once"],
            e["tunnels_paid"],
            e["tunnels_given_up"],
        ]
        for name, e in europe["by_bot"].items()
    ]
    head = ["bot", "seat-games", "stations", "per game", "routes borrowed", "tunnel claims"]
    head += ["claimed at once", "extra paid", "given up"]
    return ["<h2>Stations (E1) and tunnels (E2)</h2>", _table(head, rows)]


def _findings(found: list[Mapping[str, Any]]) -> list[str]:
    """The findings, first on the page: severity, what, the evidence, what to try."""
    if not found:
        return ["<h2>Findings</h2>", "<p>No significant finding.</p>"]
    items = "".join(
        f'<li class="{html.escape(f["severity"])}"><b>[{html.escape(f["severity"])}]</b> '
        f"{html.escape(f['title'])}<br><i>Try:</i> {html.escape(f['suggestion'])}"
        f"<details><summary>evidence</summary><pre>"
        f"{html.escape(json.dumps(f['evidence'], indent=1, ensure_ascii=False)[:4000])}"
        f"</pre></details></li>"
        for f in found
    )
    return ["<h2>Findings</h2>", f'<ul class="findings">{items}</ul>']


def to_html(report: Mapping[str, Any]) -> str:
    """One self-contained page; pictures are referenced relatively."""
    s = report["settings"]
    win = report["win_rate"]
    scores = report["scores"]
    stalls = report["stalls"]
    hard = sorted(
        (t for t in report["tickets"]["by_ticket"] if t["held"]), key=lambda t: t["rate"]
    )[:10]
    routes = sorted(report["routes"], key=lambda r: -r["claimed"])
    rate_head = ["", "seat-games", "wins", "outright", "win rate", "95 % interval"]
    parts = [
        f"<h1>Play-test report: {html.escape(s['map_name'])}</h1>",
        f"<p>{report['games']} games, {s['players']} players, bots "
        f"{html.escape(', '.join(s['bots']))}, seed {s['seed']}. "
        f"Fair share of wins: {_pct(win['fair_share'])}. "
        f"Shared first places count 1/k of a win each.</p>",
        *_findings(report.get("findings", [])),
        "<h2>Win rate by bot</h2>",
        _table(rate_head, _rate_rows(win["by_bot"])),
        "<h2>Win rate by seat</h2>",
        _table(rate_head, _rate_rows(win["by_seat"])),
        *(
            [
                "<h2>Win rate by turn order (1 = the first player, R4)</h2>",
                _table(
                    ["", "games", "wins", "win rate", "95 % interval"],
                    [
                        [
                            order,
                            r["games"],
                            round(r["wins"], 2),
                            _pct(r["rate"]),
                            f"{_pct(r['ci95'][0])} – {_pct(r['ci95'][1])}",
                        ]
                        for order, r in win["by_turn_order"].items()
                    ],
                ),
            ]
            if "by_turn_order" in win
            else []
        ),
        f"<p>First player wins {_pct(win['first_player']['rate'])} "
        f"({_pct(win['first_player']['ci95'][0])} – {_pct(win['first_player']['ci95'][1])}).</p>",
        "<h2>End of the games</h2>",
        _table(["end reason", "games"], [[k, v] for k, v in report["end_reasons"].items()]),
        _stalls(stalls),
        f"<p>Turns per game: mean {report['turns'].get('mean', 0)}, "
        f"min {report['turns'].get('min', 0)}, max {report['turns'].get('max', 0)}.</p>",
        "<h2>Scores</h2>",
        _score_table("bot", scores["by_bot"]),
        _score_table("seat", scores["by_seat"]),
        f'<img src="{PICTURES["scores_by_bot"]}" alt="scores by bot">',
        f'<img src="{PICTURES["scores_by_seat"]}" alt="scores by seat">',
        f'<img src="{PICTURES["score_parts"]}" alt="score parts by seat">',
        "<h2>Longest path bonus (R16)</h2>",
        _table(
            ["bot", "bonuses"], [[k, v] for k, v in report["longest_path_bonus"]["by_bot"].items()]
        ),
        "<h2>Where the games are played</h2>",
        f'<img src="{PICTURES["heatmap"]}" alt="route and city heatmap" class="wide">',
        _table(
            ["most claimed route", "claimed in games"],
            [[r["route"], _pct(r["rate"])] for r in routes[:10]],
        ),
        _table(
            ["least claimed route", "claimed in games"],
            [[r["route"], _pct(r["rate"])] for r in routes[::-1][:10]],
        ),
        "<p>Never claimed: "
        + (html.escape(", ".join(report["unclaimed_routes"])) or "none")
        + "</p>",
        *_europe(report.get("europe")),
        "<h2>Game arc</h2>",
        f'<img src="{PICTURES["arc"]}" alt="game arc">',
        "<h2>Tickets</h2>",
        _table(
            ["bot", "held", "completed", "rate"],
            [
                [n, t["held"], t["completed"], _pct(t["rate"])]
                for n, t in report["tickets"]["by_bot"].items()
            ],
        ),
        _table(
            ["hardest tickets", "value", "held", "completed"],
            [[t["ticket"], t["value"], t["held"], _pct(t["rate"])] for t in hard],
        ),
        f'<img src="{PICTURES["tickets"]}" alt="ticket completion">',
        f'<img src="{PICTURES["ticket_fit"]}" alt="ticket completion against value">',
        '<p>All numbers: <a href="report.json">report.json</a>.</p>',
    ]
    style = (
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;"
        "padding:2px 8px;text-align:right}td:first-child{text-align:left}"
        "img{max-width:49%}img.wide{max-width:100%}"
        "li.high{color:#a00}li.medium{color:#a60}ul.findings li{margin:.4em 0}"
    )
    body = "\n".join(parts)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Play-test report: {html.escape(s['map_name'])}</title>"
        f"<style>{style}</style></head><body>\n{body}\n</body></html>\n"
    )
