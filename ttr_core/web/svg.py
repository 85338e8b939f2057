"""The board as SVG for the web table and the editor, drawn from
`ttr_maps.geometry.board.board_geometry`, the same geometry the matplotlib
previews draw: city positions, every car of every route, doubles side by side,
tunnels, ferry locomotive spaces, and labels placed by the same label placement
(`ttr_maps.geometry.labels`).

Board coordinates have y up; SVG has y down, so every y is negated. Every route is a
group `<g class="route" data-route="ID" data-title="A–B track 2">` (the title in the
table's words) holding one `<polygon class="car">` per car; every city a group
`<g class="city" data-city="NAME">`. The page colours and wires them up; names are
escaped for HTML (`html.escape`).

>>> from ttr_maps import load_map
>>> svg = board_svg(load_map("north_america"))
>>> svg.startswith("<svg"), svg.count("data-route="), svg.count('class="city"')
(True, 100, 36)
"""

from __future__ import annotations

from html import escape

from ttr_core.table.texts import route_title
from ttr_maps.geometry.board import BoardGeometry, LabelBox, LabelFont, board_geometry, bounds_of
from ttr_maps.geometry.labels import place_labels
from ttr_maps.geometry.projection import Point
from ttr_maps.model import Map

#: City dot radius and label type size, in wagon spaces.
CITY_RADIUS = 0.2
LABEL_SIZE = 0.42
#: SVG units per wagon space (the page's CSS sizes strokes in these).
SPACE_UNITS = 100
#: Room around the board, in wagon spaces.
MARGIN = 0.8
#: Average width of a label character, in font sizes (the page sets them bold).
CHAR_WIDTH = 0.72


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
    """The whole board as one `<svg>` element (no XML prolog: it is inlined in the page).

    Labels are placed by the one label placement (`ttr_maps.geometry.labels.place_labels`)
    for the page's type size, inside the board's frame, and drawn centred in their
    boxes."""
    board = board_geometry(game_map)
    space = board.space
    scale = _Scale(space)
    radius = CITY_RADIUS * space
    pad = MARGIN * space
    labels = board_labels(game_map, board)
    x_min, y_min, x_max, y_max = bounds_of(board.positions, board.routes, labels)
    width, height = x_max - x_min + 2 * pad, y_max - y_min + 2 * pad
    view_box = " ".join(
        (scale.x(x_min - pad), scale.y(y_max + pad), scale.length(width), scale.length(height))
    )
    parts = [svg_start(view_box, game_map.name), '<g class="routes">']
    routes = {route.id: route for route in game_map.routes}
    for index, shape in enumerate(board.routes.values()):
        title = route_title(routes[shape.id], game_map)
        kinds = " tunnel" if shape.tunnel else ""
        kinds += " ferry" if shape.locomotives else ""
        a, b = shape.cities
        parts.append(
            f'<g class="route{kinds}" data-index="{index}" data-route="{escape(shape.id)}" '
            f'data-title="{escape(title)}" '
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
    for city in game_map.cities:
        x, y = board.positions[city.name]
        lx, ly = labels[city.name].centre
        parts.append(
            city_mark(
                city.name,
                (scale.x(x), scale.y(y), scale.length(radius)),
                (scale.x(lx), scale.y(ly), scale.length(LABEL_SIZE * space)),
            )
        )
    parts.append("</g></svg>")
    return "".join(parts)


def svg_start(view_box: str, label: str) -> str:
    """The opening `<svg>` tag of a board: its view box, its label for screen
    readers (escaped), the page's wagon-space unit."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{view_box}" '
        f'role="img" aria-label="{escape(label)}" style="--space:{SPACE_UNITS}px">'
    )


def city_mark(name: str, dot: tuple[str, str, str], label: tuple[str, str, str]) -> str:
    """A city's group: its dot (x, y, radius) and its name (x, y, type size) centred
    there, in SVG units written as the caller formats them; the name escaped."""
    name = escape(name)
    (cx, cy, r), (tx, ty, size) = dot, label
    return (
        f'<g class="city" data-city="{name}"><circle cx="{cx}" cy="{cy}" r="{r}"/>'
        f'<text x="{tx}" y="{ty}" text-anchor="middle" '
        f'dominant-baseline="central" font-size="{size}">{name}</text></g>'
    )


def board_labels(game_map: Map, board: BoardGeometry) -> dict[str, LabelBox]:
    """The page's label boxes (board units): its type (`LABEL_SIZE`, bold) placed by
    the one label placement around dots of `CITY_RADIUS`, inside the cars' frame (a
    laid-out board's own bounds hold its printed labels, which the page does not draw)."""
    space = board.space
    pad = MARGIN * space
    x_min, y_min, x_max, y_max = bounds_of(board.positions, board.routes, {})
    return place_labels(
        game_map,
        board,
        LabelFont.sized(LABEL_SIZE * space, char_width=CHAR_WIDTH),
        dot_radius=CITY_RADIUS * space,
        frame=(x_min - pad, y_min - pad / 2, x_max + pad, y_max + pad / 2),
    )
