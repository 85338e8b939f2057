"""Web table benchmark: server time per request with 50 games held at once, the
database's write time per action, and how other requests fare while 50 search
bots think.

    .venv/bin/python benchmarks/serve_bench.py [--games 50] [--actions 2000] [--bots greedy]
    .venv/bin/python benchmarks/serve_bench.py --live       # also `ttr serve` over TCP
    .venv/bin/python benchmarks/serve_bench.py --search     # 50 games, a search seat each
    .venv/bin/python benchmarks/serve_bench.py --only search --seconds 60
    .venv/bin/python benchmarks/serve_bench.py --only store  # checkpoint variants

In process: every game seats one person and one to four bots (2 to 5 players, in
turn) on the bundled maps, at the `instant` pace, stored in a SQLite database in a
temporary folder (WAL, `synchronous=NORMAL` as `ttr serve` uses it, then `FULL`
for comparison, on the disk that holds the temporary folder). A simple stand-in
chooses the person's actions from the legal actions in the seat's JSON (keep every
ticket, claim when it can, else draw); when it is not its turn it polls
(`GET ?since=`), as the page does. Requests go through the ASGI application
round-robin over the live games (bots think in a thread meanwhile); a finished game
is replaced by a new one. An ASGI wrapper times each request on the server: CPU
time of the serving thread (time.thread_time; the machine may be shared) and wall
time. Each database transaction that stores actions is timed on the store's thread.

`--live` adds a run against `ttr serve` (uvicorn, its own process) on 127.0.0.1 with
one client per game, all 50 at once (a thread each, keep-alive connections):
round-trip wall times, queueing and the clients' own work on this machine included.

`--search` starts `ttr serve` with 50 games of one person and one `search` bot each
(north_america, `instant` pace, `--max-search-seats 50`): 50 clients play their
person's turns and poll in between, so the bots think all the time (in worker
processes, one per core, at a lower priority). Every request's round trip is timed
(the polls are "the other requests" a thinking bot must not hold up): median, p95,
p99 and the largest; the target is a p99 under 100 ms on a quiet machine. The bots'
moves made meanwhile are counted too (one per person's action, at least).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ttr_core.serve.access import TOKEN_HEADER
from ttr_core.serve.app import create_app
from ttr_core.serve.store import Database, StoredAction, TableStore
from ttr_core.serve.tables import TableRegistry
from ttr_core.serve.thinkers import Thinkers

MAPS = ("north_america", "europe", "iran")

#: send(method, path, json body or None, token or None) -> (status, JSON answer)
Send = Callable[[str, str, Any, "str | None"], tuple[int, Any]]


class ServerTimer:
    """ASGI middleware: CPU time of the serving thread and wall time of each request."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.samples: dict[str, list[tuple[float, float]]] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        await self.app(scope, receive, send)
        kind = scope["path"].rsplit("/", 1)[-1] if scope["type"] == "http" else "other"
        if scope["type"] == "http" and scope["method"] == "GET" and kind not in ("setup",):
            kind = "poll"
        self.samples.setdefault(kind, []).append(
            (time.thread_time() - cpu, time.perf_counter() - wall)
        )


