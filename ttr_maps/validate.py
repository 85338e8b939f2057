"""Validation: a map file in, every problem out, never a traceback.

The pipeline is: read the YAML (positions kept) -> document checks (repeated keys,
always) -> JSON Schema -> build the `Map` -> every registered map check. Map checks
run only on schema-valid documents, since they rely on the structure the schema
guarantees.

A file may silence warnings (never errors) with a comment line anywhere in it:

    # ttr: disable=TTR252,TTR253

A code there that is unknown, or an error's, is itself reported (TTR051).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ttr_maps.document import DocumentError, MapDocument, Position, read_document
from ttr_maps.model import Map
from ttr_maps.problem import Level, Problem

# `iter_disabled_codes` lived here and may still be imported from here; the checks
# import it from `ttr_maps.suppress`, so the checks and this pipeline (which runs
# them) do not import each other.
from ttr_maps.suppress import disabled_codes, iter_disabled_codes  # noqa: F401

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


class InvalidMapError(Exception):
    """A map that cannot be played: it could not be read or it has errors."""

    def __init__(self, report: FileReport):
        self.report = report
        lines = [str(p) for p in report.errors]
        super().__init__("\n".join(lines) or f"{report.path}: invalid map")


def validate_document(document: MapDocument) -> FileReport:
    """Validate a parsed document: document checks, the schema, then map checks."""
    from ttr_maps.checks import CheckContext, checks_at
    from ttr_maps.schema import iter_schema_problems

    report = FileReport(document.path, document=document)
    for check in checks_at("document"):
        report.problems.extend(check.run(document))
    schema_problems = list(iter_schema_problems(document))
    report.problems.extend(schema_problems)
    if not schema_problems:
        report.map = Map.from_data(document.data)
        context = CheckContext(report.map, document)
        for check in checks_at("map"):
            report.problems.extend(check.run(context))
    silenced = disabled_codes(document.text)
    if silenced:
        report.problems = [
            p for p in report.problems if not (p.level is Level.WARNING and p.code in silenced)
        ]
    report.problems.sort(key=lambda p: p.sort_key)
    return report


def validate_file(path: str | Path) -> FileReport:
    """Validate one map file. A file that cannot be read is a report with one error:
    TTR001 if it is not YAML, TTR000 if it cannot be read at all."""
    try:
        document = read_document(path)
    except DocumentError as error:
        position = error.position or Position(1, 1)
        code = YAML_SYNTAX_ERROR if error.syntax else UNREADABLE
        message = error.message
        if Path(path).is_dir() and not _map_files_in(Path(path)):
            message = "no map files (*.yaml, *.yml) found in this folder"
        problem = Problem(str(path), position, Level.ERROR, code, message)
        return FileReport(str(path), [problem])
    return validate_document(document)


def validate_files(paths: Iterable[str | Path]) -> Iterator[FileReport]:
    """Validate many files; a bad file never stops the batch."""
    for path in paths:
        yield validate_file(path)


def iter_map_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Expand command-line paths: a folder gives every `*.yaml`/`*.yml` inside it,
    recursively, sorted; anything else is passed on as is (a missing path is then
    reported by `validate_file`). A folder without map files is passed on too, and
    reported as unreadable ("no map files found in this folder").
    """
    for item in paths:
        path = Path(item)
        if path.is_dir():
            yield from _map_files_in(path) or [path]
        else:
            yield path


def _map_files_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in MAP_SUFFIXES and p.is_file())


def load_map(source: str | Path) -> Map:
    """Load a playable map: a bundled map id or a YAML path.

    Raises `InvalidMapError` (carrying the full report) if the file cannot be read
    or has errors; warnings do not stop a map from being played.
    """
    from ttr_maps.bundled import resolve_map_argument

    path = resolve_map_argument(str(source))
    report = validate_file(path)
    if report.map is None or report.errors:
        raise InvalidMapError(report)
    return report.map
