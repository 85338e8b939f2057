"""Reading a map file: YAML text to plain data, keeping where every node was written.

Loading does not judge. `read_document` raises `DocumentError` only when the file
cannot be read or parsed at all; duplicate keys, schema errors and semantic problems
are left for validation, which reports each at its `file:line:col`.

A file may come from anyone, so reading is bounded (`ttr_maps.io.limits`): only
regular files are read, up to a size; nesting, alias expansion, number lengths
and the number of cities, routes and tickets are capped; YAML features a map
never needs (tags on lists and mappings, unknown tags, merge keys `<<`) are
refused rather than ignored. Each refusal is a `DocumentError` with its own code
and the position of the offending node.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ttr_maps.io import limits
from ttr_maps.io.files import InputFileError, read_regular_file

try:  # libyaml is many times faster on large maps; fall back to pure Python.
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

#: A path into the document, as JSON Schema reports it: keys and list indices.
DataPath = tuple[str | int, ...]


@dataclass(frozen=True, slots=True, order=True)
class Position:
    """A 1-based line and column in a source file."""

    line: int
    column: int

    @classmethod
    def from_mark(cls, mark: yaml.Mark) -> Position:
        return cls(mark.line + 1, mark.column + 1)


#: YAML that is well formed but holds a value that cannot be read (2024-13-45).
YAML_VALUE_ERROR = "TTR001"
#: Codes of the reader's refusals (docs/map-format.md, "Limits").
FILE_TOO_LARGE = "TTR004"
TOO_DEEP = "TTR005"
TOO_MANY_ALIAS_VALUES = "TTR006"
TAG_REFUSED = "TTR007"
MERGE_KEY_REFUSED = "TTR008"
BAD_NUMBER = "TTR009"
TOO_MANY_ENTRIES = "TTR010"


class DocumentError(Exception):
    """The file cannot be read or is not YAML. `position` is set for syntax errors.

    `code` is set when the file was read but goes past one of the reader's limits
    (`FILE_TOO_LARGE`, `TOO_DEEP`...): such a file is a problem of the file, like
    a syntax error, not a usage error."""

    def __init__(
        self,
        path: str,
        message: str,
        position: Position | None = None,
        *,
        syntax: bool = False,
        code: str | None = None,
    ):
        super().__init__(message)
        self.path = path
        self.message = message
        self.position = position
        #: True when the file was read but is not YAML (or goes past a limit);
        #: False when it could not be read.
        self.syntax = syntax or code is not None
        self.code = code


class _Refused(Exception):
    """A node the reader refuses: its code, message and where it starts."""

    def __init__(self, code: str, message: str, mark: yaml.Mark | None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.mark = mark


@dataclass
class MapDocument:
    """A parsed map file: its data, and where each value and key was written."""

    path: str
    text: str
    data: Any
    #: Where each value and each mapping key starts, as PyYAML marks (turned into
    #: a `Position` only when asked: most are never needed).
    value_marks: dict[DataPath, yaml.Mark] = field(repr=False)
    key_marks: dict[DataPath, yaml.Mark] = field(repr=False)
    #: Keys written twice in one mapping: (path of the repeated key, where it repeats).
    duplicate_keys: list[tuple[DataPath, Position]] = field(default_factory=list)
    #: The YAML node tree the data was built from (`ttr fix` splices at its spans).
    root: yaml.Node | None = field(default=None, repr=False)
    #: Node ends by where the node starts, built on the first `end_of`.
    _ends: dict[tuple[int, int], yaml.Mark] | None = field(default=None, repr=False, compare=False)

    def position(self, path: DataPath, *, key: bool = False) -> Position:
        """Where `path` was written; the nearest enclosing node if it was not.

        With `key=True`, the position of the mapping key rather than its value
        (useful for "this key is not allowed" or "this city is repeated").
        """
        if key:
            mark = self.key_marks.get(path)
            if mark is None and path:  # a key that YAML made a number, null, date...
                mark = self._key_mark_written_as(path[:-1], str(path[-1]))
            if mark is not None:
                return Position.from_mark(mark)
        for end in range(len(path), -1, -1):
            found = self.value_marks.get(path[:end])
            if found is not None:
                return Position.from_mark(found)
        return Position(1, 1)

    def end_of(self, start: Position) -> Position | None:
        """Where the node written at `start` ends (its last character, both
        numbers from 1), for reports that mark a span (GitHub annotations, SARIF
        regions); None where no node starts there. Of nodes starting at the same
        place (a block mapping and its first key), the innermost."""
        if self.root is None:
            return None
        ends = self._ends
        if ends is None:
            ends = self._ends = {}
            stack = [self.root]
            while stack:  # preorder: an inner node starting at the same place wins
                node = stack.pop()
                ends[(node.start_mark.line, node.start_mark.column)] = node.end_mark
                if isinstance(node, yaml.MappingNode):
                    stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
                elif isinstance(node, yaml.SequenceNode):
                    stack.extend(reversed(node.value))
        mark = ends.get((start.line - 1, start.column - 1))
        if mark is None:
            return None
        if mark.column == 0 and mark.line > 0:  # at the start of the next line
            previous = self.text.splitlines()[mark.line - 1] if mark.line else ""
            return Position(mark.line, max(len(previous.rstrip()), 1))
        return Position(mark.line + 1, max(mark.column, 1))

    def _key_mark_written_as(self, parent: DataPath, text: str) -> yaml.Mark | None:
        """The mark of a key under `parent` whose value reads as `text` (`7` for
        the key 7), for callers that name keys as text."""
        depth = len(parent) + 1
        for path, mark in self.key_marks.items():
            if len(path) == depth and path[:-1] == parent and str(path[-1]) == text:
                return mark
        return None


_scalar_constructor = yaml.constructor.SafeConstructor()


def parse_document(text: str, path: str = "<string>") -> MapDocument:
    """Parse YAML text into a `MapDocument`.

    >>> doc = parse_document("a:\\n  - 1\\n  - x\\n")
    >>> doc.data, doc.position(("a", 1))
    ({'a': [1, 'x']}, Position(line=3, column=5))
    """
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        position = Position.from_mark(mark) if mark else None
        message = " ".join(p for p in (error.context, error.problem) if p) or str(error)
        if "maximum nesting depth" in message:  # libyaml's own cap, far above ours
            raise DocumentError(path, _too_deep(), position, code=TOO_DEEP) from None
        raise DocumentError(path, f"YAML syntax error: {message}", position, syntax=True) from None
    except yaml.reader.ReaderError as error:  # a character YAML does not allow
        position = _position_of_offset(text, error.position)
        code_point = error.character if isinstance(error.character, int) else 0
        message = f"YAML syntax error: character #x{code_point:04x} is not allowed ({error.reason})"
        raise DocumentError(path, message, position, syntax=True) from None
    except yaml.YAMLError as error:
        raise DocumentError(path, f"YAML syntax error: {error}", syntax=True) from None
    values: dict[DataPath, yaml.Mark] = {}
    keys: dict[DataPath, yaml.Mark] = {}
    duplicates: list[tuple[DataPath, Position]] = []
    try:
        if root is not None:
            # An alias is written *name: only then can a node be reached twice.
            (_check_node_graph if "*" in text else _check_node_tree)(root)
        data = None if root is None else _to_data(root, (), values, keys, duplicates)
        _check_entry_counts(data, keys)
    except _Refused as refusal:
        position = Position.from_mark(refusal.mark) if refusal.mark else None
        raise DocumentError(path, refusal.message, position, code=refusal.code) from None
    except yaml.MarkedYAMLError as error:  # e.g. a date like 2024-13-45
        mark = error.problem_mark or error.context_mark
        position = Position.from_mark(mark) if mark else None
        message = " ".join(p for p in (error.context, error.problem) if p) or str(error)
        raise DocumentError(path, f"YAML error: {message}", position, syntax=True) from None
    return MapDocument(path, text, data, values, keys, duplicates, root)


def read_document(file: str | Path) -> MapDocument:
    """Read and parse a map file. Raises `DocumentError` if it cannot be read:
    only a regular file of at most `limits.MAX_MAP_BYTES` is read."""
    path = str(file)
    try:
        raw = read_regular_file(file, limits.MAX_MAP_BYTES)
    except InputFileError as error:
        if error.too_large:
            raise DocumentError(path, _too_large(), Position(1, 1), code=FILE_TOO_LARGE) from None
        raise DocumentError(path, error.reason) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        reason = f"not UTF-8 text ({error.reason} at byte {error.start})"
        raise DocumentError(path, reason) from None
    return parse_document(text, path)


def parse_text(text: str, path: str = "<string>") -> MapDocument:
    """Parse the text of a map that is not read from disk (an editor's buffer)
    with the limits `read_document` applies to a file: more than
    `limits.MAX_MAP_BYTES` bytes of UTF-8 is refused (TTR004) before parsing."""
    if len(text) > limits.MAX_MAP_BYTES // 4 and len(text.encode("utf-8")) > limits.MAX_MAP_BYTES:
        raise DocumentError(path, _too_large(), Position(1, 1), code=FILE_TOO_LARGE)
    return parse_document(text, path)


def _too_large() -> str:
    return f"the file is larger than the limit of {limits.MAX_MAP_BYTES:,} bytes"


#: A top-level key of a map, written in block style at the start of a line.
_TOP_KEY = re.compile(r"""^["']?(format|cities|routes|tickets)["']?[ \t]*:""", re.M)
_MAP_MODELINE = re.compile(r"^#.*\$schema=\S*map\.schema\.json", re.M)


def is_map_text(text: str) -> bool:
    """Whether YAML text is a map file, judged from the text alone (it may be
    broken or hostile, so it is not parsed): a `$schema` modeline naming
    `map.schema.json`, or the top-level key `format` with `cities`, `routes` or
    `tickets` beside it. Other YAML (a CI workflow, a compose file) is not a map.

    >>> is_map_text("format: 1\\nid: x\\ncities: {}\\n")
    True
    >>> is_map_text("# yaml-language-server: $schema=../schemas/map.schema.json\\n")
    True
    >>> is_map_text("on: push\\njobs: {}\\n"), is_map_text("format: 1\\n")
    (False, False)
    """
    if _MAP_MODELINE.search(text):
        return True
    keys = {match.group(1) for match in _TOP_KEY.finditer(text)}
    return "format" in keys and len(keys) > 1


def _position_of_offset(text: str, offset: int) -> Position:
    line_start = text.rfind("\n", 0, offset) + 1
    return Position(text.count("\n", 0, offset) + 1, offset - line_start + 1)


def _too_deep() -> str:
    return f"lists and mappings are nested more than {limits.MAX_DEPTH} deep"


_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
#: The tags a scalar may carry (written or resolved): plain YAML values.
_SCALAR_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "timestamp", "binary")
)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [child for pair in node.value for child in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_node_graph(root: yaml.Node) -> None:
    """Refuse what the reader will not build, before building anything: nesting
    deeper than `MAX_DEPTH`, aliases that would add more than `MAX_ALIAS_VALUES`
    values, a node that contains itself, tags other than plain values, merge keys.

    One pass over the distinct nodes, without recursion: an alias is the same node
    object reached again, so its expanded size is known from the first visit.
    """
    done: dict[int, tuple[int, int]] = {}  # id -> (values when expanded, height)
    active: set[int] = set()
    alias_values = 0
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, children_done = stack.pop()
        key = id(node)
        if children_done:
            size, height = 1, 1
            for child in _children(node):
                child_size, child_height = done[id(child)]
                size += child_size
                height = max(height, child_height + 1)
            done[key] = (size, height)
            active.discard(key)
            continue
        if key in active:
            raise _Refused(
                TOO_MANY_ALIAS_VALUES,
                "an alias refers to a value that contains it",
                node.start_mark,
            )
        if key in done:  # an alias: the anchored node once more
            size, height = done[key]
            alias_values += size
            if alias_values > limits.MAX_ALIAS_VALUES:
                message = (
                    f"aliases repeat more than {limits.MAX_ALIAS_VALUES:,} values "
                    "(the alias of the value anchored here is one of them)"
                )
                raise _Refused(TOO_MANY_ALIAS_VALUES, message, node.start_mark)
            if depth + height - 1 > limits.MAX_DEPTH:
                raise _Refused(TOO_DEEP, _too_deep(), node.start_mark)
            continue
        if depth > limits.MAX_DEPTH:
            raise _Refused(TOO_DEEP, _too_deep(), node.start_mark)
        _check_tag(node)
        if isinstance(node, yaml.ScalarNode):
            done[key] = (1, 1)
            continue
        active.add(key)
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in reversed(_children(node)))


