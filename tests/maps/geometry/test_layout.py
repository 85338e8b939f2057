"""Board layouts (`ttr layout`): equal cars, no overlaps, stored in the file."""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps import load_map
from ttr_maps.authoring.layout_file import layout_yaml, with_layout
from ttr_maps.checks.validate import validate_file
from ttr_maps.geometry.board import CAR_LENGTH, CAR_WIDTH, board_geometry, overlaps
from ttr_maps.geometry.layout import compute_layout
from ttr_maps.geometry.readability import readability
from ttr_maps.model import BoardLayout, Map

MAPS = Path(__file__).resolve().parents[2] / "data" / "maps"

runner = CliRunner()

GRID = """\
# A comment that must survive --write.
# A tiny board: too small for the design warnings to mean anything.
# ttr: disable=TTR151,TTR152,TTR352,TTR353,TTR451
format: 1
id: grid
name: Grid
coordinates: plane
cities:
  A: {x: 0, y: 0}
  B: {x: 1, y: 0}
  C: {x: 2, y: 0}
  D: {x: 0, y: 1}
  E: {x: 1, y: 1}
  "F: far": {x: 2, y: 1.1}
routes:
  - {between: [A, B], length: 2, color: [red, blue]}
  - {between: [B, C], length: 2, color: green}
  - {between: [A, D], length: 1, color: gray}
  - {between: [B, E], length: 2, color: white}  # keep me
  - {between: [C, "F: far"], length: 2, color: black}
  - {between: [D, E], length: 2, color: [pink, yellow]}
  - {between: [E, "F: far"], length: 2, color: orange}
  - {between: [A, E], length: 2, color: gray}
tickets:
  - {between: [A, "F: far"], value: 4}
"""


def grid_map() -> Map:
    return Map.from_data(yaml.safe_load(GRID))


def laid_out(game_map: Map) -> Map:
    return dataclasses.replace(game_map, layout=compute_layout(game_map).layout)


def test_layout_of_a_small_map_is_readable_with_equal_cars():
    game_map = laid_out(grid_map())
    board = board_geometry(game_map)
    assert overlaps(board) == []
    assert readability(game_map, board).is_readable
    for shape in board.routes.values():
        for car in shape.cars:
            assert math.isclose(car.length, CAR_LENGTH, rel_tol=0.02)
            assert math.isclose(car.width, CAR_WIDTH, rel_tol=0.02)


def test_double_tracks_of_a_layout_run_side_by_side_without_touching():
    board = board_geometry(laid_out(grid_map()))
    for first, second in (("A-B/1", "A-B/2"), ("D-E/1", "D-E/2")):
        for car_a, car_b in zip(board.routes[first].cars, board.routes[second].cars, strict=True):
            assert CAR_WIDTH < math.dist(car_a.centre, car_b.centre) < 2 * CAR_WIDTH


def test_layout_keeps_every_city_on_the_board_and_reports_displacement():
    game_map = grid_map()
    result = compute_layout(game_map)
    width, height = result.layout.size
    for x, y in result.layout.cities.values():
        assert 0 < x < width and 0 < y < height
    assert set(result.displacement) == {c.name for c in game_map.cities}
    assert result.car_size_spread < 0.02


def test_a_crowded_geographic_drawing_overlaps_and_the_layout_does_not():
    crowded = Map.from_data(
        {
            "format": 1,
            "id": "crowded",
            "name": "Crowded",
            "coordinates": "plane",
            "cities": {
                "A": {"x": 0, "y": 0},
                "B": {"x": 4, "y": 0},
                "C": {"x": 0, "y": 0.3},
                "D": {"x": 4, "y": 0.3},
            },
            "routes": [
                {"between": ["A", "B"], "length": 3, "color": "red"},
                {"between": ["C", "D"], "length": 3, "color": "blue"},
                {"between": ["A", "C"], "length": 1, "color": "green"},
                {"between": ["B", "D"], "length": 1, "color": "white"},
            ],
            "tickets": [],
        }
    )
    assert overlaps(board_geometry(crowded), frozenset({"car-car"}))
    assert overlaps(board_geometry(laid_out(crowded))) == []


def test_layout_yaml_reads_back_as_the_same_layout():
    layout = compute_layout(grid_map()).layout
    data = yaml.safe_load(GRID + layout_yaml(layout))
    assert Map.from_data(data).layout == layout


