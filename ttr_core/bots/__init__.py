"""Bots: players that receive a `PlayerView` (never the state) and return an action.

Every bot is seeded, so a game between bots is reproducible from its seed. This
registry is the one place that knows the bots' names and parses a name with a
parameter (`search:400`); it imports no bot module until a bot is made, so help
texts can list the names cheaply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ttr_core.engine.actions import Action
    from ttr_core.engine.view import PlayerView


class Bot(Protocol):
    """A player. `act` is called whenever the bot's seat has something to decide."""

    name: str

    def act(self, view: PlayerView) -> Action: ...


BotFactory = Callable[[int], Bot]

#: Every bot name `--bots` accepts, in the order of `bot_factories`.
BOT_NAMES: tuple[str, ...] = (
    "random",
    "greedy",
    "route-focus",
    "destination-hungry",
    "one-step",
    "long-route",
    "search",
)
#: Bots that take a parameter after a colon, and its syntax (for help texts).
BOT_PARAMETERS: dict[str, str] = {
    "search": "search:N for N playouts a move, search:Ts for T seconds a move",
}


def bots_help() -> str:
    """The bots for a `--bots` help text, with their parameters."""
    names = ", ".join(BOT_NAMES)
    parameters = "; ".join(BOT_PARAMETERS.values())
    return f"{names} ({parameters})"


def bot_factories() -> dict[str, BotFactory]:
    """Bot names (as the command line spells them) and their factories (seed -> bot)."""
    from ttr_core.bots.one_step import OneStepBot
    from ttr_core.bots.random_bot import RandomBot
    from ttr_core.bots.search import SearchBot
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
        "search": SearchBot,
    }


def check_bot_name(name: str) -> None:
    """Raise ValueError, saying what is wrong and what is known, unless `name`
    names a bot (`greedy`, `search`, `search:400`, `search:0.5s`)."""
    base, _, parameter = name.partition(":")
    if base not in BOT_NAMES:
        raise ValueError(f"unknown bot {name}; known bots: {bots_help()}")
    if ":" in name and base not in BOT_PARAMETERS:
        raise ValueError(f"bot {base!r} takes no parameter (got {name!r})")
    if base == "search" and ":" in name:
        from ttr_core.bots.search import parse_budget

        parse_budget(parameter)


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name, with its parameter if any (`search:400`). Raises ValueError
    naming the known bots."""
    check_bot_name(name)
    base, _, parameter = name.partition(":")
    if ":" in name:  # only `search` takes a parameter (check_bot_name said so)
        from ttr_core.bots.search import SearchBot, parse_budget

        return SearchBot(seed, parse_budget(parameter), name)
    return bot_factories()[base](seed)
