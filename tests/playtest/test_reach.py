"""What hardly reaches play (`ttr_core.playtest.reach`): parts of a map a run's bots
seldom use, so that a change to them can hardly show (long tickets kept 4 % of the
times offered, E4; a ticket's bonus, D7; tunnels, E2; ferries, E3; stations, E1)."""

from __future__ import annotations

from dataclasses import replace

from balance_reports import checked, synthetic_report

from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.reach import HARDLY, note_text, reach_notes, ticket_reach
from ttr_core.playtest.simulate import simulate


def _tickets(report, **changed):
    return replace(
        report.tickets,
        by_ticket=tuple(replace(t, **changed.get(t.ticket, {})) for t in report.tickets.by_ticket),
    )


def test_e4_long_tickets_kept_4_percent_of_the_times_offered_hardly_reach_play() -> None:
    report = synthetic_report()
    long = {"long": True, "offered": 125, "held": 5, "completed": 2}
    report = replace(report, tickets=_tickets(report, T14=long, T15=long))
    [note] = [n for n in reach_notes(report) if n.part == "long tickets"]
    assert note.rate == 0.04 and note.trials == 250
    assert note.ci95[0] < 0.04 < note.ci95[1] < HARDLY
    assert note_text(note).startswith("long tickets: kept 4.0 % of the times offered (95 % ")
    assert note_text(note).endswith("of 250): a change to them hardly reaches play")
    checked(replace(report, reach=reach_notes(report)))  # the schema takes it


def test_tickets_kept_as_often_as_offered_are_not_named() -> None:
    assert reach_notes(synthetic_report()) == ()  # every ticket kept each time offered


def test_d7_a_priced_ticket_seldom_held_and_a_route_kind_seldom_claimed_are_named() -> None:
    report = synthetic_report(games=1000, routes={"A-B": 20, "B-C": 500})
    report = replace(
        report,
        tickets=_tickets(report, T4={"bonus": 3, "offered": 30, "held": 30, "completed": 25}),
        routes=tuple(replace(r, tunnel=r.route == "A-B") for r in report.routes),
    )
    parts = {n.part: n for n in reach_notes(report)}
    assert (
        parts["tickets with a bonus"].names == ("T4",)
        and parts["tickets with a bonus"].rate == 0.03
    )
    assert parts["tunnels"].names == ("A-B",) and parts["tunnels"].rate == 0.02
    assert "ferries" not in parts


def test_ticket_reach_in_words() -> None:
    ticket = synthetic_report().tickets.by_ticket[0]
    assert ticket_reach(replace(ticket, offered=0, held=0), 200) == (
        "never dealt in 200 games: a change to it cannot show"
    )
    assert ticket_reach(replace(ticket, offered=100, held=4), 200).endswith("hardly reaches play")
    assert ticket_reach(replace(ticket, offered=100, held=60), 200) == (
        "kept 60 of the 100 times offered (60 %)"
    )


def test_a_run_counts_every_offer_of_every_ticket(europe) -> None:
    """R4, E4 at setup and R12 later: every ticket dealt to a seat counts as offered,
    and none is held more often than it was offered."""
    plan = RunPlan(6, 3, ("greedy", "random", "one-step"), 2)
    report = simulate(PlayedMap(europe, "europe"), plan).report
    tickets = report.tickets.by_ticket
    offered = sum(t.offered for t in tickets)
    assert offered >= 6 * 3 * 4  # at least the setup offers: 3 regular + 1 long a seat
    assert all(t.held <= t.offered for t in tickets)
    long = [t for t in tickets if t.long]
    assert sum(t.offered for t in long) == 6 * 3  # E4: one long ticket dealt a seat
