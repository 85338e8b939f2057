"""Print-and-play PDF (ttr_maps.render.pdf, `ttr print`), read back with pypdf."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.model import Map
from ttr_maps.render.pdf import PAPERS, _page, print_map, print_plan, tile_grid

runner = CliRunner()
MM_PER_POINT = 25.4 / 72

SMALL = """\
format: 1
id: small
name: Small Print
rules: europe
coordinates: plane
cities:
  Aberdeen: {x: 0, y: 0}
  Bree: {x: 2, y: 0}
  Carn: {x: 5, y: 0}
  Dunmore: {x: 4, y: 2}
routes:
  - {between: [Aberdeen, Bree], length: 2, color: [red, blue]}
  - {between: [Bree, Carn], length: 3, color: gray, tunnel: true}
  - {between: [Carn, Dunmore], length: 2, color: green, ferry: 1}
  - {between: [Bree, Dunmore], length: 4, color: white}
tickets:
  - {between: [Aberdeen, Carn], value: 5}
  - {between: [Aberdeen, Dunmore], value: 6}
  - {between: [Bree, Carn], value: 3, long: true}
layout:
  board: {width: 30.0, height: 20.0}
  cities:
    Aberdeen: {x: 3.0, y: 4.0}
    Bree: {x: 12.0, y: 4.0}
    Carn: {x: 24.0, y: 4.0}
    Dunmore: {x: 21.0, y: 16.0}
"""


def small_map() -> Map:
    return Map.from_data(yaml.safe_load(SMALL))


def geographic_data() -> dict:
    """The small map without its layout: drawn from its coordinates."""
    data = yaml.safe_load(SMALL)
    del data["layout"]
    return data


def page_mm(page) -> tuple[float, float]:
    box = page.mediabox
    return (round(float(box.width) * MM_PER_POINT), round(float(box.height) * MM_PER_POINT))


def test_r3_pdf_has_assembly_tiles_track_tickets_train_cards_and_rules(tmp_path: Path):
    out = tmp_path / "game.pdf"
    pages = print_map(small_map(), out, paper="A4")
    reader = PdfReader(out)
    grid = tile_grid((300.0, 200.0), "A4")
    train_pages = math.ceil(110 / 16)
    assert len(reader.pages) == pages == 1 + grid.columns * grid.rows + 1 + 1 + train_pages + 1
    for page in reader.pages:
        assert page_mm(page) in {(210, 297), (297, 210)}
    texts = [page.extract_text() for page in reader.pages]
    tiles = texts[1 : 1 + grid.columns * grid.rows]
    assert "A1: row A of" in tiles[0]
    board_text = " ".join(tiles)
    for city in ("Aberdeen", "Bree", "Carn", "Dunmore"):
        assert city in board_text  # labels are real text
    track = texts[1 + len(tiles)]
    assert "Scoring track" in track and "100" in track and "57" in track
    tickets = texts[2 + len(tiles)]
    assert "to Carn" in tickets and "to Dunmore" in tickets
    assert "5" in tickets and "6" in tickets and "long ticket" in tickets
    cards = " ".join(texts[3 + len(tiles) : 3 + len(tiles) + train_pages])
    assert cards.count("locomotive (wild)") == 14
    assert cards.count("orange") == 12
    assert "rules summary" in texts[-1] and "R10" in texts[-1] and "stations" in texts[-1]


@pytest.mark.parametrize(("paper", "per_page"), [("A4", 9), ("Letter", 9), ("A3", 16)])
def test_ticket_cards_are_63_by_88_mm_and_fill_the_page(paper, per_page):
    from ttr_maps.render.pdf import TICKET_MM, _card_grid

    slots = _card_grid(paper, TICKET_MM)
    assert len(slots) == per_page
    width, height = PAPERS[paper]
    for x, y in slots:
        assert x >= 0 and x + 63 <= width and y >= 0 and y + 88 <= height


def test_board_tiles_cover_the_board_at_real_size_with_overlap():
    grid = tile_grid((958.0, 772.0), "A4")
    step_w, step_h = grid.step_mm
    assert (grid.columns - 1) * step_w + grid.area_mm[0] >= 958
    assert (grid.rows - 1) * step_h + grid.area_mm[1] >= 772
    assert grid.area_mm[0] - step_w == 10


def test_board_width_scales_the_board_and_the_tile_count():
    small = print_plan(small_map(), "A3")
    big = print_plan(small_map(), "A3", board_width_cm=90)
    assert round(small.grid.board_mm[0]) == 300  # the layout's board, 30 cm wide
    assert round(big.grid.board_mm[0]) == 900
    assert big.grid.columns * big.grid.rows > small.grid.columns * small.grid.rows


def test_a_map_without_a_layout_is_planned_80_cm_wide():
    plan = print_plan(Map.from_data(geographic_data()), "A4")
    assert round(plan.grid.board_mm[0]) == 800


@pytest.mark.parametrize("paper", list(PAPERS))
def test_pages_have_the_papers_size(paper):
    width, height = PAPERS[paper]
    for landscape in (False, True):
        figure = _page(paper, landscape)
        size = (round(figure.get_figwidth() * 25.4, 1), round(figure.get_figheight() * 25.4, 1))
        assert size == ((height, width) if landscape else (width, height))


def test_cli_prints_a_map_without_a_layout_on_letter_with_labels_as_text(tmp_path: Path):
    """The whole command, once: paper by name, the board drawn from geography, real text."""
    path = tmp_path / "geo.yaml"
    path.write_text(yaml.safe_dump(geographic_data()), encoding="utf-8")
    out = tmp_path / "game.pdf"
    result = runner.invoke(
        app, ["print", str(path), "-o", str(out), "--paper", "letter", "--board-width", "15"]
    )
    assert result.exit_code == 0, result.output
    assert "Letter pages" in result.output
    reader = PdfReader(out)
    assert page_mm(reader.pages[-1]) == (216, 279)
    texts = [page.extract_text() for page in reader.pages]
    assert "Board 15.0 ×" in texts[0]
    track = next(i for i, text in enumerate(texts) if "Scoring track" in text)
    tiles = " ".join(texts[1:track])
    assert all(city in tiles for city in ("Aberdeen", "Bree", "Carn", "Dunmore"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--paper", "B5"], "use one of A4, A3, Letter"),
        (["--board-width", "3"], "choose 10 to 500 cm"),
        (["--board-width", "0"], "choose 10 to 500 cm"),
    ],
)
def test_cli_print_bad_options_are_clear_errors_and_write_nothing(tmp_path, args, message):
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    out = tmp_path / "game.pdf"
    result = runner.invoke(app, ["print", str(path), "-o", str(out), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert not out.exists()


def test_cli_print_refuses_a_non_pdf_output(tmp_path):
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    result = runner.invoke(app, ["print", str(path), "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "must be a .pdf" in result.output
