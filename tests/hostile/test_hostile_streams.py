"""Hostile input, round four (issue 40): standard output and its reader, Ctrl-C,
and the compiled build's status.

The rule (ttr_core/cli/app.py, docs/ci.md): a reader that goes away (`| head`) is
not an error, the work goes on and its files are written in full; any other
failure of standard output is one line and exit 2, with the files written first;
Ctrl-C is exit 130 without a traceback, also while the command loads.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from testdata import ROOT, sigint_as_from_a_terminal

TTR = Path(sys.executable).with_name("ttr")
TIMEOUT = 120


def _shell(line: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", line], capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd
    )


def test_a_record_piped_into_head_is_complete_and_the_command_succeeds(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    line = (
        f"{TTR} play iran --bots random,greedy --seed 3 --record {record} | head -c 10 "
        "> /dev/null; exit ${PIPESTATUS[0]}"
    )
    result = _shell(line)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    game = json.loads(record.read_text())
    assert game["result"] is not None
    verify = subprocess.run(
        [str(TTR), "replay", str(record), "--verify"], capture_output=True, timeout=TIMEOUT
    )
    assert verify.returncode == 0


def test_a_full_standard_output_still_gets_the_record_written(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = _shell(f"{TTR} play iran --bots random,random --seed 4 --record {record} >/dev/full")
    assert result.returncode == 2
    assert result.stderr.strip() == "ttr: cannot write to standard output: No space left on device"
    assert json.loads(record.read_text())["result"] is not None


@pytest.mark.parametrize(
    ("redirect", "code", "said"),
    [
        ("> /dev/full", 2, "cannot write to standard output: No space left on device"),
        (">&-", 2, "cannot write to standard output: it is closed"),
        ("| head -c 1 > /dev/null; exit ${PIPESTATUS[0]}", 0, ""),
    ],
    ids=["full", "closed", "reader-leaves"],
)
def test_the_compiled_builds_status_follows_the_output_rule(redirect, code, said) -> None:
    result = _shell(f"{sys.executable} -m ttr_core.accel --status {redirect}")
    assert result.returncode == code
    assert "Traceback" not in result.stderr
    assert said in result.stderr and len(result.stderr.splitlines()) == (1 if said else 0)


@pytest.mark.parametrize(
    "content",
    ["[1, 2]", '"text"', "null", "[" * 100_000, "{", "\x00\xff", '{"ttr_core.engine.state": []}'],
    ids=["list", "string", "null", "deep", "truncated", "binary", "wrong-type"],
)
def test_a_hostile_build_record_never_stops_the_engine_loading(tmp_path, monkeypatch, content):
    from ttr_core import accel

    record = tmp_path / "accel-build.json"
    record.write_bytes(content.encode("utf-8", "surrogateescape"))
    monkeypatch.setattr(accel, "BUILD_RECORD", record)
    # A record that cannot be read records nothing: every compiled module present is
    # stale (none in a pure install), and the engine falls back to its source.
    suffix = accel.EXTENSION_SUFFIXES[0]
    built = accel.every_module()
    compiled = [m for m in built if accel.source_of(m).with_suffix(suffix).exists()]
    assert accel.stale_modules() == compiled
    record.unlink()
    import os

    os.mkfifo(record)  # a FIFO would block every import of ttr_core if it were read
    started = time.monotonic()
    assert accel.stale_modules() == compiled
    assert time.monotonic() - started < 5


def test_ctrl_c_in_print_is_exit_130_without_a_traceback(tmp_path: Path) -> None:
    # From the loading of the command to the drawing of the PDF.
    for delay in (0.4, 1.0, 2.5):
        process = subprocess.Popen(
            [str(TTR), "print", "iran", "-o", str(tmp_path / "game.pdf")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            preexec_fn=sigint_as_from_a_terminal,
        )
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=TIMEOUT)
        if process.returncode == 0:
            continue  # it finished first
        assert process.returncode == 130, err
        assert "Traceback" not in err
        assert not list(tmp_path.glob(".ttr-*"))  # no temporary file left


def test_ctrl_c_inside_an_extension_import_is_exit_130_without_a_traceback() -> None:
    """Ctrl-C while matplotlib's ft2font initialises surfaces as "ImportError:
    initialization failed" caused by KeyboardInterrupt (seen in CI at 1.0 s into
    `ttr print`), and the half-made module then crashed the interpreter's exit
    (status -6): it is an interrupt like any other."""
    script = (
        "import sys, ttr_core.cli\n"
        "app = sys.modules['ttr_core.cli.app']  # the package's `app` is the application\n"
        "def run(argv=None):\n"
        "    try:\n"
        "        raise KeyboardInterrupt\n"
        "    except KeyboardInterrupt as ctrl_c:\n"
        "        raise ImportError('initialization failed') from ctrl_c\n"
        "app.run = run\n"
        "ttr_core.cli.main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "interrupted" in done.stderr
    other = script.replace("raise KeyboardInterrupt", "raise OSError('not an interrupt')")
    done = subprocess.run([sys.executable, "-c", other], capture_output=True, text=True)
    assert done.returncode == 1 and "OSError: not an interrupt" in done.stderr  # others propagate


def test_ctrl_c_outside_a_command_is_exit_130(monkeypatch: pytest.MonkeyPatch) -> None:
    import ttr_core.cli

    def interrupted(argv=None):
        raise KeyboardInterrupt

    # The module (the package's attribute `app` is the application).
    monkeypatch.setattr(sys.modules["ttr_core.cli.app"], "run", interrupted)
    with pytest.raises(SystemExit) as stop:
        ttr_core.cli.main()
    assert stop.value.code == 130


def test_standard_output_whose_reader_left_drops_the_rest_quietly(tmp_path: Path) -> None:
    from ttr_maps.io.files import ReaderMayLeave

    class Pipe:
        def __init__(self):
            self.lines = []

        def write(self, text):
            if len(self.lines) >= 2:
                raise BrokenPipeError(32, "Broken pipe")
            self.lines.append(text)
            return len(text)

        def flush(self):
            pass

        def fileno(self):
            raise ValueError("no descriptor")

    pipe = Pipe()
    out = ReaderMayLeave(pipe)
    for text in ("a", "b", "c", "d"):
        assert out.write(text) == 1
    out.flush()
    assert pipe.lines == ["a", "b"] and out.reader_left
