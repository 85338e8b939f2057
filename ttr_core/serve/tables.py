"""The games a server holds: one `Table` per game, kept in a `TableRegistry`.

A table is a `GameState` plus who sits where. People sit down with a secret token
(one per human seat, made by `secrets`); bots act from their own `PlayerView`
through the project's one game loop (`ttr_core.engine.loop`), one move at a time at the
table's pace, so that people can follow them. Everything that changes the game goes through
`GameState.apply`: an illegal action raises the engine's error and changes nothing.

Games live in memory. A table nobody has looked at for `idle_seconds` expires; the
registry holds at most `max_tables` at once.

>>> from ttr_maps import load_map
>>> registry = TableRegistry(clock=lambda: 0.0)
>>> table = registry.create(load_map("north_america"), "north_america", ["human", "greedy"], seed=7)
>>> table.state.phase, table.seat_of(table.seats[0].token or ""), table.seat_of("nope")
('setup', 0, None)
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ttr_core.bots import Bot, bot_factories, make_bot
from ttr_core.engine.actions import Action, Remove
from ttr_core.engine.errors import IllegalAction
from ttr_core.engine.loop import StopGame, bot_seed, run
from ttr_core.engine.state import GameState
from ttr_core.table import HUMAN
from ttr_core.table.journal import Journal, Observed
from ttr_maps.model import Map
from ttr_maps.rules import BASE

#: Seconds between two bot moves that people can pick on the page (0: at once).
PACES: dict[str, float] = {"instant": 0.0, "fast": 0.35, "normal": 0.9, "slow": 1.8}
DEFAULT_PACE = "normal"
#: A table nobody has asked about for this long is dropped.
DEFAULT_IDLE_SECONDS = 2 * 3600.0
DEFAULT_MAX_TABLES = 200
#: The bot that plays people's seats in the test-only fast-forward.
FAST_FORWARD_BOT = "greedy"


class TableError(ValueError):
    """A table cannot be set up as asked; the message says why."""


class RegistryFull(RuntimeError):
    """The server holds as many games as it may."""


class _Person:
    """A person's seat in the game loop: their moves come by HTTP, so when it is
    their turn the loop stops and waits for them."""

    name = HUMAN

    def act(self, view: object) -> Action:
        raise StopGame


_PERSON = _Person()


@dataclass
class Seat:
    player: str
    #: The secret of a person's seat; None for a bot.
    token: str | None = None
    bot: Bot | None = None


@dataclass
class Table:
    id: str
    map_key: str
    state: GameState
    seats: list[Seat]
    pace: str
    last_active: float
    #: When the last action was applied (bots wait `PACES[pace]` after it).
    last_move_at: float
    #: Grows with every change a page should fetch (actions, pace).
    revision: int = 0
    #: What everyone saw happen, in the table's words (the page's log).
    journal: Journal = field(default_factory=Journal)
    _result: dict | None = field(default=None, repr=False)

    @property
    def players(self) -> list[str]:
        return [seat.player for seat in self.seats]

    def seat_of(self, token: str) -> int | None:
        """The human seat whose token this is, or None (compared in constant time)."""
        given = token.encode("utf-8", "surrogateescape")
        found = None
        for index, seat in enumerate(self.seats):
            if seat.token is not None and secrets.compare_digest(seat.token.encode(), given):
                found = index
        return found

    def set_pace(self, pace: str) -> None:
        if pace not in PACES:
            raise TableError(f"unknown pace {pace!r}; choose one of {', '.join(PACES)}")
        self.pace = pace
        self.revision += 1

    def act(self, seat: int, action: Action, now: float) -> None:
        """Apply a person's action (raises the engine's IllegalAction or InvalidAction
        and changes nothing if it is not allowed), then let bots reply as the pace
        allows. Removing a seat is the host's action (D5), never a seat's."""
        if isinstance(action, Remove):
            raise IllegalAction("D5", "only the host may remove a seat")
        seen = self.state.view(seat)
        self.state.apply(action, seat)
        self.journal.observe(seen, action)
        self.last_move_at = now
        self.revision += 1
        self.advance_bots(now)

    def advance_bots(self, now: float) -> int:
        """Play the bots' moves that are due, through the one game loop
        (`ttr_core.engine.loop.run`), up to a person's decision: all at once at the `instant`
        pace, otherwise one per `PACES[pace]` seconds (choices of tickets at setup
        are never delayed: nobody sees them). Returns how many moves were made."""
        delay = PACES[self.pace]
        paced = delay > 0 and self.state.phase != "setup"
        if self.state.is_over or (paced and now < self.last_move_at + delay):
            return 0
        moves = 0

        def after_move(state: GameState, seat: int, action: Action) -> None:
            nonlocal moves
            moves += 1
            self.last_move_at = now
            self.revision += 1
            if delay > 0 and state.phase != "setup":
                raise StopGame  # the next move waits for its turn at this pace

        players = [
            _PERSON if seat.bot is None else Observed(seat.bot, self.journal) for seat in self.seats
        ]
        run(self.state, players, after_move)
        return moves

    def fast_forward(self) -> None:
        """Test hook: bots play every seat, people's too, to the end of the game."""
        stand_ins = [
            Observed(
                seat.bot or make_bot(FAST_FORWARD_BOT, bot_seed(self.state.seed, index)),
                self.journal,
            )
            for index, seat in enumerate(self.seats)
        ]
        run(self.state, stand_ins)
        self.revision += 1

    def result(self) -> dict | None:
        """The final scoring as `GameResult.to_dict()`, once the game is over."""
        if not self.state.is_over:
            return None
        if self._result is None:
            self._result = self.state.result().to_dict()
        return self._result


