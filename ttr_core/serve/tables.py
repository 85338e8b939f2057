"""The games a server holds: one `Table` per game, kept by a `TableRegistry`.

A table is a `GameState` plus who sits where. People sit down with a secret token
(one per person's seat, and one shared by everyone watching, made by `secrets`;
only their SHA-256 digests are kept); bots think in `ttr_core.serve.thinkers`, off
the event loop, and their moves are played through the project's one game loop
(`ttr_core.engine.loop.run`) at the table's pace, so that people can follow them.
Everything that changes the game goes through `GameState.apply`: an illegal action
raises the engine's error and changes nothing.

Secrets stay secret from the players: a game's seed (from which every shuffle
follows) is drawn at random and shown to no seat and no one watching before the end,
unless the host asked for a seed (a *fixed deal*, for a solo test or to replay a
deal): then every seat's page says so. Not from the host: the seed is stored as it
is (see docs/play-testing.md, what the host can know).

Every table is stored (`ttr_core.serve.store`) when it starts, and every change
is stored *before* it is made: an action is tried on a copy of the game (an
illegal one is refused there), written, and only then played on the table
everyone sees (`TableRegistry.play`, and the driver's `Table.plan`/`Table.commit`
for bots and clocks); one change at a time per table (`Table.lock`). A change
that cannot be written raises `StoreUnavailable` and is not made. A retry of a
person's move (the same move id) is answered, not played again. The registry
reads the unfinished tables back when the server starts;
a table nobody looked at for a while leaves memory (and its slot) but not the
database: its links open it again. A finished table leaves memory sooner.

>>> from ttr_maps import load_map
>>> table, tokens = new_table(load_map("north_america"), "north_america", ["human", "greedy"])
>>> table.state.phase, table.seat_of(tokens[0]), table.seat_of("nope"), table.fixed_deal
('setup', 0, None, False)
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr_core.bots import Bot, bot_factories, is_heavy, make_bot
from ttr_core.engine.actions import HOST_ACTIONS, Action, TimeOut
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.loop import StopGame, bot_seed, run
from ttr_core.engine.record import Note, order_for_fingerprint, state_fingerprint
from ttr_core.engine.state import GameState
from ttr_core.serve.thinkers import Move, Thinkers
from ttr_core.table import HUMAN
from ttr_core.table.journal import Event, Journal, retell
from ttr_maps.io.limits import MAX_NOTE_CHARS, MAX_NOTES, MAX_PLAYER_NAME_CHARS
from ttr_maps.model import Map
from ttr_maps.rules import BASE, RuleSet

if TYPE_CHECKING:
    from ttr_core.serve.store import StoredGame, TableStore

log = logging.getLogger("ttr.serve")

#: Seconds between two bot moves that people can pick on the page (0: at once).
PACES: dict[str, float] = {"instant": 0.0, "fast": 0.35, "normal": 0.9, "slow": 1.8}
DEFAULT_PACE = "normal"
#: An unfinished table nobody has asked about for this long leaves memory (it
#: stays in the database; its links bring it back).
DEFAULT_IDLE_SECONDS = 2 * 3600.0
#: A finished table leaves memory after this long without a look.
FINISHED_IDLE_SECONDS = 10 * 60.0
#: Games not changed for this many days are deleted from the database.
DEFAULT_KEEP_DAYS = 30.0
DEFAULT_MAX_TABLES = 200
#: Most seats of heavy bots (`search`) playing at once on one server.
DEFAULT_MAX_HEAVY_SEATS = 8
#: The turn timer, when a table has one: seconds a person has for a turn.
TURN_SECONDS_MIN, TURN_SECONDS_MAX = 10, 3600
#: Seeds the host may ask for (SQLite keeps 64-bit integers); random seeds have
#: `RANDOM_SEED_BITS` bits (exact in JavaScript numbers too).
MAX_SEED = 2**63 - 1
RANDOM_SEED_BITS = 53
#: The bot that plays people's seats in the test-only fast-forward.
FAST_FORWARD_BOT = "greedy"
#: How often idle tables and old games are looked for.
JANITOR_SECONDS = 60.0
#: How long a table's driver waits before it tries again to store a move that
#: could not be stored.
STORE_RETRY_SECONDS = 2.0


class TableError(ValueError):
    """A table cannot be set up (or changed) as asked; the message says why."""


class NoteLimit(TableError):
    """A note over the game's limit or the writer's rate."""


class RegistryFull(RuntimeError):
    """The server holds as many games (or heavy bots) as it may."""


class StoreUnavailable(RuntimeError):
    """A change could not be stored (a full disk, a damaged database): it was not
    made; the message says so in a person's words."""


