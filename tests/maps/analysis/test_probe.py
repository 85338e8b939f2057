"""The max-score probe (ttr_maps.analysis.probe, HiGHS) and `ttr probe`."""

from __future__ import annotations

from pathlib import Path

import pytest
from hand_maps import TRIANGLE
from testdata import REFERENCE
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps import load_map
from ttr_maps.analysis.probe import (
    ProbeError,
    load_ticket_values,
    parse_budget_range,
    probe_map,
    solve_max_score,
    sweep_max_score,
    ticket_rates,
)
from ttr_maps.model import Map, Ticket

runner = CliRunner()


def triangle() -> Map:
    """The `TRIANGLE` map."""
    return Map.from_data(TRIANGLE)


@pytest.mark.parametrize(
    "wagons,score,routes,tickets",
    [
        (0, 0, 0, 0),
        (1, 1, 1, 0),  # one route of length 1: 1 point, the ticket is not complete
        (2, 4, 2, 2),  # A-B-C: 1 + 1 route points and the ticket (2)
        (6, 17, 15, 2),  # the length-6 route scores 15 (R10) and completes A-C
        (7, 18, 16, 2),  # A-C and one short route
        (8, 19, 17, 2),  # everything but the second track of A-C
        (20, 19, 17, 2),  # R11: a lone player may never own both tracks of a double
    ],
)
def test_r10_r11_r13_optimum_on_a_triangle_by_hand(wagons, score, routes, tickets):
    result = solve_max_score(triangle(), wagons)
    assert result.optimal
    assert (result.score, result.route_points, result.ticket_points) == (score, routes, tickets)
    assert result.wagons_used <= wagons


def test_r13_a_ticket_counts_only_when_its_cities_are_joined():
    """A -1- B -5- C -1- D with tickets A-B (1), C-D (1) and A-D (7): A-D needs
    all 7 wagons (1 + 10 + 1 route points, 7 + 1 + 1 tickets); with 6 the best is
    B-C and one short route, completing one short ticket."""
    game_map = Map.from_data(
        {
            "format": 1,
            "id": "line",
            "name": "Line",
            "coordinates": "plane",
            "cities": {n: {"x": i, "y": 0} for i, n in enumerate("ABCD")},
            "routes": [
                {"between": ["A", "B"], "length": 1, "color": "red"},
                {"between": ["B", "C"], "length": 5, "color": "red"},
                {"between": ["C", "D"], "length": 1, "color": "red"},
            ],
            "tickets": [
                {"between": ["A", "B"], "value": 1},
                {"between": ["C", "D"], "value": 1},
                {"between": ["A", "D"], "value": 7},
            ],
        }
    )
    assert solve_max_score(game_map, 7).score == 12 + 9
    six = solve_max_score(game_map, 6)
    assert six.score == 11 + 1  # B-C and one short route: A-D is not complete
    assert Ticket("A", "D", 7, entry=2) not in six.tickets


def _line_map(rules: str = "base", settings: dict | None = None) -> Map:
    """A -2- B -2- C -2- D -2- E, tickets A-C (4), B-D (4) and the long A-E (8)
    and B-E (6, long)."""
    return Map.from_data(
        {
            "format": 1,
            "id": "line",
            "name": "Line",
            "coordinates": "plane",
            "rules": rules,
            "settings": settings or {},
            "cities": {n: {"x": i, "y": 0} for i, n in enumerate("ABCDE")},
            "routes": [
                {"between": [a, b], "length": 2, "color": "red"}
                for a, b in ("AB", "BC", "CD", "DE")
            ],
            "tickets": [
                {"between": ["A", "C"], "value": 4},
                {"between": ["B", "D"], "value": 4},
                {"between": ["A", "E"], "value": 8, "long": True},
                {"between": ["B", "E"], "value": 6, "long": True},
            ],
        }
    )


def test_e4_at_most_the_long_tickets_a_player_is_dealt():
    """With the europe rules a player is dealt one long ticket (E4): of A-E and
    B-E only one counts; the base rules deal long tickets like any other."""
    base = solve_max_score(_line_map(), 8)
    assert base.ticket_points == 4 + 4 + 8 + 6 and base.optimal
    europe = solve_max_score(_line_map("europe"), 8)
    assert europe.ticket_points == 4 + 4 + 8 and europe.optimal
    assert sum(t.long for t in europe.tickets) == 1
    two = solve_max_score(_line_map("europe", {"setup_long_tickets": 2}), 8)
    assert two.ticket_points == 4 + 4 + 8 + 6


def test_d7_a_designers_bonus_counts_in_the_optimum():
    game_map = Map.from_data(
        {**TRIANGLE, "tickets": [{"between": ["A", "C"], "value": 2, "bonus": 5}]}
    )
    result = solve_max_score(game_map, 2)
    assert (result.route_points, result.ticket_points, result.score) == (2, 7, 9)


@pytest.mark.slow  # HiGHS on a bundled map, several solves
def test_a_node_limit_gives_the_same_answer_every_time():
    game_map = load_map("iran")
    first = solve_max_score(game_map, 30, node_limit=5)
    again = solve_max_score(game_map, 30, node_limit=5)
    assert (first.score, first.routes, first.tickets) == (again.score, again.routes, again.tickets)
    assert first.gap >= 0


