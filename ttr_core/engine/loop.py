"""The one game loop: `ttr play`, `ttr simulate`, the terminal and bots' playouts
all drive a game through `run`.

A *player* is anything with `act(view) -> Action` (the bot protocol,
`ttr_core.bots.Bot`). A player that needs nothing but the list of legal actions
may also have `pick(actions) -> Action`: the loop then hands it
`state.legal_actions(seat)` without building a view (the *playout path*; the list
is the one the view would give, entry for entry, so the game is the same). A
search bot's playout players, which play a world the bot sampled itself and may
read it, have `decide(state, seat) -> Action` instead: the loop asks them without
listing the legal actions (`apply` still checks what they choose). A real seat
never gets the state (R5). A
person at a table is a player too: its `act` asks them, and may raise `StopGame`
to leave the game unfinished.

>>> from ttr_core.bots.random_bot import RandomBot
>>> from ttr_maps import load_map
>>> state = GameState(load_map("north_america"), players=2, seed=3)
>>> run(state, [RandomBot(1), RandomBot(2)]).is_over
True
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ttr_core.engine.actions import Action
from ttr_core.engine.enums import Phase
from ttr_core.engine.state import GameState
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet

#: `Phase.OVER` as a module name (a lookup on the enum class costs more, once per action).
_OVER = Phase.OVER

#: Called after every applied action with (state, seat, action).
StepHook = Callable[[GameState, int, Action], None]


class StopGame(Exception):
    """Raised by a player's `act` to stop the game where it is (a person quit)."""


class SampledWorld(GameState):
    """A game a player made up from its own view (the hidden cards and tickets
    drawn at random: `ttr_core.bots.determinize`). The one kind of state `run`
    hands to players (`decide(state, seat)`): it holds nothing the player did not
    invent. Its copies (`clone()`) are sampled worlds too."""


def run(
    state: GameState,
    players: Sequence[Any],
    on_step: StepHook | None = None,
    playout: bool = True,
) -> GameState:
    """Play `state` on until it is over (or a player raises `StopGame`), asking
    `players[seat]` whenever `seat` is to move; return the state.

    With `playout` (the default), players that have `pick` get the legal actions
    instead of a view and, in a `SampledWorld` only, players that have `decide`
    get the state (see above).
    `on_step(state, seat, action)` runs after every action.
    An illegal action from a player raises `IllegalAction` with the state as it was.
    """
    pickers = [getattr(p, "pick", None) if playout else None for p in players]
    # R5, D6: the state itself only ever goes to players of a world they made up.
    sampled = playout and isinstance(state, SampledWorld)
    deciders = [getattr(p, "decide", None) if sampled else None for p in players]
    try:
        while state.phase != _OVER:
            seat = state.to_move
            assert seat is not None  # a game that is not over always has a seat to move
            pick = pickers[seat]
            decide = deciders[seat]
            if decide is not None:
                action = decide(state, seat)
            elif pick is not None:
                action = pick(state.legal_actions(seat))
            else:
                action = players[seat].act(state.view(seat))
            state.apply(action, seat)
            if on_step is not None:
                on_step(state, seat, action)
    except StopGame:
        pass
    return state


def catch_up(
    state: GameState,
    players: Sequence[Any],
    actions: Iterable[tuple[int | None, Action]],
    playout: bool = True,
) -> dict[int, int]:
    """Apply `actions` (a recorded game's history) to `state` (that game as dealt)
    with its players taking part again, so that a resumed game goes on exactly as
    the game that was cut: a bot's random source and memos are where they were.

    Every action `run` would have asked a player for (one by the seat to move) is
    asked for again, the same way (`pick` on the playout path, else `act`); the
    recorded action is applied whatever the answer. A player may instead offer
    `catch_up(view, action) -> bool`: bring itself to where choosing `action` in
    `view` left it, without thinking again (the search bot: its candidates and its
    random draw, not its playouts), and say whether it can go on exactly. `None`
    in `players` is a person: never asked. Actions by other seats (a resignation
    out of turn) and by the host (`remove`, `timeout`) are applied as they are.

    Returns the seats that cannot go on exactly, each with the number (from 1) of
    the first action where that player chose otherwise or said it cannot (a bot
    whose moves do not follow from its seed and the history alone, such as a
    search bot with a time budget, or a record that another player made)."""
    pickers = [getattr(p, "pick", None) if playout else None for p in players]
    inexact: dict[int, int] = {}
    for number, (seat, action) in enumerate(actions, start=1):
        player = players[seat] if seat is not None and seat == state.to_move else None
        if player is not None and state.phase != _OVER:
            follows = getattr(player, "catch_up", None)
            if follows is not None:
                exact = follows(state.view(seat), action)
            else:
                pick = pickers[seat]
                choice = pick(state.legal_actions(seat)) if pick else player.act(state.view(seat))
                exact = choice == action
            if not exact:
                inexact.setdefault(seat, number)  # type: ignore[arg-type]
        state.apply(action, seat)
    return inexact


#: What a bot's seed is derived for (the message of the keyed derivation).
_BOT_SEED_PURPOSE = "ttr bot seed, seat {seat}"


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in `seat` (0 to 2**63 - 1): HMAC-SHA256 keyed with the
    game's seed. The same game seed gives the same bots (games stay reproducible);
    no bot can recover the game's seed from its own short of guessing it, which a
    random seed (`ttr play` and the web table draw 53 bits) makes hopeless."""
    message = _BOT_SEED_PURPOSE.format(seat=seat).encode()
    digest = hmac.new(str(game_seed).encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_game(
    game_map: Map,
    bots: Sequence[Any],
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
