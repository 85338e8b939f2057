"""Bots: players that receive a `PlayerView` (never the state) and return an action.

Every bot is seeded, so a game between bots is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ttr_core.actions import Action
from ttr_core.view import PlayerView


class Bot(Protocol):
    """A player. `act` is called whenever the bot's seat has something to decide."""

    name: str

    def act(self, view: PlayerView) -> Action: ...


BotFactory = Callable[[int], Bot]


def bot_factories() -> dict[str, BotFactory]:
    """Bot names (as the command line spells them) and their factories (seed -> bot)."""
    from ttr_core.bots.one_step import OneStepBot
    from ttr_core.bots.random_bot import RandomBot
    from ttr_core.bots.styles import (
        DESTINATION_HUNGRY,
        GREEDY,
        LONG_ROUTE,
        ROUTE_FOCUS,
        PlanningBot,
        Style,
    )

    def planning(style: Style) -> BotFactory:
        return lambda seed: PlanningBot(seed, style)

    return {
        "random": RandomBot,
        "greedy": planning(GREEDY),
        "route-focus": planning(ROUTE_FOCUS),
        "destination-hungry": planning(DESTINATION_HUNGRY),
        "one-step": OneStepBot,
        "long-route": planning(LONG_ROUTE),
    }


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name. Raises ValueError naming the known bots."""
    factories = bot_factories()
    if name not in factories:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(factories))}")
    return factories[name](seed)
