"""`ttr fix`: rewrite wrong ticket values (R2, TTR304) to the shortest wagon distance.

Only the numbers change. Each new value is spliced into the original text at the
exact span of the old value's YAML scalar, so comments, key order, quoting, line
endings and everything else stay byte for byte the same. Writes are atomic: a
temporary file in the same folder, then `os.replace`, keeping the permissions. A
symlinked map is fixed at its target (the link stays a link), and a file edited
on disk after it was read is not replaced (`FileChangedError`).

The file is read exactly as `ttr validate` reads it (same reader, same limits),
and the spans come from the same node tree. A value written as a plain number is
rewritten; an alias (`*v`), an anchored value (`&v 20`) or a tagged one
(`!!int 20`) is refused, since rewriting it would change or break other values.

A file is fixed only when TTR304 is its only kind of error: with any other error
(YAML, schema, unknown cities, repeated keys…) the shortest distances may not be
what the designer meant, so the file is reported and skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ttr_maps.checks.problem import Level, Problem
from ttr_maps.checks.validate import FileReport, validate_document, validate_file, validate_text
from ttr_maps.io import limits
from ttr_maps.io.document import DocumentError, MapDocument, parse_document, parse_text
from ttr_maps.io.files import (
    FileSnapshot,
    read_snapshot,
    replace_if_unchanged,
    write_bytes_atomically,
)

TICKET_VALUE = "TTR304"


@dataclass(frozen=True, slots=True)
class ValueChange:
    """One ticket value to rewrite: where, from what, to what."""

    line: int
    column: int
    start: int
    end: int
    old: str
    new: int
    ticket: str


@dataclass
class FixPlan:
    """What `ttr fix` would do to one file.

    `blockers` are the errors that make fixing unsafe (the file is skipped);
    `unreadable` is True when the path could not be read at all.
    """

    path: str
    text: str = ""
    changes: list[ValueChange] = field(default_factory=list)
    blockers: list[Problem] = field(default_factory=list)
    unreadable: bool = False
    #: The file as it was read (identity and bytes): it is replaced only if it is
    #: still the same (`ttr_maps.io.files.replace_if_unchanged`).
    snapshot: FileSnapshot | None = None

    @property
    def is_skipped(self) -> bool:
        return bool(self.blockers)

    def fixed_text(self) -> str:
        """The file's text with every change applied (and nothing else changed)."""
        pieces, last = [], 0
        for change in sorted(self.changes, key=lambda c: c.start):
            pieces += [self.text[last : change.start], str(change.new)]
            last = change.end
        pieces.append(self.text[last:])
        return "".join(pieces)


def plan_fix(file: str | Path) -> FixPlan:
    """Work out the value changes for one file, without writing anything."""
    path = Path(file)
    try:
        snapshot = read_snapshot(path, limits.MAX_MAP_BYTES)
        # Decoded as is: \r\n stays \r\n, so untouched bytes stay untouched.
        text = snapshot.text()
        document = parse_document(text, str(file))
    except (OSError, ValueError, DocumentError):
        report: FileReport = validate_file(path, errors_only=True)  # the reader's own words
        return FixPlan(str(file), blockers=report.errors, unreadable=report.is_unreadable)
    plan = _plan_document(document)
    plan.snapshot = snapshot
    return plan


def plan_fix_text(text: str, path: str) -> FixPlan:
    """The changes `plan_fix` would make to a file holding `text` (an editor's
    buffer: `ttr lsp` offers them as code actions)."""
    try:
        document = parse_text(text, path)
    except DocumentError:
        return FixPlan(path, text, blockers=validate_text(text, path, errors_only=True).errors)
    return _plan_document(document)


def _plan_document(document: MapDocument) -> FixPlan:
    plan = FixPlan(document.path, document.text)
    report = validate_document(document, errors_only=True)
    plan.blockers = [p for p in report.errors if p.code != TICKET_VALUE]
    if plan.blockers or report.map is None:
        return plan

    from ttr_maps.checks.registry import CheckContext
    from ttr_maps.checks.tickets import iter_wrong_values

    spans = _ticket_value_spans(document.root, plan.text)
    for wrong in iter_wrong_values(CheckContext(report.map, document)):
        position = document.position(("tickets", wrong.ticket.entry, "value"))
        if wrong.ticket.entry not in spans:
            message = (
                "this ticket value is an alias (*name), or carries an anchor (&name) or a "
                "tag (!!int); fix it by hand"
            )
            plan.blockers.append(Problem(plan.path, position, Level.ERROR, TICKET_VALUE, message))
            continue
        start, end = spans[wrong.ticket.entry]
        plan.changes.append(
            ValueChange(
                position.line,
                position.column,
                start,
                end,
                plan.text[start:end],
                wrong.shortest,
                f"{wrong.ticket.a}–{wrong.ticket.b}",
            )
        )
    if plan.blockers:
        plan.changes = []
    return plan


def _ticket_value_spans(root: yaml.Node | None, text: str) -> dict[int, tuple[int, int]]:
    """Character spans of each ticket's `value` scalar that is written as a plain
    number, by ticket index: the text at the span is exactly the value."""
    spans: dict[int, tuple[int, int]] = {}
    if not isinstance(root, yaml.MappingNode):
        return spans
    tickets = next(
        (v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "tickets"),
        None,
    )
    if not isinstance(tickets, yaml.SequenceNode):
        return spans
    shift = _bom_shift(root, text)
    for index, item in enumerate(tickets.value):
        if not isinstance(item, yaml.MappingNode):
            continue
        for key, value in item.value:
            if not (isinstance(key, yaml.ScalarNode) and key.value == "value"):
                continue
            start, end = value.start_mark.index + shift, value.end_mark.index + shift
            # An alias's span is its anchor's, elsewhere in the file; an anchor or
            # a tag is part of the span (`&v 20`): splice only a bare number.
            inside = item.start_mark.index + shift <= start < item.end_mark.index + shift
            bare = isinstance(value, yaml.ScalarNode) and text[start:end] == value.value
            if inside and bare:
                spans.setdefault(index, (start, end))
    return spans


def _bom_shift(root: yaml.MappingNode, text: str) -> int:
    """1 when the parser's character marks do not count the file's UTF-8 byte-order
    mark (libyaml's do not), else 0: found on the first key, a plain scalar."""
    if not text.startswith("\ufeff") or not root.value:
        return 0
    key = root.value[0][0]
    start, end = key.start_mark.index, key.end_mark.index
    at_mark = text[start:end] == key.value
    return 1 if not at_mark and text[start + 1 : end + 1] == key.value else 0


def apply_fix(plan: FixPlan) -> None:
    """Write the plan's changes to its file (nothing happens without changes)."""
    if plan.changes and not plan.is_skipped:
        data = plan.fixed_text().encode("utf-8")
        if plan.snapshot is None:
            write_bytes_atomically(Path(plan.path), data)
        else:  # a compare-and-swap: an edit made while fix worked is never lost
            replace_if_unchanged(plan.path, data, plan.snapshot)
