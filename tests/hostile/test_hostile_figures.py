"""Hostile input, round four (issue 40): names that matplotlib would read as
mathtext (`$\\frac{$`, `$x^$`, `\\undefined{}`, `a$b$c`) in every figure ttr draws.
Each figure is written, shows the names as they are written, and nothing prints a
traceback (`ttr_maps.text.for_matplotlib`, and the net under it,
`ttr_maps.render.figure.text_safe_figure_class`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from testdata import HOSTILE
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.render.figure import new_figure, save_figure

runner = CliRunner()
NAMES = HOSTILE / "tex_names.yaml"


@pytest.fixture
def board(tmp_path: Path) -> Path:
    path = tmp_path / "tex.yaml"
    shutil.copy(NAMES, path)
    return path


def _figure_commands(board: Path, out: Path) -> dict[str, list[str]]:
    return {
        "preview png": ["preview", str(board), "-o", str(out / "p.png")],
        "preview svg with tickets": ["preview", str(board), "-o", str(out / "p.svg"), "--tickets"],
        "preview pdf with a path": [
            "preview", str(board), "-o", str(out / "p.pdf"), "--ticket", "$x^$:$$",
        ],
        "stats --plot": ["stats", str(board), "--plot", str(out / "s.png")],
        "tickets --plot": ["tickets", str(board), "--samples", "10", "--plot", str(out / "t.png")],
        "play --picture": [
            "play", str(board), "--bots", "random,greedy", "--seed", "1",
            "--picture", str(out / "pic.png"),
        ],
    }  # fmt: skip


def _heavy_commands(board: Path, out: Path) -> dict[str, list[str]]:
    return {
        "print": ["print", str(board), "-o", str(out / "g.pdf")],
        "ladder --png": [
            "ladder", str(board), "--bots", "greedy,random", "-n", "4", "-j", "1",
            "--png", str(out / "l.png"),
        ],
        "simulate": [
            "simulate", str(board), "--games", "4", "--players", "2", "--bots",
            "greedy,random", "--out", str(out / "sim"), "-j", "1", "--baseline", "off",
        ],
    }  # fmt: skip


def _draws_every_figure(commands: dict[str, list[str]]) -> None:
    for name, args in commands.items():
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (name, result.output[-2000:])
        assert result.exception is None or isinstance(result.exception, SystemExit), name


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_tex_names_in_every_quick_figure(board: Path, tmp_path: Path) -> None:
    _draws_every_figure(_figure_commands(board, tmp_path))
    assert (tmp_path / "p.pdf").stat().st_size > 0


@pytest.mark.slow
def test_tex_names_in_the_print_the_ladder_and_the_simulation_report(board, tmp_path):
    _draws_every_figure(_heavy_commands(board, tmp_path))
    assert len(list((tmp_path / "sim").glob("*.png"))) >= 5


@pytest.mark.parametrize("text", ["$x^$", "$\\frac{$ and $y$", "\\undefined{$}$", "$$"])
def test_mathtext_matplotlib_cannot_read_is_drawn_as_written(tmp_path: Path, text: str) -> None:
    figure = new_figure((3, 2))
    ax = figure.add_subplot()
    label = ax.set_title(text)
    ax.set_yticks([0], [text])
    figure.tight_layout()
    save_figure(figure, tmp_path / "x.svg")
    assert not label.get_parse_math()  # shown as written
    svg = (tmp_path / "x.svg").read_text(encoding="utf-8")
    assert "<text" in svg or "<path" in svg


def test_good_mathtext_of_our_own_is_still_mathtext(tmp_path: Path) -> None:
    figure = new_figure((3, 2))
    label = figure.add_subplot().set_title("$\\chi^2$ of the fit")
    save_figure(figure, tmp_path / "x.png")
    assert label.get_parse_math()
