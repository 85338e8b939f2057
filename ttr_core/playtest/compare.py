"""`ttr compare`: two simulation reports side by side, with the differences that
are significant — how a designer checks that a change helped.

Rates (wins by seat and by bot, stalls, ticket completion by bot, route claims)
are compared with a two-proportion z test; mean scores with Welch's test from each
report's mean, standard deviation and count. A difference is significant when its
p-value is below 0.05 divided by the number of rates compared in its group
(Bonferroni), so screening a hundred routes does not invent differences.

>>> a = {"games": 1000, "settings": {"map": "a"}, "stalls": {"count": 300}}
>>> b = {"games": 1000, "settings": {"map": "b"}, "stalls": {"count": 10}}
>>> [(r["what"], r["significant"]) for r in compare_reports(a, b)["rows"]]
[('stalled games', True)]
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from statistics import NormalDist
from typing import Any

from ttr_maps.text import for_html, for_terminal

ALPHA = 0.05


def _two_proportions(x1: float, n1: int, x2: float, n2: int) -> float:
    """The two-sided p-value of a difference between two proportions."""
    if not n1 or not n2:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    error = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if error == 0:
        return 1.0
    z = (x1 / n1 - x2 / n2) / error
    return 2 * (1 - NormalDist().cdf(abs(z)))


def _welch(a: Mapping[str, Any], b: Mapping[str, Any]) -> float:
    """Two-sided p-value of a difference of means (normal approximation)."""
    n1, n2 = a.get("count", 0), b.get("count", 0)
    if n1 < 2 or n2 < 2:
        return 1.0
    error = math.sqrt(a["sd"] ** 2 / n1 + b["sd"] ** 2 / n2)
    if error == 0:
        return 1.0 if a["mean"] == b["mean"] else 0.0
    return 2 * (1 - NormalDist().cdf(abs(a["mean"] - b["mean"]) / error))


def _rate_rows(
    group: str, a: Mapping[str, tuple[float, int]], b: Mapping[str, tuple[float, int]]
) -> list[dict[str, Any]]:
    keys = [k for k in a if k in b]
    rows = []
    for key in keys:
        (x1, n1), (x2, n2) = a[key], b[key]
        p = _two_proportions(x1, n1, x2, n2)
        rows.append(
            {
                "group": group,
                "what": key,
                "a": round(x1 / n1, 4) if n1 else None,
                "b": round(x2 / n2, 4) if n2 else None,
                "p_value": round(p, 6),
                "significant": p < ALPHA / max(len(keys), 1),
            }
        )
    return rows


def compare_reports(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    """Every compared number of two reports, each row with both values, a p-value
    and whether the difference is significant; `significant` lists those rows."""
    rows: list[dict[str, Any]] = []
    wins_a, wins_b = a.get("win_rate", {}), b.get("win_rate", {})
    for group in ("by_seat", "by_bot"):
        rows += _rate_rows(
            f"win rate {group.replace('_', ' ')}",
            {k: (v["wins"], v["games"]) for k, v in wins_a.get(group, {}).items()},
            {k: (v["wins"], v["games"]) for k, v in wins_b.get(group, {}).items()},
        )
    if "stalls" in a and "stalls" in b:
        rows += _rate_rows(
            "stalls",
            {"stalled games": (a["stalls"]["count"], a["games"])},
            {"stalled games": (b["stalls"]["count"], b["games"])},
        )
    tickets_a = a.get("tickets", {}).get("by_bot", {})
    tickets_b = b.get("tickets", {}).get("by_bot", {})
    rows += _rate_rows(
        "ticket completion by bot",
        {k: (v["completed"], v["held"]) for k, v in tickets_a.items()},
        {k: (v["completed"], v["held"]) for k, v in tickets_b.items()},
    )
    rows += _rate_rows(
        "route claimed in games",
        {r["route"]: (r["claimed"], a["games"]) for r in a.get("routes", [])},
        {r["route"]: (r["claimed"], b["games"]) for r in b.get("routes", [])},
    )
    scores_a = a.get("scores", {}).get("by_seat", {})
    scores_b = b.get("scores", {}).get("by_seat", {})
    keys = [k for k in scores_a if k in scores_b]
    for key in keys:
        p = _welch(scores_a[key], scores_b[key])
        rows.append(
            {
                "group": "mean score by seat",
                "what": key,
                "a": scores_a[key].get("mean"),
                "b": scores_b[key].get("mean"),
                "p_value": round(p, 6),
                "significant": p < ALPHA / len(keys),
            }
        )
    settings_a, settings_b = a.get("settings", {}), b.get("settings", {})
    differ = [
        key for key in ("players", "bots", "games") if settings_a.get(key) != settings_b.get(key)
    ]
    return {
        "format": "ttr-comparison",
        "version": 1,
        "a": dict(settings_a),
        "b": dict(settings_b),
        "settings_differ": differ,
        "test": "two-proportion z test for rates, Welch (normal) for mean scores; "
        f"significant when p < {ALPHA} / rows in the group (Bonferroni)",
        "significant": [r for r in rows if r["significant"]],
        "rows": rows,
    }


def _value(value: Any) -> str:
    return "–" if value is None else f"{value}"


def to_text(comparison: Mapping[str, Any]) -> str:
    """The significant differences, one line each (then how many rows were compared)."""
    a = comparison["a"].get("map", "A")
    b = comparison["b"].get("map", "B")
    lines = [f"A: {for_terminal(str(a))}   B: {for_terminal(str(b))}"]
    if comparison["settings_differ"]:
        lines.append(
            "note: the runs differ in "
            + ", ".join(comparison["settings_differ"])
            + ": seat and bot numbers are not like for like"
        )
    significant = comparison["significant"]
    if not significant:
        lines.append("no significant difference")
    for row in significant:
        lines.append(
            f"{row['group']}: {for_terminal(str(row['what']))}: A {_value(row['a'])}  "
            f"B {_value(row['b'])}  "
            f"(p = {row['p_value']:.2g})"
        )
    lines.append(f"{len(comparison['rows'])} numbers compared; {comparison['test']}")
    return "\n".join(lines) + "\n"


def to_json(comparison: Mapping[str, Any]) -> str:
    return json.dumps(comparison, indent=1, ensure_ascii=False) + "\n"


def to_html(comparison: Mapping[str, Any]) -> str:
    """One page: the significant differences first, then every compared number."""

    def table(rows: list[Mapping[str, Any]]) -> str:
        head = "<tr><th>group</th><th>what</th><th>A</th><th>B</th><th>p</th></tr>"
        body = "".join(
            f'<tr class="{"sig" if r["significant"] else ""}"><td>{for_html(r["group"])}'
            f"</td><td>{for_html(str(r['what']))}</td><td>{_value(r['a'])}</td>"
            f"<td>{_value(r['b'])}</td><td>{r['p_value']:.2g}</td></tr>"
            for r in rows
        )
        return f"<table>{head}{body}</table>"

    a = for_html(str(comparison["a"].get("map_name", comparison["a"].get("map", "A"))))
    b = for_html(str(comparison["b"].get("map_name", comparison["b"].get("map", "B"))))
    style = (
        "body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:"
        "collapse}td,th{border:1px solid #ccc;padding:2px 8px}tr.sig{background:#fde}"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Comparison: {a} / {b}</title><style>{style}</style></head><body>"
        f"<h1>A: {a} — B: {b}</h1><p>{for_html(comparison['test'])}</p>"
        + (
            "<p><b>Note:</b> the runs differ in "
            + for_html(", ".join(comparison["settings_differ"]))
            + ": seat and bot numbers are not like for like.</p>"
            if comparison["settings_differ"]
            else ""
        )
        + "<h2>Significant differences</h2>"
        + (table(comparison["significant"]) if comparison["significant"] else "<p>None.</p>")
        + "<h2>Everything compared</h2>"
        + table(comparison["rows"])
        + "</body></html>\n"
    )


FORMATS = {"text": to_text, "json": to_json, "html": to_html}