def test_with_layout_replaces_the_section_and_keeps_the_rest_byte_for_byte():
    first = BoardLayout(cities={"A": (1.0, 1.0)}, size=(10.0, 5.0))
    second = BoardLayout(cities={"A": (2.0, 2.0)}, size=(10.0, 5.0))
    text = with_layout(GRID, first)
    assert text.startswith(GRID)
    again = with_layout(text + "# trailing comment\n", second)
    assert again.startswith(GRID) and "x: 2.0" in again and "x: 1.0" not in again
    assert again.endswith("# trailing comment\n")


def test_cli_layout_write_stores_a_layout_that_validates_clean(tmp_path: Path):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID, encoding="utf-8")
    result = runner.invoke(app, ["layout", str(path), "--write"])
    assert result.exit_code == 0, result.output
    assert "readable: every rule" in result.output and "car size spread: 0.00 %" in result.output
    text = path.read_text(encoding="utf-8")
    assert text.startswith(GRID) and "layout:" in text
    assert validate_file(path).problems == []
    assert load_map(str(path)).layout is not None


def test_cli_layout_without_write_changes_nothing(tmp_path: Path):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID, encoding="utf-8")
    result = runner.invoke(app, ["layout", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == GRID


def test_cli_layout_lays_out_afresh_a_map_whose_old_layout_misses_a_city(tmp_path: Path):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID + "layout:\n  cities:\n    A: {x: 0, y: 0}\n", encoding="utf-8")
    assert {p.code for p in validate_file(path).errors} == {"TTR502"}
    result = runner.invoke(app, ["layout", str(path), "--write"])
    assert result.exit_code == 0, result.output
    assert validate_file(path).problems == []


def test_cli_layout_of_a_broken_map_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text(GRID.replace("length: 2, color: green", "length: 2, color: teal"), "utf-8")
    result = runner.invoke(app, ["layout", str(path), "--write"])
    assert result.exit_code == 2
    assert "TTR204" in result.output and "not a playable map" in result.output
    assert "layout:" not in path.read_text(encoding="utf-8")


REAL_MAPS = ["europe", "north_america", "iran", str(MAPS / "nordic.yaml"), str(MAPS / "japan.yaml")]


@pytest.mark.parametrize("map_id", REAL_MAPS, ids=lambda m: Path(m).stem)
def test_stored_layouts_of_real_maps_are_readable_with_equal_cars(map_id):
    """The bundled maps and the test maps of real regions carry layouts made by
    `ttr layout`: validate finds nothing on their boards (TTR551-TTR557)."""
    game_map = load_map(map_id)
    assert game_map.layout is not None
    board = board_geometry(game_map)
    found = readability(game_map, board)
    assert found.is_readable, found
    for shape in board.routes.values():
        for car in shape.cars:
            assert math.isclose(car.length, CAR_LENGTH, rel_tol=0.02)


@pytest.mark.slow
@pytest.mark.parametrize("map_id", REAL_MAPS, ids=lambda m: Path(m).stem)
def test_layout_of_real_maps_from_scratch_is_readable(map_id):
    game_map = dataclasses.replace(load_map(map_id), layout=None)
    result = compute_layout(game_map)
    assert result.readability.is_readable, result.readability
    assert result.car_size_spread < 0.02


def _written_in_another_order(path: Path, seed: int) -> Map:
    """The map of `path` without its layout, its cities and routes shuffled and
    about half its routes' two cities swapped (the same map, written otherwise)."""
    import random

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data.pop("layout", None)
    draw = random.Random(seed)
    cities = list(data["cities"].items())
    draw.shuffle(cities)
    routes = [dict(route) for route in data["routes"]]
    draw.shuffle(routes)
    for route in routes:
        if draw.random() < 0.5:
            route["between"] = list(reversed(route["between"]))
    return Map.from_data({**data, "cities": dict(cities), "routes": routes})


@pytest.mark.slow
@pytest.mark.parametrize("map_id", ["europe", "north_america"])
def test_a_map_written_in_another_order_gets_the_same_readable_board(map_id):
    """The layout works on the map in play order: shuffled, the same map gets the
    same board to the last digit (cities, bends and labels), readable."""
    from ttr_maps.io.bundled import bundled_map_path

    written = dataclasses.replace(load_map(map_id), layout=None)
    shuffled = _written_in_another_order(bundled_map_path(map_id), seed=7)
    assert [c.name for c in shuffled.cities] != [c.name for c in written.cities]
    first, second = compute_layout(written), compute_layout(shuffled)
    assert second.readability.is_readable, second.readability
    assert second.layout.cities == first.layout.cities
    assert second.layout.labels == first.layout.labels
    assert {frozenset(p): first.layout.bend(*p) for p in first.layout.bends} == {
        frozenset(p): second.layout.bend(*p) for p in first.layout.bends
    }
    assert {frozenset(p) for p in second.layout.bends} == {frozenset(p) for p in first.layout.bends}


def test_a_broken_stored_layout_is_caught_by_validate(tmp_path: Path):
    """A city dragged off by hand: its routes stop short of it (TTR552), one passes
    another city (TTR553), and the compass order flips (TTR555)."""
    from ttr_maps.io.bundled import bundled_map_path

    text = bundled_map_path("iran").read_text(encoding="utf-8")
    layout = load_map("iran").layout
    x, y = layout.cities["Tabriz"]
    moved = with_layout(
        text, dataclasses.replace(layout, cities={**layout.cities, "Tabriz": (x + 14.0, y)})
    )
    path = tmp_path / "iran.yaml"
    path.write_text(moved, encoding="utf-8")
    codes = {p.code for p in validate_file(path).problems}
    assert {"TTR552", "TTR555"} <= codes
    messages = [p.message for p in validate_file(path).problems if p.code == "TTR552"]
    assert any("Tabriz" in m for m in messages)


def test_preview_of_a_laid_out_board_keeps_labels_as_real_svg_text(tmp_path: Path):
    import xml.etree.ElementTree as ET

    from ttr_maps.render.draw import render_map

    game_map = laid_out(grid_map())
    out = render_map(game_map, tmp_path / "grid.svg", dpi=40)
    texts = {
        "".join(t.itertext())
        for t in ET.parse(out).getroot().iter("{http://www.w3.org/2000/svg}text")
    }
    assert {c.name for c in game_map.cities} <= texts


def test_ttr551_points_at_the_crowded_rhine_area_of_europe_drawn_from_geography(tmp_path: Path):
    from ttr_maps.io.bundled import bundled_map_path

    text = bundled_map_path("europe").read_text(encoding="utf-8")
    geographic = tmp_path / "europe.yaml"
    geographic.write_text(text.split("\nlayout:", 1)[0] + "\n", encoding="utf-8")
    found = {p.message for p in validate_file(geographic).problems if p.code == "TTR551"}
    assert any("Amsterdam–Frankfurt" in m and "Amsterdam–Essen" in m for m in found)
    # The stored layout mends that overlap.
    stored = validate_file(bundled_map_path("europe")).problems
    assert not [p for p in stored if "Amsterdam–Essen" in p.message and p.code == "TTR551"]


def test_pinned_cities_never_move_and_are_stored_as_pins(tmp_path: Path):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID, encoding="utf-8")
    assert runner.invoke(app, ["layout", str(path), "--write"]).exit_code == 0
    first = load_map(str(path)).layout
    # The designer drags E by hand and pins it there.
    x, y = first.cities["E"]
    dragged = dataclasses.replace(first, cities={**first.cities, "E": (x + 1.5, y - 1.0)})
    path.write_text(with_layout(GRID, dragged), encoding="utf-8")
    result = runner.invoke(app, ["layout", str(path), "--pin", "E", "--write"])
    assert result.exit_code in (0, 1), result.output
    assert "1 pinned" in result.output
    second = load_map(str(path)).layout
    assert second.cities["E"] == (x + 1.5, y - 1.0)
    assert second.pinned == {"E"}
    assert "pin: true" in path.read_text(encoding="utf-8")
    # Pinned in the file: a plain --write keeps it where it is.
    assert runner.invoke(app, ["layout", str(path), "--write"]).exit_code in (0, 1)
    assert load_map(str(path)).layout.cities["E"] == (x + 1.5, y - 1.0)


