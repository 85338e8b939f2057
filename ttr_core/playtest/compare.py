"""`ttr compare`: two balance reports side by side, with the differences that
are significant — how a designer checks that a change helped.

Rates (wins by seat and by bot, stalls, ticket completion by bot, route claims)
are compared with a two-proportion z test; mean scores with Welch's test from each
report's mean, standard deviation and count (`ttr_core.playtest.stats`). A
difference is significant when its p-value is below 0.05 divided by the number of
rates compared in its group (Bonferroni), so screening a hundred routes does not
invent differences. `REPORTERS` turn the comparison into text, JSON or a page.

>>> from ttr_core.playtest.simulate import simulate
>>> from ttr_maps import load_map
>>> a = simulate(load_map("iran"), "iran", 4, 2, ["greedy", "random"], 1).report
>>> comparison = compare_reports(a, a)
>>> comparison.significant, [row.group for row in comparison.rows][:3]
((), ['win rate by seat', 'win rate by seat', 'win rate by bot'])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ttr_core.playtest.report import BalanceReport, Settings
from ttr_core.playtest.stats import two_proportion_p, welch_p
from ttr_maps.reports.page import html_page
from ttr_maps.text import for_html, for_terminal

ALPHA = 0.05

#: How the rows are tested (written into every comparison).
TEST = (
    "two-proportion z test for rates, Welch (normal) for mean scores; "
    f"significant when p < {ALPHA} / rows in the group (Bonferroni)"
)

#: The settings that make seat and bot numbers not like for like when they differ.
LIKE_FOR_LIKE = ("players", "bots", "games")


@dataclass(frozen=True)
class Row:
    """One compared number: its value in A and in B (None without games), the
    p-value of the difference, and whether it is significant in its group."""

    group: str
    what: str
    a: float | None
    b: float | None
    p_value: float
    significant: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "what": self.what,
            "a": self.a,
            "b": self.b,
            "p_value": self.p_value,
            "significant": self.significant,
        }


@dataclass(frozen=True)
class Comparison:
    a: Settings
    b: Settings
    #: Of LIKE_FOR_LIKE, those that differ.
    settings_differ: tuple[str, ...]
    rows: tuple[Row, ...]

    @property
    def significant(self) -> tuple[Row, ...]:
        return tuple(r for r in self.rows if r.significant)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "ttr-comparison",
            "version": 1,
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "settings_differ": list(self.settings_differ),
            "test": TEST,
            "significant": [r.to_dict() for r in self.significant],
            "rows": [r.to_dict() for r in self.rows],
        }


def _rate_rows(
    group: str, a: Mapping[str, tuple[float, int]], b: Mapping[str, tuple[float, int]]
) -> list[Row]:
    keys = [k for k in a if k in b]
    rows = []
    for key in keys:
        (x1, n1), (x2, n2) = a[key], b[key]
        p = two_proportion_p(x1, n1, x2, n2)
        rows.append(
            Row(
                group,
                key,
                round(x1 / n1, 4) if n1 else None,
                round(x2 / n2, 4) if n2 else None,
                round(p, 6),
                p < ALPHA / max(len(keys), 1),
            )
        )
    return rows


def compare_reports(a: BalanceReport, b: BalanceReport) -> Comparison:
    """Every compared number of two reports, each row with both values, a p-value
    and whether the difference is significant."""
    rows: list[Row] = []
    rows += _rate_rows(
        "win rate by seat",
        {str(s): (r.wins, r.games) for s, r in enumerate(a.win_rate.by_seat)},
        {str(s): (r.wins, r.games) for s, r in enumerate(b.win_rate.by_seat)},
    )
    rows += _rate_rows(
        "win rate by bot",
        {k: (r.wins, r.games) for k, r in a.win_rate.by_bot.items()},
        {k: (r.wins, r.games) for k, r in b.win_rate.by_bot.items()},
    )
    rows += _rate_rows(
        "stalls",
        {"stalled games": (a.stalls.count, a.games)},
        {"stalled games": (b.stalls.count, b.games)},
    )
    rows += _rate_rows(
        "ticket completion by bot",
        {k: (t.completed, t.held) for k, t in a.tickets.by_bot.items()},
        {k: (t.completed, t.held) for k, t in b.tickets.by_bot.items()},
    )
    rows += _rate_rows(
        "route claimed in games",
        {r.route: (r.claimed, a.games) for r in a.routes},
        {r.route: (r.claimed, b.games) for r in b.routes},
    )
    seats = range(min(len(a.scores.by_seat), len(b.scores.by_seat)))
    for seat in seats:
        one, other = a.scores.by_seat[seat].total, b.scores.by_seat[seat].total
        p = welch_p(
            one.mean or 0, one.sd or 0, one.count, other.mean or 0, other.sd or 0, other.count
        )
        rows.append(
            Row(
                "mean score by seat",
                str(seat),
                one.mean,
                other.mean,
                round(p, 6),
                p < ALPHA / len(seats),
            )
        )
    differ = tuple(
        key for key in LIKE_FOR_LIKE if getattr(a.settings, key) != getattr(b.settings, key)
    )
    return Comparison(a.settings, b.settings, differ, tuple(rows))


def _value(value: float | None) -> str:
    return "–" if value is None else f"{value}"


def to_text(comparison: Comparison) -> str:
    """The significant differences, one line each (then how many rows were compared)."""
    lines = [f"A: {for_terminal(comparison.a.map)}   B: {for_terminal(comparison.b.map)}"]
    if comparison.settings_differ:
        lines.append(
            "note: the runs differ in "
            + ", ".join(comparison.settings_differ)
            + ": seat and bot numbers are not like for like"
        )
    significant = comparison.significant
    if not significant:
        lines.append("no significant difference")
    for row in significant:
        lines.append(
            f"{row.group}: {for_terminal(row.what)}: A {_value(row.a)}  "
            f"B {_value(row.b)}  "
            f"(p = {row.p_value:.2g})"
        )
    lines.append(f"{len(comparison.rows)} numbers compared; {TEST}")
    return "\n".join(lines) + "\n"


def to_json(comparison: Comparison) -> str:
    return json.dumps(comparison.to_dict(), indent=1, ensure_ascii=False) + "\n"


STYLE = (
    "body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:"
    "collapse}td,th{border:1px solid #ccc;padding:2px 8px}tr.sig{background:#fde}"
)


def _table(rows: Sequence[Row]) -> str:
    head = "<tr><th>group</th><th>what</th><th>A</th><th>B</th><th>p</th></tr>"
    body = "".join(
        f'<tr class="{"sig" if r.significant else ""}"><td>{for_html(r.group)}'
        f"</td><td>{for_html(r.what)}</td><td>{_value(r.a)}</td>"
        f"<td>{_value(r.b)}</td><td>{r.p_value:.2g}</td></tr>"
        for r in rows
    )
    return f"<table>{head}{body}</table>"


def to_html(comparison: Comparison) -> str:
    """One page: the significant differences first, then every compared number."""
    a, b = comparison.a.map_name, comparison.b.map_name
    note = (
        "<p><b>Note:</b> the runs differ in "
        + for_html(", ".join(comparison.settings_differ))
        + ": seat and bot numbers are not like for like.</p>"
        if comparison.settings_differ
        else ""
    )
    significant = comparison.significant
    body = (
        f"<h1>A: {for_html(a)} — B: {for_html(b)}</h1><p>{for_html(TEST)}</p>"
        + note
        + "<h2>Significant differences</h2>"
        + (_table(significant) if significant else "<p>None.</p>")
        + "<h2>Everything compared</h2>"
        + _table(comparison.rows)
    )
    return html_page(f"Comparison: {a} / {b}", body, STYLE)


#: The comparison's reporters, by the name `--format` takes.
REPORTERS: dict[str, Callable[[Comparison], str]] = {
    "text": to_text,
    "json": to_json,
    "html": to_html,
}