#: A move id a page may send (`TableRegistry.play`): letters, digits, `-` and `_`.
MAX_MOVE_ID_CHARS = 64
#: Notes per seat (or per watcher) in `NOTE_WINDOW_SECONDS` (then 429).
NOTES_PER_WINDOW = 10
NOTE_WINDOW_SECONDS = 10.0


@dataclass(frozen=True)
class Planned:
    """An action the table is about to play (written first, then applied)."""

    seat: int | None
    action: Action
    remark: str | None = None
    move: str | None = None


def digest(token: str) -> str:
    """What is kept of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def random_seed() -> int:
    return secrets.randbits(RANDOM_SEED_BITS)


def clean_name(text: object) -> str:
    """A person's name as the table keeps it: 1 to `MAX_PLAYER_NAME_CHARS` characters
    once trimmed, no control characters. Raises `TableError`."""
    if not isinstance(text, str):
        raise TableError("a name is a text")
    name = " ".join(text.split())
    if not 1 <= len(name) <= MAX_PLAYER_NAME_CHARS:
        raise TableError(f"a name has 1 to {MAX_PLAYER_NAME_CHARS} characters")
    if not name.isprintable():
        raise TableError("a name may not hold control characters")
    return name


def clean_note(text: object) -> str:
    """A note as the table keeps it: 1 to `MAX_NOTE_CHARS` characters, no control
    characters but line breaks and tabs. Raises `TableError`."""
    if not isinstance(text, str):
        raise TableError("a note is a text")
    note = text.strip().replace("\r\n", "\n")
    if not 1 <= len(note) <= MAX_NOTE_CHARS:
        raise TableError(f"a note has 1 to {MAX_NOTE_CHARS} characters")
    if not all(c.isprintable() or c in "\n\t" for c in note):
        raise TableError("a note may not hold control characters")
    return note


class _Person:
    """A person's seat in the game loop: their moves come by HTTP, so when it is
    their turn the loop stops and waits for them."""

    name = HUMAN

    def act(self, view: object) -> Action:
        raise StopGame


@dataclass
class Seat:
    player: str
    #: The SHA-256 of a person's token (`digest`); None for a bot.
    token_digest: str | None = None
    bot: Bot | None = None
    #: What the person here said to call them.
    name: str | None = None
    #: A bot that thinks in a worker process (and counts against the cap).
    heavy: bool = False


@dataclass
class Table:
    id: str
    map_key: str
    state: GameState
    seats: list[Seat]
    pace: str
    spectator_digest: str
    #: The host chose the seed: whoever knows it knows every card (said to all).
    fixed_deal: bool = False
    #: The turn timer (a table setting): seconds a person has for a turn, or None.
    turn_seconds: float | None = None
    created: float = 0.0
    #: When someone last looked (the registry's clock).
    last_active: float = 0.0
    #: When the last action was applied (bots wait `PACES[pace]` after it).
    last_move_at: float = 0.0
    #: Grows with every change a page should fetch (actions, pace, names, notes).
    revision: int = 0
    #: Drawn each time the table comes into memory: a page compares
    #: `generation.revision` (`revision_tag`), so a restart or a reload of an idle
    #: table never looks like "nothing changed".
    generation: str = field(default_factory=lambda: secrets.token_hex(6))
    #: One change at a time: tried, stored, applied (`TableRegistry`).
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The action number of each person's move that came with a move id, by
    #: (seat, id): a retry of it is answered, not played again.
    moves: dict[tuple[int, str], int] = field(default_factory=dict)
    #: When each seat (None: someone watching) sent its last notes (the rate limit).
    _note_times: dict[int | None, list[float]] = field(default_factory=dict)
    #: What everyone saw happen, in the table's words (the page's log).
    journal: Journal = field(default_factory=Journal)
    notes: list[Note] = field(default_factory=list)
    #: Bots' moves thought and not played yet, by seat.
    answers: dict[int, Move] = field(default_factory=dict)
    #: The bot seats thinking now.
    thinking: set[int] = field(default_factory=set)
    #: What the table said besides an action, by action number (a bot out of time).
    remarks: dict[int, str] = field(default_factory=dict)
    #: Per person's seat on the clock: (which turn, when it began).
    _clocks: dict[int, tuple[int, float]] = field(default_factory=dict)
    #: Set when something happened that the table's driver should look at.
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    _result: dict | None = field(default=None, repr=False)

    # ---------------------------------------------------------------- who
    @property
    def players(self) -> list[str]:
        return [seat.player for seat in self.seats]

    @property
    def names(self) -> list[str | None]:
        return [seat.name for seat in self.seats]

    def seat_of(self, token: str) -> int | None:
        """The person's seat whose token this is, or None (compared in constant time)."""
        given = digest(token)
        found = None
        for index, seat in enumerate(self.seats):
            if seat.token_digest is not None and secrets.compare_digest(seat.token_digest, given):
                found = index
        return found

    def is_spectator(self, token: str) -> bool:
        return secrets.compare_digest(self.spectator_digest, digest(token))

    @property
    def heavy_seats(self) -> int:
        return sum(seat.heavy for seat in self.seats)

    @property
    def revision_tag(self) -> str:
        """What a page compares to know whether anything changed (`since=`)."""
        return f"{self.generation}.{self.revision}"

    # ---------------------------------------------------------------- people
    def set_pace(self, pace: str) -> None:
        self.pace = check_pace(pace)
        self.revision += 1
        self.wake.set()

    def name_for(self, seat: int, name: object) -> str:
        """The name `seat` asks for, cleaned; raises `TableError` for a bad one or
        one another seat already has (names say who is who)."""
        cleaned = clean_name(name)
        for other, entry in enumerate(self.seats):
            if (
                other != seat
                and entry.name is not None
                and entry.name.casefold() == (cleaned.casefold())
            ):
                raise TableError(f"seat {other} is already called {entry.name!r}")
        return cleaned

    def set_name(self, seat: int, name: object) -> str:
        cleaned = self.name_for(seat, name)
        self.seats[seat].name = cleaned
        self.revision += 1
        return cleaned

    def note_for(self, seat: int | None, text: object, name: object, now: float) -> Note:
        """The note a seat (None: someone watching, who may give a name) would add;
        raises `TableError` for a bad one, `NoteLimit` past the game's notes or
        the writer's rate (`NOTES_PER_WINDOW` in `NOTE_WINDOW_SECONDS`)."""
        if len(self.notes) >= MAX_NOTES:
            raise NoteLimit(f"this game already keeps {MAX_NOTES} notes")
        recent = [t for t in self._note_times.get(seat, []) if now - t < NOTE_WINDOW_SECONDS]
        self._note_times[seat] = recent
        if len(recent) >= NOTES_PER_WINDOW:
            raise NoteLimit(
                f"at most {NOTES_PER_WINDOW} notes in {NOTE_WINDOW_SECONDS:g} seconds: "
                "wait a moment"
            )
        if seat is not None:
            writer = self.seats[seat].name or f"seat {seat} ({self.seats[seat].player})"
        elif name is None:
            writer = "someone watching"
        else:
            # Someone watching signs as a watcher: never as one of the seats.
            writer = f"{clean_name(name)} (watching)"
        return Note(len(self.state.history), seat, writer, clean_note(text))

    def add_note(self, note: Note, now: float) -> None:
        self.notes.append(note)
        self._note_times.setdefault(note.seat, []).append(now)
        self.revision += 1

    def check_act(self, seat: int, action: Action) -> None:
        """Raise the engine's IllegalAction or InvalidAction if `seat` may not play
        `action` now (tried on a copy: the table is not changed). Removing a seat
        or timing one out is the host's action (D5), never a seat's."""
        if isinstance(action, HOST_ACTIONS):
            raise IllegalAction("D5", f"only the host may {str(action).split()[0]} a seat")
        self.state.clone().apply(action, seat)  # type: ignore[attr-defined]

    def commit(self, planned: Sequence[Planned], now: float) -> None:
        """Play actions already stored (tried before: they apply), each told in
        the journal from its seat's view (a host's action: the seat it names)."""
        for entry in planned:
            action = entry.action
            actor = entry.seat if entry.seat is not None else getattr(action, "seat", 0)
            seen = self.state.view(actor)
            self.state.apply(action, entry.seat)
            self.journal.observe(seen, action)
            number = len(self.state.history) - 1
            if entry.remark:
                self.remarks[number] = entry.remark
                self.journal.events.append(Event(actor, entry.remark))
            if entry.move is not None and entry.seat is not None:
                self.moves[(entry.seat, entry.move)] = number
            if entry.seat is not None and self.answers.get(entry.seat) is not None:
                answer = self.answers[entry.seat]
                if answer.action == action and self.seats[entry.seat].bot is not None:
                    del self.answers[entry.seat]
            self._moved(now)

    def _moved(self, now: float) -> None:
        self.last_move_at = now
        self.revision += 1
        self.clock_left(now)  # a turn that began with this action is timed from now
        self.wake.set()

    # ---------------------------------------------------------------- bots and clocks
    def bots_to_think(self) -> list[int]:
        """The bot seats with a decision now, not thinking and without an answer:
        during setup every bot still choosing tickets (all choose at once, R4),
        then the bot whose turn it is."""
        state = self.state
        if state.is_over:
            return []
        if state.phase == "setup":
            seats = [d.seat for d in state.pending]
        else:
            seats = [state.to_move] if state.to_move is not None else []
        return [
            s
            for s in seats
            if self.seats[s].bot is not None and s not in self.thinking and s not in self.answers
        ]

    def on_clock(self) -> list[int]:
        """The people whose turn or choice is running (the turn timer's seats)."""
        state = self.state
        if self.turn_seconds is None or state.is_over:
            return []
        if state.phase == "setup":
            seats = [d.seat for d in state.pending]
        else:
            seats = [state.to_move] if state.to_move is not None else []
        return [s for s in seats if self.seats[s].bot is None]

    def clock_left(self, now: float) -> dict[int, float]:
        """Seconds left per person on the clock (their clock starts now if their
        turn just began)."""
        if self.turn_seconds is None:
            return {}
        turn = -1 if self.state.phase == "setup" else self.state.turns
        left = {}
        for seat in self.on_clock():
            started = self._clocks.get(seat)
            if started is None or started[0] != turn:
                started = self._clocks[seat] = (turn, now)
            left[seat] = max(started[1] + self.turn_seconds - now, 0.0)
        return left

    def due_in(self, now: float) -> float | None:
        """Seconds until the table has something to do by itself (0: now): a bot's
        move thought and due at the pace, or a turn timer running out; None when
        it waits for people (or is over)."""
        state = self.state
        if state.is_over:
            return None
        waits = list(self.clock_left(now).values())
        seat = state.to_move
        if seat is not None and seat in self.answers:
            delay = PACES[self.pace] if state.phase == "playing" else 0.0
            waits.append(max(self.last_move_at + delay - now, 0.0))
        return min(waits) if waits else None

    def plan(self, now: float) -> list[Planned]:
        """What is due (see `due_in`), tried on a copy of the game and not played:
        the people out of time timed out (D5's `timeout N`), the bots' moves that
        are ready played through the one game loop, one at a time at a pace other
        than `instant` (choices of tickets at setup are never delayed: nobody sees
        them). The registry stores them, then `commit`s them."""
        trial: GameState = self.state.clone()  # type: ignore[assignment]
        planned: list[Planned] = []
        for seat, left in self.clock_left(now).items():
            if left <= 0:
                timeout = TimeOut(seat)
                trial.apply(timeout)
                planned.append(Planned(None, timeout))
        delay = PACES[self.pace]
        if trial.is_over or (
            delay > 0 and trial.phase == "playing" and now < self.last_move_at + delay
        ):
            return planned
        used: set[int] = set()

        def after_move(state: GameState, seat: int, action: Action) -> None:
            planned.append(Planned(seat, action, self.answers[seat].remark))
            used.add(seat)
            if delay > 0 and state.phase != "setup":
                raise StopGame  # the next move waits for its turn at this pace

        players = [
            _PERSON if seat.bot is None else _BotSeat(self, index, used)
            for index, seat in enumerate(self.seats)
        ]
        run(trial, players, after_move)
        return planned

    def fast_forward_plan(self) -> list[Planned]:
        """Test hook: bots play every seat, people's too, to the end of the game
        (on a copy, here on the event loop); the actions to store and commit."""
        trial: GameState = self.state.clone()  # type: ignore[assignment]
        first = len(trial.history)
        stand_ins = [
            make_bot(FAST_FORWARD_BOT, bot_seed(self.state.seed, index))
            if seat.bot is None
            else make_bot(seat.player, bot_seed(self.state.seed, index))
            for index, seat in enumerate(self.seats)
        ]
        run(trial, stand_ins)
        return [Planned(seat, action) for seat, action in trial.history[first:]]

    def result(self) -> dict | None:
        """The final scoring as `GameResult.to_dict()`, once the game is over."""
        if not self.state.is_over:
            return None
        if self._result is None:
            self._result = self.state.result().to_dict()
        return self._result


