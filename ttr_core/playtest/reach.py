"""What hardly reaches play: parts of a map that the bots of a run seldom use, so
that a change to them can hardly show in any number of the run.

A designer who changes a long ticket's value, a tunnel or a ticket's bonus (D7)
expects the play-test to say what it did; if greedy seats keep that long ticket
one time in twenty-five, a run of a few hundred games holds it a handful of
times, and no comparison can see the change. `reach_notes(report)` names such
parts of a report's map, with the rate and its 95 % interval:

- **long tickets** (E4) and each **ticket** kept less than `HARDLY` of the times it
  was dealt to a seat to choose from (R4, R12);
- **tickets with a bonus** (D7) held in fewer than `HARDLY` of the games;
- **tunnels** (E2) and **ferries** (E3), by the share of games in which their
  routes were claimed (on average over the routes);
- **stations** (E1), built in fewer than `HARDLY` of the seat-games.

Routes claimed in almost no game are findings of their own (`rarely-claimed-routes`).
`ttr compare` uses the same rates to say of each line of its map diff whether the
change reaches play (`change_reach`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.playtest.report import BalanceReport, ReachNote, RouteClaims, TicketCompletion
from ttr_core.playtest.stats import rate_interval

#: A part "hardly reaches play" below this rate (of offers kept, of games).
HARDLY = 0.10
#: Individual tickets named at most (the rest are counted).
MOST_NAMED = 8


def _interval(hits: float, trials: float) -> tuple[float, float]:
    low, high = rate_interval(hits / trials, trials) if trials else (0.0, 1.0)
    return (round(low, 4), round(high, 4))


def _note(
    part: str, measure: tuple[str, str], hits: float, trials: float, names: Sequence[str]
) -> ReachNote:
    rate = hits / trials if trials else 0.0
    verb, per = measure
    return ReachNote(
        part, verb, per, round(rate, 4), _interval(hits, trials), int(trials), tuple(names)
    )


KEPT = ("kept", "of the times offered")
HELD = ("held", "per game")
CLAIMED = ("claimed", "per game, on average over their routes")
BUILT = ("built", "per seat-game")


def kept_share(tickets: Sequence[TicketCompletion]) -> tuple[int, int]:
    """(times kept, times offered) of some tickets: a ticket held at the end was
    kept when offered (R4, R12), and kept tickets are held to the end."""
    return sum(t.held for t in tickets), sum(t.offered for t in tickets)


def reach_notes(report: BalanceReport) -> tuple[ReachNote, ...]:
    """The parts of the report's map that hardly reach play (see the module)."""
    notes: list[ReachNote] = []
    games = report.games
    if not games:
        return ()
    tickets = report.tickets.by_ticket
    long = [t for t in tickets if t.long]
    kept, offered = kept_share(long)
    if long and offered and kept / offered < HARDLY:
        notes.append(_note("long tickets", KEPT, kept, offered, [t.ticket for t in long]))
    rare = [t for t in tickets if not t.long and t.offered and t.held / t.offered < HARDLY]
    if rare:
        kept, offered = kept_share(rare)
        names = [t.ticket for t in sorted(rare, key=lambda t: (t.held / t.offered, t.ticket))]
        notes.append(_note("tickets", KEPT, kept, offered, names[:MOST_NAMED]))
    priced = [t for t in tickets if t.bonus]
    if priced:
        held = sum(t.held for t in priced) / len(priced)
        if held / games < HARDLY:
            names = [t.ticket for t in priced]
            notes.append(_note("tickets with a bonus", HELD, held, games, names))
    for part, chosen in (
        ("tunnels", [r for r in report.routes if r.tunnel]),
        ("ferries", [r for r in report.routes if r.ferry]),
    ):
        note = _routes_note(part, chosen, games)
        if note is not None:
            notes.append(note)
    if report.europe is not None and report.settings.rules.get("stations"):
        built = sum(b.stations_built for b in report.europe.by_bot.values())
        seats = sum(b.seat_games for b in report.europe.by_bot.values())
        if seats and built / seats < HARDLY:
            notes.append(_note("stations", BUILT, built, seats, ()))
    return tuple(notes)


def _routes_note(part: str, routes: Sequence[RouteClaims], games: int) -> ReachNote | None:
    if not routes:
        return None
    claimed = sum(r.claimed for r in routes) / len(routes)
    if claimed / games >= HARDLY:
        return None
    return _note(part, CLAIMED, claimed, games, [r.route for r in routes][:MOST_NAMED])


def note_text(note: ReachNote) -> str:
    """One line: `long tickets: kept 4.0 % of the times offered (95 % 2.1–7.5 %, of
    250): a change to them hardly reaches play`, naming the tickets or routes."""
    low, high = note.ci95
    named = f" ({', '.join(note.names)})" if note.names and note.part != "long tickets" else ""
    return (
        f"{note.part}{named}: {note.verb} {100 * note.rate:.1f} % {note.per} (95 % "
        f"{100 * low:.1f}–{100 * high:.1f} %, of {note.trials}): a change to them hardly "
        "reaches play"
    )


def ticket_reach(ticket: TicketCompletion, games: int) -> str:
    """How much of a run a ticket reached, in words, saying when a change to it can
    hardly show (`HARDLY`)."""
    if not ticket.offered:
        return f"never dealt in {games} games: a change to it cannot show"
    share = ticket.held / ticket.offered
    text = f"kept {ticket.held} of the {ticket.offered} times offered ({100 * share:.0f} %)"
    if share < HARDLY or ticket.held / max(games, 1) < HARDLY:
        text += ": a change to it hardly reaches play"
    return text


def connection_reach(claimed: int, games: int) -> str:
    """How often a connection was claimed, in words, as `ticket_reach`."""
    share = claimed / games if games else 0.0
    text = f"claimed in {claimed} of {games} games ({100 * share:.0f} %)"
    if share < HARDLY:
        text += ": a change to it hardly reaches play"
    return text
