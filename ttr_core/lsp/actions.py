"""Code actions: the fixes the editor offers on a diagnostic (a light bulb).

- **Set the value to N (R2)** on a wrong ticket value (TTR304): the very edit
  `ttr fix` makes (`ttr_maps.analysis.fix`: the same plan, the same span, the
  number alone replaced). Like `ttr fix`, it is offered only when the file has no
  other kind of error. With several wrong values, a `source.fixAll` action sets
  them all at once, so an editor can run it on save.
- **Did you mean X** on a city name that is not under `cities:` (in a route, a
  ticket or the board layout): the closest spellings (`ttr_maps.spelling`), the
  name alone replaced and quoted as YAML needs.
- **Disable TTRnnn for this file** on a warning: the code joins the file's
  `# ttr: disable=` comment, or a new one after the opening comments. Errors
  cannot be silenced (TTR051), so none is offered for them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from lsprotocol import types

from ttr_core.lsp.snapshot import Snapshot
from ttr_maps.checks.suppress import disabled_codes
from ttr_maps.io.yaml_text import name_scalar
from ttr_maps.spelling import closest_spellings

TICKET_VALUE = "TTR304"
#: How many spellings "did you mean" offers for one name.
SPELLINGS = 3
#: A `# ttr: disable=` line up to its last code (trailing blanks and the line end left out).
_DISABLE_LINE = re.compile(
    r"^[ \t]*#[ \t]*ttr:[ \t]*disable[ \t]*=[^\r\n]*?(?=[ \t]*(?:\r|$))", re.M
)
_CODE = re.compile(r"TTR\d{3}")


def code_actions(
    snapshot: Snapshot,
    start: int,
    end: int,
    context: types.CodeActionContext,
    *,
    versioned: bool,
) -> list[types.CodeAction]:
    """The actions for the characters `start` to `end` and the diagnostics the
    editor sent with the request. `versioned`: the client takes versioned edits."""
    actions = [
        *_r2_values(snapshot, start, end, context.diagnostics, versioned),
        *_spellings(snapshot, start, end, context.diagnostics, versioned),
        *_disables(snapshot, context.diagnostics, versioned),
    ]
    if context.only:
        actions = [a for a in actions if any(_is_kind(a.kind, kind) for kind in context.only)]
    return actions


def _is_kind(kind: str | None, wanted: str) -> bool:
    return kind is not None and (kind == wanted or kind.startswith(f"{wanted}."))


def _edit(snapshot: Snapshot, edits: list[types.TextEdit], versioned: bool) -> types.WorkspaceEdit:
    if versioned:
        document = types.OptionalVersionedTextDocumentIdentifier(snapshot.uri, snapshot.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(document, edits)])
    return types.WorkspaceEdit(changes={snapshot.uri: edits})


def _touching(
    snapshot: Snapshot,
    diagnostics: Iterable[types.Diagnostic],
    start: int,
    end: int,
    code: str = TICKET_VALUE,
) -> list[types.Diagnostic]:
    """The editor's diagnostics (of `code`, or any with `code=""`) that overlap
    characters `start` to `end`."""
    found = []
    for diagnostic in diagnostics:
        if code and diagnostic.code != code:
            continue
        first = snapshot.offset(diagnostic.range.start)
        last = snapshot.offset(diagnostic.range.end)
        if first <= end and start <= last:
            found.append(diagnostic)
    return found


def _r2_values(
    snapshot: Snapshot,
    start: int,
    end: int,
    diagnostics: list[types.Diagnostic],
    versioned: bool,
) -> Iterator[types.CodeAction]:
    """R2: the `ttr fix` edit of each wrong value in range, and all of them."""
    if not any(p.code == TICKET_VALUE for p in snapshot.report.problems):
        return
    plan = snapshot.fix_plan
    if plan.is_skipped or not plan.changes:
        return
    edits = {
        change: types.TextEdit(snapshot.range(change.start, change.end), str(change.new))
        for change in plan.changes
    }
    for change, edit in edits.items():
        if change.start <= end and start <= change.end:
            yield types.CodeAction(
                title=f"Set the value to {change.new} (R2)",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=_touching(snapshot, diagnostics, change.start, change.end),
                is_preferred=True,
                edit=_edit(snapshot, [edit], versioned),
            )
    if len(edits) > 1:
        yield types.CodeAction(
            title=f"Set all {len(edits)} wrong ticket values to the shortest distance (R2)",
            kind=types.CodeActionKind.SourceFixAll,
            edit=_edit(snapshot, list(edits.values()), versioned),
        )


def _spellings(
    snapshot: Snapshot,
    start: int,
    end: int,
    diagnostics: list[types.Diagnostic],
    versioned: bool,
) -> Iterator[types.CodeAction]:
    """Did you mean: a known city for each unknown one named in range."""
    outline = snapshot.outline
    if outline is None:
        return
    known = outline.city_names
    for mention in outline.mentions:
        if mention.name in known or not mention.span.overlaps(start, end):
            continue
        span = mention.span
        touching = _touching(snapshot, diagnostics, span.start, span.end, code="")
        for rank, name in enumerate(closest_spellings(mention.name, known, count=SPELLINGS)):
            edit = types.TextEdit(snapshot.range(span.start, span.end), name_scalar(name))
            yield types.CodeAction(
                title=f"Did you mean {name}?",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=touching,
                is_preferred=rank == 0,
                edit=_edit(snapshot, [edit], versioned),
            )


def _disables(
    snapshot: Snapshot, diagnostics: list[types.Diagnostic], versioned: bool
) -> Iterator[types.CodeAction]:
    """Disable a warning's code for the whole file."""
    silenced = disabled_codes(snapshot.text)
    offered: set[str] = set()
    for diagnostic in diagnostics:
        code = diagnostic.code
        is_warning = diagnostic.severity == types.DiagnosticSeverity.Warning
        if not (isinstance(code, str) and _CODE.fullmatch(code) and is_warning):
            continue
        if code in silenced or code in offered:
            continue
        offered.add(code)
        yield types.CodeAction(
            title=f"Disable {code} for this file",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[d for d in diagnostics if d.code == code],
            edit=_edit(snapshot, [disable_edit(snapshot, code)], versioned),
        )


def disable_edit(snapshot: Snapshot, code: str) -> types.TextEdit:
    """The edit that adds `code` to the file's `# ttr: disable=` comment: the first
    such line gains `,CODE`; without one, a new line goes after the comments and
    blank lines that open the file (the modeline, a header), in its line ending."""
    text = snapshot.text
    existing = _DISABLE_LINE.search(text)
    if existing is not None:
        where = snapshot.position(existing.end())
        return types.TextEdit(types.Range(where, where), f",{code}")
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.strip() and not line.lstrip().startswith("#"):
            break
        offset += len(line)
    newline = "\r\n" if "\r\n" in text else "\n"
    at = min(offset, len(text))
    prefix = newline if at == len(text) and text and not text.endswith(("\n", "\r")) else ""
    where = snapshot.position(at)
    return types.TextEdit(types.Range(where, where), f"{prefix}# ttr: disable={code}{newline}")
