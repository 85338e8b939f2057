"""Linter habits of `ttr validate`: [tool.ttr] in pyproject.toml, --select,
--ignore, --statistics, standard input."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app

runner = CliRunner()

#: Four warnings (TTR151, TTR152, TTR352, TTR451) and no error.
SMALL = """format: 1
id: small
name: Small
coordinates: plane
cities:
  A: {x: 0, y: 0}
  B: {x: 1, y: 0}
  C: {x: 2, y: 0}
routes:
  - {between: [A, B], length: 2, color: red}
  - {between: [B, C], length: 2, color: red, tunnel: true}
  - {between: [A, C], length: 3, color: blue}
tickets:
  - {between: [A, C], value: 3}
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "small.yaml").write_text(SMALL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _codes(output: str) -> list[str]:
    return sorted(
        line.split()[2]
        for line in output.splitlines()
        if ": warning " in line or ": error " in line
    )


def test_without_settings_every_warning_is_reported(project: Path) -> None:
    result = runner.invoke(app, ["validate", "maps/small.yaml"])
    assert result.exit_code == 0
    assert len(_codes(result.output)) >= 3


def test_tool_ttr_select_ignore_severity_and_per_file_ignores(project: Path) -> None:
    before = _codes(runner.invoke(app, ["validate", "maps/small.yaml"]).output)
    ignored = before[0]
    (project / "pyproject.toml").write_text(
        f'[tool.ttr]\nignore = ["{ignored}"]\nseverity = {{ {before[-1]} = "error" }}\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["validate", "maps/small.yaml"])
    assert ignored not in _codes(result.output)
    assert f"error {before[-1]}" in result.output and result.exit_code == 1  # raised
    (project / "pyproject.toml").write_text(
        '[tool.ttr]\nper-file-ignores = { "maps/*.yaml" = ["TTR"] }\n', encoding="utf-8"
    )
    assert _codes(runner.invoke(app, ["validate", "maps/small.yaml"]).output) == []
    # The patterns are read from the project's folder, however the file is named.
    absolute = str(project / "maps" / "small.yaml")
    assert _codes(runner.invoke(app, ["validate", absolute]).output) == []


def test_select_on_the_command_line_replaces_the_files_and_ignore_adds(project: Path) -> None:
    before = _codes(runner.invoke(app, ["validate", "maps/small.yaml"]).output)
    (project / "pyproject.toml").write_text(f'[tool.ttr]\nselect = ["{before[0]}"]\n')
    assert set(_codes(runner.invoke(app, ["validate", "maps/small.yaml"]).output)) == {before[0]}
    chosen = runner.invoke(app, ["validate", "maps/small.yaml", "--select", before[-1]])
    assert set(_codes(chosen.output)) == {before[-1]}
    none = runner.invoke(
        app, ["validate", "maps/small.yaml", "--select", "TTR", "--ignore", ",".join(before)]
    )
    assert _codes(none.output) == []


def test_an_error_is_never_ignored(project: Path) -> None:
    (project / "maps" / "small.yaml").write_text(SMALL.replace("value: 3", "value: 9"))
    result = runner.invoke(app, ["validate", "maps/small.yaml", "--ignore", "TTR"])
    assert result.exit_code == 1 and "error TTR304" in result.output


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ('select = "TTR1"', "select must be a list"),
        ('ignore = ["E501"]', "'E501' is not a code"),
        ('colour = ["TTR1"]', "no key 'colour'"),
        ("severity = { TTR152 = 'fatal' }", "'error' or 'warning'"),
        ("select = [", "cannot read [tool.ttr]"),
    ],
)
def test_a_bad_table_is_a_usage_error_naming_the_file(
    project: Path, table: str, words: str
) -> None:
    (project / "pyproject.toml").write_text(f"[tool.ttr]\n{table}\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", "maps/small.yaml"])
    assert result.exit_code == 2
    assert words in result.output and "pyproject.toml" in result.output


def test_statistics_count_each_code(project: Path) -> None:
    plain = _codes(runner.invoke(app, ["validate", "maps/small.yaml"]).output)
    result = runner.invoke(app, ["validate", "maps/small.yaml", "--statistics"])
    assert result.exit_code == 0
    rows = [line.split() for line in result.output.splitlines() if "  TTR" in line]
    assert sorted(code for _, code, *_ in rows) == sorted(set(plain))
    assert sum(int(n) for n, *_ in rows) == len(plain)
    assert result.output.endswith(f"{len(plain)} problems in 1 file.\n")


def test_standard_input_is_checked_under_the_name_given(project: Path) -> None:
    text = (project / "maps" / "small.yaml").read_text()
    result = runner.invoke(app, ["validate", "-", "--stdin-filename", "maps/x.yaml"], input=text)
    file_result = runner.invoke(app, ["validate", "maps/small.yaml"])
    assert result.output == file_result.output.replace("maps/small.yaml", "maps/x.yaml")
    assert result.exit_code == file_result.exit_code
    bad = runner.invoke(app, ["validate", "-"], input=b"\xff\xfe not text")
    assert bad.exit_code == 2 and "not UTF-8" in bad.output
    mixed = runner.invoke(app, ["validate", "-", "maps/small.yaml"], input=text)
    assert mixed.exit_code == 2


def test_the_nearest_table_is_found_from_a_subfolder(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.ttr]\nignore = ["TTR"]\n')
    os.chdir(project / "maps")
    assert _codes(runner.invoke(app, ["validate", "small.yaml"]).output) == []


def test_shell_completion_completes_command_names() -> None:
    """Completion is on (`ttr --install-completion`): bash asks the installed
    command through typer's protocol and gets the command's name back."""
    import subprocess
    import sys

    ttr = Path(sys.executable).with_name("ttr")
    env = {
        **os.environ,
        "_TTR_COMPLETE": "complete_bash",
        "COMP_WORDS": "ttr vali",
        "COMP_CWORD": "1",
    }
    done = subprocess.run([str(ttr)], capture_output=True, text=True, env=env)
    assert done.stdout.split() == ["validate"]
