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
alone opens no seat. The seed is stored as it is: whoever reads the file can work
out every card of every game, the host included (the docs say so).

A change is written *before* it is applied: the server checks an action on a copy
of the game, writes it, and only then plays it on the table everyone sees; a write
that fails (a full disk, an I/O error) raises `StoreWriteError`, the change is not
made, and the person is told so (503). The WAL is checkpointed into the main file
(`PRAGMA wal_checkpoint(PASSIVE)`) before a change is answered, so the main file
alone holds every stored game; changes waiting for the writer thread together
(many tables moving at once) share one checkpoint (`TableStore.CHECKPOINT_GROUP`),
each answered after it. So a copy of `tables.sqlite3` taken between two moves, or a data folder
whose `-wal`/`-shm` files were removed after the server stopped, loses nothing.
(A server killed between a write and its checkpoint leaves that move in the
`-wal` file only: keep the `-wal` file with the database, or back up with
`sqlite3 tables.sqlite3 ".backup copy.sqlite3"` / `TableStore.backup`, which use
SQLite's backup API.)

The store owns its file: before anything is written, the file is checked with a
read-only look (`check_database`): an SQLite file of ttr's (its application id,
a known schema version, the tables it expects) and whole (`PRAGMA quick_check`).
Anything else (a newer ttr's database, another application's SQLite file, a
damaged one, not SQLite at all) is refused with `StoreError` naming the file, and
the file is left byte for byte as it was.

Every call runs on the store's one writer thread (`TableStore.submit`): SQLite's
writes, fsync included, never block the server's event loop.

>>> store = TableStore(":memory:")
>>> store.run(lambda db: db.schema_version())
2
>>> store.close()
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ttr_core.engine.record import Note

#: The database file in a data folder.
DATABASE_NAME = "tables.sqlite3"
#: 1: the first tables; 2: `actions.move`, the id a page gave a move (a retry of
#: the same move is played once).
SCHEMA_VERSION = 2
#: SQLite's `application_id` of a ttr table database ("TTRt").
APPLICATION_ID = 0x54545274
#: The tables (and their columns) of the current schema, checked at start.
_TABLES = {
    "games": {
        "id", "map", "fingerprint", "rule_set", "seed", "fixed_deal", "pace",
        "turn_seconds", "spectator", "created", "updated", "finished",
    },
    "seats": {"game", "seat", "player", "name", "token"},
    "actions": {"game", "number", "seat", "action", "remark"},
    "notes": {"game", "number", "after", "seat", "name", "text"},
}  # fmt: skip
_SQLITE_MAGIC = b"SQLite format 3\x00"
log = logging.getLogger("ttr.serve")
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
    move TEXT,
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


