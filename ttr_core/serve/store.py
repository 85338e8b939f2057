"""Where the web table keeps its games: one SQLite database (the standard library's
`sqlite3`, in WAL mode) in the server's data folder.

A game is stored when it starts, and every change is written before the server
answers the request that made it (or, for a bot's move or a timeout, before the
next one is made): each action is one row, in one transaction with the game's
new state of play, so a server killed at any moment (SIGKILL, a crash) loses at
most the action it was writing. WAL mode with `synchronous=NORMAL`: a commit is
in the operating system's hands when the server answers (a killed process loses
nothing), and reaches the disk at the next checkpoint, so a power cut may take
the last moves with it but never leaves a broken database; `FULL` would wait for
the disk on every move (measured in benchmarks/serve_bench.py: about ten times
the write time, and it holds up the person who moved). At start the server reads
the games back and replays their actions (`TableRegistry.start`).

What is stored is what a game record holds (map, rules, seed, actions, names,
notes) and the table's settings, plus a SHA-256 digest of each seat's token and of
the spectators' token: the tokens themselves are never written, so the database
alone opens no seat.

Every call runs on the store's one writer thread (`TableStore.submit`): SQLite's
writes, fsync included, never block the server's event loop.

>>> store = TableStore(":memory:")
>>> store.run(lambda db: db.schema_version())
1
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ttr_core.engine.record import Note

#: The database file in a data folder.
DATABASE_NAME = "tables.sqlite3"
SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    map TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    rule_set TEXT NOT NULL,
    seed INTEGER NOT NULL,
    fixed_deal INTEGER NOT NULL,
    pace TEXT NOT NULL,
    turn_seconds REAL,
    spectator TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_by_update ON games (finished, updated);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    name TEXT,
    token TEXT,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    seat INTEGER,
    action TEXT NOT NULL,
    remark TEXT,
    PRIMARY KEY (game, number)
);
CREATE TABLE IF NOT EXISTS notes (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    after INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (game, number)
);
"""

T = TypeVar("T")


class StoreError(RuntimeError):
    """The data folder or its database cannot be used; the message says why."""


@dataclass(frozen=True)
class StoredSeat:
    player: str
    #: The hex SHA-256 of a person's token (None for a bot).
    token_digest: str | None
    name: str | None = None


@dataclass(frozen=True)
class StoredAction:
    seat: int | None
    action: str
    #: What the table said besides the action (a bot out of time), if anything.
    remark: str | None = None


@dataclass(frozen=True)
class StoredGame:
    """One game as the database holds it."""

    id: str
    map_key: str
    fingerprint: str
    rule_set: dict[str, Any]
    seed: int
    fixed_deal: bool
    pace: str
    turn_seconds: float | None
    spectator_digest: str
    created: float
    updated: float
    finished: bool
    seats: tuple[StoredSeat, ...]
    actions: tuple[StoredAction, ...] = ()
    notes: tuple[Note, ...] = field(default_factory=tuple)


