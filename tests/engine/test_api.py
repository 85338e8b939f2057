"""The library API (`ttr_core.__all__`): every name exists, importing `ttr_core`
imports no engine module, and the README's example runs."""

from __future__ import annotations

from testdata import ROOT

from ttr_core.engine.state import GameState
from ttr_maps.rules import BASE


def test_public_api_names_exist_and_are_listed():
    import ttr_core
    import ttr_maps

    for module in (ttr_core, ttr_maps):
        for name in module.__all__:
            assert getattr(module, name) is not None, name
    assert ttr_core.GameState is GameState and ttr_core.BASE is BASE
    assert sorted(ttr_core.__all__) == sorted(ttr_core._WHERE)


def test_importing_ttr_core_imports_no_engine_module():
    import subprocess
    import sys

    code = "import sys, ttr_core; print(sorted(m for m in sys.modules if m.startswith('ttr_')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    # With the compiled build, the small module that checks it is fresh too.
    from ttr_core.accel import BUILD_RECORD

    expected = ["ttr_core", "ttr_core.accel"] if BUILD_RECORD.exists() else ["ttr_core"]
    assert out.stdout.strip() == str(expected)


def test_readme_library_example_runs():
    import doctest

    outcome = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert outcome.attempted >= 6 and outcome.failed == 0


def _engine_imports() -> dict[str, set[str]]:
    """Every engine module and the engine modules it imports (at the top, lazily or
    for type checking alike)."""
    import ast

    folder = ROOT / "ttr_core" / "engine"
    modules = {}
    for path in folder.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            found |= {t for t in targets if t in modules and t != name}
        graph[name] = found
    return graph


def test_the_engine_imports_without_a_cycle():
    graph = _engine_imports()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for imported in graph[module]:
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_no_move_module_imports_the_state():
    graph = _engine_imports()
    moves = [m for m in graph if m.startswith("ttr_core.engine.moves.")]
    assert len(moves) == 6
    for module in moves:
        assert "ttr_core.engine.state" not in graph[module], module