class _BotSeat:
    """A bot's seat in the game loop: it plays the move its bot thought of (in
    `ttr_core.serve.thinkers`); with none ready, or one the game no longer allows,
    it stops the loop, and the table's driver sends the bot its view."""

    def __init__(self, table: Table, seat: int, used: set[int]) -> None:
        self.table = table
        self.seat = seat
        self.used = used
        bot = table.seats[seat].bot
        self.name = bot.name if bot is not None else "bot"

    def act(self, view: Any) -> Action:
        move = self.table.answers.get(self.seat)
        if (
            move is None
            or self.seat in self.used  # played once in this plan: the bot thinks again
            or move.action not in view.legal_actions(include_resign=True)
        ):
            if move is not None and self.seat not in self.used:
                del self.table.answers[self.seat]  # no longer allowed: think again
            raise StopGame
        return move.action


_PERSON = _Person()


# ------------------------------------------------------------------ making tables


def _seats_for(players: Sequence[str], seed: int) -> tuple[list[Seat], dict[int, str]]:
    """The seats of `players` (`human` or a bot) and the people's tokens."""
    if not BASE.min_players <= len(players) <= BASE.max_players:
        raise TableError(f"R1: a game has 2 to 5 players, not {len(players)}")
    known = bot_factories()
    for player in players:
        if player != HUMAN and player not in known:
            raise TableError(f"unknown player {player!r}: 'human' or a bot ({', '.join(known)})")
    if HUMAN not in players:
        raise TableError("at least one seat must be 'human'")
    seats, tokens = [], {}
    for index, player in enumerate(players):
        if player == HUMAN:
            tokens[index] = secrets.token_urlsafe(18)
            seats.append(Seat(HUMAN, token_digest=digest(tokens[index])))
        else:
            bot = known[player](bot_seed(seed, index))
            seats.append(Seat(player, bot=bot, heavy=is_heavy(player)))
    return seats, tokens


