"""Validation: a map file in, every problem out, never a traceback.

The pipeline is: read the YAML (positions kept) -> document checks (repeated keys,
always) -> JSON Schema -> build the `Map` -> every registered map check. Map checks
rely on the structure the schema guarantees, so when the schema fails they run on
what can be checked (`checkable_data`): route and ticket entries with schema errors
are left out (tickets whose value depends on a left-out route are then reported
as "could not be checked", TTR351), cities with bad coordinates are kept without a
position. Only errors at the top of the document (no `id`, `cities` not a mapping…)
stop the map checks. The report's `map` is set only for a schema-valid file.

A file may silence warnings (never errors) with a comment line anywhere in it:

    # ttr: disable=TTR252,TTR253

A code there that is unknown, or an error's, is itself reported (TTR051).
"""

from __future__ import annotations

import errno
import math
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_maps.checks.problem import Level, Problem
from ttr_maps.checks.suppress import disabled_codes, line_disabled_codes
from ttr_maps.io.document import (
    DataPath,
    DocumentError,
    MapDocument,
    Position,
    parse_text,
    read_document,
)
from ttr_maps.model import Map

if TYPE_CHECKING:
    from ttr_maps.checks.registry import CheckContext

UNREADABLE = "TTR000"
YAML_SYNTAX_ERROR = "TTR001"
MAP_SUFFIXES = (".yaml", ".yml")


@dataclass
class FileReport:
    """The outcome of validating one file."""

    path: str
    problems: list[Problem] = field(default_factory=list)
    map: Map | None = None
    document: MapDocument | None = None
    #: What the map checks read (the map without the entries the schema rejected,
    #: its R2 distances): None when they could not run. `ttr lsp` answers from it.
    context: CheckContext | None = None

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.level is Level.ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.level is Level.WARNING]

    @property
    def is_unreadable(self) -> bool:
        """The path could not be read at all (missing, a folder, not UTF-8)."""
        return any(p.code == UNREADABLE for p in self.problems)

    def fails(self, strict: bool = False) -> bool:
        """Whether this file fails a run: any error, or any warning when strict."""
        return bool(self.errors or (strict and self.warnings))


def validate_document(document: MapDocument, *, errors_only: bool = False) -> FileReport:
    """Validate a parsed document: document checks, the schema, then map checks.

    With `errors_only`, only the checks whose level is error run: the report has
    the same errors (no error comes from a warning's check), and a map without
    errors is playable (`ttr_maps.load.load_map`).
    """
    from ttr_maps.checks.catalog import checks_at
    from ttr_maps.checks.registry import CheckContext
    from ttr_maps.checks.schema import iter_schema_errors

    report = FileReport(document.path, document=document)
    silenced = disabled_codes(document.text)
    for check in checks_at("document", errors_only=errors_only):
        report.problems.extend(check.run(document))
    schema_errors = list(iter_schema_errors(document))
    report.problems.extend(problem for _, problem in schema_errors)
    checkable = checkable_data(document.data, [path for path, _ in schema_errors])
    game_map = _map_of(checkable) if checkable is not None else None
    if checkable is not None and game_map is not None:
        if not schema_errors:
            report.map = game_map
        context = report.context = CheckContext(
            game_map,
            document,
            left_out_routes=checkable.left_out_routes,
            unplaced_cities=checkable.unplaced_cities,
        )
        # A warning the file silences is not computed at all (TTR353 on a huge map
        # is the costly one); errors cannot be silenced.
        for stage in ("map", "design"):
            if stage == "design" and report.errors:
                break
            for check in checks_at(stage, errors_only=errors_only):
                if not (check.level is Level.WARNING and check.code in silenced):
                    report.problems.extend(check.run(context))
    on_lines = line_disabled_codes(document.text)
    if silenced or on_lines:
        report.problems = [
            p
            for p in report.problems
            if not (
                p.level is Level.WARNING
                and (p.code in silenced or p.code in on_lines.get(p.position.line, ()))
            )
        ]
    report.problems.sort(key=lambda p: p.sort_key)
    return report


