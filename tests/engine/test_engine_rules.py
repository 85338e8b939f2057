"""Each base rule (R1-R17) and decision (D1-D6) on hand-built positions."""

from __future__ import annotations

import pytest
from engine_positions import (
    assert_cards_conserved,
    assert_illegal,
    give_hand,
    play,
    set_market,
    snapshot,
    stack_deck,
    started,
    tiny_map,
)

from ttr_core.engine.actions import (
    DrawDeck,
    DrawMarket,
    DrawTickets,
    KeepTickets,
    Pass,
    Remove,
    Resign,
    parse_action,
)
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.state import GameState


# --------------------------------------------------------------------- R1, R3, R4
def test_r1_two_to_five_players():
    for players in (1, 6):
        with pytest.raises(ValueError, match="R1"):
            GameState(tiny_map(), players, seed=1)


def test_r3_r4_setup_deals_cards_tickets_and_wagons():
    state = GameState(tiny_map(), 3, seed=5)
    assert_cards_conserved(state)
    assert [sum(h) for h in state.hands] == [4, 4, 4]
    assert state.wagons == [45, 45, 45]
    assert [len(state.decision_for(s).offered) for s in range(3)] == [3, 3, 3]
    assert sum(1 for c in state.market if c is not None) == 5


def test_r4_wagons_come_from_map_settings():
    state = GameState(tiny_map(settings={"wagons": 30}), 2, seed=5)
    assert state.wagons == [30, 30]


def test_r4_keep_at_least_two_at_setup():
    state = GameState(tiny_map(), 2, seed=5)
    assert_illegal(state, "keep 1", "R4", seat=0)
    assert_illegal(state, "draw deck", "R4", seat=0)
    play(state, "keep 0,2", seat=0)
    assert len(state.tickets[0]) == 2


def test_r4_r12_a_ticket_cannot_be_kept_twice():
    state = GameState(tiny_map(), 2, seed=5)
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="R4: each offered ticket can be kept once"):
        state.apply(KeepTickets((0, 0)), 0)
    assert snapshot(state) == before


def test_r4_choices_are_simultaneous_and_returns_go_under_the_deck_afterwards():
    state = GameState(tiny_map(), 2, seed=5)
    deck_before = list(state.ticket_deck)
    offered0 = state.decision_for(0).offered
    offered1 = state.decision_for(1).offered
    play(state, "keep 0,1", seat=0)
    # Seat 1 has not chosen: nothing returned yet, and seat 1 cannot see a count.
    assert list(state.ticket_deck) == deck_before
    assert state.view(1).ticket_counts[0] == 0
    assert state.phase == "setup"
    play(state, "keep 1,2", seat=1)
    assert state.phase == "playing"
    assert list(state.ticket_deck) == [*deck_before, offered0[2], offered1[0]]
    assert state.view(1).ticket_counts == (2, 2)


def test_r4_seats_may_choose_in_any_order():
    state = GameState(tiny_map(), 3, seed=5)
    play(state, "keep 0,1,2", seat=2)
    play(state, "keep 0,1", seat=0)
    assert state.phase == "setup"
    play(state, "keep 0,1", seat=1)
    assert state.phase == "playing"


