"""Playing whole games with bots (through the one game loop, `ttr_core.loop`)."""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.bots import Bot
from ttr_core.loop import StepHook, run
from ttr_core.rules import RuleSet
from ttr_core.state import GameState
from ttr_maps.model import Map


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in `seat`, derived from the game's seed."""
    return (game_seed * 1_000_003 + seat * 7_919 + 17) % (2**63)


def play_game(
    game_map: Map,
    bots: Sequence[Bot],
    seed: int,
    rules: str | RuleSet | None = None,
    on_step: StepHook | None = None,
) -> GameState:
    """Play a game to its end with one bot per seat; return the finished state.

    Each bot sees only its own `PlayerView` (or, on the playout path, only its
    legal actions). The rules guarantee an end: every turn spends wagons, removes
    tickets for good, or moves cards into hands, which only claims can empty again;
    and when nothing is possible everyone passes (R6).
    """
    return run(GameState(game_map, len(bots), seed, rules), bots, on_step)
