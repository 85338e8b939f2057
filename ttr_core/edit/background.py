"""The board's background in the editor: the coasts and borders of
`ttr_maps.geometry.basemap` (inside the map's box) as thin SVG lines (not filled
areas) in the board's own SVG units. Without the package, no background: the
board is drawn as before.
"""

from __future__ import annotations

import math
from typing import Any

from ttr_maps.geometry.basemap import Box, basemap_lines


def background_svg(frame: Any, box: Box) -> str:
    """The coasts and borders inside `box`, as a `<g class="background">` of SVG
    paths in the units of `frame` (a `drawing.Frame`: its `svg_of_position`), ""
    without the data."""
    lines = basemap_lines(box)
    if lines is None:
        return ""
    layers = []
    for kind, runs in lines.items():
        paths = [_path(frame, run) for run in runs]
        layers.append(f'<path class="{kind}" d="{" ".join(p for p in paths if p)}"/>')
    return f'<g class="background" aria-hidden="true">{"".join(layers)}</g>'


def _path(frame: Any, run: list[tuple[float, float]]) -> str:
    cells = []
    last = None
    for position in run:
        x, y = frame.svg_of_position(position)
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