class StoreWriteError(StoreError):
    """A change could not be written (a full disk, an I/O error, a damaged file):
    nothing of it was stored."""


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
    #: The id the page gave this move (a retry with the same id is not played again).
    move: str | None = None


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
            "INSERT INTO actions (game, number, seat, action, remark, move) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [
                (game_id, first + i, entry.seat, entry.action, entry.remark, entry.move)
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
            StoredAction(seat, action, remark, move)
            for seat, action, remark, move in db.execute(
                "SELECT seat, action, remark, move FROM actions WHERE game = ? ORDER BY number",
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
    `FULL` (every commit reaches the disk before the server answers). Raises
    `StoreError` for a file it will not use (see `check_database`)."""

    #: Changes that share one checkpoint at most: when several requests wait for
    #: the writer thread (many tables moving at once), their changes are written
    #: one after another and checkpointed once, and each is answered after that
    #: checkpoint, so the main file holds a change before its request is answered.
    CHECKPOINT_GROUP = 32
    #: SQLite's checkpoint mode: PASSIVE (one connection, so it completes) is
    #: the cheapest; TRUNCATE also empties the -wal file (benchmarks/serve_bench.py
    #: `--only store` measures both).
    CHECKPOINT_MODE = "PASSIVE"

    def __init__(self, path: str | Path, synchronous: str = "NORMAL") -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError(f"synchronous is NORMAL or FULL, not {synchronous!r}")
        self.path = path
        self._queue: queue.SimpleQueue[tuple[Callable[[Database], Any], Future[Any]] | None]
        self._queue = queue.SimpleQueue()
        self._closing = threading.Lock()
        self._closed = False
        self._db: Database | None = None
        self._synchronous = synchronous
        self._thread = threading.Thread(target=self._serve, name="ttr-store", daemon=True)
        self._thread.start()
        try:
            self.run(lambda db: None)  # open now: a bad file fails at start, not later
        except StoreError:
            self.close()
            raise

    def _open(self) -> Database:
        if self._db is None:
            if str(self.path) != ":memory:":
                check_database(Path(self.path))
            connection = None
            try:
                # Deferred transactions (the default): `with connection:` commits
                # each change as one transaction.
                connection = sqlite3.connect(str(self.path), check_same_thread=False)
                connection.execute("PRAGMA journal_mode = WAL")
                connection.execute(f"PRAGMA synchronous = {self._synchronous}")
                connection.execute("PRAGMA foreign_keys = ON")
                connection.execute("PRAGMA busy_timeout = 5000")
                version = connection.execute("PRAGMA user_version").fetchone()[0]
                with connection:
                    connection.executescript(_SCHEMA)
                    if version == 1:  # version 1 had no move ids
                        connection.execute("ALTER TABLE actions ADD COLUMN move TEXT")
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as error:
                if connection is not None:
                    connection.close()
                raise StoreError(
                    f"{self.path}: cannot use the database: {explained(error)}"
                ) from None
            self._db = Database(connection)
        return self._db

    def submit(self, work: Callable[[Database], T]) -> Future[T]:
        """Run `work(database)` on the writer thread; its future. A change it made
        is checkpointed into the main file before the future is done; an SQLite
        error raises `StoreFailed` (and the connection is opened afresh next time)."""
        future: Future[T] = Future()
        with self._closing:
            if self._closed:
                raise RuntimeError(f"{self.path}: the store is closed")
            self._queue.put((work, future))
        return future

    def _serve(self) -> None:
        """The writer thread: each work in turn; the changes made since the last
        checkpoint wait in `written` (with their answers) until the queue is empty
        or CHECKPOINT_GROUP of them wait, then one checkpoint answers them all."""
        written: list[tuple[Future[Any], Any]] = []
        while (item := self._queue.get()) is not None:
            work, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                db = self._open()
                before = db.connection.total_changes
                answer = work(db)
            except sqlite3.Error as error:
                self._checkpoint(written)
                self._reset()
                log.error("%s: %s", self.path, explained(error))
                future.set_exception(StoreFailed(f"{self.path}: {explained(error)}"))
                continue
            except BaseException as error:  # a StoreError of _open, or a bug in `work`
                self._checkpoint(written)
                future.set_exception(error)
                continue
            if db.connection.total_changes == before:
                future.set_result(answer)
            else:
                written.append((future, answer))
            if written and (self._queue.empty() or len(written) >= self.CHECKPOINT_GROUP):
                self._checkpoint(written)
        self._checkpoint(written)
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._reset()

    def _checkpoint(self, written: list[tuple[Future[Any], Any]]) -> None:
        """Checkpoint the WAL into the main file (the main file alone then holds
        every stored change: a copy of it, or the loss of the -wal file, loses
        nothing); then answer the changes that waited for it."""
        if not written:
            return
        if self._db is not None:
            try:
                pragma = f"PRAGMA wal_checkpoint({self.CHECKPOINT_MODE})"
                self._db.connection.execute(pragma).fetchone()
            except sqlite3.Error as error:  # the changes are stored (in the WAL)
                log.warning("%s: checkpoint failed (the change is in the -wal file): %s",
                            self.path, error)  # fmt: skip
        for future, answer in written:
            future.set_result(answer)
        written.clear()

    def _reset(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.connection.close()
            self._db = None

    def run(self, work: Callable[[Database], T]) -> T:
        """`submit` and wait for the answer (at start, and in tests)."""
        return self.submit(work).result()

    def backup(self, target: str | Path) -> None:
        """A whole copy of the database in `target`, made with SQLite's backup API
        (safe while the server runs). Raises `StoreFailed`."""

        def copy(db: Database) -> None:
            into = sqlite3.connect(str(target))
            try:
                db.connection.backup(into)
            finally:
                into.close()

        self.run(copy)

    def close(self) -> None:
        """Finish the work submitted, checkpoint (the -wal file is emptied) and
        close the database; a second call does nothing."""
        with self._closing:
            if not self._closed:
                self._closed = True
                self._queue.put(None)
        self._thread.join()


def explained(error: sqlite3.Error) -> str:
    """SQLite's message, with what a full disk or a file-size limit looks like."""
    text = str(error)
    if "disk" in text or "full" in text:
        text += " (the disk may be full, or a file-size limit such as `ulimit -f` reached)"
    return text


class StoreFailed(StoreError):
    """The database failed a request (a full disk, an I/O error, a damaged page):
    what it was asked to write was not stored."""


def check_database(path: Path) -> None:
    """Raise `StoreError` naming `path` unless it is missing, empty, or a whole
    database of ttr's tables that this ttr can use. Only reads (a read-only
    connection): a file refused here is left byte for byte as it was."""
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return
    refused = "it was left as it was"
    try:
        with path.open("rb") as file:
            head = file.read(100)
    except OSError as error:
        raise StoreError(f"{path}: cannot read the database: {error.strerror}") from None
    if len(head) < 100 or not head.startswith(_SQLITE_MAGIC):
        raise StoreError(f"{path}: not a ttr table database (not an SQLite file); {refused}")
    from urllib.parse import quote

    try:
        connection = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise StoreError(f"{path}: cannot use the database: {error}; {refused}") from None
    try:
        problem = _problem_of(connection)
    except sqlite3.Error as error:
        problem = f"cannot use the database: {error}"
    finally:
        connection.close()
    if problem:
        raise StoreError(f"{path}: {problem}; {refused}")


def _problem_of(connection: sqlite3.Connection) -> str | None:
    application = connection.execute("PRAGMA application_id").fetchone()[0]
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if application not in (0, APPLICATION_ID):
        return f"another application's SQLite database (application id {application:#x})"
    if version > SCHEMA_VERSION:
        return f"written by a newer ttr (database version {version})"
    tables = {
        name
        for (name,) in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    }
    if version == 0 and tables:
        names = ", ".join(sorted(tables)[:5])
        return f"another application's SQLite database (its tables: {names})"
    for table, columns in _TABLES.items() if version else ():
        have = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if not columns | ({"move"} if table == "actions" and version > 1 else set()) <= have:
            return f"not a ttr table database (table {table!r} is missing or differs)"
    checked = [row[0] for row in connection.execute("PRAGMA quick_check(5)")]
    if checked != ["ok"]:
        found = " ".join(" ".join(checked).split())
        return f"the database is damaged ({found[:300]})"
    return None


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
