"""`validate_text` and `plan_fix_text` (an editor's buffer, `ttr lsp`) say exactly
what `validate_file` and `plan_fix` say of a file holding the same text."""

from __future__ import annotations

from pathlib import Path

import pytest
from testdata import BAD, HOSTILE, ROOT

from ttr_maps.analysis.fix import plan_fix, plan_fix_text
from ttr_maps.checks.validate import validate_file, validate_text
from ttr_maps.io import limits

CORPUS = sorted([*BAD.glob("*.yaml"), *HOSTILE.glob("*.yaml"), *(ROOT / "maps").glob("*.yaml")])


def _readable(path: Path) -> str | None:
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return None  # an editor never sends such a file as text


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_validate_text_reports_what_validate_file_reports(path: Path) -> None:
    text = _readable(path)
    if text is None:
        pytest.skip("not UTF-8")
    from_file = validate_file(path)
    from_text = validate_text(text, str(path))
    assert from_text.problems == from_file.problems
    assert (from_text.map is None) == (from_file.map is None)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_r2_plan_fix_text_plans_what_plan_fix_plans(path: Path) -> None:
    text = _readable(path)
    if text is None:
        pytest.skip("not UTF-8")
    from_file, from_text = plan_fix(path), plan_fix_text(text, str(path))
    assert from_text.changes == from_file.changes
    assert from_text.blockers == from_file.blockers


def test_ttr004_text_over_the_size_limit_is_not_parsed(tmp_path: Path) -> None:
    text = "format: 1\n" + "#" * limits.MAX_MAP_BYTES
    path = tmp_path / "big.yaml"
    path.write_text(text, encoding="utf-8")
    (problem,) = validate_text(text, str(path)).problems
    assert problem == validate_file(path).problems[0]
    assert problem.code == "TTR004"


def test_a_tab_is_named_in_a_syntax_error_of_text_too() -> None:
    (problem,) = validate_text("format: 1\ncities:\n\tA: {x: 0, y: 0}\n", "x.yaml").problems
    assert problem.code == "TTR001" and "holds a tab" in problem.message