@pytest.mark.slow
def test_laid_out_again_a_readable_board_stays_readable():
    """The Nordic map's stored board (one city pinned by hand) is readable; laid
    out again from it, the board stays readable: the stored one, hand-made bends
    and labels included, is kept when the new one would break more rules."""
    result = runner.invoke(app, ["layout", str(MAPS / "nordic.yaml")])
    assert result.exit_code == 0, result.output
    assert "readable: every rule" in result.output and "1 pinned" in result.output


def test_a_map_whose_routes_changed_is_laid_out_again_keeping_its_pins(tmp_path: Path):
    """A route made double after the layout was stored: laid out again, the new
    track is drawn beside the old one, the pinned city stays exactly, and the
    board is readable."""
    path = tmp_path / "grid.yaml"
    path.write_text(GRID, encoding="utf-8")
    assert runner.invoke(app, ["layout", str(path), "--write"]).exit_code == 0
    assert runner.invoke(app, ["layout", str(path), "--pin", "A", "--write"]).exit_code == 0
    pinned_at = load_map(str(path)).layout.cities["A"]
    text = path.read_text(encoding="utf-8")
    changed = text.replace("{between: [B, C], length: 2, color: green}",
                           "{between: [B, C], length: 2, color: [green, red]}")  # fmt: skip
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    result = runner.invoke(app, ["layout", str(path), "--write"])
    assert result.exit_code == 0, result.output
    game_map = load_map(str(path))
    assert game_map.layout.cities["A"] == pinned_at and game_map.layout.pinned == {"A"}
    board = board_geometry(game_map)
    assert len([s for s in board.routes.values() if set(s.cities) == {"B", "C"}]) == 2
    assert readability(game_map, board).is_readable


