"""Lines typed at a prompt, bounded: a person (or a pipe) may send anything.

A line longer than `MAX_PROMPT_LINE_CHARS` is never held in memory whole: it is
read in pieces and replaced by a note that no command can match, so the table
answers it like any unknown command. Bytes that are not UTF-8 become U+FFFD, and
a missing stdin (closed by the shell: `<&-`) reads as an ended input.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from ttr_maps.limits import MAX_PROMPT_LINE_CHARS

_CHUNK = 65_536


def iter_bounded_lines(stream: TextIO | None, limit: int = MAX_PROMPT_LINE_CHARS) -> Iterator[str]:
    """Lines of `stream` without their line ends, each at most `limit` characters.

    >>> import io
    >>> list(iter_bounded_lines(io.StringIO("1\\n" + "9" * 5000 + "\\nquit\\n"), 10))
    ['1', '(a line of 5,000 characters; at most 10 are read)', 'quit']
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
            length = len(line)
            while piece := stream.readline(_CHUNK):
                length += len(piece)
                if piece.endswith("\n"):
                    length -= 1
                    break
            yield f"(a line of {length:,} characters; at most {limit:,} are read)"
            continue
        yield line.rstrip("\r\n")
