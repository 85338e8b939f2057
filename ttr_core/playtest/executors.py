"""Where a simulation's games are played: in this process, in local worker
processes, or on a Ray cluster. One registry, one contract.

`iter_games` plays a run: every executor plays the same batches of the same games
(`play_batch`, through `ttr_core.playtest.playout`) and yields their summaries in
game order, so a run's report is identical whichever executor
and however many workers played it. What an executor adds is only *where*:

- **bounded work in flight**: at most `IN_FLIGHT_PER_WORKER` batches per worker are
  submitted ahead of the one being read, so the driver's memory does not grow with
  `--games` and Ctrl-C stops a run of a billion games at once;
- **the map travels once per worker**, by content (`MapPayload`: the file's text
  with its SHA-256, and a digest of the parsed model that the worker checks, so a
  worker with another ttr version that reads the map differently is refused); in
  this process the map is the one the driver loaded, handed on;
- **a lost worker is replaced** and its batches played again (a game is a pure
  function of its seed, so the answer does not change); a game that raises is a
  bug, and stops the run naming the game's seed and the command that replays it.

>>> from ttr_core.playtest.executors import EXECUTORS
>>> sorted(EXECUTORS)
['local', 'ray']
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ttr_core.playtest.plan import PlayedMap, RunPlan

if TYPE_CHECKING:  # the engine is imported where games are played, not by the CLI
    from ttr_core.playtest.playout import GameSummary
    from ttr_maps.model import Map
    from ttr_maps.rules import RuleSet

#: Batches submitted ahead, per worker: enough to keep every worker busy while the
#: driver reads results in order, few enough to keep memory flat.
IN_FLIGHT_PER_WORKER = 2
#: How often one batch is tried again after its worker was lost.
MAX_RETRIES = 3


class SimulationError(Exception):
    """A run that cannot go on; the message says why and what to do."""


class GameFailed(SimulationError):
    """A game raised: a bug in a bot or the engine, not a lost worker. Carries
    what replays it. Plain arguments only, so it crosses processes intact."""

    def __init__(self, index: int, seed: int, command: str, reason: str) -> None:
        super().__init__(index, seed, command, reason)
        self.index, self.seed, self.command, self.reason = index, seed, command, reason

    def __str__(self) -> str:
        return (
            f"game {self.index} (seed {self.seed}) failed: {self.reason}; "
            f"replay it with: {self.command}"
        )


class WorkerLost(SimulationError):
    """A batch whose worker died every time it was tried."""


# ------------------------------------------------------------------ the work


@dataclass(frozen=True)
class MapPayload:
    """A map as it travels to workers: its text, not its path (a worker on another
    machine has no such file), checked on arrival."""

    argument: str
    text: str
    text_sha256: str
    model_digest: str

    @classmethod
    def from_map(cls, argument: str, game_map: Map) -> MapPayload:
        """The payload of `game_map`, loaded from the MAP argument `argument`
        (bundled id or path)."""
        from ttr_maps.io.bundled import resolve_map_argument

        text = resolve_map_argument(argument).read_text(encoding="utf-8")
        return cls(argument, text, _sha256(text), model_digest(game_map))

    def load(self) -> Map:
        """The map, parsed in this process. Raises SimulationError if the text
        arrived damaged or this process reads it as another map."""
        from ttr_maps.checks.validate import validate_document
        from ttr_maps.io.document import parse_document
        from ttr_maps.load import InvalidMapError

        if _sha256(self.text) != self.text_sha256:
            raise SimulationError(f"{self.argument}: the map arrived damaged (SHA-256 differs)")
        report = validate_document(parse_document(self.text, self.argument))
        if report.map is None or report.errors:
            raise SimulationError(str(InvalidMapError(report)))
        if model_digest(report.map) != self.model_digest:
            raise SimulationError(
                f"{self.argument}: this worker reads the map differently from the driver "
                "(install the same ttr version on every machine)"
            )
        return report.map


def model_digest(game_map: Map) -> str:
    """A digest of the parsed map (cities, routes, tickets, settings)."""
    return _sha256(repr(game_map))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Work:
    """What every batch of a run shares."""

    map_argument: str
    bots: tuple[str, ...]
    players: int
    seed: int
    records: bool = False
    #: The rule set, when not the map's own (`--set` overrides).
    rules: RuleSet | None = None
    #: `rules` as `--set` texts, for the command that replays a game.
    rule_changes: tuple[str, ...] = ()

    def replay_command(self, index: int) -> str:
        """The `ttr play` command that plays game `index` of the run again."""
        from ttr_core.playtest.playout import game_seed, play_command, seat_names

        names = seat_names(self.bots, self.players, index)
        return play_command(
            self.map_argument, names, game_seed(self.seed, index), self.rule_changes
        )


def play_batch(game_map: Map, work: Work, games: range) -> list[GameSummary]:
    """Play games `games` of a run on `game_map`. A game that raises becomes
    `GameFailed`."""
    from ttr_core.playtest import playout

    summaries = []
    for index in games:
        names = playout.seat_names(work.bots, work.players, index)
        seed = playout.game_seed(work.seed, index)
        try:
            summary = playout.play_summarised(
                game_map, work.map_argument, names, seed, index, work.records, work.rules
            )
        except Exception as error:  # a bug: stop the run with what replays it
            reason = f"{type(error).__name__}: {error}"
            raise GameFailed(index, seed, work.replay_command(index), reason) from None
        summaries.append(summary)
    return summaries


def batch_size(games: int, workers: int) -> int:
    """Games per batch: about eight batches per worker, between 1 and 100 games."""
    return max(1, min(100, games // (workers * 8)))


def iter_batches(games: int, size: int) -> Iterator[range]:
    """The batches of a run, made lazily (a billion games is no list)."""
    for start in range(0, games, size):
        yield range(start, min(start + size, games))


@dataclass(frozen=True)
class Workers:
    """Where a run's games are played: `executor`, by default `jobs` local processes
    (this process alone for 1). `jobs` also sizes the batches."""

    jobs: int = 1
    executor: Executor | None = field(default=None, compare=False)

    def resolved(self) -> Executor:
        """The executor: the one given, else this process or `jobs` local processes."""
        return self.executor or EXECUTORS["local"](self.jobs, None)

    def halves(self) -> tuple[Workers, Workers]:
        """Two runs played side by side (`ttr compare` of two maps): half the local
        processes each, or the one executor given for both."""
        if self.executor is not None or self.jobs <= 1:
            return self, self
        return Workers(max(1, self.jobs // 2)), Workers(max(1, self.jobs // 2))


#: This process, one game after another.
IN_THIS_PROCESS = Workers(1)


def iter_games(
    played: PlayedMap, plan: RunPlan, where: Workers = IN_THIS_PROCESS, records: bool = False
) -> Iterator[GameSummary]:
    """Play the games of `plan` on `played` where `where` says and yield their
    summaries in game order (with each game's record when `records`)."""
    executor = where.resolved()
    work = Work(
        played.argument, plan.bots, plan.players, plan.seed, records, played.rules, played.changes
    )
    batches = iter_batches(plan.games, batch_size(plan.games, max(1, where.jobs)))
    for summaries in executor.run(work, played.map, batches):
        yield from summaries


# ---------------------------------------------------------------- executors


class Executor:
    """Plays batches of a run on `game_map` and yields each batch's summaries in
    the order given.

    Also a context manager: `with executor:` around several runs (a ladder's
    tables) keeps what it starts (a local Ray instance) for all of them."""

    def run(
        self, work: Work, game_map: Map, batches: Iterator[range]
    ) -> Iterator[list[GameSummary]]:
        raise NotImplementedError

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


@dataclass
class InProcess(Executor):
    """Every game in this process, one after another."""

    def run(
        self, work: Work, game_map: Map, batches: Iterator[range]
    ) -> Iterator[list[GameSummary]]:
        for batch in batches:
            yield play_batch(game_map, work, batch)


#: The map this worker process plays, set once when the process starts
#: (`_start_worker`): a process pool gives a task only its arguments and the
#: process it runs in, and the map is too big to send with every batch. The driver
#: never sets it.
_worker_map: Map | None = None


def _start_worker(payload: MapPayload) -> None:
    # Ctrl-C goes to the whole process group: the driver handles it and stops
    # the workers, which must not die half-way through a result on their own.
    # SIGTERM is the driver's way to stop a worker: whatever handler the driver
    # had (the CLI turns SIGTERM into an exception) must not outlive the fork.
    global _worker_map
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _leave_with(os.getppid())
    _worker_map = payload.load()


def _worker_main(connection: Any, payload: MapPayload) -> None:
    """A worker process: batches arrive on its own pipe, `(work, start, stop)`, and
    their summaries go back in the order they came (`("ok", summaries)`, or
    `("error", error)` for a game that raised); `None` or the pipe's end stops it."""
    _start_worker(payload)
    assert _worker_map is not None
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        work, start, stop = message
        try:
            answer: tuple[str, Any] = ("ok", play_batch(_worker_map, work, range(start, stop)))
        except SimulationError as error:  # a game raised: GameFailed crosses intact
            answer = ("error", error)
        connection.send(answer)


#: Seconds between a worker's looks at whether its driver is still there.
DRIVER_CHECK_SECONDS = 1.0


def _leave_with(driver: int) -> None:
    """End this worker when its driver is gone (killed with SIGKILL, it stops no
    one): a worker left behind would wait for work forever."""
    import threading

    def watch() -> None:
        while os.getppid() == driver:
            time.sleep(DRIVER_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="driver-watch", daemon=True).start()


class _Worker:
    """One local worker process and its own pipe, with the batches sent to it and
    not yet answered, in order (each with how often it was tried before)."""

    def __init__(self, context: Any, payload: MapPayload) -> None:
        ours, theirs = context.Pipe()
        self.process = context.Process(
            target=_worker_main, args=(theirs, payload), name="ttr-worker", daemon=True
        )
        self.process.start()
        theirs.close()
        self.connection = ours
        self.pending: deque[tuple[range, int]] = deque()

    def send(self, work: Work, batch: range, tries: int) -> None:
        """Send a batch; to a worker that died meanwhile it waits among the pending
        ones, to be sent again to its replacement."""
        self.pending.append((batch, tries))
        with contextlib.suppress(OSError):  # a dead worker: found when read
            self.connection.send((work, batch.start, batch.stop))

    def receive(self) -> tuple[str, Any] | None:
        """The answer to the oldest pending batch, waiting in short steps (a signal,
        Ctrl-C or SIGTERM, reaches the main thread between two waits); None when the
        worker died before answering."""
        from multiprocessing.connection import wait

        while True:
            ready = wait([self.connection, self.process.sentinel], timeout=WAKE_SECONDS)
            if self.connection in ready:
                try:
                    return self.connection.recv()  # type: ignore[no-any-return]
                except (EOFError, OSError, pickle.UnpicklingError):
                    return None  # ended while sending its answer
            if ready:  # the process ended, with nothing left to read
                return None

    def stop(self) -> None:
        """End the worker now (running batches are dropped) and close its pipe."""
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=5)
        if self.process.is_alive():  # stuck: no way out but SIGKILL
            self.process.kill()
            self.process.join()
        self.connection.close()


