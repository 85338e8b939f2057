"""Loading the MAP argument of a command, with a clear message instead of a traceback."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_USAGE

if TYPE_CHECKING:
    from ttr_maps.model import Map


def load_map_argument(argument: str) -> Map:
    """The map named by a command-line MAP (bundled id or YAML path).

    A map that does not exist exits with status 2; a map with errors prints them
    (`file:line:col`) and exits with status 1. Warnings do not stop a command.
    """
    from ttr_maps.bundled import bundled_map_ids, resolve_map_argument
    from ttr_maps.validate import InvalidMapError, load_map

    path = resolve_map_argument(argument)
    if not path.exists():
        known = ", ".join(bundled_map_ids())
        typer.echo(
            f"error: map {argument!r} is neither a file nor a bundled map id ({known})", err=True
        )
        raise typer.Exit(EXIT_USAGE)
    try:
        return load_map(path)
    except InvalidMapError as error:
        for problem in error.report.errors:
            typer.echo(str(problem), err=True)
        typer.echo(f"error: {path} has errors; run `ttr validate {path}`", err=True)
        raise typer.Exit(EXIT_FAILED) from None