class Player:
    """One game's person, played by a stand-in from the seat's JSON."""

    def __init__(self, send: Send, number: int, bots: str, map_id: str | None = None) -> None:
        self.send, self.number, self.bots = send, number, bots
        self.map_id = map_id
        self.game = self.token = ""
        self.view: dict[str, Any] = {}
        self.revision = -1

    def start(self) -> None:
        players = ["human"] + [self.bots] * (1 if self.map_id else 1 + self.number % 4)
        body = {
            "map": self.map_id or MAPS[self.number % 3],
            "players": players,
            "seed": self.number,
            "pace": "instant",
        }
        status, created = self.send("POST", "/api/games", body, None)
        assert status == 201, created
        self.game, self.token = created["game"], created["seats"][0]["token"]
        self.number += 1000  # the next game of this slot differs
        self.poll()

    def poll(self) -> None:
        status, answer = self.send(
            "GET", f"/api/games/{self.game}?since={self.revision}", None, self.token
        )
        assert status in (200, 204), answer
        if status == 200:
            self.view = answer
            self.revision = answer["revision"]

    def my_move(self) -> bool:
        view = self.view["view"]
        mine = view["decision"] is not None or (
            view["phase"] == "playing" and view["to_move"] == view["seat"]
        )
        return mine and not self.view["thinking"] and view["phase"] != "over"

    def choose(self) -> str:
        legal = self.view["view"]["legal"]
        if legal["keep"]:
            return "keep " + ",".join(map(str, legal["keep"][-1]))
        if legal["tunnel"]:
            return legal["tunnel"][0]["action"]
        if legal["claims"]:
            claims = legal["claims"]
            longest = max(claims, key=lambda r: claims[r][0]["colored"] + claims[r][0]["locos"])
            return claims[longest][0]["action"]
        for choice in (legal["draw_deck"], *legal["market"].values(), legal["tickets"]):
            if choice:
                return choice
        return legal["pass"] or legal["give_up"] or "pass"

    def act(self) -> bool:
        """One request: an action when it is my move, a new game when this one is
        over, else a poll. Returns whether an action was played."""
        if self.view["view"]["phase"] == "over":
            self.start()
            return False
        if not self.my_move():
            self.poll()
            return False
        body = {"action": self.choose()}
        status, answer = self.send("POST", f"/api/games/{self.game}/actions", body, self.token)
        if status == 409:  # a bot moved meanwhile (a setup choice): look again
            self.poll()
            return False
        assert status == 200, answer
        self.view, self.revision = answer, answer["revision"]
        return True


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def spread(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):.2f}, p95 {percentile(values, 0.95):.2f}, "
        f"p99 {percentile(values, 0.99):.2f}, max {max(values):.2f}"
    )


