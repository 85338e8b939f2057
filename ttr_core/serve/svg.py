"""The board as SVG for the web table, drawn from `ttr_maps.board.board_geometry`,
the same geometry the matplotlib previews draw: city positions, every car of every
route, doubles side by side, tunnels, ferry locomotive spaces.

Board coordinates have y up; SVG has y down, so every y is negated. Every route is a
group `<g class="route" data-route="ID">` holding one `<polygon class="car">` per car;
every city a group `<g class="city" data-city="NAME">`. The page colours and wires
them up; names are escaped for HTML (`html.escape`).

>>> from ttr_maps import load_map
>>> svg = board_svg(load_map("north_america"))
>>> svg.startswith("<svg"), svg.count('class="route '), svg.count('class="city"')
(True, 100, 36)
"""

from __future__ import annotations

from html import escape

from ttr_maps.board import board_geometry
from ttr_maps.geometry import Point
from ttr_maps.model import Map

#: City dot radius and label size, in wagon spaces.
CITY_RADIUS = 0.2
LABEL_SIZE = 0.42
#: Room around the board, in wagon spaces (labels stick out to the side).
MARGIN = 0.8


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _points(points: tuple[Point, ...]) -> str:
    return " ".join(f"{_number(x)},{_number(-y)}" for x, y in points)


def board_svg(game_map: Map) -> str:
    """The whole board as one `<svg>` element (no XML prolog: it is inlined in the page)."""
    board = board_geometry(game_map)
    space = board.space
    x_min, y_min, x_max, y_max = board.bounds
    pad = MARGIN * space
    width, height = x_max - x_min + 2 * pad, y_max - y_min + 2 * pad
    view_box = " ".join(_number(v) for v in (x_min - pad, -y_max - pad, width, height))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{view_box}" '
        f'role="img" aria-label="{escape(game_map.name)}" '
        f'style="--space:{_number(space)}px">',
        '<g class="routes">',
    ]
    for index, shape in enumerate(board.routes.values()):
        kinds = " tunnel" if shape.tunnel else ""
        kinds += " ferry" if shape.locomotives else ""
        a, b = shape.cities
        parts.append(
            f'<g class="route{kinds}" data-index="{index}" data-route="{escape(shape.id)}" '
            f'data-a="{escape(a)}" data-b="{escape(b)}" data-length="{shape.length}" '
            f'data-color="{escape(shape.color)}" data-ferry="{shape.locomotives}">'
        )
        for car in shape.cars:
            loco = " loco-space" if car.is_locomotive_space else ""
            parts.append(
                f'<polygon class="car car-{escape(shape.color)}{loco}" '
                f'points="{_points(car.corners)}"/>'
            )
            if car.is_locomotive_space:
                cx, cy = car.centre
                parts.append(
                    f'<circle class="loco-mark" cx="{_number(cx)}" cy="{_number(-cy)}" '
                    f'r="{_number(board.car_width * 0.28)}"/>'
                )
        parts.append("</g>")
    parts.append('</g><g class="cities">')
    radius, label = CITY_RADIUS * space, LABEL_SIZE * space
    for city in game_map.cities:
        x, y = board.positions[city.name]
        name = escape(city.name)
        parts.append(
            f'<g class="city" data-city="{name}">'
            f'<circle cx="{_number(x)}" cy="{_number(-y)}" r="{_number(radius)}"/>'
            f'<text x="{_number(x + radius * 1.4)}" y="{_number(-y - radius * 1.2)}" '
            f'font-size="{_number(label)}">{name}</text></g>'
        )
    parts.append("</g></svg>")
    return "".join(parts)
