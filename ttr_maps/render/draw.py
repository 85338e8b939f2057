"""Map previews with matplotlib: cities, wagon cars, tickets, paths and heat.

Two levels, so a report can reuse the drawing:

- `render_map(game_map, path, ...)` draws a whole figure and writes it atomically
  as PNG, SVG or PDF (chosen by the file extension).
- `draw_map(ax, game_map, ...)` draws into an existing matplotlib `Axes`, e.g. one
  panel of a bigger figure of game results.

Everything is drawn where `ttr_maps.geometry.board.board_geometry` puts it (this module
computes no positions of its own), the same geometry the browser table, the print
PDF and the checks use, so what a designer sees is what the validator judged. Each
route is a track of `length` cars in its colour; parallel tracks run side by side.
Tunnels have dashed, hatched cars; on a ferry the first N cars carry a locomotive
dot (E2, E3).

SVG output names its elements: each route is a group `route:<route id>` holding one
path per car, each city dot is `city:<name>`, so tests and tools can count them.

matplotlib is imported inside the functions; importing this module stays cheap and
never touches pyplot or the global backend (figures get their own Agg canvas).

>>> output_format("board.svg")
'svg'
>>> parse_size("16x10")
(16.0, 10.0)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_maps.geometry.board import BoardGeometry, LabelBox, board_geometry
from ttr_maps.geometry.projection import Point
from ttr_maps.io.files import OutputPathError, atomic_target, check_output_path
from ttr_maps.model import GRAY, ROUTE_COLORS, Map, Route
from ttr_maps.text import for_matplotlib

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.cm import ScalarMappable
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

#: Output formats by file extension.
OUTPUT_FORMATS: Mapping[str, str] = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
DEFAULT_DPI = 110
#: Colormap of `route_heat` and `city_heat`: pale for 0, dark red for 1.
HEAT_CMAP = "YlOrRd"

#: Fill colour of the cars of each route colour. White and gray cars get a dark
#: edge like every car, so they stay visible on the white background.
CAR_FILL: Mapping[str, str] = {
    "red": "#d7301f",
    "orange": "#f28e1c",
    "yellow": "#f5d327",
    "green": "#2e9e44",
    "blue": "#2166ac",
    "pink": "#e57fbf",
    "black": "#1f1f1f",
    "white": "#ffffff",
    GRAY: "#a9a9a9",
}
CAR_EDGE = "#262626"
CITY_FILL = "#fdf6e3"
HIGHLIGHT_COLOR = "#00b4ff"
TICKET_COLOR = "#7b3294"

#: Type size of city labels in previews, in points: the least that reads well.
LABEL_POINTS = 8.0
#: Radius of a city marker on a board drawn from geography, in points (edge included).
_CITY_MARKER_RADIUS = 4.5
#: Fonts tried in order for each glyph; DejaVu Sans ships with matplotlib.
_FONT_PREFERENCE = (
    "DejaVu Sans",
    "Noto Sans",
    "Noto Sans Arabic",
    "Vazirmatn",
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "WenQuanYi Zen Hei",
    "Droid Sans Fallback",
    "Noto Sans Devanagari",
    "Noto Sans Thai",
    "FreeSans",
)


class PreviewError(ValueError):
    """A preview cannot be made as asked: unknown format, ticket, size or folder."""


class MissingGlyphsWarning(UserWarning):
    """Some characters have no glyph in any installed font; they show as boxes."""

    def __init__(self, characters: str):
        self.characters = characters
        super().__init__(
            f"no installed font has the characters {characters!r}; they are drawn as "
            "boxes (install a font that covers them, e.g. one of the Noto family)"
        )


@dataclass(frozen=True)
class MapDrawing:
    """What `draw_map` drew, for callers that lay out their own legend or colorbar."""

    legend_handles: tuple[Any, ...]
    #: Pass as `handler_map` to `Axes.legend` along with `legend_handles`.
    legend_handler_map: Mapping[Any, Any]
    heat_mappable: ScalarMappable | None = None
    #: Car polygons (corners in data coordinates) by route id.
    cars: Mapping[str, tuple[tuple[Point, ...], ...]] = field(default_factory=dict)
    #: The boxes city labels were drawn in (empty without labels), and their type size.
    labels: Mapping[str, LabelBox] = field(default_factory=dict)
    label_points: float = 0.0


# ---------------------------------------------------------------- parsing options


def output_format(path: str | Path) -> str:
    """The output format for a file name: 'png', 'svg' or 'pdf'.

    Raises `PreviewError` for any other extension.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in OUTPUT_FORMATS:
        known = ", ".join(OUTPUT_FORMATS)
        shown = suffix or "no extension"
        raise PreviewError(f"{path}: unknown output format ({shown}); use one of {known}")
    return OUTPUT_FORMATS[suffix]


