"""Hostile input, round four (issue 40): every write of a map file is a
compare-and-swap (`ttr_maps.io.files.replace_if_unchanged`). `ttr fix`, `ttr layout
--write` and `ttr tickets suggest --write` never overwrite a file changed since
they read it, whoever changed it and however (an editor's save by rename, a write
in place of the same size within the same timestamp, a removal), and say so with
exit 2. Every write error exits 2 (`ttr compare -o /dev/full`)."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from testdata import HOSTILE, sigint_as_from_a_terminal
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.analysis.fix import apply_fix, plan_fix
from ttr_maps.io import files
from ttr_maps.io.files import FileChangedError, read_snapshot, replace_if_unchanged

runner = CliRunner()


@pytest.fixture(params=["exchange", "rename"])
def swap(request, monkeypatch):
    """Both ways of swapping: Linux's exchange of two paths, and the check just
    before a rename where the system has no exchange."""
    if request.param == "rename":
        monkeypatch.setattr(files, "_RENAMEAT2", None)
    elif files._renameat2() is None:
        pytest.skip("no renameat2 here")
    return request.param


@pytest.fixture
def wrong_values(tmp_path: Path) -> Path:
    """A map whose ticket values `ttr fix` rewrites (R2)."""
    path = tmp_path / "map.yaml"
    shutil.copy(HOSTILE / "tab_in_flow.yaml", path)
    return path


def _same_size_edit_in_place(path: Path) -> bytes:
    """Change a byte in place (same inode, same size) and put the modification time
    back: only the bytes tell the file changed."""
    before = path.stat()
    data = bytearray(path.read_bytes())
    at = data.index(b"#") if b"#" in data else len(data) - 2
    data[at + 1] = ord("X") if data[at + 1] != ord("X") else ord("Y")
    with open(path, "r+b") as handle:
        handle.write(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_mtime_ns == before.st_mtime_ns
    return bytes(data)


def test_fix_never_overwrites_a_same_size_edit_made_in_the_same_instant(wrong_values, swap):
    plan = plan_fix(wrong_values)
    assert plan.changes
    edited = _same_size_edit_in_place(wrong_values)
    with pytest.raises(FileChangedError):
        apply_fix(plan)
    assert wrong_values.read_bytes() == edited
    assert [p.name for p in wrong_values.parent.iterdir()] == ["map.yaml"]


def test_fix_never_overwrites_an_editors_save(wrong_values, swap):
    plan = plan_fix(wrong_values)
    saved = wrong_values.read_bytes() + b"# saved by an editor\n"
    temporary = wrong_values.with_name(".map.yaml.swp")
    temporary.write_bytes(saved)
    os.replace(temporary, wrong_values)  # how editors save
    with pytest.raises(FileChangedError):
        apply_fix(plan)
    assert wrong_values.read_bytes() == saved


def test_fix_never_brings_back_a_removed_file(wrong_values, swap):
    plan = plan_fix(wrong_values)
    wrong_values.unlink()
    with pytest.raises(FileChangedError):
        apply_fix(plan)
    assert not wrong_values.exists()
    assert list(wrong_values.parent.iterdir()) == []


def test_an_unchanged_file_is_replaced_keeping_its_mode(wrong_values, swap):
    wrong_values.chmod(0o640)
    plan = plan_fix(wrong_values)
    apply_fix(plan)
    assert wrong_values.read_text(encoding="utf-8") == plan.fixed_text()
    assert wrong_values.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in wrong_values.parent.iterdir()] == ["map.yaml"]


def test_the_cli_says_the_file_changed_and_exits_2(wrong_values, monkeypatch):
    import ttr_maps.analysis.fix as fix_module

    real_plan = fix_module.plan_fix

    def plan_then_edit(path):
        plan = real_plan(path)
        Path(path).write_text(Path(path).read_text(encoding="utf-8") + "# mine\n")
        return plan

    import ttr_maps.analysis.fix

    monkeypatch.setattr(ttr_maps.analysis.fix, "plan_fix", plan_then_edit)
    result = runner.invoke(app, ["fix", str(wrong_values)])
    assert result.exit_code == 2
    assert "changed on disk since ttr read it; not replaced" in result.output
    assert wrong_values.read_text(encoding="utf-8").endswith("# mine\n")


def test_no_edit_is_ever_lost_to_a_fix_racing_an_editor(tmp_path):
    """An editor saves its buffer (by rename: the map with its wrong values and one
    more comment each time) over and over while fix plans and writes in a loop:
    every save that fix did not read is still there at the end. Only the exchange
    promises this whatever the timing; the fallback (a check just before a rename,
    where the system has no exchange) leaves a window of microseconds, which a
    save landing in it falls through (CI saw it once in 16 runs of 240 saves)."""
    if files._renameat2() is None:
        pytest.skip("no renameat2 here: only the check before a rename, which has a window")
    path = tmp_path / "map.yaml"
    original = (HOSTILE / "tab_in_flow.yaml").read_text(encoding="utf-8")
    fixed = refused = 0
    for trial in range(8):
        path.write_text(original, encoding="utf-8")
        done = threading.Event()
        saves: list[str] = []

        def editor(trial=trial, done=done, saves=saves):
            for number in range(30):
                saves.append(f"# save {trial}-{number}\n")
                temporary = tmp_path / f".edit-{number}"
                temporary.write_text(original + "".join(saves), encoding="utf-8")
                os.replace(temporary, path)
                time.sleep(0.001 * (number % 3))  # fast saves, a few slower ones
            done.set()

        thread = threading.Thread(target=editor)
        thread.start()
        while not done.is_set():
            plan = plan_fix(path)
            if plan.changes and not plan.is_skipped:
                try:
                    apply_fix(plan)
                    fixed += 1
                except FileChangedError:
                    refused += 1
        thread.join()
        assert path.read_text(encoding="utf-8").endswith(saves[-1]), trial  # the last save
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".ttr-")]
    assert fixed, f"no fix got through in {refused} tries: the race was not run"


def test_a_snapshot_is_of_one_version_of_the_file(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_bytes(b"a: 1\n")
    snapshot = read_snapshot(path, 100)
    assert snapshot.data == b"a: 1\n" and snapshot.identity == files.file_identity(path)
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(files.InputFileError, match="FIFO"):
        read_snapshot(tmp_path / "fifo", 100)
    with pytest.raises(files.InputFileError, match="larger than"):
        read_snapshot(path, 3)
    replace_if_unchanged(path, b"a: 2\n", snapshot)
    assert path.read_bytes() == b"a: 2\n"
    with pytest.raises(FileChangedError):  # the snapshot is of the file replaced
        replace_if_unchanged(path, b"a: 3\n", snapshot)
    assert path.read_bytes() == b"a: 2\n"


def test_layout_write_never_overwrites_an_edit_made_while_it_worked(tmp_path, monkeypatch):
    from ttr_maps.authoring.starter import starter_map_text
    from ttr_maps.geometry import layout

    path = tmp_path / "board.yaml"
    path.write_text(starter_map_text("board", coordinates="plane"), encoding="utf-8")
    real = layout.compute_layout

    def slow_layout(*args, **kwargs):
        result = real(*args, **kwargs)
        path.write_text(path.read_text(encoding="utf-8") + "# edited meanwhile\n")
        return result

    monkeypatch.setattr(layout, "compute_layout", slow_layout)
    result = runner.invoke(app, ["layout", str(path), "--write"])
    assert result.exit_code == 2, result.output
    assert "changed on disk since ttr read it" in result.output
    assert path.read_text(encoding="utf-8").endswith("# edited meanwhile\n")


def test_tickets_suggest_write_never_overwrites_an_edit_made_while_it_worked(tmp_path, monkeypatch):
    from ttr_maps.analysis import tickets

    path = tmp_path / "na.yaml"
    shutil.copy(Path(__file__).parents[2] / "maps" / "north_america.yaml", path)
    real = tickets.suggest_deck

    def slow_suggestion(*args, **kwargs):
        deck = real(*args, **kwargs)
        path.write_text(path.read_text(encoding="utf-8") + "# edited meanwhile\n")
        return deck

    monkeypatch.setattr(tickets, "suggest_deck", slow_suggestion)
    args = ["tickets", "suggest", str(path), "--count", "30", "--iterations", "50", "--write"]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "changed on disk since ttr read it" in result.output
    assert path.read_text(encoding="utf-8").endswith("# edited meanwhile\n")


def test_compare_to_a_full_disk_exits_2():
    result = runner.invoke(
        app, ["compare", "iran", "north_america", "--games", "2", "-j", "1", "-o", "/dev/full"]
    )
    assert result.exit_code == 2
    assert "No space left on device" in result.output


def test_a_save_landing_between_the_exchanges_is_put_back_too(tmp_path, monkeypatch):
    """The worst timing, made certain: an editor saves just before the swap's
    exchange, and saves again just before the exchange that puts its first save
    back. Its second save must end up in place, its first superseded."""
    if files._renameat2() is None:
        pytest.skip("no renameat2 here")
    path = tmp_path / "map.yaml"
    path.write_bytes(b"read: 1\n")
    snapshot = read_snapshot(path, 100)
    real = files._exchange
    calls = []

    def save(text: bytes) -> None:
        temporary = tmp_path / "editor.tmp"
        temporary.write_bytes(text)
        os.replace(temporary, path)

    def exchange_after_a_save(first, second):
        calls.append(len(calls))
        if len(calls) <= 2:  # before the swap, and before the first exchange back
            save(f"editor: {len(calls)}\n".encode())
        return real(first, second)

    monkeypatch.setattr(files, "_exchange", exchange_after_a_save)
    with pytest.raises(FileChangedError):
        replace_if_unchanged(path, b"mine\n", snapshot)
    assert path.read_bytes() == b"editor: 2\n"
    assert len(calls) == 3  # the swap, the first save put back, the second put back
    assert sorted(p.name for p in tmp_path.iterdir()) == ["map.yaml"]


# SIGINT in the default suite, SIGTERM and SIGHUP (the same clean-up) in the slow one.
@pytest.mark.parametrize(
    "stop",
    [
        pytest.param("SIGTERM", marks=pytest.mark.slow),
        pytest.param("SIGINT", marks=pytest.mark.slow),
        pytest.param("SIGHUP", marks=pytest.mark.slow),
    ],
)
def test_a_write_in_place_stopped_by_a_signal_leaves_the_map_whole(tmp_path, stop):
    """`ttr layout --write` stopped at any moment: the map is the old one or the new
    one, whole, no temporary file is left, and no traceback is printed."""
    import signal
    import subprocess
    import sys

    from ttr_maps.authoring.starter import starter_map_text

    path = tmp_path / "board.yaml"
    original = starter_map_text("board", coordinates="plane")
    ttr = Path(sys.executable).with_name("ttr")
    outcomes = set()
    for delay in (0.3, 0.8, 1.5, 2.5):
        path.write_text(original, encoding="utf-8")
        process = subprocess.Popen(
            [str(ttr), "layout", str(path), "--write"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=sigint_as_from_a_terminal,
        )
        time.sleep(delay)
        process.send_signal(getattr(signal, stop))
        _, errors = process.communicate(timeout=120)
        assert "Traceback" not in errors
        text = path.read_text(encoding="utf-8")
        if process.returncode == 0:
            assert "layout:" in text  # finished first: laid out
        else:
            number = getattr(signal, stop)
            # 128 + the signal once ttr runs; killed by it while Python still starts
            assert process.returncode in (128 + number, -number), (process.returncode, errors)
            assert text == original or "layout:" in text
        outcomes.add(process.returncode)
        assert not [p for p in tmp_path.iterdir() if p.name.startswith(".ttr-")]
    assert outcomes  # the loop ran
