"""`ttr compare`: two simulation reports (or two maps played alike) side by side."""

from __future__ import annotations

import json
import os
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import fail, load_map_argument
from ttr_core.cli.play import BOTS_HELP
from ttr_core.playtest.compare import REPORTERS

if TYPE_CHECKING:
    from ttr_core.playtest.report import BalanceReport

HELP = (
    "Compare two simulations and show the differences that are significant: win rates "
    "by seat and by bot, mean scores by seat, stalls, ticket completion, route claim "
    "rates.\n\nA and B are report.json files (or report folders) written by `ttr "
    "simulate`, or two maps, which are then simulated here with the same --games, "
    "--players, --bots and --seed. See docs/play-testing.md."
)


#: The output formats, from the reporters' registry (never retyped).
Format = StrEnum("Format", {name: name for name in REPORTERS})


def _report(
    argument: str, games: int, players: int, bots: list[str], seed: int, jobs: int
) -> BalanceReport:
    """A report: read from a report.json (or a folder holding one), else simulated."""
    from ttr_core.playtest.report import FORMAT, BalanceReport, ReportError

    path = Path(argument)
    if path.is_dir() and (path / "report.json").is_file():
        path = path / "report.json"
    if path.suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise fail(f"{argument}: cannot read the report: {error}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise fail(f"{argument}: not a report.json written by `ttr simulate`")
        try:
            return BalanceReport.from_dict(data)
        except ReportError as error:
            raise fail(
                f"{argument}: not a report.json written by `ttr simulate`: {error}"
            ) from None
    from ttr_core.playtest.simulate import simulate

    game_map = load_map_argument(argument)  # exits 2 with the map's errors
    return simulate(game_map, argument, games, players, bots, seed, min(jobs, games)).report


@app.command(help=HELP)
def compare(
    a: Annotated[str, typer.Argument(metavar="A", help="report.json, report folder or map.")],
    b: Annotated[str, typer.Argument(metavar="B", help="report.json, report folder or map.")],
    output_format: Annotated[
        Format, typer.Option("--format", "-f", help="Output: text, json or html.")
    ] = Format["text"],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file, not stdout.")
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", min=1, help="Games per map when A, B are maps.")
    ] = 200,
    players: Annotated[
        int, typer.Option(min=2, max=5, help="Players when A, B are maps (R1).")
    ] = 4,
    bots: Annotated[
        str,
        typer.Option(help=f"Bots when A, B are maps, rotated over the seats. Bots: {BOTS_HELP}."),
    ] = "greedy",
    seed: Annotated[int, typer.Option(help="Seed when A, B are maps.")] = 0,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs", "-j", min=1, help="Processes when A, B are maps (default: all cores)."
        ),
    ] = None,
) -> None:
    from ttr_core.bots import bot_factories
    from ttr_core.playtest.compare import compare_reports

    names = [n.strip() for n in bots.split(",") if n.strip()]
    unknown = [n for n in names if n not in bot_factories()]
    if not names or unknown:
        raise fail(f"unknown bot {', '.join(unknown) or repr(bots)}")
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    comparison = compare_reports(
        _report(a, games, players, names, seed, workers),
        _report(b, games, players, names, seed, workers),
    )
    text = REPORTERS[output_format.value](comparison)
    if output is None:
        typer.echo(text, nl=False)
        raise typer.Exit(EXIT_OK)
    from ttr_maps.io.files import write_text_atomically

    try:
        write_text_atomically(output, text)
    except OSError as error:
        raise fail(f"cannot write {output}: {error.strerror or error}", EXIT_FAILED) from None
    typer.echo(f"comparison written to {output}")
    raise typer.Exit(EXIT_OK)