def check_pace(pace: str) -> str:
    if pace not in PACES:
        raise TableError(f"unknown pace {pace!r}; choose one of {', '.join(PACES)}")
    return pace


def _check_settings(pace: str, turn_seconds: float | None) -> None:
    check_pace(pace)
    if turn_seconds is not None and not TURN_SECONDS_MIN <= turn_seconds <= TURN_SECONDS_MAX:
        raise TableError(
            f"a turn timer has {TURN_SECONDS_MIN} to {TURN_SECONDS_MAX} seconds (or none)"
        )


def new_table(
    game_map: Map,
    map_key: str,
    players: Sequence[str],
    seed: int | None = None,
    pace: str = DEFAULT_PACE,
    turn_seconds: float | None = None,
) -> tuple[Table, dict[int, str]]:
    """A new game: `players` names each seat, `human` or a bot. With `seed` the
    deal is the host's choice (a fixed deal, marked as such); without, a random
    one nobody sees before the end. Returns the table and each person's token, by
    seat (the only time they exist). Raises `TableError` for a bad seating."""
    _check_settings(pace, turn_seconds)
    fixed = seed is not None
    if seed is None:
        seed = random_seed()
    elif not 0 <= seed <= MAX_SEED:
        raise TableError(f"a seed is a whole number from 0 to {MAX_SEED}")
    seats, tokens = _seats_for(players, seed)
    state = GameState(game_map, len(players), seed)
    return _table(map_key, state, seats, pace, fixed, turn_seconds), tokens


