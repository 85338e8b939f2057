"""The web table under faults: a change that cannot be stored is refused and
never made (injected at the store boundary, and a real file-size limit on a
running `ttr serve`), a retried move is played once, a page never hears "nothing
changed" after a restart or a reload, a database the server does not own is
refused byte for byte, the main database file alone holds every game, and the
restart paths (each step of a game, a finished game) give back the same game."""

from __future__ import annotations

import asyncio
import hashlib
import os
import resource
import shutil
import signal
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from serve_server import (
    Clock,
    auth,
    post,
    server_process,
    serving,
    settle,
    start,
    table_of,
    until,
)
from starlette.testclient import TestClient
from test_serve_tables import first_draw, registry_on

from ttr_core.engine.actions import Action
from ttr_core.engine.view import PlayerView
from ttr_core.serve.app import create_app
from ttr_core.serve.store import (
    DATABASE_NAME,
    SCHEMA_VERSION,
    Database,
    StoreError,
    TableStore,
    open_data_folder,
)
from ttr_core.serve.tables import NOTES_PER_WINDOW
from ttr_core.serve.thinkers import Thinkers


def page(client: TestClient | httpx2.Client, game: str, token: str) -> dict:
    answer = client.get(f"/api/games/{game}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


def two_people(client: TestClient | httpx2.Client) -> tuple[str, dict[int, str]]:
    created = client.post(
        "/api/games",
        json={"map": "iran", "players": ["human", "human"], "pace": "instant", "seed": 7},
    )
    assert created.status_code == 201, created.text
    data = created.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"]}
    for seat in (0, 1):
        assert post(
            client, data["game"], tokens[seat], "actions", {"action": "keep 0,1"}
        ).is_success
    return data["game"], tokens


def to_move(client: TestClient | httpx2.Client, game: str, tokens: dict[int, str]) -> int:
    return page(client, game, tokens[0])["view"]["to_move"]


# ------------------------------------------------------------------ store before applying


class Disk:
    """The store's writes fail while `full` (SQLite's own error for a full disk),
    injected at the store boundary: every method that writes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        #: Only the actions of this seat fail (None: every write while `full`).
        self.seat: int | None = None
        for name in ("append", "add_note", "set_name", "set_pace", "insert"):
            original = getattr(Database, name)
            monkeypatch.setattr(Database, name, self._failing(original))

    def _failing(self, original: Any) -> Any:
        def write(db: Database, *args: Any, **kwargs: Any) -> Any:
            seats = {a.seat for a in args[2]} if original.__name__ == "append" else set()
            if self.full and (self.seat is None or self.seat in seats):
                raise sqlite3.OperationalError("database or disk is full")
            return original(db, *args, **kwargs)

        return write


def test_a_change_that_cannot_be_stored_is_refused_with_503_and_never_made(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)
    registry = registry_on(store)
    with serving(create_app(registry=registry)) as client:
        game, tokens = two_people(client)
        post(client, game, tokens[0], "notes", {"text": "before the disk filled"})
        mover = to_move(client, game, tokens)
        other = 1 - mover
        table = table_of(registry, game)
        history = list(table.state.history)
        hands = [list(hand) for hand in table.state.hands]
        seen = page(client, game, tokens[other])
        disk.full = True
        move = first_draw(page(client, game, tokens[mover])["view"])
        for what, body in (
            ("actions", {"action": move}),
            ("notes", {"text": "lost?"}),
            ("name", {"name": "Ana"}),
            ("pace", {"pace": "slow"}),
        ):
            answer = post(client, game, tokens[mover], what, body)
            assert answer.status_code == 503, (what, answer.text)
            assert (
                "could not store" in answer.json()["error"]
                and "nothing changed" in (answer.json()["error"])
            )
        assert (
            client.post("/api/games", json={"map": "iran", "players": ["human"] * 2}).status_code
            == 503
        )
        # Nobody sees any of it: the other seat hears "nothing changed".
        since = client.get(
            f"/api/games/{game}?since={seen['revision']}", headers=auth(tokens[other])
        )
        assert since.status_code == 204
        assert table.state.history == history and [list(h) for h in table.state.hands] == hands
        assert len(table.notes) == 1 and table.names == [None, None] and table.pace == "instant"
        disk.full = False  # the disk is freed: play goes on from the stored game
        assert post(client, game, tokens[mover], "actions", {"action": move}).status_code == 200
        assert table.state.history == [*history, (mover, table.state.history[-1][1])]
        after = page(client, game, tokens[other])
    with serving(create_app(registry=registry_on(store))) as client:  # the same game again
        again = page(client, game, tokens[other])
        assert again["view"] == after["view"] and again["notes"] == after["notes"]
        assert again["log"] == after["log"]


def test_the_driver_plays_a_bots_move_only_once_it_is_stored(
    store: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's move that cannot be stored is not played (nobody sees it); it is
    played when the store works again."""
    disk = Disk(monkeypatch)
    registry = registry_on(store)
    with serving(create_app(registry=registry)) as client:
        game, tokens = start(client, ["human", "greedy"], seed=4)
        post(client, game, tokens[0], "actions", {"action": "keep 0,1"})
        table = settle(client, registry, game)
        assert table.state.to_move == 0  # seed 4: seat 0 starts
        disk.full = True
        history = len(table.state.history)
        post(client, game, tokens[0], "actions", {"action": "draw deck"})  # refused: 503
        assert len(table.state.history) == history
        disk.seat = 1  # from now on only the bot's moves cannot be stored
        post(client, game, tokens[0], "actions", {"action": "draw deck"})
        post(client, game, tokens[0], "actions", {"action": "draw deck"})
        until(client, lambda: not table.thinking and 1 in table.answers)  # thought, not played
        time.sleep(0.2)
        stuck = len(table.state.history)
        assert table.state.to_move == 1 and stuck == history + 2
        disk.full = False
        table.wake.set()
        deadline = time.monotonic() + 10
        while client.portal.call(lambda: table.state.to_move) == 1:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        stored = store.run(lambda db: db.load(game))
        assert [a.action for a in stored.actions] == [str(a) for _, a in table.state.history]


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux's prlimit")
def test_a_full_disk_under_a_running_ttr_serve_refuses_moves_then_play_goes_on(
    tmp_path: Path,
) -> None:
    """A real file-size limit (`RLIMIT_FSIZE`, as `ulimit -f`) put on a running
    `ttr serve`: every move answers 503 and is not made, the other seat sees
    nothing; with the limit lifted the same move plays, and after a restart the
    game is exactly the stored one."""
    with server_process(tmp_path) as (url, process):
        http = httpx2.Client(base_url=url, timeout=10)
        game, tokens = two_people(http)
        post(http, game, tokens[0], "notes", {"text": "a note"})
        mover = to_move(http, game, tokens)
        seen = page(http, game, tokens[1 - mover])
        move = first_draw(page(http, game, tokens[mover])["view"])
        soft, hard = resource.prlimit(process.pid, resource.RLIMIT_FSIZE)
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (4096, hard))  # writes past 4 KiB fail
        for _ in range(3):
            answer = post(http, game, tokens[mover], "actions", {"action": move})
            assert answer.status_code == 503 and "could not store" in answer.json()["error"]
        assert page(http, game, tokens[1 - mover])["view"] == seen["view"]
        resource.prlimit(process.pid, resource.RLIMIT_FSIZE, (soft, hard))
        assert post(http, game, tokens[mover], "actions", {"action": move}).status_code == 200
        after = {s: page(http, game, t) for s, t in tokens.items()}
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=15) == 0
        assert "Traceback" not in process.stderr.read()
    with server_process(tmp_path) as (url, process):
        http = httpx2.Client(base_url=url, timeout=10)
        for seat, token in tokens.items():
            again = page(http, game, token)
            assert again["view"] == after[seat]["view"] and again["notes"] == after[seat]["notes"]


