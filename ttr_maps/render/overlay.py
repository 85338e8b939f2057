"""What is drawn on top of a board: one frozen `Overlay` value, passed whole from
the caller (`ttr preview`, a game's picture, a report's heatmap) down to
`ttr_maps.render.draw` and its legend.

- `path`: the cities of one path, drawn as a glow under its routes (e.g. one
  shortest path of a ticket, `ticket_path`);
- `tickets`: a thin line between the two cities of every ticket;
- `owners`: claimed routes in their owner's colour, the others faded (a game);
- `heat`: routes and cities coloured 0..1 with a colorbar (how often claimed);
- `markers`: a triangle on some cities (a station, E1, in its owner's colour).

>>> Overlay(path=("Denver", "Omaha"), tickets=True).path
('Denver', 'Omaha')
>>> Overlay(owners=Owners({}), heat=Heat(routes={}))
Traceback (most recent call last):
...
ValueError: an overlay colours routes by owner or by heat, not both
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ttr_maps.model import Map
from ttr_maps.render.figure import PreviewError


@dataclass(frozen=True)
class Owners:
    """Claimed routes in their owner's colour; unclaimed routes fade."""

    #: Route id -> the owner's colour (any matplotlib colour).
    routes: Mapping[str, str]
    #: Colour -> the owner's name in the legend, in seat order.
    names: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Heat:
    """Routes and cities coloured on `palette.HEAT_CMAP`, with a colorbar named
    `label`. Routes left out of `routes` fade; hotter cities grow and redden."""

    #: Route id -> 0..1 (None: the routes keep their colours).
    routes: Mapping[str, float] | None = None
    #: City name -> 0..1 (None: plain city dots).
    cities: Mapping[str, float] | None = None
    label: str = "heat"

    def __post_init__(self) -> None:
        if self.routes is None and self.cities is None:
            raise ValueError("heat needs route heat, city heat or both")


@dataclass(frozen=True)
class Markers:
    """A triangle on each of some cities, listed in the legend as `label`."""

    #: City name -> colour.
    cities: Mapping[str, str]
    label: str = "station (owner's colour)"


@dataclass(frozen=True)
class Overlay:
    """Everything drawn on top of the board (see the module docstring); the
    default draws the board alone."""

    path: tuple[str, ...] = ()
    tickets: bool = False
    owners: Owners | None = None
    heat: Heat | None = None
    markers: Markers | None = None

    def __post_init__(self) -> None:
        if self.owners is not None and self.heat is not None and self.heat.routes is not None:
            raise ValueError("an overlay colours routes by owner or by heat, not both")

    @property
    def route_heat(self) -> Mapping[str, float] | None:
        return self.heat.routes if self.heat is not None else None

    @property
    def city_heat(self) -> Mapping[str, float] | None:
        return self.heat.cities if self.heat is not None else None


def parse_ticket(game_map: Map, text: str) -> tuple[str, str]:
    """Two different city names from 'A:B', checked against the map.

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


def ticket_path(game_map: Map, text: str) -> tuple[str, ...]:
    """The cities of one shortest path (R2) for a ticket written 'A:B', to
    highlight (`Overlay.path`)."""
    from ttr_maps.graph import shortest_city_path

    a, b = parse_ticket(game_map, text)
    path = shortest_city_path(game_map, a, b)
    if not path:
        raise PreviewError(f"ticket {text!r}: no route path joins {a} and {b}")
    return tuple(path)
