"""Playing whole games with bots."""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.bots import Bot
from ttr_core.state import GameState
from ttr_maps.model import Map


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in `seat`, derived from the game's seed."""
    return (game_seed * 1_000_003 + seat * 7_919 + 17) % (2**63)


def play_game(game_map: Map, bots: Sequence[Bot], seed: int, rules: str | None = None) -> GameState:
    """Play a game to its end with one bot per seat; return the finished state.

    Each bot sees only its own `PlayerView`. The rules guarantee an end: every turn
    spends wagons, removes tickets for good, or moves cards into hands, which only
    claims can empty again; and when nothing is possible everyone passes (R6).
    """
    return play_to_end(GameState(game_map, len(bots), seed, rules), bots)


def play_to_end(state: GameState, bots: Sequence[Bot]) -> GameState:
    """Play `state` on to its end with one bot per seat (also a game that did not
    start here: a search bot's sampled world); return it."""
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)), seat)
    return state