def _table(
    map_key: str,
    state: GameState,
    seats: list[Seat],
    pace: str,
    fixed_deal: bool,
    turn_seconds: float | None,
) -> Table:
    return Table(
        secrets.token_urlsafe(9),
        map_key,
        state,
        seats,
        pace,
        digest(secrets.token_urlsafe(18)),  # replaced by `spectator_link`
        fixed_deal=fixed_deal,
        turn_seconds=turn_seconds,
        created=time.time(),
    )


def spectator_link(table: Table) -> str:
    """A fresh token for everyone watching (the old one stops working)."""
    token = secrets.token_urlsafe(18)
    table.spectator_digest = digest(token)
    return token


def resumed_table(
    record: dict[str, Any],
    game_map: Map,
    map_key: str,
    pace: str = DEFAULT_PACE,
    turn_seconds: float | None = None,
) -> tuple[Table, dict[int, str]]:
    """A table that continues an unfinished game from its (schema-checked)
    record: the same seats (people get new tokens, bots are seated afresh), names
    and notes. Its deal is a fixed deal: whoever has the record knows the seed.
    Raises `TableError` when it cannot be continued."""
    from ttr_core.engine.record import RecordError, names_of, notes_of, players_of, replay

    _check_settings(pace, turn_seconds)
    seed = record["seed"]
    if not 0 <= seed <= MAX_SEED:
        raise TableError(f"the record's seed is not a whole number from 0 to {MAX_SEED}")
    try:
        state = replay({**record, "actions": []}, game_map)
    except RecordError as error:
        raise TableError(str(error)) from None
    players = players_of(record)
    seats, tokens = _seats_for(players, seed)
    table = _table(map_key, state, seats, pace, True, turn_seconds)
    try:
        retell(state, table.journal, ((e["seat"], e["action"]) for e in record["actions"]))
    except (IllegalAction, InvalidAction) as error:
        raise TableError(f"the record does not replay: {error}") from None
    if state.is_over:
        raise TableError("this game is over: open it in the replay viewer instead")
    for seat, name in zip(table.seats, names_of(record), strict=True):
        seat.name = name
    table.notes = notes_of(record)
    return table, tokens


