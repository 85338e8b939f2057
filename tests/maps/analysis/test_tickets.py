"""Ticket decks (ttr_maps.analysis.tickets): crowding, fragility, the deck score,
calibration and suggestions; the tickets: block writer; `ttr tickets`."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps import load_map
from ttr_maps.analysis.tickets import (
    DUPLICATE_PENALTY,
    MIN_RANDOM_DECKS,
    PUBLISHED_DECKS,
    RANDOM_TICKETS,
    SCORE_WEIGHTS,
    DeckError,
    TicketBoard,
    calibrate,
    calibration_samples,
    measure_deck,
    published_completion,
    score_deck,
    suggest_deck,
    suggestion_cost,
)
from ttr_maps.authoring.ticket_block import deck_to_yaml, replace_tickets_block
from ttr_maps.io.bundled import bundled_map_path
from ttr_maps.model import Map, Ticket

runner = CliRunner()


def plane_map(routes: list[tuple[str, str, int, int]], tickets=(), cities=None) -> Map:
    """A plane map from (a, b, length, tracks) routes; cities on a line unless given."""
    names = cities or sorted({c for a, b, _, _ in routes for c in (a, b)})
    return Map.from_data(
        {
            "format": 1,
            "id": "hand",
            "name": "Hand",
            "coordinates": "plane",
            "cities": {n: {"x": i, "y": (i * 7) % 3} for i, n in enumerate(names)},
            "routes": [
                {"between": [a, b], "length": n, "color": ["red", "blue"][:tracks]}
                for a, b, n, tracks in routes
            ],
            "tickets": [{"between": [a, b], "value": v} for a, b, v in tickets],
        }
    )


def line_map(double_ab: bool = False) -> Map:
    """A -2- B -3- C, one ticket A-C (5): its only path uses both routes."""
    return plane_map([("A", "B", 2, 2 if double_ab else 1), ("B", "C", 3, 1)], [("A", "C", 5)])


# ---------------------------------------------------------------- crowding


def test_crowding_of_a_single_ticket_deck_by_hand():
    """Every player's hand is the one ticket, so every player wants both routes:
    demand = players, capacity 1, excess = players - 1 on each route; the share of
    wanted wagons over capacity is (players - 1) / players."""
    board = TicketBoard(line_map())
    crowding = measure_deck(board, line_map().tickets).crowding
    assert [c.players for c in crowding] == [2, 3, 4, 5]
    for crowd in crowding:
        n = crowd.players
        assert crowd.demand == pytest.approx((n, n))
        assert crowd.excess_share == pytest.approx((n - 1) / n)
        assert [r.excess for r in crowd.routes()] == pytest.approx([n - 1, n - 1])
        cities = {c.city: c for c in crowd.cities()}
        assert cities["B"].excess == pytest.approx(2 * (n - 1))  # both routes meet at B
        assert cities["A"].capacity == 1


def test_expected_excess_counts_the_players_shut_out_not_the_mean_over_capacity():
    """Two players each wanting a single track half the time: the mean demand (1)
    is within capacity, but a quarter of games both want it and one is shut out."""
    import numpy as np

    from ttr_maps.analysis.tickets import expected_excess

    assert expected_excess(2, np.array([0.5]), np.array([1.0])) == pytest.approx([0.25])
    # Three players at one chance in three, two tracks: all three want it 1/27 of games.
    assert expected_excess(3, np.array([1 / 3]), np.array([2.0])) == pytest.approx([1 / 27])
    # The deck's mean use u of B-C (A-C's main path, A-D's dear detour): a hand
    # of h tickets wants it with 1 - (1 - u)^h; two players, one track. Two
    # tickets fill no wagon supply: the hand is R4's least kept, 2.
    game_map = plane_map(
        [("A", "B", 2, 1), ("B", "C", 3, 1), ("A", "D", 2, 1), ("D", "C", 4, 1)],
        [("A", "C", 5), ("A", "D", 2)],
    )
    board = TicketBoard(game_map)
    crowd = measure_deck(board, game_map.tickets).crowding[0]
    bc = board.connection_index[frozenset("BC")]
    u = (board.paths("A", "C").usage[bc] + board.paths("A", "D").usage[bc]) / 2
    assert 0.3 < u < 0.5
    assert crowd.hand == 2
    want = 1 - (1 - u) ** crowd.hand
    bc = next(r for r in crowd.routes() if {r.connection.a, r.connection.b} == {"B", "C"})
    assert bc.demand == pytest.approx(2 * want) and bc.excess == pytest.approx(want**2)
    assert crowd.blocked_per_game == pytest.approx(sum(r.excess for r in crowd.routes()))


def test_r4_r12_the_hand_holds_the_tickets_that_fill_its_share_of_the_wagons():
    """After the setup tickets (R4) players draw more (R12) while they have wagons:
    the model's hand is the number of tickets whose paths take HAND_WAGON_SHARE of
    the wagon supply, bounded by R4's least kept and the deck shared out."""
    import numpy as np

    from ttr_maps.analysis.tickets import HAND_WAGON_SHARE, typical_hands

    game_map = load_map("north_america")
    board = TicketBoard(game_map)
    deck = len(game_map.tickets)
    mean = np.mean([board.paths(t.a, t.b).usage for t in game_map.tickets], axis=0)
    target = HAND_WAGON_SHARE * board.rules.wagons
    hands = typical_hands(board, mean, deck)
    assert list(hands) == [2, 3, 4, 5] and len(set(hands.values())) == 1
    hand = hands[5]
    assert board.rules.setup_keep < hand < deck / 5
    assert board.lengths @ (1 - (1 - mean) ** hand) == pytest.approx(target, abs=1e-3)
    # The crowding at every table size uses that hand.
    assert [c.hand for c in measure_deck(board, game_map.tickets).crowding] == [hand] * 4
    # Tickets half as long (each using half as much of the board) need more of them.
    assert typical_hands(board, mean / 2, deck)[4] > hand
    # Tickets that use a tenth as much never fill the wagons: the deck shared out
    # bounds the hand (30 tickets: 6 at 5 players, 15 at 2); with a deck of 3 that
    # bound is below R4's least kept (2), and the floor wins.
    assert typical_hands(board, mean / 10, deck) == {2: 15.0, 3: 10.0, 4: 7.5, 5: 6.0}
    assert set(typical_hands(board, mean / 10, 3).values()) == {board.rules.setup_keep}


