"""`ttr_core.serve.store`: what is written is read back exactly, a change is one
transaction (all of it or nothing), the games are listed and forgotten by when
they last changed, and a folder or database that cannot be used is a clear
`StoreError`."""

from __future__ import annotations

import sqlite3
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ttr_core.engine.record import Note
from ttr_core.serve.store import (
    DATABASE_NAME,
    SCHEMA_VERSION,
    Database,
    StoredAction,
    StoredGame,
    StoredSeat,
    StoreError,
    StoreFailed,
    TableStore,
    default_data_folder,
    open_data_folder,
)

TEXTS = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
DIGESTS = st.text("0123456789abcdef", min_size=64, max_size=64)
TIMES = st.floats(0, 2e9, allow_nan=False)
SEATS = st.builds(StoredSeat, TEXTS, st.none() | DIGESTS, st.none() | TEXTS)
ACTIONS = st.builds(StoredAction, st.none() | st.integers(0, 4), TEXTS, st.none() | TEXTS)
NOTES = st.builds(Note, st.integers(0, 500), st.none() | st.integers(0, 4), TEXTS, TEXTS)
RULES = st.dictionaries(TEXTS, st.integers() | st.booleans() | TEXTS | st.lists(st.integers()))
GAMES = st.builds(
    StoredGame,
    id=TEXTS.filter(bool),
    map_key=TEXTS,
    fingerprint=DIGESTS,
    rule_set=RULES,
    seed=st.integers(0, 2**63 - 1),
    fixed_deal=st.booleans(),
    pace=TEXTS,
    turn_seconds=st.none() | st.floats(1, 3600),
    spectator_digest=DIGESTS,
    created=TIMES,
    updated=TIMES,
    finished=st.booleans(),
    seats=st.lists(SEATS, min_size=1, max_size=5).map(tuple),
    actions=st.lists(ACTIONS, max_size=6).map(tuple),
    notes=st.lists(NOTES, max_size=3).map(tuple),
)


def game(
    game_id: str = "g1", updated: float = 100.0, finished: bool = False, **fields: object
) -> StoredGame:
    values: dict[str, object] = {
        "id": game_id,
        "map_key": "iran",
        "fingerprint": "f" * 64,
        "rule_set": {"name": "base", "stations": 0},
        "seed": 7,
        "fixed_deal": True,
        "pace": "normal",
        "turn_seconds": 60.0,
        "spectator_digest": "s" * 64,
        "created": 50.0,
        "updated": updated,
        "finished": finished,
        "seats": (StoredSeat("human", "d" * 64, "Ana"), StoredSeat("greedy", None)),
        "actions": (StoredAction(0, "keep 0 1"), StoredAction(None, "time out", "slow")),
        "notes": (Note(1, 0, "Ana", "hello"),),
    }
    values.update(fields)
    return StoredGame(**values)  # type: ignore[arg-type]


@pytest.fixture
def store(tmp_path: Path) -> TableStore:
    store = TableStore(tmp_path / DATABASE_NAME)
    yield store
    store.close()


# ---------------------------------------------------------------- round trips


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_a_stored_game_is_read_back_exactly(stored: StoredGame) -> None:
    store = TableStore(":memory:")
    try:
        store.run(lambda db: db.insert(stored))
        assert store.run(lambda db: db.load(stored.id)) == stored
        assert store.run(lambda db: db.game_ids()) == [stored.id]
    finally:
        store.close()


def test_a_game_not_stored_is_none(store: TableStore) -> None:
    assert store.run(lambda db: db.load("nope")) is None