# ------------------------------------------------------------------ one move per click


def test_a_move_sent_twice_with_its_id_is_played_once_even_after_a_restart(
    store: TableStore,
) -> None:
    with serving(create_app(registry=registry_on(store))) as client:
        game, tokens = two_people(client)
        mover = to_move(client, game, tokens)
        move = first_draw(page(client, game, tokens[mover])["view"])
        body = {"action": move, "move": "click-1"}
        first = post(client, game, tokens[mover], "actions", body)
        second = post(client, game, tokens[mover], "actions", body)  # a network retry
        assert first.status_code == second.status_code == 200
        hand = sum(first.json()["view"]["hand"].values())
        assert sum(second.json()["view"]["hand"].values()) == hand
        assert second.json()["view"] == first.json()["view"]
        bad = post(client, game, tokens[mover], "actions", {"action": move, "move": "a b"})
        assert bad.status_code == 400 and "'move'" in bad.json()["error"]
        # The other seat's ids are its own: the same id there is a new move.
        history = store.run(lambda db: db.load(game)).actions
        assert [a.move for a in history].count("click-1") == 1
    with serving(create_app(registry=registry_on(store))) as client:
        again = post(client, game, tokens[mover], "actions", body)
        assert again.status_code == 200
        assert sum(again.json()["view"]["hand"].values()) == hand


