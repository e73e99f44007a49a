"""Paired comparisons and sample sizes (issue 16.13, 16.14): McNemar's exact test and
Newcombe's paired interval against exact sums, an independent computation and published
worked examples; the sample-size formula against the width it promises."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from pyramid_widget.lab.stats_ci import (
    mcnemar_exact,
    normal_band,
    paired_difference_ci,
    sample_size,
    wilson,
    z_value,
)


def _binomial_two_sided(b: int, c: int) -> Fraction:
    """2 P(X <= min(b, c)) for X ~ Binomial(b + c, 1/2), term by term in fractions."""
    n = b + c
    term, total = Fraction(1, 2**n), Fraction(0)
    for k in range(min(b, c) + 1):
        total += term
        term = term * (n - k) / (k + 1)  # C(n, k+1) = C(n, k) (n - k) / (k + 1)
    return min(Fraction(1), 2 * total)


@pytest.mark.parametrize("b", range(0, 25, 3))
@pytest.mark.parametrize("c", range(0, 25, 4))
def test_mcnemar_is_the_exact_binomial_tail(b: int, c: int) -> None:
    expected = 1.0 if b + c == 0 else float(_binomial_two_sided(b, c))
    assert mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12)
    assert mcnemar_exact(b, c) == mcnemar_exact(c, b)


@pytest.mark.parametrize(
    ("b", "c", "p"),
    [  # exact conditional McNemar p-values, Fagerland, Lydersen and Laake (2017), ch. 8
        (1, 7, 0.0703),  # Bentur et al. 2009
        (6, 16, 0.0525),  # Cavo et al. 2012
        (1, 17, 0.000145),  # issue 16: 17 deals only lookahead won, 1 only greedy
    ],
)
def test_mcnemar_matches_published_values(b: int, c: int, p: float) -> None:
    assert mcnemar_exact(b, c) == pytest.approx(p, abs=5e-5 if p > 0.001 else 5e-7)


def _wilson_by_bisection(x: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson limits as the roots of |x/n - p| = z sqrt(p (1 - p) / n), by bisection."""

    def outside(p: float) -> float:
        return abs(x / n - p) - z * math.sqrt(p * (1 - p) / n)

    def root(lo: float, hi: float) -> float:
        for _ in range(200):
            mid = (lo + hi) / 2
            if (outside(lo) > 0) == (outside(mid) > 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    p = x / n
    return (0.0 if x == 0 else root(0.0, p)), (1.0 if x == n else root(p, 1.0))


def _newcombe_independently(a: int, b: int, c: int, d: int) -> tuple[float, float]:
    n = a + b + c + d
    z = z_value(0.95)
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = _wilson_by_bisection(a + b, n, z)
    l2, u2 = _wilson_by_bisection(a + c, n, z)
    margins = [a + b, c + d, a + c, b + d]
    cross = a * d - b * c
    if 0 in margins:
        phi = 0.0
    elif cross > n / 2:
        phi = (cross - n / 2) / math.sqrt(math.prod(margins))
    elif cross < 0:
        phi = cross / math.sqrt(math.prod(margins))
    else:
        phi = 0.0
    diff = (b - c) / n
    low = diff - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2))
    high = diff + math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1))
    return low, high


def test_newcombe_matches_the_published_worked_example() -> None:
    # Fagerland, Lydersen and Laake (2017), Statistical Analysis of Contingency Tables, §8.5:
    # Cavo et al. (2012), 59 / 6 / 16 / 80: estimate -0.0621, 95% CI -0.1186 to -0.0046.
    low, high = paired_difference_ci(59, 6, 16, 80)
    assert (round(low, 4), round(high, 4)) == (-0.1186, -0.0046)


@pytest.mark.parametrize(
    "table",
    [(59, 6, 16, 80), (35, 1, 17, 47), (1, 1, 7, 12), (0, 3, 0, 7), (10, 0, 0, 0), (5, 5, 5, 5)],
)
def test_newcombe_agrees_with_an_independent_computation(table: tuple[int, int, int, int]) -> None:
    got = paired_difference_ci(*table)
    assert got == pytest.approx(_newcombe_independently(*table), abs=1e-9)
    _, b, c, _ = table
    assert got[0] <= (b - c) / sum(table) <= got[1]


def test_paired_interval_is_narrower_than_overlap_suggests() -> None:
    # The duel of issue 16: 35 both, 17 only lookahead, 1 only greedy, 47 neither. The two
    # separate intervals (52/100 and 36/100) overlap; the paired interval leaves out 0.
    ahead, greedy = wilson(52, 100), wilson(36, 100)
    assert ahead[0] < greedy[1]
    low, _ = paired_difference_ci(35, 17, 1, 47)
    assert low > 0
    assert mcnemar_exact(17, 1) < 0.001


def test_paired_errors() -> None:
    with pytest.raises(ValueError, match="whole numbers"):
        paired_difference_ci(1, -1, 0, 0)
    with pytest.raises(ValueError, match="whole numbers"):
        mcnemar_exact(1.5, 2)  # type: ignore[arg-type]
    assert paired_difference_ci(0, 0, 0, 0) == (-1.0, 1.0)


@pytest.mark.parametrize("half_width", [0.01, 0.02, 0.05])
@pytest.mark.parametrize("p", [0.5, 0.3, 0.0386, 0.9])
def test_sample_size_is_the_smallest_n_with_the_wanted_half_width(
    half_width: float, p: float
) -> None:
    n = sample_size(half_width, p)
    low, high = normal_band(p, n)
    assert z_value() * math.sqrt(p * (1 - p) / n) <= half_width + 1e-12
    assert z_value() * math.sqrt(p * (1 - p) / (n - 1)) > half_width
    assert high - low <= 2 * half_width + 1e-12


def test_sample_size_formula_by_hand() -> None:
    assert sample_size(0.01) == math.ceil(z_value() ** 2 * 0.25 / 0.01**2) == 9604
    with pytest.raises(ValueError, match="half_width"):
        sample_size(0)
