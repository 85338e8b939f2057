"""Text from users is text: one escaping helper per medium.

Map names, city names and player names come from files anyone can write. Every
medium that interprets some characters gets them through its helper, so a name is
shown exactly as written and never runs as markup:

- `for_matplotlib`: `$` starts mathtext (`$\\frac{$` crashes the drawing);
- `for_rich`: `[...]` is rich markup (`[/]` crashes a table);
- `for_html`: `<`, `&` and quotes;
- `for_markdown`: Markdown's punctuation (an editor's hover renders Markdown);
- `for_terminal`: control characters and escape sequences (which can clear the
  screen or retitle the window) are shown as `\\x1b`-style escapes.

Use the helper at the point where text enters the medium (a label, a table cell,
an HTML fragment, a line printed), not earlier: the data itself stays as written.
"""

from __future__ import annotations

import html
import re

#: C0 controls (tab and newline included: a name is one line), DEL, C1 controls,
#: and the Unicode bidirectional overrides that can make text read backwards.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def for_terminal(text: str) -> str:
    """`text` safe to print: control characters shown as escapes.

    >>> for_terminal("Denver\\x1b[2J")
    'Denver\\\\x1b[2J'
    """
    return _CONTROL.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_rich(text: str) -> str:
    """`text` safe in a rich table cell, title or `Console.print`: markup escaped
    and control characters shown as escapes.

    >>> for_rich("[/] Denver")
    '\\\\[/] Denver'
    """
    from rich.markup import escape

    return escape(for_terminal(text))


def for_matplotlib(text: str) -> str:
    """`text` safe as a matplotlib label or title: every `$` escaped, so no part
    of it is read as mathtext, and control characters shown as escapes (a font
    would draw them as boxes).

    >>> for_matplotlib("$\\\\frac{$ City")
    '\\\\$\\\\frac{\\\\$ City'
    """
    return for_terminal(text).replace("$", r"\$")


def for_html(text: str) -> str:
    """`text` safe in HTML content and attribute values.

    >>> for_html('<b>"A&B"</b>')
    '&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;'
    """
    return html.escape(text, quote=True)


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~&])")


def for_markdown(text: str) -> str:
    """`text` safe in Markdown (an editor's hover): every punctuation mark that
    Markdown or its HTML could read is backslash-escaped, and control characters
    shown as escapes.

    >>> for_markdown("*Zürich* [x](y)")
    '\\\\*Zürich\\\\* \\\\[x\\\\]\\\\(y\\\\)'
    """
    return _MARKDOWN.sub(r"\\\1", for_terminal(text))


#: Longest piece of user text a message quotes whole, in characters.
GLIMPSE_CHARS = 60
#: Longest run of non-blank characters a message prints whole (a file path
#: stays whole; a 500,000-character name does not).
WORD_CHARS = 256
#: Longest message printed whole; a longer one keeps its start and end.
MESSAGE_CHARS = 2_000
_LONG_WORD = re.compile(rf"\S{{{WORD_CHARS + 1},}}")


def glimpse(text: str, limit: int = GLIMPSE_CHARS) -> str:
    """`text` as a message may quote it: whole when short, else its start and its
    length, so a 500,000-character name costs one line.

    >>> glimpse("Denver")
    'Denver'
    >>> glimpse("x" * 100, 10)
    'xxxxxxxxxx… (100 characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def shorten_message(message: str) -> str:
    """A message fit to print, whatever user text went into it: every run of
    more than `WORD_CHARS` non-blank characters is cut to a glimpse, and a
    message still longer than `MESSAGE_CHARS` keeps its start and its end.
    Commands pass every message they print through it (`fail`, problem lines).

    >>> shorten_message("unknown city " + "Q" * 5000)
    'unknown city QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ… (5,000 characters)'
    """
    if len(message) <= WORD_CHARS:
        return message
    message = _LONG_WORD.sub(lambda match: glimpse(match.group()), message)
    if len(message) <= MESSAGE_CHARS:
        return message
    head, tail = MESSAGE_CHARS * 3 // 4, MESSAGE_CHARS // 8
    left_out = len(message) - head - tail
    return f"{message[:head]} … ({left_out:,} characters left out) … {message[-tail:]}"
