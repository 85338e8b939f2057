"""The optional compiled build: the hot modules of the engine and the bots, compiled by
Cython from their own source (its pure-Python mode; a `.pxd` file beside a module
makes the integers of its loops C integers). There is no second implementation of
any rule: the Python files are the rules, the compiled modules are those files
translated, and the records are the same byte for byte (`tests/engine/test_accel.py`).
The one exception is not a rule: `NATIVE`, kernels written for C (a `.pyx` file)
that a module uses when they are built and fresh, its own Python code being the
reference they are tested against (the planners' cheapest path, see
`ttr_core/bots/native_paths.pyx`).

    .venv/bin/pip install -e '.[accel]'          # Cython; a C compiler must be there
    .venv/bin/python -m ttr_core.accel           # compile in place (a minute or two)
    .venv/bin/python -m ttr_core.accel --status  # which flavour is loaded
    .venv/bin/python -m ttr_core.accel --clean   # back to pure Python

A compiled module sits beside its source (`claims.cpython-311-x86_64-linux-gnu.so`),
where Python prefers it. A source edited after the build must not be shadowed by the
old translation, so the build records a checksum of every source it compiled
(`BUILD_RECORD`); on import, `ttr_core` loads the source of any module whose checksum
changed instead of its compiled file, and says so once per command (`report_stale`).
"""

from __future__ import annotations

import json
import sys
import zlib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

#: The modules compiled, hottest first: what a random game, a style-bot game and the
#: final scoring spend their time in (see docs/engine.md, "The compiled build").
MODULES = (
    "ttr_core.engine.moves.claims",
    "ttr_core.engine.state",
    "ttr_core.engine.legal",
    "ttr_core.engine.loop",
    "ttr_core.engine.books",
    "ttr_core.engine.cards",
    "ttr_core.engine.open_routes",
    "ttr_core.engine.moves.draws",
    "ttr_core.engine.moves.tickets",
    "ttr_core.engine.moves.turns",
    "ttr_core.engine.longest_path",
    "ttr_core.engine.result",
    "ttr_core.engine.view",
    "ttr_core.engine.actions",
    "ttr_core.engine.compiled",
    "ttr_core.engine.decisions",
    "ttr_core.engine.facts",
    "ttr_core.engine.connectivity",
    "ttr_core.bots.random_bot",
    "ttr_core.bots.planning",
    "ttr_core.bots.styles",
    "ttr_core.bots.rollout",
    "ttr_core.bots.one_step",
    "ttr_core.bots.determinize",
    "ttr_core.bots.search",
)
#: Kernels with a Cython source only (`.pyx`), built with `MODULES`: each mirrors a
#: function of a module above, which imports it when it is built and fresh and runs
#: its own Python code otherwise (a stale kernel cannot be imported).
NATIVE = ("ttr_core.bots.native_paths",)

#: The folder holding `ttr_core`.
ROOT = Path(__file__).resolve().parents[2]
#: Checksums of the sources the last build compiled (not part of the source tree).
BUILD_RECORD = ROOT / "ttr_core" / "accel-build.json"
#: The largest build record read (one checksum per module is about 2 KB).
BUILD_RECORD_BYTES = 1_000_000
#: Where the C files and objects of the build are kept (git-ignored).
BUILD_DIR = ROOT / "build" / "accel"
#: Cython's settings: annotations are documentation only (typing them would make
#: `Phase`-like str enums and `int | None` arguments C types); the `.pxd` files say
#: what is typed.
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}


def every_module() -> tuple[str, ...]:
    """What a build compiles: `MODULES`, then the kernels of `NATIVE`."""
    return (*MODULES, *NATIVE)


def source_of(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".pyx" if module in NATIVE else ".py")


def compiled_files(module: str) -> list[Path]:
    """The compiled files of `module` on disk (any Python version's)."""
    source = source_of(module)
    return sorted(source.parent.glob(source.stem + ".*.so")) + sorted(
        source.parent.glob(source.stem + ".*.pyd")
    )


def checksum(module: str) -> int:
    """A checksum of a module's source and its `.pxd` file, if any."""
    source = source_of(module)
    total = zlib.crc32(source.read_bytes())
    declarations = source.with_suffix(".pxd")
    if declarations.exists():
        total = zlib.crc32(declarations.read_bytes(), total)
    return total


