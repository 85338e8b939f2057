"""The board as SVG for the web table, drawn from `ttr_maps.board.board_geometry`,
the same geometry the matplotlib previews draw: city positions, every car of every
route, doubles side by side, tunnels, ferry locomotive spaces.

Board coordinates have y up; SVG has y down, so every y is negated. Every route is a
group `<g class="route" data-route="ID">` holding one `<polygon class="car">` per car;
every city a group `<g class="city" data-city="NAME">`. The page colours and wires
them up; names are escaped for HTML (`html.escape`).

>>> from ttr_maps import load_map
>>> svg = board_svg(load_map("north_america"))
>>> svg.startswith("<svg"), svg.count("data-route="), svg.count('class="city"')
(True, 100, 36)
"""

from __future__ import annotations

from html import escape

from ttr_maps.board import BoardGeometry, board_geometry
from ttr_maps.geometry import Point
from ttr_maps.model import Map

#: City dot radius and label size, in wagon spaces.
CITY_RADIUS = 0.2
LABEL_SIZE = 0.42
#: SVG units per wagon space (the page's CSS sizes strokes in these).
SPACE_UNITS = 100
#: Room around the board, in wagon spaces.
MARGIN = 0.8
#: Average width of a label character, in font sizes (for placing labels).
CHAR_WIDTH = 0.72
#: Where a label may go around its city: (dx, dy) in city radii, text anchor; y up.
_LABEL_SPOTS: tuple[tuple[float, float, str], ...] = (
    (1.4, -0.5, "start"),
    (-1.4, -0.5, "end"),
    (0.0, 1.5, "middle"),
    (0.0, -3.3, "middle"),
    (1.1, 1.1, "start"),
    (-1.1, 1.1, "end"),
    (1.1, -2.4, "start"),
    (-1.1, -2.4, "end"),
)

Box = tuple[float, float, float, float]


class _Scale:
    """Board units to SVG units: one wagon space is `SPACE_UNITS` long whatever the
    map's units (kilometres or plane units), and y points down."""

    def __init__(self, space: float) -> None:
        self.factor = SPACE_UNITS / space

    def length(self, value: float) -> str:
        return f"{value * self.factor:.1f}".removesuffix(".0")

    def x(self, value: float) -> str:
        return self.length(value)

    def y(self, value: float) -> str:
        return self.length(-value)

    def points(self, points: tuple[Point, ...]) -> str:
        return " ".join(f"{self.x(x)},{self.y(y)}" for x, y in points)


def board_svg(game_map: Map) -> str:
    """The whole board as one `<svg>` element (no XML prolog: it is inlined in the page)."""
    board = board_geometry(game_map)
    space = board.space
    scale = _Scale(space)
    x_min, y_min, x_max, y_max = board.bounds
    pad = MARGIN * space
    width, height = x_max - x_min + 2 * pad, y_max - y_min + 2 * pad
    view_box = " ".join(
        (scale.x(x_min - pad), scale.y(y_max + pad), scale.length(width), scale.length(height))
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{view_box}" '
        f'role="img" aria-label="{escape(game_map.name)}" '
        f'style="--space:{SPACE_UNITS}px">',
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
                f'points="{scale.points(car.corners)}"/>'
            )
            if car.is_locomotive_space:
                cx, cy = car.centre
                parts.append(
                    f'<circle class="loco-mark" cx="{scale.x(cx)}" cy="{scale.y(cy)}" '
                    f'r="{scale.length(board.car_width * 0.28)}"/>'
                )
        parts.append("</g>")
    parts.append('</g><g class="cities">')
    radius, size = CITY_RADIUS * space, LABEL_SIZE * space
    labels = _place_labels(game_map, board, radius, size)
    for city in game_map.cities:
        x, y = board.positions[city.name]
        lx, ly, anchor = labels[city.name]
        name = escape(city.name)
        parts.append(
            f'<g class="city" data-city="{name}">'
            f'<circle cx="{scale.x(x)}" cy="{scale.y(y)}" r="{scale.length(radius)}"/>'
            f'<text x="{scale.x(lx)}" y="{scale.y(ly)}" text-anchor="{anchor}" '
            f'font-size="{scale.length(size)}">{name}</text></g>'
        )
    parts.append("</g></svg>")
    return "".join(parts)


def _place_labels(
    game_map: Map, board: BoardGeometry, radius: float, size: float
) -> dict[str, tuple[float, float, str]]:
    """Greedy label placement (like the previews'): busiest cities first, each at the
    spot around it that overlaps least with labels placed before, city dots and cars,
    and stays inside the board. Returns the text's anchor point (y up) and anchor."""
    dots = [(x - radius, y - radius, x + radius, y + radius) for x, y in board.positions.values()]
    cars = [
        (
            min(p[0] for p in car.corners),
            min(p[1] for p in car.corners),
            max(p[0] for p in car.corners),
            max(p[1] for p in car.corners),
        )
        for shape in board.routes.values()
        for car in shape.cars
    ]
    x_min, y_min, x_max, y_max = board.bounds
    inside = (x_min - MARGIN * board.space, y_min, x_max + MARGIN * board.space, y_max)
    degree: dict[str, int] = {}
    for route in game_map.routes:
        for name in route.cities:
            degree[name] = degree.get(name, 0) + 1
    placed: list[Box] = []
    spots: dict[str, tuple[float, float, str]] = {}
    for city in sorted(game_map.cities, key=lambda c: (-degree.get(c.name, 0), c.index)):
        x, y = board.positions[city.name]
        width = CHAR_WIDTH * size * len(city.name)
        best: tuple[float, tuple[float, float, str], Box] | None = None
        for dx, dy, anchor in _LABEL_SPOTS:
            lx, ly = x + dx * radius, y + dy * radius
            left = {"start": lx, "end": lx - width, "middle": lx - width / 2}[anchor]
            box = (left, ly - 0.2 * size, left + width, ly + 0.8 * size)
            score = (
                4 * _overlap(box, placed)
                + 3 * _overlap(box, dots)
                + 1.5 * _overlap(box, cars)
                + 20 * _outside(box, inside)
            )
            if best is None or score < best[0]:
                best = (score, (lx, ly, anchor), box)
            if score == 0:
                break
        assert best is not None
        spots[city.name] = best[1]
        placed.append(best[2])
    return spots


def _overlap(box: Box, boxes: list[Box]) -> float:
    """The area `box` shares with all of `boxes`."""
    x0, y0, x1, y1 = box
    total = 0.0
    for a0, b0, a1, b1 in boxes:
        w, h = min(x1, a1) - max(x0, a0), min(y1, b1) - max(y0, b0)
        if w > 0 and h > 0:
            total += w * h
    return total


def _outside(box: Box, frame: Box) -> float:
    """The area of `box` outside `frame` (roughly: width out times height)."""
    x0, y0, x1, y1 = box
    out = max(0.0, frame[0] - x0) + max(0.0, x1 - frame[2])
    up = max(0.0, frame[1] - y0) + max(0.0, y1 - frame[3])
    return out * (y1 - y0) + up * (x1 - x0)
