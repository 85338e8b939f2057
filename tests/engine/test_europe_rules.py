"""The `europe` rule set (E1-E5) on hand-built positions, and seeded playouts."""

from __future__ import annotations

import json

import pytest
from engine_positions import (
    EUROPE_TINY,
    LONG,
    assert_cards_conserved,
    assert_illegal,
    check_invariants,
    europe_game,
    europe_map,
    give_hand,
    play,
    playout,
    stack_deck,
)

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.actions import (
    BuildStation,
    GiveUpTunnel,
    KeepTickets,
    Payment,
    PayTunnel,
    Remove,
)
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.loop import bot_seed, play_game
from ttr_core.engine.record import dump_record, record_of, verify_record
from ttr_core.engine.state import GameState
from ttr_maps import load_map
from ttr_maps.model import Map


# ----------------------------------------------------------------------- E4
def test_e4_setup_deals_one_long_and_three_regular_tickets():
    state = GameState(europe_map(), 2, seed=3)
    for seat in range(2):
        offered = state.decision_for(seat).offered
        assert len(offered) == 4
        assert [t in LONG for t in offered] == [False, False, False, True]
    # The long ticket not dealt leaves the game at once.
    assert len(state.out_of_game_tickets) == 1
    assert not LONG & set(state.ticket_deck)


def test_e4_keep_at_least_two_of_four_and_returned_long_tickets_leave_the_game():
    state = GameState(europe_map(), 2, seed=3)
    assert_illegal(state, "keep 3", "R4", seat=0)
    long0 = state.decision_for(0).offered[3]
    regular1 = state.decision_for(1).offered[:3]
    play(state, "keep 0,1", seat=0)  # returns a regular ticket and the long one
    play(state, "keep 2,3", seat=1)  # keeps its long ticket
    assert long0 in state.out_of_game_tickets
    assert list(state.ticket_deck)[-2:] == list(regular1[:2])
    assert not LONG & set(state.ticket_deck)  # long tickets are never drawn later
    check_invariants(state)


def test_e4_base_rules_on_a_map_with_long_tickets_use_one_deck():
    state = GameState(europe_map(), 2, seed=3, rules="base")
    assert [len(state.decision_for(s).offered) for s in range(2)] == [3, 3]
    assert state.out_of_game_tickets == []


# ----------------------------------------------------------------------- E1
def test_e1_stations_cost_one_then_two_then_three_cards_of_one_colour():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, red=3, blue=2, loco=1)
    assert_illegal(state, "station A with red:2", "E1")  # the first costs 1
    play(state, "station A with loco:1")
    state.current = seat
    assert_illegal(state, "station B with red:1", "E1")  # the second costs 2
    play(state, "station B with red:2")
    state.current = seat
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
        state.current = seat
        play(state, f"station {city} with red:{cost}")
    state.current = seat
    give_hand(state, seat, red=3)
    assert not any(isinstance(a, BuildStation) for a in state.legal_actions())
    assert_illegal(state, "station D with red:3", "E1")
    other = 1 - seat
    state.current = other
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


def test_e1_unbuilt_stations_score_four_points_each():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, red=1)
    play(state, "station A with red:1")
    state._finish("final round")
    result = state.result()
    assert result.seats[seat].score["stations"] == 8
    assert result.seats[1 - seat].score["stations"] == 12
    assert result.seats[seat].stations == ("A",)


def test_e1_station_borrows_the_route_that_completes_the_most_ticket_value():
    state = europe_game()
    board = state.board
    me, other = 0, 1
    # I own A-B; the other player owns B-C and B-E (both touch B).
    for route, seat in (("A-B/1", me), ("B-C", other), ("B-E", other)):
        state._take_route(seat, board.route_index[route])
    state.station_owner[state.map.city_index["B"]] = me
    state.stations_left[me] = 2
    # Tickets: A-C (4) needs B-C; A-E (7) needs B-E: B-E is worth more.
    state.tickets[me] = [0, 3]
    state._finish("final round")
    seat = state.result().seats[me]
    assert seat.station_routes == ("B-E",)
    assert [t.completed for t in seat.tickets] == [False, True]
    assert seat.score["tickets"] == -4 + 7
    assert seat.longest_path == 2  # a borrowed route never counts for R16


def test_e1_two_stations_borrow_one_route_each():
    state = europe_game()
    board = state.board
    for route, seat in (("A-B/1", 1), ("B-C", 1), ("C-D", 0)):
        state._take_route(seat, board.route_index[route])
    for city in ("B", "C"):
        state.station_owner[state.map.city_index[city]] = 0
    state.tickets[0] = [1]  # A-D: A-B (borrowed at B) + B-C (borrowed at C) + C-D (mine)
    state._finish("final round")
    seat = state.result().seats[0]
    assert sorted(seat.station_routes) == ["A-B/1", "B-C"]
    assert seat.tickets[0].completed


