"""The one game loop (`ttr_core.engine.loop`): players that act on views, pick
from legal actions or decide on the state, `on_step`, `StopGame`, `play_game`."""

from __future__ import annotations

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.actions import Action
from ttr_core.engine.loop import StopGame, bot_seed, play_game, run
from ttr_core.engine.record import dump_record, record_of
from ttr_core.engine.state import GameState
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
