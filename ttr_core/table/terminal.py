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

import re
import sys
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from ttr_core.bots import Bot
from ttr_core.engine.actions import Action, DrawDeck, Resign
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.decisions import ChooseTickets, SecondCard, TunnelPayment
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.loop import StopGame, run
from ttr_core.engine.record import Note, Resumption
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
from ttr_core.table.journal import Event, Journal, Observed, retell
from ttr_core.table.progress import action_kinds, claimable_routes
from ttr_core.table.screen import Screen, render_screen, seat_name
from ttr_core.table.texts import COMMANDS_HELP, printable
from ttr_maps.io.limits import MAX_PLAYER_NAME_CHARS
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet

#: Clears a terminal's scrollback (xterm's `E3`; what `clear` sends after `2J`).
WIPE_SCROLLBACK = "\x1b[3J"

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
    #: What the people called themselves, per seat (None: nobody said).
    names: list[str | None] = field(default_factory=list)
    #: The notes written at the table (`note TEXT`), for the record.
    notes: list[Note] = field(default_factory=list)


@dataclass
class Continued:
    """A game to go on with (`ttr play --resume`): the game as its record left it,
    the journal retold from it, the people's names, the notes and the resumes
    that could not go on exactly."""

    state: GameState
    journal: Journal
    names: list[str | None]
    notes: list[Note]
    resumed: list[Resumption] = field(default_factory=list)


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

    def show(self, lines: Sequence[object], clear: bool = True, wipe: bool = False) -> None:
        """Print `lines`; at a terminal, on a cleared screen (`clear`), and with
        `wipe` on a cleared scrollback too (hot-seat: the next person cannot
        scroll back to the previous one's hand)."""
        if self.interactive and clear:
            self.console.clear()
            if wipe:
                self.console.file.write(WIPE_SCROLLBACK)
                self.console.file.flush()
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
    continued: Continued | None = None,
) -> Session:
    """Play one game: `None` in `players` is a person at `terminal`. Every seat,
    person or bot, sees only its own view and plays through the one game loop.
    `names` are the seats' players (`human`, a bot); with `continued`, the game
    goes on from where its record stopped."""
    if continued is not None:
        state, journal = continued.state, continued.journal
    else:
        state, journal = GameState(game_map, len(players), seed, rules), Journal()
    people = continued.names if continued is not None else [None] * len(players)
    table = TerminalTable(
        terminal,
        [people[seat] or name for seat, name in enumerate(names)],
        journal,
        lambda seat, action: why_not(state, seat, action),
        picture,
        sum(1 for p in players if p is None),
        welcome=list(welcome),
        person_names=list(people),
        notes=list(continued.notes) if continued is not None else [],
        played=lambda: len(state.history),
    )
    if continued is not None:  # what happened before is not news
        table.seen = {seat: len(journal.events) for seat in range(len(players))}
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
        return Session(state, True, True, table.person_names, table.notes)
    if not state.is_over:  # a person stopped: `StopGame` ended the loop's run
        stop = f"{table.stopped}: the game stops here, unfinished"
        terminal.show([*_end_of_prompt(terminal), stop], clear=False)
        return Session(state, True, False, table.person_names, table.notes)
    return Session(state, False, False, table.person_names, table.notes)


def continued_game(record: dict, game_map: Map) -> Continued:
    """The game a (schema-checked) record left, to go on with: replayed, its
    journal retold. Raises `RecordError` for a record that does not replay, or
    one whose game is over."""
    from ttr_core.engine.record import RecordError, names_of, notes_of, replay, resumptions_of

    state = replay({**record, "actions": []}, game_map)
    journal = Journal()
    try:
        retell(state, journal, ((e["seat"], e["action"]) for e in record["actions"]))
    except (IllegalAction, InvalidAction) as error:
        raise RecordError(f"the record does not replay: {error}") from None
    if state.is_over:
        raise RecordError("this game is over: `ttr replay` shows it")
    return Continued(state, journal, names_of(record), notes_of(record), resumptions_of(record))


def _wrapped(line: str, width: int) -> list[str]:
    """`line` wrapped at word boundaries; continued rows start under the line's
    text column (after its leading spaces and, for `  deck | d      draw …`, the
    gap of two or more spaces)."""
    if len(line) <= width:
        return [line]
    column = re.match(r"^(\s*\S.*?\s{2,})(?=\S)", line)
    indent = (
        len(column[1]) if column and len(column[1]) < width // 2 else len(line) - len(line.lstrip())
    )
    return textwrap.wrap(line, width, subsequent_indent=" " * indent, break_on_hyphens=False) or [
        line
    ]


