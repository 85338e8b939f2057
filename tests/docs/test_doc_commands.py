"""Docs that run (issue 41): every command shown in a fenced `sh` or `console` block
of README.md and docs/*.md, run as a reader would, in the order the page gives them,
in an empty folder of its own (one per page: a page's commands build on each other).

A command runs as written, except where this file says otherwise, for a reason it
states:

- `FILLED`: a synopsis (`ttr probe MAP [--wagons 45] …`) runs with its
  placeholders filled;
- `SETUP`: what a page takes for granted before its first command (a map of your
  own in `maps/`, a git repository), made first: the placeholders filled;
- `SIZED`: a command as written takes minutes (20,000 games); it runs with a
  smaller count, everything else as written;
- `NOT_RUN`: installs, the test suite itself, benchmarks (their own command), a
  server that runs until stopped, a Ray cluster that is not here.

A command passes when it exits with the status the page documents (`EXITS`, else
0) and prints no traceback. The default suite checks that these tables name only
commands the pages show (so they cannot go stale) and that every page's commands
are accounted for; `-m slow` runs them all.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from testdata import DOCS, ROOT

PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
#: Fenced blocks whose lines are commands (`console`: the lines after `$ `).
_BLOCK = re.compile(r"^```(sh|console|shell|bash)\n(.*?)^```", re.S | re.M)
#: A trailing remark: two spaces or more, then `# `.
_REMARK = re.compile(r"\s{2,}#\s.*$")


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    text: str


def page_commands(page: Path) -> list[Command]:
    """The commands of a page, in order: continued lines (`\\`) joined, trailing
    remarks dropped."""
    text = page.read_text(encoding="utf-8")
    commands = []
    for block in _BLOCK.finditer(text):
        first_line = text.count("\n", 0, block.start(2)) + 1
        pending, start = "", 0
        for offset, raw in enumerate(block.group(2).splitlines()):
            line = raw.strip()
            if block.group(1) == "console":
                if not line.startswith("$ ") and not pending:
                    continue
                line = line.removeprefix("$ ")
            if not pending and (not line or line.startswith("#")):
                continue
            start = start if pending else first_line + offset
            if line.endswith("\\"):
                pending += line[:-1].strip() + " "
                continue
            commands.append(Command(page.name, start, _REMARK.sub("", pending + line)))
            pending = ""
    return commands


#: What a page takes for granted, made in its folder before its first command.
SETUP = {
    # A map of one's own in maps/, laid out in a folder as a project has it.
    "print.md": (
        "mkdir -p maps && ttr new mine -o maps/mine.yaml"
        ' --cities "Oslo, Bergen, Trondheim, Stavanger, Kristiansand, Lillehammer, Göteborg"'
    ),
    # docs/ci.md compares the map of a branch with the one on main: a repository.
    "ci.md": (
        "git init -q -b main && mkdir -p maps && ttr new lusitania -o maps/lusitania.yaml"
        " && git add maps && git -c user.name=t -c user.email=t@t commit -qm start"
    ),
    # Two maps to compare, and two report folders (small ones).
    "play-testing.md": (
        "cp {maps}/iran.yaml old.yaml && cp {maps}/iran.yaml new.yaml"
        " && ttr simulate iran --games 6 --players 2 --bots greedy --seed 1 --out before/"
        " && ttr simulate iran --games 6 --players 2 --bots greedy --seed 2 --out after/"
    ),
    # The reference decks the tests hold.
    "tickets.md": "ln -s {root}/tests tests",
}

#: Synopses (`MAP`, `[--option …]`): run with their placeholders filled.
FILLED = {
    "ttr tickets MAP [--format text|json] [--plot FILE.png] [--samples 300] [--seed 0]": (
        "ttr tickets iran --format json --plot deck.png --samples 300 --seed 0"
    ),
    "ttr tickets suggest MAP --count N [--long K] [--seed S] [--profile north_america|europe] "
    "[--iterations 3000] [--write]": (
        "ttr tickets suggest iran --count 30 --seed 1 --profile north_america --iterations 300"
    ),
    "ttr probe MAP [--wagons 45] [--sweep 30..50] [--values FILE.json] [--node-limit N] "
    "[--time-limit S] [--format text|json]": "ttr probe iran --wagons 45 --format json",
}

#: Commands that would take minutes as written: the same with smaller counts.
SIZED = {
    "ttr simulate north_america --games 2000 --players 4 --bots greedy,route-focus,"
    "destination-hungry,long-route --seed 1 --out report/": "--games 2000=--games 8",
    "ttr compare old.yaml new.yaml -n 500 --players 4 --bots greedy,route-focus --seed 1": (
        "-n 500=-n 6"
    ),
    "ttr ladder north_america --bots random,greedy,one-step,search --games 40 "
    "--json ladder.json --png ladder.png": "--games 40=--games 2",
    "ttr ladder europe --bots greedy,route-focus,long-route,one-step --players 3 --games 30": (
        "--games 30=--games 2"
    ),
    "ttr compare /tmp/lusitania-main.yaml maps/lusitania.yaml -n 400 --players 4 --bots "
    "greedy,route-focus,destination-hungry,long-route --seed 1 -f html -o compare.html": (
        "-n 400=-n 8"
    ),
    "ttr simulate europe --games 20000 --executor ray --out report/": "--games 20000=--games 8",
}

_BENCHMARK = "a benchmark: its own command, minutes of CPU (README, Benchmarks)"
_INSTALL = "installs packages (.ci/run installs from scratch)"
_SERVER = "a server that runs until stopped (tests/serve drive it in Chromium)"
#: Commands not run here, and why.
NOT_RUN = {
    "sh scripts/install-chromium && python3 -m venv .venv && .venv/bin/pip install -e "
    "'.[test,cluster]' && .venv/bin/ttr validate": _INSTALL,
    ".venv/bin/python -m pytest -q": "the test suite itself",
    "pip install ttr-mapkit": _INSTALL,
    "pip install 'ttr-mapkit[places]'": _INSTALL,
    "pip install 'ttr-mapkit[cluster]'": _INSTALL,
    ".venv/bin/pip install -e '.[accel]' && .venv/bin/python -m ttr_core.accel": (
        "builds the compiled modules (CI's second run does)"
    ),
    ".venv/bin/ttr serve": _SERVER,
    ".venv/bin/ttr serve my_map.yaml --port 8080": _SERVER,
    ".venv/bin/ttr serve --host 0.0.0.0": _SERVER,
    ".venv/bin/ttr serve --data ./tables": _SERVER,
    "ttr simulate europe --games 20000 --executor ray --address auto --out report/": (
        "needs a running Ray cluster"
    ),
    "ttr simulate europe --games 20000 --executor ray --address ray://head:10001 "
    "--out report/": "needs a Ray cluster at head:10001",
}

#: Commands not run here by how they start, and why.
NOT_RUN_STARTS = {".venv/bin/python benchmarks/": _BENCHMARK}


def not_run(text: str) -> str | None:
    """Why a command is not run here, or None."""
    starts = (why for start, why in NOT_RUN_STARTS.items() if text.startswith(start))
    return NOT_RUN.get(text) or next(starts, None)


#: Documented exit statuses other than 0.
EXITS = {
    # A person's seat at a terminal with nothing to read: the game stops (exit 1).
    "ttr play north_america": 1,
    "ttr play europe --players 4": 1,
    "ttr play north_america --bots human,human,greedy": 1,
    "ttr play iran --human 1 --bots one-step --record game.json --picture board.png": 1,
    "ttr play --resume game.json --record later.json": 1,
}


def _all_commands() -> list[Command]:
    return [command for page in PAGES for command in page_commands(page)]


def _sized(text: str) -> str:
    if text in FILLED:
        return FILLED[text]
    change = SIZED.get(text)
    if change is None:
        return text
    old, new = change.split("=", 1)
    assert old in text, (text, old)
    return text.replace(old, new)


def test_the_tables_name_only_commands_the_pages_show() -> None:
    shown = {command.text for command in _all_commands()}
    for table in (FILLED, SIZED, NOT_RUN, EXITS):
        assert set(table) <= shown, set(table) - shown
    assert set(SETUP) <= {page.name for page in PAGES}
    assert not set(SIZED) & set(NOT_RUN) and not set(FILLED) & (set(SIZED) | set(NOT_RUN))


def test_the_pages_show_commands_and_most_of_them_run() -> None:
    commands = _all_commands()
    run = [c for c in commands if not not_run(c.text)]
    assert len(commands) >= 50 and len(run) >= len(commands) // 2


@pytest.mark.slow
@pytest.mark.parametrize(
    "page",
    [p for p in PAGES if any(c.text not in NOT_RUN for c in page_commands(p))],
    ids=lambda p: p.name,
)
def test_every_command_of_a_page_runs_as_written(page: Path, tmp_path: Path) -> None:
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    # `.venv/bin/ttr` as the README writes it: this environment's.
    (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    failures = []
    setup = SETUP.get(page.name)
    if setup is not None:
        ran = _run(setup.format(maps=ROOT / "maps", root=ROOT), tmp_path, env)
        assert ran.returncode == 0, f"setup of {page.name}: {ran.stdout[-2000:]}"
    for command in page_commands(page):
        if not_run(command.text):
            continue
        ran = _run(_sized(command.text), tmp_path, env)
        expected = EXITS.get(command.text, 0)
        if ran.returncode != expected or "Traceback" in ran.stdout:
            failures.append(
                f"{command.page}:{command.line}: {command.text}\n  exit {ran.returncode} "
                f"(documented {expected}): {ran.stdout[-600:]}"
            )
    assert not failures, "\n".join(failures)


def _run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=900,
    )
