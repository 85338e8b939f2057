"""R16: the longest trail of a player's routes, against a plain search over every
trail from every city."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.longest_path import longest_trail, longest_trail_in, route_table
from ttr_core.engine.loop import bot_seed, run
from ttr_core.engine.state import GameState
from ttr_maps import load_map

Route = tuple[int, int, int]


def every_trail_longest(routes: list[Route]) -> int:
    """The oracle: try every trail from every city, routes used at most once."""

    def longest_from(city: int, used: frozenset[int]) -> int:
        best = 0
        for i, (a, b, length) in enumerate(routes):
            if i not in used and city in (a, b):
                onward = longest_from(b if city == a else a, used | {i})
                best = max(best, length + onward)
        return best

    cities = {c for a, b, _ in routes for c in (a, b)}
    return max((longest_from(c, frozenset()) for c in cities), default=0)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(1, 6)).filter(
            lambda e: e[0] != e[1]
        ),
        max_size=9,
    )
)
def test_r16_longest_trail_matches_every_trail_search(routes):
    assert longest_trail(routes) == every_trail_longest(routes)


def subdivided(links: list[tuple[int, int, list[int]]]) -> list[Route]:
    """Each (a, b, lengths) link as a chain of routes through new cities of two
    routes each (a == b makes a loop back to the same city)."""
    routes: list[Route] = []
    fresh = 100
    for a, b, lengths in links:
        city = a
        for length in lengths[:-1]:
            routes.append((city, fresh, length))
            city, fresh = fresh, fresh + 1
        routes.append((city, b, lengths[-1]))
    return routes


# a property test over many chains; the trail-search test keeps R16 in the default suite
@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 3),
            st.integers(0, 3),
            st.lists(st.integers(1, 6), min_size=1, max_size=3),
        ).filter(lambda link: link[0] != link[1] or len(link[2]) >= 2),
        max_size=6,
    )
)
def test_r16_chains_of_two_route_cities_and_loops_count_like_their_routes(links):
    # The search joins chains of cities with two routes into one link; loops that
    # leave a city and come back to it, and parallel chains, must still count.
    routes = subdivided(links)
    assert longest_trail(routes) == every_trail_longest(routes)


def test_r16_a_loop_from_one_city_is_taken_between_two_branches():
    # A-B, a loop B-C-D-B, and branches B-E, B-F: E-B-C-D-B-F uses all but A-B.
    routes = [(0, 1, 1), (1, 2, 2), (2, 3, 3), (3, 1, 4), (1, 4, 5), (1, 5, 6)]
    assert longest_trail(routes) == 5 + 2 + 3 + 4 + 6


def test_r16_only_the_owned_routes_of_a_table_count():
    table = route_table([(0, 1, 2), (1, 2, 3), (2, 0, 4), (1, 3, 5)])
    assert longest_trail_in(table, [0, 1, 2, 3]) == 14
    assert longest_trail_in(table, [0, 1, 3]) == 8
    assert longest_trail_in(table, [3]) == 5
    assert longest_trail_in(table, []) == 0


@pytest.mark.parametrize(("map_name", "players"), [("north_america", 2), ("europe", 4)])
def test_r16_end_game_networks_of_random_games_match_every_trail_search(map_name, players):
    game_map = load_map(map_name)
    checked = 0
    for seed in range(6):
        bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
        state = run(GameState(game_map, players, seed), bots, playout=True)
        board = state.board
        for seat in range(players):
            owned = state.claimed_routes(seat)
            routes = [(board.route_a[r], board.route_b[r], board.route_length[r]) for r in owned]
            assert longest_trail_in(board.trail_table, owned) == every_trail_longest(routes)
            checked += bool(owned)
    assert checked >= 6 * players - 2  # random players claim routes in almost every game
