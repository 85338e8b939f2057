"""Reporting the max-score probe (`ttr probe MAP`): text tables for people, JSON
for scripts (`REPORTERS`, the `--format` choices).

The numbers come from `ttr_maps.analysis.probe.probe_map`; nothing here solves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from ttr_maps.analysis.probe import ProbeReport, ProbeResult, Sweep, TicketRate


def probe_to_dict(report: ProbeReport) -> dict[str, Any]:
    """A JSON-ready dict with stable keys."""
    sweep = report.sweep
    undervalued = (
        {}
        if sweep is None
        else {
            "likely_undervalued": [
                {"between": list(t.cities), "value": t.value, "optima": n}
                for t, n in sweep.likely_undervalued()
            ],
            "proven_optima": len(sweep.proven),
        }
    )
    return {
        "map": report.map.id,
        "values": report.values,
        "long_ticket_limit": report.long_limit,
        "left_out": list(report.left_out),
        "solves": [_result_to_dict(r) for r in report.solves],
        "ticket_rates": [
            {
                "between": list(r.ticket.cities),
                "value": r.ticket.value,
                "wagons": r.wagons,
                "route_points": r.route_points,
                "points_per_wagon": round(r.points_per_wagon, 3),
                "checks": list(checks),
            }
            for r, checks in zip(report.rates, _checks(report), strict=True)
        ],
        **undervalued,
    }


def _checks(report: ProbeReport) -> tuple[tuple[str, ...], ...]:
    return report.checks or tuple(() for _ in report.rates)


def _result_to_dict(result: ProbeResult) -> dict[str, Any]:
    return {
        "wagons": result.wagons,
        "status": result.status,
        "optimal": result.optimal,
        "score": result.score,
        "route_points": result.route_points,
        "ticket_points": result.ticket_points,
        "wagons_used": result.wagons_used,
        "gap": result.gap if result.gap != float("inf") else None,  # JSON has no Infinity
        "cpu_seconds": round(result.cpu_seconds, 3),
        "routes": [{"between": [r.a, r.b], "length": r.length} for r in result.routes],
        "tickets": [{"between": list(t.cities), "value": t.value} for t in result.tickets],
    }


def probe_renderables(report: ProbeReport) -> Iterator[Any]:
    """rich renderables for the terminal: the solve (or the sweep's table), the
    tickets' points per wagon, and a sweep's likely undervalued tickets."""
    from rich.markup import escape

    if report.sweep is not None:
        yield _sweep_table(report.map.name, report.solves)
        yield _undervalued_table(report.sweep, len(report.solves))
    else:
        yield from _solve_renderables(
            report.map.name, report.solves[0], report.rates, _checks(report)
        )
    if report.long_limit is not None:
        yield f"E4: at most {report.long_limit} long ticket(s) counted (dealt to one player)."
    yield escape("Left out of the programme: " + "; ".join(report.left_out) + ".")


def _sweep_table(name: str, solved: tuple[ProbeResult, ...]) -> Any:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=escape(f"{name}: best solo score per wagon budget"), title_justify="left")
    for column in ("wagons", "score", "routes", "tickets", "completed", "status", "CPU s"):
        table.add_column(column, justify="right")
    for r in solved:
        table.add_row(
            str(r.wagons),
            str(r.score),
            str(r.route_points),
            str(r.ticket_points),
            str(len(r.tickets)),
            r.status if r.optimal else f"not proven: {r.status} (gap {100 * r.gap:.1f} %)",
            f"{r.cpu_seconds:.2f}",
        )
    return table


def _solve_renderables(
    name: str, r: ProbeResult, rates: tuple[TicketRate, ...], checks: tuple[tuple[str, ...], ...]
) -> Iterator[Any]:
    from rich.markup import escape
    from rich.table import Table

    status = "optimal" if r.optimal else f"not proven optimal: {r.status}, gap {100 * r.gap:.1f} %"
    yield escape(
        f"{name}: best solo score with {r.wagons} wagons = {r.score} "
        f"({r.route_points} from routes, {r.ticket_points} from {len(r.tickets)} tickets; "
        f"{r.wagons_used} wagons used; {status}; {r.cpu_seconds:.2f} s CPU)"
    )
    routes = Table(title="Routes claimed", title_justify="left")
    for column in ("route", "length", "points"):
        routes.add_column(column, justify="left" if column == "route" else "right")
    for route in sorted(r.routes, key=lambda x: (x.a, x.b)):
        routes.add_row(escape(f"{route.a} – {route.b}"), str(route.length), str(route.points))
    yield routes
    completed = set(r.tickets)
    table = Table(title="Tickets: points per wagon along the cheapest path", title_justify="left")
    columns = ("ticket", "value", "wagons", "route points", "per wagon", "in optimum", "validate")
    for column in columns:
        table.add_column(column, justify="left" if column in ("ticket", "validate") else "right")
    for rate, codes in zip(rates, checks, strict=True):
        table.add_row(
            escape(f"{rate.ticket.a} – {rate.ticket.b}"),
            str(rate.ticket.value),
            str(rate.wagons),
            str(rate.route_points),
            f"{rate.points_per_wagon:.2f}",
            "yes" if rate.ticket in completed else "",
            ", ".join(codes),
        )
    yield table


def _undervalued_table(sweep: Sweep, solves: int) -> Any:
    from rich.markup import escape
    from rich.table import Table

    proven = len(sweep.proven)
    unproven = (
        f" ({solves - proven} budgets not proven optimal are left out)" if proven < solves else ""
    )
    undervalued = sweep.likely_undervalued()
    table = Table(
        title=f"Likely undervalued: completed in more than half of the {proven} proven "
        f"optima{unproven}",
        title_justify="left",
    )
    for column in ("ticket", "value", "optima"):
        table.add_column(column, justify="left" if column == "ticket" else "right")
    for ticket, count in undervalued:
        table.add_row(escape(f"{ticket.a} – {ticket.b}"), str(ticket.value), str(count))
    return table


def write_text(report: ProbeReport, out: TextIO) -> None:
    """The tables of `probe_renderables`, printed by rich to `out`."""
    from rich.console import Console

    console = Console(file=out)
    for renderable in probe_renderables(report):
        console.print(renderable)


def write_json(report: ProbeReport, out: TextIO) -> None:
    """`probe_to_dict` as indented JSON, one line at the end."""
    import json

    out.write(json.dumps(probe_to_dict(report), indent=2, ensure_ascii=False) + "\n")
    out.flush()


#: `--format` names and their reporters: each writes the whole report to a stream.
REPORTERS: dict[str, Callable[[ProbeReport, TextIO], None]] = {
    "text": write_text,
    "json": write_json,
}
