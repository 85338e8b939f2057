"""The report folder (`ttr_core.playtest.folder`): a bad `--out` fails before any
game is played; a report is written at once or not at all; staging folders of
killed runs are cleaned up."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.folder import prepare_report_folder

runner = CliRunner()
SIMULATE = ["simulate", "north_america", "--players", "3", "--seed", "9"]


def test_a_picture_that_cannot_be_written_fails_before_the_games(tmp_path: Path) -> None:
    out = tmp_path / "o"
    (out / "heatmap.png").mkdir(parents=True)
    result = runner.invoke(app, [*SIMULATE, "--games", "2", "--out", str(out)])
    assert result.exit_code == 2
    assert "heatmap.png is a folder" in result.output
    assert [p.name for p in out.iterdir()] == ["heatmap.png"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]  # no staging folder left


@pytest.mark.parametrize("out", ["afile/sub", "/proc/x/report"])
def test_out_that_cannot_be_created_fails_at_once(tmp_path: Path, out: str) -> None:
    (tmp_path / "afile").write_text("")
    target = tmp_path / out if not out.startswith("/") else Path(out)
    result = runner.invoke(app, [*SIMULATE, "--games", "100000", "--out", str(target)])
    assert result.exit_code == 2
    assert "error: --out" in result.output
    assert "Traceback" not in result.output


def test_a_failure_while_writing_leaves_the_old_report_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ttr_core.playtest.html
    from ttr_maps.render.draw import PreviewError

    def broken(*args: object) -> None:
        raise PreviewError("tickets.png: cannot write (disk full)")

    monkeypatch.setattr(ttr_core.playtest.html, "_tickets", broken)
    out = tmp_path / "o"
    out.mkdir()
    (out / "report.json").write_text("old")
    result = runner.invoke(app, [*SIMULATE, "--games", "2", "--out", str(out)])
    assert result.exit_code == 2  # an output error (docs/ci.md)
    assert "cannot write the report" in result.output and "disk full" in result.output
    assert [p.name for p in out.iterdir()] == ["report.json"]
    assert (out / "report.json").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]


# a simulation twice; the failure test beside it keeps the room in the default suite
@pytest.mark.slow
def test_a_new_report_replaces_an_old_one_file_by_file(tmp_path: Path) -> None:
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    result = runner.invoke(app, [*SIMULATE, "--games", "2", "--records", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "notes.txt").read_text() == "mine"
    assert json.loads((out / "report.json").read_text())["games"] == 2
    assert len(list((out / "records").iterdir())) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o"]


def test_abandoned_staging_folders_are_removed_live_ones_kept(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    abandoned = out / f".out.{dead.pid}.abc.tmp"
    live = out / f".out.{os.getpid()}.def.tmp"
    abandoned.mkdir()
    live.mkdir()
    staging = prepare_report_folder(out)
    assert not abandoned.exists() and live.is_dir() and staging.is_dir()