@dataclass
class LocalProcesses(Executor):
    """Worker processes on this machine (`--jobs`), each with a pipe of its own:
    the driver knows which batches each holds, so a lost worker's batches (and only
    they) are played again by its replacement, and stopping a run ends every worker
    at once through `multiprocessing`'s public calls."""

    workers: int
    #: Batches played again after a lost worker (read by tests and the CLI).
    retries: int = 0

    def run(
        self, work: Work, game_map: Map, batches: Iterator[range]
    ) -> Iterator[list[GameSummary]]:
        import multiprocessing

        context = multiprocessing.get_context()
        payload = MapPayload.from_map(work.map_argument, game_map)
        workers = [_Worker(context, payload) for _ in range(self.workers)]
        #: (worker, batch) for every batch in flight, in batch order.
        order: deque[tuple[int, range]] = deque()
        limit = self.workers * IN_FLIGHT_PER_WORKER
        turn = 0
        try:
            while True:
                while len(order) < limit:
                    batch = next(batches, None)
                    if batch is None:
                        break
                    slot = turn % self.workers
                    turn += 1
                    workers[slot].send(work, batch, 0)
                    order.append((slot, batch))
                if not order:
                    return
                slot, batch = order[0]
                answer = workers[slot].receive()
                if answer is None:
                    # The worker died (killed, out of memory): a new one plays its
                    # batches again, in the same order.
                    lost = workers[slot]
                    lost.stop()
                    workers[slot] = _Worker(context, payload)
                    for again, tries in lost.pending:
                        if tries >= MAX_RETRIES:
                            raise WorkerLost(_lost_message(work, again))
                        workers[slot].send(work, again, tries + 1)
                        self.retries += 1
                    continue
                kind, value = answer
                if kind == "error":
                    raise value
                workers[slot].pending.popleft()
                order.popleft()
                yield value
        finally:
            for worker in workers:
                worker.stop()