class TableRegistry:
    """The tables of one server process, by id."""

    def __init__(
        self,
        *,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
        max_tables: int = DEFAULT_MAX_TABLES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.idle_seconds = idle_seconds
        self.max_tables = max_tables
        self.clock = clock
        self._tables: dict[str, Table] = {}

    def __len__(self) -> int:
        return len(self._tables)

    def create(
        self,
        game_map: Map,
        map_key: str,
        players: Sequence[str],
        seed: int,
        pace: str = DEFAULT_PACE,
    ) -> Table:
        """Start a game: `players` names each seat, `human` or a bot. Raises
        `TableError` for a bad seating, `RegistryFull` when no room is left."""
        if not BASE.min_players <= len(players) <= BASE.max_players:
            raise TableError(f"R1: a game has 2 to 5 players, not {len(players)}")
        known = bot_factories()
        for player in players:
            if player != HUMAN and player not in known:
                raise TableError(
                    f"unknown player {player!r}: 'human' or a bot ({', '.join(known)})"
                )
        if HUMAN not in players:
            raise TableError("at least one seat must be 'human'")
        if pace not in PACES:
            raise TableError(f"unknown pace {pace!r}; choose one of {', '.join(PACES)}")
        now = self.clock()
        self.expire(now)
        if len(self._tables) >= self.max_tables:
            raise RegistryFull(f"the server already holds {self.max_tables} games; try later")
        seats = [
            Seat(HUMAN, token=secrets.token_urlsafe(18))
            if player == HUMAN
            else Seat(player, bot=known[player](bot_seed(seed, index)))
            for index, player in enumerate(players)
        ]
        table_id = secrets.token_urlsafe(9)
        state = GameState(game_map, len(players), seed)
        table = Table(table_id, map_key, state, seats, pace, now, now)
        table.advance_bots(now)  # bots seated before the first person choose tickets
        self._tables[table_id] = table
        return table

    def get(self, table_id: str) -> Table | None:
        """The table, marked as just used; None if unknown or expired."""
        now = self.clock()
        table = self._tables.get(table_id)
        if table is None:
            return None
        if now - table.last_active > self.idle_seconds:
            del self._tables[table_id]
            return None
        table.last_active = now
        return table

    def expire(self, now: float) -> int:
        """Drop every table idle for longer than `idle_seconds`; return how many."""
        stale = [k for k, t in self._tables.items() if now - t.last_active > self.idle_seconds]
        for key in stale:
            del self._tables[key]
        return len(stale)