def _check_node_tree(root: yaml.Node) -> None:
    """`_check_node_graph` for a document without aliases, where every node is
    reached once: the same refusals of depth and tags, in the same order, without
    the bookkeeping aliases need (a third of the time on a big map)."""
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limits.MAX_DEPTH:
            raise _Refused(TOO_DEEP, _too_deep(), node.start_mark)
        if isinstance(node, yaml.ScalarNode):
            if node.tag not in _SCALAR_TAGS:
                _check_tag(node)
            continue
        _check_tag(node)
        depth += 1
        stack.extend((child, depth) for child in reversed(_children(node)))


def _check_tag(node: yaml.Node) -> None:
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _MERGE_TAG:
            message = "merge keys (<<) are not supported in maps: write the keys out"
            raise _Refused(MERGE_KEY_REFUSED, message, node.start_mark)
        if node.tag not in _SCALAR_TAGS:
            message = f"tag {_tag_name(node.tag)} is not allowed: maps hold plain values"
            raise _Refused(TAG_REFUSED, message, node.start_mark)
        return
    if node.tag not in (_MAP_TAG, _SEQ_TAG):
        kind = "mapping" if isinstance(node, yaml.MappingNode) else "list"
        message = f"tag {_tag_name(node.tag)} on a {kind} is not allowed: maps hold plain values"
        raise _Refused(TAG_REFUSED, message, node.start_mark)


