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
    assert out.stdout.strip() == "['ttr_core']"


def test_readme_library_example_runs():
    import doctest

    outcome = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert outcome.attempted >= 6 and outcome.failed == 0
