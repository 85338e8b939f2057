"""Findings from balance reports: synthetic reports with known answers, and a
small real simulation of a map whose games stall."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from balance_reports import baseline, board_baseline, checked, synthetic_report
from testdata import BAD
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.findings import (
    PUBLISHED_TURNS_PER_PLAYER,
    SEAT_MIN_EFFECT,
    TICKET_MIN_EFFECT,
    findings,
    fit_completion,
    screen,
    summary_lines,
)
from ttr_core.playtest.report import BalanceReport, Finding, Fit
from ttr_maps.rules import BASE, RuleSet

STALLING_MAP = BAD / "ttr451_games_stall.yaml"
runner = CliRunner()


def _codes(report: BalanceReport, rules: RuleSet = BASE) -> list[str]:
    return [f.code for f in findings(report, rules)]


def _checked_findings(report: BalanceReport) -> tuple[Finding, ...]:
    """The findings, after checking that the report holding them fits the schema."""
    found = findings(report, BASE)
    checked(replace(report, findings=found))
    return found


def test_a_fair_report_has_no_finding() -> None:
    assert _checked_findings(synthetic_report()) == ()
    screened = screen(synthetic_report(), BASE)
    assert screened.findings == () and screened.undecided == ()
    screening = screened.screening
    assert screening.correction == "holm"
    # Every number looked at is one test a direction: 4 places both ways, 40 routes
    # (rare and common), 12 tickets both ways, 2 styles and 2 bonus shares (above
    # only), game length both ways.
    assert screening.tests == 4 * 2 + 80 + 12 * 2 + 2 + 2 + 2
    assert screening.baseline.startswith("none: findings on a,b at 4 players set against fair")
    report = replace(synthetic_report(), screening=screening)
    lines = summary_lines(report)
    assert lines[0] == "findings: none confirmed"
    assert "this run of 1000 games would find (80 % of the time):" in lines
    assert any(line.startswith("  a place in the turn order winning more") for line in lines)


def test_r4_a_turn_order_edge_needs_more_than_the_minimum_effect() -> None:
    # 34 % for the first player at 4 players: 9 points above the fair 25 %.
    [found] = _checked_findings(synthetic_report(wins_by_turn_order=[340, 220, 220, 220]))
    assert found.code == "seat-advantage" and found.evidence.turn_order == 1
    assert found.title.startswith("player 1 in turn order wins 34.0 % of games (95 % interval")
    assert found.evidence.published is None and found.evidence.min_effect == SEAT_MIN_EFFECT
    # The evidence's interval is the one of the report's table, not a widened one.
    report = synthetic_report(wins_by_turn_order=[340, 220, 220, 220])
    assert found.evidence.ci95 == tuple(round(x, 4) for x in report.win_rate.by_turn_order[0].ci95)
    assert 0 < found.p_value < 0.05
    # 27 % is 2 points above the fair share: below the minimum effect at any run length.
    assert findings(synthetic_report(games=100_000, wins_by_turn_order=[27_000] * 4), BASE) == ()
    # The same 34 % over 100 games is not significant: no finding, but undecided,
    # with the games that would decide it.
    short = synthetic_report(games=100, wins_by_turn_order=[34, 22, 22, 22])
    screened = screen(short, BASE)
    assert screened.findings == ()
    [undecided] = screened.undecided
    assert undecided.code == "seat-advantage" and undecided.subject == "seat-advantage 1 up"
    assert undecided.title.startswith("player 1 in turn order wins 34.0 % (95 % interval")
    assert 0.05 < undecided.p_value < 0.2 and undecided.halves_p is None


def test_an_undecided_number_is_decided_by_the_games_it_asks_for() -> None:
    """The games needed are those at which the departure seen would be confirmed:
    the same rates over that many games are a finding, over a tenth of them not."""
    short = synthetic_report(games=100, wins_by_turn_order=[34, 22, 22, 22])
    [undecided] = screen(short, BASE).undecided
    needed = undecided.games_needed
    assert needed is not None and 100 < needed < 10_000

    def at(games: int) -> BalanceReport:
        first = round(0.34 * games)
        rest = (games - first) / 3
        return synthetic_report(games=games, wins_by_turn_order=[first, rest, rest, rest])

    assert _codes(at(needed)) == ["seat-advantage"]
    assert _codes(at(needed // 10)) == []


def test_a_finding_must_show_in_both_halves_of_the_games() -> None:
    """A significant number one half of the games does not show is undecided."""
    order = [450, 183, 183, 184]  # 45 % for the first player over 1,000 games
    report = synthetic_report(wins_by_turn_order=order)
    both = synthetic_report(games=500, wins_by_turn_order=[v / 2 for v in order])
    screened = screen(report, BASE, (both, both))
    [found] = [f for f in screened.findings if f.evidence.turn_order == 1]
    assert found.halves_p is not None and max(found.halves_p) < 0.05
    fair = synthetic_report(games=500)
    screened = screen(report, BASE, (both, fair))
    assert screened.findings == ()
    [undecided] = [u for u in screened.undecided if u.subject == "seat-advantage 1 up"]
    assert undecided.halves_p is not None and undecided.halves_p[1] > 0.05


def test_r4_severity_is_read_from_the_99_percent_interval_not_the_point_estimate() -> None:
    # 33 % over 1,000 games: the point is 8 points above fair, past SEAT_HIGH, but
    # the 99 % interval reaches both sides of 25 + 6 %: the run cannot tell.
    [undecided] = findings(synthetic_report(wins_by_turn_order=[330, 223, 223, 224]), BASE)
    assert undecided.severity == "medium or high"
    [high] = findings(
        synthetic_report(games=10_000, wins_by_turn_order=[3300, 2233, 2233, 2234]), BASE
    )
    assert high.severity == "high"
    # 29.5 % over 10,000 games: the whole interval short of 31 %: medium.
    [medium] = findings(
        synthetic_report(games=10_000, wins_by_turn_order=[2950, 2350, 2350, 2350]), BASE
    )
    assert medium.severity == "medium"


def test_r4_the_published_boards_baseline_sets_the_reference() -> None:
    # The published boards give the first player 30-31 % with these bots: 33 % is
    # within the minimum effect of that, so no finding ...
    published = baseline(turn_order=[0.30, 0.24, 0.23, 0.23])
    published = replace(
        published,
        boards=(published.boards[0], board_baseline("europe", turn_order=[0.31, 0.23, 0.23, 0.23])),
    )
    order = [330, 223, 223, 224]
    assert findings(synthetic_report(wins_by_turn_order=order, published=published), BASE) == ()
    # ... while against the fair share it is one.
    assert _codes(synthetic_report(wins_by_turn_order=order)) == ["seat-advantage"]
    # A place far from both boards names them.
    far = [450, 183, 183, 184]
    [found] = _checked_findings(synthetic_report(wins_by_turn_order=far, published=published))
    assert "the published boards' 30.0 %–31.0 % with the same bots" in found.title
    assert found.evidence.published == (0.3, 0.31)


def test_seat_numbers_alone_are_not_judged() -> None:
    # The first player is random (R4): a seat number's rate only reflects the bots.
    assert findings(synthetic_report(wins_by_seat=[400, 200, 200, 200]), BASE) == ()


def test_r11_at_two_or_three_players_a_closed_second_track_is_not_rarely_claimed() -> None:
    routes = {f"R{i}": 500 for i in range(10)} | {"A-B/1": 990, "A-B/2": 2}
    three = synthetic_report(players=3, routes=routes)
    assert "rarely-claimed-routes" not in _codes(three)
    four = synthetic_report(players=4, routes=routes)
    [rare] = [f for f in _checked_findings(four) if f.code == "rarely-claimed-routes"]
    assert [r.route for r in rare.evidence.routes] == ["A-B/2"]
    # A variant where one track closes the other at 4 players too (R11 read from
    # the rules the games were played with, not from the player count alone).
    closing = BASE.with_overrides({"double_routes_from": 5})
    assert "rarely-claimed-routes" not in _codes(four, closing)


def test_r6_stalls_name_their_cause_and_the_matching_advice() -> None:
    report = synthetic_report(
        games=300,
        stalls=(290, {"track": 290, "cards": 120}),
        routes={f"R{i}": 150 for i in range(40)},
    )
    [found] = _checked_findings(report)
    assert found.code == "stalls" and found.severity == "high"
    assert "290 of 300 games stalled" in found.title and "track: 290" in found.title
    assert "TTR451" in found.suggestion
    assert found.evidence.ci95[0] > 0.9
    # One stalled game in a thousand is below the minimum effect (1 %).
    assert findings(synthetic_report(stalls=(1, {"track": 1})), BASE) == ()


def test_dominant_style_is_flagged_only_above_the_fair_share() -> None:
    [found] = _checked_findings(synthetic_report(wins_by_bot={"a": 700, "b": 300}))
    assert found.code == "dominant-style" and found.evidence.bot == "a"
    # 35 % of its seats against 25 %: the 99 % interval reaches both sides of
    # 25 + STYLE_HIGH.
    assert found.severity == "medium or high"
    [high] = findings(synthetic_report(wins_by_bot={"a": 800, "b": 200}), BASE)
    assert high.severity == "high"


def test_a_style_that_wins_as_often_on_the_published_boards_is_no_finding() -> None:
    published = baseline(by_bot={"a": 0.34, "b": 0.16})
    report = synthetic_report(wins_by_bot={"a": 700, "b": 300}, published=published)
    assert findings(report, BASE) == ()


def test_routes_claimed_in_almost_no_and_almost_every_game() -> None:
    routes = {f"R{i}": 500 for i in range(40)} | {"Rare": 2, "Busy": 998, "Fine": 60}
    found = {f.code: f for f in _checked_findings(synthetic_report(routes=routes))}
    # 6 % is not below 5 %: only Rare is rare.
    assert [r.route for r in found["rarely-claimed-routes"].evidence.routes] == ["Rare"]
    assert [r.route for r in found["always-claimed-routes"].evidence.routes] == ["Busy"]
    # One route in 43 is a small share of the track: low, as the published boards have some.
    assert found["rarely-claimed-routes"].severity == "low"
    # Many rarely claimed routes are medium.
    many = {f"R{i}": 500 for i in range(30)} | {f"Rare{i}": 1 for i in range(10)}
    [rare] = [f for f in findings(synthetic_report(routes=many), BASE) if f.code.startswith("rare")]
    assert rare.severity == "medium" and rare.evidence.track_share == 0.25


def test_fit_completion_is_a_held_weighted_line() -> None:
    tickets = synthetic_report().tickets.by_ticket
    assert fit_completion(tickets) == Fit(1.0, -0.05)  # exactly 1 - 0.05 * value
    assert fit_completion(tickets[:2]) is None


def test_ticket_outliers_are_far_from_the_fit_for_their_value() -> None:
    tickets = [(f"T{v}", v, 400, 400 - 20 * v) for v in range(4, 16)]
    tickets[5] = ("Hard", 9, 400, 40)  # 10 % where the fit says about 55 %
    [found] = _checked_findings(synthetic_report(tickets=tickets))
    assert found.code == "ticket-outliers" and found.severity == "high"
    [outlier] = found.evidence.tickets
    assert outlier.ticket == "Hard" and outlier.departure < -TICKET_MIN_EFFECT
    assert "bonus (D7)" in found.suggestion


def test_ticket_departures_below_the_minimum_effect_are_no_finding() -> None:
    # 5 points below the line, held 40,000 times: significant, but too small to act on.
    tickets = [(f"T{v}", v, 40_000, 40_000 - 2_000 * v) for v in range(4, 16)]
    tickets[5] = ("Soft", 9, 40_000, 20_000)
    assert findings(synthetic_report(tickets=tickets), BASE) == ()


def test_r16_longest_path_bonus_concentrated_on_one_style() -> None:
    found = _checked_findings(synthetic_report(bonus_by_bot={"a": 900, "b": 100}))
    assert [f.code for f in found] == ["longest-path-concentrated"]
    assert found[0].evidence.share == 0.9


def test_games_too_short_against_the_published_boards() -> None:
    low, _ = PUBLISHED_TURNS_PER_PLAYER
    [found] = _checked_findings(synthetic_report(turns=(1000, 4 * (low - 10), 20.0)))
    assert found.code == "game-length" and "shorter" in found.title
    # Against the baseline's 39 turns per player, 41 is within the minimum effect.
    published = baseline()
    assert findings(synthetic_report(turns=(1000, 4 * 41, 20.0), published=published), BASE) == ()
    [longer] = findings(synthetic_report(turns=(1000, 4 * 50, 20.0), published=published), BASE)
    assert "longer than on the published boards with the same bots (39.0)" in longer.title


def test_every_rule_is_controlled_together() -> None:
    # Two borderline numbers, each significant alone, are not once Holm counts
    # every test of every rule: a report with more routes says less per route.
    order = [330, 223, 223, 224]
    few = synthetic_report(wins_by_turn_order=order, routes={"A-B": 500})
    many = synthetic_report(wins_by_turn_order=order, routes={f"R{i}": 500 for i in range(400)})
    assert _codes(few) == ["seat-advantage"] and _codes(many) == []


def test_findings_are_sorted_by_severity() -> None:
    report = synthetic_report(stalls=(500, {"track": 500}), bonus_by_bot={"a": 900, "b": 100})
    assert [f.severity for f in findings(report, BASE)] == ["high", "medium"]
    order = [330, 223, 223, 224]  # "medium or high" comes between them
    report = replace(synthetic_report(wins_by_turn_order=order), stalls=report.stalls)
    assert [f.severity for f in findings(report, BASE)][:2] == ["high", "medium or high"]


@pytest.fixture(scope="module")
def stalling_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stall")
    arguments = ["simulate", str(STALLING_MAP), "-n", "8", "--players", "4", "--seed", "3"]
    result = runner.invoke(app, [*arguments, "--bots", "greedy,long-route", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_r6_a_map_whose_games_stall_opens_its_report_with_the_cause(stalling_run: Path) -> None:
    data = json.loads((stalling_run / "report.json").read_text())
    assert list(data)[:3] == ["format", "version", "findings"]
    report = BalanceReport.from_dict(data)
    assert checked(report) == data
    stalls = report.stalls
    assert stalls.count >= 4
    # 4 x 45 wagons on 126 spaces: every stalled game had no claimable track left.
    assert stalls.causes["track"] == stalls.count
    assert all("track" in game.causes for game in stalls.examples)
    first = report.findings[0]
    assert first.code == "stalls" and "TTR451" in first.suggestion
    by_order = report.win_rate.by_turn_order
    assert len(by_order) == 4
    assert round(sum(r.wins for r in by_order), 6) == report.games
    assert by_order[0].wins == report.win_rate.first_player.wins
    page = (stalling_run / "report.html").read_text()
    assert page.index("<h2>Findings</h2>") < page.index("<h2>Win rate by bot</h2>")
    assert "least claimed route" in page and "ticket-completion-vs-value.png" in page
    assert (stalling_run / "ticket-completion-vs-value.png").stat().st_size > 0
    assert (stalling_run / "score-parts-by-seat.png").stat().st_size > 0