def check_figure_path(path: str | Path) -> str:
    """The output format of a figure file (`output_format`), after checking that it
    can be written at `path` (`ttr_maps.io.files.check_output_path`). Raises
    `PreviewError`; call it before drawing, so a bad path fails at once."""
    fmt = output_format(path)
    try:
        check_output_path(path)
    except OutputPathError as error:
        raise PreviewError(str(error)) from None
    return fmt


def parse_size(text: str) -> tuple[float, float]:
    """A figure size in inches from 'WIDTHxHEIGHT', e.g. '16x10'."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        width, height = (float(p) for p in parts)
    except ValueError:
        raise PreviewError(f"size {text!r}: expected WIDTHxHEIGHT in inches, e.g. 16x10") from None
    if not (1 <= width <= 100 and 1 <= height <= 100):
        raise PreviewError(f"size {text!r}: width and height must be 1 to 100 inches")
    return (width, height)


def parse_ticket(game_map: Map, text: str) -> tuple[str, str]:
    """Two different city names from 'A:B', checked against the map.

    >>> from ttr_maps.model import Map
    >>> m = Map.from_data({"format": 1, "id": "t", "name": "T", "coordinates": "plane",
    ...     "cities": {"Oslo": {"x": 0, "y": 0}, "Bergen": {"x": 1, "y": 0}},
    ...     "routes": [], "tickets": []})
    >>> parse_ticket(m, "Oslo : Bergen")
    ('Oslo', 'Bergen')
    """
    from ttr_maps.spelling import did_you_mean

    parts = [p.strip() for p in text.split(":")]
    if len(parts) != 2 or not all(parts):
        raise PreviewError(f"ticket {text!r}: expected two cities as 'CITY:CITY'")
    for name in parts:
        if name not in game_map.city_index:
            hint = did_you_mean(name, game_map.city_index)
            raise PreviewError(f"ticket {text!r}: unknown city {name!r} on {game_map.id}{hint}")
    if parts[0] == parts[1]:  # as TTR302 says of a ticket in a map file
        raise PreviewError(f"ticket {text!r} joins {parts[0]} to itself; name two different cities")
    return (parts[0], parts[1])


def ticket_path(game_map: Map, text: str) -> list[str]:
    """The cities of one shortest path (R2) for a ticket written 'A:B'."""
    from ttr_maps.graph import shortest_city_path

    a, b = parse_ticket(game_map, text)
    path = shortest_city_path(game_map, a, b)
    if not path:
        raise PreviewError(f"ticket {text!r}: no route path joins {a} and {b}")
    return path


# ---------------------------------------------------------------- figures and files


def font_families() -> list[str]:
    """Installed fonts to try, in order; matplotlib falls back glyph by glyph."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    return [name for name in _FONT_PREFERENCE if name in installed] + ["sans-serif"]


def font_properties(size: float, weight: str = "normal") -> FontProperties:
    """Font for any text of a figure: DejaVu Sans first, then installed fallbacks."""
    from matplotlib.font_manager import FontProperties

    return FontProperties(family=font_families(), size=size, weight=weight)


