"""`ttr stats`: designer metrics of a map, as tables, JSON or a figure."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_USAGE, app
from ttr_core.cli.common import MapArgument, checked_output, output_file
from ttr_maps.reports.stats import REPORTERS

#: `--format` choices, derived from the stats reporters.
StatsFormat = StrEnum("StatsFormat", {name: name for name in REPORTERS})  # type: ignore[misc]
DEFAULT_FORMAT = StatsFormat("text")


@app.command(bounded=True)
def stats(
    map_argument: MapArgument,
    report_format: Annotated[
        StatsFormat, typer.Option("--format", "-f", help="text: tables; json: for scripts.")
    ] = DEFAULT_FORMAT,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Also write a one-page figure of the distributions (.png/.svg/.pdf).",
            parser=output_file,
        ),
    ] = None,
) -> None:
    """Designer metrics: counts, colours, network shape, chokepoints, wagons vs spaces.

    Route lengths, city degrees, bridges and articulation points, ticket values,
    cities on no ticket, and wagons in play against spaces for 2 to 5 players.

    Chokepoint load: each ticket's weight of 1 is split equally among all its
    shortest paths (see docs/authoring.md).

    Exit status: 0 on success; 2 when the map cannot be read or has errors, or
    when the --plot file cannot be written (checked before any work).
    """
    import sys

    from ttr_core.cli.common import load_map_argument
    from ttr_maps.analysis.stats import map_stats
    from ttr_maps.render.figure import PreviewError, check_figure_path
    from ttr_maps.reports.stats import plot_stats

    checked_output(plot, "--plot", [map_argument])
    if plot is not None:
        try:
            check_figure_path(plot)
        except PreviewError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
    result = map_stats(load_map_argument(map_argument))
    REPORTERS[report_format.value](result, sys.stdout)
    if plot is not None:
        try:
            written = plot_stats(result, plot)
        except PreviewError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        typer.echo(f"wrote {written}", err=report_format != "text")
