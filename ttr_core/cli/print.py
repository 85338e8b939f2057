"""`ttr print`: a print-and-play PDF of a map."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import app
from ttr_core.cli.common import MapArgument, checked_output, output_file


@app.command(name="print", bounded=True)
def print_command(
    map_argument: MapArgument,
    output: Annotated[
        Path,
        typer.Option("--output", "-o", help="The PDF to write, e.g. game.pdf.", parser=output_file),
    ],
    paper: Annotated[str, typer.Option(help="Paper size by name: A4, A3 or Letter.")] = "A4",
    board_width: Annotated[
        float | None,
        typer.Option(
            "--board-width",
            metavar="CM",
            help="Width of the printed board in cm (default: the layout's board width, "
            "or 80 cm for a map without a layout). Cars and labels scale with it.",
        ),
    ] = None,
) -> None:
    """Make a print-and-play PDF: the board at real size tiled over pages (with an
    assembly page, overlap bands, alignment crosses and page labels), the ticket
    cards (63 x 88 mm), the 110 train cards (R3), a scoring track 0-100 and a
    one-page rules summary. All text is real, selectable text.

    Exit status: 0 when written; 2 when the map cannot be read or has errors, for
    an unknown paper, a board width outside 10-500 cm, or when the file cannot be
    written (nothing is left half-written).
    """
    import warnings

    from ttr_core.cli.common import fail, load_map_argument
    from ttr_maps.render.figure import MissingGlyphsWarning
    from ttr_maps.render.pdf import PrintError, parse_paper, print_map

    checked_output(output, "--output", [map_argument])
    try:
        paper = parse_paper(paper)
    except PrintError as error:
        raise fail(str(error)) from None
    game_map = load_map_argument(map_argument)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MissingGlyphsWarning)
        try:
            pages = print_map(game_map, output, paper=paper, board_width_cm=board_width)
        except PrintError as error:
            raise fail(str(error)) from None
    for warning in caught:
        if isinstance(warning.message, MissingGlyphsWarning):
            typer.echo(f"warning: {warning.message}", err=True)
    typer.echo(f"{output}: {pages} {paper} pages")
