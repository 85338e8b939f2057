"""The bundled Europe map (maps/europe.yaml) against the published board's facts.

The facts are a copy of the shared reference data, in `tests/data/reference/`.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import networkx as nx
import pytest
from testdata import ROOT

from ttr_maps import Map, load_map, validate_file
from ttr_maps.checks.layout import BOARD_CODES
from ttr_maps.geometry.projection import projected_positions, segments_cross
from ttr_maps.graph import shortest_wagon_distance
from ttr_maps.io.bundled import bundled_map_path
from ttr_maps.model import GRAY

REPO = ROOT
REFERENCE = REPO / "tests" / "data" / "reference" / "europe.json"

Segment = tuple[frozenset[str], int, str, bool, int]


@pytest.fixture(scope="module")
def europe() -> Map:
    return load_map("europe")


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def _map_segments(game_map: Map) -> Counter[Segment]:
    return Counter(
        (frozenset(r.cities), r.length, r.color, r.tunnel, r.ferry) for r in game_map.routes
    )


def _reference_segments(reference: dict[str, Any]) -> Counter[Segment]:
    return Counter(
        (
            frozenset((r["a"], r["b"])),
            r["length"],
            r["color"],
            bool(r.get("tunnel", False)),
            int(r.get("ferry_locomotives", 0)),
        )
        for r in reference["routes"]
    )


def _reference_graph(reference: dict[str, Any]) -> nx.MultiGraph:
    graph = nx.MultiGraph()
    for r in reference["routes"]:
        graph.add_edge(r["a"], r["b"], weight=r["length"])
    return graph


# --- bundled, valid, and played with the europe rule set -----------------------


def test_europe_is_bundled_and_loads(europe: Map):
    assert bundled_map_path("europe") is not None
    assert europe.id == "europe"
    assert europe.name == "Europe"
    assert europe.rules == "europe"
    assert europe.wagons == 45
    assert europe.is_geographic


def test_europe_strict_validation_is_clean():
    report = validate_file(bundled_map_path("europe"))
    assert report.map is not None
    # The board checks (TTR551-TTR557) are tested by test_layout.py, where Europe
    # and North America are marked unfinished; this test is about the rest.
    assert [str(p) for p in report.problems if p.code not in BOARD_CODES] == []
    assert not report.fails()


def test_europe_only_the_palermo_smyrna_ferry_crosses_other_routes(europe: Map):
    # The file silences TTR252 because the board draws this ferry as a curve; make
    # sure the silence hides nothing else.
    positions = projected_positions(europe)
    pairs = [tuple(pair) for pair in europe.parallel_routes]
    crossing = {
        frozenset((frozenset(p), frozenset(q)))
        for p, q in itertools.combinations(pairs, 2)
        if segments_cross(positions[p[0]], positions[p[1]], positions[q[0]], positions[q[1]])
    }
    ferry = frozenset(("Palermo", "Smyrna"))
    expected = {
        frozenset((ferry, frozenset(("Athina", other))))
        for other in ("Brindisi", "Sarajevo", "Sofia")
    }
    assert crossing == expected


# --- counts of the published board --------------------------------------------


def test_europe_counts(europe: Map):
    assert len(europe.cities) == 47
    assert len(europe.routes) == 101
    doubles = [pair for pair, tracks in europe.parallel_routes.items() if len(tracks) > 1]
    assert len(doubles) == 11
    assert all(len(europe.parallel_routes[pair]) == 2 for pair in doubles)
    assert sum(r.tunnel for r in europe.routes) == 18
    ferries = [r for r in europe.routes if r.ferry]
    assert len(ferries) == 13
    assert sum(r.ferry for r in ferries) == 17
    assert sum(not t.long for t in europe.tickets) == 40
    assert sum(t.long for t in europe.tickets) == 6


def test_europe_double_tracks_agree_and_differ_in_colour(europe: Map):
    for tracks in europe.parallel_routes.values():
        if len(tracks) < 2:
            continue
        first, second = tracks
        assert (first.length, first.tunnel, first.ferry) == (
            second.length,
            second.tunnel,
            second.ferry,
        )
        assert first.color != second.color or first.color == GRAY


def test_europe_r2_ticket_values_are_shortest_distances(europe: Map):
    for ticket in europe.tickets:
        assert ticket.value == shortest_wagon_distance(europe, ticket.a, ticket.b), ticket


# --- equal to the reference facts ----------------------------------------------


def test_europe_cities_match_reference(europe: Map, reference: dict[str, Any]):
    expected = {c["name"]: (c["lat"], c["lon"]) for c in reference["cities"]}
    actual = {c.name: c.position for c in europe.cities}
    assert set(actual) == set(expected)
    for name, position in expected.items():
        assert actual[name] == pytest.approx(position), name
    assert {"København", "Zagrab", "Zürich", "München", "Angora"} <= set(actual)


def test_europe_route_segments_match_reference(europe: Map, reference: dict[str, Any]):
    assert _map_segments(europe) == _reference_segments(reference)


def test_europe_tickets_match_reference(europe: Map, reference: dict[str, Any]):
    expected = Counter(
        (frozenset((t["a"], t["b"])), bool(t.get("long", False))) for t in reference["tickets"]
    )
    actual = Counter((frozenset(t.cities), t.long) for t in europe.tickets)
    assert actual == expected


def test_europe_r2_values_follow_reference_graph_and_two_printed_values_differ(
    europe: Map, reference: dict[str, Any]
):
    graph = _reference_graph(reference)
    values = {frozenset(t.cities): t.value for t in europe.tickets}
    differing = []
    for t in reference["tickets"]:
        shortest = nx.shortest_path_length(graph, t["a"], t["b"], weight="weight")
        assert values[frozenset((t["a"], t["b"]))] == shortest
        if shortest != t["printed_value"]:
            differing.append((t["a"], t["b"], t["printed_value"], shortest))
    assert len(differing) == 2, differing


def test_europe_differing_tickets_carry_both_numbers_in_a_comment(reference: dict[str, Any]):
    graph = _reference_graph(reference)
    lines = bundled_map_path("europe").read_text(encoding="utf-8").splitlines()
    for t in reference["tickets"]:
        shortest = nx.shortest_path_length(graph, t["a"], t["b"], weight="weight")
        if shortest == t["printed_value"]:
            continue
        at = next(i for i, ln in enumerate(lines) if f"between: [{t['a']}, {t['b']}]" in ln)
        assert f"value: {shortest}" in lines[at]
        # The comment ends the ticket's line, or stands on the line above it (yamllint's
        # line length).
        said = lines[at] if "#" in lines[at] else lines[at - 1]
        assert f"printed {t['printed_value']}" in said
