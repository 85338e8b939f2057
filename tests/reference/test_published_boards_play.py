"""The bots play every published board at every table size its rules allow: 200
games each, no game may stall (R6: every player passing) or fail. Slow: about
ten thousand games (`pytest -m slow tests/reference`)."""

from __future__ import annotations

from collections import Counter

import pytest
from testdata import table_sizes

from ttr_core.bots import make_bot
from ttr_core.engine.enums import EndReason
from ttr_core.engine.loop import bot_seed, play_game
from ttr_maps import load_map
from ttr_maps.io.bundled import PUBLISHED_MAPS

#: Greedy, random and the four style bots, rotated over the seats game by game.
BOTS = ("greedy", "random", "route-focus", "destination-hungry", "one-step", "long-route")
GAMES = 200


@pytest.mark.slow
@pytest.mark.parametrize("map_id", PUBLISHED_MAPS)
def test_bots_play_200_games_at_every_table_size_without_a_stall(map_id: str) -> None:
    game_map = load_map(map_id)
    for players in table_sizes(map_id):
        endings: Counter[str] = Counter()
        for seed in range(GAMES):
            names = [BOTS[(seed + seat) % len(BOTS)] for seat in range(players)]
            bots = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(names)]
            state = play_game(game_map, bots, seed)
            assert state.is_over, (map_id, players, seed)
            endings[state.end_reason] += 1
        assert endings[EndReason.ALL_PASSED] == 0, (map_id, players, dict(endings))
        assert endings[EndReason.FINAL_ROUND] == GAMES, (map_id, players, dict(endings))
