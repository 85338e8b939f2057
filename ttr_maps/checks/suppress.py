"""`# ttr: disable=CODE,CODE` comments that silence warnings in a map file.

A leaf module: the validation pipeline (`ttr_maps.checks.validate`) and the checks
(`ttr_maps.checks`) both read it, and neither imports the other for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ttr_maps.io.document import Position

_DISABLE = re.compile(r"^[ \t]*#[ \t]*ttr:[ \t]*disable[ \t]*=(.*)$", re.M)


def iter_disabled_codes(text: str) -> Iterator[tuple[str, Position]]:
    """Each code named by a `# ttr: disable=CODE,CODE` comment line, upper-cased,
    with where it is written (TTR051 reports the ones that silence nothing).

    >>> text = "a: 1\\n# ttr: disable=TTR252, x\\n"
    >>> [(code, p.line, p.column) for code, p in iter_disabled_codes(text)]
    [('TTR252', 2, 16), ('X', 2, 24)]
    """
    for match in _DISABLE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        for item in re.finditer(r"[^,\s][^,]*", match.group(1)):
            column = match.start(1) + item.start() - match.start() + 1
            yield item.group().strip().upper(), Position(line, column)


def disabled_codes(text: str) -> frozenset[str]:
    """Codes silenced by `# ttr: disable=CODE,CODE` comment lines.

    >>> sorted(disabled_codes("id: x\\n# ttr: disable=TTR252, TTR253\\n"))
    ['TTR252', 'TTR253']
    """
    return frozenset(code for code, _ in iter_disabled_codes(text))
