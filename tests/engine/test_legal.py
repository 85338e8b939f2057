"""The one legal-action dispatcher (`ttr_core.engine.legal`) and its facts
(`ttr_core.engine.facts`): the state and the view make the same facts and so the
same list; resigning is listed on request (D5)."""

from __future__ import annotations

import random

from engine_positions import europe_game, started

from ttr_core.engine.actions import (
    DRAW_DECK,
    DRAW_MARKET,
    DRAW_TICKETS,
    PASS,
    RESIGN,
    KeepTickets,
    Resign,
)
from ttr_core.engine.decisions import Decision
from ttr_core.engine.legal import DECISIONS
from ttr_core.engine.state import GameState


def _frozen(facts) -> tuple:
    return tuple(tuple(f) if isinstance(f, list) else f for f in facts)


def test_the_state_and_the_view_make_the_same_facts(north_america):
    rng = random.Random(2)
    state = GameState(north_america, 3, seed=2)
    while not state.is_over:
        for seat in range(3):
            if state.status[seat] == "active":
                facts = state.legal_facts(seat)
                view_facts = state.view(seat).legal_facts()
                if state.phase == "setup":  # R4: nobody is "to move" in a view
                    facts = facts._replace(is_my_turn=False)
                assert _frozen(facts) == _frozen(view_facts)
        state.apply(rng.choice(state.legal_actions()))


def test_every_kind_of_decision_has_its_rules():
    assert set(DECISIONS) == set(Decision.__args__)


def test_d5_a_plain_random_loop_over_legal_actions_never_resigns(north_america):
    rng = random.Random(3)
    state = GameState(north_america, 3, seed=3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert all(status == "active" for status in state.status)
    assert state.end_reason in ("final round", "all passed")


def test_d5_resign_is_legal_on_request_only(north_america):
    state = GameState(north_america, 2, seed=1)
    for seat in range(2):
        assert not any(isinstance(a, Resign) for a in state.legal_actions(seat))
        assert state.legal_actions(seat, include_resign=True)[-1] == Resign()
        assert state.view(seat).legal_actions(include_resign=True)[-1] == Resign()


def test_r6_a_seat_that_is_not_to_move_has_nothing_listed(north_america):
    state = started(north_america, 2)
    waiting = 1 - state.current
    assert state.legal_actions(waiting) == [] == state.view(waiting).legal_actions()
    assert state.legal_actions(waiting, include_resign=True) == [Resign()]


def test_the_order_draws_claims_stations_tickets():
    state = europe_game()
    kinds = [type(a).__name__ for a in state.legal_actions()]
    order = ["DrawDeck", "DrawMarket", "Claim", "BuildStation", "DrawTickets"]
    ranks = [order.index(kind) for kind in kinds]
    assert ranks == sorted(ranks) and ranks[0] == 0 and ranks[-1] == 4


def _candidates(state: GameState, seat: int, rng: random.Random) -> list:
    """Listed actions of every family, and actions of each family that are not
    listed now: stations in taken cities, claims of taken routes or too dear,
    draws from empty slots, tickets, pass, resign."""
    board = state.board
    listed = state.legal_actions(seat)
    others = [
        DRAW_DECK,
        *DRAW_MARKET,
        DRAW_TICKETS,
        PASS,
        RESIGN,
        KeepTickets((0,)),
        *rng.sample([c for options in board.claim_options for o in options for c in o], 40),
        *rng.sample(board.station_payments(1)[0][0] + board.station_payments(3)[5][1], 3),
    ]
    return listed + others


def test_is_legal_answers_as_membership_of_the_list(europe, north_america):
    """`is_legal` (the family's list only) says what `in legal_actions` says, for
    every family, on both maps, during setup, turns and pending decisions."""
    rng = random.Random(8)
    checked = 0
    for game_map, players in ((europe, 3), (north_america, 2)):
        state = GameState(game_map, players, seed=4)
        while not state.is_over:
            for seat in range(players):
                view = state.view(seat)
                listed = view.legal_actions()
                for action in _candidates(state, seat, rng):
                    assert view.is_legal(action) == (action in listed), action
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 10_000
