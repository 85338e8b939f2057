"""R9, R10, R11, E3: claiming routes (`ttr_core.engine.moves.claims`, with the
routes open to each seat from `ttr_core.engine.open_routes`)."""

from __future__ import annotations

import pytest
from engine_positions import (
    EUROPE_TINY,
    assert_cards_conserved,
    assert_illegal,
    europe_game,
    europe_map,
    play,
    started,
    tiny_map,
)

from ttr_core.engine.actions import KeepTickets, parse_action
from ttr_core.engine.cards import CARD_INDEX
from ttr_core.engine.errors import InvalidAction
from ttr_core.engine.positions import arrange, give_hand
from ttr_core.engine.state import GameState


# ----------------------------------------------------------------------- R9, R10
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
    arrange(state, wagons={seat: 5})
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


@pytest.mark.parametrize(("length", "points"), [(9, 27), (10, 40)])
def test_r10_a_route_past_eight_scores_from_the_maps_route_points(length, points):
    """Nordic Countries (9 for 27) and the United Kingdom (10 for 40) give the
    points of their long routes in `settings.route_points`."""
    game_map = tiny_map(
        settings={"route_points": [1, 2, 4, 7, 10, 15, 18, 21, 27, 40]},
        routes=[
            {"between": ["A", "B"], "length": length, "color": "gray"},
            {"between": ["B", "C"], "length": 1, "color": "red"},
            {"between": ["C", "D"], "length": 1, "color": "red"},
            {"between": ["D", "E"], "length": 1, "color": "red"},
        ],
    )
    state = started(game_map)
    seat = state.current
    give_hand(state, seat, red=8, loco=length - 8)
    play(state, f"claim A-B with red:8 loco:{length - 8}")
    assert state.route_points[seat] == points
    assert state.wagons[seat] == 45 - length


def triple_map():
    """A-B is a triple route (Old West, Northern Lights and Italy have them)."""
    return tiny_map(
        routes=[
            {"between": ["A", "B"], "length": 2, "color": ["red", "blue", "green"]},
            {"between": ["B", "C"], "length": 3, "color": "gray"},
            {"between": ["C", "D"], "length": 1, "color": "pink"},
            {"between": ["D", "E"], "length": 2, "color": "white"},
        ]
    )


@pytest.mark.parametrize("players", [2, 3])
def test_r11_a_triple_route_closes_after_one_claim_with_two_or_three_players(players):
    state = started(triple_map(), players)
    give_hand(state, state.current, red=2)
    play(state, "claim A-B/1 with red:2")
    second = state.current
    give_hand(state, second, blue=2, green=2)
    assert not any(str(a).startswith("claim A-B/") for a in state.legal_actions())
    assert_illegal(state, "claim A-B/2 with blue:2", "R11")
    assert_illegal(state, "claim A-B/3 with green:2", "R11")


def test_r11_a_triple_route_gives_one_track_to_each_of_three_players():
    state = started(triple_map(), 4)
    owners = []
    for track, colour in ((1, "red"), (2, "blue"), (3, "green")):
        seat = state.current
        give_hand(state, seat, **{colour: 2})
        assert parse_action(f"claim A-B/{track} with {colour}:2") in state.legal_actions()
        play(state, f"claim A-B/{track} with {colour}:2")
        owners.append(seat)
    assert len(set(owners)) == 3
    assert [state.owner[state.board.route_index[f"A-B/{t}"]] for t in (1, 2, 3)] == owners


def test_r11_one_player_never_owns_two_tracks_of_a_triple_route():
    state = started(triple_map(), 4)
    seat = state.current
    give_hand(state, seat, red=2, blue=2, green=2)
    play(state, "claim A-B/2 with blue:2")
    arrange(state, current=seat)
    assert_illegal(state, "claim A-B/1 with red:2", "R11")
    assert_illegal(state, "claim A-B/3 with green:2", "R11")


def test_r11_parallel_tracks_of_different_length_are_still_one_group():
    """Kristiansand-Stavanger on Nordic Countries: a tunnel of 2 beside a ferry of 3."""
    game_map = tiny_map(
        routes=[
            {"between": ["A", "B"], "length": 2, "color": "red"},
            {"between": ["A", "B"], "length": 3, "color": "blue"},
            {"between": ["B", "C"], "length": 3, "color": "gray"},
            {"between": ["C", "D"], "length": 1, "color": "pink"},
            {"between": ["D", "E"], "length": 2, "color": "white"},
        ]
    )
    state = started(game_map, 2)
    give_hand(state, state.current, red=2)
    play(state, "claim A-B/1 with red:2")
    give_hand(state, state.current, blue=3)
    assert_illegal(state, "claim A-B/2 with blue:3", "R11")


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
    arrange(state, current=seat)  # the same player's next turn
    assert_illegal(state, "claim A-B/2 with blue:2", "R11")


def test_r11_double_routes_from_a_rule_set_opens_the_other_track():
    rules = GameState(tiny_map(), 2, seed=1).rule_set.with_overrides({"double_routes_from": 2})
    state = GameState(tiny_map(), 2, seed=1, rules=rules)
    for seat in range(2):
        state.apply(KeepTickets((0, 1, 2)), seat)
    first = state.current
    give_hand(state, first, red=2)
    play(state, "claim A-B/1 with red:2")
    give_hand(state, state.current, blue=2)
    assert parse_action("claim A-B/2 with blue:2") in state.legal_actions()


