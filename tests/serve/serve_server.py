"""The web table's test support: a real uvicorn server on a free port of
127.0.0.1 (in a thread, or a process of its own), and the helpers of the API tests
(a test client with the lifespan, starting games, waiting for bots)."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.testclient import TestClient

from ttr_core.serve.access import TOKEN_HEADER
from ttr_core.serve.tables import Table, TableRegistry


@contextmanager
def running_server(app: Starlette, port: int = 0) -> Iterator[str]:
    """Serve `app` and yield its base URL (`http://127.0.0.1:PORT`; a free port
    unless `port` is given, e.g. the port of a server started again)."""
    # IPPROTO_TCP named: asyncio then turns Nagle off (TCP_NODELAY) on each connection;
    # with proto 0 a keep-alive answer waits ~40 ms for the delayed ACK.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        listener.close()


def raw_get(base_url: str, raw_path: str) -> int:
    """Send `GET raw_path` exactly as written (no URL normalisation); return the status."""
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        request = f"GET {raw_path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        connection.sendall(request.encode("latin-1"))
        reply = b""
        while chunk := connection.recv(65536):
            reply += chunk
    return int(reply.split(b" ", 2)[1])


@contextmanager
def server_process(data: Path, *options: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """`ttr serve --data DATA` in a process of its own on a free port: its base URL
    and the process (killed at the end if still running)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "serve", "--port", "0", "--data", str(data), *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, (line, process.stderr.read() if process.poll() is not None else "")
        yield match[0].rstrip("/"), process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


#: The address tests send requests to (the server answers for the loopback names).
BASE_URL = "http://127.0.0.1:8000"


class Clock:
    """A clock the tests move by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@contextmanager
def serving(app: Any) -> Iterator[TestClient]:
    """A test client of `app` with its lifespan (the tables' drivers run in it)."""
    with TestClient(app, base_url=BASE_URL) as client:
        yield client


def start(
    client: TestClient,
    players: list[str] | None = None,
    game_map: str = "north_america",
    seed: int | None = 3,
    pace: str = "instant",
    **settings: Any,
) -> tuple[str, dict[int, str]]:
    body = {
        "map": game_map,
        "players": players or ["human", "greedy"],
        "seed": seed,
        "pace": pace,
        **settings,
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data = response.json()
    return data["game"], {s["seat"]: s["token"] for s in data["seats"] if s["token"]}


def auth(token: str) -> dict[str, str]:
    return {TOKEN_HEADER: token}


def table_of(registry: TableRegistry, game: str) -> Table:
    table = registry.live(game)
    assert table is not None
    return table


def settle(client: TestClient, registry: TableRegistry, game: str) -> Table:
    """Wait until the table has nothing left to do by itself: no bot thinking or
    to think, no move due (the bots' moves are played off the request)."""
    table = table_of(registry, game)

    def settled() -> bool:
        return (
            not table.thinking
            and not table.bots_to_think()
            and table.due_in(registry.clock()) is None
        )

    deadline = time.monotonic() + 20
    while not client.portal.call(settled):
        assert time.monotonic() < deadline, "the table's bots did not settle"
        time.sleep(0.005)
    return table


def post(client: TestClient, game: str, token: str, what: str, body: dict) -> Any:
    return client.post(f"/api/games/{game}/{what}", headers=auth(token), json=body)


def until(client: TestClient, condition: Callable[[], bool]) -> None:
    """Wait until `condition()` holds (checked on the server's event loop)."""
    deadline = time.monotonic() + 20
    while not client.portal.call(condition):
        assert time.monotonic() < deadline, "the table never got there"
        time.sleep(0.005)
