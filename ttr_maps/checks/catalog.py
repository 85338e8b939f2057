"""Every check, loaded: importing the area modules registers their checks in
`ttr_maps.checks.registry.REGISTRY`. The validator and the reporters read the
checks from here; the registry itself imports no area module.
"""

from __future__ import annotations

from ttr_maps.checks import (  # noqa: F401  importing registers the checks
    cities,
    design,
    layout,
    reader_limits,
    routes,
    structure,
    tickets,
    topology,
)
from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import REGISTRY, Check, Stage


def all_checks() -> list[Check]:
    """Every registered code, sorted."""
    return [REGISTRY[code] for code in sorted(REGISTRY)]


def checks_at(stage: Stage, *, errors_only: bool = False) -> list[Check]:
    """The runnable checks of one stage, by code; with `errors_only`, only those
    whose level is error (the ones that decide whether a map can be played)."""
    return [
        c
        for c in all_checks()
        if c.stage == stage
        and c.function is not None
        and not (errors_only and c.level is not Level.ERROR)
    ]
