"""`ttr validate`'s problems as the editor's diagnostics.

Each problem keeps its code, level and message, at the character `ttr validate`
names (`file:line:col`); the range runs to the end of the YAML value or key that
starts there (`12` for a ticket value, `Omahaa` for a misspelt city), within its line.
"""

from __future__ import annotations

from lsprotocol import types

from ttr_core.lsp.snapshot import Snapshot
from ttr_maps.checks.problem import Level, Problem

SOURCE = "ttr"
_SEVERITY = {
    Level.ERROR: types.DiagnosticSeverity.Error,
    Level.WARNING: types.DiagnosticSeverity.Warning,
}


def problem_span(snapshot: Snapshot, problem: Problem) -> tuple[int, int]:
    """The characters a problem underlines."""
    start = snapshot.lines.offset_of(problem.position)
    return start, snapshot.token_end(start)


def to_diagnostic(snapshot: Snapshot, problem: Problem) -> types.Diagnostic:
    return types.Diagnostic(
        range=snapshot.range(*problem_span(snapshot, problem)),
        message=problem.message,
        severity=_SEVERITY[problem.level],
        code=problem.code,
        source=SOURCE,
    )


def diagnostics(snapshot: Snapshot) -> list[types.Diagnostic]:
    """Every problem of the snapshot, in `ttr validate`'s order."""
    return [to_diagnostic(snapshot, problem) for problem in snapshot.report.problems]
