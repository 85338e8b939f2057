"""Hostile and broken input (issue 17): no hang, no traceback, no file lost.

The corpus is `tests/data/hostile/` (small files; big and special ones are made
here). Every command runs as a subprocess with a timeout, so a hang fails the test
instead of the CI run. The default suite runs each command on the inputs that
broke it; `-m slow` runs every command on every corpus file.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from testdata import HOSTILE, ROOT, sigint_as_from_a_terminal
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.io import limits
from ttr_maps.io.document import DocumentError, parse_document

TTR = Path(sys.executable).with_name("ttr")
#: A command that takes longer than this on a small file hangs.
TIMEOUT = 60

#: What `ttr validate` says of each corpus map: exit code and problem codes.
MAP_EXPECTATIONS: dict[str, tuple[int, set[str]]] = {
    "alias_to_itself.yaml": (1, {"TTR006"}),
    "anchored_value.yaml": (1, {"TTR304"}),
    "empty.yaml": (1, {"TTR002"}),
    "forty_brackets.yaml": (1, {"TTR005"}),
    "hostile_names.yaml": (0, set()),
    "huge_integer.yaml": (1, {"TTR009"}),
    "just_text.yaml": (1, {"TTR002"}),
    "laughs_in_lists.yaml": (1, {"TTR006"}),
    "laughs_in_mappings.yaml": (1, {"TTR006"}),
    "merge_key.yaml": (1, {"TTR008"}),
    "nan_latitude.yaml": (1, {"TTR103"}),
    "not_utf8.yaml": (2, {"TTR000"}),
    "nul_bytes.yaml": (1, {"TTR001"}),
    "python_tag.yaml": (1, {"TTR007"}),
    "tab_in_flow.yaml": (1, {"TTR304"}),
    "tag_on_mapping.yaml": (1, {"TTR007"}),
    "tagged_value.yaml": (1, {"TTR304"}),
    "tex_names.yaml": (0, {"TTR151"}),
}
RECORDS = sorted(HOSTILE.glob("record_*.json"))


def corpus_maps() -> list[Path]:
    return sorted(HOSTILE.glob("*.yaml"))


def ttr(
    *args: str | Path, cwd: Path | None = None, **options: object
) -> subprocess.CompletedProcess:
    """Run `ttr` in a subprocess; a hang raises TimeoutExpired and fails the test."""
    options.setdefault("stdin", subprocess.DEVNULL)
    return subprocess.run(
        [str(TTR), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd or ROOT,
        **options,  # type: ignore[arg-type]
    )


def assert_clean(result: subprocess.CompletedProcess, code: int) -> None:
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert result.returncode == code, output


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A private copy of the map corpus (fix must not touch the real one)."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for path in corpus_maps():
        shutil.copy(path, folder / path.name)
    return folder


def test_corpus_expectations_name_every_map_file() -> None:
    assert {p.name for p in corpus_maps()} == set(MAP_EXPECTATIONS)


# ---------------------------------------------------------------- validate and fix


def test_validate_reports_every_corpus_file_with_its_code_and_keeps_going(corpus: Path) -> None:
    result = ttr("validate", "--format", "json", corpus)
    assert_clean(result, 2)  # not_utf8.yaml cannot be read; every other file is reported
    files = {Path(f["path"]).name: f for f in json.loads(result.stdout)["files"]}
    assert set(files) == set(MAP_EXPECTATIONS)
    for name, (_, codes) in MAP_EXPECTATIONS.items():
        assert {p["code"] for p in files[name]["problems"]} >= codes, name
        if not codes:
            assert files[name]["problems"] == [], name


def test_r2_fix_changes_only_what_it_can_change_safely(corpus: Path) -> None:
    before = snapshot(corpus)
    assert_clean(ttr("fix", "--check", corpus), 2)
    assert snapshot(corpus) == before
    result = ttr("fix", corpus)
    assert_clean(result, 2)
    after = snapshot(corpus)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"tab_in_flow.yaml"}  # read the same way by validate and fix
    assert "fix it by hand" in result.stderr  # anchored_value.yaml and tagged_value.yaml
    assert_clean(ttr("validate", corpus / "tab_in_flow.yaml"), 0)
    assert not [p for p in corpus.iterdir() if p.name.startswith(".")]  # no temporary left


def test_r2_fix_writes_a_symlinked_map_at_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real.yaml"
    shutil.copy(HOSTILE / "tab_in_flow.yaml", target)
    link = tmp_path / "link.yaml"
    link.symlink_to(target.name)
    assert_clean(ttr("fix", link), 0)
    assert link.is_symlink() and os.readlink(link) == target.name
    assert_clean(ttr("validate", target), 0)


def test_r2_fix_does_not_replace_a_file_changed_while_it_worked(tmp_path: Path) -> None:
    from ttr_maps.analysis.fix import apply_fix, plan_fix
    from ttr_maps.io.files import FileChangedError

    path = tmp_path / "map.yaml"
    shutil.copy(HOSTILE / "tab_in_flow.yaml", path)
    plan = plan_fix(path)
    assert plan.changes
    edited = path.read_text(encoding="utf-8") + "# edited meanwhile\n"
    path.write_text(edited, encoding="utf-8")
    with pytest.raises(FileChangedError):
        apply_fix(plan)
    assert path.read_text(encoding="utf-8") == edited
    assert [p.name for p in tmp_path.iterdir()] == ["map.yaml"]


def test_a_write_stopped_by_sigterm_leaves_no_temporary_file(tmp_path: Path) -> None:
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from ttr_core.cli.app import stop_on_signals\n"
        "from ttr_maps.io.files import atomic_target\n"
        "stop_on_signals()\n"
        "with atomic_target(Path(sys.argv[1])) as temporary:\n"
        "    temporary.write_text('half')\n"
        "    print('writing', flush=True)\n"
        "    time.sleep(60)\n"
    )
    target = tmp_path / "out.txt"
    with subprocess.Popen(
        [sys.executable, "-c", script, str(target)],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_from_a_terminal,
    ) as process:
        assert process.stdout is not None and process.stdout.readline() == "writing\n"
        assert len(list(tmp_path.iterdir())) == 1  # the temporary file
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=TIMEOUT) == 128 + signal.SIGTERM
    assert list(tmp_path.iterdir()) == []


def test_the_next_write_removes_temporary_files_of_killed_runs(tmp_path: Path) -> None:
    from ttr_maps.io.files import write_text_atomically

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    abandoned = tmp_path / f".ttr-{dead.stdout.strip()}-abc123.tmp"
    abandoned.write_text("left by a kill -9")
    alive = tmp_path / f".ttr-{os.getpid()}-def456.tmp"  # a write still running
    alive.write_text("in progress")
    write_text_atomically(tmp_path / "out.txt", "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == [alive.name, "out.txt"]


# ---------------------------------------------------------------- other commands


@pytest.mark.parametrize(
    "name", ["laughs_in_mappings.yaml", "forty_brackets.yaml", "python_tag.yaml"]
)
def test_stats_preview_and_play_refuse_the_hanging_maps_quickly(name: str, tmp_path: Path) -> None:
    path = HOSTILE / name
    assert_clean(ttr("stats", path), 2)
    assert_clean(ttr("preview", path, "-o", tmp_path / "x.png"), 2)
    assert not (tmp_path / "x.png").exists()


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_names_are_text_in_stats_previews_and_standings(tmp_path: Path) -> None:
    path = HOSTILE / "hostile_names.yaml"
    stats = ttr("stats", path, "--plot", tmp_path / "stats.png")
    assert_clean(stats, 0)
    assert "[/]" in stats.stdout and "\x1b" not in stats.stdout
    assert "\\x1b[2J" in stats.stdout  # shown, not obeyed
    assert_clean(ttr("preview", path, "-o", tmp_path / "map.svg"), 0)
    svg = (tmp_path / "map.svg").read_text(encoding="utf-8")
    assert "&lt;script&gt;" in svg and "<script>" not in svg
    record = tmp_path / "game.json"
    bots = ("--bots", "random,random")
    assert_clean(ttr("play", path, *bots, "--record", record, "--picture", tmp_path / "p.png"), 0)
    data = json.loads(record.read_text(encoding="utf-8"))
    data["seats"][0]["player"] = "[/] \x1b[2J"
    data["seats"][1]["player"] = "$\\frac{$"
    record.write_text(json.dumps(data), encoding="utf-8")
    replay = ttr("replay", record, "--map", path, "--step")
    assert_clean(replay, 0)
    assert "[/]" in replay.stdout and "\x1b" not in replay.stdout
    table = ttr("play", path, "--human", "0", stdin=None, input="1\n1\nquit\n")
    assert_clean(table, 1)
    assert "\\x1b[2J" in table.stdout and "\x1b" not in table.stdout


def test_special_files_are_usage_errors_and_the_batch_goes_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "dangling.yaml").symlink_to("nowhere.yaml")
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    (tmp_path / "folder.yaml").mkdir()
    shutil.copy(HOSTILE / "hostile_names.yaml", tmp_path / "good.yaml")
    names = ["fifo.yaml", "zero.yaml", "dangling.yaml", "loop.yaml", "folder.yaml", "good.yaml"]
    result = ttr("validate", "-f", "json", *(tmp_path / n for n in names))
    assert_clean(result, 2)
    files = {Path(f["path"]).name: f["problems"] for f in json.loads(result.stdout)["files"]}
    assert files["good.yaml"] == []
    messages = {name: files[name][0]["message"] for name in names[:-1]}
    assert all(files[name][0]["code"] == "TTR000" for name in names[:-1])
    assert "FIFO" in messages["fifo.yaml"] and "device" in messages["zero.yaml"]
    assert "dangling" in messages["dangling.yaml"] and "loop" in messages["loop.yaml"]
    for command in (["stats"], ["play"], ["fix"]):
        assert_clean(ttr(*command, tmp_path / "fifo.yaml"), 2)
    assert_clean(ttr("replay", tmp_path / "fifo.yaml"), 2)
    assert_clean(ttr("replay", tmp_path / "zero.yaml"), 2)


def test_a_folder_reports_what_it_cannot_walk(tmp_path: Path) -> None:
    shutil.copy(HOSTILE / "hostile_names.yaml", tmp_path / "good.yaml")
    (tmp_path / "dangling.yaml").symlink_to("nowhere.yaml")
    (tmp_path / "loop").symlink_to("loop")
    (tmp_path / "again").symlink_to(".")  # a folder loop: walked once
    result = ttr("validate", tmp_path)
    assert_clean(result, 2)
    assert "Checked 3 files" in result.stdout
    assert "dangling.yaml:1:1: error TTR000" in result.stdout
    assert "loop:1:1: error TTR000" in result.stdout


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_subfolder_is_reported(tmp_path: Path) -> None:
    shutil.copy(HOSTILE / "hostile_names.yaml", tmp_path / "good.yaml")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        result = ttr("validate", tmp_path)
    finally:
        locked.chmod(stat.S_IRWXU)
    assert_clean(result, 2)
    assert "locked:1:1: error TTR000" in result.stdout


def test_ttr004_a_file_over_the_size_limit_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with path.open("wb") as handle:
        handle.truncate(limits.MAX_MAP_BYTES + 1)  # sparse: no time spent writing it
    result = ttr("validate", path)
    assert_clean(result, 1)
    assert "error TTR004" in result.stdout


def test_ttr010_more_cities_than_the_limit_is_refused_at_the_cities_key() -> None:
    cities = "".join(f"  C{i}: {{x: {i}, y: 0}}\n" for i in range(limits.MAX_CITIES + 1))
    text = f"format: 1\nid: big\nname: Big\ncoordinates: plane\ncities:\n{cities}"
    with pytest.raises(DocumentError) as caught:
        parse_document(text, "big.yaml")
    assert caught.value.code == "TTR010"
    assert (caught.value.position.line, caught.value.position.column) == (5, 1)


def test_load_map_with_a_long_name_or_a_nul_byte_raises_the_map_error() -> None:
    from ttr_maps import InvalidMapError, load_map

    for name in ("a" * 300, "a\x00b.yaml"):
        with pytest.raises(InvalidMapError):
            load_map(name)


# ---------------------------------------------------------------- records


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_replay_refuses_broken_records_in_one_line(record: Path) -> None:
    from ttr_core.engine.record import RecordError, read_record

    with pytest.raises(RecordError):
        read_record(record)
    result = ttr("replay", record)
    assert_clean(result, 2)
    assert len(result.stderr.strip().splitlines()) == 1


def test_replay_map_option_does_not_print_a_non_map_file(tmp_path: Path) -> None:
    secret = tmp_path / "notes.txt"
    secret.write_text("password: " + "s3cr3t-" * 40 + "\n", encoding="utf-8")
    record = tmp_path / "game.json"
    assert_clean(ttr("play", "iran", "--bots", "random,random", "--record", record), 0)
    result = ttr("replay", record, "--map", secret)
    assert_clean(result, 2)
    assert result.stderr.count("s3cr3t-") < 10


def test_ctrl_c_in_a_bots_only_game_saves_the_record(tmp_path: Path, monkeypatch) -> None:
    import ttr_core.bots

    real_make_bot = ttr_core.bots.make_bot
    moves = {"count": 0}

    class InterruptedBot:
        """A real bot, interrupted as if Ctrl-C arrived during its 30th move."""

        def __init__(self, bot: object) -> None:
            self.bot = bot

        def act(self, view: object) -> object:
            moves["count"] += 1
            if moves["count"] == 30:
                raise KeyboardInterrupt
            return self.bot.act(view)  # type: ignore[attr-defined]

    monkeypatch.setattr(
        ttr_core.bots, "make_bot", lambda *a, **k: InterruptedBot(real_make_bot(*a, **k))
    )
    record = tmp_path / "game.json"
    result = CliRunner().invoke(
        app, ["play", "iran", "--bots", "greedy,random", "--record", str(record)]
    )
    assert result.exit_code == 130, result.output
    data = json.loads(record.read_text(encoding="utf-8"))
    assert len(data["actions"]) >= 29 and data["result"] is None
    assert ttr("replay", record).returncode == 0


def test_the_play_prompt_survives_long_lines_bad_bytes_and_a_closed_stdin(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    lines = b"9" * 5000 + b"\n" + b"\xff\xfe\n" + b"1" * 2_000_000 + b"\nquit\n"
    result = ttr(
        "play",
        "iran",
        "--human",
        "0",
        "--record",
        record,
        stdin=None,
        input=lines.decode("latin-1"),
    )
    assert_clean(result, 1)
    assert "at most 1,000 characters" in result.stdout and record.exists()
    closed = subprocess.run(
        f"exec {TTR} play iran --human 0 --record {tmp_path / 'closed.json'} <&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
    )
    assert_clean(closed, 1)
    assert (tmp_path / "closed.json").exists()


# ---------------------------------------------------------------- output errors


@pytest.mark.parametrize(
    "command",
    [["validate"], ["validate", "--list-checks"], ["stats", "iran"], ["--help"]],
    ids=lambda c: " ".join(c),
)
def test_standard_output_on_a_full_disk_is_one_line_and_exit_2(command: list[str]) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [str(TTR), *command],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=TIMEOUT,
            cwd=ROOT,
        )
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        "ttr: cannot write to standard output: No space left on device"
    )


def test_a_reader_that_goes_away_is_not_an_error() -> None:
    # Standard output's reader left on purpose (`| head`): ttr stops printing and
    # exits as its work says (cli/app.py, docs/ci.md), without a word.
    for command, code in (("stats europe", 0), ("validate maps tests/data/hostile", 2)):
        line = f"{TTR} {command} | head -c 10 > /dev/null; exit ${{PIPESTATUS[0]}}"
        result = subprocess.run(
            ["bash", "-c", line], capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT
        )
        assert result.returncode == code, result.stderr
        assert "Traceback" not in result.stderr and "pipe" not in result.stderr


def test_output_paths_that_are_not_regular_files_are_never_replaced(tmp_path: Path) -> None:
    assert_clean(ttr("validate", "maps/iran.yaml", "-o", "/dev/full"), 2)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    target = tmp_path / "report.txt"
    target.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(target.name)
    assert_clean(ttr("validate", "maps/iran.yaml", "-o", link), 0)
    assert link.is_symlink() and "Checked 1 file" in target.read_text()
    long_name = tmp_path / ("a" * 300 + ".png")
    for command in (["preview", "iran", "-o"], ["stats", "iran", "--plot"], ["validate", "-o"]):
        result = ttr(*command, long_name)
        assert_clean(result, 2)
        assert "too long" in result.stderr.lower()
    assert_clean(ttr("new", "x", "-o", long_name), 2)
    assert_clean(ttr("play", "iran", "--record", long_name), 2)
    assert_clean(ttr("validate", long_name), 2)


# ---------------------------------------------------------------- the whole matrix (slow)


def _map_commands(tmp_path: Path) -> Iterator[tuple[str, list[str | Path]]]:
    yield "validate", ["validate"]
    yield "fix --check", ["fix", "--check"]
    yield "stats", ["stats"]
    yield "stats json", ["stats", "-f", "json"]
    yield "preview", ["preview", "-o", tmp_path / "out.png"]
    yield "play", ["play", "--bots", "random,random,random"]
    yield "fix", ["fix"]  # last: it may repair the file (tab_in_flow.yaml)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MAP_EXPECTATIONS))
def test_every_command_on_every_corpus_map(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    shutil.copy(HOSTILE / name, path)
    original = path.read_bytes()
    validate_code, _ = MAP_EXPECTATIONS[name]
    for label, command in _map_commands(tmp_path):
        started = time.perf_counter()
        result = ttr(*command[:1], path, *command[1:])
        print(f"{name} {label}: {time.perf_counter() - started:.2f} s")
        output = result.stdout + result.stderr
        assert "Traceback" not in output, (label, output)
        if label == "validate":
            assert result.returncode == validate_code
        elif label.startswith("fix"):
            assert result.returncode in (0, 1, 2)
        else:  # a map with errors cannot be played, drawn or measured: exit 2
            assert result.returncode == (0 if validate_code == 0 else 2), (label, output)
        if name != "tab_in_flow.yaml" or label != "fix":
            assert path.read_bytes() == original, label
