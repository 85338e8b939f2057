"""`ttr new`: write a starter map that validates clean."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_USAGE, app
from ttr_core.cli.common import output_file


@app.command()
def new(
    map_id: Annotated[
        str,
        typer.Argument(metavar="ID", help="The map id: lowercase letters, digits, underscores."),
    ],
    geographic: Annotated[
        bool,
        typer.Option(
            "--geographic/--plane",
            help="Cities at latitude/longitude (default) or at x/y on a plane.",
        ),
    ] = True,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="File to write (default: ID.yaml).", parser=output_file
        ),
    ] = None,
    schema: Annotated[
        str | None,
        typer.Option(
            help="What the editor modeline points at: a URL or a path relative to the file. "
            "Default: a relative path inside this checkout, else the installed schema's "
            "file:// URI."
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:
    """Write a starter map (seven cities, routes with a double, correct tickets).

    Exit status: 0 when written; 2 for a bad id, an existing file (without
    --force) or a file that cannot be written.
    """
    from ttr_maps.io.starter import StarterError, write_starter_map

    try:  # write_starter_map checks the id first, before the path
        written = write_starter_map(
            output if output is not None else Path(f"{map_id}.yaml"),
            map_id,
            coordinates="geographic" if geographic else "plane",
            schema_ref=schema,
            force=force,
        )
    except StarterError as error:
        typer.echo(f"error: {error}", err=True)
        raise typer.Exit(EXIT_USAGE) from None
    typer.echo(f"wrote {written}; next: ttr validate {written} && ttr preview {written} -o map.png")
