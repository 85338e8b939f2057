"""`ttr play`: play a game on a map with bots, print the standings, save the record."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument, standings_table


def seat_bots(spec: str, players: int) -> list[str]:
    """`random` for every seat, or one name per seat: `random,greedy,random`."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise fail(f"--bots names {len(names)} bots for {players} players")
    return names


@app.command()
def play(
    map_argument: Annotated[
        str, typer.Argument(metavar="MAP", help="Bundled map id or YAML file.")
    ],
    players: Annotated[
        int, typer.Option("--players", "-p", min=2, max=5, help="Players (2-5, R1).")
    ] = 2,
    bots: Annotated[
        str, typer.Option(help="Bot for every seat, or one per seat: 'random,random'.")
    ] = "random",
    seed: Annotated[int, typer.Option(help="Seed of the game: same seed, same game.")] = 0,
    record: Annotated[
        Path | None, typer.Option(help="Write the game record (JSON) to this file.")
    ] = None,
) -> None:
    """Play a game with bot seats and print the final standings."""
    from rich.console import Console

    from ttr_core.bots import make_bot
    from ttr_core.game import bot_seed, play_game
    from ttr_core.record import record_of, write_record

    game_map = load_map_argument(map_argument)
    names = seat_bots(bots, players)
    try:
        seat_players = [make_bot(name, bot_seed(seed, i)) for i, name in enumerate(names)]
    except ValueError as error:
        raise fail(str(error)) from None
    state = play_game(game_map, seat_players, seed)
    Console().print(standings_table(state.result(), names))
    if record is not None:
        try:
            write_record(record_of(state, names), record)
        except OSError as error:
            raise fail(f"cannot write {record}: {error.strerror or error}") from None
        typer.echo(f"record written to {record}")
    raise typer.Exit(EXIT_OK)
