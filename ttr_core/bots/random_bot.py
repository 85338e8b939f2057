"""The random bot: uniform over the legal actions, seeded."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ttr_core.engine.actions import Action
from ttr_core.engine.view import PlayerView


class RandomBot:
    """Picks uniformly among the legal actions (which never list `resign`, D5).

    It needs nothing but that list, so it plays the game loop's playout path
    (`pick`): the loop hands it `state.legal_actions(seat)` without building a
    view, and the choice is the same as from the view's list.
    """

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    def act(self, view: PlayerView) -> Action:
        return self.pick(view.legal_actions())

    def pick(self, actions: Sequence[Action]) -> Action:
        """One of `actions`, uniformly (the playout path of `ttr_core.engine.loop`):
        the draw of `self.rng.choice(actions)` (CPython's `_randbelow`: `k` random
        bits until they fall below the count), made here without its two
        Python-level calls, once per action of a random game."""
        count = len(actions)
        if not count:
            raise IndexError("Cannot choose from an empty sequence")
        bits = count.bit_length()
        index = self._bits(bits)
        while index >= count:
            index = self._bits(bits)
        return actions[index]