def test_e1_fewer_stations_built_breaks_a_tie_after_tickets():
    state = europe_game()
    for seat in (0, 1):
        state.tickets[seat] = []
    state.stations_left = [3, 2]
    state.station_owner[state.map.city_index["C"]] = 1
    state.route_points = [4, 8]  # equal totals: 4 + 12 = 8 + 8
    state._finish("final round")
    result = state.result()
    assert [s.total for s in result.seats] == [16, 16]
    assert [s.rank for s in result.seats] == [1, 2]


# ----------------------------------------------------------------------- E2
def test_e2_tunnel_without_matching_cards_is_claimed_at_once():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, pink=3)
    stack_deck(state, ["red", "blue", "green"])
    discards = len(state.discard)
    play(state, "claim B-C with pink:3")
    assert state.owner[state.board.route_index["B-C"]] == seat
    assert len(state.discard) == discards + 3 + 3  # the payment and the turned cards
    assert state.current != seat
    assert_cards_conserved(state)


def test_e2_each_matching_card_or_locomotive_costs_one_more():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, pink=4, loco=2)
    stack_deck(state, ["pink", "loco", "red"])
    play(state, "claim B-C with pink:3")
    decision = state.decision_for(seat)
    assert decision.extra == 2
    assert state.view(1 - seat).tunnel.revealed == decision.revealed  # public
    listed = {str(a) for a in state.legal_actions(seat)}
    assert listed == {"pay pink:1 loco:1", "pay loco:2", "give up"}
    assert_illegal(state, "pay pink:2", "E2")  # holds only one more pink
    assert_cards_conserved(state)
    play(state, "pay pink:1 loco:1")
    assert state.owner[state.board.route_index["B-C"]] == seat
    assert state.hands[seat][CARD_INDEX["pink"]] == 0
    assert state.hands[seat][LOCO] == 1
    assert_cards_conserved(state)


def test_e2_giving_up_takes_the_cards_back_and_ends_the_turn():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, yellow=4)
    stack_deck(state, ["yellow", "yellow", "white"])
    play(state, "claim A-C with yellow:4")
    assert [str(a) for a in state.legal_actions(seat)] == ["give up"]
    play(state, "give up")
    assert state.hands[seat][CARD_INDEX["yellow"]] == 4
    assert state.owner[state.board.route_index["A-C"]] == -1
    assert state.current != seat
    assert CARD_INDEX["white"] in state.discard  # the turned cards are discarded
    assert_cards_conserved(state)


def test_e2_locomotives_only_payment_counts_only_locomotives():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, loco=5)
    stack_deck(state, ["red", "loco", "yellow"])
    play(state, "claim B-C with loco:3")
    decision = state.decision_for(seat)
    assert decision.extra == 1  # only the locomotive counts
    assert [str(a) for a in state.legal_actions(seat)] == ["pay loco:1", "give up"]
    assert_illegal(state, "pay red:1", "E2")
    play(state, "pay loco:1")
    assert state.hands[seat][LOCO] == 1


def test_e2_the_pending_tunnel_must_be_settled_first():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, pink=4)
    stack_deck(state, ["pink", "red", "red"])
    play(state, "claim B-C with pink:3")
    assert_illegal(state, "draw deck", "E2")
    assert state.apply(GiveUpTunnel()) is None


def test_e2_resigning_during_a_tunnel_discards_the_turned_cards():
    state = europe_game(3)
    seat = state.current
    give_hand(state, seat, pink=4)
    stack_deck(state, ["pink", "red", "red"])
    play(state, "claim B-C with pink:3")
    play(state, "resign", seat=seat)
    assert state.decision_for(seat) is None
    assert_cards_conserved(state)


# ----------------------------------------------------------------------- E3
def test_e3_ferry_needs_its_locomotives():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, red=2, loco=1)
    listed = {str(a) for a in state.legal_actions() if str(a).startswith("claim D-E")}
    assert listed == {"claim D-E with red:1 loco:1"}
    assert_illegal(state, "claim D-E with red:2", "E3")
    play(state, "claim D-E with red:1 loco:1")


def test_e3_ferry_that_is_also_a_tunnel():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, black=3, loco=2)
    assert_illegal(state, "claim B-E with black:3", "E3")
    stack_deck(state, ["black", "white", "white"])
    play(state, "claim B-E with black:2 loco:1")
    assert state.decision_for(seat).extra == 1
    assert PayTunnel(Payment("black", 1, 0)) in state.legal_actions(seat)
    play(state, "pay black:1")
    assert state.owner[state.board.route_index["B-E"]] == seat


def test_e3_ferries_are_ordinary_routes_under_the_base_rules():
    state = GameState(europe_map(), 2, seed=1, rules="base")
    for seat in range(2):
        state.apply(KeepTickets((0, 1, 2)), seat)
    give_hand(state, state.current, red=2)
    play(state, "claim D-E with red:2")


# ------------------------------------------------------------- playouts, records
@pytest.fixture(scope="module")
def europe():
    return load_map("europe")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_europe_random_playouts_keep_invariants(europe, players):
    for seed in range(2):
        state = playout(europe, players, seed, check_every_action=seed == 0)
        assert state.end_reason in ("final round", "all passed", "one player left")


