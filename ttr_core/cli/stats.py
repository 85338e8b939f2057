"""`ttr stats`: designer metrics of a map, as tables, JSON or a figure."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_USAGE, app
from ttr_core.cli.common import MapArgument


class StatsFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


@app.command()
def stats(
    map_argument: MapArgument,
    report_format: Annotated[
        StatsFormat, typer.Option("--format", "-f", help="text: tables; json: for scripts.")
    ] = StatsFormat.TEXT,
    plot: Annotated[
        Path | None,
        typer.Option(help="Also write a one-page figure of the distributions (.png/.svg/.pdf)."),
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
    import json

    from ttr_core.cli.common import load_map_argument
    from ttr_maps.analysis.stats import map_stats, plot_stats, stats_renderables, stats_to_dict
    from ttr_maps.render.draw import PreviewError, check_figure_path

    if plot is not None:
        try:
            check_figure_path(plot)
        except PreviewError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
    result = map_stats(load_map_argument(map_argument))
    if report_format is StatsFormat.JSON:
        typer.echo(json.dumps(stats_to_dict(result), indent=2, ensure_ascii=False))
    else:
        from rich.console import Console

        console = Console()
        for renderable in stats_renderables(result):
            console.print(renderable)
    if plot is not None:
        try:
            written = plot_stats(result, plot)
        except PreviewError as error:
            typer.echo(f"error: {error}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        typer.echo(f"wrote {written}", err=report_format is StatsFormat.JSON)
