"""`ttr replay`: replay a game record, and verify it gives the recorded result."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument, standings_table

if TYPE_CHECKING:
    from ttr_core.engine.record import MapFile
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
        typer.Option(
            "--map",
            help="Map to replay on. Default: the map file the record names (checked by "
            "its content hash), else the bundled map of the record's map id.",
        ),
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
        game_map, _ = record_map(record, record_file, map_argument, "--map FILE")
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


def record_map(
    record: Mapping[str, Any], record_file: Path, map_argument: str | None, give: str
) -> tuple[Map, MapFile | None]:
    """The map a (schema-checked) record's game was played on, and the file it was
    read from (None for a bundled map): `map_argument` when given (`--map`, or
    `ttr play`'s MAP); else the map file the record names, from the record's
    folder, when its content hash is the recorded one, or when it changed in
    nothing the game reads (said on standard error); else the bundled map of the
    record's id. Exit 2 with the reason and `give` (how to name the map: `--map
    FILE`) when none of them is the map."""
    from ttr_core.engine.record import MapFile, played_on
    from ttr_maps.io.bundled import bundled_map_ids

    if map_argument is not None:
        return load_map_argument(map_argument), map_file_of(map_argument)
    named = MapFile.named_in(record, record_file)
    map_id = record["map"]
    bundled = map_id in bundled_map_ids()
    if named is None:
        if not bundled:
            raise fail(
                f"{record_file}: the record's map {map_id!r} is not a bundled map and the "
                f"record does not name its file (written before records did); give the map "
                f"the game was played on with {give}"
            )
        return load_map_argument(map_id), None
    now, problem = _current(named)
    if now is not None and now.sha256 == named.sha256:
        return load_map_argument(str(named.path)), now
    game_map = _loaded(named.path) if now is not None else None
    if now is not None and game_map is None:
        problem = (
            f"has changed since the game was recorded and is no longer a playable map "
            f"(`ttr validate {named.path}` says why)"
        )
    elif game_map is not None and played_on(record, game_map):
        typer.echo(
            f"note: {named.path} has changed since the game was recorded (its content hash "
            f"differs), but not in anything the game reads: using it",
            err=True,
        )
        return game_map, now
    if bundled and played_on(record, fallback := load_map_argument(map_id)):
        typer.echo(f"note: {named.path} {problem}: using the bundled map {map_id}", err=True)
        return fallback, None
    raise fail(
        f"{record_file}: the map file it names, {named.path}, {problem}; give the map "
        f"the game was played on with {give}"
    )


def _current(named: MapFile) -> tuple[MapFile | None, str]:
    """The named map file as it is now (None if it cannot be read), and what
    keeps it from being the recorded one, in words."""
    from ttr_core.engine.record import MapFile
    from ttr_maps.io.files import describe_os_error

    try:
        if not named.path.exists():
            return None, "does not exist (moved, renamed or deleted?)"
        now = MapFile.of(named.path)
    except OSError as error:
        return None, f"cannot be read: {describe_os_error(error)}"
    except ValueError as error:  # a NUL byte in the path
        return None, f"cannot be read: {error}"
    return now, (
        "has changed since the game was recorded (its content hash differs, and so do "
        "the routes, tickets or rules the game reads)"
    )


def _loaded(path: Path) -> Map | None:
    """The map in `path`, or None when it is no longer a playable map."""
    from ttr_maps.load import InvalidMapError, load_map

    try:
        return load_map(path)
    except InvalidMapError:
        return None


def map_file_of(map_argument: str) -> MapFile | None:
    """The map file a MAP argument names (an existing file wins over a bundled id,
    as `resolve_map_argument` has it), None for a bundled id."""
    from ttr_core.engine.record import MapFile

    try:
        return MapFile.of(map_argument) if Path(map_argument).is_file() else None
    except (OSError, ValueError):  # it was just read: gone in between, nothing to name
        return None


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
