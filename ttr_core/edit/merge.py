"""Three texts made one: the file as it was read (`base`), the designer's edits of
it (`ours`) and the file as it is on disk now (`theirs`), merged line by line
when the two sides changed different lines (a reload after a conflict keeps both).

>>> merge_lines("a\\nb\\nc\\n", "A\\nb\\nc\\n", "a\\nb\\nC\\n")
'A\\nb\\nC\\n'
>>> merge_lines("a\\nb\\n", "x\\nb\\n", "y\\nb\\n") is None
True
"""

from __future__ import annotations

from difflib import SequenceMatcher

Change = tuple[int, int, list[str]]


def _changes(base: list[str], other: list[str]) -> list[Change]:
    """The runs of `base` lines (start, end) `other` replaces, with what by."""
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    return [
        (i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


def _clash(a: Change, b: Change) -> bool:
    if a == b:
        return False  # the same change made on both sides
    if a[0] == a[1] or b[0] == b[1]:  # an insertion clashes with what it touches
        return a[0] <= b[1] and b[0] <= a[1]
    return a[0] < b[1] and b[0] < a[1]


def merge_lines(base: str, ours: str, theirs: str) -> str | None:
    """`base` with the changes of both `ours` and `theirs`, or None when they
    change the same lines (or lines next to each other's insertions)."""
    lines = base.splitlines(keepends=True)
    mine = _changes(lines, ours.splitlines(keepends=True))
    other = _changes(lines, theirs.splitlines(keepends=True))
    if any(_clash(a, b) for a in mine for b in other):
        return None
    every = sorted({*map(_key, mine), *map(_key, other)}, reverse=True)
    for start, end, new in every:
        lines[start:end] = list(new)
    return "".join(lines)


def _key(change: Change) -> tuple[int, int, tuple[str, ...]]:
    return (change[0], change[1], tuple(change[2]))


def keeps_changes(base: str, theirs: str, text: str) -> bool:
    """Whether `text` keeps every change `theirs` made to `base` (merging them in
    again changes nothing)."""
    return merge_lines(base, text, theirs) == text
