"""Helpers shared by the commands: loading a map argument, printing standings."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ttr_core.cli.app import EXIT_USAGE
from ttr_core.playtest.executors import EXECUTORS
from ttr_maps.rules import MAX_SEED
from ttr_maps.text import glimpse

if TYPE_CHECKING:
    from ttr_core.engine.result import GameResult
    from ttr_core.playtest.executors import Workers
    from ttr_core.playtest.plan import PlayedMap
    from ttr_maps.model import Map
    from ttr_maps.rules import RuleSet


#: The MAP argument of every command that reads one map (see `load_map_argument`).
MapArgument = Annotated[
    str, typer.Argument(metavar="MAP", help="A bundled map id or a YAML file.", show_default=False)
]

#: The PATHS argument of `ttr validate` and `ttr fix`.
MapPaths = Annotated[
    list[Path] | None,
    typer.Argument(
        help="Map files or folders (every *.yaml/*.yml inside, recursively). "
        "Default: the bundled maps.",
        show_default=False,
    ),
]


#: The --set option of `ttr play` and `ttr simulate`: rule-set changes.
RuleChanges = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="FIELD=VALUE",
        help="Change a rule-set field for this game or run, e.g. --set wagons=40 "
        "(repeatable; fields and defaults: docs/rules.md, Rule-set fields).",
        show_default=False,
    ),
]


def output_file(value: str | Path) -> Path:
    """A file to write, as typed (`parser=output_file` on every option that names
    one): a name ending in `/` names a folder (a `Path` would drop the slash and
    write a file of that name), an empty one nothing; both are usage errors."""
    if isinstance(value, Path):
        return value
    if not value:
        raise typer.BadParameter("give a file name")
    if value.endswith(("/", os.sep)):
        raise typer.BadParameter(
            f"{glimpse(value)!r} ends with '/': give a file name, not a folder"
        )
    return Path(value)


def checked_output(path: Path | None, option: str, inputs: Iterable[str | Path] = ()) -> None:
    """The one output rule (`ttr_maps.io.files.check_output_path`: never one of
    the command's `inputs`, no folder, no hard-linked or read-only file, a folder
    that takes files...), checked before the work; exit 2 naming the option."""
    from ttr_maps.io.files import OutputPathError, check_output_path

    if path is None:
        return
    try:
        check_output_path(path, inputs)
    except OutputPathError as error:
        raise fail(f"{option}: {error}") from None


def bot_names(spec: str, option: str = "--bots") -> list[str]:
    """The names of a comma-separated bot list, each stripped; exit 2 for an empty
    name (`greedy,,random`, a trailing comma) rather than dropping it."""
    names = [name.strip() for name in spec.split(",")]
    if not spec.strip() or any(not name for name in names):
        raise fail(f"{option} {glimpse(spec)!r}: an empty bot name; separate names with one comma")
    return names


def rules_with_changes(game_map: Map, changes: list[str] | None) -> RuleSet:
    """The map's rule set (with its settings) and the --set changes, or exit 2
    naming the bad field and the allowed ones."""
    from ttr_maps.rules import RuleSetError, misfit, parse_overrides, rules_for

    try:
        rule_set = rules_for(game_map).with_overrides(parse_overrides(changes or []))
    except RuleSetError as error:
        raise fail(f"--set: {error}") from None
    problem = misfit(rule_set, game_map)
    if problem:
        raise fail(f"--set: {problem}")
    return rule_set


#: `--executor` choices, derived from the executor registry.
ExecutorName = StrEnum("ExecutorName", {name: name for name in EXECUTORS})  # type: ignore[misc]

#: The options that say where games are played (`ttr simulate`, `ttr ladder`).
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        help="Workers: local processes (default: all cores), or Ray actors "
        "(default: the cluster's CPUs).",
    ),
]
ExecutorOption = Annotated[
    ExecutorName,
    typer.Option(
        help="Where the games are played: local (this machine's processes, --jobs) or "
        "ray (Ray workers; pip install 'ttr-mapkit[cluster]'; see docs/cluster.md).",
    ),
]
AddressOption = Annotated[
    str | None,
    typer.Option(
        help="With --executor ray: 'auto' (the cluster this machine is part of) or "
        "'ray://HOST:PORT'. Default: start a local Ray instance for the run.",
    ),
]
DEFAULT_EXECUTOR = ExecutorName("local")

#: The options of a run of games (`ttr simulate`, `ttr compare`, `ttr ladder`).
SeedOption = Annotated[
    int,
    typer.Option(
        min=-MAX_SEED,
        max=MAX_SEED,
        help="Seed of the run: game i is played with a seed derived from it, so the same "
        "seed gives the same games.",
    ),
]


def workers_from_options(
    executor: ExecutorName, jobs: int | None, address: str | None, games: int
) -> Workers:
    """Where the options ask the games to be played (the worker count sizes the
    batches); exit 2 when they do not fit together or Ray is missing."""
    from ttr_core.playtest.executors import SimulationError, Workers, import_ray

    if address is not None and executor != "ray":
        raise fail("--address is for --executor ray")
    workers = jobs
    if executor == "local":
        workers = min(jobs or os.cpu_count() or 1, games)
    else:
        try:
            import_ray()
        except SimulationError as error:
            raise fail(str(error)) from None
        if address is None and workers is None:
            workers = os.cpu_count() or 1
    return Workers(workers or 1, EXECUTORS[executor.value](workers, address))


def checked_bots(spec: str, option: str = "--bots") -> tuple[str, ...]:
    """`bot_names`, each one a bot (`check_bot_name`), or exit 2 saying which is not."""
    from ttr_core.bots import check_bot_name

    names = bot_names(spec, option)
    try:
        for name in names:
            check_bot_name(name)
    except ValueError as error:
        raise fail(f"{option}: {error}") from None
    return tuple(names)


def played_map(map_argument: str, changes: list[str] | None = None) -> PlayedMap:
    """The map a MAP argument names, with the --set changes (exit 2 for a map that
    cannot be played or a bad change)."""
    from ttr_core.playtest.plan import PlayedMap

    game_map = load_map_argument(map_argument)
    rules = rules_with_changes(game_map, changes) if changes else None
    return PlayedMap(game_map, map_argument, rules)


class GamesProgress:
    """Games played so far, shown on stderr from the start: a live bar on a
    terminal; elsewhere (a CI log, a pipe) plain lines, at the start, after the
    first game (which may take minutes with search bots), then at every tenth
    of the run (at most one line in `QUIET` seconds) or every `EVERY` seconds,
    and at the end. Call it with each finished game;
    `more(extra)` grows the total when a run decides to play on."""

    #: Seconds between plain lines at most, once the first game is in.
    EVERY = 60.0
    #: ... and at least these, so that a quick run prints three lines.
    QUIET = 5.0

    def __init__(
        self, description: str, total: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.description, self.total, self.done = description, total, 0
        self._clock = clock
        self._started = self._last = self._clock()
        self._bar: Any = None
        self._task: Any = None
        self._terminal = sys.stderr.isatty()
        self._shown = 0

    def __enter__(self) -> GamesProgress:
        if self._terminal:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            self._bar = Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task(self.description, total=self.total)
        else:
            self._line(f"{self.total:,} games to play")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)
        elif exc[0] is None:
            self._line(f"{self.done:,} games in {self._elapsed()}")

    def __call__(self, _game: object = None) -> None:
        self.done += 1
        if self._bar is not None:
            self._bar.advance(self._task)
            return
        now = self._clock()
        step = max(1, self.total // 10)
        tenth = self.done - self._shown >= step and now - self._last >= self.QUIET
        if self.done == 1 or tenth or now - self._last >= self.EVERY:
            self._line(self._count())
            self._shown, self._last = self.done, now

    def more(self, extra: int) -> None:
        self.total += extra
        if self._bar is not None:
            self._bar.update(self._task, total=self.total)

    def _count(self) -> str:
        return f"{self.done:,}/{self.total:,} games, {self._elapsed()} so far"

    def _elapsed(self) -> str:
        minutes, seconds = divmod(int(self._clock() - self._started), 60)
        return f"{minutes}:{seconds:02d}"

    def _line(self, text: str) -> None:
        typer.echo(f"{self.description}: {text}", err=True)


def fail(message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """Print `message` to stderr (long user text in it cut to a glimpse) and
    return the Exit to raise."""
    from ttr_maps.text import shorten_message

    typer.echo(f"error: {shorten_message(message)}", err=True)
    return typer.Exit(code)


def stop_on_sigterm() -> None:
    """Let SIGTERM end the command like Ctrl-C does (SystemExit 143), so its
    clean-up runs: workers stopped, staging folders removed."""
    import signal

    def _exit(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _exit)


def load_map_argument(argument: str) -> Map:
    """A MAP argument (bundled id or YAML path) as a playable map, or exit 2 with
    every error found in it."""
    from ttr_maps.io.bundled import bundled_map_ids
    from ttr_maps.load import InvalidMapError, load_map
    from ttr_maps.text import shorten_message

    try:
        return load_map(argument)
    except InvalidMapError as error:
        report = error.report
        for problem in report.errors:  # a path of thousands of characters is shown cut
            typer.echo(shorten_message(str(problem)), err=True)
        named_a_file = report.document is not None or _exists(argument)
        hint = "" if named_a_file else f" (bundled maps: {', '.join(bundled_map_ids())})"
        raise fail(f"{argument}: not a playable map{hint}") from None


def _exists(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        return False


def standings_table(result: GameResult, players: list[str]) -> object:
    """Final standings as a rich table: rank, seat, player, score parts, total.

    Score parts beyond the base ones (`stations` with the europe rules) get a
    column each, before the total."""
    from rich.table import Table

    from ttr_maps.text import for_rich

    base = ("routes", "tickets", "longest_path_bonus")
    extra = sorted({k for s in result.seats for k in s.score} - set(base))
    table = Table(title=f"Final standings ({result.end_reason})")
    columns = ("rank", "seat", "player", "routes", "tickets", "longest", "bonus", *extra, "total")
    for column in columns:
        table.add_column(column, justify="left" if column == "player" else "right")
    for seat in sorted(result.seats, key=lambda s: (s.rank, s.seat)):
        done = seat.completed_tickets
        player = players[seat.seat] + ("" if seat.status == "active" else f" ({seat.status})")
        player = for_rich(player)  # names come from --bots or a record: text, not markup
        table.add_row(
            str(seat.rank),
            str(seat.seat),
            player,
            str(seat.score["routes"]),
            f"{seat.score['tickets']} ({done}/{len(seat.tickets)})",
            str(seat.longest_path),
            str(seat.score["longest_path_bonus"]),
            *(str(seat.score.get(name, 0)) for name in extra),
            str(seat.total),
        )
    return table
