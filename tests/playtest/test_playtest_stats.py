"""The statistics of play-tests (ttr_core/playtest/stats.py): intervals, tests, multiple
comparisons. (Named apart from tests/maps/analysis/test_stats.py: test modules share one
namespace.)"""

from __future__ import annotations

import pytest

from ttr_core.playtest.stats import (
    Z95,
    bonferroni_z,
    two_proportion_p,
    welch_p,
    wilson_interval,
)


def test_wilson_interval() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0 and 0.27 < high < 0.28
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(1 - high)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bonferroni_widens_the_interval_with_the_numbers_screened() -> None:
    assert bonferroni_z(1) == pytest.approx(Z95)
    assert bonferroni_z(0) == bonferroni_z(1)
    assert Z95 < bonferroni_z(10) < bonferroni_z(100)
    narrow, wide = wilson_interval(30, 100), wilson_interval(30, 100, bonferroni_z(40))
    assert wide[0] < narrow[0] < narrow[1] < wide[1]


def test_two_proportions() -> None:
    assert two_proportion_p(50, 100, 50, 100) == pytest.approx(1.0)
    assert two_proportion_p(60, 100, 40, 100) < 0.01
    assert two_proportion_p(1, 0, 1, 10) == 1.0  # no games on one side
    assert two_proportion_p(0, 10, 0, 10) == 1.0  # no spread


def test_welch() -> None:
    assert welch_p(100, 20, 1000, 100, 20, 1000) == pytest.approx(1.0)
    assert welch_p(100, 20, 1000, 104, 20, 1000) < 0.001
    assert welch_p(100, 20, 1, 50, 20, 1000) == 1.0  # one value: no test
    assert welch_p(3, 0, 10, 3, 0, 10) == 1.0 and welch_p(3, 0, 10, 4, 0, 10) == 0.0