def test_r11_doubles_count_once_at_two_and_three_players():
    """A-B is double: capacity 1 at 2-3 players, 2 at 4-5 (R11)."""
    game_map = line_map(double_ab=True)
    crowding = measure_deck(TicketBoard(game_map), game_map.tickets).crowding
    for crowd in crowding:
        ab = next(r for r in crowd.routes() if {r.connection.a, r.connection.b} == {"A", "B"})
        assert ab.capacity == (1 if crowd.players <= 3 else 2)
        assert ab.excess == pytest.approx(crowd.players - ab.capacity)


def test_two_equal_paths_share_the_usage_and_are_not_fragile():
    """A square A-B-C-D-A of length-1 routes: A-C has two cheapest paths (2
    wagons each), so it uses every route half; one player's chance of wanting a
    route is 1 - (1 - 1/2)^2 with a hand of two A-C tickets (R4's least kept)."""
    game_map = plane_map(
        [("A", "B", 1, 1), ("B", "C", 1, 1), ("C", "D", 1, 1), ("A", "D", 1, 1)],
        [("A", "C", 2)],
        cities=["A", "B", "C", "D"],
    )
    board = TicketBoard(game_map)
    paths = board.paths("A", "C")
    assert paths.costs[:2] == (2, 2)
    assert paths.usage == pytest.approx([0.5] * 4)
    measures = measure_deck(board, game_map.tickets)
    assert measures.single_path == ()
    assert measures.crowding[0].hand == 2
    assert measures.crowding[0].demand == pytest.approx([2 * (1 - 0.5**2)] * 4)


