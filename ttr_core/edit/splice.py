"""Splicing a map file's text at the spans of its YAML nodes: the careful writer of
`ttr edit` (as `ttr fix` splices a ticket value, `ttr_maps.analysis.fix`).

Every edit replaces, inserts or removes whole entries (a city's line, a route's
line), found in the node tree the file was read into; every other byte, comments
and blank lines included, stays as written. A collection written in flow style
(`tickets: []`, `cities: {A: …, B: …}`) is rewritten in block style when an entry
joins or leaves it, one entry a line. A line written ends as the file's lines
end (CRLF or LF), and a byte-order mark stays in front: the nodes' marks count the
characters after it (`root_of` parses the text without it, whichever YAML parser
is installed: libyaml's marks never count it, PyYAML's own do).

>>> text = "cities:\\n  A: {x: 0, y: 0}  # home\\nroutes: []\\n"
>>> text = append_entry(text, ("routes",), "{between: [A, B], length: 2, color: red}")
>>> print(text, end="")
cities:
  A: {x: 0, y: 0}  # home
routes:
  - {between: [A, B], length: 2, color: red}
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, Concatenate, ParamSpec

import yaml

from ttr_maps.io.document import DataPath, parse_text
from ttr_maps.io.files import TextForm
from ttr_maps.io.yaml_text import name_scalar

BOM = "\ufeff"
P = ParamSpec("P")


class SpliceError(ValueError):
    """The text cannot be edited as asked (the message says why)."""


def root_of(text: str) -> yaml.Node | None:
    """The node tree of a map's text (`SpliceError` if it is not YAML); its marks
    count the characters after the byte-order mark, if any."""
    from ttr_maps.io.document import DocumentError

    try:
        return parse_text(text.removeprefix(BOM)).root
    except DocumentError as problem:
        raise SpliceError(f"the file is not YAML the editor can change: {problem}") from None


def child(node: yaml.Node | None, key: str | int) -> tuple[yaml.Node, yaml.Node] | None:
    """(key node, value node) of a mapping's key, or (item, item) of a list's index."""
    if isinstance(node, yaml.MappingNode) and isinstance(key, str):
        for key_node, value in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                return key_node, value
    if isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
        return node.value[key], node.value[key]
    return None


def node_at(root: yaml.Node | None, path: DataPath) -> tuple[yaml.Node, yaml.Node] | None:
    """(key node, value node) at `path` (for the root: (root, root))."""
    if root is None:
        return None
    found: tuple[yaml.Node, yaml.Node] | None = (root, root)
    for key in path:
        found = child(found[1], key) if found else None
    return found


def flow(value: Any) -> str:
    """A value as YAML flow text, as the map files write it: names plain when
    they read back the same, numbers as written, lists and mappings inline.

    >>> flow({"between": ["A", "Nord: Ost"], "length": 3, "tunnel": True})
    '{between: [A, "Nord: Ost"], length: 3, tunnel: true}'
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return json.dumps(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return name_scalar(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if value is None:
        return "null"
    raise SpliceError(f"cannot write {value!r} in a map")


def _float(value: float) -> str:
    """A float as YAML 1.1 reads it back (PyYAML's resolver wants a dot before
    an exponent: `1e-09` is a text there, `1.0e-09` a number).

    >>> _float(1e-09), _float(2.5), _float(1e16)
    ('1.0e-09', '2.5', '1.0e+16')
    """
    if not math.isfinite(value):
        raise SpliceError(f"cannot write {value!r} in a map")
    text = repr(value)
    mantissa, e, exponent = text.partition("e")
    return f"{mantissa}.0e{exponent}" if e and "." not in mantissa else text


def _key(key: Any) -> str:
    """A mapping key: the format's own keys (`x`, `y`, `between`) as they are
    always written, others as `flow` writes them."""
    return key if isinstance(key, str) and re.fullmatch(r"[a-z_]+", key) else flow(key)


def _keeps_bom(
    splice: Callable[Concatenate[str, P], str],
) -> Callable[Concatenate[str, P], str]:
    """`splice` working on the text after its byte-order mark (where the marks of
    `root_of`'s nodes point), the mark put back in front."""

    @functools.wraps(splice)
    def kept(text: str, *args: P.args, **kwargs: P.kwargs) -> str:
        if text.startswith(BOM):
            return BOM + splice(text[1:], *args, **kwargs)
        return splice(text, *args, **kwargs)

    return kept


def _newline(text: str) -> str:
    """The line end of the text's lines (CRLF when most of them end so)."""
    return TextForm.of(text).newline


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _line_end(text: str, index: int) -> int:
    """The index after the line end of the line holding `index` (or the text's end)."""
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


@_keeps_bom
def replace_node(text: str, path: DataPath, new: str) -> str:
    """`text` with the value at `path` replaced by the flow text `new`."""
    found = node_at(root_of(text), path)
    if found is None:
        raise SpliceError(f"nothing at {'.'.join(map(str, path))} to replace")
    node = found[1]
    return text[: node.start_mark.index] + new + text[end_of(node) :]


@_keeps_bom
def replace_scalars(text: str, nodes: Sequence[yaml.Node], new: str) -> str:
    """`text` with each scalar node's span replaced by `new` (from the end, so the
    spans stay right)."""
    for node in sorted(nodes, key=lambda n: n.start_mark.index, reverse=True):
        text = text[: node.start_mark.index] + new + text[node.end_mark.index :]
    return text


def _entries_text(text: str, node: yaml.Node) -> list[str]:
    """The entries of a flow collection, each as its own source text."""
    if isinstance(node, yaml.SequenceNode):
        return [text[item.start_mark.index : item.end_mark.index] for item in node.value]
    if isinstance(node, yaml.MappingNode):
        return [
            f"{text[k.start_mark.index : k.end_mark.index]}: "
            f"{text[v.start_mark.index : v.end_mark.index]}"
            for k, v in node.value
        ]
    return []


def end_of(node: yaml.Node) -> int:
    """Where a node's own text ends: a block collection's end mark lies past the
    comments and blank lines after it, so its last entry's end is taken instead."""
    while _is_block(node):
        node = node.value[-1] if isinstance(node, yaml.SequenceNode) else node.value[-1][1]
    return node.end_mark.index


def _is_block(node: yaml.Node) -> bool:
    return (
        isinstance(node, yaml.SequenceNode | yaml.MappingNode)
        and not node.flow_style
        and bool(node.value)
    )


def _rewrite_as_block(
    text: str, key: yaml.Node, node: yaml.Node, entries: list[str], sequence: bool
) -> str:
    """The collection under `key` written afresh in block style (or empty flow)."""
    indent = " " * (key.start_mark.column + 2)
    if not entries:
        body = " []" if sequence else " {}"
    else:
        dash = "- " if sequence else ""
        newline = _newline(text)
        body = "".join(f"{newline}{indent}{dash}{entry}" for entry in entries)
    start = key.end_mark.index
    colon = text.index(":", start)
    end = max(end_of(node), colon + 1)
    return text[: colon + 1] + body + text[end:]


def _entry_prefix(text: str, first: yaml.Node, sequence: bool) -> str:
    """What the line of a new entry starts with: the first entry's indentation and,
    in a list, its dash (`- - x`: the inner list's own dash, not the outer one's;
    `- a: 1`: a mapping's key column, not the list's dash)."""
    written = text[_line_start(text, first.start_mark.index) : first.start_mark.index]
    if not sequence:
        return " " * len(written)
    dash = written.rfind("-")
    if dash < 0:  # the item on the line after its dash
        return " " * max(len(written) - 2, 0) + "- "
    return " " * dash + written[dash:]


@_keeps_bom
def append_entry(text: str, section: DataPath, entry: str, key: str | None = None) -> str:
    """`text` with `entry` (flow text) added at the end of the collection at
    `section`: a list item, or with `key` a mapping entry `key: entry`. A missing
    top-level section is added at the end of the file; a missing nested one
    (`layout.cities`) is refused."""
    root = root_of(text)
    line = entry if key is None else f"{name_scalar(key)}: {entry}"
    found = node_at(root, section)
    if found is None:
        if len(section) != 1:
            raise SpliceError(f"the file has no {'.'.join(map(str, section))} to add to")
        newline = _newline(text)
        separator = "" if not text or text.endswith("\n") else newline
        dash = "- " if key is None else ""
        return f"{text}{separator}{section[0]}:{newline}  {dash}{line}{newline}"
    key_node, node = found
    sequence = key is None
    if sequence and not isinstance(node, yaml.SequenceNode | yaml.ScalarNode):
        raise SpliceError(f"{'.'.join(map(str, section))} is not a list")
    if not sequence and not isinstance(node, yaml.MappingNode | yaml.ScalarNode):
        raise SpliceError(f"{'.'.join(map(str, section))} is not a mapping")
    if isinstance(node, yaml.ScalarNode) and node.value not in ("", "~", "null"):
        raise SpliceError(f"{'.'.join(map(str, section))} holds a value, not entries")
    if not _is_block(node):
        return _rewrite_as_block(text, key_node, node, [*_entries_text(text, node), line], sequence)
    items = node.value
    first = items[0] if sequence else items[0][0]
    last = items[-1] if sequence else items[-1][1]
    prefix = _entry_prefix(text, first, sequence)
    at = _line_end(text, max(end_of(last) - 1, last.start_mark.index))
    newline = _newline(text)
    separator = "" if text[:at].endswith("\n") else newline
    return text[:at] + separator + prefix + line + newline + text[at:]


@_keeps_bom
def remove_entry(text: str, section: DataPath, key: str | int) -> str:
    """`text` without the entry `key` (a name, or a list index) of the collection
    at `section`: its lines, in block style; the collection rewritten in flow."""
    found = node_at(root_of(text), section)
    if found is None:
        raise SpliceError(f"the file has no {'.'.join(map(str, section))}")
    key_node, node = found
    entry = child(node, key)
    if entry is None:
        raise SpliceError(f"no entry {key!r} in {'.'.join(map(str, section))}")
    sequence = isinstance(node, yaml.SequenceNode)
    index = node.value.index(entry[0]) if sequence else [k for k, _ in node.value].index(entry[0])
    if not _is_block(node) or len(node.value) == 1:
        entries = _entries_text(text, node)
        del entries[index]
        if _is_block(node):  # the last entry goes: `section: []`
            return _rewrite_as_block(text, key_node, node, [], sequence)
        return _rewrite_as_block(text, key_node, node, entries, sequence)
    first, last = entry
    start = _line_start(text, first.start_mark.index)
    end = _line_end(text, max(end_of(last) - 1, last.start_mark.index))
    if text[start : first.start_mark.index].strip() != ("-" if sequence else ""):
        raise SpliceError(f"entry {key!r} shares its line with another; edit it by hand")
    return text[:start] + text[end:]
