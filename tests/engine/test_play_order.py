"""Play order (`ttr_core.engine.compiled`, `Map.in_play_order`): the same map
written in another order (cities, routes, tickets, a route's or ticket's two cities,
a double's colours) plays the same games, bot for bot, seed for seed: the records
are equal up to the ids of a double's tracks. Version 1 records, dealt in the
file's order before play order, still replay exactly."""

from __future__ import annotations

import json
import random

import pytest
from engine_positions import EUROPE_TINY, TINY
from hypothesis import given, settings
from hypothesis import strategies as st
from reordered import map_data, renamed_record, renaming, reordered_data
from testdata import DATA

from ttr_core.bots import BOTS, make_bot
from ttr_core.engine.loop import bot_seed, run
from ttr_core.engine.record import (
    FILE_ORDER_VERSION,
    RECORD_VERSION,
    dump_record,
    map_fingerprint,
    read_record,
    record_of,
    replay,
    verify_record,
)
from ttr_core.engine.state import GameState
from ttr_maps import load_map
from ttr_maps.model import Map

#: Every bot but the search bot (too slow for many games; it plays from the same
#: numbering through the one loop).
PLAYERS = [name for name in BOTS if name != "search"]


def played(game_map: Map, bots: list[str], seed: int) -> dict:
    state = GameState(game_map, len(bots), seed)
    run(state, [make_bot(name, bot_seed(seed, s)) for s, name in enumerate(bots)])
    return json.loads(dump_record(record_of(state, bots)))


def same_game(data: dict, rng: random.Random, bots: list[str], seed: int) -> None:
    one = Map.from_data(data)
    other = Map.from_data(reordered_data(data, rng))
    names = renaming(one, other)
    first, second = played(one, bots, seed), played(other, bots, seed)
    assert first["result"] is not None
    assert renamed_record(first, names) == renamed_record(second, {})


def test_in_file_order_the_same_map_in_another_order_plays_other_games():
    """What play order is for: dealt and numbered as the files list things (as
    before), the two orders of one map play different games."""
    data = map_data("north_america")
    one = Map.from_data(data)
    other = Map.from_data(reordered_data(data, random.Random(1)))
    bots = ["greedy", "greedy"]

    def in_file_order(game_map: Map) -> dict:
        state = GameState(game_map, 2, 7, file_order=True)
        run(state, [make_bot(name, bot_seed(7, s)) for s, name in enumerate(bots)])
        return json.loads(dump_record(record_of(state, bots)))

    names = renaming(one, other)
    assert renamed_record(in_file_order(one), names) != renamed_record(in_file_order(other), {})


@settings(max_examples=25, deadline=None)
@given(
    order=st.randoms(use_true_random=False),
    seed=st.integers(0, 2**31),
    bots=st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=5),
)
def test_the_tiny_maps_in_any_order_play_the_same_games(order, seed, bots):
    for data in (TINY, EUROPE_TINY):  # base rules; stations, tunnels, ferries, long tickets
        same_game(data, order, bots, seed)


@pytest.mark.parametrize(
    ("map_id", "bots"),
    [
        ("north_america", ["greedy", "one-step", "long-route", "random"]),
        ("europe", ["destination-hungry", "route-focus", "greedy"]),
        ("iran", ["one-step", "greedy"]),
    ],
)
def test_a_bundled_map_in_another_order_plays_the_same_game(map_id, bots):
    same_game(map_data(map_id), random.Random(map_id), bots, seed=7)


# a search game twice; the tiny maps' test keeps order-free play in the default suite
@pytest.mark.slow
def test_the_search_bot_plays_the_same_game_in_another_order():
    same_game(map_data("iran"), random.Random(3), ["search:8", "greedy"], seed=5)


def test_the_fingerprint_does_not_depend_on_the_order_but_on_ids_and_bonuses():
    data = map_data("north_america")
    cities = dict(reversed(data["cities"].items()))
    same = dict(data, routes=list(reversed(data["routes"])), cities=cities)
    assert map_fingerprint(Map.from_data(same)) == map_fingerprint(Map.from_data(data))
    tickets = [dict(data["tickets"][0], bonus=2), *data["tickets"][1:]]
    assert map_fingerprint(Map.from_data(dict(data, tickets=tickets))) != map_fingerprint(
        Map.from_data(data)
    )


@pytest.mark.parametrize("name", ["v1-north_america.json", "v1-europe.json"])
def test_version_1_records_replay_exactly_in_file_order(name):
    record = read_record(DATA / "records" / name)
    assert record["version"] == FILE_ORDER_VERSION
    game_map = load_map(record["map"])
    assert verify_record(record, game_map) is None
    state = replay(record, game_map)
    assert state.board.file_order and state.map is game_map
    # Dealt again in play order, the same actions are not the same game.
    assert record_of(state, [])["version"] == FILE_ORDER_VERSION
    assert GameState(game_map, record["players"], record["seed"]).board.file_order is False


def test_a_game_continued_from_a_version_1_record_stays_version_1():
    record = read_record(DATA / "records" / "v1-europe.json")
    game_map = load_map(record["map"])
    state = replay({**record, "actions": record["actions"][:40], "result": None}, game_map)
    seats = [seat["player"] for seat in record["seats"]]
    run(state, [make_bot(name, bot_seed(record["seed"], s)) for s, name in enumerate(seats)])
    again = json.loads(dump_record(record_of(state, seats)))
    assert again["version"] == FILE_ORDER_VERSION
    assert again["map_fingerprint"] == record["map_fingerprint"]
    assert verify_record(again, game_map) is None


def test_new_records_are_version_2_in_play_order(north_america):
    record = played(north_america, ["greedy", "random"], 3)
    assert record["version"] == RECORD_VERSION == 2
    assert verify_record(record, north_america) is None


def test_a_stored_fingerprint_says_how_the_game_was_dealt(north_america):
    """The web table stores a game's fingerprint, not its record version: a game
    stored before play order has the file-order fingerprint, and is dealt again so."""
    from ttr_core.engine.record import order_for_fingerprint, state_fingerprint

    new = GameState(north_america, 2, 1)
    old = GameState(north_america, 2, 1, file_order=True)
    assert order_for_fingerprint(north_america, state_fingerprint(new)) is False
    assert order_for_fingerprint(north_america, state_fingerprint(old)) is True
    assert order_for_fingerprint(north_america, "0123456789abcdef") is None
