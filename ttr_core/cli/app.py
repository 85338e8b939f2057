"""The typer application that every `ttr` subcommand registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="ttr",
    help=(
        "Design, check and play-test Ticket to Ride maps.\n\n"
        "Maps are YAML files (see docs/map-format.md). MAP arguments take a bundled map id "
        "(north_america, europe, iran) or a path to a YAML file."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)

#: Exit codes shared by all commands.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"ttr {version('ttr')}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Design, check and play-test Ticket to Ride maps."""
