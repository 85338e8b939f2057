"""The one game loop (`ttr_core.engine.loop`): players that act on views, pick
from legal actions or (in sampled worlds only) decide on the state, `on_step`,
`StopGame`, `play_game`, bots' seeds."""

from __future__ import annotations

import random

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.actions import Action, Resign
from ttr_core.engine.loop import SampledWorld, StopGame, bot_seed, play_game, run
from ttr_core.engine.record import dump_record, record_of
from ttr_core.engine.state import GameState
from ttr_core.engine.view import PlayerView
from ttr_maps.rules import BASE


def test_the_playout_path_plays_the_same_game_as_views(north_america):
    for players, seed in ((2, 5), (4, 6)):
        records = []
        for playout in (True, False):
            bots = [RandomBot(bot_seed(seed, s)) for s in range(players)]
            state = run(GameState(north_america, players, seed), bots, playout=playout)
            records.append(dump_record(record_of(state, ["random"] * players)))
        assert records[0] == records[1]


def test_loop_calls_on_step_after_every_action_and_stops_on_request(north_america):
    steps: list[tuple[int, Action]] = []

    class Quitter:
        def act(self, view):
            if len(steps) >= 7:
                raise StopGame
            return view.legal_actions()[0]

    state = run(
        GameState(north_america, 2, seed=1),
        [Quitter(), Quitter()],
        on_step=lambda s, seat, action: steps.append((seat, action)),
    )
    assert not state.is_over
    assert steps == state.history and len(steps) == 7


def test_play_game_runs_through_the_loop_with_rules(north_america):
    bots = [RandomBot(1), RandomBot(2)]
    state = play_game(north_america, bots, 4, BASE.with_overrides({"wagons": 15}))
    assert state.is_over and state.rule_set.wagons == 15


class Spy:
    """A seated bot that would take the state if it were offered: it has `decide`
    (the playout path's method) besides `act` or `pick`, and notes what it got."""

    name = "spy"

    def __init__(self, seat: int, picks: bool) -> None:
        self.rng = random.Random(seat)
        self.received: list[object] = []
        if picks:
            self.pick = self._pick

    def decide(self, state: object, seat: int) -> Action:
        self.received.append(state)
        raise AssertionError("a seated bot was offered the state")

    def act(self, view: PlayerView) -> Action:
        self.received.append(view)
        return self._choose(view.legal_actions())

    def _pick(self, actions: list[Action]) -> Action:
        self.received.append(actions)
        return self._choose(actions)

    def _choose(self, actions: list[Action]) -> Action:
        return self.rng.choice([a for a in actions if not isinstance(a, Resign)] or actions)


def test_r5_d6_a_seated_bot_never_receives_the_game_state(north_america):
    """However a real game is played (`run` with or without the playout path,
    `play_game`), a player gets views or lists of legal actions, never a
    `GameState`, even when it has a `decide` method."""
    for playout in (True, False):
        spies = [Spy(0, picks=False), Spy(1, picks=True), Spy(2, picks=False)]
        state = run(GameState(north_america, 3, seed=5), spies, playout=playout)
        assert state.is_over
        for spy in spies:
            assert spy.received
            assert not any(isinstance(thing, GameState) for thing in spy.received)
        assert all(isinstance(v, PlayerView) for v in spies[0].received)
    spies = [Spy(0, picks=True), Spy(1, picks=False)]
    assert play_game(north_america, spies, seed=6).is_over
    assert not any(isinstance(t, GameState) for spy in spies for t in spy.received)


def test_only_a_sampled_world_is_handed_to_players_that_read_it(north_america):
    seen: list[object] = []

    class Reader:
        def decide(self, state: GameState, seat: int) -> Action:
            seen.append(state)
            return state.legal_actions(seat)[0]

    world = SampledWorld(north_america, 2, seed=3)
    run(world, [Reader(), Reader()], on_step=lambda *_: None if len(seen) < 5 else stop())
    assert seen and all(isinstance(s, SampledWorld) for s in seen)
    assert isinstance(world.clone(), SampledWorld)  # a playout's copy is one too


def stop() -> None:
    raise StopGame


def test_bot_seeds_are_reproducible_distinct_and_not_a_linear_function_of_the_seed():
    seeds = {bot_seed(game, seat) for game in range(200) for seat in range(5)}
    assert len(seeds) == 1000 and all(0 <= s < 2**63 for s in seeds)
    assert bot_seed(12345, 2) == bot_seed(12345, 2)
    # The old derivation was affine in the game's seed: a fixed step between
    # neighbouring seeds gave the game's seed away. Now the steps look random.
    steps = {bot_seed(game + 1, 0) - bot_seed(game, 0) for game in range(50)}
    assert len(steps) == 50