def restored_table(stored: StoredGame, game_map: Map) -> Table:
    """A stored table as it was (raises `TableError` when it cannot be)."""
    # A game stored before play order was dealt in the file's order (its fingerprint says).
    file_order = order_for_fingerprint(game_map, stored.fingerprint)
    if file_order is None:
        raise TableError(f"the map {stored.map_key!r} changed since this game began")
    try:
        state = GameState(
            game_map,
            len(stored.seats),
            stored.seed,
            RuleSet.from_dict(stored.rule_set),
            file_order=file_order,
        )
    except ValueError as error:
        raise TableError(f"cannot deal the game again: {error}") from None
    seats = []
    for index, seat in enumerate(stored.seats):
        if seat.player == HUMAN:
            seats.append(Seat(HUMAN, token_digest=seat.token_digest, name=seat.name))
        else:
            try:
                bot = make_bot(seat.player, bot_seed(stored.seed, index))
            except ValueError as error:
                raise TableError(str(error)) from None
            seats.append(Seat(seat.player, bot=bot, heavy=is_heavy(seat.player)))
    table = Table(
        stored.id,
        stored.map_key,
        state,
        seats,
        stored.pace,
        stored.spectator_digest,
        fixed_deal=stored.fixed_deal,
        turn_seconds=stored.turn_seconds,
        created=stored.created,
    )
    table.remarks = {n: a.remark for n, a in enumerate(stored.actions) if a.remark}
    try:
        retell(state, table.journal, ((a.seat, a.action) for a in stored.actions), table.remarks)
    except (IllegalAction, InvalidAction) as error:
        raise TableError(f"its actions do not replay: {error}") from None
    table.notes = list(stored.notes)
    table.moves = {
        (a.seat, a.move): n
        for n, a in enumerate(stored.actions)
        if a.move is not None and a.seat is not None
    }
    return table


def stored_form(table: Table) -> StoredGame:
    from ttr_core.serve.store import StoredAction, StoredGame, StoredSeat

    state = table.state
    move_ids = {number: move for (_, move), number in table.moves.items()}
    return StoredGame(
        table.id,
        table.map_key,
        state_fingerprint(state),
        state.rule_set.to_dict(),
        state.seed,
        table.fixed_deal,
        table.pace,
        table.turn_seconds,
        table.spectator_digest,
        table.created,
        time.time(),
        state.is_over,
        tuple(StoredSeat(s.player, s.token_digest, s.name) for s in table.seats),
        tuple(
            StoredAction(seat, str(action), table.remarks.get(number), move_ids.get(number))
            for number, (seat, action) in enumerate(state.history)
        ),
        tuple(table.notes),
    )


# ------------------------------------------------------------------ the registry


