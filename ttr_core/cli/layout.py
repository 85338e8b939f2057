"""`ttr layout`: compute a board layout a designer can print."""

from __future__ import annotations

from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import MapArgument, checked_output
from ttr_maps.text import shorten_message


@app.command(bounded=True)
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
    pin: Annotated[
        list[str] | None,
        typer.Option(
            "--pin",
            metavar="CITY",
            help="Keep CITY where the stored layout has it, or, with no stored place, at "
            "its scaled geographic place (repeat for more cities); with --write it is "
            "stored as `pin: true`. Cities already pinned stay pinned.",
        ),
    ] = None,
) -> None:
    """Lay the board out so that it reads at a glance; pinned cities stay put.

    Every car the same size, each route's cars one chain from city to city, no
    route near a city it does not serve, routes close to the line between their
    cities (smooth bows where they need length), geography's compass order
    kept, labels by their own dots, nothing covering anything, cities near
    their geographic places. Pinned cities (`pin: true` in the layout, or
    --pin) never move; a pinned city with no stored place stays at its
    scaled geographic place (docs/print.md).

    Reports the board's size and scale, how far cities moved, and every
    rule the board still breaks, as `ttr validate` would (TTR551-TTR557),
    naming the routes it could not lay out; without --write, positions are
    lines of the file as it is (a problem of the layout not written is
    placed at its city's or route's entry). A map whose only errors are in
    its old layout (a city added or renamed since) is laid out afresh.

    Exit status: 0 when the board is readable; 1 when problems remain (the
    layout is still written with --write, and the problems are listed); 2
    when the map cannot be read, has other errors, names an unknown city
    to pin, has more cities than a layout is made for (200), or the file
    cannot be written.
    """
    from ttr_core.cli.common import fail
    from ttr_maps.authoring.layout_file import laid_out_text
    from ttr_maps.geometry.layout import LayoutError, compute_layout
    from ttr_maps.io.bundled import resolve_map_argument
    from ttr_maps.io.files import (
        FileSnapshot,
        TextForm,
        describe_os_error,
        read_snapshot,
        replace_if_unchanged,
    )
    from ttr_maps.io.limits import MAX_MAP_BYTES
    from ttr_maps.load import map_ignoring_layout
    from ttr_maps.spelling import did_you_mean

    path = resolve_map_argument(map_argument)
    try:  # the file as read first: --write replaces it only if it is still this file
        snapshot: FileSnapshot | OSError = read_snapshot(path, MAX_MAP_BYTES)
    except OSError as error:  # the map reader says why, in its words, just below
        snapshot = error
    game_map, previous, problems = map_ignoring_layout(path)
    if game_map is None:
        for problem in problems:
            typer.echo(shorten_message(str(problem)), err=True)
        raise fail(f"{map_argument}: not a playable map")
    names = [c.name for c in game_map.cities]
    for name in pin or []:
        if name not in game_map.city_index:
            raise fail(f"--pin {name!r}: not a city of {game_map.id}{did_you_mean(name, names)}")
    pinned = set(pin or []) | (previous.pinned if previous is not None else set())
    if write:  # the map is written in place: the one rule, without the input check
        checked_output(path, "--write")
    try:
        if isinstance(snapshot, OSError):
            raise snapshot
        read = snapshot
        raw = read.text()
        form = TextForm.of(raw)
        text = form.strip(raw)  # edited with bare LF, written back in the file's form
        result = compute_layout(game_map, previous, pinned)
    except LayoutError as error:
        raise fail(str(error)) from None
    except (OSError, UnicodeDecodeError) as error:
        reason = describe_os_error(error) if isinstance(error, OSError) else error
        raise fail(f"{path}: cannot read: {reason}") from None
    laid = laid_out_text(text, str(path), result.layout)
    # Positions in the file each message names: as written, or as it still is.
    board_problems = laid.problems if write else laid.unwritten
    stored = previous.cities if previous is not None else {}
    unplaced = sorted(result.pinned - stored.keys())

    width, height = result.layout.size or (0.0, 0.0)
    far_name, far = result.max_displacement
    unit = "km" if game_map.is_geographic else "units"
    pins = f", {len(result.pinned)} pinned city(ies)" if result.pinned else ""
    typer.echo(
        f"{game_map.id}: {len(game_map.cities)} cities, {len(game_map.routes)} routes on a "
        f"{width:.1f} x {height:.1f} cm board (1 cm = {1 / result.scale:.3g} {unit}), "
        f"{len(result.layout.bends)} bowed route(s){pins}"
    )
    typer.echo(
        f"  car size spread: {100 * result.car_size_spread:.2f} % of the nominal car "
        "(target: within 2 %)"
    )
    typer.echo(
        f"  cities moved from geography: mean {result.mean_displacement:.1f} cm, "
        f"most {far_name} {far:.1f} cm"
    )
    if unplaced:
        typer.echo(
            f"  pinned at their scaled geographic place (no stored place): {', '.join(unplaced)}"
        )
    if any(result.off_board):
        typer.echo(
            f"  the board reaches {result.off_board[0]:.1f} cm past its left edge and "
            f"{result.off_board[1]:.1f} cm past its bottom: move the pinned cities right or up"
        )
    if board_problems:
        pairs = sorted(
            {" and ".join(sorted(p)) for p in result.readability.troubled_pairs(game_map)}
        )
        typer.echo(f"  not readable: {len(board_problems)} problem(s)")
        if pairs:
            typer.echo(f"  could not lay out the routes between: {'; '.join(pairs)}")
        for problem in board_problems:
            typer.echo(f"    {problem}")
        typer.echo(
            "  to fix by hand: move a city (layout: cities: x, y), pin it (pin: true), "
            "and run `ttr layout` again (docs/print.md)"
        )
    else:
        typer.echo("  readable: every rule of docs/print.md met (TTR551-TTR557)")
    if write:
        try:  # in the file's form: its BOM and line ends (the new section's too)
            replace_if_unchanged(path, form.apply(laid.text).encode("utf-8"), read)
        except OSError as error:
            raise fail(f"{path}: cannot write: {describe_os_error(error)}") from None
        typer.echo(f"written to {path}")
    else:
        typer.echo("not written (add --write to store it in the map file)")
    raise typer.Exit(EXIT_FAILED if board_problems else EXIT_OK)