def test_compute_layout_keeps_every_pinned_city_exactly():
    game_map = grid_map()
    before = compute_layout(game_map).layout
    pinned = {"A", "F: far"}
    after = compute_layout(game_map, before, pinned).layout
    for name in pinned:
        assert after.cities[name] == before.cities[name]
    assert after.pinned == pinned


def test_cli_pin_of_an_unknown_city_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "grid.yaml"
    path.write_text(GRID, encoding="utf-8")
    assert runner.invoke(app, ["layout", str(path), "--write"]).exit_code == 0
    before = path.read_text(encoding="utf-8")
    result = runner.invoke(app, ["layout", str(path), "--pin", "Ee", "--write"])
    assert result.exit_code == 2
    assert "not a city" in result.output and "did you mean 'E'" in result.output
    assert path.read_text(encoding="utf-8") == before


def test_cli_pin_without_a_stored_layout_keeps_the_city_at_its_scaled_geographic_place(
    tmp_path: Path,
):
    """Issue 38: `ttr layout --write --pin CITY` on a map with no layout yet (as
    docs/print.md shows first): the pinned cities stay at their scaled geographic
    places (so as far apart as geography puts them, at the board's scale), are
    stored as pins, and stay exactly there when laid out again."""
    from ttr_maps.geometry.projection import projected_positions

    path = tmp_path / "grid.yaml"
    path.write_text(GRID, encoding="utf-8")
    result = runner.invoke(app, ["layout", str(path), "--write", "--pin", "A", "--pin", "F: far"])
    assert result.exit_code == 0, result.output
    assert "2 pinned" in result.output
    assert "pinned at their scaled geographic place (no stored place): A, F: far" in result.output
    stored = load_map(str(path)).layout
    assert stored.pinned == {"A", "F: far"}
    geography = projected_positions(grid_map())
    scale = compute_layout(grid_map()).scale  # the board's: pins do not change it
    for axis in (0, 1):
        board_apart = stored.cities["F: far"][axis] - stored.cities["A"][axis]
        geo_apart = scale * (geography["F: far"][axis] - geography["A"][axis])
        assert board_apart == pytest.approx(geo_apart, abs=0.015)  # stored to 0.01 cm
    assert validate_file(path).problems == []
    again = runner.invoke(app, ["layout", str(path), "--write"])
    assert again.exit_code == 0, again.output
    assert "no stored place" not in again.output
    after = load_map(str(path)).layout
    assert {n: after.cities[n] for n in ("A", "F: far")} == {
        n: stored.cities[n] for n in ("A", "F: far")
    }


def test_compute_layout_pins_a_city_missing_from_the_stored_layout_beside_the_others():
    """A city added to a laid-out map and pinned at once: it stays at its scaled
    geographic place moved onto the stored board (by the mean offset of the cities
    placed there), the cities placed there pinned too stay exactly."""
    game_map = grid_map()
    before = compute_layout(game_map).layout
    without_e = dataclasses.replace(
        before, cities={n: p for n, p in before.cities.items() if n != "E"}
    )
    after = compute_layout(game_map, without_e, {"A", "E"}).layout
    assert after.cities["A"] == before.cities["A"] and after.pinned == {"A", "E"}
    # E lands near where the fresh layout put it: geography moved onto the board.
    assert math.dist(after.cities["E"], before.cities["E"]) < 3 * CAR_LENGTH


