"""Mutation checks: how many planted bugs the tests catch (issue 35).

Plants one mutant at a time in a module (operators, comparisons, and/or, `not`,
constants, conditions negated, returns of None, statements deleted, slice bounds
dropped), runs the module's tests with `-x` in a copy of the project, and counts
the mutants the tests catch. Docstrings and annotations are never mutated.

    .venv/bin/python benchmarks/mutation_bench.py --sample 8 --seed 35 \
        ttr_core/engine/moves/claims.py=tests/engine ttr_maps/graph.py=tests/maps/test_graph.py

Each MODULE=TESTS pair mutates MODULE (a path in the project) and runs TESTS (a
comma-separated list of test paths). `--sample N` plants N mutants drawn at random
(with `--seed`) among all the module's mutation points; `--sample 0` plants all.
The project is copied to a temporary folder first: the checkout is never changed.
A surviving mutant is listed with its line: a place where a bug would go unseen.
"""

from __future__ import annotations

import ast
import copy
import os
import subprocess
import sys
from pathlib import Path

SWAP_BIN = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.Mult,
    ast.BitOr: ast.BitAnd,
    ast.BitAnd: ast.BitOr,
}
SWAP_CMP = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0]))
                found.add(id(body[0].value))
    return found


def _annotation_nodes(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        annotations = []
        if isinstance(node, ast.arg) and node.annotation:
            annotations.append(node.annotation)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
            annotations.append(node.returns)
        if isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        for annotation in annotations:
            found |= {id(n) for n in ast.walk(annotation)}
    return found


def _statement_lines(tree: ast.AST) -> dict[int, int]:
    """id(node) -> the first line of the statement holding it (what coverage sees)."""
    found: dict[int, int] = {}

    def visit(node: ast.AST, line: int) -> None:
        if isinstance(node, ast.stmt):
            line = node.lineno
        found[id(node)] = line
        for child in ast.iter_child_nodes(node):
            visit(child, line)

    visit(tree, 0)
    return found


def mutation_points(tree: ast.AST) -> list[tuple[str, int, str]]:
    """(kind, node order, description) of every mutant; the description starts
    with `L<line>` of the node and `S<line>` of its statement."""
    skip = _docstring_nodes(tree) | _annotation_nodes(tree)
    statements = _statement_lines(tree)
    points = []
    for order, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        line = f"{getattr(node, 'lineno', 0)} S{statements.get(id(node), 0)}"
        if isinstance(node, ast.ImportFrom | ast.Import):
            continue
        if isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
            points.append(("binop", order, f"L{line} {type(node.op).__name__}"))
        elif isinstance(node, ast.AugAssign) and type(node.op) in SWAP_BIN:
            points.append(("augop", order, f"L{line} {type(node.op).__name__}="))
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in SWAP_CMP:
                    points.append((f"cmp{i}", order, f"L{line} {type(op).__name__}"))
        elif isinstance(node, ast.BoolOp):
            points.append(("boolop", order, f"L{line} {type(node.op).__name__}"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            points.append(("not", order, f"L{line} drop not"))
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                points.append(("const", order, f"L{line} {value}"))
            elif isinstance(value, int | float):
                points.append(("const", order, f"L{line} {value!r}"))
            elif isinstance(value, str):
                points.append(("const", order, f"L{line} {value[:20]!r}"))
        if isinstance(node, ast.If | ast.While | ast.IfExp):
            points.append(("negate", order, f"L{line} negate condition"))
        if isinstance(node, ast.Return) and node.value is not None:
            points.append(("return", order, f"L{line} return None"))
        if isinstance(node, ast.Expr | ast.Assign | ast.AugAssign | ast.Raise | ast.Delete):
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                continue
            points.append(("delete", order, f"L{line} delete statement"))
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            for part in ("lower", "upper"):
                if getattr(node.slice, part) is not None:
                    points.append((f"slice_{part}", order, f"L{line} drop slice {part}"))
    return points


def mutate(tree: ast.AST, kind: str, order: int) -> ast.AST:
    tree = copy.deepcopy(tree)
    nodes = list(ast.walk(tree))
    node = nodes[order]
    if kind in ("binop", "augop"):
        node.op = SWAP_BIN[type(node.op)]()
    elif kind.startswith("cmp"):
        i = int(kind[3:])
        node.ops[i] = SWAP_CMP[type(node.ops[i])]()
    elif kind == "boolop":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "not":
        _replace(tree, node, node.operand)
    elif kind == "const":
        value = node.value
        if isinstance(value, bool):
            node.value = not value
        elif isinstance(value, int):
            node.value = value + 1
        elif isinstance(value, float):
            node.value = value * 2 + 1
        elif isinstance(value, str):
            node.value = "XX" + value + "XX" if value else "XX"
    elif kind == "negate":
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    elif kind == "return":
        node.value = ast.Constant(None)
    elif kind == "delete":
        _replace(tree, node, ast.Pass())
    elif kind.startswith("slice_"):
        setattr(node.slice, kind.removeprefix("slice_"), None)
    return ast.fix_missing_locations(tree)


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return
    raise RuntimeError("node not found")


def main() -> None:
    import argparse
    import random
    import shutil
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="+", help="MODULE=TESTS[,TESTS...]")
    parser.add_argument("--sample", type=int, default=8, help="mutants per module (0: all)")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per test run")
    args = parser.parse_args()
    project = Path(__file__).resolve().parent.parent
    rng = random.Random(args.seed)
    totals = [0, 0]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "project"
        shutil.copytree(
            project,
            root,
            ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.so", ".hypothesis"),
        )
        env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider"]
        for pair in args.pairs:
            module, _, tests = pair.partition("=")
            target = root / module
            original = target.read_text(encoding="utf-8")
            tree = ast.parse(original)
            points = mutation_points(tree)
            count = len(points) if args.sample <= 0 else min(args.sample, len(points))
            chosen = sorted(rng.sample(range(len(points)), count))
            killed = 0
            try:
                for number in chosen:
                    kind, order, what = points[number]
                    target.write_text(ast.unparse(mutate(tree, kind, order)), encoding="utf-8")
                    try:
                        run = subprocess.run(
                            [*command, *tests.split(",")],
                            cwd=root,
                            env=env,
                            capture_output=True,
                            timeout=args.timeout,
                        )
                        caught = run.returncode != 0
                    except subprocess.TimeoutExpired:
                        caught = True
                    killed += caught
                    if not caught:
                        print(f"  survived: {module}:{what}", flush=True)
            finally:
                target.write_text(original, encoding="utf-8")
            totals[0] += killed
            totals[1] += len(chosen)
            print(f"{module}: {killed}/{len(chosen)} caught", flush=True)
    killed, total = totals
    print(f"all: {killed}/{total} caught ({100 * killed / max(total, 1):.1f} %)")


if __name__ == "__main__":
    main()
