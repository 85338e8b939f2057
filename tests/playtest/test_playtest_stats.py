"""The statistics of play-tests (ttr_core/playtest/stats.py) against known values:
statsmodels and scipy where they have the test. (Named apart from
tests/maps/analysis/test_stats.py: test modules share one namespace.)"""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.regression.linear_model import OLS
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint, proportions_ztest
from statsmodels.stats.weightstats import ttest_ind

from ttr_core.playtest.stats import (
    ClusterSums,
    PairedSums,
    benjamini_hochberg,
    excess_p,
    holm,
    normal_p,
    proportions_p,
    rate_interval,
    welch_p,
    wilson_interval,
)


@pytest.mark.parametrize(("successes", "trials"), [(0, 10), (8, 10), (50, 100), (313, 1000)])
def test_wilson_interval_is_statsmodels_wilson(successes: int, trials: int) -> None:
    expected = proportion_confint(successes, trials, alpha=0.05, method="wilson")
    assert wilson_interval(successes, trials) == pytest.approx(expected, abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_rate_interval_counts_effective_trials() -> None:
    # Design effect 2: the interval of 300 of 1000 is that of 150 of 500.
    expected = proportion_confint(150, 500, method="wilson")
    assert rate_interval(0.3, 1000, 2.0) == pytest.approx(expected, abs=1e-12)
    assert rate_interval(0.3, 1000) == pytest.approx(wilson_interval(300, 1000))


def _clustered_data(seed: int = 3) -> tuple[list[tuple[int, int]], np.ndarray, np.ndarray]:
    """Games with 1-5 trials each, outcomes correlated within a game."""
    rng = random.Random(seed)
    games, outcomes, groups = [], [], []
    for game in range(300):
        size = rng.randint(1, 5)
        easy = rng.random() < 0.5
        done = [1 if rng.random() < (0.9 if easy else 0.5) else 0 for _ in range(size)]
        games.append((size, sum(done)))
        outcomes += done
        groups += [game] * size
    return games, np.array(outcomes, dtype=float), np.array(groups)


def test_clustered_variance_is_the_cluster_robust_variance_of_statsmodels() -> None:
    games, outcomes, groups = _clustered_data()
    sums = ClusterSums()
    for x, y in games:
        sums.add(x, y)
    assert sums.ratio == pytest.approx(outcomes.mean())
    fit = OLS(outcomes, np.ones_like(outcomes)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    assert sums.variance() == pytest.approx(fit.bse[0] ** 2, rel=1e-9)
    # Correlated within games: the design effect is above 1.
    assert sums.design_effect() > 1.2


def test_design_effect_of_identical_outcomes_in_a_game_is_the_cluster_size() -> None:
    sums = ClusterSums()
    for game in range(100):
        done = 4 if game % 3 == 0 else 0  # each game: all four tickets, or none
        sums.add(4, done)
    assert sums.design_effect() == pytest.approx(4 * 100 / 99)
    lone = ClusterSums()
    for game in range(100):
        lone.add(1, game % 2)
    assert lone.design_effect() == pytest.approx(100 / 99)


def test_paired_sums_give_the_paired_t_test_standard_error() -> None:
    rng = random.Random(5)
    a = [rng.gauss(100, 20) for _ in range(200)]
    b = [x + rng.gauss(2, 5) for x in a]  # strongly paired
    sums = PairedSums()
    for x, y in zip(a, b, strict=True):
        sums.add(1, x, 1, y)
    result = scipy_stats.ttest_rel(a, b)
    difference = np.mean(a) - np.mean(b)
    assert sums.difference == pytest.approx(difference)
    assert sums.variance() ** 0.5 == pytest.approx(difference / result.statistic, rel=1e-9)
    # Unpaired, the same difference is far less certain.
    unpaired = ClusterSums(), ClusterSums()
    for x, y in zip(a, b, strict=True):
        unpaired[0].add(1, x)
        unpaired[1].add(1, y)
    assert unpaired[0].variance() + unpaired[1].variance() > 10 * sums.variance()


def test_paired_sums_of_ratios_linearise_each_run() -> None:
    games, _, _ = _clustered_data(7)
    other, _, _ = _clustered_data(8)
    sums = PairedSums()
    one, two = ClusterSums(), ClusterSums()
    for (xa, ya), (xb, yb) in zip(games, other, strict=True):
        sums.add(xa, ya, xb, yb)
        one.add(xa, ya)
        two.add(xb, yb)
    assert sums.difference == pytest.approx(one.ratio - two.ratio)
    # Independent runs: the paired variance is near the sum of the two (no shared part).
    assert sums.variance() == pytest.approx(one.variance() + two.variance(), rel=0.25)


def test_two_proportions_is_statsmodels_pooled_z_test() -> None:
    _, expected = proportions_ztest([30, 10], [100, 100])
    assert proportions_p(30, 100, 10, 100) == pytest.approx(expected, rel=1e-9)
    assert proportions_p(50, 100, 50, 100) == pytest.approx(1.0)
    assert proportions_p(1, 0, 1, 10) == 1.0  # no trials on one side
    assert proportions_p(0, 10, 0, 10) == 1.0  # no spread
    # A design effect of 2 on both sides is half the trials.
    _, halved = proportions_ztest([15, 5], [50, 50])
    assert proportions_p(30, 100, 10, 100, 2.0, 2.0) == pytest.approx(halved, rel=1e-9)


def test_welch_is_the_unequal_variance_t_test() -> None:
    rng = random.Random(9)
    a = [rng.gauss(100, 20) for _ in range(50)]
    b = [rng.gauss(108, 30) for _ in range(40)]
    _, expected, _ = ttest_ind(a, b, usevar="unequal")
    got = welch_p(np.mean(a), np.std(a, ddof=1), 50, np.mean(b), np.std(b, ddof=1), 40)
    assert got == pytest.approx(expected, rel=1e-9)
    assert welch_p(100, 20, 1, 50, 20, 1000) == 1.0  # one value: no test
    assert welch_p(3, 0, 10, 3, 0, 10) == 1.0 and welch_p(3, 0, 10, 4, 0, 10) == 0.0


def test_normal_and_excess_p_values() -> None:
    assert normal_p(1.959963984540054, 1.0) == pytest.approx(0.05)
    assert normal_p(0, 0) == 1.0 and normal_p(1, 0) == 0.0
    # H0: departure <= 0.05; 0.08 observed with se 0.01 is 3 se above: p = 0.00135.
    assert excess_p(0.08, 0.05, 0.01) == pytest.approx(scipy_stats.norm.sf(3.0))
    assert excess_p(0.05, 0.05, 0.01) == pytest.approx(0.5)


def test_holm_is_statsmodels_holm() -> None:
    rng = random.Random(11)
    p_values = [rng.random() ** 3 for _ in range(40)]
    _, expected, _, _ = multipletests(p_values, alpha=0.05, method="holm")
    assert holm(p_values) == pytest.approx(list(expected), abs=1e-12)
    assert holm([]) == []


def test_benjamini_hochberg_is_statsmodels_fdr_bh() -> None:
    rng = random.Random(12)
    p_values = [rng.random() ** 3 for _ in range(40)]
    _, expected, _, _ = multipletests(p_values, alpha=0.05, method="fdr_bh")
    assert benjamini_hochberg(p_values) == pytest.approx(list(expected), abs=1e-12)


def test_holm_keeps_the_family_wise_error_under_the_level() -> None:
    # 2,000 families of 50 true null hypotheses (uniform p-values): any rejection
    # in a family is a false finding; Holm keeps such families at most 5 %.
    rng = random.Random(13)
    families = [[rng.random() for _ in range(50)] for _ in range(2000)]
    false = sum(1 for family in families if min(holm(family)) < 0.05)
    assert false / len(families) <= 0.06
    raw = sum(1 for family in families if min(family) < 0.05)
    assert raw / len(families) > 0.9  # what one 5 % test per number would claim
