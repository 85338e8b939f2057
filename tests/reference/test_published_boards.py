"""Every published board ttr bundles, against its published facts.

One reference file per board in `tests/data/reference/` holds the facts of the
printed board (city names, every route track, every destination ticket with its
printed value, the box's wagons and players) and their counts. Each test here
runs on every board: the bundled map must hold exactly those facts, ticket
values must be the shortest distances over the reference's own routes (R2,
computed with networkx, not with ttr's graph code), and the file must validate
`--strict` clean, each silenced warning with its reason written next to it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from typing import Any

import networkx as nx
import pytest
from testdata import REFERENCE

from ttr_maps import Map, load_map
from ttr_maps.checks.validate import validate_file
from ttr_maps.io.bundled import bundled_map_path
from ttr_maps.rules import map_rules

BOARDS = sorted(path.stem for path in REFERENCE.glob("*.json"))


@cache
def facts(board: str) -> dict[str, Any]:
    return json.loads((REFERENCE / f"{board}.json").read_text(encoding="utf-8"))


@cache
def reference_graph(board: str) -> nx.MultiGraph:
    graph = nx.MultiGraph()
    for route in facts(board)["routes"]:
        graph.add_edge(route["a"], route["b"], weight=route["length"])
    return graph


def regions(board: str) -> dict[str, list[str]]:
    """A country beyond the border: its border points (cities of the map)."""
    return facts(board).get("regions", {})


def is_point_ticket(board: str, ticket: dict[str, Any]) -> bool:
    """A ticket between two places of the map: cities, or a country with a single
    border point (which is a city of the map under the country's name)."""
    ends = [ticket["a"], *([ticket["b"]] if "b" in ticket else ticket["to"])]
    return "b" in ticket and all(len(regions(board).get(end, [end])) == 1 for end in ends)


def single_point(board: str, name: str) -> str:
    return regions(board).get(name, [name])[0]


@pytest.fixture(params=BOARDS)
def board(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def game_map(board: str) -> Map:
    return load_map(board)


def test_there_are_twelve_published_boards_with_their_facts() -> None:
    assert len(BOARDS) >= 12
    for board in BOARDS:
        assert bundled_map_path(board) is not None, board
        assert facts(board)["map"] == board


def test_cities_are_the_printed_ones_at_their_reference_positions(board: str, game_map: Map):
    expected = {c["name"]: (c["lat"], c["lon"]) for c in facts(board)["cities"]}
    actual = {c.name: c.position for c in game_map.cities}
    assert set(actual) == set(expected)
    for name, position in expected.items():
        assert actual[name] == pytest.approx(position), name


def test_every_route_track_matches_the_board(board: str, game_map: Map):
    ours = Counter(
        (frozenset(r.cities), r.length, r.color, r.tunnel, r.ferry) for r in game_map.routes
    )
    theirs = Counter(
        (
            frozenset((r["a"], r["b"])),
            r["length"],
            r["color"],
            bool(r.get("tunnel", False)),
            int(r.get("ferry_locomotives", 0)),
        )
        for r in facts(board)["routes"]
    )
    assert ours == theirs


def test_counts_are_the_published_counts(board: str, game_map: Map):
    counts = facts(board)["counts"]
    spaces: Counter[str] = Counter()
    for route in game_map.routes:
        spaces[route.color] += route.length
    assert len(game_map.cities) == counts["cities"]
    assert len(game_map.routes) == counts["routes"]
    assert dict(spaces) == counts["spaces_by_color"]
    assert sum(r.tunnel for r in game_map.routes) == counts["tunnels"]
    assert sum(1 for r in game_map.routes if r.ferry) == counts["ferries"]
    assert sum(r.ferry for r in game_map.routes) == counts["ferry_locomotives"]
    assert sum(t.long for t in game_map.tickets) == counts["long_tickets"]
    printed = facts(board)["tickets"]
    assert sum(1 for t in printed if not t.get("long")) == counts["tickets"]
    modelled = [t for t in printed if is_point_ticket(board, t)]
    assert len(game_map.tickets) == len(modelled)


def test_the_counts_add_up_from_the_listed_facts(board: str):
    """The counts are written out so a test reads numbers, not a sum of the same
    lists; they must still agree with the lists."""
    data = facts(board)
    spaces: Counter[str] = Counter()
    for route in data["routes"]:
        spaces[route["color"]] += route["length"]
    assert data["counts"]["spaces_by_color"] == dict(sorted(spaces.items()))
    assert data["counts"]["routes"] == len(data["routes"])
    assert data["counts"]["cities"] == len(data["cities"])


def test_wagons_and_players_are_those_of_the_box(board: str, game_map: Map):
    box = facts(board)["box"]
    rules = map_rules(game_map)
    assert rules.wagons == box["wagons"]
    assert list(rules.player_counts()) == box["players"]


def test_tickets_are_the_printed_ones(board: str, game_map: Map):
    expected = Counter(
        (
            frozenset((single_point(board, t["a"]), single_point(board, t["b"]))),
            bool(t.get("long", False)),
        )
        for t in facts(board)["tickets"]
        if is_point_ticket(board, t)
    )
    assert Counter((frozenset(t.cities), t.long) for t in game_map.tickets) == expected


def test_tickets_to_countries_not_in_the_deck_are_listed_in_the_file(board: str):
    """A ticket to a country with several border points is not modelled yet: the
    file names it in a comment so a reader knows the printed deck is larger."""
    text = bundled_map_path(board).read_text(encoding="utf-8")
    for ticket in facts(board)["tickets"]:
        if not is_point_ticket(board, ticket):
            assert re.search(rf"#\s+{re.escape(ticket['a'])}\b", text), ticket


def test_r2_values_are_shortest_distances_over_the_reference_routes(board: str, game_map: Map):
    graph = reference_graph(board)
    for ticket in game_map.tickets:
        assert ticket.value == nx.shortest_path_length(
            graph, ticket.a, ticket.b, weight="weight"
        ), str(ticket)


def test_r2_a_printed_value_that_differs_is_written_beside_the_ticket(board: str):
    graph = reference_graph(board)
    lines = bundled_map_path(board).read_text(encoding="utf-8").splitlines()
    for ticket in facts(board)["tickets"]:
        if not is_point_ticket(board, ticket):
            continue
        a, b = single_point(board, ticket["a"]), single_point(board, ticket["b"])
        shortest = nx.shortest_path_length(graph, a, b, weight="weight")
        line = next(
            ln
            for ln in lines
            if "value:" in ln and (f"between: [{a}, {b}]" in ln or f"between: [{b}, {a}]" in ln)
        )
        assert f"value: {shortest}" in line
        if shortest != ticket["printed_value"]:
            assert f"printed {ticket['printed_value']}" in line, line


def test_strict_validation_is_clean(board: str):
    report = validate_file(bundled_map_path(board))
    assert report.map is not None
    assert [str(p) for p in report.problems] == []


def test_every_silenced_warning_says_why(board: str):
    """`# ttr: disable=...` is allowed on a published board only with the reason
    for each code on a comment line of its own (`# TTR252: ...`)."""
    text = bundled_map_path(board).read_text(encoding="utf-8")
    for codes in re.findall(r"^# ttr: disable=([\w,]+)", text, re.M):
        for code in codes.split(","):
            assert re.search(rf"^#\s+{code}: \S", text, re.M), (board, code)


# --- the registry every "beside the published boards" number reads ------------


def test_the_registry_holds_every_board_with_reference_facts_and_only_them():
    from ttr_maps.io.bundled import PUBLISHED_MAPS, bundled_map_ids

    assert sorted(PUBLISHED_MAPS) == BOARDS
    assert set(bundled_map_ids()) - set(PUBLISHED_MAPS) == {"iran"}  # a designer's map


def test_each_board_reads_its_family_table_sizes_and_gaps_from_its_file(board: str):
    from ttr_maps.published import published_boards

    entry = next(b for b in published_boards() if b.map_id == board)
    game_map = load_map(board)
    assert entry.family == game_map.rules
    assert list(entry.players) == facts(board)["box"]["players"]
    assert entry.not_modelled == game_map.not_modelled
    # North America, Europe and India are modelled whole; every other board names its gaps.
    assert bool(entry.not_modelled) == (board not in ("north_america", "europe", "india"))


def test_nearest_first_orders_by_rule_family_then_table_sizes_then_size():
    from ttr_maps.published import nearest_first, published_boards

    boards = published_boards()
    nordic = nearest_first("nordic", (2, 3), cities=39, routes=81)
    assert [b.map_id for b in nordic[:2]] == ["nordic_countries", "switzerland"]
    base = nearest_first("base", (2, 3, 4, 5), cities=36, routes=100)
    assert base[0].map_id == "north_america"
    assert {b.family for b in base[:4]} == {"base"}
    assert sorted(b.map_id for b in base) == sorted(b.map_id for b in boards)
    # Among the europe boards, those seating 2-5 come before India and the UK (2-4).
    europe = [b.map_id for b in nearest_first("europe", (2, 3, 4, 5), cities=47, routes=101)]
    assert europe.index("legendary_asia") < europe.index("india")
