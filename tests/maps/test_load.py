"""Loading a map to play it (ttr_maps.load): errors-only checks, cached per file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from testdata import BAD, HOSTILE

from ttr_maps.checks.problem import Level
from ttr_maps.checks.validate import iter_map_files, validate_file
from ttr_maps.io.bundled import bundled_map_path
from ttr_maps.load import InvalidMapError, load_map

#: A playable map with warnings only (TTR152: both cities are dead ends).
WARNINGS_ONLY = """\
format: 1
id: pair
name: Pair
coordinates: plane
cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}}
routes:
  - {between: [A, B], length: 1, color: red}
tickets:
  - {between: [A, B], value: 1}
"""


def test_an_unchanged_file_gives_the_same_map_object(tmp_path: Path) -> None:
    path = tmp_path / "pair.yaml"
    path.write_text(WARNINGS_ONLY, encoding="utf-8")
    first = load_map(path)
    assert load_map(path) is first
    assert load_map(str(path)) is first  # the same file, however it is named
    assert load_map("north_america") is load_map(bundled_map_path("north_america"))


def test_a_changed_file_gives_a_new_map(tmp_path: Path) -> None:
    path = tmp_path / "pair.yaml"
    path.write_text(WARNINGS_ONLY, encoding="utf-8")
    first = load_map(path)
    # The same size, written at once: the modification time may not move on a
    # coarse clock, the bytes do.
    path.write_text(WARNINGS_ONLY.replace("name: Pair", "name: Pear"), encoding="utf-8")
    second = load_map(path)
    assert second is not first and second.name == "Pear"
    path.write_text(WARNINGS_ONLY.replace("name: Pair", "name: Longer pair"), encoding="utf-8")
    assert load_map(path).name == "Longer pair"


def test_errors_are_raised_on_every_load_and_never_kept(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(WARNINGS_ONLY.replace("value: 1", "value: 3"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(InvalidMapError, match="TTR304"):
            load_map(path)
    path.write_text(WARNINGS_ONLY, encoding="utf-8")
    assert load_map(path).id == "pair"


def test_a_file_removed_after_loading_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "pair.yaml"
    path.write_text(WARNINGS_ONLY, encoding="utf-8")
    load_map(path)
    os.unlink(path)
    with pytest.raises(InvalidMapError, match="TTR000"):
        load_map(path)


def test_loading_looks_for_no_warnings(tmp_path: Path) -> None:
    path = tmp_path / "pair.yaml"
    path.write_text(WARNINGS_ONLY, encoding="utf-8")
    assert validate_file(path).warnings  # `ttr validate` still finds them
    assert validate_file(path, errors_only=True).problems == []
    with pytest.raises(InvalidMapError) as caught:
        load_map(BAD / "ttr304_ticket_value.yaml")
    assert {p.level for p in caught.value.report.problems} == {Level.ERROR}


@pytest.mark.parametrize(
    "path", sorted(iter_map_files([BAD, HOSTILE])), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_errors_only_finds_exactly_the_errors_of_full_validation(path: Path) -> None:
    """No error comes from a warning's check: a map loads exactly when it has no
    errors, with the same messages as `ttr validate` gives."""
    full, errors_only = validate_file(path), validate_file(path, errors_only=True)
    assert errors_only.problems == full.errors
    assert (errors_only.map is None) == (full.map is None)
