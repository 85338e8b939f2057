"""Where the web table's bots think: never on the server's event loop.

A bot's move is `bot.act(view)`: the bot gets its seat's `PlayerView` (never the
state, R5) and answers with an action. The server asks it here and goes on
answering everyone else meanwhile:

- a bot that thinks hard (`BotSpec.heavy`: `search`) thinks in a worker process,
  one move at a time per worker, at a lower CPU priority than the server (so a
  page's request is served first even when every core searches). The bot and its
  view are sent pickled, and the bot comes back with its new state: a worker
  keeps nothing between moves but the compiled boards it was sent (by map), so
  any worker can play any seat;
- the other bots answer in a few milliseconds; they think in a thread.

Every move has a time budget (`move_seconds`). A bot over it, or one that fails,
is not waited for: its seat plays the greedy bot's move for it this time (and
the table says so); a worker over its budget is stopped and replaced.

>>> import asyncio
>>> from ttr_core.bots import make_bot
>>> from ttr_core.engine.state import GameState
>>> from ttr_maps import load_map
>>> view = GameState(load_map("iran"), 2, seed=1).view(0)
>>> thinkers = Thinkers(processes=0)
>>> move = asyncio.run(thinkers.think(make_bot("greedy", 1), view, heavy=False))
>>> move.action in view.legal_actions(), move.remark
(True, None)
>>> thinkers.close()
"""

from __future__ import annotations

import asyncio
import io
import os
import pickle
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ttr_core.bots import Bot, make_bot
from ttr_core.engine.actions import Action
from ttr_core.engine.compiled import Board
from ttr_core.engine.view import PlayerView

#: Seconds a bot may think over one move before its seat plays a stand-in's move.
DEFAULT_MOVE_SECONDS = 15.0
#: The bot whose move a seat plays when its own bot is out of time or fails.
STAND_IN = "greedy"
#: How much lower the workers' CPU priority is than the server's (Unix `nice`).
WORKER_NICENESS = 10


@dataclass(frozen=True)
class Move:
    """A bot's answer: the action, the bot as it is after thinking (a worker's
    copy comes back), and what the table should say besides (None: nothing)."""

    action: Action
    bot: Bot
    remark: str | None = None


class _Pickler(pickle.Pickler):
    """Pickles a view without its compiled board (large, and the same all game):
    the board goes by its map's id, sent once to each worker."""

    def __init__(self, file: io.BytesIO, board: Board) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.board = board

    def persistent_id(self, obj: Any) -> Any:
        return "board" if obj is self.board else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, board: Board) -> None:
        super().__init__(file)
        self.board = board

    def persistent_load(self, pid: Any) -> Any:
        if pid != "board":
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")
        return self.board


def _board_key(board: Board) -> str:
    from ttr_core.engine.record import map_fingerprint

    order = "file" if board.file_order else "play"  # old records replay in file order
    return f"{board.map.id}:{map_fingerprint(board.map)}:{order}"


def _read_frame(stream: Any) -> bytes | None:
    """One message: its length (8 bytes, big-endian), then its bytes; None at the end."""
    head = stream.read(8)
    if len(head) < 8:
        return None
    size = int.from_bytes(head, "big")
    data = stream.read(size)
    return data if len(data) == size else None


def _write_frame(stream: Any, data: bytes) -> None:
    stream.write(len(data).to_bytes(8, "big") + data)
    stream.flush()


