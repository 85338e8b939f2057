"""`ttr play`: play a game on a map, with bots and people at the terminal."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ttr_core.bots import bots_help
from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import (
    RuleChanges,
    fail,
    load_map_argument,
    rules_with_changes,
    standings_table,
)

if TYPE_CHECKING:
    from ttr_core.state import GameState

#: Colours of seats 0-4 in pictures of a finished game.
SEAT_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")
#: The bots `--bots` accepts, for help texts (from the registry, `ttr_core.bots`).
BOT_NAMES = bots_help()
#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130

#: The --players option of `ttr play` and `ttr simulate` (R1: 2 to 5 players).
PLAYERS_OPTION = Annotated[
    int, typer.Option("--players", "-p", min=2, max=5, help="Players (2-5, R1).")
]

HELP = (
    "Play a game and print the final standings.\n\n"
    "Seats named `human` (in --bots, or with --human N) are played at this terminal: "
    "each turn lists the legal actions; type a number or an action, `help`, `resign` "
    "or `quit`. Ctrl-D and `quit` stop the game unfinished (exit 1), Ctrl-C too "
    "(exit 130); --record then saves the unfinished game. See docs/play-testing.md."
)


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


def check_output_file(path: Path, option: str) -> None:
    """Exit 2 at once if `path` cannot be written (its folder is missing or not
    writable, or it is a folder), so a person's game is never lost at the end."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise fail(f"{option} {path}: is a folder")
    if not folder.is_dir():
        raise fail(f"{option} {path}: folder {folder} does not exist")
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        raise fail(
            f"{option} {path}: cannot write in {folder}: {error.strerror or error}"
        ) from None


def write_picture(state: GameState, names: list[str], path: Path) -> None:
    """The map with every claimed route in its owner's colour and, with the europe
    rules, every station as a triangle in its owner's colour (E1). The legend lists
    the seats in seat order. Raises `PreviewError`."""
    from ttr_maps.preview import render_map

    game_map = state.map
    owners = {
        state.board.route_name(route): SEAT_COLORS[seat]
        for seat in range(state.num_players)
        for route in state.claimed_routes(seat)
    }
    labels = {SEAT_COLORS[seat]: f"seat {seat}: {name}" for seat, name in enumerate(names)}
    stations = {
        game_map.cities[city].name: SEAT_COLORS[seat]
        for city, seat in enumerate(state.station_owner)
        if seat >= 0
    }
    render_map(
        game_map,
        path,
        title=f"{game_map.name}: seed {state.seed}",
        route_owner_colors=owners,
        owner_names=labels,
        city_markers=stations,
    )


@app.command(help=HELP)
def play(
    map_argument: Annotated[
        str, typer.Argument(metavar="MAP", help="Bundled map id or YAML file.")
    ],
    players: PLAYERS_OPTION = 2,
    bots: Annotated[
        str,
        typer.Option(
            help="Player for every seat, or one per seat: 'human,greedy,long-route'. "
            f"Bots: {BOT_NAMES}."
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
        Path | None,
        typer.Option(help="Write the game record (JSON) to this file, finished or not."),
    ] = None,
    picture: Annotated[
        Path | None,
        typer.Option(help="At the end, draw the map with who claimed what (.png/.svg/.pdf)."),
    ] = None,
    changes: RuleChanges = None,
) -> None:
    import sys

    from rich.console import Console

    from ttr_core.bots import make_bot
    from ttr_core.game import bot_seed, play_game
    from ttr_core.record import record_of, write_record
    from ttr_core.terminal import HUMAN, iter_lines, play_at_table
    from ttr_maps.preview import PreviewError

    if picture is not None:
        from ttr_maps.preview import output_format

        try:
            output_format(picture)
        except PreviewError as error:
            raise fail(str(error)) from None
    for path, option in ((record, "--record"), (picture, "--picture")):
        if path is not None:
            check_output_file(path, option)
    game_map = load_map_argument(map_argument)
    rules = rules_with_changes(game_map, changes)
    names = seat_bots(bots, players, human)
    try:
        seat_players = [
            None if name == HUMAN else make_bot(name, bot_seed(seed, i))
            for i, name in enumerate(names)
        ]
    except ValueError as error:
        raise fail(f"{error} (or 'human')") from None
    stopped = interrupted = False
    if any(p is None for p in seat_players):
        session = play_at_table(
            game_map, seat_players, names, seed, iter_lines(sys.stdin), typer.echo, rules
        )
        state, stopped, interrupted = session.state, session.stopped, session.interrupted
    else:
        state = play_game(game_map, seat_players, seed, rules)  # type: ignore[arg-type]
    if state.is_over:
        Console().print(standings_table(state.result(), names))
    problems = []
    if record is not None:
        try:
            write_record(record_of(state, names), record)
            typer.echo(f"record written to {record}")
        except OSError as error:
            problems.append(f"the record could not be written to {record}: {error.strerror}")
    if picture is not None:
        try:
            write_picture(state, names, picture)
            typer.echo(f"picture written to {picture}")
        except PreviewError as error:
            saved = f" (the record was written to {record})" if record and not problems else ""
            problems.append(f"the picture could not be written: {error}{saved}")
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    if interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
    raise typer.Exit(EXIT_FAILED if stopped or problems else EXIT_OK)
