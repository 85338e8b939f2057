"""Validation: a map file in, every problem out, never a traceback.

The pipeline is: read the YAML (positions kept) -> JSON Schema -> build the `Map`
-> every registered semantic check. Semantic checks run only on schema-valid
documents, since they rely on the structure the schema guarantees.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ttr_maps.document import DocumentError, MapDocument, Position, read_document
from ttr_maps.model import Map
from ttr_maps.problem import Level, Problem

YAML_SYNTAX_ERROR = "TTR001"


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
    """Validate a parsed document: schema first, then the semantic checks."""
    from ttr_maps.checks import CheckContext, all_checks
    from ttr_maps.schema import iter_schema_problems

    report = FileReport(document.path, document=document)
    report.problems.extend(iter_schema_problems(document))
    if not report.problems:
        report.map = Map.from_data(document.data)
        context = CheckContext(report.map, document)
        for check in all_checks():
            report.problems.extend(check.run(context))
    report.problems.sort(key=lambda p: p.sort_key)
    return report


def validate_file(path: str | Path) -> FileReport:
    """Validate one map file. A file that cannot be read is a report with one error."""
    try:
        document = read_document(path)
    except DocumentError as error:
        position = error.position or Position(1, 1)
        problem = Problem(str(path), position, Level.ERROR, YAML_SYNTAX_ERROR, error.message)
        return FileReport(str(path), [problem])
    return validate_document(document)


def validate_files(paths: Iterable[str | Path]) -> Iterator[FileReport]:
    """Validate many files; a bad file never stops the batch."""
    for path in paths:
        yield validate_file(path)


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