class TableRegistry:
    """The tables of one server process, by id: in memory while people use them,
    in the store (if any) always. Start it (`start`) inside the server's event
    loop: each table then has a driver there that plays its bots and its clock."""

    def __init__(
        self,
        *,
        store: TableStore | None = None,
        thinkers: Thinkers | None = None,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
        finished_seconds: float = FINISHED_IDLE_SECONDS,
        keep_days: float = DEFAULT_KEEP_DAYS,
        max_tables: int = DEFAULT_MAX_TABLES,
        max_heavy_seats: int = DEFAULT_MAX_HEAVY_SEATS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.thinkers = thinkers or Thinkers()
        self.idle_seconds = idle_seconds
        self.finished_seconds = min(finished_seconds, idle_seconds)
        self.keep_days = keep_days
        self.max_tables = max_tables
        self.max_heavy_seats = max_heavy_seats
        self.clock = clock
        self._tables: dict[str, Table] = {}
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._janitor: asyncio.Task[None] | None = None
        self._maps: Callable[[str], Map | None] = lambda key: None
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        #: Every bot's move being thought, at every table.
        self._thinking: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self._tables)

    def __contains__(self, table_id: str) -> bool:
        return table_id in self._tables

    def live(self, table_id: str) -> Table | None:
        """The table if it is in memory (no loading, no touching)."""
        return self._tables.get(table_id)

    # ---------------------------------------------------------------- start, stop
    async def start(self, maps: Callable[[str], Map | None]) -> list[str]:
        """Read the unfinished tables changed within `idle_seconds` back from the
        store, most recent first (up to `max_tables`), and start their drivers;
        return a warning per table that could not be restored."""
        self._maps = maps
        warnings: list[str] = []
        if self.store is not None:
            since = time.time() - self.idle_seconds
            await self._store(lambda db: db.delete_older_than(time.time() - self._keep()))
            ids = await self._store(lambda db: db.game_ids(unfinished_since=since))
            for table_id in ids[: self.max_tables]:
                try:
                    await self._load(table_id)
                except (TableError, RegistryFull) as problem:
                    warnings.append(f"game {table_id} not restored: {problem}")
        self._janitor = asyncio.get_running_loop().create_task(self._sweep())
        return warnings

    async def stop(self) -> None:
        """Stop every driver and every bot's thinking (the server is stopping;
        everything is stored), then the thinkers."""
        tasks = [
            *self._drivers.values(),
            *self._thinking,
            *([self._janitor] if self._janitor else []),
        ]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._drivers.clear()
        self.thinkers.close()

    def _keep(self) -> float:
        return self.keep_days * 86400.0

    async def _store(self, work: Callable[[Any], Any]) -> Any:
        """Run `work` on the store's thread; `StoreUnavailable` if the database
        failed it (nothing of it is stored)."""
        from ttr_core.serve.store import StoreError

        assert self.store is not None
        try:
            return await asyncio.wrap_future(self.store.submit(work))
        except StoreError as error:
            log.error("the game store failed: %s", error)
            raise StoreUnavailable(
                "the server could not store this change (its disk may be full or its "
                "database damaged): nothing changed; try again in a moment"
            ) from None

    # ---------------------------------------------------------------- tables in and out
    async def add(self, table: Table) -> None:
        """Seat a new table (stored first). Raises `RegistryFull`."""
        self._make_room(table)
        if self.store is not None:
            form = stored_form(table)
            await self._store(lambda db: db.insert(form))
        self._seat(table)

    def _make_room(self, table: Table) -> None:
        now = self.clock()
        self.expire(now)
        if len(self._tables) >= self.max_tables:
            finished = [t for t in self._tables.values() if t.state.is_over]
            if not finished:
                raise RegistryFull(f"the server already holds {self.max_tables} games; try later")
            self._unload(min(finished, key=lambda t: t.last_active).id)
        heavy = sum(t.heavy_seats for t in self._tables.values() if not t.state.is_over)
        if table.heavy_seats and heavy + table.heavy_seats > self.max_heavy_seats:
            raise RegistryFull(
                f"the server already plays {heavy} of its {self.max_heavy_seats} seats for "
                "thinking bots (search); try a lighter bot or later"
            )

    def _seat(self, table: Table) -> None:
        now = self.clock()
        table.last_active = table.last_move_at = now
        table.clock_left(now)  # the turn timer runs from the moment the table is open
        self._tables[table.id] = table
        if not table.state.is_over:
            self._drivers[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    def _unload(self, table_id: str) -> None:
        self._tables.pop(table_id, None)
        driver = self._drivers.pop(table_id, None)
        if driver is not None:
            driver.cancel()

    async def get(self, table_id: str) -> Table | None:
        """The table, marked as just used: from memory, else from the store;
        None if unknown. Raises `RegistryFull` when it cannot be brought back."""
        table = self._tables.get(table_id)
        if table is None:
            if self.store is None or len(table_id) > 40:
                return None
            table = await self._load(table_id)
            if table is None:
                return None
        table.last_active = self.clock()
        return table

    async def _load(self, table_id: str) -> Table | None:
        """Bring a stored table back (one load per table, however many ask)."""
        if table_id in self._loading:
            return await asyncio.shield(self._loading[table_id])
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            stored = await self._store(lambda db: db.load(table_id))
            table = None
            if stored is not None and table_id not in self._tables:
                game_map = self._maps(stored.map_key)
                if game_map is None:
                    raise TableError(f"its map {stored.map_key!r} is not offered by this server")
                table = restored_table(stored, game_map)
                self._make_room(table)
                self._seat(table)
            future.set_result(table or self._tables.get(table_id))
            return future.result()
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: the callers see it raised
            raise
        finally:
            del self._loading[table_id]

    def expire(self, now: float) -> int:
        """Unload every table idle for too long (finished ones sooner); they stay
        in the store. Return how many."""
        stale = [
            key
            for key, table in self._tables.items()
            if now - table.last_active
            > (self.finished_seconds if table.state.is_over else self.idle_seconds)
        ]
        for key in stale:
            self._unload(key)
        return len(stale)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(JANITOR_SECONDS)
            self.expire(self.clock())
            if self.store is not None:
                cutoff = time.time() - self._keep()
                await self._store(lambda db, cutoff=cutoff: db.delete_older_than(cutoff))

    # ---------------------------------------------------------------- changes
    async def play(self, table: Table, seat: int, action: Action, move: str | None = None) -> bool:
        """A person's action: tried (the engine's IllegalAction or InvalidAction,
        nothing changed), stored, then played. With a `move` id already played by
        this seat, nothing is played again (False: the answer is the table as it
        is). Raises `StoreUnavailable` (nothing changed)."""
        async with table.lock:
            if move is not None and (seat, move) in table.moves:
                return False
            table.check_act(seat, action)
            await self._write(table, [Planned(seat, action, move=move)])
            return True

    async def _write(self, table: Table, planned: Sequence[Planned]) -> None:
        """Store `planned` (tried on a copy), then play it on the table. Hold
        `table.lock`."""
        if self.store is not None and planned:
            from ttr_core.serve.store import StoredAction

            first = len(table.state.history)
            entries = [StoredAction(p.seat, str(p.action), p.remark, p.move) for p in planned]
            twin = table.state.clone()  # type: ignore[attr-defined]
            for entry in planned:
                twin.apply(entry.action, entry.seat)
            finished = twin.is_over
            await self._store(lambda db: db.append(table.id, first, entries, time.time(), finished))
        table.commit(planned, self.clock())

    async def set_pace(self, table: Table, pace: str) -> None:
        async with table.lock:
            check_pace(pace)
            if self.store is not None:
                await self._store(lambda db: db.set_pace(table.id, pace, time.time()))
            table.set_pace(pace)

    async def set_name(self, table: Table, seat: int, name: object) -> None:
        async with table.lock:
            cleaned = table.name_for(seat, name)
            if self.store is not None:
                await self._store(lambda db: db.set_name(table.id, seat, cleaned, time.time()))
            table.set_name(seat, cleaned)

    async def add_note(
        self, table: Table, seat: int | None, text: object, name: object = None
    ) -> Note:
        async with table.lock:
            now = self.clock()
            note = table.note_for(seat, text, name, now)
            if self.store is not None:
                number = len(table.notes)
                await self._store(lambda db: db.add_note(table.id, number, note, time.time()))
            table.add_note(note, now)
            return note

    async def fast_forward(self, table: Table) -> None:
        """Test hook: bots finish the game (`Table.fast_forward_plan`)."""
        async with table.lock:
            table.answers.clear()
            await self._write(table, table.fast_forward_plan())

    # ---------------------------------------------------------------- the driver
    async def _drive(self, table: Table) -> None:
        """Play what a table does by itself, for as long as it is in memory: send
        its bots their views to think about, play their moves at the pace, time
        people out; store every action before the next."""
        thinking: set[asyncio.Task[None]] = set()
        try:
            while not table.state.is_over:
                for seat in table.bots_to_think():
                    table.thinking.add(seat)
                    table.revision += 1
                    task = asyncio.get_running_loop().create_task(self._think(table, seat))
                    for tasks in (thinking, self._thinking):
                        tasks.add(task)
                        task.add_done_callback(tasks.discard)
                now = self.clock()
                wait = table.due_in(now)
                if wait is None or wait > 0:
                    table.wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(table.wake.wait(), wait)
                    continue
                try:
                    async with table.lock:
                        await self._write(table, table.plan(self.clock()))
                except StoreUnavailable:
                    # Nothing was played: try again in a while (the log says why).
                    table.wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(table.wake.wait(), STORE_RETRY_SECONDS)
        finally:
            for task in thinking:
                task.cancel()

    async def _think(self, table: Table, seat: int) -> None:
        entry = table.seats[seat]
        assert entry.bot is not None
        view = table.state.view(seat)
        try:
            move = await self.thinkers.think(entry.bot, view, entry.heavy)
        finally:
            table.thinking.discard(seat)
            table.revision += 1
        entry.bot = move.bot
        if not table.state.is_over:
            table.answers[seat] = move
        table.wake.set()
