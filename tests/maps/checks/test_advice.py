"""Advice from `ttr validate`: no wrong advice on a broken route graph, "did you
mean", hints, checks past schema errors, the design warnings with their numbers,
and the designer's ticket bonus (D7)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from testdata import BAD

from ttr_core.engine.positions import arrange
from ttr_core.engine.result import score_game, ticket_points
from ttr_core.engine.state import GameState
from ttr_maps.analysis.fix import plan_fix
from ttr_maps.analysis.stats import map_stats
from ttr_maps.checks.layout import BOARD_CODES
from ttr_maps.checks.validate import validate_document, validate_file
from ttr_maps.io.document import parse_document
from ttr_maps.model import Map
from ttr_maps.reports.stats import stats_to_dict
from ttr_maps.spelling import closest_spelling, did_you_mean

SMALL = """\
format: 1
id: small
name: Small
coordinates: plane
cities: {Denver: {x: 0, y: 0}, Omaha: {x: 4, y: 0}, Wichita: {x: 3, y: -2}}
routes:
  - {between: [Denver, Omaha], length: 4, color: red}
  - {between: [Denver, Wichita], length: 3, color: blue}
  - {between: [Wichita, Omaha], length: 2, color: green}
tickets:
  - {between: [Denver, Omaha], value: 4}
  - {between: [Denver, Wichita], value: 3}
