"""`ttr layout`: compute a board layout (equal cars, nothing overlapping)."""

from __future__ import annotations

from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import MapArgument, checked_output


@app.command()
def layout(
    map_argument: MapArgument,
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="Store the layout in the map file (its `layout:` section is replaced or "
            "added; comments and everything else are kept; the file is replaced atomically).",
        ),
    ] = False,
) -> None:
    """Lay the board out: every car the same size, doubles side by side, no car on
    another route's car, a city or a label, cities near their geographic places.

    Reports what still overlaps (if anything), how much car sizes differ from the
    nominal 2.4 x 0.8 cm, how far cities moved from geography and the board size.
    A map whose only errors are in its old layout (a city added or renamed since)
    is laid out afresh. Previews, `ttr print` and validate's TTR551 use the stored
    layout.

    Exit status: 0 when nothing overlaps; 1 when overlaps remain (the layout is
    still written with --write); 2 when the map cannot be read, has other errors,
    or the file cannot be written.
    """
    from ttr_core.cli.common import fail
    from ttr_maps.geometry.layout import LayoutError, compute_layout, with_layout
    from ttr_maps.io.bundled import resolve_map_argument
    from ttr_maps.io.files import (
        TextForm,
        describe_os_error,
        read_regular_file,
        write_text_atomically,
    )
    from ttr_maps.io.limits import MAX_MAP_BYTES
    from ttr_maps.load import map_ignoring_layout

    path = resolve_map_argument(map_argument)
    game_map, problems = map_ignoring_layout(path)
    if game_map is None:
        for problem in problems:
            typer.echo(str(problem), err=True)
        raise fail(f"{map_argument}: not a playable map")
    if write:  # the map is written in place: the one rule, without the input check
        checked_output(path, "--write")
    try:
        result = compute_layout(game_map)
    except LayoutError as error:
        raise fail(str(error)) from None

    width, height = result.layout.size or (0.0, 0.0)
    far_name, far = result.max_displacement
    unit = "km" if game_map.is_geographic else "units"
    typer.echo(
        f"{game_map.id}: {len(game_map.cities)} cities, {len(game_map.routes)} routes on a "
        f"{width:.1f} x {height:.1f} cm board (1 cm = {1 / result.scale:.3g} {unit}), "
        f"{len(result.layout.bends)} bent route(s)"
    )
    typer.echo(
        f"  car size spread: {100 * result.car_size_spread:.2f} % of the nominal car "
        "(target: within 2 %)"
    )
    typer.echo(
        f"  cities moved from geography: mean {result.mean_displacement:.1f} cm, "
        f"most {far_name} {far:.1f} cm"
    )
    if result.overlaps:
        typer.echo(f"  overlaps: {len(result.overlaps)}")
        for overlap in result.overlaps:
            typer.echo(f"    {overlap.kind}: {overlap.first} / {overlap.second}")
    else:
        typer.echo("  overlaps: none")
    if write:
        try:  # the file's BOM and line ends are kept (the new section gets them too)
            text = read_regular_file(path, MAX_MAP_BYTES).decode("utf-8")
            form = TextForm.of(text)
            write_text_atomically(path, form.apply(with_layout(form.strip(text), result.layout)))
        except (OSError, UnicodeDecodeError) as error:
            reason = describe_os_error(error) if isinstance(error, OSError) else error
            raise fail(f"{path}: cannot write: {reason}") from None
        typer.echo(f"written to {path}")
    else:
        typer.echo("not written (add --write to store it in the map file)")
    raise typer.Exit(EXIT_FAILED if result.overlaps else EXIT_OK)
