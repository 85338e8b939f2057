"""`ttr replay`: replay a game record, and verify it gives the recorded result."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument, standings_table


@app.command()
def replay(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
    map_argument: Annotated[
        str | None,
        typer.Option("--map", help="Map to replay on (default: the record's bundled map id)."),
    ] = None,
    verify: Annotated[
        bool, typer.Option(help="Exit 0 only if the replayed result equals the recorded one.")
    ] = False,
) -> None:
    """Replay a game record and print its standings; --verify checks the result."""
    from rich.console import Console

    from ttr_core.record import RecordError, read_record, verify_record
    from ttr_core.record import replay as replay_record

    try:
        record = read_record(record_file)
        game_map = load_map_argument(map_argument or record["map"])
        if verify:
            difference = verify_record(record, game_map)
            if difference:
                typer.echo(f"{record_file}: differs from the recorded result: {difference}")
                raise typer.Exit(EXIT_FAILED)
            typer.echo(f"{record_file}: replay gives the recorded result")
            raise typer.Exit(EXIT_OK)
        state = replay_record(record, game_map)
    except RecordError as error:
        raise fail(str(error), EXIT_FAILED if verify else 2) from None
    names = [seat.get("player", f"seat {i}") for i, seat in enumerate(record.get("seats", []))]
    names += [f"seat {i}" for i in range(len(names), state.num_players)]
    if state.is_over:
        Console().print(standings_table(state.result(), names))
    else:
        typer.echo(f"{len(state.history)} actions replayed; the game is not over")
