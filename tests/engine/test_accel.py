"""The optional compiled build (`ttr_core.accel`): it plays exactly as the source does
(the records of a fixed set of games are the same bytes from both), and a module
edited after the build is loaded from its source, not from its old translation."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from ttr_core import accel

#: Games on both maps, 2-5 players, random and every style bot, the playout path
#: and views, and a search-bot game; each printed as the SHA-256 of its record's text.
PLAY = """
import hashlib, sys
from ttr_core import GameState, run, make_bot, bot_seed, record_of, dump_record, load_map
from ttr_core.accel import loaded
STYLES = ["greedy", "route-focus", "destination-hungry", "long-route", "one-step"]
for map_id in ("north_america", "europe"):
    game_map = load_map(map_id)
    for players in (2, 3, 4, 5):
        for seed in range(2):
            names = ["random"] * players if seed == 0 else [
                STYLES[(players + k) % len(STYLES)] for k in range(players)
            ]
            bots = [make_bot(n, bot_seed(seed, i)) for i, n in enumerate(names)]
            state = run(GameState(game_map, players, seed), bots, playout=players != 3)
            text = dump_record(record_of(state, names))
            print(map_id, players, seed, hashlib.sha256(text.encode()).hexdigest())
# The search bot (its playouts, sampled worlds and race are compiled too), a small budget.
names = ["search:8", "one-step"]
bots = [make_bot(n, bot_seed(3, i)) for i, n in enumerate(names)]
state = run(GameState(load_map("north_america"), 2, 3), bots)
print("search", hashlib.sha256(dump_record(record_of(state, names)).encode()).hexdigest())
print("compiled:", loaded())
"""


def _play(python_path: str | None, cwd: Path) -> list[str]:
    env = dict(os.environ)
    if python_path is not None:
        env["PYTHONPATH"] = python_path
    ran = subprocess.run(
        [sys.executable, "-c", PLAY], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    return ran.stdout.splitlines()


def test_the_compiled_build_gives_the_records_of_the_source(tmp_path: Path) -> None:
    if not accel.loaded():
        if os.environ.get("TTR_EXPECT_COMPILED"):
            pytest.fail("TTR_EXPECT_COMPILED is set but no compiled module is loaded")
        pytest.skip("pure Python build: no compiled module to compare (python -m ttr_core.accel)")
    # The source alone: a copy of the package without its compiled files.
    pure = tmp_path / "pure"
    shutil.copytree(
        accel.ROOT / "ttr_core",
        pure / "ttr_core",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "accel-build.json", "__pycache__"),
    )
    compiled = _play(None, tmp_path)  # (not from the tree: `-c` puts the folder first)
    source = _play(str(pure), pure)
    assert compiled[-1] == f"compiled: {list(accel.loaded())}"
    assert source[-1] == "compiled: []"
    assert len(compiled) == 18 and compiled[:-1] == source[:-1]


def test_a_module_edited_after_the_build_is_loaded_from_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "ttr_core" / "engine"
    package.mkdir(parents=True)
    module = "ttr_core.engine.claims_like"
    source = package / "claims_like.py"
    source.write_text("WHICH = 'source'\n", encoding="utf-8")
    suffix = accel.EXTENSION_SUFFIXES[0]
    source.with_suffix(suffix).write_bytes(b"not really compiled")
    record = tmp_path / "ttr_core" / "accel-build.json"
    monkeypatch.setattr(accel, "ROOT", tmp_path)
    monkeypatch.setattr(accel, "BUILD_RECORD", record)
    monkeypatch.setattr(accel, "MODULES", (module,))
    record.write_text(json.dumps({module: accel.checksum(module)}), encoding="utf-8")
    assert accel.stale_modules() == []
    source.write_text("WHICH = 'edited'\n", encoding="utf-8")
    assert accel.stale_modules() == [module]
    spec = accel._SourceFinder([module]).find_spec(module)
    assert spec is not None and spec.origin == str(source)
    assert accel._SourceFinder([module]).find_spec("ttr_core.engine.state") is None
    monkeypatch.delenv(accel.REPORTED_ENV, raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said in words, not as a Python warning
        accel.use_fresh_modules_only()
    finder = sys.meta_path.pop(0)
    assert isinstance(finder, accel._SourceFinder) and finder.modules == {module}
    said = capsys.readouterr().err
    assert said.startswith("ttr: note: 1 compiled module is older than the source (claims_like)")
    assert "python -m ttr_core.accel" in said and "Warning" not in said
    accel.use_fresh_modules_only()  # the same command (or one of its workers) again
    sys.meta_path.pop(0)
    assert capsys.readouterr().err == ""


def test_a_module_built_on_a_stale_one_is_stale_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state's compiled form is built on the books' extension type (state.pxd
    cimports books): when the books run from their source, so must the state, or
    its import fails."""
    package = tmp_path / "ttr_core" / "engine"
    package.mkdir(parents=True)
    names = {"books_like": "", "state_like": "from ttr_core.engine.books_like cimport Base\n"}
    modules = tuple(f"ttr_core.engine.{name}" for name in names)
    for name, declarations in names.items():
        (package / f"{name}.py").write_text("X = 1\n", encoding="utf-8")
        (package / f"{name}.pxd").write_text(declarations, encoding="utf-8")
        (package / f"{name}{accel.EXTENSION_SUFFIXES[0]}").write_bytes(b"not really compiled")
    record = tmp_path / "ttr_core" / "accel-build.json"
    monkeypatch.setattr(accel, "ROOT", tmp_path)
    monkeypatch.setattr(accel, "BUILD_RECORD", record)
    monkeypatch.setattr(accel, "MODULES", modules)
    record.write_text(json.dumps({m: accel.checksum(m) for m in modules}), encoding="utf-8")
    assert accel.stale_modules() == []
    assert accel.cimported(modules[1]) == [modules[0]]
    (package / "books_like.py").write_text("X = 2\n", encoding="utf-8")
    assert accel.stale_modules() == list(modules)
    record.write_text(json.dumps({m: accel.checksum(m) for m in modules}), encoding="utf-8")
    (package / "state_like.py").write_text("X = 2\n", encoding="utf-8")
    assert accel.stale_modules() == [modules[1]]  # not the other way round