def new_figure(size: tuple[float, float], dpi: float = DEFAULT_DPI) -> Figure:
    """A figure with its own Agg canvas: headless, and no pyplot global state."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, dpi=dpi, facecolor="white")
    FigureCanvasAgg(figure)
    return figure


def save_figure(figure: Figure, path: str | Path, *, dpi: float | None = None) -> Path:
    """Write a figure atomically: render into a temporary file next to `path`, then
    rename it over `path`, so readers never see half a file.

    The format comes from the extension (`output_format`). Text stays text in SVG
    (`<text>` elements) and PDF (embedded TrueType), so it can be selected and
    edited in Inkscape, except where a halo (path effect) draws it as outlines.
    """
    import matplotlib

    target = Path(path)
    fmt = check_figure_path(target)
    # No creation date in the metadata, so the same map gives the same file.
    metadata: dict[str, Any] = {"Software": "ttr"} if fmt == "png" else {"Date": None}
    try:
        with (
            matplotlib.rc_context({"svg.fonttype": "none", "pdf.fonttype": 42}),
            atomic_target(target) as temporary,
            _reporting_missing_glyphs(),
        ):
            figure.savefig(temporary, format=fmt, dpi=dpi or figure.dpi, metadata=metadata)
    except OSError as error:
        raise PreviewError(f"{target}: cannot write ({error.strerror or error})") from None
    return target


@contextmanager
def _reporting_missing_glyphs() -> Iterator[None]:
    """Turn matplotlib's one warning per missing glyph (per text, per draw) into a
    single `MissingGlyphsWarning` naming all the characters. Nested uses merge."""
    import re
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    missing: dict[str, None] = {}
    for warning in caught:
        message = warning.message
        found = re.search(r"Glyph (\d+) .*missing from", str(message))
        if isinstance(message, MissingGlyphsWarning):
            missing.update(dict.fromkeys(message.characters))
        elif found:
            missing[chr(int(found.group(1)))] = None
        else:
            warnings.warn_explicit(message, warning.category, warning.filename, warning.lineno)
    if missing:
        warnings.warn(MissingGlyphsWarning("".join(missing)), stacklevel=3)


def render_map(
    game_map: Map,
    path: str | Path,
    *,
    title: str | None = None,
    size: tuple[float, float] | None = None,
    dpi: float | None = None,
    highlight_path: Sequence[str] | None = None,
    show_tickets: bool = False,
    route_owner_colors: Mapping[str, str] | None = None,
    owner_names: Mapping[str, str] | None = None,
    route_heat: Mapping[str, float] | None = None,
    city_heat: Mapping[str, float] | None = None,
    heat_label: str = "heat",
    city_markers: Mapping[str, str] | None = None,
    city_marker_label: str = "station (owner's colour)",
) -> Path:
    """Draw a map and write it to `path` (PNG, SVG or PDF by extension).

    `title` defaults to the map's name; `size` (inches) to one that fits the map's
    shape with room for the legend. See `draw_map` for the other options.
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
    has_colorbar = route_heat is not None or city_heat is not None
    figure.subplots_adjust(left=0.01, right=0.83, bottom=0.07 if has_colorbar else 0.02, top=0.93)
    ax = figure.add_subplot()
    figure.suptitle(
        for_matplotlib(title if title is not None else game_map.name),
        fontproperties=font_properties(15, "bold"),
    )
    with _reporting_missing_glyphs():
        draw_map(
            ax,
            game_map,
            highlight_path=highlight_path,
            show_tickets=show_tickets,
            route_owner_colors=route_owner_colors,
            owner_names=owner_names,
            route_heat=route_heat,
            city_heat=city_heat,
            heat_label=heat_label,
            city_markers=city_markers,
            city_marker_label=city_marker_label,
        )
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
    *,
    highlight_path: Sequence[str] | None = None,
    show_tickets: bool = False,
    route_owner_colors: Mapping[str, str] | None = None,
    owner_names: Mapping[str, str] | None = None,
    route_heat: Mapping[str, float] | None = None,
    city_heat: Mapping[str, float] | None = None,
    heat_label: str = "heat",
    city_markers: Mapping[str, str] | None = None,
    city_marker_label: str = "station (owner's colour)",
    legend: bool = True,
    colorbar: bool = True,
    label_cities: bool = True,
    view: tuple[float, float, float, float] | None = None,
) -> MapDrawing:
    """Draw a map into `ax`.

    - `highlight_path`: city names of a path (e.g. from `ticket_path`), drawn as a glow
      under its routes.
    - `show_tickets`: a thin line between the two cities of every ticket.
    - `route_owner_colors`: route id -> player colour (any matplotlib colour). Claimed
      routes are filled with their owner's colour, the others are faded.
      `owner_names` (colour -> player name) labels the legend.
    - `route_heat`: route id -> 0..1, cars coloured on `HEAT_CMAP` with a colorbar
      (`heat_label` names it); routes left out are faded.
    - `city_heat`: city name -> 0..1, city dots grow and redden with their heat.
    - `city_markers`: city name -> colour: a triangle on the city (e.g. a station,
      E1, in its owner's colour), listed in the legend as `city_marker_label`.

    - `view`: (x0, y0, x1, y1) in board units, the part of the board to show
      (default: all of it), e.g. one printed tile.

    Labels come last, at a readable size (`preview_labels`: placed by the one label
    placement, or a laid-out board's own where its type is big enough at this
    scale). The legend sits just right of the axes.
    """
    from matplotlib.collections import PatchCollection
    from matplotlib.colors import Normalize, to_rgba
    from matplotlib.patches import Polygon

    if route_owner_colors is not None and route_heat is not None:
        raise ValueError("draw_map: give route_owner_colors or route_heat, not both")
    board = board_geometry(game_map)
    positions = board.positions
    ax.set_axis_off()
    ax.set_aspect("equal", adjustable="box")
    # The limits are set once, by _set_limits: autoscaling after each of thousands
    # of routes and cities would make drawing a big map quadratic.
    ax.set_autoscale_on(False)

    norm = Normalize(0.0, 1.0)
    cmap = _colormap(HEAT_CMAP)
    for shape in board.routes.values():
        route = game_map.route_by_id[shape.id]
        face, edge, alpha = _car_style(route, route_owner_colors, route_heat, cmap, norm)
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

    if highlight_path:
        _draw_highlight(ax, highlight_path, positions)
    if show_tickets:
        _draw_tickets(ax, game_map, positions)
    _draw_cities(ax, game_map, board, city_heat, cmap, norm)
    for city, colour in (city_markers or {}).items():
        x, y = positions[city]
        mark = ax.scatter([x], [y], s=140, marker="^", c=colour, edgecolors=CAR_EDGE, zorder=6)
        mark.set_gid(f"marker:{city}")
    if view is None:
        _set_limits(ax, board)
    else:
        ax.set_xlim(view[0], view[2])
        ax.set_ylim(view[1], view[3])

    heat_mappable = None
    if route_heat is not None or city_heat is not None:
        from matplotlib.cm import ScalarMappable

        heat_mappable = ScalarMappable(norm=norm, cmap=cmap)
        if colorbar:
            bar = ax.figure.colorbar(
                heat_mappable, ax=ax, orientation="horizontal", fraction=0.035, pad=0.01, aspect=40
            )
            bar.set_label(heat_label, fontproperties=font_properties(9))

    handles, handler_map = _legend_handles(
        game_map,
        highlight_path,
        show_tickets,
        route_owner_colors,
        owner_names,
        show_colors=route_heat is None,
        city_marker_label=city_marker_label if city_markers else None,
    )
    if legend and handles:
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
        with _reporting_missing_glyphs():
            _draw_labels(ax, board, labels, label_points)
    return MapDrawing(
        tuple(handles), handler_map, heat_mappable, board.route_cars(), labels, label_points
    )


