"""Settings for the whole tree: the optional compiled build (`ttr_core.accel`).

With the compiled build, a module's file is its `.so`, not the `.py` pytest collects
the doctests of; pytest is told the two are the same module (the doctests in
compiled functions are not found, the module docstrings' still run; the pure
install runs them all). The end of the run says which build was tested.
"""

from __future__ import annotations

import os

import pytest

from ttr_core.accel import BUILD_RECORD

if BUILD_RECORD.exists():
    os.environ.setdefault("PY_IGNORE_IMPORTMISMATCH", "1")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from ttr_core.accel import flavour

    terminalreporter.write_line(f"ttr engine tested: {flavour()}")
