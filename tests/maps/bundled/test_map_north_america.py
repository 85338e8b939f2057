"""The bundled North America map: counts, double routes, R2 ticket values checked
independently with networkx, and equality with the published board's facts."""

from __future__ import annotations

import json
from collections import Counter

import networkx as nx
import pytest
from testdata import REFERENCE

from ttr_maps.checks.validate import validate_file
from ttr_maps.io.bundled import bundled_map_path
from ttr_maps.model import Map

#: Facts of the published board (copied from the shared reference data).


@pytest.fixture(scope="module")
def north_america() -> Map:
    path = bundled_map_path("north_america")
    assert path is not None
    report = validate_file(path)
    assert report.errors == [], report.errors
    assert report.map is not None
    return report.map


def test_counts(north_america: Map) -> None:
    assert len(north_america.cities) == 36
    assert len(north_america.routes) == 100
    assert len(north_america.tickets) == 30


def test_r11_double_routes(north_america: Map) -> None:
    doubles = [p for p, tracks in north_america.parallel_routes.items() if len(tracks) == 2]
    assert len(doubles) == 22
    assert all(len(t) <= 2 for t in north_america.parallel_routes.values())
    assert "Denver-Kansas_City/2" in north_america.route_by_id


def test_r2_every_ticket_value_equals_the_networkx_shortest_path(north_america: Map) -> None:
    graph = nx.Graph()
    for route in north_america.routes:
        graph.add_edge(route.a, route.b, weight=route.length)
    for ticket in north_america.tickets:
        assert ticket.value == nx.dijkstra_path_length(graph, ticket.a, ticket.b), str(ticket)


def test_equals_the_published_reference(north_america: Map) -> None:
    facts = json.loads((REFERENCE / "north_america.json").read_text(encoding="utf-8"))
    cities = {c.name: c.position for c in north_america.cities}
    assert cities == {c["name"]: (c["lat"], c["lon"]) for c in facts["cities"]}

    def route_key(a: str, b: str, length: int, color: str) -> tuple:
        return (*sorted((a, b)), length, color)

    ours = Counter(route_key(r.a, r.b, r.length, r.color) for r in north_america.routes)
    theirs = Counter(route_key(r["a"], r["b"], r["length"], r["color"]) for r in facts["routes"])
    assert ours == theirs
    assert {frozenset(t.cities) for t in north_america.tickets} == {
        frozenset((t["a"], t["b"])) for t in facts["tickets"]
    }


def test_r2_five_printed_values_differ_and_say_so(north_america: Map) -> None:
    facts = json.loads((REFERENCE / "north_america.json").read_text(encoding="utf-8"))
    printed = {frozenset((t["a"], t["b"])): t["printed_value"] for t in facts["tickets"]}
    differ = [t for t in north_america.tickets if t.value != printed[frozenset(t.cities)]]
    assert len(differ) == 5
    lines = bundled_map_path("north_america").read_text(encoding="utf-8").splitlines()
    for ticket in differ:
        at = next(i for i, x in enumerate(lines) if f"[{ticket.a}, {ticket.b}]" in x)
        # At the end of the ticket's line, or on the line above (yamllint's line length).
        said = lines[at] if "#" in lines[at] else lines[at - 1]
        assert f"printed {printed[frozenset(ticket.cities)]}" in said