def stale_modules() -> list[str]:
    """Compiled modules whose source changed since they were built (or that the
    build did not record)."""
    import os
    import stat

    # Only a regular file of modest size (a FIFO put there would block every import),
    # read without importing ttr_maps: `import ttr_core` stays this light.
    try:
        with open(BUILD_RECORD, "rb", opener=lambda p, f: os.open(p, f | os.O_NONBLOCK)) as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > BUILD_RECORD_BYTES:
                raise ValueError("not a build record")
            recorded = json.loads(f.read(BUILD_RECORD_BYTES + 1).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        recorded = {}
    if not isinstance(recorded, dict):  # whatever else is there, no module is recorded
        recorded = {}
    suffix = EXTENSION_SUFFIXES[0]
    built = [m for m in every_module() if source_of(m).with_suffix(suffix).exists()]
    stale = {m for m in built if recorded.get(m) != checksum(m)}
    # A module built on another's extension types (`cimport` in its .pxd: the
    # state on the books) cannot run beside that module's source: stale with it.
    bases = {m: cimported(m) for m in built} if stale else {}
    grew = True
    while grew:
        grew = False
        for module, taken in bases.items():
            if module not in stale and not stale.isdisjoint(taken):
                stale.add(module)
                grew = True
    return [m for m in every_module() if m in stale]


def cimported(module: str) -> list[str]:
    """The modules whose declarations `module`'s .pxd file takes in (`from M cimport`)."""
    declarations = source_of(module).with_suffix(".pxd")
    if not declarations.exists():
        return []
    lines = declarations.read_text(encoding="utf-8").splitlines()
    return [line.split()[1] for line in lines if line.startswith("from ") and " cimport " in line]


class _SourceFinder:
    """Finds the listed modules' Python source, ahead of their stale compiled files;
    a stale native kernel (no Python source) cannot be imported at all."""

    def __init__(self, modules: list[str]) -> None:
        self.modules = set(modules)

    def find_spec(self, name: str, path: object = None, target: object = None) -> object:
        if name not in self.modules:
            return None
        if name in NATIVE:
            raise ModuleNotFoundError(f"{name} is older than its source", name=name)
        from importlib.util import spec_from_file_location

        return spec_from_file_location(name, source_of(name))


def use_fresh_modules_only() -> None:
    """Where a build exists, load the source of every module changed since (called
    once, when `ttr_core` is imported; a pure install costs one `stat`)."""
    if not BUILD_RECORD.exists():
        return
    stale = stale_modules()
    if stale:
        sys.meta_path.insert(0, _SourceFinder(stale))
        report_stale(stale)


#: Set once the stale modules were reported, so that the worker processes of a
#: command (which import ttr_core again) do not say it again.
REPORTED_ENV = "TTR_ACCEL_STALE_REPORTED"


def report_stale(stale: list[str]) -> None:
    """Say once per command, in words on standard error, which compiled modules
    are older than their source and what to do (not a Python warning: no file and
    line of ttr's own, and not once per process of the command)."""
    import os

    if os.environ.get(REPORTED_ENV):
        return
    os.environ[REPORTED_ENV] = "1"
    shown = ", ".join(name.rsplit(".", 1)[-1] for name in stale)
    modules = "module is" if len(stale) == 1 else "modules are"
    sys.stderr.write(
        f"ttr: note: {len(stale)} compiled {modules} older than the source ({shown}), so "
        f"the source runs instead (slower). Rebuild with `python -m ttr_core.accel`, or "
        f"remove the compiled build with `python -m ttr_core.accel --clean`.\n"
    )


def loaded() -> list[str]:
    """The modules of `MODULES` that are running compiled in this process (each is
    imported)."""
    from importlib import import_module

    return [m for m in MODULES if not import_module(m).__file__.endswith(".py")]


def native_loaded() -> list[str]:
    """The kernels of `NATIVE` that can be imported here (built and fresh)."""
    from importlib import import_module

    found = []
    for module in NATIVE:
        try:
            import_module(module)
        except ImportError:
            continue
        found.append(module)
    return found


def flavour() -> str:
    """Which build runs here, in words (for logs and `--status`)."""
    compiled = loaded()
    if not compiled:
        return "pure Python (no compiled module loaded)"
    kernels = len(native_loaded())
    return (
        f"compiled: {len(compiled)} of {len(MODULES)} hot modules (Cython), "
        f"{kernels} of {len(NATIVE)} native kernels"
    )


def clean() -> int:
    """Remove every compiled module, the build record and the C files; the count of
    modules removed."""
    import shutil

    shutil.rmtree(BUILD_DIR, ignore_errors=True)
    removed = 0
    for module in every_module():
        for path in compiled_files(module):
            path.unlink()
            removed += 1
    BUILD_RECORD.unlink(missing_ok=True)
    return removed


def build(jobs: int = 2) -> None:
    """Compile `MODULES` and `NATIVE` in place (again only those whose source changed since the
    last build: the C files are kept in `BUILD_DIR`). Raises `BuildError` with what
    is missing or what failed."""
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError as missing:
        raise BuildError(
            f"the compiled build needs Cython and setuptools ({missing.name} is missing): "
            "pip install -e '.[accel]'"
        ) from None
    BUILD_RECORD.unlink(missing_ok=True)
    extensions = [Extension(m, [str(source_of(m).relative_to(ROOT))]) for m in every_module()]
    dist = Distribution({"ext_modules": [], "script_name": "ttr-accel"})
    try:
        dist.ext_modules = cythonize(
            extensions,
            compiler_directives=DIRECTIVES,
            build_dir=str(BUILD_DIR),
            nthreads=jobs,
            quiet=True,
        )
        command = dist.get_command_obj("build_ext")
        command.inplace = True
        command.build_temp = str(BUILD_DIR)
        command.parallel = jobs
        dist.run_command("build_ext")
    except (Exception, SystemExit) as failed:
        clean()
        raise BuildError(f"the compiled build failed: {failed}") from None
    from ttr_maps.io.files import write_text_atomically

    # Atomic: a build stopped while recording leaves no half record to misread.
    write_text_atomically(
        BUILD_RECORD, json.dumps({m: checksum(m) for m in every_module()}, indent=1) + "\n"
    )


class BuildError(Exception):
    """The compiled build cannot be made here."""
