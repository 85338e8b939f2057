"""Seeded random playouts checking the engine's invariants after every action,
legal moves against legality, hidden information, and records."""

from __future__ import annotations

import json

import pytest
from engine_positions import playout, started, tiny_map
from hypothesis import given
from hypothesis import strategies as st

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.actions import (
    DrawDeck,
    Payment,
    parse_action,
)
from ttr_core.engine.errors import InvalidAction
from ttr_core.engine.loop import bot_seed, play_game
from ttr_core.engine.record import dump_record, record_of, replay, verify_record
from ttr_maps import load_map


@pytest.fixture(scope="module")
def north_america():
    return load_map("north_america")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_keep_invariants_on_north_america(north_america, players):
    """Invariants after every action of 25 games per player count. In the first game
    every listed action is applied (to a copy) at every step; in the others, at every
    fourth step, a sample of listed actions must apply and unlisted ones must raise."""
    for seed in range(25):
        state = playout(north_america, players, seed, check_every_action=seed == 0)
        assert state.end_reason in ("final round", "all passed", "one player left")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_games_terminate_with_valid_results(north_america, players):
    for seed in range(80):
        bots = [RandomBot(bot_seed(seed, s)) for s in range(players)]
        state = play_game(north_america, bots, seed)
        result = state.result()
        assert sorted(s.rank for s in result.seats)[0] == 1
        for seat in result.seats:
            assert seat.total == sum(seat.score.values())
            assert seat.wagons_left + sum(r.length for r in seat.routes) == 45


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_many_seeds(north_america, players):
    for seed in range(100):
        playout(north_america, players, 1000 + seed, check_every_action=False)


def test_random_playouts_on_a_tiny_map_reach_both_endings():
    """Few routes, few wagons: games end by the final round (R14) or, when the
    board is full and nobody can act, by everyone passing (R6)."""
    reasons = set()
    for seed in range(30):
        game_map = tiny_map(settings={"wagons": 6 + seed % 8})
        state = playout(game_map, 2 + seed % 4, seed, check_every_action=seed < 3)
        reasons.add(state.end_reason)
    assert reasons == {"all passed", "final round"}


# --------------------------------------------------------------------- R5, D6
def test_r5_d6_view_does_not_change_when_hidden_information_does(north_america):
    state = started(north_america, 3, seed=11)
    seat = state.current
    other = (seat + 1) % 3
    before = state.view(seat)
    twin = state.clone()
    twin.rng.shuffle(twin.deck)  # another deck order
    hand = twin.hands[other]
    moved = next(c for c in range(8) if hand[c])
    target = next(c for c in range(8) if c != moved)
    hand[moved] -= 1
    hand[target] += 1  # another hand, same size
    twin.tickets[other].reverse()
    assert twin.view(seat) == before
    assert twin.view(other) != state.view(other)


def test_r5_view_holds_no_hidden_fields(north_america):
    view = started(north_america, 2).view(0)
    fields = set(view._fields)
    assert not fields & {"deck", "hands", "ticket_deck", "rng"}
    assert len(view.hand) == 9 and len(view.card_counts) == 2


def test_view_is_a_snapshot(north_america):
    state = started(north_america, 2)
    seat = state.current
    view = state.view(seat)
    hand, deck_size, owners = view.hand, view.deck_size, view.owners
    state.apply(DrawDeck())
    state.apply(DrawDeck())
    give = state.board.route_index["Atlanta-Nashville"]
    state._take_route(seat, give)
    assert (view.hand, view.deck_size, view.owners) == (hand, deck_size, owners)
    fresh = state.view(seat)
    assert sum(fresh.hand) == sum(hand) + 2
    assert fresh.deck_size == deck_size - 2
    assert fresh.owners[give] == seat and owners[give] == -1


# ------------------------------------------------------------------ notation
@given(
    st.sampled_from(
        [
            "draw deck",
            "draw market 4",
            "claim Denver-Kansas_City/2 with red:3 loco:1",
            "claim Atlanta-Miami with loco:5",
            "claim A-B with green:2",
            "tickets",
            "keep 0,2",
            "keep 1",
            "pass",
            "resign",
            "remove 3",
        ]
    )
)
def test_every_action_notation_round_trips(text):
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_legal_actions_round_trip_through_text(north_america):
    state = started(north_america, 4, seed=3)
    for action in state.legal_actions():
        assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    "text", ["", "draw", "claim X", "claim A-B with", "claim A-B with red:x", "keep 0,0", "fly"]
)
def test_unreadable_actions_are_invalid(text):
    with pytest.raises(InvalidAction):
        parse_action(text)


@pytest.mark.parametrize(
    ("color", "colored", "locos"), [(None, 1, 0), ("red", -2, 5), ("purple", 1, 0), (None, 0, -1)]
)
def test_r9_r3_impossible_payments_are_invalid(color, colored, locos):
    """No payment that pays nothing, creates cards or names an unknown colour."""
    with pytest.raises(InvalidAction):
        Payment(color, colored, locos)


# ------------------------------------------------------------------- records
def test_same_seed_and_actions_give_a_byte_identical_record(north_america):
    def record_text(seed):
        bots = [RandomBot(bot_seed(seed, s)) for s in range(3)]
        state = play_game(north_america, bots, seed)
        return dump_record(record_of(state, ["random"] * 3))

    assert record_text(5) == record_text(5)
    assert record_text(5) != record_text(6)


def test_record_replays_to_the_identical_result(north_america):
    bots = [RandomBot(bot_seed(8, s)) for s in range(4)]
    state = play_game(north_america, bots, 8)
    record = json.loads(dump_record(record_of(state, ["random"] * 4)))
    again = replay(record, north_america)
    assert again.result() == state.result()
    assert verify_record(record, north_america) is None
    record["result"]["seats"][2]["total"] += 1
    assert verify_record(record, north_america) == (
        f"result.seats[2].total: {state.result().seats[2].total + 1!r} != "
        f"{state.result().seats[2].total!r}"
    )


def test_record_with_a_resignation_and_a_removal_replays(north_america):
    state = started(north_america, 4, seed=2)
    state.apply(parse_action("resign"), seat=(state.current + 1) % 4)
    state.apply(parse_action(f"remove {(state.current + 2) % 4}"))
    bots = [RandomBot(s) for s in range(4)]
    while not state.is_over:
        seat = state.to_move
        state.apply(bots[seat].act(state.view(seat)), seat)
    record = json.loads(dump_record(record_of(state, ["x"] * 4)))
    assert verify_record(record, north_america) is None
    statuses = sorted(s["status"] for s in record["result"]["seats"])
    assert statuses == ["active", "active", "removed", "resigned"]


def test_clone_is_independent(north_america):
    state = started(north_america, 2)
    before = (state.deck[:], [h[:] for h in state.hands], state.rng.getstate())
    twin = state.clone()
    twin.apply(DrawDeck())
    twin.apply(DrawDeck())
    assert (state.deck, state.hands, state.rng.getstate()) == before
    assert len(twin.history) == len(state.history) + 2
    again = state.clone()  # the same random source: the same cards come next
    again.apply(DrawDeck())
    again.apply(DrawDeck())
    assert again.hands == twin.hands
