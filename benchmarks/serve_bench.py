"""Web table benchmark: server time per human action, the bots' replies included,
with 50 games held at once by one server process.

    .venv/bin/python benchmarks/serve_bench.py [--games 50] [--actions 2000] [--bots greedy]
    .venv/bin/python benchmarks/serve_bench.py --live     # also through uvicorn over TCP

Every game seats one person and one to four bots (2 to 5 players, in turn) on the
bundled maps, at the `instant` pace, so each person's action is answered with every
bot move up to that person's next decision. A simple stand-in chooses the person's
actions from the legal actions in the seat's JSON (keep every ticket, claim when it
can, else draw). Requests go through
the ASGI application round-robin over the live games (one at a time); a finished game
is replaced by a new one. An ASGI wrapper times each request on the server: CPU time
of the serving thread (time.thread_time; the machine may be shared) and wall time.

`--live` adds a run against `ttr serve` (uvicorn, its own process) on 127.0.0.1 with
one client per game, all 50 at once (a thread each, keep-alive connections):
round-trip wall times, queueing and the clients' own work on this machine included.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ttr_core.serve.app import TOKEN_HEADER, create_app
from ttr_core.serve.tables import TableRegistry

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
        self.samples.setdefault(kind, []).append(
            (time.thread_time() - cpu, time.perf_counter() - wall)
        )


class Player:
    """One game's person, played by a stand-in from the seat's JSON."""

    def __init__(self, send: Send, number: int, bots: str) -> None:
        self.send, self.number, self.bots = send, number, bots
        self.game = self.token = ""
        self.view: dict[str, Any] = {}

    def start(self) -> None:
        players = ["human"] + [self.bots] * (1 + self.number % 4)
        body = {"map": MAPS[self.number % 3], "players": players, "seed": self.number}
        body["pace"] = "instant"
        status, created = self.send("POST", "/api/games", body, None)
        assert status == 201, created
        self.game, self.token = created["game"], created["seats"][0]["token"]
        self.number += 1000  # the next game of this slot differs
        self.view = self.send("GET", f"/api/games/{self.game}", None, self.token)[1]

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

    def act(self) -> None:
        """One action of the person, or a new game when this one is over."""
        if self.view["view"]["phase"] == "over":
            self.start()
            return
        body = {"action": self.choose()}
        status, self.view = self.send("POST", f"/api/games/{self.game}/actions", body, self.token)
        assert status == 200, self.view


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def in_process(games: int, actions: int, bots: str) -> None:
    from starlette.testclient import TestClient

    registry = TableRegistry()
    timer = ServerTimer(create_app(registry=registry))
    with TestClient(timer) as client:

        def send(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
            headers = {TOKEN_HEADER: token} if token else {}
            response = client.request(method, path, json=body, headers=headers)
            return response.status_code, response.json()

        players = [Player(send, number, bots) for number in range(games)]
        for player in players:
            player.start()
        timer.samples.clear()
        done = 0
        while done < actions:
            for player in players:
                player.act()
                done += 1
        held = len(registry)
    cpu = [s[0] * 1000 for s in timer.samples["actions"]]
    wall = [s[1] * 1000 for s in timer.samples["actions"]]
    print(f"{games} games held at once ({held} at the end); bots: {bots}")
    print(
        f"server time per human action, bot replies included ({len(cpu)} actions): "
        f"CPU ms median {statistics.median(cpu):.2f}, p99 {percentile(cpu, 0.99):.2f}, "
        f"max {max(cpu):.2f}; wall ms median {statistics.median(wall):.2f}, "
        f"p99 {percentile(wall, 0.99):.2f}"
    )


def live(games: int, actions: int, bots: str) -> None:
    import re
    import signal
    import subprocess
    import sys

    server = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        found = re.search(r"http://([\d.]+):(\d+)", server.stdout.readline())
        assert found, "ttr serve printed no URL"
        host, port = found[1], int(found[2])
        round_trips: list[float] = []

        def drive(number: int) -> None:
            connection = http.client.HTTPConnection(host, port, timeout=60)

            def send(method: str, path: str, body: Any, token: str | None) -> tuple[int, Any]:
                headers = {"Content-Type": "application/json"}
                if token:
                    headers[TOKEN_HEADER] = token
                data = None if body is None else json.dumps(body)
                connection.request(method, path, body=data, headers=headers)
                response = connection.getresponse()
                return response.status, json.loads(response.read())

            player = Player(send, number, bots)
            player.start()
            for _ in range(actions // games):
                start = time.perf_counter()
                player.act()
                round_trips.append((time.perf_counter() - start) * 1000)
            connection.close()

        with ThreadPoolExecutor(max_workers=games) as pool:
            list(pool.map(drive, range(games)))
        print(
            f"live: {games} clients at once over TCP, {len(round_trips)} actions; round trip "
            f"ms median {statistics.median(round_trips):.1f}, "
            f"p99 {percentile(round_trips, 0.99):.1f}"
        )
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--bots", default="greedy", help="The bot in every other seat.")
    parser.add_argument("--live", action="store_true", help="Also run against `ttr serve`.")
    args = parser.parse_args()
    in_process(args.games, args.actions, args.bots)
    if args.live:
        live(args.games, args.actions, args.bots)


if __name__ == "__main__":
    main()
