"""ttr_maps: Ticket to Ride maps as data — the model, the rule set a map plays by,
loading, checks, geometry, drawing, analyses and reports. It never imports `ttr_core`.

Rooms, lowest first: a room imports only rooms on lines above its own, never one
on its own line or below (`tests/test_house.py` checks it, imports inside
functions and for type hints included):

    text, spelling, garbage, about   escaping, "did you mean", the collector, our name
    io                          YAML with positions, guarded reads, atomic writes, limits
    rules                       the rule set: every rule number
    model                       City, Route, Ticket, Map (frozen)
    graph                       the graph algorithms (R2's distances, paths, bridges)
    geometry                    projection, board geometry, labels, layout solver
    checks                      the registry of checks, validation, reporters
    load                        load_map: a map the checks let through
    analysis, render, published  numbers of a map; drawing it; the published boards
    authoring                   writing maps: starter maps, places, ticket and layout blocks
    reports                     every non-check output

The names below are imported on first use, so `import ttr_maps.model` (or the
`ttr` command's start-up) does not load the validator:

>>> from ttr_maps import load_map
>>> load_map("north_america").name
'North America'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: Public name -> the module that defines it.
_WHERE = {
    "load_map": "ttr_maps.load",
    "InvalidMapError": "ttr_maps.load",
    "validate_file": "ttr_maps.checks.validate",
    "Map": "ttr_maps.model",
}

__all__ = ["InvalidMapError", "Map", "load_map", "validate_file"]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'ttr_maps' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # imported once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from ttr_maps.checks.validate import validate_file
    from ttr_maps.load import InvalidMapError, load_map
    from ttr_maps.model import Map
