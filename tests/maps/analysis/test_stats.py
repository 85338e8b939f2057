"""Designer metrics (ttr_maps.analysis.stats)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hand_maps import hand_map
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_maps import load_map
from ttr_maps.analysis.stats import map_stats
from ttr_maps.io.bundled import bundled_map_ids
from ttr_maps.model import Map
from ttr_maps.rules import CARD_COLORS


def test_counts_of_a_hand_counted_map():
    s = map_stats(hand_map())
    assert (s.cities, s.segments, s.doubles, s.spaces) == (5, 6, 1, 14)
    assert (s.tunnels, s.ferries, s.ferry_locomotives) == (1, 1, 1)
    assert (s.tickets, s.long_tickets, s.wagons) == (3, 1, 10)


def test_colours_lengths_degrees_and_ticket_values_of_a_hand_counted_map():
    s = map_stats(hand_map())
    assert {c.color: (c.segments, c.spaces) for c in s.colors} == {
        "red": (1, 2),
        "orange": (0, 0),
        "yellow": (1, 4),
        "green": (1, 1),
        "blue": (1, 2),
        "pink": (0, 0),
        "black": (1, 2),
        "white": (0, 0),
        "gray": (1, 3),
    }
    assert s.length_histogram == {1: 1, 2: 3, 3: 1, 4: 1}
    # Degree counts neighbouring cities: A 1, B 3, C 2, D 3, E 1.
    assert s.degree_histogram == {1: 2, 2: 1, 3: 2}
    assert s.ticket_value_histogram == {3: 1, 5: 1, 8: 1}
    assert s.cities_without_ticket == ("B", "D")


def test_bridges_and_articulation_points_of_a_hand_counted_map():
    s = map_stats(hand_map())
    assert s.bridges == (("A", "B"), ("D", "E"))
    assert s.articulation_points == ("B", "D")


def test_ticket_load_splits_ties_between_equal_shortest_paths():
    loads = {(c.a, c.b): c for c in map_stats(hand_map()).connection_loads}
    # A-C uses A-B-C; A-E splits over A-B-D-E and A-B-C-D-E; C-E uses C-D-E.
    expected = {
        ("A", "B"): (2.0, 2, 2),
        ("B", "C"): (1.5, 2, 1),
        ("C", "D"): (1.5, 2, 1),
        ("B", "D"): (0.5, 1, 0),
        ("D", "E"): (2.0, 2, 2),
    }
    assert {
        pair: (c.ticket_load, c.tickets, c.unavoidable) for pair, c in loads.items()
    } == expected
    assert loads[("A", "B")].route_ids == ("A-B/1", "A-B/2")
    assert [(c.a, c.b) for c in map_stats(hand_map()).connection_loads][:2] == [
        ("A", "B"),
        ("D", "E"),
    ]


def test_spaces_against_wagons_count_one_track_of_a_double_with_2_or_3_players():
    players = {p.players: p for p in map_stats(hand_map()).players}
    assert sorted(players) == [2, 3, 4, 5]
    assert (players[2].wagons_in_play, players[2].claimable_spaces) == (20, 12)
    assert players[2].wagon_ratio == round(20 / 12, 3)
    assert (players[5].wagons_in_play, players[5].claimable_spaces) == (50, 14)
    assert all(p.spaces == 14 for p in players.values())


def test_unreachable_ticket_is_reported_not_raised():
    broken = Map.from_data(
        {
            "format": 1,
            "id": "split",
            "name": "Split",
            "coordinates": "plane",
            "cities": {n: {"x": i, "y": 0} for i, n in enumerate("ABCD")},
            "routes": [
                {"between": ["A", "B"], "length": 1, "color": "red"},
                {"between": ["C", "D"], "length": 1, "color": "red"},
            ],
            "tickets": [{"between": ["A", "D"], "value": 3}],
        }
    )
    s = map_stats(broken)
    assert s.unreachable_tickets == ("A:D",)
    assert all(c.ticket_load == 0 for c in s.connection_loads)


def test_north_america_known_figures():
    s = map_stats(load_map("north_america"))
    assert (s.cities, s.segments, s.doubles, s.spaces) == (36, 100, 22, 309)
    for color in CARD_COLORS:
        assert (s.color(color).segments, s.color(color).spaces) == (7, 27), color
    assert (s.color("gray").segments, s.color("gray").spaces) == (44, 93)
    assert (s.tunnels, s.ferries, s.tickets) == (0, 0, 30)
    assert sum(s.length_histogram.values()) == 100
    assert sum(s.degree_histogram.values()) == 36
    # Every ticket adds 1 to each connection its shortest paths must cross, so the
    # total load is the sum over tickets of the expected number of connections used.
    assert sum(c.ticket_load for c in s.connection_loads) > 30
    assert s.players[0].wagons_in_play == 90 and s.players[-1].wagons_in_play == 225


@pytest.mark.parametrize("map_id", bundled_map_ids())
def test_every_bundled_map_has_consistent_stats(map_id):
    game_map = load_map(map_id)
    s = map_stats(game_map)
    assert sum(c.spaces for c in s.colors) == s.spaces == game_map.total_spaces
    assert sum(c.segments for c in s.colors) == s.segments
    assert sum(s.ticket_value_histogram.values()) == s.tickets
    assert s.unreachable_tickets == ()
    assert s.tunnels == sum(r.tunnel for r in game_map.routes)
    assert s.ferries == sum(1 for r in game_map.routes if r.ferry)
    assert s.long_tickets == sum(t.long for t in game_map.tickets)
    if game_map.id == "europe":
        assert s.tunnels > 0 and s.ferries > 0 and s.long_tickets > 0


@st.composite
def ticketed_maps(draw: st.DrawFn) -> Map:
    """Small random maps (lengths 1 to 3, so equal shortest paths are common) with
    tickets between any two cities, some values wrong or unreachable."""
    size = draw(st.integers(2, 9))
    names = [f"C{i}" for i in range(size)]
    pairs = st.tuples(st.sampled_from(names), st.sampled_from(names))
    routes = [
        {"between": [a, b], "length": draw(st.integers(1, 3)), "color": "gray"}
        for a, b in draw(st.lists(pairs, max_size=16))
        if a != b
    ]
    tickets = [
        {"between": [a, b], "value": draw(st.integers(1, 8))}
        for a, b in draw(st.lists(pairs, min_size=1, max_size=8))
        if a != b
    ]
    return Map.from_data({
        "format": 1, "id": "r", "name": "R", "coordinates": "plane",
        "cities": {n: {"x": i, "y": 0} for i, n in enumerate(names)},
        "routes": routes, "tickets": tickets,
    })  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(ticketed_maps())
def test_ticket_loads_count_every_shortest_path_that_networkx_lists(game_map: Map) -> None:
    """The load of a connection is the share of each ticket's shortest paths over
    it (R2), summed: the same as listing every shortest path, whatever the values."""
    import networkx as nx

    from ttr_maps.graph import wagon_graph

    graph = wagon_graph(game_map)
    load: dict[frozenset[str], float] = {}
    touched: dict[frozenset[str], int] = {}
    unavoidable: dict[frozenset[str], int] = {}
    for ticket in game_map.tickets:
        if not nx.has_path(graph, ticket.a, ticket.b):
            continue
        paths = list(nx.all_shortest_paths(graph, ticket.a, ticket.b, weight="weight"))
        on: dict[frozenset[str], int] = {}
        for path in paths:
            for pair in map(frozenset, pairwise(path)):
                on[pair] = on.get(pair, 0) + 1
        for pair, count in on.items():
            load[pair] = load.get(pair, 0.0) + count / len(paths)
            touched[pair] = touched.get(pair, 0) + 1
            unavoidable[pair] = unavoidable.get(pair, 0) + (count == len(paths))
    for c in map_stats(game_map).connection_loads:
        pair = frozenset((c.a, c.b))
        assert c.ticket_load == pytest.approx(round(load.get(pair, 0.0), 4), abs=1e-9)
        assert (c.tickets, c.unavoidable) == (touched.get(pair, 0), unavoidable.get(pair, 0))
