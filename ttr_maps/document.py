"""Reading a map file: YAML text to plain data, keeping where every node was written.

Loading does not judge. `read_document` raises `DocumentError` only when the file
cannot be read or parsed at all; duplicate keys, schema errors and semantic problems
are left for validation, which reports each at its `file:line:col`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

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


class DocumentError(Exception):
    """The file cannot be read or is not YAML. `position` is set for syntax errors."""

    def __init__(
        self, path: str, message: str, position: Position | None = None, *, syntax: bool = False
    ):
        super().__init__(message)
        self.path = path
        self.message = message
        self.position = position
        #: True when the file was read but is not YAML; False when it could not be read.
        self.syntax = syntax


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
        raise DocumentError(path, f"YAML syntax error: {message}", position, syntax=True) from None
    except yaml.YAMLError as error:
        raise DocumentError(path, f"YAML syntax error: {error}", syntax=True) from None
    values: dict[DataPath, yaml.Mark] = {}
    keys: dict[DataPath, yaml.Mark] = {}
    duplicates: list[tuple[DataPath, Position]] = []
    try:
        data = None if root is None else _to_data(root, (), values, keys, duplicates)
    except yaml.MarkedYAMLError as error:  # e.g. an unknown tag such as `!city`
        mark = error.problem_mark or error.context_mark
        position = Position.from_mark(mark) if mark else None
        message = " ".join(p for p in (error.context, error.problem) if p) or str(error)
        raise DocumentError(path, f"YAML error: {message}", position, syntax=True) from None
    except (ValueError, TypeError, OverflowError) as error:  # e.g. a date like 2024-13-45
        raise DocumentError(path, f"YAML error: bad value: {error}", syntax=True) from None
    except RecursionError:  # an alias that contains itself
        message = "YAML error: the document refers to itself"
        raise DocumentError(path, message, syntax=True) from None
    return MapDocument(path, text, data, values, keys, duplicates)


def read_document(file: str | Path) -> MapDocument:
    """Read and parse a map file. Raises `DocumentError` if it cannot be read."""
    path = str(file)
    try:
        text = Path(file).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DocumentError(path, "no such file") from None
    except IsADirectoryError:
        raise DocumentError(path, "is a folder, not a map file") from None
    except UnicodeDecodeError as error:
        reason = f"not UTF-8 text ({error.reason} at byte {error.start})"
        raise DocumentError(path, reason) from None
    except OSError as error:
        raise DocumentError(path, error.strerror or str(error)) from None
    return parse_document(text, path)


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
    construct = _SCALAR_CONSTRUCTORS.get(node.tag)
    if construct is not None and isinstance(node, yaml.ScalarNode):
        return construct(_scalar_constructor, node)  # the direct path: much faster
    return _scalar_constructor.construct_object(node)  # raises for an unknown tag