def test_europe_record_carries_stations_and_tunnel_events_and_replays(europe):
    for seed in range(20):
        bots = [RandomBot(bot_seed(seed, s)) for s in range(3)]
        state = play_game(europe, bots, seed)
        record = json.loads(dump_record(record_of(state, ["random"] * 3)))
        tunnels = [a for a in record["actions"] if "revealed" in a]
        stations = [s for seat in record["result"]["seats"] for s in seat["stations"]]
        if tunnels and stations:
            break
    assert tunnels and stations
    assert verify_record(record, europe) is None
    tunnels[0]["revealed"] = [*reversed(tunnels[0]["revealed"]), "pink"]
    difference = verify_record(record, europe)
    assert difference is not None and ".revealed" in difference


def test_r6_e1_no_pass_while_a_station_can_still_be_built():
    state = europe_game()
    seat = state.current
    for pile in (state.deck, state.discard, [c for c in state.market if c is not None]):
        for card in pile:
            state.hands[1 - seat][card] += 1
    state.deck, state.discard, state.market = [], [], [None] * 5
    state.ticket_deck.clear()
    state.hands[1 - seat][CARD_INDEX["red"]] -= 1
    state.hands[seat] = [0] * 9
    state.hands[seat][CARD_INDEX["red"]] = 1  # not enough for any route, enough for a station
    assert [str(a) for a in state.legal_actions()][:2] == [
        "station A with red:1",
        "station B with red:1",
    ]
    assert_illegal(state, "pass", "R6")


# ------------------------------------------------- E1 tie-breaks between choices
def test_e1_among_equal_ticket_points_the_choice_completing_more_tickets_wins():
    game_map = Map.from_data(
        {
            **EUROPE_TINY,
            "tickets": [
                {"between": ["A", "C"], "value": 9},
                {"between": ["B", "E"], "value": 4},
                {"between": ["A", "E"], "value": 5},
            ],
        }
    )
    state = GameState(game_map, 2, seed=1)
    for seat in range(2):
        decision = state.decision_for(seat)
        if decision is not None:
            state.apply(KeepTickets(tuple(range(len(decision.offered)))), seat)
    board = state.board
    for route, seat in (("A-B/1", 0), ("B-C", 1), ("B-E", 1)):
        state._take_route(seat, board.route_index[route])
    state.station_owner[state.map.city_index["B"]] = 0
    state.tickets[0] = [0, 1, 2]
    state._finish("final round")
    seat = state.result().seats[0]
    # Borrowing B-C completes A-C (9); borrowing B-E completes B-E and A-E (4 + 5):
    # both give 0 ticket points, and R17 ranks on completed tickets next.
    assert seat.station_routes == ("B-E",)
    assert [t.completed for t in seat.tickets] == [False, True, True]


def test_e1_among_equally_good_choices_the_one_borrowing_fewer_routes_wins():
    state = europe_game()
    board = state.board
    for route in ("A-B/1", "B-C", "A-C"):
        state._take_route(1, board.route_index[route])
    for city in ("A", "B"):
        state.station_owner[state.map.city_index[city]] = 0
    state.tickets[0] = [0]  # A-C: borrowed A-C alone, or A-B/1 and B-C together
    state._finish("final round")
    seat = state.result().seats[0]
    assert seat.station_routes == ("A-C",)
    assert seat.tickets[0].completed


# --------------------------------------- E2, R12, D5: a game ending mid-decision
def test_e2_d5_game_ending_during_a_tunnel_payment_discards_the_turned_cards():
    state = europe_game(3)
    seat = state.current
    give_hand(state, seat, pink=4)
    stack_deck(state, ["pink", "red", "red"])
    play(state, "claim B-C with pink:3")
    assert state.decision_for(seat) is not None  # the tunnel asks for one more card
    others = [s for s in range(3) if s != seat]
    state.apply(Remove(others[0]))
    state.apply(Remove(others[1]))  # one player left: the game ends (D5)
    assert state.is_over and not state.pending
    assert_cards_conserved(state)  # the 3 turned-up cards are in the discards


def test_r12_d5_game_ending_during_a_ticket_choice_returns_the_offered_tickets():
    state = europe_game(3)
    seat = state.current
    total = len(state.map.tickets)
    play(state, "tickets")
    assert len(state.decision_for(seat).offered) == 3
    for other in (s for s in range(3) if s != seat):
        state.apply(Remove(other))
    assert state.is_over
    held = sum(len(t) for t in state.tickets)
    assert held + len(state.ticket_deck) + len(state.out_of_game_tickets) == total


def test_r4_e4_game_ending_during_setup_returns_every_offered_and_held_ticket():
    state = GameState(europe_map(), 3, seed=2)
    state.apply(KeepTickets((0, 1)), 0)  # its returns are held until setup ends (R4)
    state.apply(Remove(1))
    state.apply(Remove(2))
    assert state.is_over
    held = sum(len(t) for t in state.tickets)
    assert held + len(state.ticket_deck) + len(state.out_of_game_tickets) == len(state.map.tickets)
    # E4: long tickets returned or never dealt leave the game, never the regular deck.
    assert not LONG & set(state.ticket_deck)
