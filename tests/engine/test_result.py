"""Final scoring and ranking (`ttr_core.engine.result`): R15, R16, R17, D5, and
what stations are worth at the end (E1)."""

from __future__ import annotations

from engine_positions import EUROPE_TINY, TINY, europe_game, play, started, tiny_map

from ttr_core.engine.actions import KeepTickets
from ttr_core.engine.books import Books
from ttr_core.engine.enums import EndReason, Status
from ttr_core.engine.positions import arrange, give_hand, give_tickets, ticket_index
from ttr_core.engine.result import rank_seats
from ttr_core.engine.state import GameState
from ttr_maps.model import Map


def tickets_named(state: Books, names: list[str]) -> list[int]:
    """Tickets by their cities ("A-C"); a pair named again is the next such ticket."""
    seen: dict[str, int] = {}
    found = []
    for name in names:
        found.append(ticket_index(state, *name.split("-"), nth=seen.get(name, 0)))
        seen[name] = seen.get(name, 0) + 1
    return found


def finish_with(state: Books, owners: dict[str, int], tickets: dict[int, list[str]]) -> None:
    """The named routes claimed, these tickets held (by their cities), the game over."""
    for route, seat in owners.items():
        state.take_route(seat, state.board.route_index[route])
    for seat, held in tickets.items():
        give_tickets(state, seat, tickets_named(state, held))
    state.finish(EndReason.FINAL_ROUND)


# ------------------------------------------------------------------ R15-R17
def test_r15_score_routes_plus_completed_minus_incomplete_tickets():
    state = started(tiny_map(), 2)
    # Seat 0: A-B (2 pts) + B-C (4 pts); tickets A-C (4, complete), D-E (2, not).
    finish_with(state, {"A-B/1": 0, "B-C": 0, "C-D": 1}, {0: ["A-C", "D-E"], 1: []})
    seat0 = state.result().seats[0]
    assert seat0.score["routes"] == 6
    assert seat0.score["tickets"] == 4 - 2
    assert seat0.longest_path == 5


def test_r16_longest_path_may_pass_a_city_twice():
    # A loop A-B-C-A with a tail C-D-E: the longest path C-A-B-C-D-E passes C
    # twice: 4 + 2 + 3 + 1 + 2 = 12, all five routes.
    state = started(tiny_map(), 2)
    finish_with(state, {"A-B/1": 0, "B-C": 0, "A-C": 0, "C-D": 0, "D-E": 0}, {})
    assert state.result().seats[0].longest_path == 12


def test_r16_d5_shared_longest_path_bonus_and_inactive_players_get_none():
    state = started(tiny_map(), 3)
    arrange(state, status={2: Status.RESIGNED})
    finish_with(state, {"A-B/1": 0, "C-D": 1, "D-E": 1, "B-E": 2}, {})
    # Seat 0: A-B = 2; seat 1: C-D-E = 3; seat 2 (resigned): B-E = 6.
    result = state.result()
    assert [s.longest_path for s in result.seats] == [2, 3, 6]
    assert [s.score["longest_path_bonus"] for s in result.seats] == [0, 10, 0]


def test_r16_tied_longest_paths_share_the_bonus():
    state = started(tiny_map(), 2)
    finish_with(state, {"A-B/1": 0, "D-E": 1}, {})
    assert [s.score["longest_path_bonus"] for s in state.result().seats] == [10, 10]


def test_r17_ties_in_a_real_result_completed_tickets_then_longest_path():
    # Seat 0 owns A-B (2 points, path 2) and holds the two A-B tickets (2 + 2); seat
    # 1 owns B-C (4 points, path 3, +10 bonus) and holds ticket B-C (+3): 17 in all.
    # Seat 0's route points are set to tie.
    game_map = tiny_map(tickets=[*TINY["tickets"], {"between": ["A", "B"], "value": 2}])
    state = started(game_map, 2)
    finish_with(state, {"A-B/1": 0, "B-C": 1}, {0: ["A-B", "A-B"], 1: ["B-C"]})
    arrange(state, route_points={0: 13})  # 13 + two complete A-B tickets (2 + 2) = 17
    result = state.result()
    assert [s.total for s in result.seats] == [17, 17]
    assert [s.completed_tickets for s in result.seats] == [2, 1]
    assert [s.rank for s in result.seats] == [1, 2]  # more completed tickets wins
    give_tickets(state, 0, tickets_named(state, ["A-B"]))
    arrange(state, route_points={0: 15})  # 15 + 2 = 17, one ticket each: the longer path wins
    result = state.result()
    assert [s.total for s in result.seats] == [17, 17]
    assert [s.rank for s in result.seats] == [2, 1]


