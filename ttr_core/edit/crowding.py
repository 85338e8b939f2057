"""Crowding in play for the editor's Numbers panel: the connections a game takes
from players who needed them, counted in greedy games (`ttr_core.playtest.crowding`,
the count `ttr tickets MAP --games N` reports) in one background thread, the map
as it is in the editor first and then the published boards beside it.

The panel shows no model of crowding: the model (`ttr_maps.analysis.tickets`,
`Crowding`) is 16-55 % below play on maps it was not fitted to, the count is
within 15 % of a long run of play on every map measured (docs/tickets.md).

A count is known by what it counts: the map's text (every edit is a new count, an
undo finds the old one again) or a published board's id, and the table size. A
count of an older text still waiting or running is dropped when a newer one is
asked for; the published boards' counts are kept for the life of the editor.

>>> from ttr_maps import load_map
>>> counts = CrowdingCounts()
>>> first = counts.ask(("board", "iran", 2), load_map("iran"), 2, games=4)
>>> counts.wait(); first.state, first.payload()["games"] >= 4
('done', True)
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from typing import Any

from ttr_maps.model import Map

#: Counts of edited texts kept (done), so that undo and redo find them again.
KEPT = 16


class Dropped(Exception):
    """Raised inside the game loop when the count is no longer wanted."""


class CrowdingCount:
    """One count: a map at a table size, `games` greedy games at least (more until
    the count is precise, `played_deck`)."""

    def __init__(self, game_map: Map, players: int, games: int) -> None:
        self.map, self.players, self.games = game_map, players, games
        self.state = "waiting"  # then "counting", and "done", "failed" or "dropped"
        self.played = 0
        self.result: Any = None  # a PlayedDeck when done
        self.error = ""
        self.dropped = threading.Event()

    def run(self) -> None:
        from ttr_core.playtest.crowding import played_deck
        from ttr_core.playtest.executors import SimulationError
        from ttr_core.playtest.plan import PlayedMap
        from ttr_maps.analysis.tickets import DeckError, TicketBoard

        self.state = "counting"
        try:
            self.result = played_deck(
                PlayedMap(self.map, self.map.id),
                TicketBoard(self.map),
                self.players,
                self.games,
                on_game=self._on_game,
                on_more=self._on_more,
            )
        except Dropped:
            self.state = "dropped"
            return
        except (DeckError, SimulationError, ValueError) as problem:
            self.state, self.error = "failed", str(problem)
            return
        self.state = "done"

    def _on_game(self, game: object) -> None:
        self.played += 1
        if self.dropped.is_set():
            raise Dropped

    def _on_more(self, extra: int) -> None:
        self.games += extra

    def payload(self) -> dict[str, Any]:
        """What the panel shows: the count a game with its 95 % interval and the
        games it was counted in, or how far the counting is."""
        if self.state != "done":
            return {
                "state": self.state,
                "played": self.played,
                "games": self.games,
                "error": self.error,
            }
        deck = self.result
        return {
            "state": "done",
            "per_game": round(deck.blocked_per_game, 2),
            "ci95": [round(v, 2) for v in deck.blocked_ci95],
            "games": deck.games,
            "bots": list(deck.bots),
        }


class CrowdingCounts:
    """The counts asked for, played one at a time in a background thread, in the
    order asked."""

    def __init__(self) -> None:
        self._counts: OrderedDict[Any, CrowdingCount] = OrderedDict()
        self._queue: deque[CrowdingCount] = deque()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def ask(
        self, key: Any, game_map: Map, players: int, games: int, *, edited: bool = True
    ) -> CrowdingCount:
        """The count known by `key` (("text", hash, players) for the edited map,
        ("board", id, players) for a published board), queued if new. Asking for
        an edited text's count drops the other texts' counts not done yet."""
        with self._lock:
            if edited:
                for other, old in self._counts.items():
                    if other[0] == "text" and other != key and old.state != "done":
                        old.dropped.set()
                        if old.state == "waiting":
                            old.state = "dropped"
                self._queue = deque(c for c in self._queue if not c.dropped.is_set())
            found = self._counts.get(key)
            if found is not None and not found.dropped.is_set():
                self._counts.move_to_end(key)
                return found
            count = CrowdingCount(game_map, players, games)
            self._counts[key] = count
            self._queue.append(count)
            self._forget()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._work, name="ttr-edit-crowding", daemon=True
                )
                self._thread.start()
            return count

    def _forget(self) -> None:
        """Keep the last `KEPT` counts of edited texts."""
        texts = [k for k in self._counts if k[0] == "text"]
        for key in texts[: max(0, len(texts) - KEPT)]:
            self._counts[key].dropped.set()
            del self._counts[key]

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._thread = None
                    return
                count = self._queue.popleft()
            if not count.dropped.is_set():
                count.run()

    def stop(self) -> None:
        """Drop every count not done yet (the editor closing; tests)."""
        with self._lock:
            for count in self._counts.values():
                if count.state != "done":
                    count.dropped.set()
            self._queue.clear()

    def wait(self, timeout: float | None = None) -> None:
        """Until every count asked for is played (tests and doctests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)


#: The editor's counts (one process serves one editor).
COUNTS = CrowdingCounts()
