"""Playing in the terminal: people and bots at one table (hot-seat).

A person is a seat like a bot (`Person.act(view) -> Action`), so the game runs
through the one game loop (`ttr_core.engine.loop.play_out`). Inside `act` the person sees
one screen, redrawn (`ttr_core.table.screen`), and types commands
(`ttr_core.table.commands`): `deck`, `m 3`, `claim dallas little rock`, `routes`,
`help`, … A command that cannot be read or is not legal changes nothing; the
message says why (the rule, for an illegal action) and the person types again.

When stdin is a terminal, lines are read with readline (history, Tab completes
commands and city names) and the screen is cleared and redrawn; otherwise lines
are read one by one, without prompts, and each screen is printed once. `quit`
and the end of the input stop the game (`StopGame`), Ctrl-C too
(KeyboardInterrupt): the session returns the game so far, to be saved.

With several people at one terminal, a "pass to seat N" screen hides the
previous person's hand until the next one presses Enter.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from ttr_core.bots import Bot
from ttr_core.engine.actions import Action, DrawDeck, Resign
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.decisions import ChooseTickets, SecondCard, TunnelPayment
from ttr_core.engine.loop import StopGame, run
from ttr_core.engine.state import GameState
from ttr_core.engine.view import PlayerView
from ttr_core.table.commands import (
    MAX_DIGITS,
    ChoosePayment,
    CommandError,
    Look,
    Play,
    completions,
    find_city,
    is_number,
    parse_command,
    why_not,
)
from ttr_core.table.input_lines import iter_bounded_lines
from ttr_core.table.journal import Event, Journal, Observed
from ttr_core.table.progress import action_kinds, claimable_routes
from ttr_core.table.screen import Screen, render_screen, seat_name
from ttr_core.table.texts import COMMANDS_HELP, printable
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet

if TYPE_CHECKING:
    from rich.console import Console


@dataclass
class Session:
    """How a terminal game ended for the people at the table."""

    state: GameState
    #: True when someone typed `quit` or the input ended before the game did.
    stopped: bool = False
    #: True when the session was stopped by Ctrl-C (KeyboardInterrupt).
    interrupted: bool = False


@dataclass
class Terminal:
    """Where the table reads and writes. `interactive`: a person at a terminal
    (clear and redraw, prompts); otherwise lines come from a script."""

    console: Console
    read_line: Callable[[str], str]
    interactive: bool

    def size(self) -> tuple[int, int]:
        width, height = self.console.size
        return width, height

    def show(self, lines: Sequence[object], clear: bool = True) -> None:
        if self.interactive and clear:
            self.console.clear()
        for line in lines:
            self.console.print(line, soft_wrap=True, highlight=False, markup=False)

    def ask(self, prompt: str) -> str:
        """One line; EOFError at the end of the input. No prompt for a script."""
        return self.read_line(prompt if self.interactive else "")


def stdin_terminal(console: Console, game_map: Map) -> Terminal:
    """The terminal of `ttr play`: readline with history and Tab completion when
    stdin is a terminal, else plain lines from stdin."""
    if sys.stdin is not None and sys.stdin.isatty():
        _set_up_readline(game_map)
        return Terminal(console, input, True)
    lines = iter_bounded_lines(sys.stdin)  # a pipe may send anything: bounded lines

    def read_line(prompt: str) -> str:
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    return Terminal(console, read_line, False)


def _set_up_readline(game_map: Map) -> None:
    try:
        import readline
    except ImportError:  # a Python without readline: plain input() still works
        return
    offers: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            buffer = readline.get_line_buffer()[: readline.get_endidx()]
            offers[:] = completions(buffer, game_map)
            if len(offers) == 1:  # a whole word: go on typing the next one
                offers[0] += " "
        return offers[state] if state < len(offers) else None

    readline.set_completer_delims(" ")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


def play_at_table(
    game_map: Map,
    players: Sequence[Bot | None],
    names: Sequence[str],
    seed: int,
    terminal: Terminal,
    picture: Path | None = None,
    welcome: Sequence[str] = (),
    rules: str | RuleSet | None = None,
) -> Session:
    """Play one game: `None` in `players` is a person at `terminal`. Every seat,
    person or bot, sees only its own view and plays through the one game loop."""
    state = GameState(game_map, len(players), seed, rules)
    journal = Journal()
    table = TerminalTable(
        terminal,
        names,
        journal,
        lambda seat, action: why_not(state, seat, action),
        picture,
        sum(1 for p in players if p is None),
        welcome=list(welcome),
    )
    seats = [
        Observed(Person(seat, table) if player is None else player, journal)
        for seat, player in enumerate(players)
    ]
    try:
        run(state, seats)
    except KeyboardInterrupt:  # Ctrl-C: stop like `quit`, keeping the game so far
        terminal.show(
            [*_end_of_prompt(terminal), "interrupted: the game stops here, unfinished"], clear=False
        )
        return Session(state, stopped=True, interrupted=True)
    if not state.is_over:  # a person stopped: `StopGame` ended the loop's run
        stop = f"{table.stopped}: the game stops here, unfinished"
        terminal.show([*_end_of_prompt(terminal), stop], clear=False)
        return Session(state, stopped=True)
    return Session(state)


def _end_of_prompt(terminal: Terminal) -> list[str]:
    """An empty line to end a prompt left open by Ctrl-C or Ctrl-D at a terminal."""
    return [""] if terminal.interactive else []


@dataclass
class TerminalTable:
    """What the people at one table share: the terminal, the journal of the game,
    who saw what, and the board picture."""

    terminal: Terminal
    names: Sequence[str]
    journal: Journal
    #: Explains why an action is not legal for a seat (the rule), from the game.
    judge: Callable[[int, Action], str]
    #: `--picture`: the board picture refreshed on every person's turn.
    picture: Path | None = None
    people: int = 1
    #: Per seat, the length of the journal when its last turn began.
    seen: dict[int, int] = field(default_factory=dict)
    #: The seat whose screen is shown now (hot-seat hides it from the next).
    showing: int | None = None
    #: Why a person stopped the game ("quit", "input ended"), if one did.
    stopped: str = ""
    #: Shown under the first screen: who sits where.
    welcome: list[str] = field(default_factory=list)
    _drawn: tuple | None = None


class Person:
    """A seat played by a person at the table."""

    def __init__(self, seat: int, table: TerminalTable) -> None:
        self.seat = seat
        self.table = table
        self.name = table.names[seat]
        self._last: tuple[Action, tuple[int, ...]] | None = None
        self._events: list[Event] = []
        #: What was new when my turn began (shown until the turn ends).
        self._turn_start: list[Event] = []

    def act(self, view: PlayerView) -> Action:
        table = self.table
        terminal = table.terminal
        if table.people > 1 and table.showing != self.seat:
            self._pass_screen()
        table.showing = self.seat
        # `seen`: where the journal stood when my last turn began. A turn goes
        # on after a first card, a tunnel's cards or drawing tickets.
        table.journal.settle_tunnel(view)
        new = table.journal.since(table.seen.get(self.seat, 0), view)
        goes_on = isinstance(view.decision, SecondCard | TunnelPayment) or (
            isinstance(view.decision, ChooseTickets) and view.phase == "playing"
        )
        if goes_on:
            events = [*self._turn_start, *new]
        else:
            events = self._turn_start = new
            table.seen[self.seat] = len(table.journal.events)
        message = [*table.welcome, *self._news(view)]
        table.welcome = []
        if table.picture is not None:
            message += self._refresh_picture(view, table.picture)
        self._events = events
        listing: list[str] | None = None
        redraw = True
        while True:
            if listing is not None:
                terminal.show(_fit_listing(listing, terminal.size()[1]))
            elif redraw or terminal.interactive:
                self._show_table(view, message)
            else:  # a script sees the table once, then only the answers
                terminal.show(message, clear=False)
            try:
                line = terminal.ask(f"seat {self.seat} {seat_name(table.names, self.seat)}> ")
            except EOFError:
                self._stop("input ended")
            action, message, listing = self._answer(line, view)
            redraw = not line.strip()
            if action is not None:
                self._last = (action, view.hand)
                return action

    # ---------------------------------------------------------------- parts

    def _stop(self, reason: str) -> NoReturn:
        """Stop the game unfinished: the game loop ends where it is."""
        self.table.stopped = reason
        raise StopGame(reason)

    def _show_table(self, view: PlayerView, message: list[str]) -> None:
        width, height = self.table.terminal.size()
        screen = Screen(self.table.names, self._events, message)
        self.table.terminal.show(render_screen(view, screen, width, height))

    def _pass_screen(self) -> None:
        terminal = self.table.terminal
        name = seat_name(self.table.names, self.seat)
        terminal.show([f"Pass the terminal to seat {self.seat} ({name}) and press Enter."])
        try:
            terminal.ask("")
        except EOFError:
            self._stop("input ended")

    def _news(self, view: PlayerView) -> list[str]:
        """What my last action brought that the screen does not say: the card
        drawn blind from the deck."""
        if self._last is None or not isinstance(self._last[0], DrawDeck):
            return []
        before = self._last[1]
        drawn = [
            CARD_NAMES[card]
            for card, (old, new) in enumerate(zip(before, view.hand, strict=True))
            for _ in range(new - old)
        ]
        return [f"from the deck you drew {', '.join(drawn)}"] if drawn else []

    def _refresh_picture(self, view: PlayerView, path: Path) -> list[str]:
        """`--picture`: draw the board again when it changed."""
        drawn = (view.owners, view.station_owners, self.seat, view.tickets)
        if self.table._drawn == drawn:
            return []
        self.table._drawn = drawn
        return self._write_picture(view, path)

    def _write_picture(self, view: PlayerView, path: Path) -> list[str]:
        from ttr_core.table.picture import draw_board
        from ttr_maps.render.figure import PreviewError

        mine = {c for t in view.tickets for c in (t.ticket.a, t.ticket.b)}
        # Hot-seat: a shared picture does not show one person's tickets.
        shown = mine if self.table.people == 1 or path != self.table.picture else set()
        try:
            draw_board(
                view.map,
                view.owners,
                view.station_owners,
                self.table.names,
                path,
                f"{view.map.name}: the board at seat {self.seat}'s turn",
                shown,
            )
        except PreviewError as error:
            return [f"the picture could not be written: {error}"]
        return [f"board picture: {path}"]

    def _answer(
        self, line: str, view: PlayerView
    ) -> tuple[Action | None, list[str], list[str] | None]:
        """What `line` asks for: an action to play, or None with a message to show
        under the table, or a listing to show instead of it."""
        try:
            command = parse_command(line, view)
        except CommandError as error:
            return None, [f"{error} (nothing changed)"], None
        if isinstance(command, Look):
            return self._look(command, view)
        if isinstance(command, ChoosePayment):
            chosen = self._choose(command, view)
            if chosen is None:
                return None, ["no payment chosen (nothing changed)"], None
            command = Play(chosen)
        action, message = self._check(command.action, view)
        return action, message, None

    def _check(self, action: Action, view: PlayerView) -> tuple[Action | None, list[str]]:
        """The action if it is legal now; else the rule that forbids it."""
        if isinstance(action, Resign):
            if self._confirm("Resign? Your routes stay, you leave the game (D5). [y/N] "):
                return action, []
            return None, ["you stay in the game"]
        if action in view.legal_actions():
            return action, []
        return None, [f"not possible: {self.table.judge(self.seat, action)} (nothing changed)"]

    def _confirm(self, question: str) -> bool:
        terminal = self.table.terminal
        if not terminal.interactive:
            terminal.show([question.strip()], clear=False)
        try:
            return terminal.ask(question).strip().casefold() in ("y", "yes")
        except EOFError:
            self._stop("input ended")

    def _choose(self, question: ChoosePayment, view: PlayerView) -> Action | None:
        """Ask which payment (under the table); None when the answer is not one."""
        lines = [question.question]
        lines += [f"  {n}  {label}" for n, label in enumerate(question.labels, start=1)]
        terminal = self.table.terminal
        if terminal.interactive:
            self._show_table(view, lines)
        else:
            terminal.show(lines, clear=False)
        try:
            answer = terminal.ask(f"number 1-{len(question.options)} (Enter cancels)> ").strip()
        except EOFError:
            self._stop("input ended")
        if (
            is_number(answer)
            and len(answer) <= MAX_DIGITS
            and 1 <= int(answer) <= len(question.options)
        ):
            return question.options[int(answer) - 1]
        return None

    def _look(self, command: Look, view: PlayerView) -> tuple[None, list[str], list[str] | None]:
        """Answer a command that looks and changes nothing: a message, or a listing."""
        if command.kind == "redraw":
            return None, [], None
        if command.kind == "quit":
            if self._confirm("Stop the game here? It is saved unfinished with --record. [y/N] "):
                self._stop("quit")
            return None, ["the game goes on"], None
        if command.kind == "map":
            path = self.table.picture or Path(tempfile.gettempdir()) / (
                f"ttr-{view.map.id}-seat{self.seat}.png"
            )
            return None, self._write_picture(view, path), None
        if command.kind == "help":
            return None, [], COMMANDS_HELP.splitlines()
        if command.kind == "kinds":
            return None, [], ["What you may do now:", *action_kinds(view)]
        try:
            return None, [], self._routes(command.argument, view)
        except CommandError as error:
            return None, [str(error)], None

    def _routes(self, argument: str, view: PlayerView) -> list[str]:
        city = find_city(argument.split(), view.map) if argument.strip() else None
        offers = claimable_routes(view, city)
        where = f" touching {printable(city)}" if city else ""
        if not offers:
            if view.decision is not None or view.to_move != view.seat:
                return ["claims start a turn; finish what you are doing first"]
            return [f"no route{where} you can claim and pay for now"]
        return [f"You can claim {len(offers)} route(s){where} (* on a ticket's path):"] + [
            " " + o.line(view) for o in offers
        ]


def _fit_listing(listing: list[str], height: int) -> list[str]:
    """A listing cut to fit above the prompt, saying how to see the rest."""
    room = max(height - 2, 3)
    lines = [printable(line) for line in listing]
    if len(lines) > room:
        more = len(lines) - room + 1
        lines = [*lines[: room - 1], f"  … {more} more: name a city (`routes denver`)"]
    return [*lines, "(Enter: back to the table)"]
