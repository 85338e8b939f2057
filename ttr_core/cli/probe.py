"""`ttr probe`: the most one player could score on a map (a MIP solved by HiGHS)."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, app
from ttr_core.cli.common import MapArgument, fail, load_map_argument
from ttr_maps.reports.probe import REPORTERS
from ttr_maps.rules import BASE, MAX_SWEEP_BUDGETS, field_ranges

WAGONS = field_ranges()["wagons"]
#: The longest --time-limit: a day.
MAX_TIME_LIMIT = 86_400.0

#: `--format` choices, derived from the probe reporters.
ProbeFormat = StrEnum("ProbeFormat", {name: name for name in REPORTERS})  # type: ignore[misc]
DEFAULT_FORMAT = ProbeFormat("text")


@app.command(bounded=True)
def probe(
    map_argument: MapArgument,
    wagons: Annotated[
        int | None,
        typer.Option(
            min=0, help=f"Wagon budget (default: the map's, {BASE.wagons} in the base rules)."
        ),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option(
            help="Solve for every budget LOW..HIGH (e.g. 30..50), each from the previous "
            "optimum (scores never fall), and list the tickets completed in most proven "
            f"optima (likely undervalued). At most {MAX_SWEEP_BUDGETS} budgets, each "
            f"from {WAGONS.minimum} to {WAGONS.maximum} wagons."
        ),
    ] = None,
    values: Annotated[
        Path | None,
        typer.Option(
            help="Use other ticket values from a JSON file, e.g. the printed ones: "
            "tests/data/reference/north_america.json (see docs/tickets.md)."
        ),
    ] = None,
    node_limit: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Branch-and-bound nodes per solve; then the best found so far and its gap "
            "(a count, not seconds: the same answer on any machine).",
        ),
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            min=0.001,
            max=MAX_TIME_LIMIT,
            help="Seconds of wall time per solve (at most "
            f"{MAX_TIME_LIMIT:,.0f}); then the best found so far and its gap. Unlike "
            "--node-limit it also bounds the solver's first node, which takes minutes "
            "on a map of thousands of cities, but the answer depends on the machine.",
        ),
    ] = None,
    report_format: Annotated[
        ProbeFormat, typer.Option("--format", "-f", help="text: tables; json: for scripts.")
    ] = DEFAULT_FORMAT,
) -> None:
    """The most one player could score alone with a wagon budget.

    A mixed-integer programme (HiGHS) claims routes (one track of a double, R11)
    and completes tickets (R13; at most the long tickets E4 deals a player) to
    maximise route points (R10) plus completed tickets (with D7 bonuses). Prints
    the optimum, its routes and tickets, every ticket's points per wagon along its
    cheapest path and the warnings `ttr validate` gives it, and what the programme
    leaves out (the longest-path bonus, stations, train cards: docs/tickets.md).
    One thread, a fixed seed and a node limit: the same command, the same answer.
    Maps of more than 2,000 cities are refused; Ctrl-C stops a solve.

    Exit status: 0 when solved to optimality; 1 when the node or time limit stopped
    a solve (the best found is shown with its gap); 2 for a bad map, option or
    values file, or a map too big.
    """
    import sys

    from ttr_maps.analysis.probe import (
        ProbeError,
        load_ticket_values,
        parse_budget_range,
        probe_map,
    )

    game_map = load_map_argument(map_argument)
    try:
        budgets = parse_budget_range(sweep) if sweep is not None else None
        tickets = load_ticket_values(values, game_map) if values is not None else None
        report = probe_map(
            game_map,
            wagons=wagons,
            budgets=budgets,
            tickets=tickets,
            values=str(values) if values is not None else "map",
            node_limit=node_limit,
            time_limit=time_limit,
        )
    except ProbeError as error:
        raise fail(f"{map_argument}: {error}") from None
    REPORTERS[report_format.value](report, sys.stdout)
    if not report.optimal:
        raise typer.Exit(EXIT_FAILED)
