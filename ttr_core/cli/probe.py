"""`ttr probe`: the most one player could score on a map (a MIP solved by HiGHS)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ttr_core.cli.app import EXIT_FAILED, app
from ttr_core.cli.common import MapArgument, fail, load_map_argument


class ProbeFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


@app.command()
def probe(
    map_argument: MapArgument,
    wagons: Annotated[
        int | None,
        typer.Option(min=0, help="Wagon budget (default: the map's, 45 in the base rules)."),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option(
            help="Solve for every budget LOW..HIGH (e.g. 30..50) and list the tickets "
            "completed in most optima (likely undervalued)."
        ),
    ] = None,
    values: Annotated[
        Path | None,
        typer.Option(
            help="Use other ticket values from a JSON file, e.g. the printed ones: "
            "tests/data/reference/north_america.json (see docs/tickets.md)."
        ),
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            min=0.01,
            help="Seconds (wall clock) per solve; then the best found so far and its gap.",
        ),
    ] = None,
    report_format: Annotated[
        ProbeFormat, typer.Option("--format", "-f", help="text: tables; json: for scripts.")
    ] = ProbeFormat.TEXT,
) -> None:
    """The most one player could score alone with a wagon budget.

    A mixed-integer programme (HiGHS) claims routes (one track of a double, R11)
    and completes tickets (R13) to maximise route points (R10) plus completed
    tickets. Prints the optimum, its routes and tickets, and every ticket's points
    per wagon along its cheapest path. The longest-path bonus and stations are
    left out (docs/tickets.md).

    Exit status: 0 when solved to optimality; 1 when a time limit stopped a solve
    (the best found is shown with its gap); 2 for a bad map, option or values file.
    """
    import json

    from ttr_maps.analysis.probe import (
        ProbeError,
        load_ticket_values,
        parse_budget_range,
        solve_max_score,
        sweep_max_score,
        ticket_rates,
    )

    game_map = load_map_argument(map_argument)
    try:
        budgets = parse_budget_range(sweep) if sweep is not None else None
        tickets = load_ticket_values(values, game_map) if values is not None else None
        if budgets is not None:
            results = sweep_max_score(game_map, budgets, tickets=tickets, time_limit=time_limit)
            solved = list(results.results)
        else:
            one = solve_max_score(game_map, wagons, tickets=tickets, time_limit=time_limit)
            solved = [one]
    except ProbeError as error:
        raise fail(f"{map_argument}: {error}") from None
    rates = ticket_rates(game_map, tickets)
    if report_format is ProbeFormat.JSON:
        data: dict[str, Any] = {
            "map": game_map.id,
            "values": str(values) if values is not None else "map",
            "solves": [_result_to_dict(r) for r in solved],
            "ticket_rates": [
                {
                    "between": list(r.ticket.cities),
                    "value": r.ticket.value,
                    "wagons": r.wagons,
                    "route_points": r.route_points,
                    "points_per_wagon": round(r.points_per_wagon, 3),
                }
                for r in rates
            ],
        }
        if budgets is not None:
            data["likely_undervalued"] = [
                {"between": list(t.cities), "value": t.value, "optima": n}
                for t, n in results.likely_undervalued()
            ]
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        from rich.console import Console

        console = Console()
        for renderable in _renderables(game_map.name, solved, rates, budgets is not None):
            console.print(renderable)
        if budgets is not None:
            console.print(_undervalued_table(results.likely_undervalued(), len(solved)))
    if not all(r.optimal for r in solved):
        raise typer.Exit(EXIT_FAILED)


def _result_to_dict(result: Any) -> dict[str, Any]:
    return {
        "wagons": result.wagons,
        "status": result.status,
        "optimal": result.optimal,
        "score": result.score,
        "route_points": result.route_points,
        "ticket_points": result.ticket_points,
        "wagons_used": result.wagons_used,
        "gap": result.gap,
        "cpu_seconds": round(result.cpu_seconds, 3),
        "routes": [{"between": [r.a, r.b], "length": r.length} for r in result.routes],
        "tickets": [{"between": list(t.cities), "value": t.value} for t in result.tickets],
    }


def _renderables(name: str, solved: list[Any], rates: list[Any], is_sweep: bool) -> Any:
    from rich.markup import escape
    from rich.table import Table

    if is_sweep:
        table = Table(
            title=escape(f"{name}: best solo score per wagon budget"), title_justify="left"
        )
        for column in ("wagons", "score", "routes", "tickets", "completed", "status", "CPU s"):
            table.add_column(column, justify="right")
        for r in solved:
            table.add_row(
                str(r.wagons),
                str(r.score),
                str(r.route_points),
                str(r.ticket_points),
                str(len(r.tickets)),
                r.status if r.optimal else f"{r.status} (gap {100 * r.gap:.1f} %)",
                f"{r.cpu_seconds:.2f}",
            )
        yield table
        return
    r = solved[0]
    status = "optimal" if r.optimal else f"{r.status}, gap {100 * r.gap:.1f} %"
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
    for column in ("ticket", "value", "wagons", "route points", "per wagon", "in optimum"):
        table.add_column(column, justify="left" if column == "ticket" else "right")
    for rate in rates:
        table.add_row(
            escape(f"{rate.ticket.a} – {rate.ticket.b}"),
            str(rate.ticket.value),
            str(rate.wagons),
            str(rate.route_points),
            f"{rate.points_per_wagon:.2f}",
            "yes" if rate.ticket in completed else "",
        )
    yield table


def _undervalued_table(undervalued: list[Any], solves: int) -> Any:
    from rich.markup import escape
    from rich.table import Table

    table = Table(
        title=f"Likely undervalued: completed in more than half of the {solves} optima",
        title_justify="left",
    )
    for column in ("ticket", "value", "optima"):
        table.add_column(column, justify="left" if column == "ticket" else "right")
    for ticket, count in undervalued:
        table.add_row(escape(f"{ticket.a} – {ticket.b}"), str(ticket.value), str(count))
    return table
