"""`ttr compare`: two simulation reports (or two maps played alike) side by side."""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ttr_core.cli.app import EXIT_OK, app
from ttr_core.cli.common import (
    GamesProgress,
    SeedOption,
    checked_bots,
    checked_output,
    fail,
    output_file,
    played_map,
)
from ttr_core.cli.play import BOTS_HELP
from ttr_core.playtest.compare import REPORTERS
from ttr_maps.rules import MAX_GAMES

if TYPE_CHECKING:
    from ttr_core.playtest.report import BalanceReport

HELP = (
    "Compare two simulations: the map diff (cities, routes, tickets, rules added, "
    "removed or changed), then the differences that are significant: win rates by "
    "place in the turn order and by bot, mean scores, stalls, game length, ticket "
    "completion by bot and per ticket, tracks claimed per connection (routes matched "
    "by their cities).\n\nA and B are report.json files (or report folders) written by "
    "`ttr simulate`, or two maps, which are then played here alike (the same --games, "
    "--players, --bots and --seed, game by game) and compared with paired tests. "
    "Holm's correction over all rows keeps the chance of any false difference at 5 %. "
    "See docs/play-testing.md."
)


#: The output formats, from the reporters' registry (never retyped).
Format = StrEnum("Format", {name: name for name in REPORTERS})


def _report_path(argument: str) -> Path | None:
    """The report.json an argument names (itself, or inside the folder), or None."""
    path = Path(argument)
    if path.is_dir() and os.path.lexists(path / "report.json"):  # read (or refused) as one
        path = path / "report.json"
    return path if path.suffix == ".json" else None


def _title(argument: str) -> str:
    """A column title from the file name: a map file's or a report folder's name
    (`report.json` is named by its folder), or the bundled map id."""
    path = Path(argument)
    if path.name == "report.json" and path.parent.name:
        return path.parent.name
    return path.stem if path.suffix in (".yaml", ".yml", ".json") else path.name or argument


def _titles(a: str, b: str) -> tuple[str, str]:
    one, other = _title(a), _title(b)
    if one == other:  # the same name twice: say which is which by more of the path
        one, other = a, b
    return one, other


def _read_report(argument: str, path: Path) -> BalanceReport:
    """A report read from a report.json (the guarded reader, then the schema), or
    exit 2 saying why it is not one."""
    from ttr_core.playtest.report import ReportError, read_report

    try:
        return read_report(path)
    except ReportError as error:
        raise fail(f"{argument}: {error}") from None


@app.command(help=HELP)
def compare(
    a: Annotated[str, typer.Argument(metavar="A", help="report.json, report folder or map.")],
    b: Annotated[str, typer.Argument(metavar="B", help="report.json, report folder or map.")],
    output_format: Annotated[
        Format, typer.Option("--format", "-f", help="Output: text, json or html.")
    ] = Format["text"],
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            parser=output_file,
            help="Write to this file, not stdout (never onto A or B).",
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            min=1,
            max=MAX_GAMES,
            help=f"Games per map when A, B are maps (at most {MAX_GAMES:,}).",
        ),
    ] = 200,
    players: Annotated[
        int, typer.Option(min=2, max=5, help="Players when A, B are maps (R1).")
    ] = 4,
    bots: Annotated[
        str,
        typer.Option(help=f"Bots when A, B are maps, rotated over the seats. Bots: {BOTS_HELP}."),
    ] = "greedy",
    seed: SeedOption = 0,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, help="Processes when A, B are maps (default: all cores)."
        ),
    ] = None,
) -> None:
    from ttr_core.playtest.compare import compare_reports
    from ttr_core.playtest.executors import Workers
    from ttr_core.playtest.plan import RunPlan

    plan = RunPlan(games, players, checked_bots(bots), seed)
    where = Workers(min(jobs or os.cpu_count() or 1, 2 * games))
    titles = _titles(a, b)
    paths = _report_path(a), _report_path(b)
    checked_output(output, "--output", [p or arg for p, arg in zip(paths, (a, b), strict=True)])
    if paths[0] is not None and paths[1] is not None:
        comparison = compare_reports(_read_report(a, paths[0]), _read_report(b, paths[1]), titles)
    elif paths[0] is None and paths[1] is None:
        from ttr_core.playtest.compare import compare_maps

        played = played_map(a), played_map(b)  # exit 2 on errors
        with GamesProgress("compare: both maps", 2 * games) as advance:
            comparison = compare_maps(*played, plan, where, titles, on_game=advance)
    else:  # a report and a map: the map is played with the options, unpaired
        from ttr_core.playtest.simulate import simulate

        reports = []
        for argument, path in zip((a, b), paths, strict=True):
            if path is not None:
                reports.append(_read_report(argument, path))
            else:
                one = played_map(argument)
                with GamesProgress(f"{one.map.id}: playing", games) as advance:
                    reports.append(simulate(one, plan, where, on_game=advance).report)
        comparison = compare_reports(reports[0], reports[1], titles)
    text = REPORTERS[output_format.value](comparison)
    if output is None:
        typer.echo(text, nl=False)
        raise typer.Exit(EXIT_OK)
    from ttr_maps.io.files import write_text_atomically

    try:
        write_text_atomically(output, text)
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}") from None
    typer.echo(f"comparison written to {output}")
    raise typer.Exit(EXIT_OK)
