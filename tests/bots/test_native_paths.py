"""The compiled build's native kernel of the planners' cheapest path
(`ttr_core/bots/native_paths.pyx`) finds the very path `planning.cheapest_path`'s
Python code finds, ties included, on every bundled map and on costs of every kind
(owned routes at 0, lost ones at INF, the lengths, and flat costs where every
choice is a tie). In a pure install there is no kernel: the Python code runs."""

from __future__ import annotations

import os
import random
from dataclasses import replace

import pytest

from ttr_core.bots import planning
from ttr_core.bots.planning import INF, cheapest_path, graph_for
from ttr_core.engine.compiled import board_for
from ttr_maps import load_map

MAPS = ("north_america", "europe", "iran")


def _native_or_skip() -> None:
    if planning.NativeGraph is None:
        if os.environ.get("TTR_EXPECT_COMPILED"):
            pytest.fail("TTR_EXPECT_COMPILED is set but the native path kernel is not loaded")
        pytest.skip("pure Python build: no native kernel (python -m ttr_core.accel)")


def _cost_lists(board, rng: random.Random, count: int) -> list[list[int]]:
    """Costs as plans meet them: lengths, some routes owned (0), some lost (INF);
    and flat ones, where most paths tie."""
    lists = []
    for index in range(count):
        if index % 5 == 0:
            flat = rng.choice([1, 2])
            lists.append([rng.choice([0, flat, flat, INF]) for _ in range(board.num_routes)])
            continue
        owned, lost = rng.random() * 0.3, rng.random() * 0.5
        lists.append(
            [
                0 if (roll := rng.random()) < owned else INF if roll < owned + lost else length
                for length in board.route_length
            ]
        )
    return lists


@pytest.mark.parametrize("map_id", MAPS)
def test_the_native_kernel_finds_the_path_the_python_code_finds(map_id: str) -> None:
    _native_or_skip()
    board = board_for(load_map(map_id))
    graph = graph_for(board)
    assert graph.native is not None
    reference = replace(graph, native=None)  # the same graph, the Python search
    rng = random.Random(f"native paths {map_id}")
    cities = board.num_cities
    checked = unreachable = 0
    for costs in _cost_lists(board, rng, 60):
        for _ in range(25):
            source, target = rng.randrange(cities), rng.randrange(cities)
            expected = cheapest_path(reference, costs, source, target)
            assert cheapest_path(graph, costs, source, target) == expected, (source, target)
            assert graph.native.cheapest_path(tuple(costs), source, target) == expected
            checked += 1
            unreachable += expected[0] >= INF
    assert checked == 1500 and 0 < unreachable < checked  # both kinds of answer were met


def test_the_native_kernel_refuses_what_is_not_on_its_board() -> None:
    _native_or_skip()
    board = board_for(load_map("north_america"))
    native = graph_for(board).native
    lengths = list(board.route_length)
    with pytest.raises(ValueError, match="costs for"):
        native.cheapest_path(lengths[:-1], 0, 1)
    for source, target in ((-1, 0), (0, board.num_cities)):
        with pytest.raises(IndexError, match="no city"):
            native.cheapest_path(lengths, source, target)
    assert native.cheapest_path(lengths, 3, 3) == (0, [])


def test_without_the_kernel_the_graph_searches_in_python(monkeypatch) -> None:
    """A pure install (or a kernel older than its source, which cannot be imported):
    the graph has no native part and `cheapest_path` runs the Python search."""
    monkeypatch.setattr(planning, "NativeGraph", None)
    board = board_for(load_map("europe"))
    graph = planning._build_graph(board)
    assert graph.native is None
    cost, path = cheapest_path(graph, list(board.route_length), 0, board.num_cities - 1)
    assert cost == graph.distance[0][board.num_cities - 1] and path