def in_process(games: int, actions: int, bots: str, synchronous: str) -> None:
    from starlette.testclient import TestClient

    writes: list[tuple[float, float]] = []
    original = Database.append

    def timed_append(self: Database, *args: Any) -> None:
        cpu, wall = time.thread_time(), time.perf_counter()
        original(self, *args)
        writes.append((time.thread_time() - cpu, time.perf_counter() - wall))

    Database.append = timed_append  # type: ignore[method-assign]
    folder = tempfile.mkdtemp(prefix="ttr-serve-bench-")
    store = TableStore(Path(folder) / "tables.sqlite3", synchronous=synchronous)
    registry = TableRegistry(store=store, thinkers=Thinkers(processes=0))
    timer = ServerTimer(create_app(registry=registry))
    try:
        with TestClient(timer, base_url="http://127.0.0.1:8000") as client:

            def send(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
                headers = {TOKEN_HEADER: token} if token else {}
                response = client.request(method, path, json=body, headers=headers)
                return response.status_code, (response.json() if response.content else None)

            players = [Player(send, number, bots) for number in range(games)]
            for player in players:
                player.start()
            timer.samples.clear()
            writes.clear()
            done = 0
            while done < actions:
                for player in players:
                    done += player.act()
            held = len(registry)
    finally:
        Database.append = original  # type: ignore[method-assign]
        store.close()
    cpu = [s[0] * 1000 for s in timer.samples["actions"]]
    wall = [s[1] * 1000 for s in timer.samples["actions"]]
    polls = [s[1] * 1000 for s in timer.samples["poll"]]
    print(
        f"{games} games held at once ({held} at the end); bots: {bots}; "
        f"database synchronous={synchronous}"
    )
    print(
        f"  server time per person's action ({len(cpu)}; bots reply off the request): "
        f"CPU ms {spread(cpu)}; wall ms {spread(wall)}"
    )
    print(f"  server wall time per poll ({len(polls)}): ms {spread(polls)}")
    write_wall = [w[1] * 1000 for w in writes]
    write_cpu = [w[0] * 1000 for w in writes]
    print(
        f"  database write per stored step ({len(writes)} transactions, one action or a "
        f"bot's moves in a row): wall ms {spread(write_wall)}; CPU ms "
        f"median {statistics.median(write_cpu):.3f}"
    )


class NoCheckpoint(TableStore):
    """For reference only: answers a change without checkpointing (the main file
    alone would then not hold it, which `ttr serve` promises)."""

    def _checkpoint(self, written: list[tuple[Any, Any]]) -> None:
        for future, answer in written:
            future.set_result(answer)
        written.clear()


def store_writes(rounds: int, burst: int) -> None:
    """The database alone: one action appended per write, to one game, by the
    checkpoint variants in turn (alternated, `rounds` times): one write at a time
    (what a person's move waits for), and `burst` writes submitted at once (many
    tables moving together)."""
    variants: dict[str, tuple[type[TableStore], int, str]] = {
        "each write, PASSIVE (before)": (TableStore, 1, "PASSIVE"),
        "each write, TRUNCATE": (TableStore, 1, "TRUNCATE"),
        "grouped, PASSIVE (now)": (TableStore, TableStore.CHECKPOINT_GROUP, "PASSIVE"),
        "no checkpoint (reference)": (NoCheckpoint, 1, "PASSIVE"),
    }
    stores: dict[str, TableStore] = {}
    for name, (kind, group, mode) in variants.items():
        store = kind(Path(tempfile.mkdtemp(prefix="ttr-serve-bench-")) / "tables.sqlite3")
        store.CHECKPOINT_GROUP, store.CHECKPOINT_MODE = group, mode
        store.run(lambda db: db.insert(bench_game()))
        stores[name] = store
    numbers = {name: 0 for name in variants}
    single: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    bursts: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for _ in range(rounds):
        for name, store in stores.items():
            for _ in range(10):
                cpu, wall = time.process_time(), time.perf_counter()
                store.run(appender(numbers, name))
                single[name].append((time.process_time() - cpu, time.perf_counter() - wall))
            cpu, wall = time.process_time(), time.perf_counter()
            futures = [store.submit(appender(numbers, name)) for _ in range(burst)]
            for future in futures:
                future.result()
            bursts[name].append(
                ((time.process_time() - cpu) / burst, (time.perf_counter() - wall) / burst)
            )
    for store in stores.values():
        store.close()
    print(f"database writes, one action each ({os.getloadavg()[0]:.1f} load):")
    for name in variants:
        one = [w * 1000 for _, w in single[name]]
        many = [w * 1000 for _, w in bursts[name]]
        print(
            f"  {name:28} one at a time: wall ms {spread(one)}, CPU ms median "
            f"{statistics.median(c * 1000 for c, _ in single[name]):.2f}; "
            f"{burst} at once: wall ms per write median {statistics.median(many):.2f}, "
            f"CPU ms {statistics.median(c * 1000 for c, _ in bursts[name]):.2f}"
        )


def bench_game() -> Any:
    from ttr_core.serve.store import StoredGame, StoredSeat

    seats = (StoredSeat("human", "0" * 64), StoredSeat("greedy", None))
    return StoredGame(
        "bench", "north_america", "f", {}, 1, False, "instant", None, "0" * 64, 0.0, 0.0,
        False, seats,
    )  # fmt: skip


def appender(numbers: dict[str, int], name: str) -> Callable[[Database], None]:
    number = numbers[name]
    numbers[name] += 1
    action = StoredAction(0, "draw deck")
    return lambda db: db.append("bench", number, [action], float(number), False)


def start_server(*options: str) -> tuple[Any, str, int, str]:
    import re
    import subprocess
    import sys

    data = tempfile.mkdtemp(prefix="ttr-serve-bench-")
    server = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "serve", "--port", "0", "--data", data, *options],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    found = re.search(r"http://([\d.]+):(\d+)", server.stdout.readline())
    assert found, "ttr serve printed no URL"
    return server, found[1], int(found[2]), data