def test_a_native_kernel_older_than_its_source_cannot_be_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kernel of `NATIVE` has no Python source to fall back on: once its `.pyx`
    changed since the build, importing it fails, and the module that uses it runs
    its own Python code (`planning.NativeGraph` is None then)."""
    package = tmp_path / "ttr_core" / "bots"
    package.mkdir(parents=True)
    module = "ttr_core.bots.kernel_like"
    source = package / "kernel_like.pyx"
    source.write_text("X = 1\n", encoding="utf-8")
    (package / f"kernel_like{accel.EXTENSION_SUFFIXES[0]}").write_bytes(b"not really compiled")
    record = tmp_path / "ttr_core" / "accel-build.json"
    monkeypatch.setattr(accel, "ROOT", tmp_path)
    monkeypatch.setattr(accel, "BUILD_RECORD", record)
    monkeypatch.setattr(accel, "MODULES", ())
    monkeypatch.setattr(accel, "NATIVE", (module,))
    assert accel.source_of(module) == source
    record.write_text(json.dumps({module: accel.checksum(module)}), encoding="utf-8")
    assert accel.stale_modules() == []
    source.write_text("X = 2\n", encoding="utf-8")
    assert accel.stale_modules() == [module]
    with pytest.raises(ModuleNotFoundError, match="older than its source"):
        accel._SourceFinder([module]).find_spec(module)
    assert accel.clean() == 1 and not list(package.glob("kernel_like.*.so"))


def test_the_flavour_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    from ttr_core.accel.__main__ import main

    assert main(["--status"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("compiled: " if accel.loaded() else "pure Python")