def test_r4_first_player_is_chosen_by_the_seeded_random_source():
    firsts = {GameState(tiny_map(), 4, seed=s).first_player for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GameState(tiny_map(), 4, seed=9).first_player == GameState(tiny_map(), 4, 9).first_player


# ---------------------------------------------------------------------- R6, R7
def test_r6_only_the_seat_to_move_may_act():
    state = started(tiny_map())
    other = 1 - state.current
    assert_illegal(state, "draw deck", "R6", seat=other)


def test_r7_face_up_locomotive_as_first_card_ends_the_turn():
    state = started(tiny_map())
    seat = state.current
    set_market(state, ["loco", "red", "red", "blue", "green"])
    locos = state.hands[seat][LOCO]
    play(state, "draw market 0")
    assert state.hands[seat][LOCO] == locos + 1
    assert state.current != seat
    assert state.market[0] is not None  # replaced at once


def test_r7_face_up_locomotive_cannot_be_the_second_card():
    state = started(tiny_map())
    set_market(state, ["red", "loco", "blue", "green", "white"])
    play(state, "draw market 0")
    set_market(state, ["red", "loco", "blue", "green", "white"])
    assert DrawMarket(1) not in state.legal_actions()
    assert_illegal(state, "draw market 1", "R7")
    assert_illegal(state, "tickets", "R7")


def test_r7_blind_locomotive_has_no_restriction():
    state = started(tiny_map())
    seat = state.current
    set_market(state, ["red", "red", "blue", "green", "white"])
    stack_deck(state, ["loco", "loco"])
    locos = state.hands[seat][LOCO]
    play(state, "draw deck")
    assert state.current == seat  # a blind locomotive does not end the turn
    play(state, "draw deck")
    assert state.hands[seat][LOCO] == locos + 2
    assert state.current != seat


def test_r7_taken_face_up_card_is_replaced_from_the_deck():
    state = started(tiny_map())
    set_market(state, ["red", "red", "blue", "green", "white"])
    stack_deck(state, ["pink"])
    play(state, "draw market 2")
    assert state.market[2] == CARD_INDEX["pink"]


# ------------------------------------------------------------------ R8, D2, D3
def test_r8_three_face_up_locomotives_reset_the_market():
    state = started(tiny_map())
    set_market(state, ["loco", "loco", "red", "blue", "green"])
    stack_deck(state, ["loco", "red", "red", "red", "red", "red"])
    discards = len(state.discard)
    play(state, "draw market 2")  # the replacement is a third locomotive
    assert state.market.count(LOCO) < 3
    assert len(state.discard) == discards + 5
    assert_cards_conserved(state)


def test_d2_market_reset_loop_that_cannot_be_broken_stops():
    state = started(tiny_map())
    seat = state.current
    # Everything but 2 non-locomotives and the locomotives sits in hands.
    pool = state.deck + state.discard + [c for c in state.market if c is not None]
    state.deck, state.discard = [], []
    state.market = [LOCO, LOCO, LOCO, None, None]
    rest = [c for c in pool]
    for card in (LOCO, LOCO, LOCO):
        rest.remove(card)
    non_locos = [c for c in rest if c != LOCO][:2]
    for card in non_locos:
        rest.remove(card)
    for card in rest:
        state.hands[seat][card] += 1
    state.deck = non_locos
    state._refill_market()  # must not loop forever
    assert state.market.count(LOCO) == 3
    assert_cards_conserved(state)


def test_r8_discards_are_shuffled_into_a_new_deck_when_it_runs_out():
    state = started(tiny_map())
    seat = state.current
    state.discard.extend(state.deck[:-1])
    state.deck = state.deck[-1:]
    play(state, "draw deck")
    assert state.deck  # the discards became the new deck
    assert state.discard == []
    play(state, "draw deck")
    assert sum(state.hands[seat]) == 4 + 2
    assert_cards_conserved(state)


def test_d3_no_card_draw_when_deck_discards_and_market_are_empty():
    state = started(tiny_map())
    seat = state.current
    for pile in (state.deck, state.discard, [c for c in state.market if c is not None]):
        for card in pile:
            state.hands[1 - seat][card] += 1
    state.deck, state.discard, state.market = [], [], [None] * 5
    actions = state.legal_actions()
    assert DrawDeck() not in actions
    assert not any(isinstance(a, DrawMarket) for a in actions)
    assert_illegal(state, "draw deck", "D3")
    assert_illegal(state, "draw market 0", "D3")


def test_d3_turn_ends_after_one_card_when_no_second_card_exists():
    state = started(tiny_map())
    seat = state.current
    # Deck and discards empty; the market holds one red and locomotives only.
    pool = state.deck + state.discard + [c for c in state.market if c is not None]
    state.deck, state.discard = [], []
    state.market = [CARD_INDEX["red"], LOCO, LOCO, None, None]
    for card in (CARD_INDEX["red"], LOCO, LOCO):
        pool.remove(card)
    for card in pool:
        state.hands[1 - seat][card] += 1
    play(state, "draw market 0")
    assert state.current != seat
    assert_cards_conserved(state)


# ------------------------------------------------------------------- R9, R10
def test_r9_pay_with_the_route_colour_and_locomotives():
    state = started(tiny_map())
    seat = state.current
    give_hand(state, seat, red=1, loco=1, yellow=4)
    play(state, "claim A-B/1 with red:1 loco:1")
    assert state.owner[state.board.route_index["A-B/1"]] == seat
    assert state.hands[seat][CARD_INDEX["red"]] == 0
    assert state.wagons[seat] == 43
    assert_cards_conserved(state)


def test_r9_wrong_colour_wrong_count_and_missing_cards_are_refused():
    state = started(tiny_map())
    seat = state.current
    give_hand(state, seat, red=3, blue=1, loco=1)
    assert_illegal(state, "claim A-B/1 with blue:2", "R9")  # red route
    assert_illegal(state, "claim A-B/1 with red:3", "R9")  # costs 2
    assert_illegal(state, "claim A-B/2 with blue:2", "R9")  # only one blue
    assert_illegal(state, "claim A-B/1 with loco:2", "R9")  # only one locomotive


def test_r9_gray_route_takes_any_one_colour():
    state = started(tiny_map())
    seat = state.current
    give_hand(state, seat, pink=2, white=1, loco=1)
    claims = {str(a) for a in state.legal_actions() if str(a).startswith("claim B-C")}
    assert claims == {"claim B-C with pink:2 loco:1"}
    with pytest.raises(InvalidAction):
        parse_action("claim B-C with pink:1 white:1 loco:1")
    play(state, "claim B-C with pink:2 loco:1")
    assert state.route_points[seat] == 4  # R10: length 3 scores 4


def test_r9_a_route_can_be_paid_with_locomotives_only():
    state = started(tiny_map())
    seat = state.current
    give_hand(state, seat, loco=4)
    assert parse_action("claim A-C with loco:4") in state.legal_actions()
    play(state, "claim A-C with loco:4")
    assert state.route_points[seat] == 7


def test_r9_claimed_route_belongs_to_its_owner():
    state = started(tiny_map())
    seat = state.current
    give_hand(state, seat, green=1)
    play(state, "claim C-D with green:1")
    give_hand(state, 1 - seat, green=1)
    assert_illegal(state, "claim C-D with green:1", "R9")


def test_r9_a_player_with_too_few_wagons_cannot_claim():
    state = started(tiny_map())
    seat = state.current
    give_hand(state, seat, black=6)
    state.wagons[seat] = 5
    assert not any(str(a).startswith("claim B-E") for a in state.legal_actions())
    assert_illegal(state, "claim B-E with black:6", "R9")


def test_r9_unknown_route_is_an_invalid_action():
    state = started(tiny_map())
    with pytest.raises(InvalidAction, match="no route"):
        play(state, "claim A-Z with red:1")


@pytest.mark.parametrize(
    ("length", "points"), [(1, 1), (2, 2), (3, 4), (4, 7), (5, 10), (6, 15), (7, 18), (8, 21)]
)
def test_r10_route_points(length, points):
    game_map = tiny_map(
        routes=[
            {"between": ["A", "B"], "length": length, "color": "red"},
            {"between": ["B", "C"], "length": 1, "color": "red"},
            {"between": ["C", "D"], "length": 1, "color": "red"},
            {"between": ["D", "E"], "length": 1, "color": "red"},
        ]
    )
    state = started(game_map)
    seat = state.current
    give_hand(state, seat, red=min(length, 8), loco=max(0, length - 8))
    play(state, f"claim A-B with red:{length}")
    assert state.route_points[seat] == points


# ----------------------------------------------------------------------- R11
@pytest.mark.parametrize("players", [2, 3])
def test_r11_double_route_closes_in_two_and_three_player_games(players):
    state = started(tiny_map(), players)
    first = state.current
    give_hand(state, first, red=2)
    play(state, "claim A-B/1 with red:2")
    second = state.current
    give_hand(state, second, blue=2)
    assert not any(str(a).startswith("claim A-B/2") for a in state.legal_actions())
    assert_illegal(state, "claim A-B/2 with blue:2", "R11")


@pytest.mark.parametrize("players", [4, 5])
def test_r11_double_route_stays_open_to_others_with_four_or_five_players(players):
    state = started(tiny_map(), players)
    first = state.current
    give_hand(state, first, red=2)
    play(state, "claim A-B/1 with red:2")
    second = state.current
    give_hand(state, second, blue=2)
    assert parse_action("claim A-B/2 with blue:2") in state.legal_actions()
    play(state, "claim A-B/2 with blue:2")
    assert state.owner[state.board.route_index["A-B/2"]] == second


def test_r11_one_player_never_owns_both_tracks():
    state = started(tiny_map(), 4)
    seat = state.current
    give_hand(state, seat, red=2, blue=2)
    play(state, "claim A-B/1 with red:2")
    state.current = seat  # the same player's next turn
    assert_illegal(state, "claim A-B/2 with blue:2", "R11")


# ----------------------------------------------------------------- R12, D4, R13
def test_r12_draw_three_tickets_keep_at_least_one_return_the_rest_under_the_deck():
    state = started(tiny_map())
    seat = state.current
    top = list(state.ticket_deck)[:3]
    play(state, "tickets")
    assert state.decision_for(seat).offered == tuple(top)
    assert_illegal(state, "draw deck", "R12")
    before = len(state.tickets[seat])
    play(state, "keep 1")
    assert state.tickets[seat][before:] == [top[1]]
    assert list(state.ticket_deck)[-2:] == [top[0], top[2]]
    assert state.current != seat


def test_r12_fewer_than_three_tickets_left():
    state = started(tiny_map())
    while len(state.ticket_deck) > 2:
        state.ticket_deck.popleft()
    left = list(state.ticket_deck)
    play(state, "tickets")
    assert state.decision_for(state.current).offered == tuple(left)
    assert {str(a) for a in state.legal_actions()} == {"keep 0", "keep 1", "keep 0,1"}


def test_d4_drawing_tickets_is_impossible_when_the_ticket_deck_is_empty():
    state = started(tiny_map())
    state.ticket_deck.clear()
    assert DrawTickets() not in state.legal_actions()
    assert_illegal(state, "tickets", "D4")


def test_r13_ticket_complete_through_any_chain_of_own_routes():
    state = started(tiny_map())
    seat = state.current
    other = 1 - seat
    state.tickets[seat] = [1]  # A-D
    for route, owner in (("A-B/1", seat), ("B-C", seat), ("C-D", other)):
        state._take_route(owner, state.board.route_index[route])
    assert not state.is_ticket_complete(seat, 1)
    state._take_route(seat, state.board.route_index["A-C"])
    assert not state.is_ticket_complete(seat, 1)  # C-D belongs to the other player
    state.owner[state.board.route_index["C-D"]] = -1
    state._take_route(seat, state.board.route_index["C-D"])
    assert state.is_ticket_complete(seat, 1)
    assert state.view(seat).tickets[0].completed


# ------------------------------------------------------------------------- R6
def test_r6_pass_is_legal_only_when_nothing_else_is():
    state = started(tiny_map())
    assert Pass() not in state.legal_actions()
    assert_illegal(state, "pass", "R6")


def _stall(state: GameState) -> None:
    """Nothing to draw, no tickets, no affordable route: every seat must pass.
    (The cards simply leave play; these tests do not count them.)"""
    state.deck, state.discard, state.market = [], [], [None] * 5
    state.hands = [[0] * 9 for _ in state.hands]
    state.ticket_deck.clear()


def test_r6_all_active_players_passing_in_a_row_ends_the_game():
    state = started(tiny_map(), 3)
    _stall(state)
    assert state.legal_actions() == [Pass()]
    assert state.legal_actions(include_resign=True) == [Pass(), Resign()]
    play(state, "pass")
    play(state, "pass")
    assert not state.is_over
    play(state, "pass")
    assert state.is_over
    assert state.end_reason == "all passed"


# ------------------------------------------------------------------- R14, D1
def test_r14_d1_final_round_each_other_player_once_then_the_trigger_once_more():
    state = started(tiny_map(), 3)
    trigger = state.current
    state.wagons[trigger] = 4
    give_hand(state, trigger, red=2)
    play(state, "claim A-B/1 with red:2")  # ends the turn with 2 wagons
    assert state.final_queue == [(trigger + 1) % 3, (trigger + 2) % 3, trigger]
    order = []
    while not state.is_over:
        order.append(state.current)
        play(state, "draw deck")
        if not state.is_over and state.decision_for(state.current):
            play(state, "draw deck")
    assert order == [(trigger + 1) % 3, (trigger + 2) % 3, trigger]
    assert state.end_reason == "final round"


def test_d1_final_round_is_triggered_only_once():
    state = started(tiny_map(), 2)
    trigger = state.current
    state.wagons[trigger] = 3
    give_hand(state, trigger, red=2)
    play(state, "claim A-B/1 with red:2")
    other = state.current
    state.wagons[other] = 2
    give_hand(state, other, green=1)
    play(state, "claim C-D with green:1")  # also low, but the round is already on
    assert state.final_queue == [trigger]
    assert state.current == trigger


def test_d1_a_pass_counts_as_the_final_turn():
    state = started(tiny_map(), 2)
    trigger = state.current
    state.wagons[trigger] = 3
    give_hand(state, trigger, red=2)
    play(state, "claim A-B/1 with red:2")
    _stall(state)
    play(state, "pass")
    play(state, "pass")
    assert state.is_over


def test_d1_d5_final_round_with_a_resignation_inside_it():
    state = started(tiny_map(), 4)
    trigger = state.current
    state.wagons[trigger] = 3
    give_hand(state, trigger, red=2)
    play(state, "claim A-B/1 with red:2")
    nxt, after = (trigger + 1) % 4, (trigger + 2) % 4
    play(state, "resign", seat=after)  # a seat that has not yet played its final turn
    assert state.final_queue == [nxt, (trigger + 3) % 4, trigger]
    play(state, "resign", seat=nxt)  # the seat to move resigns: its turn is over
    assert state.current == (trigger + 3) % 4
    play(state, "tickets")
    play(state, "keep 0")
    assert state.current == trigger
    play(state, "tickets")
    play(state, "keep 0")
    assert state.is_over and state.end_reason == "final round"


# ------------------------------------------------------------------------- D5
def test_d5_resign_hand_to_discards_routes_stay_ranked_last_no_bonus():
    state = started(tiny_map(), 3)
    seat = state.current
    give_hand(state, seat, black=6, red=1)
    play(state, "claim B-E with black:6")
    discards = len(state.discard)
    play(state, "resign", seat=seat)
    assert state.status[seat] == "resigned"
    assert sum(state.hands[seat]) == 0
    assert len(state.discard) == discards + 1
    assert state.owner[state.board.route_index["B-E"]] == seat
    assert state.legal_actions(seat) == []
    assert_illegal(state, "draw deck", "D5", seat=seat)
    play(state, "resign", seat=state.current)  # one active player left: game over
    assert state.is_over and state.end_reason == "one player left"
    result = state.result()
    assert result.seats[seat].longest_path == 6
    assert result.seats[seat].score["longest_path_bonus"] == 0
    survivor = next(s for s in result.seats if s.status == "active")
    assert survivor.rank == 1
    assert {s.rank for s in result.seats if s.status != "active"} <= {2, 3}


def test_d5_host_removes_a_player_at_any_moment():
    state = GameState(tiny_map(), 3, seed=2)  # even during setup
    state.apply(Remove(1))
    assert state.status[1] == "removed"
    assert state.decision_for(1) is None
    play(state, "keep 0,1", seat=0)
    play(state, "keep 0,1", seat=2)
    assert state.phase == "playing"
    assert state.history[0] == (None, Remove(1))


def test_d5_resign_while_choosing_tickets_returns_them():
    state = started(tiny_map(), 3)
    seat = state.current
    play(state, "tickets")
    offered = state.decision_for(seat).offered
    play(state, "resign", seat=seat)
    assert list(state.ticket_deck)[-len(offered) :] == list(offered)
    assert state.current != seat


# ------------------------------------------------------------------ R15-R17
def _finish_with(state: GameState, owners: dict[str, int], tickets: dict[int, list[int]]) -> None:
    for route, seat in owners.items():
        state._take_route(seat, state.board.route_index[route])
    for seat, held in tickets.items():
        state.tickets[seat] = held
    state._finish("final round")


def test_r15_score_routes_plus_completed_minus_incomplete_tickets():
    state = started(tiny_map(), 2)
    # Seat 0: A-B (2 pts) + B-C (4 pts); tickets A-C (4, complete), D-E (2, not).
    _finish_with(state, {"A-B/1": 0, "B-C": 0, "C-D": 1}, {0: [0, 9], 1: []})
    seat0 = state.result().seats[0]
    assert seat0.score["routes"] == 6
    assert seat0.score["tickets"] == 4 - 2
    assert seat0.longest_path == 5


def test_r16_longest_path_may_pass_a_city_twice():
    # A loop A-B-C-A with a tail C-D-E: the longest path C-A-B-C-D-E passes C
    # twice: 4 + 2 + 3 + 1 + 2 = 12, all five routes.
    state = started(tiny_map(), 2)
    _finish_with(state, {"A-B/1": 0, "B-C": 0, "A-C": 0, "C-D": 0, "D-E": 0}, {})
    assert state.result().seats[0].longest_path == 12


def test_r16_shared_longest_path_bonus_and_inactive_players_get_none():
    state = started(tiny_map(), 3)
    state.status[2] = "resigned"
    _finish_with(state, {"A-B/1": 0, "C-D": 1, "D-E": 1, "B-E": 2}, {})
    # Seat 0: A-B = 2; seat 1: C-D-E = 3; seat 2 (resigned): B-E = 6.
    result = state.result()
    assert [s.longest_path for s in result.seats] == [2, 3, 6]
    assert [s.score["longest_path_bonus"] for s in result.seats] == [0, 10, 0]


def test_r16_tied_longest_paths_share_the_bonus():
    state = started(tiny_map(), 2)
    _finish_with(state, {"A-B/1": 0, "D-E": 1}, {})
    assert [s.score["longest_path_bonus"] for s in state.result().seats] == [10, 10]


def test_r17_ties_in_a_real_result_completed_tickets_then_longest_path():
    # Seat 0 owns A-B (2 points, path 2); seat 1 owns B-C (4 points, path 3, +10 bonus)
    # and holds ticket B-C (+3): 17 in all. Seat 0's route points are set to tie.
    state = started(tiny_map(), 2)
    _finish_with(state, {"A-B/1": 0, "B-C": 1}, {0: [6, 6], 1: [7]})
    state.route_points[0] = 13  # 13 + two complete A-B tickets (2 + 2) = 17
    result = state.result()
    assert [s.total for s in result.seats] == [17, 17]
    assert [s.completed_tickets for s in result.seats] == [2, 1]
    assert [s.rank for s in result.seats] == [1, 2]  # more completed tickets wins
    state.tickets[0] = [6]
    state.route_points[0] = 15  # 15 + 2 = 17, one ticket each: the longer path wins
    result = state.result()
    assert [s.total for s in result.seats] == [17, 17]
    assert [s.rank for s in result.seats] == [2, 1]


def test_r17_ties_go_to_completed_tickets_then_longest_path_then_shared():
    def ranks(totals_tickets_paths):
        from ttr_core.engine.result import rank_seats

        return rank_seats([(True, key) for key in totals_tickets_paths])

    assert ranks([(20, 1, 5), (20, 2, 3)]) == [2, 1]  # more completed tickets
    assert ranks([(20, 2, 3), (20, 2, 7)]) == [2, 1]  # then the longer path
    assert ranks([(20, 2, 7), (20, 2, 7), (5, 0, 0)]) == [1, 1, 3]  # then shared


def test_r17_equal_everything_is_a_shared_rank_in_a_real_result():
    state = started(tiny_map(), 2)
    _finish_with(state, {"A-B/1": 0, "A-B/2": 1}, {0: [], 1: []})
    assert [s.rank for s in state.result().seats] == [1, 1]


def test_illegal_and_invalid_actions_leave_the_state_unchanged():
    state = started(tiny_map(), 2)
    before = snapshot(state)
    for text in ("claim A-B/1 with red:9", "draw market 9", "keep 0", "pass"):
        with pytest.raises((IllegalAction, InvalidAction)):
            play(state, text)
        assert snapshot(state) == before
    with pytest.raises(InvalidAction):
        state.apply(KeepTickets((0,)), seat=7)
    assert snapshot(state) == before


# ------------------------------------------------------------ action notation
@pytest.mark.parametrize(
    "text",
    [
        "claim Atlanta-Miami with red:²",  # superscript two
        "claim Atlanta-Miami with loco:٣",  # Arabic-Indic three
        "keep ١",  # Arabic-Indic one
        "keep 0,١",
        "draw market ٢",
        "remove ３",  # fullwidth three
    ],
)
def test_notation_counts_are_ascii_digits_only(text):
    with pytest.raises(InvalidAction):
        parse_action(text)
