"""Confidence intervals for win rates: the Wilson score interval.

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


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile for ``confidence`` (1.96 for 95%).

    >>> round(z_value(0.95), 3)
    1.96
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Return the Wilson score interval ``(low, high)`` for ``successes`` out of ``n``.

    With ``n == 0`` nothing is known and the interval is ``(0.0, 1.0)``. Raises
    ``ValueError`` for negative counts or more successes than trials.

    >>> [round(x, 4) for x in wilson(10, 10)]
    [0.7225, 1.0]
    >>> wilson(3, 2)
    Traceback (most recent call last):
    ...
    ValueError: successes must be between 0 and n, got 3 of 2
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n, got {successes} of {n}")
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
