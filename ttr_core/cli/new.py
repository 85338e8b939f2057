"""`ttr new`: write a starter map that validates clean."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_USAGE, app
from ttr_core.cli.common import fail, output_file


@app.command(bounded=True)
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
    cities: Annotated[
        str | None,
        typer.Option(
            help="The starter's cities, by name, at their real positions from the gazetteer: "
            "'Oslo, Bergen, Trondheim'. A doubtful name takes a country code or a position "
            "in brackets: 'Bergen (NO)', 'Springfield (39.80, -89.64)'.",
            show_default=False,
        ),
    ] = None,
    region: Annotated[
        str | None,
        typer.Option(
            help="With --cities: the country (name or ISO code) whose places a name means first.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Write a starter map that validates: seven cities, or the ones --cities names.

    The seven-city starter has routes with a double and correct tickets. With
    --cities, your cities at their real positions, joined by routes (lengths from
    their distances, colours balanced, a route that is the only way somewhere
    made double) with tickets between the farthest of them.

    Exit status: 0 when written; 2 for a bad id, an existing file (without
    --force), a file that cannot be written, or a city name that is unknown or
    ambiguous (the choices are listed; nothing is written).
    """
    from ttr_maps.authoring.starter import (
        StarterError,
        check_map_id,
        place_cities,
        write_starter_map,
    )

    placed = None
    try:  # write_starter_map checks the id first, before the path
        if cities is not None:
            check_map_id(map_id)
            if not geographic:
                raise StarterError("--cities places real towns: leave out --plane")
            placed = place_cities(cities, _country(region))
        elif region is not None:
            raise StarterError("--region goes with --cities")
        written = write_starter_map(
            output if output is not None else Path(f"{map_id}.yaml"),
            map_id,
            coordinates="geographic" if geographic else "plane",
            schema_ref=schema,
            force=force,
            cities=placed,
        )
    except StarterError as error:  # a name of 100,000 characters is shown cut
        raise fail(str(error), EXIT_USAGE) from None
    typer.echo(f"wrote {written}; next: ttr validate {written} && ttr preview {written} -o map.png")


def _country(region: str | None) -> str | None:
    from ttr_maps.authoring.gazetteer import country_code
    from ttr_maps.authoring.starter import StarterError

    if region is None:
        return None
    code = country_code(region)
    if code is None:
        raise StarterError(f"--region {region!r}: no such country (give its name or ISO code)")
    return code
