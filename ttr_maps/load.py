"""Loading a map to play it, draw it or analyse it: `load_map`.

A map is playable exactly when it has no errors, so loading runs only the checks
whose level is error (`validate_file(path, errors_only=True)`): the warnings'
checks (crossing routes, overlapping cars, fragile tickets…) are `ttr validate`'s
business and cost more than the rest of a load. A loaded map is kept, per file,
until the file changes: loading an unchanged file again returns the very same
frozen `Map`, so callers keep no map caches of their own.

>>> load_map("north_america") is load_map("north_america")
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from ttr_maps.checks.problem import Problem
from ttr_maps.checks.validate import FileReport, validate_file
from ttr_maps.io import limits
from ttr_maps.io.files import FileIdentity, file_identity, read_regular_file
from ttr_maps.model import BoardLayout, Map


class InvalidMapError(Exception):
    """A map that cannot be played: it could not be read or it has errors.

    `report` holds the errors (loading does not look for warnings)."""

    def __init__(self, report: FileReport):
        self.report = report
        lines = [str(p) for p in report.errors]
        super().__init__("\n".join(lines) or f"{report.path}: invalid map")


@dataclass(frozen=True)
class _Loaded:
    """A map loaded from a file: the file's identity before it was read, the bytes
    the map was parsed from, and the map."""

    identity: FileIdentity
    data: bytes
    map: Map


#: Resolved path -> the map last loaded from it (one entry per file).
_LOADED: dict[Path, _Loaded] = {}


def load_map(source: str | Path) -> Map:
    """Load a playable map: a bundled map id or a YAML path.

    Raises `InvalidMapError` (carrying the report of the errors) if the file
    cannot be read or has errors; warnings are not looked for. An unchanged file
    (same resolved path, device, inode, size, modification time and bytes) gives
    the same `Map` object as the load before; errors are never kept.
    """
    from ttr_maps.io.bundled import resolve_map_argument

    path = resolve_map_argument(str(source))
    key: Path | None = None
    try:
        key = path.resolve()
        identity = file_identity(key)
        loaded = _LOADED.get(key)
        # The bytes too: a file rewritten in place within one tick of the file
        # system's clock keeps its size and modification time.
        if (
            loaded is not None
            and loaded.identity == identity
            and read_regular_file(key, limits.MAX_MAP_BYTES) == loaded.data
        ):
            return loaded.map
    except (OSError, ValueError):  # validate_file says why it cannot be read
        key = None
    report = validate_file(path, errors_only=True)
    if report.map is None or report.errors or report.document is None:
        if key is not None:
            _LOADED.pop(key, None)
        raise InvalidMapError(report)
    if key is not None:  # the bytes the map was read from, and the file before them
        _LOADED[key] = _Loaded(identity, report.document.text.encode("utf-8"), report.map)
    return report.map


def map_ignoring_layout(
    path: str | Path,
) -> tuple[Map | None, BoardLayout | None, list[Problem]]:
    """The map in `path` without its board layout, for laying it out afresh (also
    when the only errors are in the old layout), with what is usable of the old
    layout (the places and label offsets of known cities given as finite numbers,
    the bends between them, and their pins).
    Otherwise (None, None, the errors)."""
    import math

    from ttr_maps.checks.layout import LAYOUT_ERROR_CODES

    report = validate_file(path, errors_only=True)
    blocking = [p for p in report.errors if p.code not in LAYOUT_ERROR_CODES]
    if report.map is None or blocking:
        return None, None, blocking or report.errors
    old = report.map.layout
    previous = None
    if old is not None:
        known = set(report.map.city_index)
        cities = {
            name: p
            for name, p in old.cities.items()
            if name in known and all(math.isfinite(v) for v in p)
        }
        pinned = frozenset(old.pinned & cities.keys())
        labels = {
            name: p
            for name, p in old.labels.items()
            if name in cities and all(math.isfinite(v) for v in p)
        }
        bends = {
            pair: points
            for pair, points in old.bends.items()
            if set(pair) <= cities.keys() and all(math.isfinite(v) for p in points for v in p)
        }
        previous = BoardLayout(cities=cities, labels=labels, bends=bends, pinned=pinned)
    return dataclasses.replace(report.map, layout=None), previous, []
