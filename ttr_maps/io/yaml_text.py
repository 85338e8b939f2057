"""City names as YAML scalars, for every writer that puts a name into a map file
(the ticket block, the layout section, the editor's splices, the language server's
edits): plain when that reads back as the same string, else a double-quoted (JSON)
string, which YAML reads as written.
"""

from __future__ import annotations

import json
import re

_PLAIN_NAME = re.compile(r"[^\W\d_][\w .'’()-]*[\w.)]|[^\W\d_]", re.UNICODE)
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}
#: What a YAML double-quoted scalar must escape beyond what JSON escapes.
_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")


def name_scalar(name: str) -> str:
    """A city name as a YAML scalar, in a flow list, a block list or as a key.

    >>> name_scalar("Den Haag"), name_scalar("B: x"), name_scalar("No"), name_scalar("a\x85b")
    ('Den Haag', '"B: x"', '"No"', '"a\\\\u0085b"')
    """
    if _PLAIN_NAME.fullmatch(name) and name.lower() not in _YAML_WORDS:
        return name
    # JSON's escapes are YAML's too; a character YAML does not print as itself (C1
    # controls: U+0085 is a YAML line break; U+FEFF, the surrogates) is escaped.
    return _UNPRINTABLE.sub(
        lambda m: f"\\u{ord(m.group()):04x}", json.dumps(name, ensure_ascii=False)
    )


#: The longest line a default yamllint run accepts (its `line-length` rule).
LINE_WIDTH = 80
#: Comments that say something to a tool: never moved or wrapped (a per-line
#: disable belongs to its line, a modeline is read whole).
_DIRECTIVE = re.compile(r"#\s*(ttr:|yaml-language-server:)")


def lint_clean(text: str, width: int = LINE_WIDTH, *, document_start: bool = True) -> str:
    """A map's text laid out as a default `yamllint` run wants it, saying exactly
    the same (the same data, the same comments): a `---` before the first node
    (after the opening comments, so a modeline stays on line 1), and no line
    longer than `width` where it can be helped: a trailing comment of a long line
    goes on its own line above it, a long comment is wrapped at spaces, a long
    flow collection (`{between: [A, B], length: 2, …}`) is broken after its commas
    onto lines indented past its opening bracket. Lines holding a `ttr:` or
    modeline directive, block scalars, and a word longer than the width stay as
    they are. `document_start=False` lays out a part of a document (no `---`).

    >>> print(lint_clean("a: 1\\n"), end="")
    ---
    a: 1
    >>> line = "  - {between: [Salt Lake City, San Francisco], length: 5, color: [orange, white]}"
    >>> print(lint_clean("---\\nroutes:\\n" + line + "  # the Overland Route\\n"), end="")
    ---
    routes:
      # the Overland Route
      - {between: [Salt Lake City, San Francisco], length: 5,
         color: [orange, white]}
    """
    out: list[str] = []
    started = False
    block_indent: int | None = None  # inside a block scalar (`|`, `>`): its parent's indent
    carry: tuple[str, list[str]] | None = None  # words a wrapped comment line left over
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if carry is not None:
            lead, words = carry
            carry = None
            body = line[len(lead) :]
            if _comment_lead(line) == lead and body.strip() and not _ITEM.match(body):
                line = lead + " ".join([*words, body.strip()])
            else:  # the paragraph ended: the words left over get lines of their own
                out.extend(_wrapped_comment(lead + " ".join(words), width))
        if block_indent is not None:
            if not stripped or indent > block_indent:
                out.append(line)
                continue
            block_indent = None
        if not started and stripped and not stripped.startswith("#"):
            started = True
            if document_start and not stripped.startswith("---"):
                out.append("---")
        code, comment = _split_comment(line)
        if len(line) <= width or _DIRECTIVE.search(line):
            out.append(line)
        elif not code.strip():
            # A long comment line: what does not fit goes on to the next line
            # of the same paragraph (same indent and lead), or a line of its own.
            lead = _comment_lead(line) or ""
            if _ITEM.match(line[len(lead) :]):  # `TTR252: …`, `- …`: the rest hangs under it
                lead += "  "
            wrapped = _wrapped_comment(line, width, lead)
            out.append(wrapped[0])
            rest = " ".join(w.removeprefix(lead) for w in wrapped[1:]).split()
            carry = (lead, rest) if rest else None
        else:
            if comment:
                out.extend(_wrapped_comment(" " * indent + comment, width))
            out.extend(_wrapped_flow(code, width))
        if re.search(r":\s*[|>][-+0-9]*\s*$", code):
            block_indent = indent
    if carry is not None:
        out.extend(_wrapped_comment(carry[0] + " ".join(carry[1]), width))
    return "\n".join(out)


