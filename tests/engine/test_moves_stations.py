"""E1: building stations (`ttr_core.engine.moves.stations`; what they are worth
at the end is in test_result.py)."""

from __future__ import annotations

import pytest
from engine_positions import (
    assert_cards_conserved,
    assert_illegal,
    cards,
    europe_game,
    europe_map,
    hand_everything_to,
    play,
)

from ttr_core.engine.actions import BuildStation, KeepTickets, Payment
from ttr_core.engine.cards import CARD_INDEX
from ttr_core.engine.errors import InvalidAction
from ttr_core.engine.positions import arrange, give_hand
from ttr_core.engine.state import GameState


def test_e1_stations_cost_one_then_two_then_three_cards_of_one_colour():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, red=3, blue=2, loco=1)
    assert_illegal(state, "station A with red:2", "E1")  # the first costs 1
    play(state, "station A with loco:1")
    arrange(state, current=seat)
    assert_illegal(state, "station B with red:1", "E1")  # the second costs 2
    play(state, "station B with red:2")
    arrange(state, current=seat)
    assert_illegal(state, "station C with blue:2", "E1")  # the third costs 3
    assert_illegal(state, "station C with blue:3", "E1")  # holds only two blue
    assert not any(isinstance(a, BuildStation) for a in state.legal_actions())
    assert state.stations_left[seat] == 1
    assert state.station_owner[state.map.city_index["A"]] == seat
    assert_cards_conserved(state)


def test_e1_three_stations_per_player_one_per_city():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, red=6)
    for city, cost in (("A", 1), ("B", 2), ("C", 3)):
        arrange(state, current=seat)
        play(state, f"station {city} with red:{cost}")
    arrange(state, current=seat)
    give_hand(state, seat, red=3)
    assert not any(isinstance(a, BuildStation) for a in state.legal_actions())
    assert_illegal(state, "station D with red:3", "E1")
    other = 1 - seat
    arrange(state, current=other)
    give_hand(state, other, green=1)
    assert_illegal(state, "station A with green:1", "E1")  # A has a station
    assert BuildStation("D", Payment("green", 1, 0)) in state.legal_actions()


def test_e1_stations_are_not_part_of_the_base_rules():
    state = GameState(europe_map(), 2, seed=1, rules="base")
    for seat in range(2):
        state.apply(KeepTickets((0, 1, 2)), seat)
    give_hand(state, state.current, red=1)
    assert not any(isinstance(a, BuildStation) for a in state.legal_actions())
    assert_illegal(state, "station A with red:1", "E1")


def test_e1_unknown_city_is_an_invalid_action():
    state = europe_game()
    with pytest.raises(InvalidAction, match="no city"):
        play(state, "station Atlantis with red:1")


def test_r6_e1_no_pass_while_a_station_can_still_be_built():
    state = europe_game()
    seat, other = state.current, 1 - state.current
    hand_everything_to(state, other)
    # I keep one red: too few cards for any route, enough for a station.
    theirs = [mine + held for mine, held in zip(state.hands[seat], state.hands[other], strict=True)]
    theirs[CARD_INDEX["red"]] -= 1
    arrange(
        state,
        hands={seat: cards(red=1), other: theirs},
        ticket_deck=[],
        tickets={other: state.tickets[other] + list(state.ticket_deck)},
    )
    assert [str(a) for a in state.legal_actions()][:2] == [
        "station A with red:1",
        "station B with red:1",
    ]
    assert_illegal(state, "pass", "R6")