def work(source: Any = None, sink: Any = None) -> None:
    """A worker process (`python -m ttr_core.serve.thinkers`): answer moves read
    from stdin on stdout until stdin closes."""
    source = source or sys.stdin.buffer
    sink = sink or sys.stdout.buffer
    if WORKER_NICENESS:
        os.nice(WORKER_NICENESS)
    boards: dict[str, Board] = {}
    while (message := _read_frame(source)) is not None:
        try:
            key, game_map, payload = pickle.loads(message)
            if key not in boards:
                from ttr_core.engine.compiled import board_for

                boards[key] = board_for(game_map, file_order=key.endswith(":file"))
            bot, view = _Unpickler(io.BytesIO(payload), boards[key]).load()
            action = bot.act(view)
            answer = pickle.dumps(("ok", action, bot), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # a bot's bug: the server plays a stand-in
            answer = pickle.dumps(("error", f"{type(error).__name__}: {error}", None))
        _write_frame(sink, answer)


class _Worker:
    """One worker process (a fresh Python running `work`) and the boards it has
    been sent. A process of its own, not `multiprocessing`'s: nothing of the
    server (its threads, its main module) is copied or imported again."""

    def __init__(self) -> None:
        import subprocess

        self.process = subprocess.Popen(
            [sys.executable, "-m", "ttr_core.serve.thinkers"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
        )
        self.boards: set[str] = set()

    def ask(self, message: bytes) -> Any:
        """Send one move and wait for the answer (on a thread of its own)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        _write_frame(self.process.stdin, message)
        answer = _read_frame(self.process.stdout)
        if answer is None:
            raise _BotFailed("the worker process stopped")
        return pickle.loads(answer)

    def kill(self) -> None:
        self.process.kill()

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


class Thinkers:
    """Bots' moves, off the event loop. `processes`: worker processes for heavy
    bots (0: heavy bots think in the thread too, as in tests); they start when
    the first heavy bot thinks."""

    def __init__(
        self, processes: int | None = None, move_seconds: float = DEFAULT_MOVE_SECONDS
    ) -> None:
        self.processes = (os.cpu_count() or 1) if processes is None else processes
        self.move_seconds = move_seconds
        self._threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ttr-bot")
        #: One thread per worker, waiting on its pipe.
        self._pipes = ThreadPoolExecutor(
            max_workers=max(self.processes, 1), thread_name_prefix="ttr-pipe"
        )
        #: Starting and stopping workers (never behind a thread stuck on a pipe).
        self._keeper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ttr-workers")
        self._idle: asyncio.Queue[_Worker] | None = None
        self._workers: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False

    async def think(self, bot: Bot, view: PlayerView, heavy: bool) -> Move:
        """`bot`'s move in `view`, within the budget (else a stand-in's move)."""
        try:
            if heavy and self.processes > 0:
                return await self._in_worker(bot, view)
            return await self._in_thread(bot, view)
        except TimeoutError:
            remark = f"took more than {self.move_seconds:g} s: played the {STAND_IN} bot's move"
        except _BotFailed as failure:
            remark = f"failed ({failure}): played the {STAND_IN} bot's move"
        stand_in = make_bot(STAND_IN, 0)
        loop = asyncio.get_running_loop()
        action = await loop.run_in_executor(self._threads, stand_in.act, view)
        return Move(action, bot, remark)

    async def _in_thread(self, bot: Bot, view: PlayerView) -> Move:
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._threads, _act, bot, view)
        # A thread cannot be stopped: past the budget the seat moves on without it.
        action = await asyncio.wait_for(asyncio.shield(future), self.move_seconds)
        return Move(action, bot)

    async def _in_worker(self, bot: Bot, view: PlayerView) -> Move:
        if self._idle is None:
            self._idle = asyncio.Queue()
            loop = asyncio.get_running_loop()
            for _ in range(self.processes):
                self._idle.put_nowait(await loop.run_in_executor(self._keeper, self._start))
        worker = await self._idle.get()
        board = view.board
        key = _board_key(board)
        buffer = io.BytesIO()
        _Pickler(buffer, board).dump((bot, view))
        game_map = None if key in worker.boards else board.map
        message = pickle.dumps((key, game_map, buffer.getvalue()), pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        try:
            answer = await asyncio.wait_for(
                loop.run_in_executor(self._pipes, worker.ask, message), self.move_seconds
            )
        except BaseException:  # out of time (or the server stops): a fresh worker
            worker.kill()  # its pipe's thread wakes up, and is free again
            if not self._closed:
                replacement = await loop.run_in_executor(self._keeper, self._replace, worker)
                self._idle.put_nowait(replacement)
            raise
        worker.boards.add(key)
        self._idle.put_nowait(worker)
        kind, action, thought = answer
        if kind != "ok":
            raise _BotFailed(action)
        return Move(action, thought)

    def _start(self) -> _Worker:
        worker = _Worker()
        with self._lock:
            self._workers.append(worker)
        return worker

    def _replace(self, worker: _Worker) -> _Worker:
        worker.stop()
        with self._lock:
            self._workers.remove(worker)
        return self._start()

    def close(self) -> None:
        """Stop the workers and threads (the server is stopping)."""
        self._closed = True
        for worker in self._workers:
            worker.stop()
        self._workers.clear()
        for pool in (self._threads, self._pipes, self._keeper):
            pool.shutdown(wait=False, cancel_futures=True)


class _BotFailed(Exception):
    """A bot raised an error instead of answering."""


def _act(bot: Bot, view: PlayerView) -> Action:
    try:
        return bot.act(view)
    except Exception as error:
        raise _BotFailed(f"{type(error).__name__}: {error}") from error


if not hasattr(os, "nice"):  # Windows: the workers run at the server's priority
    WORKER_NICENESS = 0

if __name__ == "__main__":
    work()
