"""A deck as YAML, and replacing a map file's `tickets:` block in place.

Only the block changes: every line before and after it, comments included, stays
byte for byte. The new file is validated before it replaces the old one, and is
written atomically (`ttr_maps.io.files`); city names are written by
`ttr_maps.io.yaml_text.name_scalar`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ttr_maps.analysis.tickets import DeckError
from ttr_maps.io.files import FileSnapshot
from ttr_maps.io.yaml_text import name_scalar
from ttr_maps.model import Ticket

_TOP_LEVEL_TICKETS = re.compile(r"tickets\s*:")


def deck_to_yaml(tickets: Sequence[Ticket], comment: str | None = None) -> str:
    """The `tickets:` block of a map file, one flow mapping per ticket.

    >>> print(deck_to_yaml([Ticket("A", "B: x", 3), Ticket("C", "D", 9, long=True)]), end="")
    tickets:
      - {between: [A, "B: x"], value: 3}
      - {between: [C, D], value: 9, long: true}
    """
    lines = ["tickets:\n"]
    if comment:
        lines.append(f"  # {comment}\n")
    for t in tickets:
        extra = ", long: true" if t.long else ""
        lines.append(
            f"  - {{between: [{name_scalar(t.a)}, {name_scalar(t.b)}], value: {t.value}{extra}}}\n"
        )
    return "".join(lines)


def replace_tickets_block(text: str, block: str) -> str:
    """`text` with its top-level `tickets:` block replaced by `block` (or `block`
    appended when there is none).

    The block runs from the `tickets:` line to its last indented or `-` line;
    comment and blank lines after it belong to what follows.

    >>> replace_tickets_block("a: 1\\ntickets:\\n  - x\\n# keep\\nb: 2\\n", "tickets: []\\n")
    'a: 1\\ntickets: []\\n# keep\\nb: 2\\n'
    """
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _TOP_LEVEL_TICKETS.match(line)), None)
    if start is None:
        separator = "" if not text or text.endswith("\n") else "\n"
        return text + separator + block
    last = start
    for i in range(start + 1, len(lines)):
        line = lines[i]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[0] in " \t-":
            last = i
        else:
            break
    return "".join(lines[:start]) + block + "".join(lines[last + 1 :])


def write_deck(
    path: Path,
    tickets: Sequence[Ticket],
    comment: str | None = None,
    snapshot: FileSnapshot | None = None,
) -> None:
    """Replace the `tickets:` block of the map file at `path` with `tickets`, in
    the file as `snapshot` read it (`ttr_maps.io.files.read_snapshot`; read now if
    None), and only if the file is still that one (a compare-and-swap: an edit made
    since is never overwritten, `FileChangedError`).

    Raises `DeckError` (nothing written) if the new file would not validate, and
    `OSError` if it cannot be read or written.
    """
    from ttr_maps.checks.validate import validate_document
    from ttr_maps.io.document import DocumentError, parse_document
    from ttr_maps.io.files import read_snapshot, replace_if_unchanged
    from ttr_maps.io.limits import MAX_MAP_BYTES

    if snapshot is None:
        snapshot = read_snapshot(path, MAX_MAP_BYTES)
    try:
        old = snapshot.text()
    except UnicodeDecodeError as error:
        raise DeckError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    new = replace_tickets_block(old, deck_to_yaml(tickets, comment))
    try:
        report = validate_document(parse_document(new, str(path)), errors_only=True)
    except DocumentError as error:
        raise DeckError(f"{path}: the new tickets block would not read: {error}") from None
    if report.errors:
        details = "; ".join(str(p) for p in report.errors[:5])
        raise DeckError(f"{path}: not written, the result would not validate: {details}")
    replace_if_unchanged(path, new.encode("utf-8"), snapshot)
