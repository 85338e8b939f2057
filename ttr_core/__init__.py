"""ttr_core: the Ticket to Ride rules engine, bots, simulation and the `ttr` command.

It plays any map validated by `ttr_maps`. The names below are the library API;
each is imported on first use, so `import ttr_core` (and `ttr --help`) stays fast
and never imports matplotlib, jsonschema or networkx.

>>> from ttr_core import GameState, RandomBot, load_map, run
>>> state = run(GameState(load_map("north_america"), 2, seed=1), [RandomBot(1), RandomBot(2)])
>>> state.is_over, state.result().winners()
(True, [1])
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: Public name -> the module that defines it.
_WHERE = {
    # the game
    "GameState": "ttr_core.state",
    "PlayerView": "ttr_core.view",
    "TicketView": "ttr_core.view",
    "Phase": "ttr_core.enums",
    "Status": "ttr_core.enums",
    "EndReason": "ttr_core.enums",
    "DecisionKind": "ttr_core.enums",
    # the rules as data
    "RuleSet": "ttr_core.rules",
    "RuleSetError": "ttr_core.rules",
    "BASE": "ttr_core.rules",
    "EUROPE": "ttr_core.rules",
    "rules_for": "ttr_core.rules",
    "parse_overrides": "ttr_core.rules",
    # actions and errors
    "Action": "ttr_core.actions",
    "Payment": "ttr_core.actions",
    "DrawDeck": "ttr_core.actions",
    "DrawMarket": "ttr_core.actions",
    "Claim": "ttr_core.actions",
    "DrawTickets": "ttr_core.actions",
    "KeepTickets": "ttr_core.actions",
    "Pass": "ttr_core.actions",
    "Resign": "ttr_core.actions",
    "Remove": "ttr_core.actions",
    "BuildStation": "ttr_core.actions",
    "PayTunnel": "ttr_core.actions",
    "GiveUpTunnel": "ttr_core.actions",
    "parse_action": "ttr_core.actions",
    "IllegalAction": "ttr_core.errors",
    "InvalidAction": "ttr_core.errors",
    # playing games
    "run": "ttr_core.loop",
    "new_game": "ttr_core.loop",
    "StopGame": "ttr_core.loop",
    "play_game": "ttr_core.game",
    "bot_seed": "ttr_core.game",
    "Bot": "ttr_core.bots",
    "make_bot": "ttr_core.bots",
    "bot_factories": "ttr_core.bots",
    "RandomBot": "ttr_core.bots.random_bot",
    # results and records
    "GameResult": "ttr_core.result",
    "SeatResult": "ttr_core.result",
    "record_of": "ttr_core.record",
    "dump_record": "ttr_core.record",
    "write_record": "ttr_core.record",
    "read_record": "ttr_core.record",
    "replay": "ttr_core.record",
    "verify_record": "ttr_core.record",
    "RecordError": "ttr_core.record",
    # maps, for the five-line game
    "load_map": "ttr_maps",
}

__all__ = [
    "BASE",
    "EUROPE",
    "Action",
    "Bot",
    "BuildStation",
    "Claim",
    "DecisionKind",
    "DrawDeck",
    "DrawMarket",
    "DrawTickets",
    "EndReason",
    "GameResult",
    "GameState",
    "GiveUpTunnel",
    "IllegalAction",
    "InvalidAction",
    "KeepTickets",
    "Pass",
    "PayTunnel",
    "Payment",
    "Phase",
    "PlayerView",
    "RandomBot",
    "RecordError",
    "Remove",
    "Resign",
    "RuleSet",
    "RuleSetError",
    "SeatResult",
    "Status",
    "StopGame",
    "TicketView",
    "bot_factories",
    "bot_seed",
    "dump_record",
    "load_map",
    "make_bot",
    "new_game",
    "parse_action",
    "parse_overrides",
    "play_game",
    "read_record",
    "record_of",
    "replay",
    "rules_for",
    "run",
    "verify_record",
    "write_record",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'ttr_core' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # imported once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from ttr_core.actions import (
        Action,
        BuildStation,
        Claim,
        DrawDeck,
        DrawMarket,
        DrawTickets,
        GiveUpTunnel,
        KeepTickets,
        Pass,
        Payment,
        PayTunnel,
        Remove,
        Resign,
        parse_action,
    )
    from ttr_core.bots import Bot, bot_factories, make_bot
    from ttr_core.bots.random_bot import RandomBot
    from ttr_core.enums import DecisionKind, EndReason, Phase, Status
    from ttr_core.errors import IllegalAction, InvalidAction
    from ttr_core.game import bot_seed, play_game
    from ttr_core.loop import StopGame, new_game, run
    from ttr_core.record import (
        RecordError,
        dump_record,
        read_record,
        record_of,
        replay,
        verify_record,
        write_record,
    )
    from ttr_core.result import GameResult, SeatResult
    from ttr_core.rules import BASE, EUROPE, RuleSet, RuleSetError, parse_overrides, rules_for
    from ttr_core.state import GameState
    from ttr_core.view import PlayerView, TicketView
    from ttr_maps import load_map
