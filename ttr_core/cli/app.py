"""The typer application that every `ttr` subcommand registers on, and the one
place where output that cannot be written is reported (`report_write_error`).

**Standard output and its reader.** Standard output is for people and pipes: when
its reader goes away (a broken pipe: `ttr play … | head`), that is the reader's
choice, not a failure. ttr then stops printing, goes on with its work (every file
it was asked to write is written in full) and exits with the status the work
gives, as if the output had been read, saying nothing
(`ttr_maps.io.files.guard_standard_output`). Standard
output that cannot be written for any other reason (closed with `>&-`, a full
disk, an I/O error), and an output file given by an option that cannot be written
in full (`-o /dev/stdout` on a closed pipe included), are errors: one line on
standard error, exit 2. docs/ci.md has the table for every command."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import typer

#: Exit codes shared by all commands.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class CommandApp(typer.Typer):
    """A Typer whose commands report an `OSError` escaping them (a full disk, a
    closed pipe, a name too long) as one line and exit 2, instead of a traceback
    or typer's silent exit 1 on a broken pipe. Commands still handle the errors
    they can explain better (which file, which option).

    A command registered with `bounded=True` does work the reader's limits bound
    (read a map, check it, measure or draw it, and end): it runs with the cyclic
    garbage collector paused (`ttr_maps.garbage`), which on a 10,000-city map
    would otherwise spend half the CPU time scanning the map's objects. Commands
    that run without end (play, simulate, serve, edit, lsp) keep the collector."""

    def command(self, *args: Any, bounded: bool = False, **kwargs: Any) -> Callable[[Any], Any]:
        register = super().command(*args, **kwargs)

        def decorator(function: Callable[..., Any]) -> Callable[..., Any]:
            @functools.wraps(function)
            def reporting_write_errors(*call_args: Any, **call_kwargs: Any) -> Any:
                from ttr_maps.garbage import collector_paused

                try:
                    with collector_paused() if bounded else contextlib.nullcontext():
                        return function(*call_args, **call_kwargs)
                except OSError as error:
                    report_write_error(error)

            register(reporting_write_errors)
            return function

        return decorator


def report_write_error(error: OSError) -> NoReturn:
    """Say in one line what could not be written and why, then exit 2. Standard
    output is closed for good first, so Python does not fail again at exit."""
    from ttr_maps.io.files import OutputPathError, describe_os_error, silence_standard_output
    from ttr_maps.text import glimpse

    reason = describe_os_error(error)
    if error.errno == errno.EPIPE:
        reason = "the pipe was closed by the program reading it"
    if isinstance(error, OutputPathError):  # its message names the file
        line = f"ttr: {reason}"
    elif error.filename is not None:  # a name of thousands of characters is shown cut
        line = f"ttr: {glimpse(str(error.filename))}: {reason}"
    else:
        line = f"ttr: cannot write to standard output: {reason}"
    silence_standard_output()
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except OSError:
        pass
    raise typer.Exit(EXIT_USAGE)


app = CommandApp(
    name="ttr",
    help=(
        "Design, check and play-test Ticket to Ride maps.\n\n"
        "Maps are YAML files (see docs/map-format.md). MAP arguments take a bundled map id "
        "(north_america, europe, nordic_countries, ...: the README lists them) or a path "
        "to a YAML file."
    ),
    no_args_is_help=True,
    add_completion=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
)


def _show_version(value: bool) -> None:
    if value:
        from ttr_maps.about import DISTRIBUTION, installed_version

        typer.echo(f"ttr {installed_version()} ({DISTRIBUTION})")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_show_version, is_eager=True, help="Show the version and exit."
    ),
) -> None:
    """Design, check and play-test Ticket to Ride maps."""


def _rich_reports_broken_pipes_here() -> None:
    """rich exits 1 in silence on a broken pipe; in ttr it raises, so the pipe is
    reported like every other output error (rich documents this hook)."""
    from rich.console import Console

    def raise_broken_pipe(_console: Console) -> None:
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    Console.on_broken_pipe = raise_broken_pipe  # type: ignore[method-assign]


def stop_on_signals() -> None:
    """Make SIGTERM and SIGHUP raise `SystemExit(128 + signal)` in this process, so
    `finally` blocks run (an atomic write removes its temporary file) and the exit
    status is the one a shell expects. Forked workers keep the default action."""
    import signal

    main_process = os.getpid()

    def stop(signum: int, _frame: object) -> None:
        if os.getpid() != main_process:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise SystemExit(128 + signum)

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)


def run(argv: list[str] | None = None) -> None:
    """Run the `ttr` command: SIGTERM and SIGHUP unwind like Ctrl-C does (so no
    temporary file is left behind), and output that fails outside any command
    (`ttr --help > /dev/full`) is reported like inside one."""
    from ttr_maps.io.files import guard_standard_output

    stop_on_signals()
    _rich_reports_broken_pipes_here()
    guard_standard_output()
    try:
        try:
            app(args=argv)
        finally:  # output still buffered fails here, not at interpreter exit
            sys.stdout.flush()
    except OSError as error:
        try:
            report_write_error(error)
        except typer.Exit as stop_now:
            raise SystemExit(stop_now.exit_code) from None
