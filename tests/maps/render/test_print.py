"""Print-and-play PDF (ttr_maps.render.pdf, `ttr print`), read back with pypdf."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import yaml
from pypdf import PdfReader
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.model import Map
from ttr_maps.render.pdf import (
    PAPERS,
    _page,
    _ticket_cards,
    _train_cards,
    card_sheets,
    print_map,
    print_plan,
    tile_grid,
)

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


def test_r3_pdf_has_assembly_tiles_track_cards_with_backs_and_rules(tmp_path: Path):
    out = tmp_path / "game.pdf"
    pages = print_map(small_map(), out, paper="A4")
    reader = PdfReader(out)
    plan = print_plan(small_map(), "A4")
    tiles_count = len(plan.grid.printed)
    sheets = card_sheets([*_ticket_cards(small_map(), plan.board), *_train_cards()], "A4")
    assert len(reader.pages) == pages == 1 + tiles_count + 1 + 2 * len(sheets) + 1
    for page in reader.pages:
        assert page_mm(page) in {(210, 297), (297, 210)}
    texts = [page.extract_text() for page in reader.pages]
    tiles = texts[1 : 1 + tiles_count]
    assert "A1: row A of" in tiles[0]
    board_text = " ".join(tiles)
    for city in ("Aberdeen", "Bree", "Carn", "Dunmore"):
        assert city in board_text  # labels are real text
    track = texts[1 + len(tiles)]
    assert "Scoring track" in track and "100" in track and "57" in track
    faces = texts[2 + len(tiles) : -1 : 2]
    backs = texts[3 + len(tiles) : -1 : 2]
    assert "to Carn" in faces[0] and "to Dunmore" in faces[0]
    assert "5" in faces[0] and "6" in faces[0] and "long ticket" in faces[0]
    # Face down, a regular ticket, a long one (E4) and a train card differ.
    assert backs[0].count("DESTINATION") == 2 and backs[0].count("LONG ROUTE") == 1
    assert " ".join(faces).count("locomotive (wild)") == 14
    assert " ".join(faces).count("orange") == 12
    assert " ".join(backs).count("TRAIN CARD") == 110
    assert "rules summary" in texts[-1] and "R10" in texts[-1] and "stations" in texts[-1]


@pytest.mark.parametrize(("paper", "per_page"), [("A4", 9), ("Letter", 9), ("A3", 16)])
def test_ticket_cards_are_63_by_88_mm_and_fill_the_page(paper, per_page):
    tickets = [*_ticket_cards(many_tickets(3 * per_page + 1), print_plan(small_map(), paper).board)]
    sheets = card_sheets(tickets, paper)
    assert [len(sheet) for sheet in sheets] == [per_page, per_page, per_page, 1]
    width, height = PAPERS[paper]
    for sheet in sheets:
        for card, (x, y) in sheet:
            assert card.size_mm == (63.0, 88.0)
            assert x >= 0 and x + 63 <= width and y >= 0 and y + 88 <= height


def test_train_cards_fill_the_last_ticket_sheet_before_a_new_page():
    board = print_plan(small_map(), "A4").board
    cards = [*_ticket_cards(many_tickets(1), board), *_train_cards()]
    first = card_sheets(cards, "A4")[0]
    sizes = [card.size_mm for card, _ in first]
    # One ticket row (room for 3), then rows of train cards down the rest of the page.
    rows = (297 - 2 * 5 - 88) // 68
    assert sizes[0] == (63.0, 88.0) and sizes.count((44.0, 68.0)) == 4 * rows
    bottom = min(y for _, (_, y) in first)
    assert bottom < 68 + 5  # no room left for another row of train cards
    for (card, (x, y)), (other, (u, v)) in itertools.combinations(first, 2):
        (w, h), (w2, h2) = card.size_mm, other.size_mm
        assert x + w <= u + 1e-9 or u + w2 <= x + 1e-9 or y + h <= v + 1e-9 or v + h2 <= y + 1e-9


@pytest.mark.slow  # 2-6 s; the default suite keeps the room's main test
def test_tiles_that_would_carry_nothing_are_left_out_and_named(tmp_path: Path):
    data = yaml.safe_load(SMALL)
    # An L-shaped board: everything along the bottom and up the left side.
    data["layout"] = {
        "board": {"width": 70.0, "height": 60.0},
        "cities": {
            "Aberdeen": {"x": 3.0, "y": 56.0},
            "Bree": {"x": 3.0, "y": 4.0},
            "Carn": {"x": 66.0, "y": 4.0},
            "Dunmore": {"x": 40.0, "y": 4.0},
        },
    }
    game_map = Map.from_data(data)
    grid = print_plan(game_map, "A4").grid
    assert grid.empty and (0, grid.columns - 1) in grid.empty
    out = tmp_path / "l.pdf"
    pages = print_map(game_map, out, paper="A4")
    texts = [page.extract_text() for page in PdfReader(out).pages]
    names = [grid.name(*t) for t in sorted(grid.empty)]
    assert f"left out, nothing on them: {', '.join(names)}" in texts[0].replace("\n", " ")
    # The page's own line breaks are breaks, not escapes (the escaping is per line).
    assert "\\x0a" not in texts[0]
    assert "\nCut each tile along its frame" in texts[0]
    assert texts[0].count("(left out)") == len(names)
    printed = [t for t in texts[1:] if ": row " in t]
    assert len(printed) == grid.columns * grid.rows - len(grid.empty)
    assert not any(t.startswith(f"{name}: row") for name in names for t in printed)
    assert pages == len(texts)


def many_tickets(count: int) -> Map:
    data = yaml.safe_load(SMALL)
    data["tickets"] = [{"between": ["Aberdeen", "Carn"], "value": 5}] * count
    return Map.from_data(data)


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


@pytest.mark.slow  # 2-6 s; the default suite keeps the room's main test
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
