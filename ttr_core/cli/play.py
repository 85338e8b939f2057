"""`ttr play`: play a game on a map, with bots and people at the terminal."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ttr_core.bots import bots_help
from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, EXIT_USAGE, app
from ttr_core.cli.common import (
    RuleChanges,
    bot_names,
    checked_output,
    fail,
    load_map_argument,
    output_file,
    rules_with_changes,
    standings_table,
)
from ttr_maps.rules import MAX_SEED

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ttr_core.bots import Bot
    from ttr_core.engine.record import Note, Resumption
    from ttr_core.engine.state import GameState
    from ttr_core.table.terminal import Continued
    from ttr_maps.model import Map
    from ttr_maps.rules import RuleSet

#: The bots `--bots` accepts, for help texts (from the registry, `ttr_core.bots`).
BOTS_HELP = bots_help()
#: Who sits with a person when `--bots` is not given, in seat order after them.
DEFAULT_OPPONENTS = ("greedy", "one-step", "route-focus", "long-route")
#: Seats when neither `--players` nor several `--bots` say how many.
DEFAULT_PLAYERS = 3
#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130

#: The --players option of `ttr simulate` (R1: 2 to 5 players); `ttr play`'s has
#: a default that depends on --bots.
PLAYERS_OPTION = Annotated[
    int, typer.Option("--players", "-p", min=2, max=5, help="Players (2-5, R1).")
]

HELP = (
    "Play a game at this terminal and print the final standings.\n\n"
    "`ttr play MAP` seats you (seat 0) against two bots (greedy, one-step). Seats named "
    "`human` (in --bots, or with --human N) are people; several people share the "
    "terminal (hot-seat). Each turn shows one screen; type commands such as `deck`, "
    "`m 3`, `claim dallas little rock`, `tickets`, `routes`, `map`, `note TEXT` or "
    "`help`. Each game is dealt at random; the seed printed at the end (or --seed) "
    "deals it again. Ctrl-D and `quit` stop the game unfinished (exit 1), Ctrl-C too "
    "(exit 130); --record then saves the unfinished game, and `ttr play --resume "
    "RECORD` goes on with it. See docs/play-testing.md."
)


def seat_bots(spec: str | None, players: int | None, humans: list[int] | None = None) -> list[str]:
    """The player of every seat. `spec`: one name for every seat (`random`) or one
    per seat (`random,greedy,human`); None seats a person against bots (seat 0,
    or the `humans` seats, the others from `DEFAULT_OPPONENTS`). `humans` lists
    seats that are people whatever `spec` says. `players` defaults to the number of
    names in `spec`, else `DEFAULT_PLAYERS`."""
    from ttr_core.table import HUMAN

    names = bot_names(spec) if spec is not None else []
    if players is None:
        players = len(names) if len(names) > 1 else DEFAULT_PLAYERS
    if spec is None:
        seats = humans or [0]
        opponents = iter(DEFAULT_OPPONENTS * players)
        names = [HUMAN if seat in seats else next(opponents) for seat in range(players)]
    elif len(names) == 1:
        names *= players
    if len(names) != players:
        raise fail(f"--bots names {len(names)} players for {players} seats")
    for seat in humans or []:
        if not 0 <= seat < players:
            raise fail(f"--human {seat}: seats are 0 to {players - 1}")
        names[seat] = HUMAN
    return names


def welcome_lines(names: list[str]) -> list[str]:
    """Who sits where, said once at the start."""
    from ttr_core.table import HUMAN

    seats = ", ".join(f"{seat} {name}" for seat, name in enumerate(names))
    people = [seat for seat, name in enumerate(names) if name == HUMAN]
    who = f"you are seat {people[0]}" if len(people) == 1 else f"people at seats {people}"
    return [f"Seats: {seats}; {who}. `help` lists the commands."]


def write_picture(state: GameState, names: list[str], path: Path) -> None:
    """The board at the end: every claimed route in its owner's colour and, with
    the europe rules, every station in its owner's colour (E1). Raises
    `PreviewError`."""
    from ttr_core.table.picture import draw_board

    draw_board(
        state.map,
        state.owner,
        state.station_owner,
        names,
        path,
        f"{state.map.name}: seed {state.seed}",
    )


def play_bots(
    game_map: Map,
    bots: Sequence[Bot],
    seed: int,
    rules: RuleSet | None,
    state: GameState | None = None,
) -> tuple[GameState, bool]:
    """A bots-only game through the game loop (from `state`, a game resumed, if
    given), keeping the state when Ctrl-C stops it: (state, interrupted).
    --record then saves the game so far, as the help promises."""
    from ttr_core.engine.loop import run
    from ttr_core.engine.state import GameState

    if state is None:
        state = GameState(game_map, len(bots), seed, rules)
    try:
        run(state, bots)
    except KeyboardInterrupt:
        return state, True
    return state, False


@app.command(help=HELP)
def play(
    map_argument: Annotated[
        str | None,
        typer.Argument(
            metavar="MAP",
            help="A bundled map id or a YAML file (with --resume: the record's map, if "
            "it is not a bundled one).",
            show_default=False,
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            min=2,
            max=5,
            help="Players (2-5, R1). Default: as many as --bots names, else 3.",
            show_default=False,
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Player for every seat, or one per seat: 'human,greedy,long-route'. "
            f"Bots: {BOTS_HELP}. Default: you at seat 0, then "
            f"{', '.join(DEFAULT_OPPONENTS[:2])}, ….",
            show_default=False,
        ),
    ] = None,
    human: Annotated[
        list[int] | None,
        typer.Option(
            "--human", help="Seat played by a person at this terminal (repeat for hot-seat)."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            min=-MAX_SEED,
            max=MAX_SEED,
            help="Seed of the game: same seed, same game. Default: a random one, printed "
            "at the end.",
            show_default=False,
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help="Go on with the unfinished game of this record (written by --record): "
            "the same seats, cards and notes.",
            show_default=False,
        ),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Write the game record (JSON) to this file, finished or not (never the "
            "--resume record).",
            parser=output_file,
        ),
    ] = None,
    picture: Annotated[
        Path | None,
        typer.Option(
            help="Draw the board with who claimed what (.png/.svg/.pdf) on every "
            "person's turn and at the end: keep it open in an image viewer.",
            parser=output_file,
        ),
    ] = None,
    changes: RuleChanges = None,
) -> None:
    inputs = [p for p in (map_argument, resume) if p is not None]
    checked_output(record, "--record", inputs)
    checked_output(picture, "--picture", inputs)
    _check_picture_format(picture)
    if resume is not None:
        refuse_changes_to_a_resumed_game(players, bots, human, seed, changes)
        setup = _resumed_setup(resume, map_argument)
    else:
        setup = _new_setup(map_argument, players, bots, human, seed, changes)
    played = _play(setup, picture, resume)
    problems = _write_outputs(setup, played, record, picture)
    for problem in problems:
        typer.echo(f"error: {problem}", err=True)
    if played.interrupted:
        raise typer.Exit(EXIT_INTERRUPTED)
    if problems:  # an output error (docs/ci.md: exit 2)
        raise typer.Exit(EXIT_USAGE)
    raise typer.Exit(EXIT_FAILED if played.stopped else EXIT_OK)


@dataclass(frozen=True)
class _Setup:
    """Who plays what: the map, each seat's player, the seed and the rules, and
    the game so far when it is resumed."""

    game_map: Map
    names: list[str]
    seed: int
    rules: RuleSet | None
    continued: Continued | None = None


@dataclass(frozen=True)
class _Played:
    """How the game went: the state, whether it stopped or was interrupted, the
    people's names and the table's notes."""

    state: GameState
    stopped: bool
    interrupted: bool
    people: list[str | None]
    notes: list[Note]
    resumed: list[Resumption]


def _check_picture_format(picture: Path | None) -> None:
    from ttr_maps.render.figure import PreviewError, output_format

    if picture is not None:
        try:
            output_format(picture)
        except PreviewError as error:
            raise fail(str(error)) from None


def _new_setup(
    map_argument: str | None,
    players: int | None,
    bots: str | None,
    human: list[int] | None,
    seed: int | None,
    changes: list[str] | None,
) -> _Setup:
    if map_argument is None:
        raise fail("give a MAP to play (a bundled id or a YAML file), or --resume RECORD")
    game_map = load_map_argument(map_argument)
    rules = rules_with_changes(game_map, changes)
    names = seat_bots(bots, players, human)
    return _Setup(game_map, names, random_seed() if seed is None else seed, rules)


def _resumed_setup(resume: Path, map_argument: str | None) -> _Setup:
    game_map, names, continued = resumed(resume, map_argument)
    state = continued.state
    return _Setup(game_map, names, state.seed, state.rule_set, continued)


def _play(setup: _Setup, picture: Path | None, resume: Path | None) -> _Played:
    """The game: at the terminal when a seat is a person, else bots only."""
    from rich.console import Console

    from ttr_core.bots import make_bot
    from ttr_core.engine.loop import bot_seed
    from ttr_core.table import HUMAN
    from ttr_core.table.terminal import play_at_table, stdin_terminal

    try:
        seat_players = [
            None if name == HUMAN else make_bot(name, bot_seed(setup.seed, i))
            for i, name in enumerate(setup.names)
        ]
    except ValueError as error:
        raise fail(f"{error} (or 'human')") from None
    continued = setup.continued
    if continued is not None:
        continued = _caught_up(continued, seat_players, setup.names)
    people: list[str | None] = list(continued.names) if continued else []
    notes = list(continued.notes) if continued else []
    resumed = list(continued.resumed) if continued else []
    if all(p is not None for p in seat_players):
        state, interrupted = play_bots(
            setup.game_map,
            seat_players,  # type: ignore[arg-type]
            setup.seed,
            setup.rules,
            continued.state if continued else None,
        )
        return _Played(state, False, interrupted, people, notes, resumed)
    welcome = welcome_lines(setup.names)
    if continued is not None:
        welcome.insert(0, f"Going on with {resume} after {len(continued.state.history)} actions.")
    session = play_at_table(
        setup.game_map,
        seat_players,
        setup.names,
        setup.seed,
        stdin_terminal(Console(highlight=False), setup.game_map),
        picture,
        welcome,
        setup.rules,
        continued,
    )
    return _Played(
        session.state, session.stopped, session.interrupted, session.names, session.notes, resumed
    )


def _caught_up(continued: Continued, players: list[Bot | None], names: list[str]) -> Continued:
    """The resumed game replayed with its bots taking part again
    (`ttr_core.engine.loop.catch_up`), so that each goes on exactly as it would have
    in the game that was cut. Bots that cannot are named on standard error and in
    the record (`resumed`)."""
    from dataclasses import replace

    from ttr_core.engine.loop import catch_up
    from ttr_core.engine.record import Resumption
    from ttr_core.engine.state import GameState

    cut = continued.state
    state = GameState(cut.map, cut.num_players, cut.seed, cut.rule_set)
    inexact = catch_up(state, players, cut.history)
    if not inexact:
        return replace(continued, state=state)
    for seat, number in sorted(inexact.items()):
        typer.echo(
            f"note: the {names[seat]} bot at seat {seat} cannot go on exactly as in the game "
            f"that was cut (from action {number} on); the record says so",
            err=True,
        )
    resumption = Resumption(len(cut.history), tuple(sorted(inexact)))
    return replace(continued, state=state, resumed=[*continued.resumed, resumption])


def _write_outputs(
    setup: _Setup, played: _Played, record: Path | None, picture: Path | None
) -> list[str]:
    """The standings, the seed, and the record and picture asked for; what could
    not be written, in words."""
    from rich.console import Console

    from ttr_core.engine.record import record_of, write_record
    from ttr_maps.io.files import describe_os_error
    from ttr_maps.render.figure import PreviewError

    names, state = setup.names, played.state
    shown = [person or name for person, name in zip(played.people or names, names, strict=True)]
    # The files first: standard output that fails (a full disk) must not lose them.
    problems, written = [], []
    if record is not None:
        try:
            write_record(
                record_of(state, names, played.people, played.notes, played.resumed), record
            )
            written.append(f"record written to {record}")
        except OSError as error:
            reason = describe_os_error(error)
            problems.append(f"the record could not be written to {record}: {reason}")
    if picture is not None:
        try:
            write_picture(state, shown, picture)
            written.append(f"picture written to {picture}")
        except PreviewError as error:
            saved = f" (the record was written to {record})" if record and not problems else ""
            problems.append(f"the picture could not be written: {error}{saved}")
    if state.is_over:
        Console(highlight=False).print(standings_table(state.result(), shown))
    typer.echo(f"seed {setup.seed}: `--seed {setup.seed}` deals this game again")
    for line in written:
        typer.echo(line)
    return problems


def random_seed() -> int:
    """A seed nobody chose (53 bits: exact in every JSON reader, JavaScript's too)."""
    import secrets

    return secrets.randbits(53)


def refuse_changes_to_a_resumed_game(
    players: int | None,
    bots: str | None,
    human: list[int] | None,
    seed: int | None,
    changes: list[str] | None,
) -> None:
    """A resumed game goes on as recorded: options that would change it are usage
    errors (the record read is never written over: `checked_output`)."""
    for given, option in (
        (players, "--players"),
        (bots, "--bots"),
        (human, "--human"),
        (seed, "--seed"),
        (changes, "--set"),
    ):
        if given:
            raise fail(f"{option}: --resume goes on with the game as it was recorded")


def resumed(path: Path, map_argument: str | None) -> tuple[Map, list[str], Continued]:
    """The map, the seats' players and the game of an unfinished record; exit 2
    with the reason when it cannot go on."""
    from ttr_core.engine.record import RecordError, players_of, read_record
    from ttr_core.table.terminal import continued_game

    try:
        data = read_record(path)
    except RecordError as error:
        raise fail(f"--resume: {error}") from None
    if map_argument is None:
        from ttr_maps.io.bundled import bundled_map_ids

        if data["map"] not in bundled_map_ids():
            raise fail(
                f"--resume: the record's map {data['map']!r} is not a bundled map; give its "
                f"file: ttr play MAP.yaml --resume {path}"
            )
    game_map = load_map_argument(map_argument or data["map"])
    try:
        return game_map, players_of(data), continued_game(data, game_map)
    except RecordError as error:
        raise fail(f"--resume {path}: {error}") from None
