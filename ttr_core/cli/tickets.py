"""`ttr tickets`: analyse a map's ticket deck, or suggest one."""

from __future__ import annotations

import contextlib
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ttr_core.cli.app import EXIT_FAILED, EXIT_USAGE, CommandApp, app
from ttr_core.cli.common import (
    GamesProgress,
    JobsOption,
    MapArgument,
    checked_output,
    fail,
    load_map_argument,
    output_file,
    played_map,
)
from ttr_core.playtest.crowding import DEFAULT_CROWDING_GAMES
from ttr_maps.reports.tickets import REPORTERS
from ttr_maps.rules import (
    MAX_DECK_SAMPLES,
    MAX_GAMES,
    MAX_SUGGEST_ITERATIONS,
    MAX_SUGGESTED_LONG_TICKETS,
    MAX_SUGGESTED_TICKETS,
)


class _AnalyseByDefault(TyperGroup):
    """`ttr tickets MAP` means `ttr tickets analyse MAP`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["analyse", *args]
        return super().parse_args(ctx, args)


tickets_app = CommandApp(
    cls=_AnalyseByDefault,
    no_args_is_help=True,
    help=(
        "Ticket decks: `ttr tickets MAP` analyses the map's deck (the deck number: the "
        "share of held tickets players complete, predicted at 2–5 players and counted in "
        "greedy games; crowding in play; value profile, coverage, fragility); `ttr tickets "
        "suggest MAP --count N` proposes a deck aimed at a deck number. See docs/tickets.md."
    ),
)
app.add_typer(tickets_app, name="tickets")


#: `--format` choices, derived from the deck analysis reporters.
TicketsFormat = StrEnum("TicketsFormat", {name: name for name in REPORTERS})  # type: ignore[misc]
DEFAULT_FORMAT = TicketsFormat("text")


@tickets_app.command(bounded=True)
def analyse(
    map_argument: MapArgument,
    report_format: Annotated[
        TicketsFormat, typer.Option("--format", "-f", help="text: tables; json: for scripts.")
    ] = DEFAULT_FORMAT,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Also write a one-page figure (.png/.svg/.pdf): where the model of who "
            "wants what puts the crowding (its ranking) on the map at 2–5 players, value "
            "profile, coverage, regions, score among random decks.",
            parser=output_file,
        ),
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_DECK_SAMPLES,
            help="Random decks of the same size to set the score among "
            f"(0: none; at most {MAX_DECK_SAMPLES:,}).",
        ),
    ] = 300,
    seed: Annotated[int, typer.Option(help="Seed of the random decks.")] = 0,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            "-n",
            min=0,
            max=MAX_GAMES,
            help="Greedy games at 4 players (as many seat-games at 2, 3 and 5: 2N games at 2 "
            "players) that count ticket completion and the connections taken from players in "
            "play, at least; a table size plays on (up to 8 times as many) until its count of "
            "connections taken is known within ±7.5 % (95 %). 0: none, the model's numbers "
            "only.",
        ),
    ] = DEFAULT_CROWDING_GAMES,
    jobs: JobsOption = None,
) -> None:
    """Analyse a map's ticket deck (the default: `ttr tickets MAP`).

    The deck number: the share of held tickets greedy players complete, predicted
    at every table size from the deck and the board, and counted in --games greedy
    games a table size with the connections those games took from players who needed
    them (crowding in play). Then the structure: value profile against the published
    decks; coverage (tickets per city against degree, regions); the connections
    taken in play at each table size (with --games 0, a model's ranking of them:
    expected players wanting each route against its free tracks, R11, no count);
    fragility (single cheap path, pairs sharing most of their path); the deck number
    set among random decks of the same size.

    Exit status: 0 on success; 2 when the map cannot be read, has errors or no
    tickets, or when the --plot file cannot be written (checked before any work).
    """
    import sys
    from dataclasses import replace

    from ttr_maps.analysis.tickets import DeckError, analyse_deck
    from ttr_maps.render.figure import PreviewError, check_figure_path
    from ttr_maps.reports.tickets import plot_analysis

    checked_output(plot, "--plot", [map_argument])
    if plot is not None:
        try:
            check_figure_path(plot)
        except PreviewError as error:
            raise fail(str(error)) from None
    played = played_map(map_argument)
    try:
        analysis = analyse_deck(played.map, samples=samples, seed=seed)
    except DeckError as error:
        raise fail(f"{map_argument}: {error}") from None
    if games:
        analysis = replace(analysis, played=_played(analysis, played, games, jobs))
    REPORTERS[report_format.value](analysis, sys.stdout)
    if plot is not None:
        try:
            written = plot_analysis(analysis, plot)
        except PreviewError as error:
            raise fail(str(error)) from None
        typer.echo(f"wrote {written}", err=report_format != "text")


def _played(analysis: Any, played: Any, games: int, jobs: int | None) -> tuple[Any, ...]:
    """The deck in play at every table size, with its progress (whose total grows
    when a table size plays on until its count of connections taken is precise)."""
    import os

    from ttr_core.playtest.crowding import games_at, played_deck
    from ttr_core.playtest.executors import SimulationError, Workers

    sizes = analysis.board.rules.player_counts()
    where = Workers(min(jobs or os.cpu_count() or 1, games))
    found = []
    total = sum(games_at(players, games) for players in sizes)
    with GamesProgress(f"{played.map.id}: greedy games", total) as advance:
        try:
            for players in sizes:
                found.append(
                    played_deck(
                        played,
                        analysis.board,
                        players,
                        games_at(players, games),
                        where=where,
                        on_game=advance,
                        on_more=advance.more,
                    )
                )
        except SimulationError as error:
            raise fail(str(error), EXIT_FAILED) from None
        except KeyboardInterrupt:
            raise fail("interrupted: the games were stopped", 130) from None
    return tuple(found)


@tickets_app.command(bounded=True)
def suggest(
    map_argument: MapArgument,
    count: Annotated[
        int,
        typer.Option(
            "--count",
            "-n",
            min=1,
            max=MAX_SUGGESTED_TICKETS,
            help=f"Regular tickets (at most {MAX_SUGGESTED_TICKETS:,}).",
        ),
    ],
    long: Annotated[
        int | None,
        typer.Option(
            "--long",
            min=0,
            max=MAX_SUGGESTED_LONG_TICKETS,
            help="Long tickets (a separate deck, E4; at most "
            f"{MAX_SUGGESTED_LONG_TICKETS:,}). Default: as many as the map's rule "
            "set deals (5 with the europe rules, none with the base rules).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed: the same seed gives the same deck.")] = 0,
    iterations: Annotated[
        int,
        typer.Option(
            min=0,
            max=MAX_SUGGEST_ITERATIONS,
            help="Local-search steps (more: slower, often better; at most "
            f"{MAX_SUGGEST_ITERATIONS:,}).",
        ),
    ] = 3000,
    completion: Annotated[
        float | None,
        typer.Option(
            min=0.01,
            max=0.99,
            help="The deck number to aim at: the share of held tickets players complete "
            "at 4 players (e.g. 0.9). Default: the published decks' (about 0.95).",
        ),
    ] = None,
    profile: Annotated[
        str,
        typer.Option(
            help="Also resemble a published deck's values: north_america, europe, or none "
            "(the default: the deck number and the structure alone)."
        ),
    ] = "none",
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="Replace the map file's tickets: block in place (the rest of the file, "
            "comments included, is kept; written atomically, only if it validates).",
        ),
    ] = False,
) -> None:
    """Suggest a ticket deck for a map (deterministic for a seed).

    Aimed at a deck number (--completion: the share of held tickets players
    complete at 4 players, default the published decks'), with values by R2, every
    city some ticket may reach on a ticket (a dead end whose every ticket would be
    fragile is left off, and named), no duplicate or near-duplicate, no ticket `ttr
    validate` would warn about (TTR353 fragile, TTR354 one route or worth less than
    4), a deck size TTR352 accepts and, among decks as near the target, a sound
    structure. Prints the tickets: block as YAML (the numbers go to stderr) unless
    --write.

    Exit status: 0 on success; 2 when the map cannot be read or has errors, when
    no such deck exists (e.g. too few tickets to cover the cities) or the file
    cannot be written.
    """
    from ttr_maps.analysis.tickets import (
        DeckError,
        TicketBoard,
        deck_size_problem,
        default_long_tickets,
        measure_deck,
        suggest_deck,
    )
    from ttr_maps.authoring.ticket_block import deck_to_yaml, write_deck
    from ttr_maps.io.bundled import resolve_map_argument
    from ttr_maps.io.files import FileSnapshot, describe_os_error, read_snapshot
    from ttr_maps.io.limits import MAX_MAP_BYTES

    snapshot: FileSnapshot | None = None
    if write:  # the file as read before the map: replaced only if it is still this one
        # If it cannot be read, the map's loading says why, in its words, just below.
        with contextlib.suppress(OSError, ValueError):
            snapshot = read_snapshot(resolve_map_argument(map_argument), MAX_MAP_BYTES)
    game_map = load_map_argument(map_argument)
    try:
        board = TicketBoard(game_map)
    except DeckError as error:
        raise fail(f"{map_argument}: {error}") from None
    long = default_long_tickets(board.rules) if long is None else long
    problem = deck_size_problem(board.rules, count, long)
    if problem:  # the deck would not pass `ttr validate --strict` (TTR352)
        raise fail(f"{map_argument}: {problem}")
    try:
        suggestion = suggest_deck(
            board, count, long, seed=seed, iterations=iterations, profile=profile,
            completion=completion,
        )  # fmt: skip
    except DeckError as error:
        raise fail(f"{map_argument}: {error}") from None
    deck = list(suggestion.tickets)
    aim = f" --completion {completion:g}" if completion is not None else ""
    options = f"--count {count} --long {long} --seed {seed}{aim} --profile {profile}"
    comment = f"Suggested by `ttr tickets suggest {options}` (values by R2)."
    new = measure_deck(board, deck)
    summary = (
        f"suggested deck: deck number {100 * new.deck_number:.0f} % at "
        f"{new.reference_players} players (aimed at {100 * suggestion.target:.0f} %), "
        f"structure {new.score.total:.1f}"
    )
    if game_map.tickets:
        own = measure_deck(board, game_map.tickets)
        summary += (
            f"; the map's own deck: deck number {100 * own.deck_number:.0f} %, structure "
            f"{own.score.total:.1f}"
        )
    if suggestion.uncovered:
        summary += (
            f"; left off (every ticket to them would be fragile, TTR353: a dead end on one "
            f"single-track route): {', '.join(suggestion.uncovered)}"
        )
    if not write:
        typer.echo(deck_to_yaml(deck, comment), nl=False)
        typer.echo(summary, err=True)
        return
    path = resolve_map_argument(map_argument)
    try:
        write_deck(path, deck, comment, snapshot)
    except DeckError as error:
        raise fail(str(error)) from None
    except OSError as error:
        raise fail(f"{path}: cannot write: {describe_os_error(error)}", EXIT_USAGE) from None
    typer.echo(f"wrote {len(deck)} tickets to {path}; {summary}")
