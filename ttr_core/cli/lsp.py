"""`ttr lsp`: the checks of `ttr validate` in the designer's own text editor."""

from __future__ import annotations

from typing import Annotated

import typer

from ttr_core.cli.app import app

HELP = (
    "Run the language server for map files: the editor starts it and speaks the "
    "Language Server Protocol on its standard input and output.\n\n"
    "Map files (.yaml/.yml whose text is a map) get the diagnostics of `ttr validate` "
    "as you type, fixes (a ticket value set to its shortest distance, R2; a misspelt "
    "city; a warning disabled for the file), hover on tickets, cities and routes, "
    "completion of city names and colours, go to definition and the outline. Other "
    "YAML is left alone. Set-up for VS Code, Neovim and Helix: docs/editors.md."
)


@app.command(help=HELP)
def lsp(
    stdio: Annotated[
        bool,
        typer.Option(
            "--stdio",
            help="Speak on standard input and output (the only way; accepted because "
            "editors pass it).",
        ),
    ] = False,
) -> None:
    import logging
    import sys

    del stdio  # standard input and output is the only transport
    logging.basicConfig(level=logging.WARNING, format="ttr lsp: %(levelname)s %(message)s")
    if sys.stdin.isatty():
        typer.echo(
            "ttr lsp: waiting for an editor to speak LSP on standard input (it is started "
            "by the editor: see docs/editors.md); Ctrl-D or Ctrl-C stops it.",
            err=True,
        )
    from ttr_core.lsp.server import log_on_one_line, serve_stdio

    log_on_one_line()
    serve_stdio()
