"""One version of one open map file, checked: what every feature answers from.

A snapshot is taken once per version of the text, in a worker thread (the event
loop stays free for the editor's other requests): `validate_text` gives the same
report as `ttr validate` on a file holding the text; the outline says where each
city, route and ticket is written; the `ttr fix` plan and the ticket load of each
connection are worked out only when a code action or a hover needs them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from lsprotocol import types

from ttr_core.lsp.lines import LineIndex
from ttr_core.lsp.outline import Outline
from ttr_maps.analysis.fix import FixPlan, plan_fix_text
from ttr_maps.analysis.stats import ConnectionLoad
from ttr_maps.checks.registry import CheckContext
from ttr_maps.checks.validate import FileReport, validate_text

#: What a diagnostic underlines when no YAML node starts at its position.
_TOKEN = re.compile(r"[^\s,\[\]{}]+")


@dataclass
class Snapshot:
    """The checked state of one version of a document."""

    uri: str
    path: str
    version: int
    text: str
    report: FileReport
    lines: LineIndex
    #: None when the text is not YAML (or goes past a reader's limit).
    outline: Outline | None

    @property
    def context(self) -> CheckContext | None:
        """The map as the checks read it (None when they could not run)."""
        return self.report.context

    @cached_property
    def fix_plan(self) -> FixPlan:
        """What `ttr fix` would do to a file holding this text."""
        return plan_fix_text(self.text, self.path)

    @cached_property
    def connection_loads(self) -> dict[frozenset[str], ConnectionLoad]:
        """The tickets leaning on each connection (`ttr stats`' chokepoints)."""
        from ttr_maps.analysis.stats import connection_loads

        if self.context is None:
            return {}
        return {frozenset((c.a, c.b)): c for c in connection_loads(self.context.map)}

    def range(self, start: int, end: int) -> types.Range:
        """The LSP range of characters `start` to `end`."""
        return types.Range(self.position(start), self.position(end))

    def position(self, offset: int) -> types.Position:
        """The LSP position of an offset."""
        return types.Position(*self.lines.to_lsp(offset))

    def offset(self, position: types.Position) -> int:
        return self.lines.from_lsp(position.line, position.character)

    def token_end(self, start: int) -> int:
        """Where what starts at `start` ends, on its line: the smallest YAML node
        starting there, else the word; at least one character when there is one."""
        line_end = self.lines.line_end(start)
        end = self.outline.node_ends.get(start) if self.outline is not None else None
        if end is None:
            match = _TOKEN.match(self.text, start, line_end)
            end = match.end() if match else start + 1
        return max(min(end, line_end), min(start + 1, line_end))


def take_snapshot(uri: str, path: str, version: int, text: str, encoding: str) -> Snapshot:
    """Check one version of a document (runs in a worker thread)."""
    report = validate_text(text, path)
    document = report.document
    outline = Outline.of(document.root) if document is not None else None
    return Snapshot(uri, path, version, text, report, LineIndex(text, encoding), outline)
