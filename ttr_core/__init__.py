"""ttr_core: the Ticket to Ride rules engine, bots, simulation and the `ttr` command.

It plays any map validated by `ttr_maps` (which never imports it back).

Rooms, lowest first: a room imports only rooms on lines above its own, never one
on its own line or below (`tests/test_house.py` checks it, imports inside
functions and for type hints included):

    engine                      what a game is (R1-R17, D1-D7, E1-E5)
    bots                        players that choose from a PlayerView
    playtest                    many games: playouts, executors, reports, findings
    table                       a person at a table: commands, screen, journal
    web                         what the web apps are built from: routes, guard, SVG
    serve, edit, lsp            the web table; the map editor; the language server
    cli, accel                  the `ttr` command; the optional compiled build
    __main__                    `python -m ttr_core`

The names below are the library API; each is imported on first use, so
`import ttr_core` (and `ttr --help`) stays fast and never imports matplotlib,
jsonschema or networkx.

>>> from ttr_core import GameState, RandomBot, load_map, run
>>> state = run(GameState(load_map("north_america"), 2, seed=1), [RandomBot(1), RandomBot(2)])
>>> state.is_over, state.result().winners()
(True, [0])
"""

from __future__ import annotations

from importlib import import_module
from os import path as _path

#: `typing.TYPE_CHECKING` without importing `typing` (about 10 ms the console script
#: spends before any guard of ours, where Ctrl-C would print a traceback).
TYPE_CHECKING = False

if _path.exists(_path.join(_path.dirname(__file__), "accel-build.json")):
    # The optional compiled build is here: a module edited since is loaded from
    # its source (see `ttr_core.accel`).
    from ttr_core.accel import use_fresh_modules_only

    use_fresh_modules_only()

#: Public name -> the module that defines it.
_WHERE = {
    # the game
    "GameState": "ttr_core.engine.state",
    "PlayerView": "ttr_core.engine.view",
    "TicketView": "ttr_core.engine.books",
    "Phase": "ttr_core.engine.enums",
    "Status": "ttr_core.engine.enums",
    "EndReason": "ttr_core.engine.enums",
    "DecisionKind": "ttr_core.engine.enums",
    # the rules as data
    "RuleSet": "ttr_maps.rules",
    "RuleSetError": "ttr_maps.rules",
    "BASE": "ttr_maps.rules",
    "EUROPE": "ttr_maps.rules",
    "rules_for": "ttr_maps.rules",
    "parse_overrides": "ttr_maps.rules",
    # actions and errors
    "Action": "ttr_core.engine.actions",
    "Payment": "ttr_core.engine.actions",
    "DrawDeck": "ttr_core.engine.actions",
    "DrawMarket": "ttr_core.engine.actions",
    "Claim": "ttr_core.engine.actions",
    "DrawTickets": "ttr_core.engine.actions",
    "KeepTickets": "ttr_core.engine.actions",
    "Pass": "ttr_core.engine.actions",
    "Resign": "ttr_core.engine.actions",
    "Remove": "ttr_core.engine.actions",
    "BuildStation": "ttr_core.engine.actions",
    "PayTunnel": "ttr_core.engine.actions",
    "GiveUpTunnel": "ttr_core.engine.actions",
    "parse_action": "ttr_core.engine.actions",
    "IllegalAction": "ttr_core.engine.errors",
    "InvalidAction": "ttr_core.engine.errors",
    # playing games
    "run": "ttr_core.engine.loop",
    # the library's older name of the one way to deal a game: `GameState` itself
    "new_game": "ttr_core.engine.state:GameState",
    "StopGame": "ttr_core.engine.loop",
    "play_game": "ttr_core.engine.loop",
    "bot_seed": "ttr_core.engine.loop",
    "Bot": "ttr_core.bots",
    "make_bot": "ttr_core.bots",
    "bot_factories": "ttr_core.bots",
    "RandomBot": "ttr_core.bots.random_bot",
    # results and records
    "GameResult": "ttr_core.engine.result",
    "SeatResult": "ttr_core.engine.result",
    "record_of": "ttr_core.engine.record",
    "dump_record": "ttr_core.engine.record",
    "write_record": "ttr_core.engine.record",
    "read_record": "ttr_core.engine.record",
    "replay": "ttr_core.engine.record",
    "verify_record": "ttr_core.engine.record",
    "RecordError": "ttr_core.engine.record",
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
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'ttr_core' has no attribute {name!r}")
    module, _, attribute = where.partition(":")
    value = getattr(import_module(module), attribute or name)
    globals()[name] = value  # imported once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:
    from typing import Any

    from ttr_core.bots import Bot, bot_factories, make_bot
    from ttr_core.bots.random_bot import RandomBot
    from ttr_core.engine.actions import (
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
    from ttr_core.engine.books import TicketView
    from ttr_core.engine.enums import DecisionKind, EndReason, Phase, Status
    from ttr_core.engine.errors import IllegalAction, InvalidAction
    from ttr_core.engine.loop import StopGame, bot_seed, play_game, run
    from ttr_core.engine.record import (
        RecordError,
        dump_record,
        read_record,
        record_of,
        replay,
        verify_record,
        write_record,
    )
    from ttr_core.engine.result import GameResult, SeatResult
    from ttr_core.engine.state import GameState
    from ttr_core.engine.state import GameState as new_game
    from ttr_core.engine.view import PlayerView
    from ttr_maps import load_map
    from ttr_maps.rules import BASE, EUROPE, RuleSet, RuleSetError, parse_overrides, rules_for