def test_a_ticket_without_a_cheap_second_path_is_fragile():
    game_map = line_map()
    measures = measure_deck(TicketBoard(game_map), game_map.tickets)
    assert measures.single_path == game_map.tickets
    assert measures.score.parts["single_path"] == 1.0


def test_pairs_sharing_most_of_their_path_are_found():
    """On A-1-B-1-C-1-D-1-E, A-D and B-E share B-C-D: 2 of 3 wagons (0.67 ≥ 0.6);
    A-B and D-E share nothing."""
    game_map = plane_map(
        [("A", "B", 1, 1), ("B", "C", 1, 1), ("C", "D", 1, 1), ("D", "E", 1, 1)],
        [("A", "D", 3), ("B", "E", 3), ("A", "B", 1), ("D", "E", 1)],
    )
    measures = measure_deck(TicketBoard(game_map), game_map.tickets)
    assert [(p.first.cities, p.second.cities) for p in measures.overlapping] == [
        (("A", "D"), ("B", "E"))
    ]
    assert measures.overlapping[0].share == pytest.approx(2 / 3)
    assert measures.score.parts["overlap"] == pytest.approx(0.5)


# ---------------------------------------------------------------- the score


def test_published_decks_match_the_bundled_maps():
    """PUBLISHED_DECKS is the reference profile; it must follow the map files."""
    for deck, map_id in zip(PUBLISHED_DECKS, ("north_america", "europe"), strict=True):
        game_map = load_map(map_id)
        board = TicketBoard(game_map)
        assert deck.diameter == board.diameter
        assert deck.regular == tuple(t.value for t in game_map.tickets if not t.long)
        assert deck.long == tuple(t.value for t in game_map.tickets if t.long)


@pytest.fixture(scope="module")
def north_america_board() -> TicketBoard:
    return TicketBoard(load_map("north_america"))


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_adding_a_duplicate_ticket_never_improves_the_score(north_america_board, data):
    board = north_america_board
    pairs = data.draw(
        st.lists(st.sampled_from(board.pairs), min_size=1, max_size=12), label="pairs"
    )
    deck = [Ticket(a, b, board.distance[a][b]) for a, b in pairs]
    copy = data.draw(st.sampled_from(deck), label="duplicate")
    before = score_deck(board, deck)
    after = score_deck(board, [*deck, copy])
    assert after.duplicates == before.duplicates + 1
    assert after.total >= before.total + DUPLICATE_PENALTY - 100.0


def test_score_parts_are_shares_and_the_total_is_documented(north_america_board):
    game_map = north_america_board.map
    score = score_deck(north_america_board, game_map.tickets)
    assert all(0.0 <= v <= 1.0 for v in score.parts.values())
    assert score.duplicates == 0
    assert 0 < score.total < 100


def test_the_score_is_structure_and_the_resemblance_a_number_apart(north_america_board):
    """The published deck scores no better on structure for being published: its
    resemblance to its own profile is 0, and that is not a part of the score."""
    score = score_deck(north_america_board, north_america_board.map.tickets)
    assert set(score.parts) == set(SCORE_WEIGHTS) and "values" not in score.parts
    assert score.profile == "north_america" and score.resemblance == pytest.approx(0.0)
    against_europe = score_deck(north_america_board, north_america_board.map.tickets, "europe")
    assert against_europe.total == pytest.approx(score.total)
    assert against_europe.resemblance > 0.5


def test_value_spread_is_zero_for_the_published_spans_and_one_for_a_single_value(
    north_america_board,
):
    from ttr_maps.analysis.tickets import value_spread

    board = north_america_board
    assert value_spread(board, board.map.tickets) == 0.0
    same = [Ticket(a, b, 8) for a, b in board.pairs if board.distance[a][b] == 8][:10]
    assert value_spread(board, same) == 1.0


