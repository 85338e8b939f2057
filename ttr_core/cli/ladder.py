"""`ttr ladder`: a round robin of bots on a map, with ratings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ttr_core.cli.app import EXIT_FAILED, EXIT_OK, app
from ttr_core.cli.common import (
    DEFAULT_EXECUTOR,
    AddressOption,
    ExecutorOption,
    GamesProgress,
    JobsOption,
    MapArgument,
    SeedOption,
    checked_bots,
    checked_output,
    fail,
    output_file,
    played_map,
    stop_on_sigterm,
    workers_from_options,
)
from ttr_core.cli.play import BOTS_HELP, PLAYERS_OPTION
from ttr_maps.rules import MAX_GAMES

if TYPE_CHECKING:
    from ttr_core.playtest.ladder import Ladder

HELP = (
    "Rate bots by a round robin on MAP: every table of --players different bots "
    "plays --games games, seats rotating so every bot sits in every seat equally "
    "often (with --games a multiple of --players). Prints Bradley–Terry ratings on "
    "the Elo scale with 95 % intervals and a head-to-head table; --json and --png "
    "save them. Games run like `ttr simulate` (same seeds; --jobs workers, local or "
    "on Ray with --executor ray: the ladder is the same wherever they run). See "
    "docs/play-testing.md."
)


@app.command(help=HELP)
def ladder(
    map_argument: MapArgument,
    bots: Annotated[
        str,
        typer.Option(
            help="At least two different bots, comma-separated: 'greedy,one-step,search'. "
            f"Bots: {BOTS_HELP}."
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            min=1,
            max=MAX_GAMES,
            help=f"Games at every table (at most {MAX_GAMES:,}).",
        ),
    ] = 20,
    players: PLAYERS_OPTION = 2,
    seed: SeedOption = 0,
    jobs: JobsOption = None,
    executor: ExecutorOption = DEFAULT_EXECUTOR,
    address: AddressOption = None,
    json_path: Annotated[
        Path | None,
        typer.Option("--json", help="Write the ladder as JSON to this file.", parser=output_file),
    ] = None,
    png_path: Annotated[
        Path | None,
        typer.Option(
            "--png", help="Draw the ratings and the head-to-head table (PNG).", parser=output_file
        ),
    ] = None,
) -> None:
    import json

    from rich.console import Console
    from rich.table import Table

    from ttr_core.playtest.executors import SimulationError
    from ttr_core.playtest.ladder import LadderError, ladder_picture, ladder_tables, run_ladder
    from ttr_maps.io.files import describe_os_error, write_bytes_atomically, write_text_atomically

    checked_output(json_path, "--json", [map_argument])
    checked_output(png_path, "--png", [map_argument])
    if png_path is not None and png_path.suffix.lower() != ".png":
        raise fail(f"--png: {png_path} should end in .png")
    names = checked_bots(bots)
    try:
        tables = ladder_tables(names, players)
    except ValueError as error:
        raise fail(str(error)) from None
    stop_on_sigterm()
    where = workers_from_options(executor, jobs, address, games)
    played = played_map(map_argument)
    with GamesProgress(f"{played.map.id}: ladder", games * len(tables)) as advance:
        try:
            with where.resolved():  # one Ray session for every table
                result = run_ladder(played, names, games, players, seed, where, on_game=advance)
        except LadderError as error:
            raise fail(str(error)) from None
        except SimulationError as error:
            raise fail(str(error), EXIT_FAILED) from None
        except KeyboardInterrupt:
            raise fail("interrupted: the games were stopped and nothing was written", 130) from None
    picture = ladder_picture(result) if png_path is not None else None
    try:
        if json_path is not None:
            write_text_atomically(json_path, json.dumps(result.to_dict(), indent=2) + "\n")
        if png_path is not None and picture is not None:
            write_bytes_atomically(png_path, picture)
    except OSError as error:
        raise fail(f"cannot write the ladder: {describe_os_error(error)}") from None
    console = Console()
    if not console.is_terminal:  # a pipe or a file: no need to squeeze into 80 columns
        console = Console(width=160)
    console.print(ratings_table(result, Table))
    for line in head_to_head_notes(result):
        console.print(line, markup=False, highlight=False)
    raise typer.Exit(EXIT_OK)


def head_to_head_notes(ladder: Ladder) -> list[str]:
    """What the table cannot say: ratings that rest on the prior, head-to-head
    results that go against the ratings, and cycles."""
    notes = []
    prior = [r.bot for r in ladder.ratings if r.rests_on_prior]
    if prior:
        notes.append(
            f"* {', '.join(prior)}: won or lost every pair result, so the data only bound "
            "the rating; the number shown is the prior's (one drawn result per pair)"
        )
    for c in ladder.contradictions:
        low, high = c.ci95
        notes.append(
            f"head to head against the ratings: {c.winner} beat {c.loser} in "
            f"{100 * c.rate:.0f} % of their pair results (95 % interval {100 * low:.0f}–"
            f"{100 * high:.0f} %; Holm-adjusted p = {c.p_value:.2g}) though {c.loser} is "
            "rated higher: the ratings fit every table at once"
        )
    for cycle in ladder.cycles:
        notes.append("cycle: " + " beats ".join((*cycle, cycle[0])) + " (head to head)")
    return notes


def ratings_table(ladder: Ladder, table_class: type) -> object:
    """The ratings, best first, and the head-to-head rates: the column numbered
    `k` is the bot in row `k` (so the table stays narrow)."""
    settings = ladder.settings
    table = table_class(
        title=f"{settings.map}: {settings.games} games, {settings.players} players",
        caption="cell: % of pair results the row's bot won against the column's",
    )
    order = [row.bot for row in ladder.ratings]
    table.add_column("#", justify="right")
    table.add_column("bot", no_wrap=True, min_width=max(map(len, order)))
    for column in ("rating", "95 % CI", "wins"):
        table.add_column(column, justify="right", no_wrap=True)
    for number in range(1, len(order) + 1):
        table.add_column(str(number), justify="right")
    head = ladder.head_to_head
    for number, row in enumerate(ladder.ratings, start=1):
        low, high = row.ci95
        cells = []
        for other in order:
            cell = head[row.bot].get(other)
            rate = cell.rate if cell is not None else None
            cells.append("" if rate is None else f"{100 * rate:.0f}")
        table.add_row(
            str(number),
            row.bot,
            f"{row.rating:.0f}{' *' if row.rests_on_prior else ''}",
            f"{low:.0f}–{high:.0f}",
            f"{100 * row.win_rate:.0f} %",
            *cells,
        )
    return table
