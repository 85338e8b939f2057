"""The statistics of play-tests, in one place: the interval of a rate, the tests
of a difference, and the correction for screening many numbers at once.

- `wilson_interval`: the 95 % Wilson score interval of a proportion, the one
  interval every rate of a report carries (`ci95`);
- `bonferroni_z`: the z of a two-sided 95 % interval widened for `tests` numbers
  screened at once, so among many seats, routes or tickets the chance of one false
  finding stays near 5 % (findings);
- `two_proportion_p` and `welch_p`: the two-sided p-values of a difference between
  two rates and between two means (compare).

>>> [round(x, 3) for x in wilson_interval(8, 10)]
[0.49, 0.943]
>>> round(bonferroni_z(1), 2), round(bonferroni_z(40), 2)
(1.96, 3.23)
"""

from __future__ import annotations

import math
from statistics import NormalDist

#: z for a 95 % confidence interval.
Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def bonferroni_z(tests: int) -> float:
    """The z of a two-sided 95 % interval when `tests` numbers are screened at once
    (Bonferroni: each at 5 % / tests)."""
    return NormalDist().inv_cdf(1 - 0.025 / max(tests, 1))


def two_proportion_p(x1: float, n1: int, x2: float, n2: int) -> float:
    """The two-sided p-value of a difference between two proportions (pooled z test).

    >>> round(two_proportion_p(30, 100, 10, 100), 5)
    0.00041
    """
    if not n1 or not n2:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    error = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if error == 0:
        return 1.0
    z = (x1 / n1 - x2 / n2) / error
    return 2 * (1 - NormalDist().cdf(abs(z)))


def welch_p(mean1: float, sd1: float, n1: int, mean2: float, sd2: float, n2: int) -> float:
    """The two-sided p-value of a difference of two means from their standard
    deviations and counts (Welch, normal approximation); 1 with fewer than two values."""
    if n1 < 2 or n2 < 2:
        return 1.0
    error = math.sqrt(sd1**2 / n1 + sd2**2 / n2)
    if error == 0:
        return 1.0 if mean1 == mean2 else 0.0
    return 2 * (1 - NormalDist().cdf(abs(mean1 - mean2) / error))
