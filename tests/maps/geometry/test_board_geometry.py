"""Board geometry (ttr_maps.geometry.board): one source of positions and cars for every renderer."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from ttr_maps import load_map
from ttr_maps.geometry.board import board_geometry
from ttr_maps.io.bundled import bundled_map_ids
from ttr_maps.model import Map


def plane_map(routes: list[dict], cities: dict | None = None) -> Map:
    return Map.from_data(
        {
            "format": 1,
            "id": "b",
            "name": "B",
            "rules": "europe",
            "coordinates": "plane",
            "cities": cities
            or {"A": {"x": 0, "y": 0}, "B": {"x": 6, "y": 0}, "C": {"x": 6, "y": 4}},
            "routes": routes,
            "tickets": [],
        }
    )


@pytest.mark.parametrize("map_id", bundled_map_ids())
def test_every_route_has_one_car_per_space_and_every_city_a_position(map_id):
    game_map = load_map(map_id)
    board = board_geometry(game_map)
    assert list(board.routes) == [r.id for r in game_map.routes]
    assert set(board.positions) == {c.name for c in game_map.cities}
    for route in game_map.routes:
        shape = board.routes[route.id]
        assert len(shape.cars) == route.length
        assert shape.cities == route.cities and shape.color == route.color
    x0, y0, x1, y1 = board.bounds
    for shape in board.routes.values():
        for car in shape.cars:
            assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in car.corners)


def test_cars_are_rectangles_whose_centre_and_angle_match_their_corners():
    board = board_geometry(plane_map([{"between": ["A", "C"], "length": 3, "color": "red"}]))
    for car in board.routes["A-C"].cars:
        c = car.corners
        assert math.isclose(math.dist(c[0], c[2]), math.dist(c[1], c[3]))  # equal diagonals
        assert math.isclose(car.length, math.dist(c[2], c[3]))
        mean = (sum(p[0] for p in c) / 4, sum(p[1] for p in c) / 4)
        assert math.dist(mean, car.centre) < 1e-9
        direction = math.degrees(math.atan2(c[1][1] - c[0][1], c[1][0] - c[0][0]))
        assert math.isclose(direction, car.angle)
        assert car.length > car.width


def test_double_tracks_run_side_by_side_in_track_order():
    board = board_geometry(
        plane_map([{"between": ["A", "B"], "length": 2, "color": ["red", "blue"]}])
    )
    first, second = board.routes["A-B/1"], board.routes["A-B/2"]
    assert first.track == 1 and second.track == 2
    # A-B lies on y = 0: the tracks sit on either side, one car width or more apart.
    assert all(car.centre[1] < 0 for car in first.cars)
    assert all(car.centre[1] > 0 for car in second.cars)
    gap = min(car.centre[1] for car in second.cars) - max(car.centre[1] for car in first.cars)
    assert gap >= board.routes["A-B/1"].cars[0].width


def test_r_e2_ferry_marks_its_first_cars_as_locomotive_spaces():
    board = board_geometry(
        plane_map([{"between": ["B", "C"], "length": 3, "color": "gray", "ferry": 2}])
    )
    shape = board.routes["B-C"]
    assert shape.locomotives == 2
    assert [car.is_locomotive_space for car in shape.cars] == [True, True, False]


def test_importing_board_does_not_import_matplotlib_or_numpy():
    code = (
        "import sys, ttr_maps.geometry.board\n"
        "assert 'matplotlib' not in sys.modules and 'numpy' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