def test_calibration_is_deterministic_for_a_seed(north_america_board):
    deck = north_america_board.map.tickets
    first = calibrate(north_america_board, deck, samples=5, seed=3)
    assert first.numbers == calibrate(north_america_board, deck, samples=5, seed=3).numbers
    assert first.numbers != calibrate(north_america_board, deck, samples=5, seed=4).numbers
    assert first.deck_number == measure_deck(north_america_board, deck).deck_number


def test_random_decks_are_capped_by_their_tickets_in_all_not_on_the_bundled_maps():
    """300 decks of Europe's 46 tickets are scored; a 333-ticket deck gets as many
    decks as fit `RANDOM_TICKETS`, a huge one `MIN_RANDOM_DECKS`, and never more
    than asked for."""
    assert calibration_samples(300, 46) == 300
    assert calibration_samples(300, 333) == RANDOM_TICKETS // 333 < 300
    assert calibration_samples(300, 10_000) == MIN_RANDOM_DECKS
    assert calibration_samples(5, 10_000) == 5


# ---------------------------------------------------------------- suggestions


def small_board() -> TicketBoard:
    """A ring A-B-…-H-A of double routes of 2: the tickets between cities two or
    more apart pass TTR353 and TTR354; neighbours are one route."""
    names = "ABCDEFGH"
    ring = [(a, names[(i + 1) % 8]) for i, a in enumerate(names)]
    return TicketBoard(plane_map([(a, b, 2, 2) for a, b in ring]))


def test_suggest_finds_the_best_covering_deck_on_a_small_map():
    """Every deck of five tickets that covers the eight cities, passes the ticket
    checks and has no near-duplicate, costed as a suggestion costs it (the deck
    number's distance to its target, then structure): the suggestion is among the
    best."""
    board = small_board()
    cities = set("ABCDEFGH")
    allowed = [p for p in board.pairs if not board.design_codes(*p)]
    assert len(allowed) == 20 and min(board.distance[a][b] for a, b in allowed) == 4
    decks = [
        [Ticket(a, b, board.distance[a][b]) for a, b in five]
        for five in itertools.combinations(allowed, 5)
        if {c for p in five for c in p} == cities
    ]
    target = published_completion()
    costs = sorted(
        suggestion_cost(board, deck, target)
        for deck in decks
        if not measure_deck(board, deck).overlapping
    )
    found = []
    for seed in range(4):
        suggestion = suggest_deck(board, 5, seed=seed, iterations=300)
        deck = list(suggestion.tickets)
        assert {c for t in deck for c in t.cities} == cities and suggestion.uncovered == ()
        assert not any(board.design_codes(*t.cities) for t in deck)
        found.append(suggestion_cost(board, deck, target))
    # A local search: the best of the decks allowed, or near it.
    assert min(found) == pytest.approx(costs[0]) and max(found) <= costs[0] + 2.0


def test_suggest_never_proposes_a_ticket_validate_warns_about(north_america_board):
    """TTR353 (fragile) and TTR354 (one route, or worth less than 4): the same
    functions as `ttr validate`."""
    from ttr_maps.checks.design import ticket_design_codes
    from ttr_maps.graph import wagon_adjacency

    board = north_america_board
    deck = suggest_deck(board, 30, seed=2, iterations=200).tickets
    adjacency = wagon_adjacency(board.map)
    assert all(ticket_design_codes(board.map, adjacency, t, t.value) == () for t in deck)
    assert min(t.value for t in deck) >= 4
    # Some pairs of North America would be flagged: one route, Seattle–Portland.
    assert board.design_codes("Portland", "Seattle") == ("TTR354",)


def test_suggest_spreads_values_and_follows_the_rule_sets_long_tickets():
    from ttr_maps.analysis.tickets import default_long_tickets, value_spread

    europe = TicketBoard(load_map("europe"))
    assert default_long_tickets(europe.rules) == 5  # E4: one each for five players
    deck = suggest_deck(europe, 30, seed=1, iterations=100).tickets
    assert sum(t.long for t in deck) == 5
    assert value_spread(europe, deck) < 0.2