def connection_sender(host: str, port: int) -> tuple[Send, list[tuple[str, float]]]:
    """A keep-alive connection's `send`, timing every round trip by kind (`poll`,
    `action`, `create`)."""
    import socket

    connection = http.client.HTTPConnection(host, port, timeout=120)
    connection.connect()
    # http.client sends a POST's headers and body in two writes: without NODELAY the
    # body waits for the server's delayed ACK (40-200 ms). Browsers set it too.
    connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    times: list[tuple[str, float]] = []

    def send(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers[TOKEN_HEADER] = token
        data = None if body is None else json.dumps(body)
        start = time.perf_counter()
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        kind = "poll" if method == "GET" else ("create" if path == "/api/games" else "action")
        times.append((kind, (time.perf_counter() - start) * 1000))
        return response.status, (json.loads(raw) if raw else None)

    return send, times


def live(games: int, actions: int, bots: str) -> None:
    import signal

    server, host, port, _ = start_server()
    try:
        round_trips: list[float] = []

        def drive(number: int) -> None:
            send, times = connection_sender(host, port)
            player = Player(send, number, bots)
            player.start()
            played = 0
            while played < actions // games:
                played += player.act()
                time.sleep(0.01)
            round_trips.extend(t for kind, t in times if kind == "action")

        with ThreadPoolExecutor(max_workers=games) as pool:
            list(pool.map(drive, range(games)))
        print(
            f"live: {games} clients at once over TCP, {len(round_trips)} actions; "
            f"round trip ms {spread(round_trips)}"
        )
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=15)


def search_load(games: int, seconds: float) -> None:
    """50 games with one search seat each: how long every other request waits."""
    import signal

    server, host, port, _ = start_server("--max-search-seats", str(games))
    stop = threading.Event()
    results: list[tuple[list[tuple[str, float]], int]] = []
    lock = threading.Lock()
    try:

        def drive(number: int) -> None:
            send, times = connection_sender(host, port)
            player = Player(send, number, "search", "north_america")
            player.start()
            mine = 0
            while not stop.is_set():
                mine += player.act()
                time.sleep(0.3)  # the page polls every 300 ms
            with lock:
                results.append((times, mine))

        pool = ThreadPoolExecutor(max_workers=games)
        started = time.perf_counter()
        load = os.getloadavg()[0]
        futures = [pool.submit(drive, number) for number in range(games)]
        time.sleep(seconds)
        stop.set()
        for future in futures:
            future.result()
        elapsed = time.perf_counter() - started
        pool.shutdown()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)

    def kind(name: str) -> list[float]:
        return [t for times, _ in results for k, t in times if k == name]

    polls, posts, made = kind("poll"), kind("action"), kind("create")
    people = sum(mine for _, mine in results)
    print(
        f"search: {games} games at once, a search seat each, {elapsed:.0f} s "
        f"(load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end, "
        f"{os.cpu_count()} cores)"
    )
    print(f"  games started, all at once ({len(made)}): round trip ms {spread(made)}")
    print(f"  polls while the bots thought ({len(polls)}): round trip ms {spread(polls)}")
    print(
        f"  people's actions ({people}; each answered by a search move): round trip ms "
        f"{spread(posts)}"
    )
    everything = polls + posts
    print(
        f"  every request but the start: p99 {percentile(everything, 0.99):.1f} ms "
        f"(target under 100 ms on a quiet machine)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--bots", default="greedy", help="The bot in every other seat.")
    parser.add_argument("--live", action="store_true", help="Also run against `ttr serve`.")
    parser.add_argument("--search", action="store_true", help="Also the search-bot load.")
    parser.add_argument(
        "--seconds", type=float, default=60.0, help="How long the search load runs."
    )
    parser.add_argument("--only", choices=("search", "store"), help="Run only this part.")
    parser.add_argument("--rounds", type=int, default=20, help="Rounds of `--only store`.")
    args = parser.parse_args()
    if args.only == "store":
        store_writes(args.rounds, burst=50)
        return
    if args.only != "search":
        for synchronous in ("NORMAL", "FULL"):
            in_process(args.games, args.actions, args.bots, synchronous)
        if args.live:
            live(args.games, args.actions, args.bots)
    if args.search or args.only == "search":
        search_load(args.games, args.seconds)


if __name__ == "__main__":
    main()