def test_r17_ties_go_to_completed_tickets_then_longest_path_then_shared():
    def ranks(totals_tickets_paths):
        return rank_seats([(True, key) for key in totals_tickets_paths])

    assert ranks([(20, 1, 5), (20, 2, 3)]) == [2, 1]  # more completed tickets
    assert ranks([(20, 2, 3), (20, 2, 7)]) == [2, 1]  # then the longer path
    assert ranks([(20, 2, 7), (20, 2, 7), (5, 0, 0)]) == [1, 1, 3]  # then shared


def test_r17_equal_everything_is_a_shared_rank_in_a_real_result():
    state = started(tiny_map(), 2)
    finish_with(state, {"A-B/1": 0, "A-B/2": 1}, {0: [], 1: []})
    assert [s.rank for s in state.result().seats] == [1, 1]


# ----------------------------------------------------------------------- E1
def test_e1_unbuilt_stations_score_four_points_each():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, red=1)
    play(state, "station A with red:1")
    state.finish(EndReason.FINAL_ROUND)
    result = state.result()
    assert result.seats[seat].score["stations"] == 8
    assert result.seats[1 - seat].score["stations"] == 12
    assert result.seats[seat].stations == ("A",)


def test_e1_station_borrows_the_route_that_completes_the_most_ticket_value():
    state = europe_game()
    me = 0
    stations = [-1] * len(state.map.cities)
    stations[state.map.city_index["B"]] = me
    arrange(state, station_owners=stations, stations_left={me: 2})
    # I own A-B; the other player owns B-C and B-E (both touch B).
    # Tickets: A-C (4) needs B-C; A-E (7) needs B-E: B-E is worth more.
    finish_with(state, {"A-B/1": me, "B-C": 1, "B-E": 1}, {me: ["A-C", "A-E"]})
    seat = state.result().seats[me]
    assert seat.station_routes == ("B-E",)
    assert [t.completed for t in seat.tickets] == [False, True]
    assert seat.score["tickets"] == -4 + 7
    assert seat.longest_path == 2  # a borrowed route never counts for R16


def test_e1_two_stations_borrow_one_route_each():
    state = europe_game()
    stations = [-1] * len(state.map.cities)
    for city in ("B", "C"):
        stations[state.map.city_index[city]] = 0
    arrange(state, station_owners=stations)
    # A-D: A-B (borrowed at B) + B-C (borrowed at C) + C-D (mine).
    finish_with(state, {"A-B/1": 1, "B-C": 1, "C-D": 0}, {0: ["A-D"]})
    seat = state.result().seats[0]
    assert sorted(seat.station_routes) == ["A-B/1", "B-C"]
    assert seat.tickets[0].completed


def test_e1_fewer_stations_built_breaks_a_tie_after_tickets():
    state = europe_game()
    stations = [-1] * len(state.map.cities)
    stations[state.map.city_index["C"]] = 1
    arrange(state, station_owners=stations, stations_left={0: 3, 1: 2})
    finish_with(state, {}, {0: [], 1: []})
    arrange(state, route_points={0: 4, 1: 8})  # equal totals: 4 + 12 = 8 + 8
    result = state.result()
    assert [s.total for s in result.seats] == [16, 16]
    assert [s.rank for s in result.seats] == [1, 2]


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
    stations = [-1] * len(state.map.cities)
    stations[state.map.city_index["B"]] = 0
    arrange(state, station_owners=stations)
    finish_with(state, {"A-B/1": 0, "B-C": 1, "B-E": 1}, {0: ["A-C", "B-E", "A-E"]})
    seat = state.result().seats[0]
    # Borrowing B-C completes A-C (9); borrowing B-E completes B-E and A-E (4 + 5):
    # both give 0 ticket points, and R17 ranks on completed tickets next.
    assert seat.station_routes == ("B-E",)
    assert [t.completed for t in seat.tickets] == [False, True, True]