def test_suggest_is_deterministic_and_follows_r2(north_america_board):
    first = suggest_deck(north_america_board, 20, seed=7, iterations=150).tickets
    assert first == suggest_deck(north_america_board, 20, seed=7, iterations=150).tickets
    board = north_america_board
    assert all(t.value == board.distance[t.a][t.b] for t in first)
    assert {c for t in first for c in t.cities} == set(board.distance)
    assert len({frozenset(t.cities) for t in first}) == len(first)
    assert not measure_deck(board, first).overlapping


def test_suggest_follows_the_profile_asked_for(north_america_board):
    from ttr_maps.analysis.tickets import value_distance

    board = north_america_board
    na = suggest_deck(board, 30, seed=3, iterations=400, profile="north_america").tickets
    assert value_distance(board, na, "north_america") < value_distance(board, na, "europe")
    # The deck number comes first: the resemblance moves the values among decks
    # near the target, toward Europe's profile when asked.
    eu = suggest_deck(board, 30, seed=3, iterations=400, profile="europe").tickets
    assert value_distance(board, eu, "europe") < value_distance(board, na, "europe")


def test_suggest_aims_at_the_deck_number_asked_for(north_america_board):
    """The deck number is what a suggestion optimises: the published decks' by
    default, or the one asked for; a harder target gives longer tickets."""
    board = north_america_board
    default = suggest_deck(board, 30, seed=1, iterations=600)
    assert default.target == published_completion()
    assert abs(measure_deck(board, default.tickets).deck_number - default.target) < 0.01
    harder = suggest_deck(board, 30, seed=1, iterations=1200, completion=0.85)
    assert abs(measure_deck(board, harder.tickets).deck_number - 0.85) < 0.01
    mean = lambda deck: sum(t.value for t in deck) / len(deck)  # noqa: E731
    assert mean(harder.tickets) > mean(default.tickets)
    with pytest.raises(DeckError, match="between 0 and 1"):
        suggest_deck(board, 30, completion=1.5)


def test_suggest_works_on_a_map_with_dead_ends_and_names_them():
    """A dead end on one single-track route makes every ticket to it fragile
    (TTR353): it is left off the deck and named, the rest is covered."""
    routes = [(a, b, 2, 2) for a, b in zip("ABCDEFGH", "BCDEFGHA", strict=True)]
    routes.append(("A", "X", 3, 1))  # X: a dead end, one track
    board = TicketBoard(plane_map(routes))
    suggestion = suggest_deck(board, 5, seed=0, iterations=100)
    assert suggestion.uncovered == ("X",)
    assert {c for t in suggestion.tickets for c in t.cities} == set("ABCDEFGH")


