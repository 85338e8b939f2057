"""The statistics of play-tests, in one place: the interval of a rate, the tests
of a difference, variance clustered by game, and the control of many tests at once.
Findings, `ttr compare` and the ladder use these and nothing else.

- **Intervals.** `wilson_interval`: the 95 % Wilson score interval of a proportion.
  A rate over trials that cluster in games (tickets held by the seats of one game,
  the seats of one bot) is less (or more) informative than as many independent
  trials: `rate_interval` is Wilson's interval over the *effective* number of
  trials, trials / design effect (Kish's design effect; Korn and Graubard's
  adjustment of binomial intervals for clustered samples).
- **Clustered variance.** `ClusterSums` keeps, per game, the sums `x` (trials) and
  `y` (successes, or points) of one number; its `variance` is the linearised
  (sandwich) variance of the ratio Σy / Σx with games as clusters, and
  `design_effect` that variance against the one of independent trials.
  `PairedSums` does the same for the difference of two runs played game by game
  on common seeds (a paired test).
- **Tests.** `proportions_p` (two proportions, pooled, with design effects),
  `normal_p` (a difference over its standard error), `welch_p` (two means, Welch's
  t test), `excess_p` (a one-sided test that a departure exceeds a margin: the
  minimum effect a finding needs).
- **Many tests at once.** `holm` (Holm's step-down adjustment: the chance of one
  false finding among all tests stays at the level, whatever their dependence)
  and `benjamini_hochberg` (the false discovery rate).

>>> [round(x, 3) for x in wilson_interval(8, 10)]
[0.49, 0.943]
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

#: z for a two-sided 95 % interval.
Z95 = 1.959963984540054
#: The level of every test: 5 % (after the multiple-comparison control).
ALPHA = 0.05

_NORMAL = NormalDist()


# ----------------------------------------------------------------- intervals


def wilson_interval(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); `trials` may
    be an effective (not whole) number.

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = min(max(successes / trials, 0.0), 1.0)
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate_interval(rate: float, trials: float, design_effect: float = 1.0) -> tuple[float, float]:
    """The 95 % Wilson interval of `rate` over `trials / design_effect` effective
    trials (trials clustered in games; `design_effect` 1 for independent trials).

    >>> rate_interval(0.5, 100) == wilson_interval(50, 100)
    True
    >>> narrow, wide = rate_interval(0.5, 100, 0.5), rate_interval(0.5, 100, 2.0)
    >>> wide[0] < narrow[0] < 0.5 < narrow[1] < wide[1]
    True
    """
    effective = trials / design_effect if design_effect > 0 else trials
    return wilson_interval(rate * effective, effective)


# ---------------------------------------------------------- clustered sums


class ClusterSums:
    """Per-game sums of one ratio: `add(x, y)` once per game (cluster), with `x`
    the trials (tickets held, seats of a bot, 1 for a game) and `y` what was
    counted over them (completed, won, points). Memory does not grow with games.

    >>> sums = ClusterSums()
    >>> for x, y in [(2, 1), (3, 3), (1, 0), (2, 2)]:
    ...     sums.add(x, y)
    >>> sums.ratio, round(sums.variance(), 5)
    (0.75, 0.03385)
    """

    __slots__ = ("n", "x", "xx", "xy", "y", "yy")

    def __init__(self) -> None:
        self.n = 0
        self.x = self.y = self.xx = self.xy = self.yy = 0.0

    def add(self, x: float, y: float) -> None:
        self.n += 1
        self.x += x
        self.y += y
        self.xx += x * x
        self.xy += x * y
        self.yy += y * y

    @property
    def ratio(self) -> float | None:
        """Σy / Σx, or None without trials."""
        return self.y / self.x if self.x else None

    def residual_squares(self) -> float:
        """Σ (y_i − R x_i)² over the games, R the ratio."""
        r = self.ratio or 0.0
        return max(self.yy - 2 * r * self.xy + r * r * self.xx, 0.0)

    def variance(self) -> float:
        """The linearised variance of the ratio with games as clusters:
        n / (n − 1) · Σ (y_i − R x_i)² / (Σx)². 0 with fewer than two games."""
        if self.n < 2 or not self.x:
            return 0.0
        return self.n / (self.n - 1) * self.residual_squares() / (self.x * self.x)

    def design_effect(self, independent_variance: float | None = None) -> float:
        """The clustered variance over the variance of independent trials: for a
        proportion R(1 − R) / Σx unless given. 1 when either is 0 (nothing to
        compare: every trial succeeded, or failed)."""
        r = self.ratio
        if r is None or self.n < 2:
            return 1.0
        if independent_variance is None:
            independent_variance = r * (1 - r) / self.x
        clustered = self.variance()
        if independent_variance <= 0 or clustered <= 0:
            return 1.0
        return clustered / independent_variance


class PairedSums:
    """Per-game sums of one ratio in two runs played on common seeds (game i of
    run A and game i of run B share their seed): `add(xa, ya, xb, yb)` once per
    game. `difference` is R_A − R_B; its `variance` is that of the mean of the
    paired linearised differences, so what the two runs share (the deal, the
    seats) cancels.

    >>> sums = PairedSums()
    >>> for game in [(1, 1, 1, 1), (1, 0, 1, 0), (1, 1, 1, 0), (1, 1, 1, 1)]:
    ...     sums.add(*game)
    >>> sums.difference, round(sums.variance(), 4)
    (0.25, 0.0625)
    """

    __slots__ = ("_moments", "n")

    #: The order of the per-game values.
    _NAMES = ("xa", "ya", "xb", "yb")

    def __init__(self) -> None:
        self.n = 0
        self._moments = [0.0] * 14  # 4 sums, then the 10 products i <= j

    def add(self, xa: float, ya: float, xb: float, yb: float) -> None:
        values = (xa, ya, xb, yb)
        self.n += 1
        m = self._moments
        for i, v in enumerate(values):
            m[i] += v
        k = 4
        for i in range(4):
            for j in range(i, 4):
                m[k] += values[i] * values[j]
                k += 1

    def pad_to(self, clusters: int) -> None:
        """Count games that added nothing (every value 0) up to `clusters` games."""
        self.n = max(self.n, clusters)

    def _product(self, i: int, j: int) -> float:
        i, j = min(i, j), max(i, j)
        return self._moments[4 + sum(4 - r for r in range(i)) + (j - i)]

    @property
    def ratios(self) -> tuple[float | None, float | None]:
        m = self._moments
        return (m[1] / m[0] if m[0] else None, m[3] / m[2] if m[2] else None)

    @property
    def difference(self) -> float | None:
        a, b = self.ratios
        return None if a is None or b is None else a - b

    def variance(self) -> float:
        """Var(R_A − R_B) from the games' linearised differences
        d_i = (ya_i − R_A xa_i) / x̄_A − (yb_i − R_B xb_i) / x̄_B."""
        a, b = self.ratios
        if self.n < 2 or a is None or b is None:
            return 0.0
        n, m = self.n, self._moments
        mean_xa, mean_xb = m[0] / n, m[2] / n
        # Σ u_a², Σ u_b², Σ u_a u_b with u = y − R x (then scaled by the mean x).
        uu_a = self._product(1, 1) - 2 * a * self._product(0, 1) + a * a * self._product(0, 0)
        uu_b = self._product(3, 3) - 2 * b * self._product(2, 3) + b * b * self._product(2, 2)
        uu_ab = (
            self._product(1, 3)
            - b * self._product(1, 2)
            - a * self._product(0, 3)
            + a * b * self._product(0, 2)
        )
        squares = uu_a / mean_xa**2 + uu_b / mean_xb**2 - 2 * uu_ab / (mean_xa * mean_xb)
        return max(squares, 0.0) / (n * (n - 1))


# --------------------------------------------------------------------- tests


def normal_p(difference: float, standard_error: float) -> float:
    """The two-sided p-value of a difference over its standard error (z test);
    1 without spread unless the difference is not 0."""
    if standard_error <= 0:
        return 1.0 if difference == 0 else 0.0
    return 2 * _NORMAL.cdf(-abs(difference) / standard_error)


def proportions_p(
    x1: float,
    n1: float,
    x2: float,
    n2: float,
    design_effect1: float = 1.0,
    design_effect2: float = 1.0,
) -> float:
    """The two-sided p-value of a difference between two proportions (pooled z
    test), each variance multiplied by its design effect for trials clustered in
    games. 1 without trials on a side or without spread.

    >>> round(proportions_p(30, 100, 10, 100), 5)
    0.00041
    """
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (x1 + x2) / (n1 + n2)
    error = math.sqrt(pooled * (1 - pooled) * (design_effect1 / n1 + design_effect2 / n2))
    if error == 0:
        return 1.0
    return normal_p(x1 / n1 - x2 / n2, error)


def welch_p(mean1: float, sd1: float, n1: int, mean2: float, sd2: float, n2: int) -> float:
    """The two-sided p-value of a difference of two means from their standard
    deviations and counts (Welch's t test); 1 with fewer than two values a side.

    >>> round(welch_p(100, 20, 50, 110, 25, 40), 4)
    0.0432
    """
    if n1 < 2 or n2 < 2:
        return 1.0
    if sd1 == 0 and sd2 == 0:
        return 1.0 if mean1 == mean2 else 0.0
    from scipy.stats import ttest_ind_from_stats

    result = ttest_ind_from_stats(mean1, sd1, n1, mean2, sd2, n2, equal_var=False)
    return float(result.pvalue)


def excess_p(departure: float, margin: float, standard_error: float) -> float:
    """The one-sided p-value of H0 "the true departure is at most `margin`"
    against "it is more", for an estimated `departure` (≥ 0 way) with its standard
    error: a finding needs a departure larger than its minimum effect, not just
    a departure.

    >>> round(excess_p(0.08, 0.05, 0.01), 5)
    0.00135
    >>> excess_p(0.01, 0.05, 0.0)
    1.0
    """
    if standard_error <= 0:
        return 0.0 if departure > margin else 1.0
    return _NORMAL.cdf(-(departure - margin) / standard_error)


# -------------------------------------------------------- many tests at once


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: a test is
    significant at level α when its adjusted p-value is below α, and the chance
    of any false significance among all of them stays at most α.
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    m = len(p_values)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (q-values), in the order given:
    significant at α keeps the expected share of false discoveries at most α
    (scipy's `false_discovery_control`).

    >>> [round(q, 4) for q in benjamini_hochberg([0.01, 0.04, 0.03])]
    [0.03, 0.04, 0.04]
    """
    if not p_values:
        return []
    from scipy.stats import false_discovery_control

    return [float(q) for q in false_discovery_control(list(p_values), method="bh")]
