"""Validation grows near-linearly with the map (issue 27): the R2 ticket searches
switch to compiled Dijkstra past a budget, TTR353 stops at its own budget and says
so, and a check the file disables is not computed. The timings themselves are in
benchmarks/hostile_bench.py; these tests check that the fast paths give the same
answers as the slow ones."""

from __future__ import annotations

from itertools import pairwise

from hand_maps import chain_map
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_maps.checks import design
from ttr_maps.checks.validate import validate_text
from ttr_maps.graph import shortest_paths_from, shortest_paths_to_targets


@st.composite
def graphs_and_targets(draw: st.DrawFn) -> tuple[dict[str, dict[str, int]], dict[str, set[str]]]:
    size = draw(st.integers(2, 12))
    names = [f"C{i}" for i in range(size)]
    adjacency: dict[str, dict[str, int]] = {name: {} for name in names}
    for a, b, length in draw(
        st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names), st.integers(1, 8)))
    ):
        if a != b:
            adjacency[a][b] = adjacency[b][a] = length
    sources = draw(st.lists(st.sampled_from(names), min_size=1, unique=True))
    targets = {s: set(draw(st.lists(st.sampled_from(names), min_size=1))) for s in sources}
    return adjacency, targets


@settings(max_examples=60, deadline=None)
@given(graphs_and_targets())
def test_compiled_searches_give_the_python_distances_and_real_shortest_paths(case) -> None:
    adjacency, targets = case
    compiled = shortest_paths_to_targets(adjacency, targets, budget=-1)  # all compiled
    for source, wanted in targets.items():
        python = shortest_paths_from(adjacency, source, wanted)
        for target in wanted:
            assert compiled[source].distance.get(target) == python.distance.get(target)
            path = compiled[source].path_to(target)
            if target in python.distance:
                assert path[0] == source and path[-1] == target
                assert sum(adjacency[a][b] for a, b in pairwise(path)) == (python.distance[target])
            else:
                assert path == []


def test_ttr353_stops_at_its_budget_and_says_how_many_tickets_it_left(monkeypatch) -> None:
    text = chain_map(12)
    full = [p for p in validate_text(text, "chain.yaml").problems if p.code == "TTR353"]
    assert len(full) == 10  # every ticket hangs on its routes
    monkeypatch.setattr(design, "FRAGILE_SEARCH_BUDGET", 20)
    cut = [p for p in validate_text(text, "chain.yaml").problems if p.code == "TTR353"]
    assert 1 < len(cut) < len(full)
    assert "were not checked for fragility" in cut[-1].message
    assert f"of {len(full)} tickets" in cut[-1].message


def test_a_disabled_warning_is_not_computed(monkeypatch) -> None:
    calls = []
    real = design.distances_within
    monkeypatch.setattr(
        design, "distances_within", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    validate_text(chain_map(8, disable="TTR353"), "chain.yaml")
    assert calls == []
    validate_text(chain_map(8), "chain.yaml")
    assert calls