def lint_clean_changes(before: str, after: str, width: int = LINE_WIDTH) -> str:
    """`after` with the lines that are not in `before` laid out by `lint_clean`
    (as a part of the document: no `---` added) and every other line as it was,
    byte for byte: an edit's new lines pass a default yamllint run, the lines it
    did not touch stay the author's. Line ends (LF or CRLF) are kept.

    >>> before = "---\\nroutes:\\n  - {between: [A, B], length: 1}\\n"
    >>> entry = "  - {between: [Salt Lake City, San Francisco], length: 5, color: [orange, white]}"
    >>> print(lint_clean_changes(before, before + entry + "\\n"), end="")
    ---
    routes:
      - {between: [A, B], length: 1}
      - {between: [Salt Lake City, San Francisco], length: 5,
         color: [orange, white]}
    """
    import difflib

    old, new = _lines(before), _lines(after)
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, _, _, start, end in matcher.get_opcodes():
        lines = new[start:end]
        if tag == "equal" or not any(len(line.rstrip("\r\n")) > width for line in lines):
            out.extend(lines)
            continue
        newline = "\r\n" if lines[0].endswith("\r\n") else "\n"
        body = "\n".join(line.rstrip("\r\n") for line in lines)
        cleaned = lint_clean(body, width, document_start=False).replace("\n", newline)
        out.append(cleaned + (newline if lines[-1].endswith("\n") else ""))
    return "".join(out)


def _lines(text: str) -> list[str]:
    """The lines of `text`, each with its line end (YAML's: LF or CRLF)."""
    return [line for line in re.split("(?<=\n)", text) if line]


def _comment_lead(line: str) -> str | None:
    """The indent, `#` and spaces a comment line's words start after, or None for
    a line that is not a comment with words (a directive is not one either)."""
    found = re.match(r"^( *#[ \t]*)\S", line)
    if found is None or _DIRECTIVE.search(line):
        return None
    return found.group(1)


def _split_comment(line: str) -> tuple[str, str]:
    """A line's code and its trailing comment (`# …`), outside quotes."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
            elif char == "\\" and quote == '"':
                continue
        elif char in "\"'" and (i == 0 or line[i - 1] in " [{,:"):
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip(), line[i:]
    return line, ""


#: A comment line that starts an item of its own: `TTR252: why`, `- a point`,
#: `1. a step`; it is never run into the line before it.
_ITEM = re.compile(r"\s*(?:[-*•]|\d+[.)]|[A-Za-z][\w-]{0,19}:)\s")


def _wrapped_comment(line: str, width: int, next_lead: str | None = None) -> list[str]:
    """A comment line cut at spaces into lines of at most `width` (a word longer
    than that keeps its own line); lines after the first start with `next_lead`
    (the indent, `#` and spaces), by default the line's own."""
    stripped = line.lstrip(" ")
    indent = " " * (len(line) - len(stripped))
    body = stripped.removeprefix("#")
    lead = indent + "#" + body[: len(body) - len(body.lstrip(" "))]
    following = lead if next_lead is None else next_lead
    words = body.split()
    if not words:
        return [line]
    out, current = [], lead + words[0]
    for word in words[1:]:
        if len(current) + 1 + len(word) > width:
            out.append(current)
            current = f"{following}{word}"
        else:
            current += " " + word
    out.append(current)
    return out


