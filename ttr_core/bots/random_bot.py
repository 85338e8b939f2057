"""The random bot: uniform over the legal actions, seeded."""

from __future__ import annotations

import random

from ttr_core.actions import Action, Resign
from ttr_core.view import PlayerView


class RandomBot:
    """Picks uniformly among the legal actions of its view, except `resign`
    (a bot that resigns at random would end most games early)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        actions = view.legal_actions()
        if len(actions) > 1 and isinstance(actions[-1], Resign):
            actions.pop()
        return actions[self.rng.randrange(len(actions))]
