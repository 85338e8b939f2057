"""Benchmark of `ttr lsp`: how long after an edit the editor shows the diagnostics.

Run with `.venv/bin/python benchmarks/lsp_bench.py [--rounds N] [--no-big]`. A real
client (pygls' `LanguageClient`) starts `ttr lsp` over stdio, as an editor does,
opens each bundled map and then edits it: each round sends one change (a ticket
value made wrong, then right again) and times, on the wall clock, from sending the
change to receiving the diagnostics of that version (target: under 300 ms, the
debounce of `DEBOUNCE_SECONDS` included). It also times a burst of typing (five
changes 40 ms apart: one check, after the last), the server's CPU time per check,
and the check itself in this process (CPU time: `validate_text` and the outline,
what one snapshot costs).

With the big map (default; `--no-big` leaves it out) the same is done once on the
10,000-city map of `validate_bench.py`, far past any real board.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

import psutil
from lsprotocol import types
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from validate_bench import generate_map  # noqa: E402

from ttr_core.lsp.server import DEBOUNCE_SECONDS  # noqa: E402
from ttr_core.lsp.snapshot import take_snapshot  # noqa: E402

BUNDLED = ("north_america", "europe", "iran")


class Bench:
    """One `ttr lsp` process and the times its diagnostics arrive."""

    def __init__(self) -> None:
        self.client = LanguageClient("lsp-bench", "1")
        self.arrived: dict[tuple[str, int | None], float] = {}
        self.event = asyncio.Event()
        self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(
            lambda params: self._published(params)
        )
        self.versions: dict[str, int] = {}

    def _published(self, params: types.PublishDiagnosticsParams) -> None:
        self.arrived[(params.uri, params.version)] = time.perf_counter()
        self.event.set()

    async def start(self) -> psutil.Process:
        await self.client.start_io(sys.executable, "-m", "ttr_core", "lsp")
        await self.client.initialize_async(
            types.InitializeParams(capabilities=types.ClientCapabilities(), process_id=None)
        )
        self.client.initialized(types.InitializedParams())
        assert self.client._server is not None
        return psutil.Process(self.client._server.pid)

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def wait(self, uri: str, version: int, timeout: float = 120.0) -> float:
        deadline = time.perf_counter() + timeout
        while (uri, version) not in self.arrived:
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), max(deadline - time.perf_counter(), 0.01))
        return self.arrived[(uri, version)]

    async def open(self, uri: str, text: str) -> float:
        self.versions[uri] = 1
        item = types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        started = time.perf_counter()
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
        return await self.wait(uri, 1) - started

    def change(self, uri: str, text: str) -> int:
        self.versions[uri] += 1
        version = self.versions[uri]
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return version

    async def edit(self, uri: str, text: str) -> float:
        started = time.perf_counter()
        version = self.change(uri, text)
        return await self.wait(uri, version) - started

    async def burst(self, uri: str, texts: list[str], gap: float) -> float:
        version = 0
        for text in texts:
            sent = time.perf_counter()
            version = self.change(uri, text)
            await asyncio.sleep(gap)
        return await self.wait(uri, version) - sent


def broken_value(text: str) -> str:
    """The text with its first ticket value one more than it is."""
    start = text.index("value: ", text.index("\ntickets:")) + len("value: ")
    end = start
    while text[end].isdigit():
        end += 1
    return text[:start] + str(int(text[start:end]) + 1) + text[end:]


def check_cpu_ms(text: str, repeats: int = 10) -> float:
    """CPU time of one snapshot (validate_text and the outline), in this process."""
    take_snapshot("file:///bench.yaml", "/bench.yaml", 1, text, "utf-16")
    started = time.process_time()
    for _ in range(repeats):
        take_snapshot("file:///bench.yaml", "/bench.yaml", 1, text, "utf-16")
    return (time.process_time() - started) / repeats * 1000


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.0f}"


async def run(rounds: int, big: bool) -> None:
    bench = Bench()
    server = await bench.start()
    print(
        f"ttr lsp, {rounds} edits per map, debounce {DEBOUNCE_SECONDS * 1000:.0f} ms "
        f"(in every latency), load average {psutil.getloadavg()[0]:.2f}\n"
    )
    print("map              open ms  after an edit: median    p90    max ms  "
          "burst ms  server CPU/check ms  check CPU ms")  # fmt: skip
    maps = [(map_id, (ROOT / "maps" / f"{map_id}.yaml").read_text("utf-8")) for map_id in BUNDLED]
    if big:
        maps.append(("10,000 cities", generate_map()))
    for name, text in maps:
        uri = (ROOT / f"bench-{name.replace(' ', '_')}.yaml").as_uri()
        opened = await bench.open(uri, text)
        broken = broken_value(text)
        count = rounds if not name[0].isdigit() else 3
        cpu_before = sum(server.cpu_times()[:2])
        latencies = [await bench.edit(uri, broken if i % 2 == 0 else text) for i in range(count)]
        cpu_per_check = (sum(server.cpu_times()[:2]) - cpu_before) / count
        typing = [text.replace("\ntickets:", f"\n# typing {i}\ntickets:", 1) for i in range(5)]
        burst = await bench.burst(uri, typing, 0.04)
        latencies.sort()
        p90 = latencies[min(len(latencies) - 1, round(0.9 * (len(latencies) - 1)))]
        print(
            f"{name:15} {ms(opened)}  {' ' * 14}{ms(statistics.median(latencies))} {ms(p90)} "
            f"{ms(latencies[-1])}   {ms(burst)}  {cpu_per_check * 1000:19.0f}  "
            f"{check_cpu_ms(text, 10 if count == rounds else 1):12.0f}"
        )
    await bench.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40, help="edits per bundled map")
    parser.add_argument("--no-big", action="store_true", help="leave out the 10,000-city map")
    options = parser.parse_args()
    asyncio.run(run(options.rounds, not options.no_big))


if __name__ == "__main__":
    main()