def _tag_name(tag: str) -> str:
    return "!!" + tag.removeprefix("tag:yaml.org,2002:") if tag.startswith("tag:yaml.org") else tag


def _check_entry_counts(data: Any, keys: dict[DataPath, yaml.Mark]) -> None:
    """Refuse a map with more cities, routes or tickets than `ttr_maps.io.limits` allows."""
    if not isinstance(data, dict):
        return
    for name, most in (
        ("cities", limits.MAX_CITIES),
        ("routes", limits.MAX_ROUTES),
        ("tickets", limits.MAX_TICKETS),
    ):
        entries = data.get(name)
        if isinstance(entries, dict | list) and len(entries) > most:
            message = f"{len(entries):,} {name}: a map may have at most {most:,}"
            raise _Refused(TOO_MANY_ENTRIES, message, keys.get((name,)))


def _to_data(
    node: yaml.Node,
    path: DataPath,
    values: dict[DataPath, yaml.Mark],
    keys: dict[DataPath, yaml.Mark],
    duplicates: list[tuple[DataPath, Position]],
) -> Any:
    values[path] = node.start_mark
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):  # the usual case, without recursion
                key = _scalar(key_node)
            else:
                key = _to_data(key_node, (*path, "<key>"), {}, {}, duplicates)
            if not isinstance(key, str | int | float | bool) and key is not None:
                key = str(key)
            child = (*path, key)
            if key in result:  # the first one wins; validation reports the repeat
                duplicates.append((child, Position.from_mark(key_node.start_mark)))
                continue
            keys[child] = key_node.start_mark
            result[key] = _to_data(value_node, child, values, keys, duplicates)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _to_data(item, (*path, i), values, keys, duplicates)
            for i, item in enumerate(node.value)
        ]
    return _scalar(node)


_SCALAR_CONSTRUCTORS = _scalar_constructor.yaml_constructors


def _scalar(node: yaml.Node) -> Any:
    """A scalar's value (its tag is one of `_SCALAR_TAGS`, checked before). Numbers
    longer than `MAX_NUMBER_CHARS` are refused (Python would refuse past 4,300
    digits, with advice meant for programmers). `.nan` and `.inf` are read: the
    schema and TTR103 say where they are not allowed."""
    if node.tag in (_INT_TAG, _FLOAT_TAG) and len(node.value) > limits.MAX_NUMBER_CHARS:
        message = f"a number of {len(node.value):,} characters (at most {limits.MAX_NUMBER_CHARS})"
        raise _Refused(BAD_NUMBER, message, node.start_mark)
    try:
        value = _SCALAR_CONSTRUCTORS[node.tag](_scalar_constructor, node)
    except (ValueError, TypeError, OverflowError) as error:
        raise _Refused(
            YAML_VALUE_ERROR, f"YAML error: bad value: {error}", node.start_mark
        ) from None
    return value
