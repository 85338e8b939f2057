"""`ttr play`: play a game on a map, with bots and people at the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument, standings_table

#: Colours of seats 0-4 in pictures of a finished game.
SEAT_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")


def seat_bots(spec: str, players: int, humans: list[int] | None = None) -> list[str]:
    """`random` for every seat, or one name per seat: `random,greedy,random`; a
    name may be `human`. `humans` lists seats that are people whatever `spec` says."""
    from ttr_core.terminal import HUMAN

    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise fail(f"--bots names {len(names)} players for {players} seats")
    for seat in humans or []:
        if not 0 <= seat < players:
            raise fail(f"--human {seat}: seats are 0 to {players - 1}")
        names[seat] = HUMAN
    return names


def write_picture(state: object, names: list[str], path: Path) -> None:
    """The map with every claimed route in its owner's colour."""
    from ttr_maps.preview import PreviewError, render_map

    game = state  # a GameState; typed loosely to keep this module's imports light
    board = game.board  # type: ignore[attr-defined]
    owners = {
        board.route_name(route): SEAT_COLORS[seat]
        for route, seat in enumerate(game.owner)  # type: ignore[attr-defined]
        if seat >= 0
    }
    labels = {SEAT_COLORS[seat]: f"seat {seat}: {name}" for seat, name in enumerate(names)}
    try:
        render_map(
            game.map,  # type: ignore[attr-defined]
            path,
            route_owner_colors=owners,
            owner_names=labels,
            title=f"{game.map.name}: seed {game.seed}",  # type: ignore[attr-defined]
        )
    except PreviewError as error:
        raise fail(str(error)) from None


@app.command()
def play(
    map_argument: Annotated[
        str, typer.Argument(metavar="MAP", help="Bundled map id or YAML file.")
    ],
    players: Annotated[
        int, typer.Option("--players", "-p", min=2, max=5, help="Players (2-5, R1).")
    ] = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Player for every seat, or one per seat: 'human,greedy,long-route'. "
            "Bots: random, greedy, route-focus, destination-hungry, one-step, long-route."
        ),
    ] = "random",
    human: Annotated[
        list[int] | None,
        typer.Option(
            "--human", help="Seat played by a person at this terminal (repeat for hot-seat)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the game: same seed, same game.")] = 0,
    record: Annotated[
        Path | None, typer.Option(help="Write the game record (JSON) to this file.")
    ] = None,
    picture: Annotated[
        Path | None,
        typer.Option(help="At the end, draw the map with who claimed what (.png/.svg/.pdf)."),
    ] = None,
) -> None:
    """Play a game and print the final standings.

    Seats named `human` (in --bots, or with --human N) are played at this terminal:
    each turn lists the legal actions; type a number or an action, `help`, `resign`
    or `quit`. See docs/play-testing.md.
    """
    import sys

    from rich.console import Console

    from ttr_core.bots import make_bot
    from ttr_core.game import bot_seed, play_game
    from ttr_core.record import record_of, write_record
    from ttr_core.terminal import HUMAN, iter_lines, play_at_table

    if picture is not None:
        from ttr_maps.preview import PreviewError, output_format

        try:
            output_format(picture)
        except PreviewError as error:
            raise fail(str(error)) from None
    game_map = load_map_argument(map_argument)
    names = seat_bots(bots, players, human)
    try:
        seat_players = [
            None if name == HUMAN else make_bot(name, bot_seed(seed, i))
            for i, name in enumerate(names)
        ]
    except ValueError as error:
        raise fail(f"{error} (or 'human')") from None
    stopped = False
    if any(p is None for p in seat_players):
        session = play_at_table(
            game_map, seat_players, names, seed, iter_lines(sys.stdin), typer.echo
        )
        state, stopped = session.state, session.stopped
    else:
        state = play_game(game_map, seat_players, seed)  # type: ignore[arg-type]
    if state.is_over:
        Console().print(standings_table(state.result(), names))
    if record is not None:
        try:
            write_record(record_of(state, names), record)
        except OSError as error:
            raise fail(f"cannot write {record}: {error.strerror or error}") from None
        typer.echo(f"record written to {record}")
    if picture is not None:
        write_picture(state, names, picture)
        typer.echo(f"picture written to {picture}")
    raise typer.Exit(1 if stopped else EXIT_OK)
