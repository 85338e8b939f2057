"""`ttr fix`: R2 ticket values rewritten in place, nothing else touched."""

from __future__ import annotations

import difflib
import stat
from pathlib import Path

from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.analysis.fix import plan_fix
from ttr_maps.checks.validate import validate_file

runner = CliRunner()

WRONG = """\
# A small map with wrong ticket values (R2) and comments that must survive.
format: 1
id: tiny
name: Tiny   # spaces kept
coordinates: plane
cities:
  A: {x: 0, y: 0}
  B: {x: 2, y: 0}
  C: {x: 2, y: 2}
  D: {x: 0, y: 2}
routes:
  - {between: [A, B], length: 2, color: red}
  - {between: [B, C], length: 2, color: blue}
  - between: [C, D]
    length: 2
    color: [green, gray]
tickets:
  - {between: [A, C], value: 9}    # printed 9
  - {between: [A, D], value: 6}
  - between: [B, D]
    value: 0x0C   # hex on purpose
"""


def _map(tmp_path: Path, text: str = WRONG, name: str = "tiny.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    path.chmod(0o640)
    return path


def test_r2_fix_rewrites_only_the_wrong_values(tmp_path: Path) -> None:
    path = _map(tmp_path)
    result = runner.invoke(app, ["fix", str(path)])
    assert result.exit_code == 0, result.output
    after = path.read_text()
    diff = [
        line
        for line in difflib.unified_diff(WRONG.splitlines(), after.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert diff == [
        "-  - {between: [A, C], value: 9}    # printed 9",
        "+  - {between: [A, C], value: 4}    # printed 9",
        "-    value: 0x0C   # hex on purpose",
        "+    value: 4   # hex on purpose",
    ]
    assert validate_file(path).errors == []
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.yaml"]  # no temp file left


def test_fixing_again_changes_nothing(tmp_path: Path) -> None:
    path = _map(tmp_path)
    assert runner.invoke(app, ["fix", str(path)]).exit_code == 0
    once = path.read_bytes()
    result = runner.invoke(app, ["fix", str(path)])
    assert result.exit_code == 0
    assert path.read_bytes() == once
    assert "0 file(s) changed" in result.output


def test_check_reports_old_and_new_and_exits_1_without_writing(tmp_path: Path) -> None:
    path = _map(tmp_path)
    result = runner.invoke(app, ["fix", "--check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:18:30: would change ticket A–C value 9 -> 4 (R2)" in result.output
    assert f"{path}:21:12: would change ticket B–D value 0x0C -> 4 (R2)" in result.output
    assert path.read_text() == WRONG
    runner.invoke(app, ["fix", str(path)])
    assert runner.invoke(app, ["fix", "--check", str(path)]).exit_code == 0


def test_crlf_line_endings_and_other_bytes_are_kept(tmp_path: Path) -> None:
    crlf = WRONG.replace("\n", "\r\n")
    path = _map(tmp_path, crlf)
    assert runner.invoke(app, ["fix", str(path)]).exit_code == 0
    expected = crlf.replace("value: 9}", "value: 4}").replace("value: 0x0C", "value: 4")
    assert path.read_bytes() == expected.encode("utf-8")


def test_changes_are_reported_only_after_the_write_succeeds(tmp_path: Path, monkeypatch) -> None:
    def refuse(path: Path, data: bytes, *_: object, **__: object) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("ttr_maps.analysis.fix.replace_if_unchanged", refuse)
    monkeypatch.setattr("ttr_maps.analysis.fix.write_bytes_atomically", refuse)
    path = _map(tmp_path)
    result = runner.invoke(app, ["fix", str(path)])
    assert result.exit_code == 2
    assert f"{path}: cannot write: Permission denied" in result.output
    assert "changed ticket" not in result.output
    assert result.stdout.splitlines() == ["0 file(s) changed."]
    assert path.read_text() == WRONG


def test_files_with_other_errors_are_reported_and_skipped(tmp_path: Path) -> None:
    broken = WRONG.replace("length: 2, color: red", "length: 11, color: red")
    path = _map(tmp_path, broken)
    result = runner.invoke(app, ["fix", str(path)])
    assert result.exit_code == 1
    assert "TTR203" in result.output and "skipped" in result.output
    assert path.read_text() == broken
    plan = plan_fix(path)
    assert plan.is_skipped and plan.changes == []


def test_missing_path_exits_2_and_other_files_are_still_fixed(tmp_path: Path) -> None:
    path = _map(tmp_path)
    result = runner.invoke(app, ["fix", str(tmp_path / "missing.yaml"), str(path)])
    assert result.exit_code == 2
    assert "TTR000" in result.output
    assert "value: 4}" in path.read_text()


def test_folders_are_fixed_recursively(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    path = _map(tmp_path / "sub")
    assert runner.invoke(app, ["fix", str(tmp_path)]).exit_code == 0
    assert validate_file(path).errors == []


def test_bundled_maps_need_no_fix() -> None:
    result = runner.invoke(app, ["fix", "--check"])
    assert result.exit_code == 0, result.output


def test_folder_without_maps_is_named_as_such_and_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["fix", str(tmp_path)])
    assert result.exit_code == 2
    assert "TTR000 no map files (*.yaml, *.yml) found in this folder" in result.output
