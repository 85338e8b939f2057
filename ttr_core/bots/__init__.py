"""Bots: players that receive a `PlayerView` (never the state) and return an action.

Every bot is seeded, so a game between bots is reproducible from its seed. This
registry is the one place that knows the bots' names and parses a name with a
parameter (`search:400`); it imports no bot module until a bot is made, so help
texts can list the names cheaply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ttr_core.engine.actions import Action
    from ttr_core.engine.view import PlayerView


class Bot(Protocol):
    """A player. `act` is called whenever the bot's seat has something to decide."""

    name: str

    def act(self, view: PlayerView) -> Action: ...


BotFactory = Callable[[int], Bot]


@dataclass(frozen=True)
class BotSpec:
    """One name `--bots` accepts. The bot's module is imported only when a bot is
    made, so help texts list the names without importing any bot."""

    #: "module:Class"; the class takes the seed (and `style`, or the parsed parameter).
    where: str
    #: A planning bot's `Style`, by name in `ttr_core.bots.styles.STYLES`.
    style: str | None = None
    #: For bots that take `NAME:PARAMETER`: "module:function" parsing the parameter
    #: (raising ValueError with a message), and the syntax for help texts.
    parse: str | None = None
    syntax: str = ""
    #: A bot that may think for seconds a move (the web table gives it a worker
    #: process of its own and caps how many play at once).
    heavy: bool = False


#: Every bot, by the name the command line, the web table and reports use; the
#: order is the order of help texts and of the web table's seat menu.
BOTS: dict[str, BotSpec] = {
    "random": BotSpec("ttr_core.bots.random_bot:RandomBot"),
    "greedy": BotSpec("ttr_core.bots.styles:PlanningBot", style="greedy"),
    "route-focus": BotSpec("ttr_core.bots.styles:PlanningBot", style="route-focus"),
    "destination-hungry": BotSpec("ttr_core.bots.styles:PlanningBot", style="destination-hungry"),
    "one-step": BotSpec("ttr_core.bots.one_step:OneStepBot"),
    "long-route": BotSpec("ttr_core.bots.styles:PlanningBot", style="long-route"),
    "search": BotSpec(
        "ttr_core.bots.search:SearchBot",
        parse="ttr_core.bots.search:parse_budget",
        syntax="search:N for N playouts a move, search:Ts for T seconds a move",
        heavy=True,
    ),
}


def _load(where: str) -> Any:
    module, _, attribute = where.partition(":")
    return getattr(import_module(module), attribute)


def bots_help() -> str:
    """The bots for a `--bots` help text, with their parameters."""
    names = ", ".join(BOTS)
    parameters = "; ".join(spec.syntax for spec in BOTS.values() if spec.parse)
    return f"{names} ({parameters})"


def bot_factories() -> dict[str, BotFactory]:
    """Bot names (as the command line spells them) and their factories (seed -> bot)."""
    return {name: partial(make_bot, name) for name in BOTS}


def _parsed_parameter(name: str) -> tuple[BotSpec, Any]:
    """The spec of `name` and its parsed parameter (None without one); ValueError,
    saying what is wrong and what is known, for a name that names no bot."""
    base, colon, parameter = name.partition(":")
    spec = BOTS.get(base)
    if spec is None:
        raise ValueError(f"unknown bot {name}; known bots: {bots_help()}")
    if not colon:
        return spec, None
    if spec.parse is None:
        raise ValueError(f"bot {base!r} takes no parameter (got {name!r})")
    return spec, _load(spec.parse)(parameter)


def check_bot_name(name: str) -> None:
    """Raise ValueError, saying what is wrong and what is known, unless `name`
    names a bot (`greedy`, `search`, `search:400`, `search:0.5s`)."""
    _parsed_parameter(name)


def is_heavy(name: str) -> bool:
    """Whether the bot `name` (`search:400`) may think for seconds a move."""
    return _parsed_parameter(name)[0].heavy


def make_bot(name: str, seed: int) -> Bot:
    """A bot by name, with its parameter if any (`search:400`). Raises ValueError
    naming the known bots."""
    spec, parameter = _parsed_parameter(name)
    make = _load(spec.where)
    if spec.style is not None:
        from ttr_core.bots.styles import STYLES

        return make(seed, STYLES[spec.style])  # type: ignore[no-any-return]
    if parameter is not None:
        return make(seed, parameter, name)  # type: ignore[no-any-return]
    return make(seed)  # type: ignore[no-any-return]
