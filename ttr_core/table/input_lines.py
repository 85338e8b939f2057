"""Lines typed at a prompt, bounded: a person (or a pipe) may send anything.

A line longer than `MAX_PROMPT_LINE_CHARS` is never held in memory whole: it is
read in pieces and cut to one character over the limit, so the command parser
refuses it as too long (`ttr_core.table.commands`). Bytes that are not UTF-8 become U+FFFD, and
a missing stdin (closed by the shell: `<&-`) reads as an ended input.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from ttr_maps.io.limits import MAX_PROMPT_LINE_CHARS

_CHUNK = 65_536


def iter_bounded_lines(stream: TextIO | None, limit: int = MAX_PROMPT_LINE_CHARS) -> Iterator[str]:
    """Lines of `stream` without their line ends, each at most `limit + 1`
    characters (a longer line is cut there).

    >>> import io
    >>> list(iter_bounded_lines(io.StringIO("1\\n" + "9" * 5000 + "\\nquit\\n"), 3))
    ['1', '9999', 'quit']
    """
    if stream is None:
        return
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith("\n"):
            while piece := stream.readline(_CHUNK):  # the rest of the line, dropped
                if piece.endswith("\n"):
                    break
            yield line
            continue
        yield line.rstrip("\r\n")