#: Top-level keys whose schema errors leave the rest of the map checkable.
_HARMLESS_TOP_KEYS = frozenset({"description"})
_SECTIONS = ("cities", "routes", "tickets")


@dataclass(frozen=True)
class CheckableData:
    """The part of a document that map checks can read (see `checkable_data`)."""

    data: dict[str, Any]
    #: Indices of the route and ticket entries left out, in the original lists.
    route_entries: tuple[int, ...]
    ticket_entries: tuple[int, ...]
    #: Route entries left out (index), and cities kept without a position.
    left_out_routes: tuple[int, ...] = ()
    unplaced_cities: frozenset[str] = frozenset()


def checkable_data(data: Any, error_paths: Iterable[DataPath]) -> CheckableData | None:
    """The document without the entries the schema rejected, or None when an error
    sits at the top (a missing `id`, `routes` not a list…) and nothing can be
    checked. With no errors, the data as it is.

    >>> data = {"format": 1, "id": "t", "name": "T", "coordinates": "plane",
    ...         "cities": {"A": {"x": 0, "y": 0}, "B": {"x": "far", "y": 0}},
    ...         "routes": [{"between": ["A", "B"], "length": 9, "color": "red"},
    ...                    {"between": ["A", "B"], "length": 2, "color": "red"}],
    ...         "tickets": []}
    >>> found = checkable_data(data, [("routes", 0, "length"), ("cities", "B", "x")])
    >>> found.left_out_routes, sorted(found.unplaced_cities), len(found.data["routes"])
    ((0,), ['B'], 1)
    >>> checkable_data(data, [()]) is None
    True
    """
    from ttr_maps.checks.schema import map_schema

    top_keys = map_schema()["properties"]
    bad: dict[str, set[Any]] = {section: set() for section in _SECTIONS}
    for path in error_paths:
        if len(path) >= 2 and path[0] in _SECTIONS:
            bad[str(path[0])].add(path[1])
        elif len(path) == 1 and (path[0] in _HARMLESS_TOP_KEYS or path[0] not in top_keys):
            continue  # an unknown top-level key, or free text
        else:
            return None
    if not isinstance(data, dict) or not all(
        isinstance(data.get(key), kind)
        for key, kind in (("cities", dict), ("routes", list), ("tickets", list))
    ):
        return None
    keys = ("x", "y") if data.get("coordinates") == "plane" else ("lat", "lon")
    cities = {
        name: ({keys[0]: math.nan, keys[1]: math.nan} if name in bad["cities"] else spec)
        for name, spec in data["cities"].items()
        if isinstance(name, str)
    }
    routes = [r for i, r in enumerate(data["routes"]) if i not in bad["routes"]]
    tickets = [t for i, t in enumerate(data["tickets"]) if i not in bad["tickets"]]
    return CheckableData(
        {**data, "cities": cities, "routes": routes, "tickets": tickets},
        route_entries=tuple(i for i in range(len(data["routes"])) if i not in bad["routes"]),
        ticket_entries=tuple(i for i in range(len(data["tickets"])) if i not in bad["tickets"]),
        left_out_routes=tuple(sorted(i for i in bad["routes"] if isinstance(i, int))),
        unplaced_cities=frozenset(name for name in bad["cities"] if isinstance(name, str)),
    )


def _map_of(checkable: CheckableData) -> Map | None:
    """The map of the checkable data, its entries numbered as in the file."""
    from dataclasses import replace

    try:
        game_map = Map.from_data(checkable.data)
    except (KeyError, TypeError, ValueError):  # a shape the schema errors did not isolate
        return None
    routes, tickets = checkable.route_entries, checkable.ticket_entries
    if routes == tuple(range(len(routes))) and tickets == tuple(range(len(tickets))):
        return game_map  # no entry left out: numbered as in the file already
    return replace(
        game_map,
        routes=tuple(replace(r, entry=routes[r.entry]) for r in game_map.routes),
        tickets=tuple(replace(t, entry=tickets[t.entry]) for t in game_map.tickets),
    )