def _cut(line: str, width: int) -> str:
    return line if len(line) <= width else line[: width - 1] + "…"


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
    #: What each person called themselves (None: not said), per seat.
    person_names: list[str | None] = field(default_factory=list)
    #: The notes written at this table (`note TEXT`).
    notes: list[Note] = field(default_factory=list)
    #: How many actions the game has played (where a note belongs).
    played: Callable[[], int] = lambda: 0
    #: The people who were asked their name (hot-seat, at their first pass screen).
    asked_names: set[int] = field(default_factory=set)
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
            # R4: the others' ticket choices, hidden now, are news once setup ends.
            table.seen[self.seat] = table.journal.first_hidden(table.seen.get(self.seat, 0), view)
        message = [*table.welcome, *self._news(view)]
        table.welcome = []
        if table.picture is not None:
            message += self._refresh_picture(view, table.picture)
        self._events = events
        listing: list[str] | None = None
        redraw = True
        while True:
            if listing is not None:
                terminal.show(_fit_listing(listing, *terminal.size()))
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
        """Hot-seat: hide the last screen, and the terminal's scrollback, until
        the next person is there. The first time, they may give their name."""
        table = self.table
        terminal = table.terminal
        name = seat_name(table.names, self.seat)
        asked = self.seat in table.asked_names
        if asked:
            lines = [f"Pass the terminal to seat {self.seat} ({name}) and press Enter."]
        else:
            lines = [
                f"Pass the terminal to seat {self.seat} ({name}).",
                "Type your name and press Enter (or just Enter).",
            ]
        terminal.show(lines, wipe=True)
        try:
            answer = terminal.ask("" if asked else "name> ")
        except EOFError:
            self._stop("input ended")
        if not asked:
            table.asked_names.add(self.seat)
            given = " ".join(answer.split())[:MAX_PLAYER_NAME_CHARS]
            if given and given.isprintable():
                table.person_names[self.seat] = given
                table.names = [*table.names[: self.seat], given, *table.names[self.seat + 1 :]]
                self.name = given

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
            if self._confirm(
                "Stop the game here? --record saves it, and `ttr play --resume` goes on "
                "with it. [y/N] "
            ):
                self._stop("quit")
            return None, ["the game goes on"], None
        if command.kind == "map":
            path = self.table.picture or Path(tempfile.gettempdir()) / (
                f"ttr-{view.map.id}-seat{self.seat}.png"
            )
            return None, self._write_picture(view, path), None
        if command.kind == "help":
            return None, [], [WRAP, *COMMANDS_HELP.splitlines()]
        if command.kind == "note":
            return None, [self._note(command.argument)], None
        if command.kind == "kinds":
            return None, [], ["What you may do now:", *action_kinds(view)]
        try:
            return None, [], self._routes(command.argument, view)
        except CommandError as error:
            return None, [str(error)], None

    def _note(self, text: str) -> str:
        """`note TEXT`: a remark kept in the game record, after the actions so far."""
        from ttr_maps.io.limits import MAX_NOTE_CHARS, MAX_NOTES

        text = text.strip()
        table = self.table
        if not text:
            return "write the remark after `note`: `note Denver is crowded`"
        if len(text) > MAX_NOTE_CHARS or not text.isprintable():
            return f"a note is one line of at most {MAX_NOTE_CHARS:,} printable characters"
        if len(table.notes) >= MAX_NOTES:
            return f"the game already keeps {MAX_NOTES} notes"
        writer = table.person_names[self.seat] or f"seat {self.seat}"
        table.notes.append(Note(table.played(), self.seat, writer, text))
        return "noted: the record keeps it (`--record FILE`)"

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


#: A listing that starts with this is wrapped at word boundaries (help text);
#: any other listing's lines are cut to the screen's width (one row each).
WRAP = "\x00wrap"


def _fit_listing(listing: list[str], width: int, height: int) -> list[str]:
    """A listing fitted above the prompt, one screen row per line (so that its
    heading never scrolls away), saying how to see the rest; help text wraps at
    word boundaries under its own column."""
    room = max(height - 2, 3)
    width = max(width, 20)
    if listing and listing[0] == WRAP:
        lines = [part for line in listing[1:] for part in _wrapped(printable(line), width)]
    else:
        lines = [_cut(printable(line), width) for line in listing]
    if len(lines) > room:
        more = len(lines) - room + 1
        lines = [*lines[: room - 1], f"  … {more} more: name a city (`routes denver`)"]
    return [*lines, "(Enter: back to the table)"]
