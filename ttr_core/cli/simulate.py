"""`ttr simulate`: many bot games on a map, and a balance report."""

from __future__ import annotations

import shutil
from enum import StrEnum
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
    RuleChanges,
    SeedOption,
    checked_bots,
    fail,
    played_map,
    stop_on_sigterm,
    workers_from_options,
)
from ttr_core.cli.play import BOTS_HELP, PLAYERS_OPTION
from ttr_core.playtest.baseline import DEFAULT_GAMES
from ttr_maps.rules import MAX_GAMES

if TYPE_CHECKING:
    from ttr_core.playtest.executors import Workers
    from ttr_core.playtest.plan import RunPlan
    from ttr_core.playtest.report import Baseline

#: Games a run plays unless --games says otherwise.
DEFAULT_RUN_GAMES = 200

HELP = (
    "Play many bot games and write report.json, pictures and report.html to --out.\n\n"
    "Game i uses a seed derived from (--seed, i); seat s of game i is played by bot "
    "(s + i) mod the number of bots. The report is the same for any --jobs. The files "
    "are written into a temporary folder and moved into --out at the end, "
    "so a failure leaves --out as it was. See docs/play-testing.md for how to read it.\n\n"
    "--executor ray plays the games on Ray workers (a local instance, or a cluster with "
    "--address; pip install 'ttr-mapkit[cluster]'); see docs/cluster.md. The report is the same "
    "whichever executor and however many workers play it."
)


class BaselineChoice(StrEnum):
    """Where the findings' published-board baseline comes from."""

    auto = "auto"
    compute = "compute"
    off = "off"


@app.command(help=HELP)
def simulate(
    map_argument: MapArgument,
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the report.")],
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", min=1, max=MAX_GAMES, help=f"Games to play (at most {MAX_GAMES:,})."
        ),
    ] = DEFAULT_RUN_GAMES,
    players: PLAYERS_OPTION = 4,
    bots: Annotated[
        str,
        typer.Option(
            help="Bots, rotated over the seats game by game: 'greedy,long-route,random'. "
            f"Bots: {BOTS_HELP}."
        ),
    ] = "greedy",
    seed: SeedOption = 0,
    jobs: JobsOption = None,
    executor: ExecutorOption = DEFAULT_EXECUTOR,
    address: AddressOption = None,
    records: Annotated[
        bool, typer.Option("--records", help="Also write every game record to OUT/records/.")
    ] = False,
    changes: RuleChanges = None,
    baseline: Annotated[
        BaselineChoice,
        typer.Option(
            help="The published boards played by the same bots at the same table size, which "
            "every finding is set against: auto (shipped with ttr or cached; else played now, "
            f"{DEFAULT_GAMES:,} games on each published board with a progress bar, and cached "
            "for next time), compute (play it again now and cache it), off (set findings "
            "against fair shares instead, and say so).",
        ),
    ] = BaselineChoice.auto,
) -> None:
    from ttr_core.playtest.executors import SimulationError
    from ttr_core.playtest.folder import ReportFolderError, prepare_report_folder, write_report
    from ttr_core.playtest.plan import RunPlan
    from ttr_core.playtest.simulate import simulate as run
    from ttr_maps.io.files import describe_os_error
    from ttr_maps.render.figure import PreviewError

    stop_on_sigterm()
    where = workers_from_options(executor, jobs, address, games)
    plan = RunPlan(games, players, checked_bots(bots), seed)
    played = played_map(map_argument, changes)
    try:  # a folder that cannot take the report fails now, not after the games
        staging = prepare_report_folder(out)
    except ReportFolderError as error:
        raise fail(f"--out: {error}") from None
    try:
        published = published_baseline(baseline, plan, where)
        with GamesProgress(f"{played.map.id}: playing", games) as advance:
            result = run(played, plan, where, records=records, on_game=advance, baseline=published)
        try:
            write_report(
                result.report, played.map, out, result.scores, result.records, staging=staging
            )
        except (OSError, PreviewError, ReportFolderError) as error:
            message = describe_os_error(error) if isinstance(error, OSError) else error
            raise fail(f"cannot write the report to {out}: {message}") from None
    except SimulationError as error:
        raise fail(str(error), EXIT_FAILED) from None
    except KeyboardInterrupt:
        raise fail("interrupted: the games were stopped and no report was written", 130) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # gone already unless something failed
    from ttr_core.playtest.findings import summary_lines

    report = result.report
    for line in summary_lines(report):
        typer.echo(line)
    for name, rate in report.win_rate.by_bot.items():
        low, high = rate.ci95
        typer.echo(
            f"{name:>20}: wins {100 * rate.rate:5.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f})"
        )
    typer.echo(f"end reasons: {dict(report.end_reasons)}; stalls: {report.stalls.count}")
    typer.echo(f"report written to {out / 'report.html'}")
    raise typer.Exit(EXIT_OK)


def published_baseline(choice: BaselineChoice, plan: RunPlan, where: Workers) -> Baseline | None:
    """The baseline `--baseline` asks for: found (shipped or cached) or played now
    with a progress bar and cached (`auto`), played again (`compute`), or none."""
    from ttr_core.playtest.baseline import DEFAULT_GAMES, baseline_for, baseline_games

    if choice == BaselineChoice.off:
        return None
    total = baseline_games(plan.players, DEFAULT_GAMES)
    refresh = choice == BaselineChoice.compute
    description = f"baseline: {','.join(plan.bots)} at {plan.players} on the published boards"
    with GamesProgress(description, total) as advance:
        found, path = baseline_for(
            plan.bots, plan.players, where, advance, refresh=refresh, games=DEFAULT_GAMES
        )
    if path is not None:
        typer.echo(f"baseline cached in {path}", err=True)
    return found