class Database:
    """The statements, on one connection (used by one thread at a time)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection

    def schema_version(self) -> int:
        return int(self.connection.execute("PRAGMA user_version").fetchone()[0])

    def insert(self, game: StoredGame) -> None:
        with self.connection:
            self.connection.execute(
                "INSERT INTO games (id, map, fingerprint, rule_set, seed, fixed_deal, pace, "
                "turn_seconds, spectator, created, updated, finished) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.id,
                    game.map_key,
                    game.fingerprint,
                    json.dumps(game.rule_set, separators=(",", ":")),
                    game.seed,
                    int(game.fixed_deal),
                    game.pace,
                    game.turn_seconds,
                    game.spectator_digest,
                    game.created,
                    game.updated,
                    int(game.finished),
                ),
            )
            self.connection.executemany(
                "INSERT INTO seats (game, seat, player, name, token) VALUES (?, ?, ?, ?, ?)",
                [
                    (game.id, index, seat.player, seat.name, seat.token_digest)
                    for index, seat in enumerate(game.seats)
                ],
            )
            self._add_actions(game.id, 0, game.actions)
            for number, note in enumerate(game.notes):
                self._add_note(game.id, number, note)

    def append(
        self,
        game_id: str,
        first: int,
        actions: Sequence[StoredAction],
        updated: float,
        finished: bool,
    ) -> None:
        """Actions number `first`, `first + 1`, … and the game's state of play, in
        one transaction."""
        with self.connection:
            self._add_actions(game_id, first, actions)
            self.connection.execute(
                "UPDATE games SET updated = ?, finished = ? WHERE id = ?",
                (updated, int(finished), game_id),
            )

    def _add_actions(self, game_id: str, first: int, actions: Sequence[StoredAction]) -> None:
        self.connection.executemany(
            "INSERT INTO actions (game, number, seat, action, remark) VALUES (?, ?, ?, ?, ?)",
            [
                (game_id, first + i, entry.seat, entry.action, entry.remark)
                for i, entry in enumerate(actions)
            ],
        )

    def set_pace(self, game_id: str, pace: str, updated: float) -> None:
        with self.connection:
            self.connection.execute(
                "UPDATE games SET pace = ?, updated = ? WHERE id = ?", (pace, updated, game_id)
            )

    def set_name(self, game_id: str, seat: int, name: str, updated: float) -> None:
        with self.connection:
            self.connection.execute(
                "UPDATE seats SET name = ? WHERE game = ? AND seat = ?", (name, game_id, seat)
            )
            self.connection.execute("UPDATE games SET updated = ? WHERE id = ?", (updated, game_id))

    def add_note(self, game_id: str, number: int, note: Note, updated: float) -> None:
        with self.connection:
            self._add_note(game_id, number, note)
            self.connection.execute("UPDATE games SET updated = ? WHERE id = ?", (updated, game_id))

    def _add_note(self, game_id: str, number: int, note: Note) -> None:
        self.connection.execute(
            "INSERT INTO notes (game, number, after, seat, name, text) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, number, note.after, note.seat, note.name, note.text),
        )

    def game_ids(self, *, unfinished_since: float | None = None) -> list[str]:
        """Games, the most recently changed first; with `unfinished_since`, only
        the unfinished ones changed since then."""
        if unfinished_since is None:
            rows = self.connection.execute("SELECT id FROM games ORDER BY updated DESC")
        else:
            rows = self.connection.execute(
                "SELECT id FROM games WHERE finished = 0 AND updated >= ? ORDER BY updated DESC",
                (unfinished_since,),
            )
        return [row[0] for row in rows]

    def load(self, game_id: str) -> StoredGame | None:
        db = self.connection
        row = db.execute(
            "SELECT map, fingerprint, rule_set, seed, fixed_deal, pace, turn_seconds, "
            "spectator, created, updated, finished FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            return None
        seats = tuple(
            StoredSeat(player, token, name)
            for player, name, token in db.execute(
                "SELECT player, name, token FROM seats WHERE game = ? ORDER BY seat", (game_id,)
            )
        )
        actions = tuple(
            StoredAction(seat, action, remark)
            for seat, action, remark in db.execute(
                "SELECT seat, action, remark FROM actions WHERE game = ? ORDER BY number",
                (game_id,),
            )
        )
        notes = tuple(
            Note(after, seat, name, text)
            for after, seat, name, text in db.execute(
                "SELECT after, seat, name, text FROM notes WHERE game = ? ORDER BY number",
                (game_id,),
            )
        )
        return StoredGame(
            game_id,
            row[0],
            row[1],
            json.loads(row[2]),
            row[3],
            bool(row[4]),
            row[5],
            row[6],
            row[7],
            row[8],
            row[9],
            bool(row[10]),
            seats,
            actions,
            notes,
        )

    def delete_older_than(self, updated: float) -> int:
        """Forget every game not changed since `updated`; return how many."""
        with self.connection:
            cursor = self.connection.execute("DELETE FROM games WHERE updated < ?", (updated,))
        return cursor.rowcount

    def delete(self, game_id: str) -> None:
        with self.connection:
            self.connection.execute("DELETE FROM games WHERE id = ?", (game_id,))


class TableStore:
    """The database of one data folder (or `":memory:"`), used from one writer
    thread. `synchronous`: SQLite's `NORMAL` (WAL's mode: safe against a killed
    process; on power loss the last commits may be lost, the file stays whole) or
    `FULL` (every commit reaches the disk before the server answers)."""

    def __init__(self, path: str | Path, synchronous: str = "NORMAL") -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous is NORMAL or FULL, not {synchronous!r}")
        self.path = path
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ttr-store")
        self._db: Database | None = None
        self._synchronous = synchronous
        self.run(lambda db: None)  # open now: a bad folder fails at start, not later

    def _open(self) -> Database:
        if self._db is None:
            try:
                # Deferred transactions (the default): `with connection:` commits
                # each change as one transaction.
                connection = sqlite3.connect(str(self.path), check_same_thread=False)
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute(f"PRAGMA synchronous = {self._synchronous}")
                connection.execute("PRAGMA foreign_keys = ON")
                connection.execute("PRAGMA busy_timeout = 5000")
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, SCHEMA_VERSION):
                    raise StoreError(
                        f"{self.path}: written by a newer ttr (database version {version})"
                    )
                connection.executescript(_SCHEMA)
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            except sqlite3.Error as error:
                raise StoreError(f"{self.path}: cannot use the database: {error}") from None
            self._db = Database(connection)
        return self._db

    def submit(self, work: Callable[[Database], T]) -> Future[T]:
        """Run `work(database)` on the writer thread; its future."""
        return self._thread.submit(lambda: work(self._open()))

    def run(self, work: Callable[[Database], T]) -> T:
        """`submit` and wait for the answer (at start, and in tests)."""
        return self.submit(work).result()

    def close(self) -> None:
        def close(db: Database) -> None:
            db.connection.close()
            self._db = None

        if self._db is not None:
            self.run(close)
        self._thread.shutdown(wait=True)


def open_data_folder(folder: Path) -> TableStore:
    """The store of a data folder, made if missing. Raises `StoreError` for a
    folder that cannot be made or used."""
    if folder.exists() and not folder.is_dir():
        raise StoreError(f"{folder}: not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise StoreError(f"{folder}: cannot make the data folder: {error.strerror}") from None
    return TableStore(folder / DATABASE_NAME)


def default_data_folder() -> Path:
    """Where `ttr serve` keeps its games unless `--data` says otherwise: the
    platform's folder for an application's data (`$XDG_DATA_HOME/ttr`, else
    `~/.local/share/ttr`; `~/Library/Application Support/ttr` on macOS;
    `%LOCALAPPDATA%\\ttr` on Windows)."""
    import os
    import sys

    home = Path.home()
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "ttr" if base else home / "AppData" / "Local" / "ttr"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "ttr"
    xdg = os.environ.get("XDG_DATA_HOME")
    return Path(xdg) / "ttr" if xdg and Path(xdg).is_absolute() else home / ".local/share/ttr"
