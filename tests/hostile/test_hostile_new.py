"""Hostile input, round four (issue 40): `ttr new --cities` and `--region`. Any
names (scripts, marks that hide, control characters, YAML's own signs, 100,000
characters, 20,000 cities, positions past the poles) either make a starter that
validates (exit 0) or are refused with a short message (exit 2): never a
traceback, never a message quoting a whole huge name, never a file that does not
validate."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app

runner = CliRunner()

#: --cities values, by kind.
CITIES = {
    "accents": "Zürich, Genève, Bern",
    "combining-mark": "Zu\u0308rich, Bern, Basel",
    "fullwidth": "Ｏｓｌｏ, Bergen, Trondheim",
    "any-case": "OSLO, bergen, TrOnDhEiM",
    "cyrillic": "Москва, Санкт-Петербург, Казань",
    "cjk": "東京, 大阪, 名古屋",
    "right-to-left": "القاهرة, الإسكندرية, أسوان",
    "rtl-mark": "\u200fOslo, Bergen, Trondheim",
    "bidi-override": "\u202eolsO, Bergen, Trondheim",
    "zero-width-joiner": "Os\u200dlo, Bergen, Trondheim",
    "emoji": "🏙️, Oslo, Bergen",
    "nul": "Oslo\x00, Bergen, Trondheim",
    "terminal-escape": "\x1b[31mOslo, Bergen, Trondheim",
    "newline": "Oslo\nBergen, Trondheim, Tromsø",
    "lone-surrogate": "Os\udcfflo, Bergen, Trondheim",
    "yaml-words": "yes, null, ~",
    "yaml-signs": "&a, *a, !tag",
    "yaml-colon-hash-dash": "a: b, # c, - d",
    "quotes": "'Oslo', \"Bergen\", `Trondheim`",
    "name-of-100000": "O" * 100_000 + ", Bergen, Trondheim",
    "20000-cities": ", ".join(["Oslo"] * 20_000),
    "nothing": "",
    "only-commas": ",,,,",
    "semicolons": "Oslo; Bergen; Trondheim",
    "one-city": "Oslo",
    "twice-the-same": "Oslo, Oslo, Bergen",
    "unbalanced-bracket": "Bergen (NO, Oslo, Trondheim",
    "brackets-twice": "Oslo (NO) (NO), Bergen, Trondheim",
    "country-unknown": "Bergen (ZZ), Oslo, Trondheim",
    "country-of-5000": "Bergen (" + "N" * 5000 + "), Oslo",
    "position-past-the-pole": "Springfield (999, 999), Oslo, Bergen",
    "position-nan": "X (nan, nan), Oslo, Bergen",
    "position-overflow": "X (1e400, 0), Oslo, Bergen",
    "position-of-5000-digits": "X (1" + "0" * 5000 + ", 0), Oslo, Bergen",
    "three-numbers": "X (39.8, -89.6, 3), Oslo, Bergen",
    "positions-only": "(10, 10), (20, 20), (30, 30)",
    "named-positions": "A (10, 10), B (10, 11), C (11, 10)",
    "one-place-twice": "A (10, 10), B (10, 10), C (10, 10)",
    "poles": "N (90, 0), S (-90, 0), E (0, 180)",
    "across-the-date-line": "A (0, 179.9), B (0, -179.9), C (1, 180)",
}
REGIONS = {
    "region-empty": "",
    "region-unknown": "XX",
    "region-lower-case": "no",
    "region-a-number": "578",
    "region-curly-apostrophe": "Côte d’Ivoire",
    "region-of-10000": "N" * 10_000,
    "region-nul": "N\x00O",
}
QUICK = {"right-to-left", "name-of-100000", "20000-cities", "position-of-5000-digits"}


def _new(tmp_path: Path, *args: str) -> None:
    out = tmp_path / "starter.yaml"
    result = runner.invoke(app, ["new", "starter", "-o", str(out), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 2), result.output[-500:]
    assert len(result.output) < 2_000, len(result.output)  # no huge name quoted whole
    if result.exit_code == 0:
        assert runner.invoke(app, ["validate", str(out)]).exit_code == 0
    else:
        assert result.output.startswith("error:") and not out.exists()


def _arguments(case: str) -> list[str]:
    if case in REGIONS:
        return ["--cities", "Oslo, Bergen, Trondheim", "--region", REGIONS[case]]
    return ["--cities", CITIES[case]]


@pytest.mark.parametrize("case", sorted(QUICK))
def test_new_with_hostile_cities_of_each_kind(tmp_path, case):
    _new(tmp_path, *_arguments(case))


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted((set(CITIES) | set(REGIONS)) - QUICK))
def test_new_with_every_hostile_city_list(tmp_path, case):
    _new(tmp_path, *_arguments(case))
