"""The reader's limits and refusals (`ttr_maps.io.document`, `ttr_maps.io.limits`): codes
the reader reports, registered so reports, `--list-checks` and SARIF know them."""

from __future__ import annotations

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import rule
from ttr_maps.io import limits
from ttr_maps.io.document import (
    BAD_NUMBER,
    FILE_TOO_LARGE,
    MERGE_KEY_REFUSED,
    TAG_REFUSED,
    TOO_DEEP,
    TOO_MANY_ALIAS_VALUES,
    TOO_MANY_ENTRIES,
)

rule(
    FILE_TOO_LARGE,
    Level.ERROR,
    "the file is larger than the reader reads",
    f"""A map file may hold at most {limits.MAX_MAP_BYTES:,} bytes; a larger one is
    not read at all.

    Failing: a file of {limits.MAX_MAP_BYTES + 1:,} bytes.

    Passing: the largest map allowed ({limits.MAX_CITIES:,} cities) in a few megabytes.
    """,
    stage="reader",
)

rule(
    TOO_DEEP,
    Level.ERROR,
    "lists and mappings are nested too deep",
    f"""A map nests lists and mappings at most {limits.MAX_DEPTH} deep (a real map
    needs 4).

    Failing:

        cities: [[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]

    Passing:

        cities: {{Denver: {{lat: 39.7, lon: -105.0}}}}
    """,
    stage="reader",
)

rule(
    TOO_MANY_ALIAS_VALUES,
    Level.ERROR,
    "aliases repeat too many values",
    f"""Aliases (`*name`) may repeat at most {limits.MAX_ALIAS_VALUES:,} values in
    all: enough to share a colour list or a block of settings, not enough for a
    file of a few lines to expand into billions of values. An alias may not refer
    to a value that contains it.

    Failing:

        a: &a [x, x, x, x, x, x, x, x, x, x]
        b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
        c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
        d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]

    Passing:

        colors: &gray [gray]
    """,
    stage="reader",
)

rule(
    TAG_REFUSED,
    Level.ERROR,
    "a YAML tag the map format does not use",
    """Maps hold plain values: lists, mappings, text, numbers, true/false, null. A
    tag on a list or mapping (`!city {...}`, `!!python/object/...`) or an unknown
    tag on a value is refused rather than ignored.

    Failing:

        cities: !city {Denver: {lat: 39.7, lon: -105.0}}

    Passing:

        cities: {Denver: {lat: 39.7, lon: -105.0}}
    """,
    stage="reader",
)

rule(
    MERGE_KEY_REFUSED,
    Level.ERROR,
    "a YAML merge key (<<)",
    """Merge keys (`<<: *name`) are not part of YAML 1.2 and readers disagree on
    them; write the keys out.

    Failing:

        defaults: &d {length: 2}
        route: {<<: *d, color: red}

    Passing:

        route: {length: 2, color: red}
    """,
    stage="reader",
)

rule(
    BAD_NUMBER,
    Level.ERROR,
    "a number written with too many digits",
    f"""Numbers are written in at most {limits.MAX_NUMBER_CHARS} characters (a
    map's numbers are small; a 5,000-digit one only costs time to read).

    Failing:

        settings: {{wagons: 4500000000000000000000000000000000000000000}}

    Passing:

        settings: {{wagons: 45}}
    """,
    stage="reader",
)

rule(
    TOO_MANY_ENTRIES,
    Level.ERROR,
    "too many cities, routes or tickets",
    f"""A map has at most {limits.MAX_CITIES:,} cities, {limits.MAX_ROUTES:,} routes
    and {limits.MAX_TICKETS:,} tickets: the sizes at which every command still
    finishes in seconds (see benchmarks/hostile_bench.py).

    Failing: a map with {limits.MAX_CITIES + 1:,} cities.

    Passing: a map with {limits.MAX_CITIES:,} cities.
    """,
    stage="reader",
)
