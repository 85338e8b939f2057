"""The house stays one house (../shared/design.md): dependencies run one way, no
module imports another that imports it back, and the tree shows the rooms.

Imports are read from the source (top-level, inside functions, and under
`TYPE_CHECKING`): a lazy import or one made only for type hints is a dependency too.
A package's `__init__` that only re-exports lazily (`ttr_core`, `ttr_maps`) is not
counted as depending on what it re-exports.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from testdata import ROOT

PACKAGES = ("ttr_maps", "ttr_core")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        # `.pyx`: the compiled build's native kernels (`ttr_core.accel.NATIVE`).
        for path in [*(ROOT / package).rglob("*.py"), *(ROOT / package).rglob("*.pyx")]:
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    """The project module `name` refers to (a module, or a name inside one)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> set[str]:
    path = MODULES[module]
    if path.suffix == ".pyx":  # Cython, not Python: a kernel takes in nothing of ours
        text = path.read_text(encoding="utf-8")
        assert not any(name in text for name in ("import ttr_", "from ttr_")), path
        return set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    found = {_resolve(name) for name in names}
    return {target for target in found if target and target != module}


def _graph() -> dict[str, set[str]]:
    graph = {module: _imports(module) for module in MODULES}
    for package in PACKAGES:  # lazy re-exports (`__getattr__`), not dependencies
        graph[package] = set()
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_no_module_imports_one_that_imports_it_back() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _room(module: str) -> str:
    """The room of a module: the package's subpackage or top-level module."""
    return ".".join(module.split(".")[:2])


def _layers(package: str) -> dict[str, int]:
    """The layer order written in the package's docstring ("Rooms, lowest first"):
    room -> its line, 0 for the lowest."""
    docstring = ast.get_docstring(ast.parse(MODULES[package].read_text(encoding="utf-8")))
    assert docstring and "Rooms, lowest first" in docstring, f"{package}: no layer order"
    block = docstring.split("Rooms, lowest first", 1)[1].split("\n\n", 2)[1]
    layers = {}
    for line, text in enumerate(block.splitlines()):
        names = text.strip().split("  ", 1)[0]
        for name in names.split(","):
            layers[f"{package}.{name.strip()}"] = line
    return layers


def _upward_imports(graph: dict[str, set[str]], package: str) -> list[tuple[str, str]]:
    layers = _layers(package)
    return sorted(
        (module, target)
        for module, targets in graph.items()
        if module.startswith(f"{package}.")
        for target in targets
        if target.startswith(f"{package}.")
        and _room(module) != _room(target)
        and layers[_room(target)] >= layers[_room(module)]
    )


@pytest.mark.parametrize("package", PACKAGES)
def test_every_room_has_a_place_in_the_layer_order(package: str) -> None:
    rooms = {_room(module) for module in MODULES if module.startswith(f"{package}.")}
    assert sorted(rooms - set(_layers(package))) == []
    assert sorted(set(_layers(package)) - rooms) == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_room_imports_a_room_on_its_line_or_above(package: str) -> None:
    assert _upward_imports(_graph(), package) == []


def test_the_layer_check_sees_an_import_inside_a_function() -> None:
    """A lazy import from a lower room up to a higher one (the kind that once
    joined eight rooms of ttr_maps in one cycle) is caught."""
    graph = {"ttr_maps.io.files": {"ttr_maps.checks.validate"}}
    assert _upward_imports(graph, "ttr_maps") == [("ttr_maps.io.files", "ttr_maps.checks.validate")]
    assert _upward_imports({"ttr_maps.checks.validate": {"ttr_maps.io.files"}}, "ttr_maps") == []


def test_ttr_maps_never_imports_ttr_core() -> None:
    graph = _graph()
    upward = sorted(
        (module, target)
        for module, targets in graph.items()
        if module.startswith("ttr_maps")
        for target in targets
        if target.startswith("ttr_core")
    )
    assert upward == []


@pytest.mark.parametrize(
    "room",
    [
        "ttr_maps.io",
        "ttr_maps.authoring",
        "ttr_maps.checks",
        "ttr_maps.geometry",
        "ttr_maps.render",
        "ttr_maps.analysis",
        "ttr_maps.reports",
        "ttr_core.engine",
        "ttr_core.engine.moves",
        "ttr_core.bots",
        "ttr_core.playtest",
        "ttr_core.table",
        "ttr_core.web",
        "ttr_core.serve",
        "ttr_core.serve.routes",
        "ttr_core.lsp",
        "ttr_core.edit",
        "ttr_core.edit.routes",
        "ttr_core.cli",
    ],
)
def test_every_room_of_the_plan_is_a_package_with_a_docstring(room: str) -> None:
    init = MODULES[room]
    assert init.name == "__init__.py"
    assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))


def test_the_engine_needs_none_of_the_rooms_around_it() -> None:
    """The engine plays games; bots, play-tests, tables, the server and the CLI use
    it, never the other way round."""
    graph = _graph()
    outside = (
        "ttr_core.bots",
        "ttr_core.playtest",
        "ttr_core.table",
        "ttr_core.web",
        "ttr_core.serve",
        "ttr_core.edit",
    )
    leaks = sorted(
        (module, target)
        for module, targets in graph.items()
        if module.startswith("ttr_core.engine")
        for target in targets
        if target.startswith((*outside, "ttr_core.cli"))
    )
    assert leaks == []


def test_the_shared_web_room_needs_neither_app_built_from_it() -> None:
    """`ttr_core.web` sits below the web table and the editor (its docstring): both
    are built from it, it imports neither."""
    graph = _graph()
    upward = sorted(
        (module, target)
        for module, targets in graph.items()
        if module.startswith("ttr_core.web")
        for target in targets
        if target.startswith(("ttr_core.serve", "ttr_core.edit", "ttr_core.cli"))
    )
    assert upward == []


def test_importing_the_engine_imports_no_heavy_library() -> None:
    code = (
        "import sys, ttr_core, ttr_core.engine.state, ttr_core.engine.loop;"
        "heavy = {'matplotlib', 'jsonschema', 'networkx', 'numpy', 'scipy'} & set(sys.modules);"
        "print(sorted(heavy))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert shown.strip() == "[]"
