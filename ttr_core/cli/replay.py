"""`ttr replay`: replay a game record, and verify it gives the recorded result."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument, standings_table

if TYPE_CHECKING:
    from ttr_core.engine.state import GameState
    from ttr_maps.model import Map


HELP = (
    "Replay a game record and print its standings.\n\n"
    "--verify checks that the replay gives the recorded actions and result: exit 0 if "
    "identical, 1 with the first difference. --step shows the game action by action, "
    "each followed by the route points and wagons of every seat; with --verify too, it "
    "steps through the game, then verifies it."
)


@app.command(help=HELP)
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
    from rich.console import Console

    from ttr_core.engine.record import RecordError, read_record, verify_record
    from ttr_core.engine.record import replay as replay_record

    try:
        record = read_record(record_file)  # checked against the game-record schema
        game_map = load_map_argument(map_argument or record["map"])
        state = print_steps(record, game_map) if step else None
        if verify:
            difference = verify_record(record, game_map)
            if difference:
                typer.echo(f"{record_file}: differs from the recorded result: {difference}")
                raise typer.Exit(EXIT_FAILED)
            typer.echo(f"{record_file}: replay gives the recorded result")
            raise typer.Exit(EXIT_OK)
        if state is None:
            state = replay_record(record, game_map)
    except RecordError as error:
        raise fail(str(error), EXIT_FAILED if verify else 2) from None
    names = [seat.get("player", f"seat {i}") for i, seat in enumerate(record.get("seats", []))]
    names += [f"seat {i}" for i in range(len(names), state.num_players)]
    if state.is_over:
        Console().print(standings_table(state.result(), names))
    else:
        typer.echo(f"{len(state.history)} actions replayed; the game is not over")


def print_steps(record: Mapping[str, Any], game_map: Map) -> GameState:
    """Replay `record` one action at a time (through `iter_replay`, which checks the
    map's fingerprint first), printing each with a state summary; return the state
    at the end. Raises `RecordError`."""
    from ttr_core.engine.record import iter_replay
    from ttr_core.engine.record import replay as replay_record
    from ttr_maps.text import for_terminal

    state = None
    for number, seat, action, state in iter_replay(record, game_map):
        if number == 1:
            typer.echo(f"start: seat {state.first_player} plays first")
        who = "host" if seat is None else f"seat {seat}"
        typer.echo(for_terminal(f"{number:>4}. {who}: {action}"))  # city names are text
        typer.echo(f"      {state_summary(state)}")
    if state is None:  # no actions: the game as dealt
        state = replay_record(record, game_map)
        typer.echo(f"start: {state_summary(state)}; seat {state.first_player} plays first")
    return state


def state_summary(state: GameState) -> str:
    """One line: points and wagons of every seat, and the phase."""
    seats = "  ".join(
        f"s{seat}: {state.route_points[seat]}p {state.wagons[seat]}w"
        + ("" if state.status[seat] == "active" else f" ({state.status[seat]})")
        for seat in range(state.num_players)
    )
    phase = state.phase + (" (final round)" if state.final_queue is not None else "")
    return f"{seats}  | {phase}"
