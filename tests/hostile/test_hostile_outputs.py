"""Hostile output paths (issue 27): every option that names a file to write, on
every kind of path a hostile or careless user gives. Whatever the path, the
command exits 2 with a message naming the option or the file, its inputs keep
their bytes, and no temporary file is left behind.

The commands run in-process (typer's runner), so the stream timeout can be
shortened and a full disk simulated; `test_hostile.py` runs real processes.
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.authoring.starter import starter_map_text
from ttr_maps.io import files

runner = CliRunner()
TTR = Path(sys.executable).with_name("ttr")


@pytest.fixture
def board(tmp_path: Path) -> Path:
    path = tmp_path / "board.yaml"
    path.write_text(starter_map_text("board", coordinates="plane"), encoding="utf-8")
    return path


#: Every output option, as (name, the arguments given the map and the output).
OUTPUTS: dict[str, Callable[[Path, Path | str], list[str]]] = {
    "validate -o": lambda m, o: ["validate", str(m), "-o", str(o)],
    "preview -o": lambda m, o: ["preview", str(m), "-o", str(o)],
    "print -o": lambda m, o: ["print", str(m), "-o", str(o)],
    "stats --plot": lambda m, o: ["stats", str(m), "--plot", str(o)],
    "tickets --plot": lambda m, o: ["tickets", str(m), "--samples", "20", "--plot", str(o)],
    "play --record": lambda m, o: ["play", str(m), "--bots", "greedy,random", "--record", str(o)],
    "play --picture": lambda m, o: ["play", str(m), "--bots", "random,random", "--picture", str(o)],
    "ladder --json": lambda m, o: ["ladder", str(m), "--bots", "greedy,random", "-n", "2", "-j",
                                   "1", "--json", str(o)],
    "ladder --png": lambda m, o: ["ladder", str(m), "--bots", "greedy,random", "-n", "2", "-j",
                                  "1", "--png", str(o)],
}  # fmt: skip
#: The extension each output must have.
SUFFIX = {"print -o": ".pdf", "validate -o": ".txt", "play --record": ".json"}
SUFFIX |= {"ladder --json": ".json"}


def output_name(command: str) -> str:
    return "out" + SUFFIX.get(command, ".png")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def run(args: list[str]) -> tuple[int, str]:
    result = runner.invoke(app, args)
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    return result.exit_code, result.output


def refused(command: str, board: Path, output: Path | str) -> str:
    """Run `command` writing to `output`: exit 2, the input as it was, nothing
    left behind. Returns what it said."""
    folder = board.parent
    before = snapshot(folder)
    code, said = run(OUTPUTS[command](board, output))  # type: ignore[arg-type]
    assert code == 2, said
    assert snapshot(folder) == before  # the input and every other file as they were
    assert not [p for p in folder.iterdir() if p.name.startswith(".ttr-")]
    return said


@pytest.mark.parametrize("command", OUTPUTS)
def test_an_output_that_is_the_input_is_refused_by_inode_whatever_its_name(
    command: str, board: Path
) -> None:
    (board.parent / "link.yaml").symlink_to(board.name)
    os.link(board, board.parent / "hard.yaml")
    for name in (board.name, "link.yaml", "hard.yaml", f"./{board.name}"):
        said = refused(command, board, board.parent / name)
        assert "is an input of this command" in said


@pytest.mark.parametrize("command", OUTPUTS)
def test_hard_linked_read_only_folder_and_slash_outputs_are_refused(
    command: str, board: Path
) -> None:
    folder = board.parent
    target = folder / output_name(command)
    target.write_bytes(b"old")
    os.link(target, folder / "other-name")
    assert "hard links" in refused(command, board, target)
    (folder / "other-name").unlink()
    target.chmod(0o444)  # read-only: refused even for root
    assert "read-only" in refused(command, board, target)
    target.chmod(0o644)
    (folder / "sub").mkdir()
    assert "folder" in refused(command, board, folder / "sub")
    assert "folder" in refused(command, board, f"{target}/")  # never writes out.png
    assert target.read_bytes() == b"old"


@pytest.mark.parametrize("command", ["validate -o", "stats --plot", "play --record"])
def test_a_fifo_nobody_reads_times_out_with_a_message(
    command: str, board: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "STREAM_TIMEOUT", 0.2)
    fifo = board.parent / output_name(command)
    os.mkfifo(fifo)
    code, said = run(OUTPUTS[command](board, fifo))
    assert code == 2 and "nobody read it" in said
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("command", ["validate -o", "stats --plot", "play --record"])
def test_a_fifo_with_a_reader_gets_the_whole_output(command: str, board: Path) -> None:
    fifo = board.parent / output_name(command)
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    code, said = run(OUTPUTS[command](board, fifo))
    data = reader.communicate(timeout=30)[0]
    assert code in (0, 1), said
    assert data  # a report, a PNG or a record
    if command == "stats --plot":
        assert data.startswith(b"\x89PNG")


#: Outputs whose work takes seconds before the write: run with `-m slow`.
SLOW_WORK = ("print -o", "tickets --plot")


@pytest.mark.parametrize(
    "command",
    [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_WORK else c for c in OUTPUTS],
)
def test_a_full_disk_is_an_output_error_and_leaves_the_old_file(
    command: str, board: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = board.parent / output_name(command)
    target.write_bytes(b"old")

    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files.os, "replace", full)
    code, said = run(OUTPUTS[command](board, target))
    assert code == 2 and "No space left on device" in said
    assert target.read_bytes() == b"old"
    assert not [p for p in board.parent.iterdir() if p.name.startswith(".ttr-")]


@pytest.mark.parametrize("command", OUTPUTS)
def test_dev_full_is_an_output_error(command: str, board: Path) -> None:
    if command in ("print -o", "validate -o", "play --record", "ladder --json", "ladder --png"):
        pytest.skip("the extension is checked first")  # /dev/full has none
    code, said = run(OUTPUTS[command](board, Path("/dev/full")))
    assert code == 2 and ("No space left on device" in said or "format" in said), said


def test_validate_with_standard_output_closed_says_so_and_exits_2(board: Path) -> None:
    done = subprocess.run(
        [str(TTR), "validate", str(board)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert done.returncode == 0
    done = subprocess.run(
        f"'{TTR}' validate '{board}' >&-", shell=True, stderr=subprocess.PIPE, text=True
    )
    assert done.returncode == 2
    assert "cannot write to standard output" in done.stderr and "Traceback" not in done.stderr


def test_the_step_summary_is_appended_and_never_an_input(
    board: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = board.parent / "summary.md"
    summary.write_text("# before\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, said = run(["validate", "-f", "github", str(board)])
    assert code == 0, said
    assert summary.read_text(encoding="utf-8").startswith("# before\n")
    assert len(summary.read_text(encoding="utf-8")) > len("# before\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(board))
    before = board.read_bytes()
    code, said = run(["validate", "-f", "github", str(board)])
    assert code == 2 and "GITHUB_STEP_SUMMARY" in said
    assert board.read_bytes() == before


def test_layout_write_keeps_the_bom_and_crlf_line_ends(board: Path) -> None:
    text = "\ufeff" + board.read_text(encoding="utf-8").replace("\n", "\r\n")
    board.write_bytes(text.encode("utf-8"))
    code, said = run(["layout", str(board), "--write"])
    assert code in (0, 1), said
    data = board.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"layout:" in data
    assert data.count(b"\n") == data.count(b"\r\n")  # no bare LF anywhere
    assert run(["validate", str(board)])[0] == 0


@pytest.mark.parametrize("command", ["layout", "fix"])
def test_layout_write_and_fix_refuse_hard_linked_and_read_only_maps(
    command: str, board: Path
) -> None:
    text = board.read_text(encoding="utf-8")
    if command == "fix":  # something to fix
        text = text.replace("value: 7}", "value: 9}", 1)
        board.write_text(text, encoding="utf-8")
    args = ["layout", str(board), "--write"] if command == "layout" else ["fix", str(board)]
    os.link(board, board.parent / "twin.yaml")
    code, said = run(args)
    assert code == 2 and "hard links" in said, said
    (board.parent / "twin.yaml").unlink()
    board.chmod(0o444)
    code, said = run(args)
    assert code == 2 and "read-only" in said, said
    assert board.read_text(encoding="utf-8") == text


def test_fix_fixes_a_map_that_starts_with_a_bom(board: Path) -> None:
    text = board.read_text(encoding="utf-8")
    wrong = text.replace("value: 7}", "value: 9}", 1)
    assert wrong != text
    board.write_bytes(("\ufeff" + wrong).encode("utf-8"))
    code, said = run(["fix", str(board)])
    assert code == 0 and "changed ticket" in said, said
    assert board.read_bytes() == ("\ufeff" + text).encode("utf-8")


def test_the_editor_saves_in_the_file_s_form(board: Path) -> None:
    from ttr_core.edit.edits import ReplaceText
    from ttr_core.edit.session import EditSession

    text = board.read_text(encoding="utf-8")
    board.write_bytes(("\ufeff" + text.replace("\n", "\r\n")).encode("utf-8"))
    session = EditSession.open(board)
    session.apply(ReplaceText(text + "# a new line\n", "append"))  # bare LF, no BOM
    session.save()
    data = board.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.endswith(b"# a new line\r\n")
    assert data.count(b"\n") == data.count(b"\r\n")
    session.save()  # what was written is what the session holds: no false conflict
    os.link(board, board.parent / "twin.yaml")
    with pytest.raises(OSError, match="hard links"):
        session.save()
