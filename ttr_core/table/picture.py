"""A picture of the board in play, drawn by the preview code (`render_map` with an
`Overlay`): every claimed route in its owner's colour, stations (E1) as triangles
in their owner's colour, and optionally one seat's ticket cities marked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from ttr_maps.model import Map

#: Colours of seats 0-4 in pictures of a game.
SEAT_COLORS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd")
#: The mark on the cities of the tickets of the seat looking at the picture.
TICKET_CITY_COLOR = "#ffd700"


def draw_board(
    game_map: Map,
    owners: Sequence[int],
    station_owners: Sequence[int],
    names: Sequence[str],
    path: Path,
    title: str,
    ticket_cities: Iterable[str] = (),
) -> Path:
    """Write the picture to `path` (.png/.svg/.pdf). `owners` holds per route the
    seat owning it (or -1), `station_owners` per city (or -1, or is empty). The
    legend lists the seats in seat order. Raises `PreviewError`."""
    from ttr_maps.render.draw import render_map
    from ttr_maps.render.overlay import Markers, Overlay, Owners

    route_owner_colors = {
        game_map.routes[route].id: SEAT_COLORS[seat]
        for route, seat in enumerate(owners)
        if seat >= 0
    }
    labels = {SEAT_COLORS[seat]: f"seat {seat}: {name}" for seat, name in enumerate(names)}
    markers = {city: TICKET_CITY_COLOR for city in ticket_cities}
    markers.update(
        (game_map.cities[city].name, SEAT_COLORS[seat])
        for city, seat in enumerate(station_owners)
        if seat >= 0
    )
    parts = []
    if any(seat >= 0 for seat in station_owners):
        parts.append("station (owner's colour)")
    if TICKET_CITY_COLOR in markers.values():
        parts.append("gold: your ticket cities")
    label = "; ".join(parts) or "station (owner's colour)"
    overlay = Overlay(owners=Owners(route_owner_colors, labels), markers=Markers(markers, label))
    return render_map(game_map, path, overlay, title=title)