def test_the_deck_number_falls_with_longer_tickets_more_players_and_fewer_wagons():
    """The deck number's three terms, each the way play goes (docs/tickets.md)."""
    game_map = load_map("iran")
    board = TicketBoard(game_map)
    own = measure_deck(board, game_map.tickets)
    numbers = [own.completion[n] for n in sorted(own.completion)]
    assert numbers == sorted(numbers, reverse=True)  # more players, fuller board
    short = sorted(game_map.tickets, key=lambda t: t.value)[: len(game_map.tickets) // 2]
    long = sorted(game_map.tickets, key=lambda t: t.value)[len(game_map.tickets) // 2 :]
    assert measure_deck(board, short).deck_number > own.deck_number
    assert measure_deck(board, long).deck_number < own.deck_number
    fewer = TicketBoard(replace(game_map, settings={"wagons": 30}, wagons=30))
    assert measure_deck(fewer, game_map.tickets).deck_number < own.deck_number


def test_suggest_refuses_too_few_tickets_to_cover_every_city(north_america_board):
    with pytest.raises(DeckError, match="cannot cover 36 cities"):
        suggest_deck(north_america_board, 10)


@pytest.mark.slow
@pytest.mark.parametrize("map_id,count,long", [("north_america", 30, 0), ("europe", 40, 6)])
def test_suggested_deck_is_as_near_the_target_and_sounder_than_the_published_one(
    map_id, count, long
):
    game_map = load_map(map_id)
    board = TicketBoard(game_map)
    suggestion = suggest_deck(board, count, long, seed=0)
    assert sum(t.long for t in suggestion.tickets) == long
    target = suggestion.target
    assert suggestion_cost(board, suggestion.tickets, target) <= suggestion_cost(
        board, game_map.tickets, target
    )


# ---------------------------------------------------------------- writing


def test_replace_tickets_block_keeps_everything_else():
    text = (
        "# head\nid: x\ntickets:  # old\n  - {between: [A, B], value: 1}\n"
        "  # inside\n  - {between: [B, C], value: 2}\n\n# about settings\nsettings: {}\n"
    )
    new = replace_tickets_block(text, "tickets:\n  - {between: [A, C], value: 3}\n")
    assert new == (
        "# head\nid: x\ntickets:\n  - {between: [A, C], value: 3}\n"
        "\n# about settings\nsettings: {}\n"
    )


def test_deck_yaml_quotes_names_that_need_it():
    import yaml

    deck = [Ticket("Saint-Louis", "No: 1", 4), Ticket("yes", "Québec [QC]", 5, long=True)]
    data = yaml.safe_load(deck_to_yaml(deck))
    assert data["tickets"] == [
        {"between": ["Saint-Louis", "No: 1"], "value": 4},
        {"between": ["yes", "Québec [QC]"], "value": 5, "long": True},
    ]


# ---------------------------------------------------------------- the command


@pytest.mark.parametrize(
    "args,message",
    [
        (["tickets", "no_such_map"], "not a playable map"),
        (["tickets", "iran", "--plot", "missing/x.png"], "does not exist"),
        (["tickets", "iran", "--plot", "x.bmp"], "bmp"),
        (["tickets", "suggest", "iran", "--count", "3"], "too few for 5 players"),
        (["tickets", "suggest", "europe", "--count", "30", "--long", "2"], "E4 deals 5"),
        (["tickets", "suggest", "iran"], "--count"),
        (["tickets", "iran", "--samples", "-1"], "0<=x<=100000"),
        (["tickets", "suggest", "iran", "-n", "30", "--profile", "mars"], "no published profile"),
    ],
)
def test_cli_tickets_bad_input_exits_2_with_a_message(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


def test_cli_tickets_on_a_map_without_tickets_exits_2(tmp_path: Path):
    text = bundled_map_path("iran").read_text(encoding="utf-8")
    path = tmp_path / "empty.yaml"
    path.write_text(replace_tickets_block(text, "tickets: []\n"), encoding="utf-8")
    result = runner.invoke(app, ["tickets", str(path), "--samples", "0"])
    assert result.exit_code == 2
    assert "no tickets" in result.output


@pytest.mark.parametrize("command", [["tickets"], ["tickets", "suggest", "--count", "40"]])
def test_cli_tickets_refuses_a_map_above_its_size_with_a_message(command, monkeypatch):
    """Above `MAX_TICKET_CITIES` (patched down to Iran's size less one here) both
    commands refuse with exit 2, saying the size and the limit."""
    from ttr_maps.io import limits

    cities = len(load_map("iran").cities)
    monkeypatch.setattr(limits, "MAX_TICKET_CITIES", cities - 1)
    result = runner.invoke(app, [*command, "iran"])
    assert result.exit_code == 2
    assert f"{cities:,} cities" in result.output and f"at most {cities - 1:,}" in result.output


def test_cli_suggest_write_replaces_the_block_in_place(tmp_path: Path):
    original = bundled_map_path("iran").read_text(encoding="utf-8")
    path = tmp_path / "iran.yaml"
    path.write_text(original, encoding="utf-8")
    args = ["tickets", "suggest", str(path), "--count", "30", "--iterations", "50", "--seed", "2"]
    printed = runner.invoke(app, args)
    assert printed.exit_code == 0, printed.output
    result = runner.invoke(app, [*args, "--write"])
    assert result.exit_code == 0, result.output
    written = path.read_text(encoding="utf-8")
    head = original[: original.index("\ntickets:")]
    assert written.startswith(head)  # everything before the block, comments included
    assert printed.stdout.split("tickets:", 1)[1] in written
    # No warning of the tickets checks: TTR352 (size), TTR353, TTR354, TTR151.
    checked = runner.invoke(app, ["validate", str(path), "--format", "json"])
    codes = {p["code"] for f in json.loads(checked.stdout)["files"] for p in f["problems"]}
    assert not codes & {"TTR151", "TTR303", "TTR352", "TTR353", "TTR354"}, codes
    game_map = load_map(path)
    assert len(game_map.tickets) == 30


def test_write_deck_refuses_a_result_that_would_not_validate(tmp_path: Path):
    """A wrong value (R2) makes the new file invalid: nothing is written."""
    from ttr_maps.authoring.ticket_block import write_deck

    path = tmp_path / "iran.yaml"
    original = bundled_map_path("iran").read_text(encoding="utf-8")
    path.write_text(original, encoding="utf-8")
    with pytest.raises(DeckError, match="would not validate"):
        write_deck(path, [Ticket("Tehran", "Qom", 99)])
    assert path.read_text(encoding="utf-8") == original
    assert [p.name for p in tmp_path.iterdir()] == ["iran.yaml"]  # no temporary left


def test_random_module_state_is_not_used(north_america_board):
    """Suggestions are seeded: the global random state does not change them."""
    random.seed(1)
    first = suggest_deck(north_america_board, 24, seed=1, iterations=20)
    random.seed(2)
    assert suggest_deck(north_america_board, 24, seed=1, iterations=20) == first


# ---------------------------------------------------------------- the paths


def grid_routes(side: int, rng: random.Random) -> list[tuple[str, str, int, int]]:
    """A side × side grid with some diagonals, lengths 1-3 (many equal paths)."""
    name = [[f"c{x}{y}" for y in range(side)] for x in range(side)]
    routes = []
    for x, y in itertools.product(range(side), repeat=2):
        if x + 1 < side:
            routes.append((name[x][y], name[x + 1][y], rng.choice((1, 1, 2)), 1))
        if y + 1 < side:
            routes.append((name[x][y], name[x][y + 1], rng.choice((1, 1, 2)), 1))
        if x + 1 < side and y + 1 < side and rng.random() < 0.3:
            routes.append((name[x][y], name[x + 1][y + 1], rng.choice((2, 3)), 1))
    return routes


@pytest.mark.parametrize("seed", range(3))
def test_k_cheapest_paths_are_the_cheapest_simple_paths(seed):
    """Against every simple path, enumerated: the same k cheapest costs, each path
    simple, joining the two cities, costing what it says."""
    import networkx as nx

    from ttr_maps.graph import k_cheapest_paths, wagon_graph

    rng = random.Random(seed)
    graph = wagon_graph(plane_map(grid_routes(4, rng)))
    for a, b in rng.sample(list(itertools.combinations(sorted(graph), 2)), 12):
        every = sorted(nx.path_weight(graph, p, "weight") for p in nx.all_simple_paths(graph, a, b))
        found = k_cheapest_paths(graph, a, b, 5)
        assert [cost for cost, _ in found] == every[:5]
        for cost, path in found:
            assert path[0] == a and path[-1] == b and len(set(path)) == len(path)
            assert nx.path_weight(graph, path, "weight") == cost
        assert len({tuple(p) for _, p in found}) == len(found)


def test_equal_paths_do_not_depend_on_the_order_of_the_routes():
    """Ties are settled by the cities' names: the same paths, and so the same
    usage, whatever order the file lists its routes in."""
    routes = grid_routes(5, random.Random(7))
    shuffled = routes[:]
    random.Random(1).shuffle(shuffled)
    first, second = TicketBoard(plane_map(routes)), TicketBoard(plane_map(shuffled))
    assert first.pairs == second.pairs
    for a, b in first.pairs:
        assert first.paths(a, b).paths == second.paths(a, b).paths