def test_e1_among_equally_good_choices_the_one_borrowing_fewer_routes_wins():
    state = europe_game()
    stations = [-1] * len(state.map.cities)
    for city in ("A", "B"):
        stations[state.map.city_index[city]] = 0
    arrange(state, station_owners=stations)
    # A-C: borrowed A-C alone, or A-B/1 and B-C together.
    finish_with(state, {"A-B/1": 1, "B-C": 1, "A-C": 1}, {0: ["A-C"]})
    seat = state.result().seats[0]
    assert seat.station_routes == ("A-C",)
    assert seat.tickets[0].completed


# ------------------------------------------------------------------------- P4
def test_p4_the_globetrotter_bonus_goes_to_the_most_completed_tickets():
    state = started(tiny_map(settings={"most_tickets_bonus": 15}), 3)
    # Seat 0 completes A-C and A-B; seat 1 completes C-D; seat 2 nothing.
    finish_with(
        state, {"A-B/1": 0, "B-C": 0, "C-D": 1}, {0: ["A-C", "A-B"], 1: ["C-D"], 2: ["D-E"]}
    )
    result = state.result()
    assert [s.completed_tickets for s in result.seats] == [2, 1, 0]
    assert [s.score["most_tickets_bonus"] for s in result.seats] == [15, 0, 0]
    assert result.seats[0].total == sum(result.seats[0].score.values())


def test_p4_tied_players_share_it_and_those_who_left_get_none():
    state = started(tiny_map(settings={"most_tickets_bonus": 10}), 3)
    arrange(state, status={2: Status.RESIGNED})
    finish_with(state, {"A-B/1": 0, "C-D": 1, "D-E": 2}, {0: ["A-B"], 1: ["C-D"], 2: ["D-E"]})
    assert [s.score["most_tickets_bonus"] for s in state.result().seats] == [10, 10, 0]


def test_p4_nobody_gets_it_without_a_completed_ticket_and_base_rules_have_none():
    state = started(tiny_map(settings={"most_tickets_bonus": 10}), 2)
    finish_with(state, {}, {0: ["A-C"], 1: ["D-E"]})
    assert [s.score["most_tickets_bonus"] for s in state.result().seats] == [0, 0]
    plain = started(tiny_map(), 2)
    finish_with(plain, {"A-B/1": 0}, {0: ["A-B"], 1: []})
    assert "most_tickets_bonus" not in plain.result().seats[0].score


# ------------------------------------------------------------------------- P5
INDIA_POINTS = {"grand_tour_points": [5, 10, 20, 30, 40]}


def test_p5_a_ticket_joined_by_two_paths_sharing_no_route_is_a_grand_tour():
    state = started(tiny_map(settings=INDIA_POINTS), 2)
    # Seat 0: the loop A-B-C-A and the tail C-D. A-C (0) is joined twice (A-C, and
    # A-B-C); C-D (8) only through the bridge C-D.
    finish_with(state, {"A-B/1": 0, "B-C": 0, "A-C": 0, "C-D": 0}, {0: ["A-C", "C-D"], 1: []})
    seat0, seat1 = state.result().seats
    assert [t.completed for t in seat0.tickets] == [True, True]
    assert seat0.score["grand_tour_bonus"] == 5  # one Grand Tour
    assert seat1.score["grand_tour_bonus"] == 0


def test_p5_the_two_paths_may_cross_at_a_city_and_the_points_grow_with_the_count():
    state = started(tiny_map(settings=INDIA_POINTS), 2)
    # A-B-E and A-C-D-E share no route (they meet only at A and E): A-E (3) is a
    # Grand Tour, and so are A-B (6) and D-E (9), all on the one loop.
    finish_with(
        state,
        {"A-B/1": 0, "B-E": 0, "A-C": 0, "C-D": 0, "D-E": 0},
        {0: ["A-E", "A-B", "D-E"], 1: []},
    )
    assert state.result().seats[0].score["grand_tour_bonus"] == 20  # three tickets


def test_p5_no_grand_tour_without_the_rule_or_without_a_second_path():
    state = started(tiny_map(settings=INDIA_POINTS), 2)
    finish_with(state, {"A-B/1": 0, "B-C": 0}, {0: ["A-C"], 1: []})  # A-B-C: one path
    assert state.result().seats[0].score["grand_tour_bonus"] == 0
    plain = started(tiny_map(), 2)
    finish_with(plain, {"A-B/1": 0, "B-C": 0, "A-C": 0}, {0: ["A-C"], 1: []})
    assert "grand_tour_bonus" not in plain.result().seats[0].score