# ttr: disable=TTR151,TTR352,TTR354,TTR451
"""


def _problems(text: str) -> list[tuple[str, str]]:
    report = validate_document(parse_document(text, "m.yaml"))
    return [(p.code, p.message) for p in report.problems]


def _codes(text: str) -> list[str]:
    return [code for code, _ in _problems(text)]


def test_small_map_is_clean() -> None:
    assert _problems(SMALL) == []


# --- suggestions ------------------------------------------------------------------


def test_closest_spelling_ignores_case_then_finds_the_nearest_name() -> None:
    assert closest_spelling("omaha", ["Omaha", "Denver"]) == "Omaha"
    assert closest_spelling("Omahaa", ["Omaha", "Denver"]) == "Omaha"
    assert closest_spelling("Tehran", ["Omaha", "Denver"]) is None
    assert closest_spelling(7, ["Omaha"]) is None
    assert did_you_mean("grey", ["gray", "green"]) == "; did you mean 'gray'?"


def test_unknown_city_in_a_route_and_a_ticket_gets_did_you_mean() -> None:
    text = SMALL.replace("[Denver, Omaha], length", "[Denver, Omahaa], length").replace(
        "[Denver, Wichita], value", "[Denver, wichita], value"
    )
    messages = dict(_problems(text))
    assert "did you mean 'Omaha'?" in messages["TTR201"]
    assert "did you mean 'Wichita'?" in messages["TTR301"]


def test_colour_key_and_grey_value_are_refused_with_a_hint() -> None:
    text = SMALL.replace("length: 4, color: red", "length: 4, colour: red").replace(
        "color: blue", "color: grey"
    )
    messages = [m for code, m in _problems(text) if code in ("TTR002", "TTR204")]
    assert any("'colour' was unexpected" in m and "did you mean 'color'?" in m for m in messages)
    assert any("'grey'" in m and "did you mean 'gray'?" in m for m in messages)


def test_swapped_latitude_and_longitude_get_a_hint() -> None:
    text = SMALL.replace("coordinates: plane", "coordinates: geographic").replace(
        "cities: {Denver: {x: 0, y: 0}, Omaha: {x: 4, y: 0}, Wichita: {x: 3, y: -2}}",
        "cities: {Denver: {lat: -104.99, lon: 39.74}, Omaha: {lat: 41.26, lon: -95.93},\n"
        "         Wichita: {lat: 37.69, lon: -97.34}}",
    )
    [message] = [m for code, m in _problems(text) if code == "TTR103"]
    assert "look swapped: did you mean lat: 39.74, lon: -104.99?" in message


def test_a_tab_in_the_indentation_is_named(tmp_path: Path) -> None:
    path = tmp_path / "tab.yaml"
    path.write_text("format: 1\ncities:\n\tA: {x: 0, y: 0}\n")
    [problem] = validate_file(path).problems
    assert problem.code == "TTR001" and "YAML indents with spaces only" in problem.message


# --- no wrong advice ----------------------------------------------------------------


def test_r2_ticket_value_is_not_called_wrong_while_a_route_names_an_unknown_city() -> None:
    # Denver–Omaha really is 4 once "Omahaa" is fixed; without the route it looks like 5.
    text = SMALL.replace("[Denver, Omaha], length", "[Denver, Omahaa], length")
    problems = _problems(text)
    codes = [code for code, _ in problems]
    assert "TTR304" not in codes and "TTR305" not in codes
    [unchecked] = [m for code, m in problems if code == "TTR351"]
    assert "Denver–Omaha (value 4) could not be checked" in unchecked
    assert "shortest distance found is 5 wagons" in unchecked
    assert "route Denver–Omahaa on line 7 names an unknown city" in unchecked


def test_r2_a_value_above_every_possible_distance_is_still_wrong_on_a_broken_graph() -> None:
    # A missing route can only shorten distances: 3 < 9 stays wrong whatever is fixed.
    text = SMALL.replace("[Denver, Omaha], length", "[Denver, Omahaa], length").replace(
        "[Denver, Wichita], value: 3", "[Denver, Wichita], value: 9"
    )
    assert "TTR304" in _codes(text)


def test_schema_errors_in_one_entry_do_not_hide_checks_of_the_others() -> None:
    text = SMALL.replace("length: 3, color: blue", "length: 3, colour: blue").replace(
        "  - {between: [Denver, Wichita], value: 3}\n",
        "  - {between: [Denver, Wichita], value: 3}\n  - {between: [Denver, Tulsa], value: 9}\n",
    )
    codes = _codes(text)
    assert "TTR002" in codes  # the schema error
    assert "TTR301" in codes  # a semantic error elsewhere, found all the same
    assert "TTR102" not in codes  # Wichita's route is only left out, not missing
    # The ticket over the left-out route cannot be checked; the other one can.
    assert next(m for c, m in _problems(text) if c == "TTR351").startswith(
        "ticket Denver–Wichita (value 3) could not be checked"
    )


def test_design_warnings_wait_for_a_map_without_errors() -> None:
    text = SMALL.replace("# ttr: disable=TTR151,TTR352,TTR354,TTR451\n", "").replace(
        "value: 4}", "value: 5}"
    )
    assert _codes(text) == ["TTR304"]


# --- design warnings, with their numbers ---------------------------------------------


def _file(name: str) -> list[tuple[str, str]]:
    return [(p.code, p.message) for p in validate_file(BAD / name).problems]


def test_r11_track_for_wagons_counts_one_track_per_double_with_two_or_three_players() -> None:
    ring = SMALL.replace(
        "# ttr: disable=TTR151,TTR352,TTR354,TTR451\n", "# ttr: disable=TTR352,TTR354\n"
    )
    ring = ring.replace("format: 1\n", "format: 1\nsettings: {wagons: 4}\n").replace(
        "color: red}", "color: [red, pink]}"
    )
    # 2-3 players: 9 claimable spaces (R11: Denver–Omaha counts once); 4-5: 13.
    [(code, message)] = _problems(ring)
    assert code == "TTR451"
    assert "2 players: 8 wagons for 9 claimable spaces" in message
    assert "3 players: 12 wagons for 9 claimable spaces" in message
    assert "5 players: 20 wagons for 13 claimable spaces" in message
    # Worst is 5 players: 1.25 * 20 - 13 = 12 spaces to add; 13 / (1.25 * 5) = 2 wagons
    # is below the schema's minimum of 3, so fewer wagons is not offered.
    assert "add at least 12 spaces of track, or do not offer 5 players" in message
    # With 3 wagons each, 2 players fit (9 >= 1.25 * 6) and drop out of the message.
    three = _problems(ring.replace("wagons: 4", "wagons: 3"))[0][1]
    assert "2 players" not in three and "3 players: 9 wagons for 9" in three


def test_r6_stalling_map_warns_with_spaces_to_add_or_wagons_to_keep() -> None:
    [(_, message)] = [p for p in _file("ttr451_games_stall.yaml") if p[0] == "TTR451"]
    assert "4 players: 180 wagons for 126 claimable spaces" in message
    assert "add at least 156 spaces of track" in message  # 1.25 * 225 - 126
    assert "at most 20 wagons" in message  # 126 / (1.25 * 5)


def test_r4_r12_ticket_deck_too_small_says_how_many_to_add() -> None:
    [(_, message)] = [p for p in _file("ttr352_ticket_deck.yaml") if p[0] == "TTR352"]
    assert message.startswith("1 regular tickets: 5 players take 15 at setup (R4)")
    assert "add at least 29 tickets (it suits no count)" in message


def test_r3_color_supply_names_the_route_and_the_cards_it_needs() -> None:
    [(_, message)] = [p for p in _file("ttr254_color_supply.yaml") if p[0] == "TTR254"]
    assert message.startswith("route A–B needs 8 red cards in one hand (of 12")


def test_r3_gray_share_above_half_is_flagged() -> None:
    text = SMALL.replace("color: red", "color: gray").replace("color: green", "color: gray")
    [message] = [m for code, m in _problems(text) if code == "TTR254"]
    assert message.startswith("gray covers 6 of 9 spaces (67 %)")


def test_ticketless_city_dead_end_and_fragile_ticket_point_at_what_to_change() -> None:
    assert any("no ticket names C" in m for c, m in _file("ttr151_city_without_ticket.yaml"))
    dead = [m for c, m in _file("ttr152_dead_end.yaml") if c == "TTR152"]
    assert dead == [
        "D is a dead end: its only route is C–D (line 11), and whoever claims it shuts "
        "everyone else out; add a second route to D or make this one a double route"
    ]
    [fragile] = [m for c, m in _file("ttr353_fragile_ticket.yaml") if c == "TTR353"]
    assert "ticket A–C (2) depends on route B–C (line 9)" in fragile
    assert "more than 4 wagons" in fragile


def test_a_double_route_is_not_fragile() -> None:
    text = (BAD / "ttr353_fragile_ticket.yaml").read_text()
    fixed = text.replace(
        "{between: [B, C], length: 1, color: blue}",
        "{between: [B, C], length: 1, color: [blue, white]}",
    )
    assert "TTR353" not in _codes(fixed)


@pytest.mark.parametrize("map_id", ["north_america", "europe"])
def test_published_boards_raise_no_design_warning(map_id: str) -> None:
    from ttr_maps.io.bundled import bundled_map_path

    # The board checks (TTR551-TTR557) are tested by test_layout.py, where Europe
    # and North America are marked unfinished; this test is about the rest.
    problems = validate_file(bundled_map_path(map_id)).problems
    assert [p for p in problems if p.code not in BOARD_CODES] == []


# --- D7: a designer's bonus -----------------------------------------------------------


BONUS = SMALL.replace("[Denver, Omaha], value: 4}", "[Denver, Omaha], value: 4, bonus: 3}")


def test_d7_bonus_is_valid_and_keeps_r2_for_the_value() -> None:
    assert _problems(BONUS) == []
    assert "TTR304" in _codes(BONUS.replace("value: 4, bonus: 3", "value: 7"))
    assert "TTR002" in _codes(BONUS.replace("bonus: 3", "bonus: 0"))


def test_d7_completed_ticket_scores_value_plus_bonus_and_incomplete_loses_it() -> None:
    game_map = validate_document(parse_document(BONUS, "m.yaml")).map
    assert game_map is not None
    ticket = game_map.tickets[0]
    assert (ticket.value, ticket.bonus, ticket.points, str(ticket)) == (
        4,
        3,
        7,
        "Denver–Omaha (4+3)",
    )
    state = GameState(game_map, 2, 1)
    others = [t for t in range(len(game_map.tickets)) if t != 0]
    arrange(state, pending=[], tickets={0: [0], 1: []}, ticket_deck=others)
    result = score_game(state)  # nobody joined Denver and Omaha: R15 with D7
    assert [s.score["tickets"] for s in result.seats] == [-7, 0]
    assert result.seats[0].tickets[0].value == 7
    done = replace(result.seats[0].tickets[0], completed=True)
    assert ticket_points([done]) == 7


def test_d7_stats_list_the_bonus_and_fix_leaves_it_alone(tmp_path: Path) -> None:
    game_map = Map.from_data(parse_document(BONUS, "m.yaml").data)
    assert stats_to_dict(map_stats(game_map))["ticket_bonuses"] == {"Denver:Omaha": 3}
    path = tmp_path / "m.yaml"
    path.write_text(BONUS.replace("[Denver, Wichita], value: 3", "[Denver, Wichita], value: 5"))
    plan = plan_fix(path)
    assert [(c.old, c.new) for c in plan.changes] == [("5", 3)]
    assert "value: 4, bonus: 3" in plan.fixed_text()


def test_r3_a_color_with_more_than_three_spaces_per_card_names_its_longest_route() -> None:
    cities = ", ".join(f"C{i}: {{x: {i}, y: 0}}" for i in range(9))
    routes = "".join(
        f"  - {{between: [C{i}, C{i + 1}], length: {5 if i else 6}, color: red}}\n"
        for i in range(8)
    )
    text = (
        "format: 1\nid: red\nname: Red\ncoordinates: plane\n"
        f"cities: {{{cities}}}\nroutes:\n{routes}tickets:\n  - {{between: [C0, C8], value: 41}}\n"
        "# ttr: disable=TTR151,TTR152,TTR352,TTR353,TTR451\n"
    )
    [message] = [m for code, m in _problems(text) if code == "TTR254"]
    assert message == (
        "red routes cover 41 spaces, 3.4 per red card (R3: 12 cards); recolor at least 5"
        " of these spaces to other colors or gray, starting with the longest, C0–C1"
    )


def test_garbage_entries_are_reported_and_the_rest_still_checked() -> None:
    text = (
        "format: 1\nid: t\nname: T\ncoordinates: plane\n"
        "cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: 5, D: {x: nope, y: 1}}\n"
        "routes:\n  - nonsense\n  - {between: [A, B], length: 1, color: red}\n"
        "  - {between: [B, C], length: 1, color: red}\n  - [1, 2]\n"
        "tickets:\n  - {between: [A, C], value: 2}\n  - 7\n  - {between: [A, Q], value: 1}\n"
    )
    problems = _problems(text)
    assert [c for c, _ in problems].count("TTR002") == 4
    assert ("TTR102", "city 'D' has no route") in problems  # checked past the errors
    assert any(c == "TTR301" and "'Q'" in m for c, m in problems)
