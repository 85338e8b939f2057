"""Plane geometry of a map: projected city positions, distances, crossings.

Geographic maps are projected with an equirectangular projection centred on the
map's mean latitude: east-west distances shrink by cos(latitude), so shapes look
right at the scale of a country or a continent. Plane maps are used as written.
Checks (crossing routes, lengths against distance), previews and the design of
new maps all use these functions, so they agree with each other.
"""

from __future__ import annotations

import math

from ttr_maps.model import Map

EARTH_RADIUS_KM = 6371.0088

Point = tuple[float, float]


def projected_positions(game_map: Map) -> dict[str, Point]:
    """City positions on a plane (x to the east/right, y to the north/up).

    For geographic maps the unit is the kilometre, so plane distances approximate
    ground distances.
    """
    if not game_map.is_geographic:
        return {c.name: c.position for c in game_map.cities}
    if not game_map.cities:
        return {}
    mean_lat = sum(c.position[0] for c in game_map.cities) / len(game_map.cities)
    return {c.name: project_lat_lon(*c.position, mean_lat) for c in game_map.cities}


def project_lat_lon(lat: float, lon: float, reference_lat: float) -> Point:
    """Equirectangular projection in kilometres around `reference_lat`."""
    km_per_degree = math.pi * EARTH_RADIUS_KM / 180
    return (lon * math.cos(math.radians(reference_lat)) * km_per_degree, lat * km_per_degree)


def great_circle_km(a: Point, b: Point) -> float:
    """The great-circle distance between two (lat, lon) points, in kilometres.

    >>> round(great_circle_km((35.6892, 51.3890), (38.0800, 46.2919)))  # Tehran-Tabriz
    525
    """
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    # Written so that NaN stays NaN (`min(1.0, nan)` is 1.0: half the Earth).
    return 2 * EARTH_RADIUS_KM * math.asin(1.0 if h > 1.0 else math.sqrt(h))


def city_distance(game_map: Map, a: str, b: str) -> float:
    """Distance between two cities: great-circle km, or plane units for plane maps."""
    pa, pb = game_map.city(a).position, game_map.city(b).position
    if game_map.is_geographic:
        return great_circle_km(pa, pb)
    return math.dist(pa, pb)


def _orientation(p: Point, q: Point, r: Point) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two segments cross at a point inside both (touching ends don't count).

    >>> segments_cross((0, 0), (2, 2), (0, 2), (2, 0))
    True
    >>> segments_cross((0, 0), (1, 1), (1, 1), (2, 0))
    False
    """
    if {p1, p2} & {q1, q2}:
        return False
    d1, d2 = _orientation(q1, q2, p1), _orientation(q1, q2, p2)
    d3, d4 = _orientation(p1, p2, q1), _orientation(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0
