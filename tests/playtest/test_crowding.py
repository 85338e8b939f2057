"""Crowding in play (`ttr_core.playtest.crowding`): a table size plays on until its
count of connections taken is precise, and the games added are the run's own."""

from __future__ import annotations

from functools import cache

from ttr_core.playtest.crowding import MORE_GAMES, played_deck
from ttr_core.playtest.executors import iter_games
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_maps import load_map
from ttr_maps.analysis.tickets import TicketBoard


@cache
def _iran() -> tuple[PlayedMap, TicketBoard]:
    game_map = load_map("iran")
    return PlayedMap(game_map, "iran"), TicketBoard(game_map)


def test_a_run_extended_from_a_game_on_plays_the_games_it_lacks() -> None:
    played, _ = _iran()
    plan = RunPlan(6, 2, ("greedy",), 5)
    whole = list(iter_games(played, plan))
    tail = list(iter_games(played, plan, first=4))
    assert [g.index for g in tail] == [4, 5]
    assert tail == whole[4:]


def test_without_precision_the_games_asked_for_are_played() -> None:
    played, board = _iran()
    deck = played_deck(played, board, 2, 8, seed=3, precision=None)
    assert deck.games == 8


def test_a_wide_count_plays_on_until_precise_or_the_most_games() -> None:
    played, board = _iran()
    added: list[int] = []
    # 4 games at 2 players leave the count of connections taken a game wide open
    # (a few a game, spread widely): the size plays on.
    deck = played_deck(played, board, 2, 4, seed=3, precision=0.2, on_more=added.append)
    assert deck.games > 4 and sum(added) == deck.games - 4
    low, high = deck.blocked_ci95
    half = (high - low) / 2
    assert deck.games == 4 * MORE_GAMES or half <= 0.2 * deck.blocked_per_game + 1e-3
    # The same games as one run of that many: extending changes nothing played.
    again = played_deck(played, board, 2, deck.games, seed=3, precision=None)
    assert again == deck
