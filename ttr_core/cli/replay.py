"""`ttr replay`: replay a game record, and verify it gives the recorded result."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument, standings_table

if TYPE_CHECKING:
    from ttr_maps.model import Map


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
    step: Annotated[
        bool,
        typer.Option(
            "--step", help="Print every action with the points and wagons of each seat after it."
        ),
    ] = False,
) -> None:
    """Replay a game record and print its standings.

    --verify checks that the replay gives the recorded actions and result (exit 0 if
    identical, 1 with the first difference); --step shows the game action by action.
    """
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
        if step:
            print_steps(record, game_map)
        state = replay_record(record, game_map)
    except RecordError as error:
        raise fail(str(error), EXIT_FAILED if verify else 2) from None
    names = [seat.get("player", f"seat {i}") for i, seat in enumerate(record.get("seats", []))]
    names += [f"seat {i}" for i in range(len(names), state.num_players)]
    if state.is_over:
        Console().print(standings_table(state.result(), names))
    else:
        typer.echo(f"{len(state.history)} actions replayed; the game is not over")


def print_steps(record: Mapping[str, Any], game_map: Map) -> None:
    """Replay `record` one action at a time, printing each with a state summary."""
    from ttr_core.actions import parse_action
    from ttr_core.errors import IllegalAction, InvalidAction
    from ttr_core.record import RecordError
    from ttr_core.state import GameState
    from ttr_core.terminal import state_summary

    state = GameState(game_map, record["players"], record["seed"], record.get("rules"))
    typer.echo(f"start: {state_summary(state)}; seat {state.first_player} plays first")
    for number, entry in enumerate(record["actions"], start=1):
        seat = entry.get("seat")
        try:
            state.apply(parse_action(entry["action"]), seat)
        except (InvalidAction, IllegalAction, KeyError, TypeError) as error:
            raise RecordError(f"action {number} ({entry!r}): {error}") from None
        who = "host" if seat is None else f"seat {seat}"
        typer.echo(f"{number:>4}. {who}: {entry['action']}")
        typer.echo(f"      {state_summary(state)}")