def _colormap(name: str) -> Any:
    from matplotlib import colormaps

    return colormaps[name]


def _car_style(
    route: Route,
    owners: Mapping[str, str] | None,
    heat: Mapping[str, float] | None,
    cmap: Any,
    norm: Any,
) -> tuple[Any, str, float]:
    """Face colour, edge colour and opacity of a route's cars."""
    base = CAR_FILL.get(route.color, CAR_FILL[GRAY])
    if owners is not None:
        owner = owners.get(route.id)
        return (owner, CAR_EDGE, 1.0) if owner else (base, CAR_EDGE, 0.22)
    if heat is not None:
        if route.id not in heat:
            return (CAR_FILL[GRAY], CAR_EDGE, 0.2)
        return (cmap(norm(min(1.0, max(0.0, heat[route.id])))), CAR_EDGE, 1.0)
    return (base, CAR_EDGE, 1.0)


def _draw_highlight(ax: Axes, cities: Sequence[str], positions: Mapping[str, Point]) -> None:
    points = [positions[c] for c in cities if c in positions]
    if len(points) < 2:
        return
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
    ends = ax.scatter(
        [points[0][0], points[-1][0]],
        [points[0][1], points[-1][1]],
        s=260,
        facecolors="none",
        edgecolors=HIGHLIGHT_COLOR,
        linewidths=2.5,
        zorder=6,
    )
    ends.set_gid("highlight-ends")


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


