"""The legend of a board drawing: what the colours, dashes and dots mean, and
what the overlay added (owners, a path, tickets, markers)."""

from __future__ import annotations

from typing import Any

from ttr_maps.model import GRAY, ROUTE_COLORS, Map
from ttr_maps.render.overlay import Overlay
from ttr_maps.render.palette import CAR_EDGE, CAR_FILL, CITY_FILL, HIGHLIGHT_COLOR, TICKET_COLOR
from ttr_maps.text import for_matplotlib


def legend_handles(game_map: Map, overlay: Overlay) -> tuple[list[Any], dict[Any, Any]]:
    """The legend of a board with `overlay`, as handles and the handler map to
    pass to `Axes.legend`: owners (or route colours, unless heat colours the
    routes), doubles, tunnels, ferries, cities, then what the overlay adds."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = []
    handler_map: dict[Any, Any] = {}
    owners = overlay.owners
    if owners is not None:
        # Named owners in the order given (seat order), then any other colour used.
        for colour in dict.fromkeys([*owners.names, *owners.routes.values()]):
            label = for_matplotlib(owners.names.get(colour, str(colour)))
            handles.append(Patch(facecolor=colour, edgecolor=CAR_EDGE, label=label))
        handles.append(
            Patch(facecolor=CAR_FILL[GRAY], edgecolor=CAR_EDGE, alpha=0.3, label="unclaimed")
        )
    elif overlay.route_heat is None:
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
    if overlay.path:
        label = f"path {for_matplotlib(overlay.path[0])} – {for_matplotlib(overlay.path[-1])}"
        handles.append(Line2D([], [], color=HIGHLIGHT_COLOR, alpha=0.45, linewidth=6, label=label))
    if overlay.tickets:
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
    if overlay.markers is not None and overlay.markers.cities and overlay.markers.label:
        handles.append(
            Line2D(
                [],
                [],
                marker="^",
                linestyle="none",
                markersize=9,
                markerfacecolor="#ffffff",
                markeredgecolor=CAR_EDGE,
                label=overlay.markers.label,
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