def _wrapped_flow(line: str, width: int) -> list[str]:
    """A line whose value is a flow collection, broken after commas of that
    collection onto lines that start one past its opening bracket; other lines,
    and a collection that does not close on the line, as they are."""
    opening = re.match(r"^(\s*(?:- )*(?:[^\s#{}\[\]][^:#{}\[\]]*:\s+)?)([{\[])", line)
    if opening is None:
        return _wrapped_plain(line, width)
    start = opening.end(2) - 1
    breaks, depth, quote = [], 0, None
    for i in range(start, len(line)):
        char = line[i]
        if quote:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0 and line[i + 1 :].strip():
                return [line]  # more after the collection: leave it
        elif char == "," and depth == 1:
            breaks.append(i + 1)
    if depth != 0 or not breaks:
        return [line]
    pad = " " * (start + 1)
    out, begin, last = [], 0, 0
    for cut in [*breaks, len(line)]:
        candidate = line[begin:cut] if begin == 0 else pad + line[begin:cut].lstrip()
        if len(candidate) > width and last > begin:
            out.append(line[begin:last] if begin == 0 else pad + line[begin:last].lstrip())
            begin = last
        last = cut
    out.append(line[begin:] if begin == 0 else pad + line[begin:].lstrip())
    return [part.rstrip() for piece in out for part in _wrapped_inner(piece, width)]


def _wrapped_inner(piece: str, width: int) -> list[str]:
    """A piece still too long broken inside the first list it holds (a route's
    two long city names), after the last comma of that list that lets the first
    line fit, the rest starting one past the list's bracket."""
    if len(piece) <= width:
        return [piece]
    quote, bracket, commas = None, None, []
    for i, char in enumerate(piece):
        if quote:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "[" and bracket is None:
            bracket = i
        elif char == "," and bracket is not None:
            commas.append(i + 1)
        elif char == "]" and bracket is not None:
            break
    else:
        return [piece]
    fitting = [cut for cut in commas if cut <= width] or commas[:1]
    if not fitting:
        return [piece]
    cut = fitting[-1]
    return [piece[:cut], " " * (bracket + 1) + piece[cut:].lstrip()]


#: A block sequence entry or a mapping value that is a plain scalar of ordinary
#: words (no quotes, no `: ` or ` #` inside): YAML folds its lines with spaces.
_PLAIN_VALUE = re.compile(r"^( *(?:- )+| *[\w][\w .()-]*: +)([\w(][^\"'#]*)$")
#: A word a folded plain scalar's line may start with (not an indicator).
_SAFE_START = re.compile(r"[\w(]")


def _wrapped_plain(line: str, width: int) -> list[str]:
    """A long plain scalar folded at spaces onto lines indented past its start
    (a sequence entry) or its key (a mapping value); other lines as they are."""
    found = _PLAIN_VALUE.match(line)
    if found is None or ": " in found.group(2) or found.group(2).endswith(":"):
        return [line]
    prefix = found.group(1)
    indent = (
        len(prefix) if prefix.rstrip().endswith("-") else len(prefix) - len(prefix.lstrip()) + 2
    )
    out, current = [], prefix.rstrip(" ") + " "
    for word in found.group(2).split(" "):
        if not word:
            return [line]  # two spaces in a row: folding would make them one
        fresh = current in (prefix.rstrip(" ") + " ", " " * indent)
        if not fresh and len(current) + len(word) > width and _SAFE_START.match(word):
            out.append(current.rstrip(" "))
            current = " " * indent
        current += word + " "
    out.append(current.rstrip(" "))
    return out