def test_the_games_survive_closing_the_store(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    first = TableStore(path)
    first.run(lambda db: db.insert(game()))
    first.close()
    again = TableStore(path)
    try:
        assert again.run(lambda db: db.load("g1")) == game()
    finally:
        again.close()


# ---------------------------------------------------------------- changes


def test_actions_are_appended_with_their_numbers_and_the_state_of_play(
    store: TableStore,
) -> None:
    store.run(lambda db: db.insert(game(actions=())))
    store.run(
        lambda db: db.append("g1", 0, [StoredAction(0, "a"), StoredAction(1, "b")], 110, False)
    )
    store.run(lambda db: db.append("g1", 2, [StoredAction(None, "c", "late")], 120, True))
    loaded = store.run(lambda db: db.load("g1"))
    assert loaded.actions == (
        StoredAction(0, "a"),
        StoredAction(1, "b"),
        StoredAction(None, "c", "late"),
    )
    assert (loaded.updated, loaded.finished) == (120, True)


def test_a_change_that_fails_changes_nothing(store: TableStore) -> None:
    """One transaction: an action numbered twice is refused with the rest of its
    batch and the game's state of play."""
    store.run(lambda db: db.insert(game(actions=(StoredAction(0, "a"),))))
    batch = [StoredAction(1, "b"), StoredAction(1, "c")]  # numbered -1 and 0: 0 is taken
    with pytest.raises(StoreFailed, match="UNIQUE constraint"):
        store.run(lambda db: db.append("g1", -1, batch, 500, True))
    with pytest.raises(StoreFailed, match="UNIQUE constraint"):
        store.run(lambda db: db.insert(game(seats=())))  # the same id again
    loaded = store.run(lambda db: db.load("g1"))
    assert loaded.actions == (StoredAction(0, "a"),)
    assert (loaded.updated, loaded.finished) == (100.0, False)


def test_pace_names_and_notes_are_kept_and_mark_the_game_changed(store: TableStore) -> None:
    store.run(lambda db: db.insert(game(notes=())))
    store.run(lambda db: db.set_pace("g1", "fast", 110))
    store.run(lambda db: db.set_name("g1", 1, "Bot Bob", 120))
    store.run(lambda db: db.add_note("g1", 0, Note(3, None, "someone watching", "hi"), 130))
    store.run(lambda db: db.add_note("g1", 1, Note(4, 0, "Ana", "yo"), 140))
    loaded = store.run(lambda db: db.load("g1"))
    assert loaded.pace == "fast"
    assert [s.name for s in loaded.seats] == ["Ana", "Bot Bob"]
    assert loaded.notes == (Note(3, None, "someone watching", "hi"), Note(4, 0, "Ana", "yo"))
    assert loaded.updated == 140
    store.run(lambda db: db.set_name("g1", 0, "Bea", 150))
    assert store.run(lambda db: db.load("g1")).updated == 150


def test_games_are_listed_most_recently_changed_first(store: TableStore) -> None:
    for stored in (game("a", 100), game("b", 300, finished=True), game("c", 200)):
        store.run(lambda db, stored=stored: db.insert(stored))
    assert store.run(lambda db: db.game_ids()) == ["b", "c", "a"]
    assert store.run(lambda db: db.game_ids(unfinished_since=100)) == ["c", "a"]
    assert store.run(lambda db: db.game_ids(unfinished_since=150)) == ["c"]
    assert store.run(lambda db: db.game_ids(unfinished_since=200)) == ["c"]
    assert store.run(lambda db: db.game_ids(unfinished_since=201)) == []


def test_old_games_are_forgotten_with_their_seats_actions_and_notes(store: TableStore) -> None:
    for stored in (game("a", 100), game("b", 200), game("c", 300)):
        store.run(lambda db, stored=stored: db.insert(stored))
    assert store.run(lambda db: db.delete_older_than(200)) == 1  # strictly older
    assert store.run(lambda db: db.game_ids()) == ["c", "b"]
    store.run(lambda db: db.delete("c"))
    assert store.run(lambda db: db.game_ids()) == ["b"]
    assert store.run(lambda db: db.delete_older_than(100)) == 0

    def rows(db: Database) -> list[int]:
        return [
            db.connection.execute(f"SELECT count(*) FROM {table} WHERE game != 'b'").fetchone()[0]
            for table in ("seats", "actions", "notes")
        ]

    assert store.run(rows) == [0, 0, 0]


# ---------------------------------------------------------------- the database


def test_the_database_is_in_wal_mode_with_foreign_keys(store: TableStore) -> None:
    def pragmas(db: Database) -> tuple:
        return tuple(
            db.connection.execute(f"PRAGMA {name}").fetchone()[0]
            for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
        )

    assert store.run(pragmas) == ("wal", 1, 1, 5000)  # synchronous 1: NORMAL
    assert store.run(lambda db: db.schema_version()) == SCHEMA_VERSION


def test_full_synchronous_mode_is_offered_and_nothing_else(tmp_path: Path) -> None:
    full = TableStore(tmp_path / "full.sqlite3", synchronous="FULL")
    try:
        level = full.run(lambda db: db.connection.execute("PRAGMA synchronous").fetchone()[0])
        assert level == 2
    finally:
        full.close()
    with pytest.raises(ValueError, match="NORMAL or FULL"):
        TableStore(tmp_path / "x.sqlite3", synchronous="OFF")


def test_every_call_runs_on_the_one_writer_thread(store: TableStore) -> None:
    names = {store.run(lambda db: threading.current_thread().name) for _ in range(5)}
    assert len(names) == 1 and names.pop().startswith("ttr-store")
    assert threading.current_thread().name not in names


def test_a_database_of_a_newer_ttr_is_refused(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(StoreError, match=rf"newer ttr \(database version {SCHEMA_VERSION + 1}\)"):
        TableStore(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    path.write_bytes(b"not a database, just some text " * 100)
    with pytest.raises(StoreError, match="not an SQLite file"):
        TableStore(path)


def test_closing_twice_and_closing_an_unused_store_are_harmless(tmp_path: Path) -> None:
    store = TableStore(tmp_path / DATABASE_NAME)
    store.close()
    store.close()


# ---------------------------------------------------------------- the data folder


def test_a_data_folder_is_made_when_missing(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    store = open_data_folder(folder)
    try:
        assert store.path == folder / DATABASE_NAME
        assert (folder / DATABASE_NAME).is_file()
    finally:
        store.close()


def test_a_data_folder_keeps_reading_the_database_earlier_servers_wrote(tmp_path: Path) -> None:
    """The file name is part of the data folder's format (docs/play-testing.md)."""
    earlier = TableStore(tmp_path / "tables.sqlite3")
    earlier.run(lambda db: db.insert(game()))
    earlier.close()
    store = open_data_folder(tmp_path)
    try:
        assert store.run(lambda db: db.load("g1")) == game()
    finally:
        store.close()


def test_a_data_folder_that_is_a_file_or_cannot_be_made_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(StoreError, match="not a folder"):
        open_data_folder(file)
    with pytest.raises(StoreError, match="cannot make the data folder"):
        open_data_folder(file / "inside")


def test_the_default_data_folder_follows_the_platform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: tmp_path))
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", "/data/xdg")
    assert default_data_folder() == Path("/data/xdg/ttr")
    monkeypatch.setenv("XDG_DATA_HOME", "relative/xdg")  # not absolute: not used
    assert default_data_folder() == tmp_path / ".local/share/ttr"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_folder() == tmp_path / ".local/share/ttr"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert default_data_folder() == tmp_path / "Library" / "Application Support" / "ttr"
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert default_data_folder() == tmp_path / "Local" / "ttr"
    monkeypatch.delenv("LOCALAPPDATA")
    assert default_data_folder() == tmp_path / "AppData" / "Local" / "ttr"


def test_changes_waiting_together_share_one_checkpoint_and_each_is_answered_after_it(
    tmp_path: Path,
) -> None:
    """Ten moves waiting for the writer thread at once (ten tables moving together)
    are written one by one and checkpointed once; when each is answered, a copy of
    the main file alone already holds it."""

    class Counting(TableStore):
        checkpoints = 0

        def _checkpoint(self, written: list) -> None:
            Counting.checkpoints += bool(written)
            super()._checkpoint(written)

    store = Counting(tmp_path / DATABASE_NAME)
    try:
        store.run(lambda db: db.insert(game()))
        Counting.checkpoints = 0
        release = threading.Event()
        store.submit(lambda db: release.wait(10))  # the writer thread is busy meanwhile
        futures = [
            store.submit(
                lambda db, n=n: db.append("g1", 100 + n, [StoredAction(0, "draw")], 1.0, False)
            )
            for n in range(10)
        ]
        in_main_file: list[int] = []

        def copy_main_file(_: object) -> None:  # runs as the move is answered
            copy = tmp_path / f"copy{len(in_main_file)}.sqlite3"
            copy.write_bytes(Path(store.path).read_bytes())
            connection = sqlite3.connect(copy)
            in_main_file.append(
                connection.execute("SELECT count(*) FROM actions WHERE number >= 100").fetchone()[0]
            )
            connection.close()

        for future in futures:
            future.add_done_callback(copy_main_file)
        release.set()
        for future in futures:
            future.result(timeout=10)
        store.run(lambda db: None)  # the callbacks ran on the writer thread before this
        assert Counting.checkpoints == 1
        assert in_main_file == [10] * 10
    finally:
        store.close()
