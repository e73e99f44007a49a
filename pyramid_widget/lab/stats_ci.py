"""Confidence intervals for win rates (the Wilson score interval), paired comparisons of two
strategies on the same deals (McNemar's exact test, Newcombe's paired interval), and the
sample size for a wanted interval width.

A win rate estimated from ``n`` games is a binomial proportion. The textbook interval
``p ± z·sqrt(p(1-p)/n)`` misbehaves for small ``n`` and for rates near 0 or 1 (it gives
``[0, 0]`` after 10 losses), so experiments report the Wilson score interval (Wilson 1927;
recommended by Brown, Cai and DasGupta 2001, *Interval Estimation for a Binomial Proportion*).

>>> low, high = wilson(5, 10)
>>> round(low, 4), round(high, 4)
(0.2366, 0.7634)
>>> [round(x, 4) for x in wilson(0, 10)]
[0.0, 0.2775]
"""

from __future__ import annotations

import math
from statistics import NormalDist

from pyramid_widget.errors import ArgumentError


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile for ``confidence`` (1.96 for 95%).

    >>> round(z_value(0.95), 3)
    1.96
    """
    if not 0 < confidence < 1:
        raise ArgumentError(f"confidence must be between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Return the Wilson score interval ``(low, high)`` for ``successes`` out of ``n``.

    With ``n == 0`` nothing is known and the interval is ``(0.0, 1.0)``. Raises
    ``ArgumentError`` (a ``ValueError``) for negative counts or more successes than trials.

    >>> [round(x, 4) for x in wilson(10, 10)]
    [0.7225, 1.0]
    >>> wilson(3, 2)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.ArgumentError: successes must be between 0 and n, got 3 of 2
    """
    if n < 0 or not 0 <= successes <= n:
        raise ArgumentError(f"successes must be between 0 and n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    z = z_value(confidence)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def running_wilson(
    outcomes: list[bool], confidence: float = 0.95
) -> tuple[list[float], list[float], list[float]]:
    """Return the running estimate, low and high after each of ``outcomes`` in turn.

    >>> rate, low, high = running_wilson([True, False, False, True])
    >>> rate
    [1.0, 0.5, 0.3333333333333333, 0.5]
    """
    rates, lows, highs = [], [], []
    wins = 0
    for n, won in enumerate(outcomes, start=1):
        wins += bool(won)
        low, high = wilson(wins, n, confidence)
        rates.append(wins / n)
        lows.append(low)
        highs.append(high)
    return rates, lows, highs


# -- paired comparisons ------------------------------------------------------------------


def mcnemar_exact(only_first: int, only_second: int) -> float:
    """McNemar's exact test: the two-sided p-value that two paired win rates are equal.

    Only the *discordant* pairs tell the strategies apart: deals won by the first strategy
    alone (``only_first``, b) and by the second alone (``only_second``, c). If the two win
    equally often, each discordant deal is a fair coin, so ``b ~ Binomial(b + c, 1/2)``; the
    p-value is ``min(1, 2 P(X <= min(b, c)))`` (the exact conditional test; McNemar 1947,
    Fagerland, Lydersen and Laake 2013, *BMC Med Res Methodol* 13:91). Computed with exact
    integer arithmetic. No discordant pair gives 1.0.

    >>> round(mcnemar_exact(1, 17), 6)  # 17 deals only one strategy won, 1 only the other
    0.000145
    >>> round(mcnemar_exact(6, 16), 4), mcnemar_exact(3, 3)
    (0.0525, 1.0)
    """
    for count in (only_first, only_second):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ArgumentError(f"discordant counts must be whole numbers >= 0, got {count!r}")
    n = only_first + only_second
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(only_first, only_second) + 1))
    return min(1.0, 2 * tail / (1 << n))


def paired_difference_ci(
    both: int, only_first: int, only_second: int, neither: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Newcombe's square-and-add interval for the paired difference ``p1 - p2``.

    For ``n`` deals each played by two strategies, ``p1 = (both + only_first) / n`` and
    ``p2 = (both + only_second) / n`` are their win rates and the difference is
    ``(only_first - only_second) / n``. Newcombe (1998), *Improved confidence intervals for
    the difference between binomial proportions based on paired data*, Stat Med
    17:2635-2650, method 10: with ``(l1, u1)`` and ``(l2, u2)`` the Wilson intervals of
    ``p1`` and ``p2``, and ``phi`` the correlation of the pairs,

        low  = d - sqrt((p1 - l1)^2 - 2 phi (p1 - l1)(u2 - p2) + (u2 - p2)^2)
        high = d + sqrt((p2 - l2)^2 - 2 phi (p2 - l2)(u1 - p1) + (u1 - p1)^2)

    where, with ``A = both * neither - only_first * only_second`` and ``D`` the product of
    the four margins, ``phi = (A - n/2) / sqrt(D)`` if ``A > n/2``, ``0`` if
    ``0 <= A <= n/2``, ``A / sqrt(D)`` if ``A < 0``, and ``0`` when a margin is empty (as in
    Fagerland, Lydersen and Laake, *Statistical Analysis of Contingency Tables*, 2017, §8.5).

    >>> [round(x, 4) for x in paired_difference_ci(59, 6, 16, 80)]  # their worked example
    [-0.1186, -0.0046]
    """
    counts = (both, only_first, only_second, neither)
    for count in counts:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ArgumentError(f"pair counts must be whole numbers >= 0, got {count!r}")
    n = sum(counts)
    if n == 0:
        return -1.0, 1.0
    first, second = both + only_first, both + only_second
    p1, p2 = first / n, second / n
    l1, u1 = wilson(first, n, confidence)
    l2, u2 = wilson(second, n, confidence)
    margins = first * (n - first) * second * (n - second)
    a = both * neither - only_first * only_second
    if margins == 0 or 0 <= a <= n / 2:
        phi = 0.0
    else:
        phi = (a - n / 2 if a > 0 else a) / math.sqrt(margins)
    d = p1 - p2
    low = d - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    high = d + math.sqrt(
        max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2)
    )
    return max(-1.0, low), min(1.0, high)


def sample_size(half_width: float, p: float = 0.5, confidence: float = 0.95) -> int:
    """Games needed for a normal-approximation interval ``p ± half_width``.

    From ``half_width = z sqrt(p (1 - p) / n)``: ``n = z² p (1 - p) / half_width²``, rounded
    up. ``p = 0.5`` (the default) is the worst case, so it is enough whatever the rate.

    >>> sample_size(0.01)  # ±1 percentage point, rate unknown
    9604
    >>> sample_size(0.01, p=0.3)
    8068
    """
    if not 0 < half_width < 1:
        raise ArgumentError(f"half_width must be between 0 and 1, got {half_width!r}")
    if not 0 <= p <= 1:
        raise ArgumentError(f"p must be between 0 and 1, got {p!r}")
    z = z_value(confidence)
    return max(1, math.ceil(z * z * p * (1 - p) / (half_width * half_width) - 1e-9))


def normal_band(p: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Where an estimate from ``n`` games falls about 95% of the time if the true rate is
    ``p``: ``p ± z sqrt(p (1 - p) / n)`` (clipped to [0, 1]).

    >>> [round(x, 4) for x in normal_band(0.5, 100)]
    [0.402, 0.598]
    """
    if n < 1:
        raise ArgumentError(f"n must be at least 1, got {n!r}")
    half = z_value(confidence) * math.sqrt(p * (1 - p) / n)
    return max(0.0, p - half), min(1.0, p + half)