def validate_file(path: str | Path, *, errors_only: bool = False) -> FileReport:
    """Validate one map file (with `errors_only`, see `validate_document`). A file
    that cannot be read is a report with one error: TTR001 if it is not YAML,
    TTR000 if it cannot be read at all.

    On a big map, pause the garbage collector around it (`ttr_maps.garbage`, as
    the `ttr` command does): otherwise its scans take more time than the checks."""
    try:
        document = read_document(path)
    except DocumentError as error:
        return _unreadable(str(path), error, lambda: _lines_of_file(Path(path)))
    return validate_document(document, errors_only=errors_only)


def validate_text(text: str, path: str, *, errors_only: bool = False) -> FileReport:
    """Validate the text of a map that is not read from disk (an editor's buffer,
    `ttr lsp`): the same report `validate_file` gives for a file holding `text`,
    under the same limits (`ttr_maps.io.document.parse_text`).

    >>> report = validate_text("format: 1\\nid: [x\\n", "x.yaml")
    >>> [(p.code, p.position.line) for p in report.problems]
    [('TTR001', 3)]
    """
    try:
        document = parse_text(text, path)
    except DocumentError as error:
        return _unreadable(path, error, text.splitlines)
    return validate_document(document, errors_only=errors_only)


def _unreadable(path: str, error: DocumentError, lines: Callable[[], list[str]]) -> FileReport:
    """The report of a file that cannot be read or parsed: one error."""
    position = error.position or Position(1, 1)
    code = error.code or (YAML_SYNTAX_ERROR if error.syntax else UNREADABLE)
    message = error.message
    if error.message.startswith("is a folder"):
        message = "no map files (*.yaml, *.yml) found in this folder"
    elif error.syntax and _has_tab_near(lines(), position.line):
        message += "; the line holds a tab: YAML indents with spaces only"
    return FileReport(path, [Problem(path, position, Level.ERROR, code, message)])


def _lines_of_file(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _has_tab_near(lines: list[str], line: int) -> bool:
    """Whether the line of a syntax error, or the one before it, holds a tab."""
    return any("\t" in text for text in lines[max(line - 2, 0) : line])


def validate_files(paths: Iterable[str | Path]) -> Iterator[FileReport]:
    """Validate many files; a bad file never stops the batch."""
    for path in paths:
        yield validate_file(path)


def iter_map_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Expand command-line paths: a folder gives every `*.yaml`/`*.yml` inside it,
    recursively, sorted; anything else is passed on as is (a missing path is then
    reported by `validate_file`).

    Nothing is skipped in silence: a folder without map files, a subfolder that
    cannot be read, a map-named symlink that leads nowhere and a symlink loop are
    passed on too, and reported as unreadable (TTR000). Symlinked folders are
    followed once each (a loop is reported, never walked forever).
    """
    for item in paths:
        path = Path(item)
        if _is_folder(path):
            yield from _map_files_in(path) or [path]
        else:
            yield path


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):  # a name too long or with a NUL byte: not a folder
        return False


def _map_files_in(folder: Path) -> list[Path]:
    """The map files under `folder`, plus the paths that could not be walked."""
    found: list[Path] = []
    seen: set[tuple[int, int]] = set()
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            info = current.stat()
            entries = list(os.scandir(current))
        except OSError:
            found.append(current)  # validate_file says why it cannot be read
            continue
        if (info.st_dev, info.st_ino) in seen:
            continue  # reached again through a symlink: walked already
        seen.add((info.st_dev, info.st_ino))
        for entry in entries:
            entry_path = Path(entry.path)
            try:
                if entry.is_dir():  # follows symlinks
                    pending.append(entry_path)
                    continue
            except OSError:
                pass
            if entry_path.suffix in MAP_SUFFIXES or _is_symlink_loop(entry_path):
                found.append(entry_path)  # a dangling map link or a loop is reported
    return sorted(found)


def _is_symlink_loop(path: Path) -> bool:
    try:
        path.stat()
    except OSError as error:
        return error.errno == errno.ELOOP
    return False