def test_two_copies_of_a_move_sent_at_once_are_played_once(store: TableStore) -> None:
    registry = registry_on(store)
    with serving(create_app(registry=registry)) as client:
        game, tokens = two_people(client)
        mover = to_move(client, game, tokens)
        table = table_of(registry, game)
        before = len(table.state.history)
        move = first_draw(page(client, game, tokens[mover])["view"])
        answers: list[int] = []

        def send() -> None:
            body = {"action": move, "move": "same"}
            answers.append(post(client, game, tokens[mover], "actions", body).status_code)

        threads = [threading.Thread(target=send) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert answers == [200] * 4 and len(table.state.history) == before + 1


# ------------------------------------------------------------------ the change counter


def test_a_page_never_hears_nothing_changed_after_a_restart_or_a_reload(
    store: TableStore,
) -> None:
    registry = registry_on(store)
    with serving(create_app(registry=registry)) as client:
        game, tokens = two_people(client)
        revision = page(client, game, tokens[0])["revision"]
        since = f"/api/games/{game}?since={revision}"
        assert client.get(since, headers=auth(tokens[0])).status_code == 204
        clock = registry.clock
        assert isinstance(clock, Clock)
        clock.now += registry.idle_seconds + 1
        assert client.portal.call(registry.expire, clock.now) == 1
        reloaded = client.get(since, headers=auth(tokens[0]))
        assert reloaded.status_code == 200 and reloaded.json()["revision"] != revision
        revision = reloaded.json()["revision"]
    with serving(create_app(registry=registry_on(store))) as client:
        answer = client.get(f"/api/games/{game}?since={revision}", headers=auth(tokens[0]))
        assert answer.status_code == 200 and answer.json()["revision"] != revision


# ------------------------------------------------------------------ restart paths


def test_every_step_of_a_game_survives_a_restart_and_a_finished_game_reloads(
    store: TableStore,
) -> None:
    """Started again after each of a person's moves (the bot answering between),
    the server gives back exactly the game it stored, and it plays on to the end;
    a finished game opens again from the store with its record."""
    game = None
    tokens: dict[int, str] = {}
    last: dict | None = None
    for step in range(8):
        registry = registry_on(store)
        with serving(create_app(registry=registry, test_hooks=True)) as client:
            if game is None:
                game, tokens = start(client, ["human", "greedy"], game_map="iran", seed=11)
            table = settle(client, registry, game)
            now = page(client, game, tokens[0])
            if last is not None:
                assert now["view"] == last["view"] and now["log"] == last["log"], step
            view = now["view"]
            if step == 0:
                action = "keep 0,1"
            else:
                assert view["to_move"] == 0, step
                action = first_draw(view)
            assert post(client, game, tokens[0], "actions", {"action": action}).status_code == 200
            settle(client, registry, game)
            last = page(client, game, tokens[0])
            stored = store.run(lambda db, game=game: db.load(game))
            assert len(stored.actions) == len(table.state.history)
    with serving(create_app(registry=registry_on(store), test_hooks=True)) as client:
        over = post(client, game, tokens[0], "fast-forward", {}).json()
        assert over["result"] is not None
    registry = registry_on(store)
    with serving(create_app(registry=registry, test_hooks=True)) as client:
        assert game not in registry  # a finished game is not read back at start...
        record = client.get(f"/api/games/{game}/record", headers=auth(tokens[0]))
        assert record.status_code == 200  # ...but opens from the store when asked for
        assert page(client, game, tokens[0])["result"] == over["result"]


# ------------------------------------------------------------------ the store owns its file


def digest_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sqlite_file(*statements: str) -> Any:
    """A maker of an SQLite file that runs `statements` (another application's)."""

    def make(path: Path) -> None:
        connection = sqlite3.connect(path)
        for statement in statements:
            connection.execute(statement)
        connection.commit()
        connection.close()

    return make


foreign = sqlite_file("CREATE TABLE songs (title TEXT)", "INSERT INTO songs VALUES ('x')")
foreign_in_wal_mode = sqlite_file("PRAGMA journal_mode = WAL", "CREATE TABLE songs (title TEXT)")
other_application_id = sqlite_file("PRAGMA application_id = 1234", "CREATE TABLE games (id TEXT)")
#: Version 1 in its header, but not ttr's tables.
pretends_to_be_ttr = sqlite_file("PRAGMA user_version = 1", "CREATE TABLE games (id TEXT)")


def newer(path: Path) -> None:
    TableStore(path).close()
    sqlite_file(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")(path)


def garbage(path: Path) -> None:
    path.write_bytes(os.urandom(20_000))


def text(path: Path) -> None:
    path.write_text("games: none\n" * 50, encoding="utf-8")


def damaged_in_the_middle(path: Path) -> None:
    store = TableStore(path)
    rows = [
        (f"g{i:05}", "m", "f", "{}", i, 0, "normal", None, "x" * 64, 0, 0, 0) for i in range(3000)
    ]

    def fill(db: Database) -> None:
        with db.connection:
            db.connection.executemany(f"INSERT INTO games VALUES ({', '.join('?' * 12)})", rows)

    store.run(fill)
    store.close()
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 4096] = bytes(range(256)) * 16
    path.write_bytes(bytes(data))


HOSTILE = {
    "another application's": (foreign, "another application's SQLite database"),
    "another application's, in WAL mode": (foreign_in_wal_mode, "another application's"),
    "another application id": (other_application_id, "application id 0x4d2"),
    "version 1 without ttr's tables": (pretends_to_be_ttr, "not a ttr table database"),
    "a newer ttr's": (newer, "written by a newer ttr"),
    "random bytes": (garbage, "not an SQLite file"),
    "a text file": (text, "not an SQLite file"),
    "damaged in the middle": (damaged_in_the_middle, "damaged"),
}


@pytest.mark.parametrize("make", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_database_the_server_does_not_own_is_refused_byte_for_byte(
    tmp_path: Path, make: Any
) -> None:
    make_file, message = make
    path = tmp_path / DATABASE_NAME
    make_file(path)
    before = {p.name: digest_of(p) for p in tmp_path.iterdir()}
    with pytest.raises(StoreError, match=message) as refused:
        open_data_folder(tmp_path)
    assert str(path) in str(refused.value) and "left as it was" in str(refused.value)
    assert digest_of(path) == before[path.name]


def test_ttr_serve_refuses_a_database_it_does_not_own_with_exit_2(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ttr_core.cli import app as cli_app

    foreign(tmp_path / DATABASE_NAME)
    before = digest_of(tmp_path / DATABASE_NAME)
    result = CliRunner().invoke(cli_app, ["serve", "--data", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert DATABASE_NAME in result.output and "another application's" in result.output
    assert "Traceback" not in result.output
    assert digest_of(tmp_path / DATABASE_NAME) == before


def test_a_version_1_database_is_brought_up_to_date_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / DATABASE_NAME
    store = TableStore(path)
    store.run(lambda db: db.connection.execute("DROP TABLE actions"))
    store.run(
        lambda db: db.connection.execute(
            "CREATE TABLE actions (game TEXT NOT NULL, number INTEGER NOT NULL, seat INTEGER, "
            "action TEXT NOT NULL, remark TEXT, PRIMARY KEY (game, number))"
        )
    )
    store.run(lambda db: db.connection.execute("PRAGMA user_version = 1"))
    store.run(lambda db: db.connection.execute("PRAGMA application_id = 0"))
    store.close()
    store = TableStore(path)
    try:
        assert store.run(lambda db: db.schema_version()) == SCHEMA_VERSION
        columns = store.run(
            lambda db: db.connection.execute("PRAGMA table_info(actions)").fetchall()
        )
        assert "move" in [column[1] for column in columns]
    finally:
        store.close()


def test_the_main_file_alone_holds_every_stored_game(store: TableStore, tmp_path: Path) -> None:
    """After every stored change, a copy of the main file alone (no -wal, no -shm:
    a backup that copies one file, or a folder whose -wal was removed) opens as the
    same game, while the server still runs and without it ever closing the store."""
    registry = registry_on(store)
    with serving(create_app(registry=registry)) as client:
        game, tokens = two_people(client)
        for step in range(6):
            if step == 5:
                post(client, game, tokens[0], "notes", {"text": "kept"})
            else:
                mover = to_move(client, game, tokens)
                move = first_draw(page(client, game, tokens[mover])["view"])
                answer = post(client, game, tokens[mover], "actions", {"action": move})
                assert answer.status_code == 200
            last = page(client, game, tokens[0])
            copy = tmp_path / f"copy{step}" / DATABASE_NAME
            copy.parent.mkdir()
            shutil.copy(store.path, copy)
            assert not Path(f"{copy}-wal").exists()
            alone = TableStore(copy)
            try:
                with serving(create_app(registry=registry_on(alone))) as again:
                    seen = page(again, game, tokens[0])
                    assert seen["view"] == last["view"] and seen["notes"] == last["notes"], step
            finally:
                alone.close()


def test_a_backup_with_sqlites_backup_api_holds_every_game(
    store: TableStore, tmp_path: Path
) -> None:
    with serving(create_app(registry=registry_on(store))) as client:
        game, tokens = two_people(client)
        store.backup(tmp_path / "backup.sqlite3")
        last = page(client, game, tokens[0])
    copy = TableStore(tmp_path / "backup.sqlite3")
    try:
        with serving(create_app(registry=registry_on(copy))) as client:
            assert page(client, game, tokens[0])["view"] == last["view"]
    finally:
        copy.close()


def test_garbage_that_appears_while_the_server_runs_is_answered_503_and_logged(
    store: TableStore, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(db: Database, *args: Any) -> None:
        raise sqlite3.DatabaseError("database disk image is malformed")

    registry = registry_on(store)
    with serving(create_app(registry=registry)) as client:
        game, tokens = two_people(client)
        client.portal.call(registry.expire, registry.clock() + registry.idle_seconds + 1)
        monkeypatch.setattr(Database, "load", broken)
        answer = client.get(f"/api/games/{game}", headers=auth(tokens[0]))
    assert answer.status_code == 503 and "could not" in answer.json()["error"]
    assert any("malformed" in record.getMessage() for record in caplog.records)


# ------------------------------------------------------------------ bounds


def test_one_seat_cannot_fill_the_notes(client: TestClient) -> None:
    game, tokens = start(client, ["human", "human"])
    answers = [
        post(client, game, tokens[0], "notes", {"text": f"note {n}"}).status_code
        for n in range(NOTES_PER_WINDOW + 3)
    ]
    assert answers == [200] * NOTES_PER_WINDOW + [429] * 3
    assert post(client, game, tokens[1], "notes", {"text": "mine"}).status_code == 200


def test_names_are_unique_per_table_and_watchers_sign_as_watchers(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"map": "iran", "players": ["human", "human"], "seed": 1}
    ).json()
    game = created["game"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    assert post(client, game, tokens[0], "name", {"name": "Ana"}).status_code == 200
    taken = post(client, game, tokens[1], "name", {"name": " ana "})
    assert taken.status_code == 409 and "already called" in taken.json()["error"]
    assert post(client, game, tokens[0], "name", {"name": "ANA"}).status_code == 200  # own name
    note = post(client, game, created["spectator"], "notes", {"text": "hi", "name": "Ana"})
    assert note.json()["notes"][-1]["name"] == "Ana (watching)"
    assert note.json()["notes"][-1]["seat"] is None


def test_a_replay_of_a_million_brackets_is_refused_before_it_is_parsed(
    client: TestClient,
) -> None:
    body = '{"version": 1, "actions": [' + ",".join(["{}"] * 500_000) + "]}"
    answer = client.post("/api/replays", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "objects and arrays" in answer.json()["error"]


# ------------------------------------------------------------------ bounded stand-ins


@pytest.fixture
def iran_view() -> PlayerView:
    from ttr_core.engine.state import GameState
    from ttr_maps import load_map

    return GameState(load_map("iran"), 2, seed=1).view(0)


class Hung:
    """A bot that never answers until it is let go."""

    name = "hung"

    def __init__(self, release: threading.Event) -> None:
        self.release = release

    def act(self, view: PlayerView) -> Action:
        self.release.wait(30)
        return view.legal_actions()[0]


def test_hung_bots_never_hold_up_the_other_bots(iran_view: PlayerView) -> None:
    """Two light bots hang past their budget; a third bot still answers at once,
    and the hung seats get the stand-in's move (on threads of its own)."""
    from ttr_core.bots import make_bot

    release = threading.Event()
    thinkers = Thinkers(processes=0, move_seconds=0.3)

    async def play() -> list[Any]:
        hung = [thinkers.think(Hung(release), iran_view, heavy=False) for _ in range(2)]
        tasks = [asyncio.ensure_future(h) for h in hung]
        await asyncio.sleep(0.05)
        light = await thinkers.think(make_bot("greedy", 1), iran_view, heavy=False)
        return [light, *await asyncio.gather(*tasks)]

    try:
        light, *stood_in = asyncio.run(play())
    finally:
        release.set()
        thinkers.close()
    assert light.remark is None  # answered by the greedy bot itself, in time
    assert all("took more than 0.3 s" in (move.remark or "") for move in stood_in)
    assert all(move.action in iran_view.legal_actions() for move in [light, *stood_in])
    assert thinkers.left_behind >= 1
