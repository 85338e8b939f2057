"""File-level codes: reading, YAML syntax, the schema, repeated keys, disable comments."""

from __future__ import annotations

from collections.abc import Iterator

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import REGISTRY, Finding, check, rule
from ttr_maps.checks.suppress import iter_disabled_codes
from ttr_maps.io.document import MapDocument

rule(
    "TTR000",
    Level.ERROR,
    "the file cannot be read",
    """The path does not exist, is a folder with no map files, or is not UTF-8 text.

    `ttr validate` exits with 2 when a path cannot be read, after checking all others.
    """,
    stage="reader",
)

rule(
    "TTR001",
    Level.ERROR,
    "YAML syntax error",
    """The file is not valid YAML.

    Failing:

        cities: {Denver: {lat: 39.7, lon: -105.0}

    Passing:

        cities: {Denver: {lat: 39.7, lon: -105.0}}
    """,
    stage="reader",
)

rule(
    "TTR002",
    Level.ERROR,
    "the map does not follow the schema",
    """A structural error found by `schemas/map.schema.json`: a missing or unknown
    field, a value of the wrong type. Errors with a code of their own (TTR103,
    TTR203, TTR204) are reported under that code instead.

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: pink}

    Passing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: pink}
    """,
)


@check("TTR003", Level.ERROR, "a mapping key is written twice", stage="document")
def duplicate_key(document: MapDocument) -> Iterator[Finding]:
    """A key appears twice in one mapping (other than a city name, TTR101). The
    first one is used, so the second is silently lost.

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: pink, length: 5}

    Passing:

        routes:
          - {between: [Denver, Omaha], length: 4, color: pink}
    """
    for path, position in document.duplicate_keys:
        if path[:-1] == ("cities",):
            continue
        where = "/".join(str(p) for p in path)
        yield Finding(
            f"key {path[-1]!r} is written twice ({where}); the first one is used",
            position=position,
        )


@check(
    "TTR051", Level.WARNING, "a disable comment names a code it cannot silence", stage="document"
)
def useless_disable_code(document: MapDocument) -> Iterator[Finding]:
    """A `# ttr: disable=` comment names a code that no check has (a typo), or an
    error, which can never be silenced: either way the comment does nothing.

    Failing:

        # ttr: disable=TTR225

    Passing:

        # ttr: disable=TTR252
    """
    for code, position in iter_disabled_codes(document.text):
        entry = REGISTRY.get(code)
        if entry is None:
            message = f"disable={code}: no check has this code, so it silences nothing"
        elif entry.level is Level.ERROR:
            message = f"disable={code}: {code} is an error, and only warnings can be silenced"
        else:
            continue
        yield Finding(message, position=position)
