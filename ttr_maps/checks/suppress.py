"""Comments that silence warnings in a map file:

- `# ttr: disable=CODE,CODE` on a line of its own: in the whole file;
- `# ttr: disable-line=CODE` at the end of a line: on that line only;
- `# ttr: disable-next-line=CODE` on a line of its own: on the next line only.

Errors are never silenced (a map with an error cannot be played).

A leaf module: the validation pipeline (`ttr_maps.checks.validate`) and the checks
(`ttr_maps.checks`) both read it, and neither imports the other for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ttr_maps.io.document import Position

_DISABLE = re.compile(r"^[ \t]*#[ \t]*ttr:[ \t]*disable[ \t]*=(.*)$", re.M)
#: `# ttr: disable-line=…` after anything on its line, `disable-next-line` alone.
_DISABLE_LINE = re.compile(r"#[ \t]*ttr:[ \t]*disable-line[ \t]*=([^#\n]*)")
_DISABLE_NEXT = re.compile(r"^[ \t]*#[ \t]*ttr:[ \t]*disable-next-line[ \t]*=([^#\n]*)$", re.M)


def iter_disabled_codes(text: str) -> Iterator[tuple[str, Position]]:
    """Each code named by a disable comment of any kind, upper-cased, with where it
    is written (TTR051 reports the ones that silence nothing).

    >>> text = "a: 1\\n# ttr: disable=TTR252, x\\nb: 2  # ttr: disable-line=TTR253\\n"
    >>> [(code, p.line, p.column) for code, p in iter_disabled_codes(text)]
    [('TTR252', 2, 16), ('X', 2, 24), ('TTR253', 3, 27)]
    """
    found = []
    for pattern in (_DISABLE, _DISABLE_LINE, _DISABLE_NEXT):
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            line_start = text.rfind("\n", 0, match.start()) + 1
            for item in re.finditer(r"[^,\s][^,]*", match.group(1)):
                column = match.start(1) + item.start() - line_start + 1
                found.append((item.group().strip().upper(), Position(line, column)))
    yield from sorted(found, key=lambda found: found[1])


def line_disabled_codes(text: str) -> dict[int, frozenset[str]]:
    """The codes silenced on single lines: line number -> codes.

    >>> text = "a: 1  # ttr: disable-line=TTR253\\n# ttr: disable-next-line=TTR252\\nb: 2\\n"
    >>> line_disabled_codes(text)
    {1: frozenset({'TTR253'}), 3: frozenset({'TTR252'})}
    """
    lines: dict[int, set[str]] = {}
    for pattern, offset in ((_DISABLE_LINE, 0), (_DISABLE_NEXT, 1)):
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1 + offset
            codes = {item.strip().upper() for item in match.group(1).split(",") if item.strip()}
            lines.setdefault(line, set()).update(codes)
    return {line: frozenset(codes) for line, codes in sorted(lines.items())}


def disabled_codes(text: str) -> frozenset[str]:
    """Codes silenced in the whole file by `# ttr: disable=CODE,CODE` comment lines.

    >>> text = "id: x\\n# ttr: disable=TTR252, TTR253\\nb: 1  # ttr: disable-line=TTR1\\n"
    >>> sorted(disabled_codes(text))
    ['TTR252', 'TTR253']
    """
    return frozenset(
        item.strip().upper()
        for match in _DISABLE.finditer(text)
        for item in match.group(1).split(",")
        if item.strip()
    )
