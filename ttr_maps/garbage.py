"""The cyclic garbage collector's policy, one function per kind of entry point;
the entry points choose (library functions never switch the collector):

- `collector_paused()`: a `ttr` command whose work the reader's limits bound
  (validate, stats, preview, …; `ttr_core.cli.app`, `bounded=True`);
- `freeze_for_exit()`: what a `ttr` command built, left alone at exit;
- `collect_only_when_idle()`: a long-lived editor server (`ttr lsp`) that
  collects between requests, never during one.

CPython frees most objects as soon as nothing refers to them; its cyclic collector
is for reference cycles only, and every full collection scans every tracked
object still alive. Reading and checking a 10,000-city map builds about two
million of them (YAML nodes and their marks, the data, the board's shapes) and
keeps them to the end, so the collector, set off again and again by the checks'
short-lived objects, scans that heap over and over: more than half the CPU time
of `ttr validate` on such a map, for no garbage found.

The work a command does is bounded (`ttr_maps.io.limits` caps what a file may
hold), and what it builds is freed as usual, by reference counting, when it is
dropped; cycles made meanwhile wait for the next collection after the pause.
Commands that run without end (play, simulate, serve, edit) keep the collector.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class _Pauses:
    """The pauses under way (threads may overlap them) and whether the collector
    ran before the first of them: the last one to end puts it back as it was."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.resume = False


_PAUSES = _Pauses()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while the block runs; a collector that
    was already off (`ttr lsp` collects only when the editor is idle) stays off.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    with _PAUSES.lock:
        if _PAUSES.count == 0:
            _PAUSES.resume = gc.isenabled()
            gc.disable()
        _PAUSES.count += 1
    try:
        yield
    finally:
        with _PAUSES.lock:
            _PAUSES.count -= 1
            if _PAUSES.count == 0 and _PAUSES.resume:
                if gc.get_freeze_count() == 0:  # nobody else froze anything
                    # What outlived the pause is old: into the oldest generation
                    # at once, not scanned as young by the next collection.
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()


def freeze_for_exit() -> None:
    """Move every object alive now out of the collector's sight: the process is
    about to end, and the collections at interpreter exit would otherwise scan a
    big map's two million objects twice (over two seconds) to find nothing."""
    gc.freeze()


def collect_only_when_idle() -> None:
    """For a long-lived server that calls `gc.collect()` itself between requests:
    collect what start-up left, freeze what stays (the imports, the warm caches)
    and switch the automatic collector off, so no scan lands inside a request."""
    gc.collect()
    gc.freeze()
    gc.disable()
