"""The one game loop (`ttr_core.engine.loop`): players that act on views, pick
from legal actions or (in sampled worlds only) decide on the state, `on_step`,
`StopGame`, `play_game`, bots' seeds."""

from __future__ import annotations

import random

import pytest

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.actions import Action, Resign, parse_action
from ttr_core.engine.loop import SampledWorld, StopGame, bot_seed, catch_up, play_game, run
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


# ------------------------------------------------------------------ resuming a game


def _resumed_records(game_map, names, seed, cuts, rules=None):
    """The record of a bots' game played through, and of the same game cut after
    each number of actions in `cuts` and resumed as `ttr play --resume` does:
    fresh bots from the same seeds, brought up to date by `catch_up`."""
    from ttr_core.bots import make_bot

    def bots():
        return [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(names)]

    full = play_game(game_map, bots(), seed, rules)
    records = []
    for cut in cuts:
        state = GameState(game_map, len(names), seed, rules)
        players = bots()
        inexact = catch_up(state, players, full.history[:cut])
        run(state, players)
        records.append((cut, inexact, dump_record(record_of(state, names))))
    return dump_record(record_of(full, names)), records


RESUMED_LINEUPS = [
    ["random", "greedy", "one-step"],
    ["route-focus", "destination-hungry", "long-route", "greedy"],
    ["one-step", "one-step"],
    ["long-route", "random", "route-focus", "destination-hungry", "one-step"],
]


def _check_resumes(game_map, lineups, cuts_per_game):
    for number, names in enumerate(lineups):
        seed = 40 + number
        length = len(play_game(game_map, _bots(names, seed), seed).history)
        cuts = [
            1,
            length - 2,
            *(length * (k + 1) // (cuts_per_game - 1) for k in range(cuts_per_game - 2)),
        ]
        full, records = _resumed_records(game_map, names, seed, sorted(cuts)[:cuts_per_game])
        for cut, inexact, record in records:
            assert inexact == {}, (names, cut)
            assert record == full, (names, cut)


@pytest.mark.parametrize("map_name", ["north_america", "europe", "iran"])
def test_a_resumed_game_goes_on_exactly_as_the_game_that_was_cut(map_name, request):
    # Every bot whose moves follow from its seed: random and the five styles.
    _check_resumes(request.getfixturevalue(map_name), RESUMED_LINEUPS[:2], 2)


@pytest.mark.slow
@pytest.mark.parametrize("map_name", ["north_america", "europe", "iran"])
def test_resumed_games_go_on_exactly_at_every_cut_and_lineup(map_name, request):
    _check_resumes(request.getfixturevalue(map_name), RESUMED_LINEUPS, 5)


def _bots(names, seed):
    from ttr_core.bots import make_bot

    return [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(names)]


def test_a_resumed_search_bot_goes_on_exactly_without_searching_again(north_america):
    names = ["search:2", "greedy"]
    short = BASE.with_overrides({"wagons": "12"})
    full, records = _resumed_records(north_america, names, 8, [20], short)
    assert records[0][1] == {} and records[0][2] == full


@pytest.mark.slow
@pytest.mark.parametrize("map_name", ["north_america", "europe", "iran"])
def test_a_resumed_search_game_goes_on_exactly_on_every_map(map_name, request):
    game_map = request.getfixturevalue(map_name)
    names = ["search:8", "one-step", "search:8"]
    length = len(play_game(game_map, _bots(names, 9), 9).history)
    full, records = _resumed_records(game_map, names, 9, [2, length // 4, length // 2, length - 3])
    for cut, inexact, record in records:
        assert inexact == {} and record == full, cut


def test_catch_up_names_a_bot_that_cannot_go_on_exactly(north_america):
    class Stubborn:
        """Answers `pass` to everything: not the player the record was made by."""

        name = "stubborn"

        def act(self, view):
            return view.legal_actions()[-1]

    names = ["greedy", "random"]
    full = play_game(north_america, _bots(names, 3), 3)
    state = GameState(north_america, 2, 3)
    inexact = catch_up(state, [_bots(names, 3)[0], Stubborn()], full.history[:40])
    assert list(inexact) == [1] and 1 <= inexact[1] <= 40
    assert state.history == full.history[:40]  # the recorded actions, whatever it said


def test_catch_up_never_asks_a_person_or_the_host(north_america):
    asked = []

    class Watcher:
        def act(self, view):
            asked.append(view.seat)
            return view.legal_actions()[0]

    played = play_game(north_america, _bots(["random"] * 3, 4), 4).history
    history = [*played[:20], (None, parse_action("remove 2"))]
    state = GameState(north_america, 3, 4)
    inexact = catch_up(state, [None, Watcher(), None], history)
    assert asked and set(asked) == {1}  # seat 0 is a person; `remove 2` is the host's
    assert len(state.history) == 21 and set(inexact) <= {1}
