"""Colours balanced as the published boards are (R3), gray included."""

from __future__ import annotations

import pytest

from ttr_maps.authoring.starter import PUBLISHED_GRAY_SHARE, balanced_colors, starter_routes
from ttr_maps.io.bundled import PUBLISHED_MAPS, bundled_map_path
from ttr_maps.load import load_map
from ttr_maps.model import GRAY
from ttr_maps.rules import CARD_COLORS


def _spaces(routes) -> dict[str, int]:
    spaces: dict[str, int] = {}
    for route in routes:
        spaces[route.color] = spaces.get(route.color, 0) + route.length
    return spaces


def test_r3_the_gray_share_is_the_published_boards():
    spaces: dict[str, int] = {}
    doubles = []
    for map_id in PUBLISHED_MAPS:
        game_map = load_map(bundled_map_path(map_id))
        for color, count in _spaces(game_map.routes).items():
            spaces[color] = spaces.get(color, 0) + count
        entries: dict[int, list[str]] = {}
        for route in game_map.routes:
            entries.setdefault(route.entry, []).append(route.color)
        doubles += [c for c in entries.values() if len(c) == 2]
    share = spaces[GRAY] / sum(spaces.values())
    assert share == pytest.approx(PUBLISHED_GRAY_SHARE, abs=0.005)
    # A published double is gray twice or two card colours: never one gray track.
    assert doubles and all(c.count(GRAY) in (0, 2) for c in doubles)


def test_r3_colours_laid_one_by_one_keep_the_published_balance():
    spaces: dict[str, int] = {}
    lengths = [1, 2, 3, 4, 2, 3, 5, 6, 2, 3, 4, 1, 2, 3] * 6
    for i, length in enumerate(lengths):
        tracks = 2 if i % 5 == 0 else 1
        for color in balanced_colors(spaces, tracks, length):
            spaces[color] = spaces.get(color, 0) + length
    total = sum(spaces.values())
    assert spaces[GRAY] / total == pytest.approx(PUBLISHED_GRAY_SHARE, abs=0.03)
    cards = [spaces.get(c, 0) for c in CARD_COLORS]
    assert max(cards) - min(cards) <= max(lengths)


@pytest.mark.parametrize("first", [*CARD_COLORS, GRAY])
def test_r3_a_double_routes_second_track_is_balanced(first):
    spaces = {"red": 20, "blue": 3, GRAY: 2}
    pair = balanced_colors(spaces, 2, 3, first=first)
    assert pair[0] == first
    assert pair[1] == GRAY if first == GRAY else (pair[1] in CARD_COLORS and pair[1] != first)
    if first != GRAY:
        assert pair[1] != "red"  # the colour with the most spaces is not offered


def test_a_starter_on_thirty_cities_has_gray_and_balanced_doubles():
    import random

    rng = random.Random(5)
    cities = {f"C{i}": (45 + rng.uniform(-4, 4), 5 + rng.uniform(-6, 6)) for i in range(30)}
    routes = starter_routes(cities)
    spaces: dict[str, int] = {}
    for _, _, length, color in routes:
        for c in color if isinstance(color, list) else [color]:
            spaces[c] = spaces.get(c, 0) + length
    share = spaces.get(GRAY, 0) / sum(spaces.values())
    assert 0.2 <= share <= 0.4
    doubles = [c for *_, c in routes if isinstance(c, list)]
    assert all(c.count(GRAY) in (0, 2) for c in doubles)