@pytest.mark.slow  # HiGHS on a bundled map, several solves
def test_a_sweep_never_falls_and_counts_proven_optima_only():
    """Each budget starts from the previous optimum, so even solves stopped after
    one node never score less with more wagons; the ticket table counts only the
    proven optima."""
    sweep = sweep_max_score(load_map("iran"), range(30, 34), node_limit=1)
    scores = [r.score for r in sweep.results]
    assert scores == sorted(scores) and [r.wagons for r in sweep.results] == [30, 31, 32, 33]
    assert all(r in sweep.proven for r in sweep.results if r.optimal)
    assert sum(sweep.ticket_counts().values()) == sum(len(r.tickets) for r in sweep.proven)


def test_ticket_rates_by_hand():
    rates = ticket_rates(triangle())
    assert [(r.wagons, r.route_points) for r in rates] == [(2, 2)]
    assert rates[0].points_per_wagon == pytest.approx((2 + 2) / 2)


def test_sweep_lists_tickets_in_most_optima():
    sweep = sweep_max_score(triangle(), range(0, 4))
    assert [r.score for r in sweep.results] == [0, 1, 4, 4]
    assert [(t.cities, n) for t, n in sweep.likely_undervalued()] == []  # in 2 of 4: not most
    sweep = sweep_max_score(triangle(), range(2, 5))
    assert [(t.cities, n) for t, n in sweep.likely_undervalued()] == [(("A", "C"), 3)]


def test_parse_budget_range():
    assert parse_budget_range("30..50") == range(30, 51)
    for bad in ("30-50", "50..30", "a..b", "..3", "-1..3"):
        with pytest.raises(ProbeError):
            parse_budget_range(bad)


def test_printed_values_load_from_the_reference():
    game_map = load_map("north_america")
    printed = load_ticket_values(REFERENCE / "north_america.json", game_map)
    assert len(printed) == len(game_map.tickets)
    by_pair = {frozenset(t.cities): t.value for t in printed}
    assert by_pair[frozenset(("Seattle", "New York"))] == 22  # R2 makes it 20
    europe = load_map("europe")
    assert sum(t.long for t in load_ticket_values(REFERENCE / "europe.json", europe)) == 6


@pytest.mark.parametrize(
    "content,message",
    [
        ("not json", "not JSON"),
        ('{"tickets": []}', "expected a list"),
        ('[{"a": "Atlantis", "b": "Boston", "value": 3}]', "ticket 1"),
        ('[{"a": "Miami", "b": "Boston", "value": -3}]', "whole value of 1 to 1000"),
    ],
)
def test_bad_values_files_are_refused(tmp_path: Path, content, message):
    path = tmp_path / "values.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ProbeError, match=message):
        load_ticket_values(path, load_map("north_america"))


def test_probe_marks_the_tickets_validate_warns_about():
    """The ticket checks are shared: a ticket one route completes is TTR354."""
    report = probe_map(triangle(), wagons=2)
    codes = dict(zip((r.ticket.cities for r in report.rates), report.checks, strict=True))
    # Worth 2 (less than 4), and A-B-C is its only cheap way (the direct route is 6).
    assert codes[("A", "C")] == ("TTR353", "TTR354")


@pytest.mark.slow
def test_north_america_printed_values_reproduce_the_paper():
    """Schaefer & Schaefer: 285 with 45 wagons, 223 of it from tickets."""
    game_map = load_map("north_america")
    printed = load_ticket_values(REFERENCE / "north_america.json", game_map)
    result = solve_max_score(game_map, 45, tickets=printed)
    assert result.optimal
    assert (result.score, result.ticket_points) == (285, 223)


@pytest.mark.parametrize(
    "args,message",
    [
        (["probe", "no_such_map"], "not a playable map"),
        (["probe", "iran", "--sweep", "50..30"], "LOW..HIGH"),
        (["probe", "iran", "--values", "missing.json"], "cannot read"),
        (["probe", "iran", "--wagons", "-3"], "x>=0"),
    ],
)
def test_cli_probe_bad_input_exits_2(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output


def test_probe_refuses_a_map_past_its_size_with_the_bound(monkeypatch) -> None:
    from ttr_maps.analysis import probe

    monkeypatch.setattr(probe, "MAX_PROBE_CITIES", 2)
    with pytest.raises(ProbeError, match="at most 2 cities"):
        probe_map(triangle())


def test_probe_help_names_the_size_bound_and_the_time_limit() -> None:
    from ttr_maps.io.limits import MAX_PROBE_CITIES

    result = runner.invoke(app, ["probe", "--help"], terminal_width=200)
    assert f"more than {MAX_PROBE_CITIES:,} cities are refused" in result.output
    assert "--time-limit" in result.output
    too_long = runner.invoke(app, ["probe", "iran", "--time-limit", "1e9"])
    assert too_long.exit_code == 2


def test_a_time_limit_reaches_the_solver_and_an_easy_solve_ends_optimal() -> None:
    result = solve_max_score(triangle(), 6, time_limit=30.0)
    assert result.optimal and result.score == 17


def test_ticket_checks_share_the_fragility_budget_and_say_what_they_left(monkeypatch) -> None:
    """TTR353 on the chain of test_growth: every ticket is fragile; past the
    budget a ticket says it was not checked, never that it is sound."""
    from hand_maps import chain_map

    from ttr_maps.analysis import probe
    from ttr_maps.checks import design
    from ttr_maps.io.document import parse_document

    game_map = Map.from_data(parse_document(chain_map(12)).data)
    full = probe.ticket_checks(game_map, game_map.tickets)
    assert all("TTR353" in codes for codes in full)
    monkeypatch.setattr(design, "FRAGILE_SEARCH_BUDGET", 20)
    cut = probe.ticket_checks(game_map, game_map.tickets)
    assert any("TTR353" in codes for codes in cut)
    assert design.UNCHECKED_FRAGILITY in cut[-1] and "TTR353" not in cut[-1]
