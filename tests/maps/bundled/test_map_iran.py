"""The bundled Iran map (maps/iran.yaml): the design constraints of docs/maps/iran.md."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from ttr_maps import Map, load_map, validate_file
from ttr_maps.geometry.projection import city_distance, projected_positions, segments_cross
from ttr_maps.graph import connected_city_groups, wagon_distances_from
from ttr_maps.io.bundled import bundled_map_path
from ttr_maps.model import GRAY
from ttr_maps.rules import CARD_COLORS

#: The design scale: kilometres of great-circle distance per wagon space.
KM_PER_WAGON = 60
PLAYERS = 5

#: Regions a map of Iran must reach, each with a city that stands for it.
REGION_CITIES = {
    "capital region": "Tehran",
    "Caspian coast": "Rasht",
    "north-west": "Tabriz",
    "Zagros": "Kermanshah",
    "Khuzestan": "Ahvaz",
    "Persian Gulf": "Bushehr",
    "Strait of Hormuz": "Bandar Abbas",
    "Sea of Oman": "Chabahar",
    "east": "Mashhad",
    "south-east": "Zahedan",
}


@pytest.fixture(scope="module")
def iran() -> Map:
    return load_map("iran")


def _spaces_by_colour(game_map: Map) -> Counter[str]:
    spaces: Counter[str] = Counter()
    for route in game_map.routes:
        spaces[route.color] += route.length
    return spaces


def test_iran_is_bundled_and_loads(iran: Map):
    assert bundled_map_path("iran") is not None
    assert (iran.id, iran.name, iran.rules, iran.wagons) == ("iran", "Iran", "base", 45)
    assert iran.is_geographic


def test_iran_passes_strict_validation_without_fragile_tickets():
    """Iranshahr–Kerman and Jask–Shiraz hung on one single-track route each
    (TTR353); Kerman–Bam and Bandar Abbas–Jask are doubles now."""
    report = validate_file(bundled_map_path("iran"))
    assert report.map is not None
    assert report.errors == []
    assert report.warnings == []
    tracks = report.map.parallel_routes
    assert len(tracks[frozenset(("Kerman", "Bam"))]) == 2
    assert len(tracks[frozenset(("Bandar Abbas", "Jask"))]) == 2


# --- cities ---------------------------------------------------------------------


def test_iran_city_count_and_regions(iran: Map):
    assert 35 <= len(iran.cities) <= 45
    names = {c.name for c in iran.cities}
    missing = {region: city for region, city in REGION_CITIES.items() if city not in names}
    assert missing == {}


def test_iran_cities_lie_inside_iran_bounding_box(iran: Map):
    for city in iran.cities:
        lat, lon = city.position
        assert 25.0 <= lat <= 40.0, city
        assert 44.0 <= lon <= 63.5, city


# --- routes ---------------------------------------------------------------------


def test_iran_route_lengths_follow_one_scale(iran: Map):
    for route in iran.routes:
        km = city_distance(iran, route.a, route.b)
        expected = min(8, max(1, round(km / KM_PER_WAGON)))
        assert route.length == expected, (route.id, round(km))


def test_iran_routes_never_cross(iran: Map):
    positions = projected_positions(iran)
    pairs = [tuple(pair) for pair in iran.parallel_routes]
    crossing = [
        (p, q)
        for p, q in itertools.combinations(pairs, 2)
        if segments_cross(positions[p[0]], positions[p[1]], positions[q[0]], positions[q[1]])
    ]
    assert crossing == []


def test_iran_card_colours_are_balanced(iran: Map):
    spaces = _spaces_by_colour(iran)
    per_colour = [spaces[c] for c in CARD_COLORS]
    assert min(per_colour) > 0
    assert max(per_colour) - min(per_colour) <= 2, dict(spaces)


def test_iran_gray_share(iran: Map):
    share = _spaces_by_colour(iran)[GRAY] / iran.total_spaces
    assert 0.25 <= share <= 0.40, share


def test_iran_double_routes(iran: Map):
    doubles = [tracks for tracks in iran.parallel_routes.values() if len(tracks) > 1]
    assert 10 <= len(doubles) <= 22
    for tracks in doubles:
        assert len(tracks) == 2
        first, second = tracks
        assert first.length == second.length
        assert first.color != second.color or first.color == GRAY, first.id


def test_iran_wagons_fill_most_of_the_board(iran: Map):
    used = PLAYERS * iran.wagons / iran.total_spaces
    assert 0.60 <= used <= 0.80, (iran.total_spaces, used)


def test_iran_is_connected(iran: Map):
    assert len(connected_city_groups(iran)) == 1


# --- tickets --------------------------------------------------------------------


def test_iran_ticket_count_and_spread(iran: Map):
    assert 30 <= len(iran.tickets) <= 46
    values = [t.value for t in iran.tickets]
    assert min(values) <= 5
    assert max(values) >= 20


def test_iran_every_city_is_on_a_ticket(iran: Map):
    on_tickets = {c for t in iran.tickets for c in t.cities}
    assert {c.name for c in iran.cities} - on_tickets == set()


def test_iran_no_duplicate_tickets(iran: Map):
    pairs = Counter(frozenset(t.cities) for t in iran.tickets)
    assert [tuple(p) for p, n in pairs.items() if n > 1] == []
    assert all(t.a != t.b for t in iran.tickets)


def test_iran_r2_ticket_values_are_shortest_distances(iran: Map):
    distances = wagon_distances_from(iran, [t.a for t in iran.tickets])
    wrong = [str(t) for t in iran.tickets if distances[t.a].get(t.b) != t.value]
    assert wrong == []
