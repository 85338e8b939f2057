"""Where a character is, three ways: an offset, ttr's line:column, the editor's.

- An **offset** into the text: what the YAML reader's marks and `ttr fix`'s spans hold.
- ttr's **`Position`**: 1-based line and column in characters, with lines broken
  where YAML breaks them (`\\n`, `\\r\\n`, `\\r`, and also NEL, LS and PS).
- The editor's **LSP position**: 0-based line, lines broken only at `\\n`, `\\r\\n` and
  `\\r`, the column counted in the code units agreed at start-up (UTF-16 unless the
  client offers UTF-8 or UTF-32).

The two line counts differ only in a text holding NEL, LS or PS; going through the
offset keeps every diagnostic on the character `ttr validate` names.

>>> lines = LineIndex("a: 1\\nb: '😋x'\\n")
>>> lines.offset_of(Position(2, 6)), lines.to_lsp(10)
(10, (1, 6))
>>> lines.from_lsp(1, 6)
10
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ttr_maps.io.document import Position

_YAML_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_LSP_BREAK = re.compile("\r\n|[\r\n]")


def code_units(text: str, encoding: str) -> int:
    """How many code units `text` takes in the agreed position encoding."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


class LineIndex:
    """Offsets, ttr positions and LSP positions of one text (see the module doc)."""

    def __init__(self, text: str, encoding: str = "utf-16"):
        self.text = text
        self.encoding = encoding
        self._yaml_starts = [0, *(m.end() for m in _YAML_BREAK.finditer(text))]
        self._lsp_starts = [0, *(m.end() for m in _LSP_BREAK.finditer(text))]

    def offset_of(self, position: Position) -> int:
        """The offset of a ttr position (clamped to the text)."""
        line = min(max(position.line, 1), len(self._yaml_starts)) - 1
        return min(self._yaml_starts[line] + max(position.column, 1) - 1, len(self.text))

    def to_lsp(self, offset: int) -> tuple[int, int]:
        """The LSP (line, character) of an offset."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self._lsp_starts, offset) - 1
        start = self._lsp_starts[line]
        return line, code_units(self.text[start:offset], self.encoding)

    def from_lsp(self, line: int, character: int) -> int:
        """The offset of an LSP position; past the end of a line is its end."""
        if line >= len(self._lsp_starts):
            return len(self.text)
        start = self._lsp_starts[max(line, 0)]
        end = self.line_end(start)
        segment = self.text[start:end]
        if segment.isascii() or self.encoding == "utf-32":
            return start + min(max(character, 0), len(segment))
        units = 0
        for index, char in enumerate(segment):
            if units >= character:
                return start + index
            units += code_units(char, self.encoding)
        return end

    def line_end(self, offset: int) -> int:
        """The offset where the LSP line holding `offset` ends (before its break)."""
        line = bisect_right(self._lsp_starts, min(max(offset, 0), len(self.text))) - 1
        if line + 1 < len(self._lsp_starts):
            end = self._lsp_starts[line + 1] - 1
            return end - 1 if self.text[end - 1 : end + 1] == "\r\n" else end
        return len(self.text)

    def line_start(self, offset: int) -> int:
        """The offset where the LSP line holding `offset` starts."""
        return self._lsp_starts[bisect_right(self._lsp_starts, offset) - 1]
