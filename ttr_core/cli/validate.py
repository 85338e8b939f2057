"""`ttr validate`: check map files and report every problem."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app


@app.command()
def validate(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Map files or folders (default: the bundled maps)."),
    ] = None,
) -> None:
    """Validate map files: schema, then semantic checks (R2 ticket values and more)."""
    from ttr_maps.bundled import maps_dir
    from ttr_maps.validate import validate_files

    targets = paths or sorted(maps_dir().glob("*.yaml"))
    failed = False
    for report in validate_files(targets):
        for problem in report.problems:
            typer.echo(str(problem))
        failed |= report.fails()
    raise typer.Exit(EXIT_FAILED if failed else EXIT_OK)
