"""ttr_maps: Ticket to Ride maps as data — model, loading, checks, graph analysis,
previews. It knows nothing of game rules; the engine lives in `ttr_core`.
"""

from ttr_maps.checks.validate import FileReport, InvalidMapError, load_map, validate_file
from ttr_maps.model import CARD_COLORS, GRAY, ROUTE_COLORS, ROUTE_POINTS, City, Map, Route, Ticket

__all__ = [
    "CARD_COLORS",
    "GRAY",
    "ROUTE_COLORS",
    "ROUTE_POINTS",
    "City",
    "FileReport",
    "InvalidMapError",
    "Map",
    "Route",
    "Ticket",
    "load_map",
    "validate_file",
]