#: Seconds the driver waits on a batch before it looks at its signals again.
WAKE_SECONDS = 0.25


def _lost_message(work: Work, batch: range) -> str:
    return (
        f"games {batch.start}-{batch.stop - 1} lost their worker {MAX_RETRIES + 1} times; "
        f"the first replays with: {work.replay_command(batch.start)}"
    )


RAY_MISSING = (
    "--executor ray needs Ray, which is not installed; install it with: "
    "pip install 'ttr-mapkit[cluster]'"
)


@dataclass
class RayCluster(Executor):
    """Ray actors, one per worker, on a local instance or an existing cluster.

    `address` is None to start a local instance for this run (or use the one this
    process already started), `auto` for the cluster this machine belongs to, or
    `ray://HOST:PORT` for a remote cluster's client server. Each actor receives the
    map once, when it starts; batches go to actors round-robin.
    """

    workers: int | None = None
    address: str | None = None
    retries: int = 0
    #: Whether `__enter__` started or joined Ray (then `__exit__` leaves it).
    _entered: bool = False

    def __enter__(self) -> RayCluster:
        self._entered = self._connect()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._entered:
            import_ray().shutdown()
            self._entered = False

    def _connect(self) -> bool:
        """Start or join Ray unless this process already has; True if it did."""
        ray = import_ray()
        if ray.is_initialized():
            return False
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if self.address is None:
            options["num_cpus"] = self.workers or os.cpu_count() or 1
        else:
            options["address"] = self.address
        try:
            ray.init(**options)
        except Exception as error:  # ConnectionError, RuntimeError, ...
            where = self.address or "a local instance"
            raise SimulationError(f"cannot start or reach Ray ({where}): {error}") from None
        return True

    def run(
        self, work: Work, game_map: Map, batches: Iterator[range]
    ) -> Iterator[list[GameSummary]]:
        ray = import_ray()
        payload = MapPayload.from_map(work.map_argument, game_map)
        started_here = self._connect()
        actors: list[Any] = []
        #: (batch, result ref, slot, the actor it went to, tries)
        pending: deque[tuple[range, Any, int, Any, int]] = deque()
        try:
            worker_class = _ray_worker_class(ray)
            count = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
            shared = ray.put(payload)
            actors = [worker_class.remote(shared) for _ in range(count)]
            limit = count * IN_FLIGHT_PER_WORKER
            turn = 0
            while True:
                while len(pending) < limit:
                    batch = next(batches, None)
                    if batch is None:
                        break
                    slot = turn % count
                    turn += 1
                    ref = actors[slot].play.remote(work, batch.start, batch.stop)
                    pending.append((batch, ref, slot, actors[slot], 0))
                if not pending:
                    return
                batch, ref, slot, actor, tries = pending[0]
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    cause = getattr(error, "cause", None)
                    if isinstance(cause, SimulationError):
                        raise cause from None
                    raise SimulationError(f"a worker failed: {error}") from None
                except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError):
                    if tries >= MAX_RETRIES:
                        raise WorkerLost(_lost_message(work, batch)) from None
                    # The other batches the lost actor held fail in turn: the actor is
                    # replaced once, not each time (which would kill its replacement).
                    if actors[slot] is actor:
                        actors[slot] = _replace_actor(ray, actor, worker_class, shared)
                    retry = actors[slot].play.remote(work, batch.start, batch.stop)
                    pending[0] = (batch, retry, slot, actors[slot], tries + 1)
                    self.retries += 1
                    continue
                pending.popleft()
                yield result
        finally:
            for actor in actors:  # ends the batches in flight too
                ray.kill(actor)
            if started_here:
                ray.shutdown()


def _replace_actor(ray: Any, actor: Any, worker_class: Any, shared: Any) -> Any:
    """A new actor for a lost one (the old one is killed in case it only hangs)."""
    with contextlib.suppress(Exception):  # already gone
        ray.kill(actor)
    return worker_class.remote(shared)


def import_ray() -> Any:
    """Ray, or SimulationError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise SimulationError(RAY_MISSING) from None
    return ray


def _ray_worker_class(ray: Any) -> Any:
    class GameWorker:
        """One worker: holds the map, plays batches."""

        def __init__(self, payload: MapPayload) -> None:
            self.game_map = payload.load()

        def play(self, work: Work, start: int, stop: int) -> list[GameSummary]:
            return play_batch(self.game_map, work, range(start, stop))

        def pid(self) -> int:
            return os.getpid()

    return ray.remote(num_cpus=1, max_restarts=0)(GameWorker)


#: Executors by the name `--executor` takes; each factory gets (workers, address).
EXECUTORS: dict[str, Callable[[int | None, str | None], Executor]] = {
    "local": lambda workers, _address: (
        InProcess() if (workers or 1) <= 1 else LocalProcesses(workers or 1)
    ),
    "ray": lambda workers, address: RayCluster(workers, address),
}