def _legend_handles(
    game_map: Map,
    highlight_path: Sequence[str] | None,
    show_tickets: bool,
    owners: Mapping[str, str] | None,
    owner_names: Mapping[str, str] | None,
    *,
    show_colors: bool = True,
    city_marker_label: str | None = None,
) -> tuple[list[Any], dict[Any, Any]]:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = []
    handler_map: dict[Any, Any] = {}
    if owners is not None:
        # Named owners in the order given (seat order), then any other colour used.
        for colour in dict.fromkeys([*(owner_names or {}), *owners.values()]):
            label = for_matplotlib((owner_names or {}).get(colour, str(colour)))
            handles.append(Patch(facecolor=colour, edgecolor=CAR_EDGE, label=label))
        handles.append(
            Patch(facecolor=CAR_FILL[GRAY], edgecolor=CAR_EDGE, alpha=0.3, label="unclaimed")
        )
    elif show_colors:
        used = {r.color for r in game_map.routes}
        for colour in ROUTE_COLORS:
            if colour in used:
                count = sum(1 for r in game_map.routes if r.color == colour)
                handles.append(
                    Patch(
                        facecolor=CAR_FILL[colour],
                        edgecolor=CAR_EDGE,
                        linewidth=0.6,
                        label=f"{colour} ({count})",
                    )
                )
    if any(r.is_double for r in game_map.routes):
        double, handler = _double_route_legend()
        handles.append(double)
        handler_map[double] = handler
    if any(r.tunnel for r in game_map.routes):
        handles.append(
            Patch(
                facecolor="#dddddd",
                edgecolor=CAR_EDGE,
                linestyle="--",
                hatch="////",
                label="tunnel",
            )
        )
    if any(r.ferry for r in game_map.routes):
        handles.append(
            Line2D(
                [],
                [],
                marker="o",
                linestyle="none",
                markersize=4,
                color=CAR_EDGE,
                label="ferry: locomotive space",
            )
        )
    handles.append(
        Line2D(
            [],
            [],
            marker="o",
            linestyle="none",
            markersize=7,
            markerfacecolor=CITY_FILL,
            markeredgecolor=CAR_EDGE,
            label="city",
        )
    )
    if highlight_path:
        label = f"path {highlight_path[0]} – {highlight_path[-1]}"
        handles.append(Line2D([], [], color=HIGHLIGHT_COLOR, alpha=0.45, linewidth=6, label=label))
    if show_tickets:
        handles.append(Line2D([], [], color=TICKET_COLOR, alpha=0.5, linewidth=1, label="ticket"))
        if any(t.long for t in game_map.tickets):
            handles.append(
                Line2D(
                    [],
                    [],
                    color=TICKET_COLOR,
                    alpha=0.6,
                    linewidth=1.6,
                    linestyle=(0, (4, 2)),
                    label="long ticket",
                )
            )
    if city_marker_label:
        handles.append(
            Line2D(
                [],
                [],
                marker="^",
                linestyle="none",
                markersize=9,
                markerfacecolor="#ffffff",
                markeredgecolor=CAR_EDGE,
                label=city_marker_label,
            )
        )
    return handles, handler_map


def _double_route_legend() -> tuple[Any, Any]:
    """A legend handle for double routes, and its handler: two thin parallel bars."""
    from matplotlib.legend_handler import HandlerPatch
    from matplotlib.patches import Patch, Rectangle

    class DoubleTrackHandler(HandlerPatch):
        def create_artists(  # type: ignore[override]
            self, legend, orig_handle, xdescent, ydescent, width, height, fontsize, trans
        ):
            bar = height * 0.34
            return [
                Rectangle(
                    (-xdescent, -ydescent + offset),
                    width,
                    bar,
                    facecolor="white",
                    edgecolor=CAR_EDGE,
                    linewidth=0.6,
                    transform=trans,
                )
                for offset in (0.0, height - bar)
            ]

    return Patch(label="double route"), DoubleTrackHandler()


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
