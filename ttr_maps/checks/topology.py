"""Checks on the map as a whole network."""

from __future__ import annotations

from collections.abc import Iterator

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import CheckContext, Finding, check
from ttr_maps.graph import connected_city_groups

#: Cities named per group in the TTR401 message.
NAMED_CITIES = 4


@check("TTR401", Level.ERROR, "the map is split into groups that no route joins")
def disconnected_map(ctx: CheckContext) -> Iterator[Finding]:
    """Every city can be reached from every other. Cities without any route are
    left to TTR102; this check reports the groups that remain.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 5, y: 0}, D: {x: 6, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
          - {between: [C, D], length: 1, color: red}

    Passing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 5, y: 0}, D: {x: 6, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
          - {between: [B, C], length: 4, color: blue}
          - {between: [C, D], length: 1, color: red}
    """
    groups = [g for g in connected_city_groups(ctx.map, ctx.adjacency) if len(g) > 1]
    if len(groups) < 2:
        return
    described = "; ".join(_describe(group) for group in groups)
    second = min(groups[1], key=lambda name: ctx.map.city_index[name])
    yield Finding(
        f"the map is split into {len(groups)} groups that no route joins: {described}",
        ("cities", second),
        on_key=True,
    )


def _describe(group: list[str]) -> str:
    names = ", ".join(group[:NAMED_CITIES])
    more = f" and {len(group) - NAMED_CITIES} more" if len(group) > NAMED_CITIES else ""
    return f"{{{names}{more}}} ({len(group)} cities)"