TIGHT = """\
# ttr: disable=TTR151,TTR152,TTR251,TTR352,TTR353,TTR451
format: 1
id: tight
name: Tight
coordinates: plane
cities:
  P: {x: 0, y: 0}
  Q: {x: 1, y: 0.2}
  R: {x: 2, y: 0}
routes:
  - {between: [P, Q], length: 1, color: red}
  - {between: [Q, R], length: 1, color: blue}
  - {between: [P, R], length: 6, color: green}
tickets:
  - {between: [P, R], value: 2}
"""


def test_cli_layout_names_the_routes_it_could_not_lay_out(tmp_path: Path):
    """P–R needs six cars' length while P–Q–R gives two: no layout chains all
    three, and the layout names the routes it sacrificed (which of the three is
    its choice), with validate's codes, and exits 1."""
    path = tmp_path / "tight.yaml"
    path.write_text(TIGHT, encoding="utf-8")
    result = runner.invoke(app, ["layout", str(path), "--write"])
    assert result.exit_code == 1, result.output
    assert "not readable" in result.output
    assert "could not lay out the routes between" in result.output
    named = result.output.split("could not lay out the routes between: ")[1].splitlines()[0]
    assert set(named.split("; ")) <= {"P and Q", "P and R", "Q and R"} and named
    assert "TTR55" in result.output
    # Written all the same, and validate reports the same board problems (and the
    # design warnings a three-city map raises, which are not the layout's).
    board_codes = {f"TTR55{k}" for k in range(1, 8)}
    reported = {code for code in board_codes if code in result.output}
    codes = {p.code for p in validate_file(path).problems} & board_codes
    assert codes and codes == reported


def test_the_repair_of_a_map_no_layout_chains_measures_a_bounded_number_of_bows(monkeypatch):
    """The repair's budget counts its work, not only its trials (issue 38: the push
    and compound changes measured some 24,000 bows on this three-city map, 25 s of
    CPU): each of its three runs (the repair, and the repair inside each escape)
    measures at most the bows its work budget pays for, and one change more."""
    import ttr_maps.geometry.layout as layout

    measured = 0
    trouble = layout._trouble

    def counted(*args, **kwargs):
        nonlocal measured
        measured += 1
        return trouble(*args, **kwargs)

    monkeypatch.setattr(layout, "_trouble", counted)
    game_map = Map.from_data(yaml.safe_load(TIGHT))
    result = compute_layout(game_map)
    assert not result.readability.is_readable
    groups = len(game_map.parallel_routes)
    budget = layout._NUDGE_BUDGET_MAX * layout._WORK_PER_TRIAL * groups / layout._MEASURE_COST
    one_change = 2 * (3 * 2 * len(layout._PROFILES) + 2)  # two routes, every bow of each
    runs = 1 + len(layout._ESCAPE_WEIGHTS)
    assert 0 < measured <= runs * (budget + one_change)


def test_cli_layout_refuses_a_map_past_its_size_with_a_message(tmp_path: Path):
    """Past `MAX_LAYOUT_CITIES` no readable board is reached in minutes: the map is
    refused at once (exit 2, the size and the limit named), as preview refuses."""
    from ttr_maps.io.limits import MAX_LAYOUT_CITIES

    count = MAX_LAYOUT_CITIES + 1
    lines = ["format: 1", "id: row", "name: Row", "coordinates: plane", "cities:"]
    lines += [f"  T{i}: {{x: {3 * i}, y: {i % 2}}}" for i in range(count)]
    lines.append("routes:")
    lines += [f"  - {{between: [T{i}, T{i + 1}], length: 2, color: red}}" for i in range(count - 1)]
    lines.append("tickets: []")
    path = tmp_path / "row.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = path.read_bytes()
    result = runner.invoke(app, ["layout", str(path), "--write"])
    assert result.exit_code == 2, result.output
    assert f"{count:,} cities" in result.output
    assert f"at most {MAX_LAYOUT_CITIES:,}" in result.output
    assert path.read_bytes() == before