# ----------------------------------------------------------------------- E3
def test_e3_ferry_needs_its_locomotives():
    state = europe_game()
    seat = state.current
    give_hand(state, seat, red=2, loco=1)
    listed = {str(a) for a in state.legal_actions() if str(a).startswith("claim D-E")}
    assert listed == {"claim D-E with red:1 loco:1"}
    assert_illegal(state, "claim D-E with red:2", "E3")
    play(state, "claim D-E with red:1 loco:1")


def test_e3_a_coloured_ferry_needs_its_locomotives_too():
    """The payment rule is one function for gray and coloured routes: a coloured
    ferry (D-E yellow, 2 locomotives of 3) lists and refuses as a gray one does."""
    from ttr_maps.model import Map

    routes = [
        {**r, "color": "yellow", "length": 3, "ferry": 2} if r["between"] == ["D", "E"] else r
        for r in EUROPE_TINY["routes"]
    ]
    state = started(Map.from_data({**EUROPE_TINY, "routes": routes}))
    give_hand(state, state.current, yellow=3, loco=2)
    listed = {str(a) for a in state.legal_actions() if str(a).startswith("claim D-E")}
    assert listed == {"claim D-E with yellow:1 loco:2"}
    assert_illegal(state, "claim D-E with yellow:2 loco:1", "E3")
    assert_illegal(state, "claim D-E with yellow:3", "E3")


# every payment of many hands; the R9/E3 tests above keep the rules in the default suite
@pytest.mark.slow
def test_r9_e3_the_listing_and_the_check_agree_on_every_payment():
    """Every payment of every route for a range of hands: listed exactly when the
    claim applies (the two paths of the payment rule must agree)."""
    import copy
    import itertools

    from ttr_core.engine.actions import Claim, Payment
    from ttr_core.engine.errors import IllegalAction

    for hand in itertools.product(range(4), range(3)):
        state = europe_game()
        seat = state.current
        give_hand(state, seat, yellow=hand[0], black=1, loco=hand[1])
        listed = {a for a in state.legal_actions() if isinstance(a, Claim)}
        for route in state.map.routes:
            for color in ("yellow", "black", None):
                for locos in range(route.length + 1):
                    colored = route.length - locos
                    if (color is None) != (colored == 0):
                        continue
                    action = Claim(route.id, Payment(color, colored, locos))
                    try:
                        copy.deepcopy(state).apply(action, seat)
                        applies = True
                    except IllegalAction:
                        applies = False
                    assert applies == (action in listed), (hand, action)


def test_e3_ferries_are_ordinary_routes_under_the_base_rules():
    state = GameState(europe_map(), 2, seed=1, rules="base")
    for seat in range(2):
        state.apply(KeepTickets((0, 1, 2)), seat)
    give_hand(state, state.current, red=2)
    play(state, "claim D-E with red:2")


# ------------------------------------------------------- P2 (the nordic rule set)
NORDIC_ROUTES = [
    {"between": ["A", "B"], "length": 2, "color": "red"},
    {"between": ["B", "C"], "length": 2, "color": "gray", "tunnel": True},
    {"between": ["C", "D"], "length": 2, "color": "gray", "ferry": 1},
    {"between": ["D", "E"], "length": 2, "color": "blue"},
    {"between": ["A", "E"], "length": 3, "color": "gray"},
]


def nordic_tiny(**settings):
    """A-B a plain red route, B-C a gray tunnel, C-D a gray ferry (1 locomotive)."""
    return tiny_map(rules="nordic", routes=NORDIC_ROUTES, settings=settings)


def claims_of(state: GameState, route: str) -> set[str]:
    return {str(a) for a in state.legal_actions() if str(a).startswith(f"claim {route} ")}


def test_p2_locomotives_pay_tunnels_and_ferries_but_no_other_route():
    state = started(nordic_tiny())
    give_hand(state, state.current, red=1, pink=1, loco=2)
    assert claims_of(state, "A-B") == set()  # one red card and no locomotive may help
    assert claims_of(state, "A-E") == set()
    assert claims_of(state, "B-C") == {
        "claim B-C with red:1 loco:1",
        "claim B-C with pink:1 loco:1",
        "claim B-C with loco:2",
    }
    assert claims_of(state, "C-D") == {
        "claim C-D with red:1 loco:1",
        "claim C-D with pink:1 loco:1",
        "claim C-D with loco:2",
    }


def test_p2_a_plain_route_is_paid_with_its_colour_alone():
    state = started(nordic_tiny())
    seat = state.current
    give_hand(state, seat, red=2, loco=2)
    assert claims_of(state, "A-B") == {"claim A-B with red:2"}
    assert_illegal(state, "claim A-B with red:1 loco:1", "P2")
    assert_illegal(state, "claim A-B with loco:2", "P2")
    play(state, "claim A-B with red:2")
    assert state.owner[state.board.route_index["A-B"]] == seat
    assert_cards_conserved(state)


def test_p2_is_a_switch_of_the_rule_set():
    relaxed = started(nordic_tiny(plain_route_locomotives=True))
    give_hand(relaxed, relaxed.current, red=1, loco=2)
    assert claims_of(relaxed, "A-B") == {
        "claim A-B with red:1 loco:1",
        "claim A-B with loco:2",
    }