def _cited_routes(output: str, name: str) -> list[tuple[int, str, str]]:
    """(line, city, city) of every route problem `ttr layout` printed for file `name`."""
    found = re.finditer(rf"{name}:(\d+):\d+: warning TTR55\d route (\w)–(\w)", output)
    return [(int(m[1]), m[2], m[3]) for m in found]


def test_cli_layout_cites_true_lines_with_and_without_write(tmp_path: Path):
    """Issue 38: an old layout section in the middle of the file, shorter than the
    new one, and routes after it. Without --write the messages cite the lines of the
    file as it is; with --write, of the file as written: each cited line is the
    route's own entry. `ttr layout` does not advise running itself again (it has
    just run); validate, on the written file, does."""
    old_section = "layout:\n  cities:\n    P: {x: 0, y: 0}\n"
    text = TIGHT.replace("routes:\n", old_section + "routes:\n")
    path = tmp_path / "tight.yaml"
    path.write_text(text, encoding="utf-8")

    def assert_true_lines(output: str, lines: list[str]) -> None:
        cited = _cited_routes(output, "tight.yaml")
        assert cited, output
        for line, a, b in cited:
            assert line <= len(lines), (line, len(lines))
            assert re.search(rf"between: \[({a}, {b}|{b}, {a})\]", lines[line - 1]), lines[line - 1]

    dry = runner.invoke(app, ["layout", str(path)])
    assert dry.exit_code == 1, dry.output
    assert path.read_text(encoding="utf-8") == text
    assert_true_lines(dry.output, text.splitlines())
    written = runner.invoke(app, ["layout", str(path), "--write"])
    assert written.exit_code == 1, written.output
    new_text = path.read_text(encoding="utf-8")
    assert len(new_text.splitlines()) > len(text.splitlines())  # the routes moved down
    assert_true_lines(written.output, new_text.splitlines())
    assert "ttr layout MAP --write" not in dry.output + written.output
    assert any("ttr layout MAP --write" in p.message for p in validate_file(path).problems)


def _label_on_car(game_map: Map, city: str, route: str) -> BoardLayout:
    """The layout of `game_map` with the label of `city` put on the middle of the
    first car of `route` (as a designer's slip of the mouse would)."""
    car = board_geometry(game_map).routes[route].cars[0]
    x, y = game_map.layout.cities[city]
    offset = (round(car.centre[0] - x, 2), round(car.centre[1] - y, 2))
    return dataclasses.replace(game_map.layout, labels={**game_map.layout.labels, city: offset})


def test_cli_layout_dry_run_places_a_problem_of_the_new_section_at_its_city(tmp_path: Path):
    """A problem in the layout section not written (a label, here) is cited at its
    city's entry under `cities:` of the file as it is (the section is not there);
    as written, at the city's line of the new section."""
    from ttr_maps.authoring.layout_file import laid_out_text

    covered = _label_on_car(laid_out(grid_map()), "A", "A-E")
    laid = laid_out_text(GRID, "grid.yaml", covered)
    mine = [p for p in laid.unwritten if "label of A" in p.message]
    assert mine and {p.code for p in mine} <= {"TTR556", "TTR557"}
    lines = GRID.splitlines()
    for problem in mine:
        assert lines[problem.position.line - 1].startswith("  A: {x: 0")
    new_lines = laid.text.splitlines()
    for problem in (p for p in laid.problems if "label of A" in p.message):
        assert new_lines[problem.position.line - 1].startswith("    A: {x: ")


def test_ttr557_advises_a_label_offset_that_covers_nothing(tmp_path: Path):
    """Issue 38: TTR557's advice is a fix that works: the label offset it names,
    stored as it says, leaves the label covering nothing and by its dot; `ttr
    layout` does not advise running itself again."""
    covered = _label_on_car(laid_out(grid_map()), "E", "B-E")
    path = tmp_path / "grid.yaml"
    path.write_text(with_layout(GRID, covered), encoding="utf-8")
    found = [p for p in validate_file(path).problems if p.code == "TTR557"]
    assert [p for p in found if "label of E covers cars of route B–E" in p.message], found
    advice = re.search(r"move the label to \[(-?[\d.]+), (-?[\d.]+)\]", found[0].message)
    assert advice, found[0].message
    advised = (float(advice[1]), float(advice[2]))
    assert advised != covered.labels["E"]
    fixed = dataclasses.replace(covered, labels={**covered.labels, "E": advised})
    path.write_text(with_layout(GRID, fixed), encoding="utf-8")
    assert validate_file(path).problems == []
