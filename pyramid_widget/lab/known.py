"""A known answer to check a simulation against: the chance that the pyramid's bottom row
holds no pair.

The bottom row of the pyramid is the 7 cards uncovered at the start. It "holds a pair" when
two of them total 13 (A+Q, 2+J, 3+10, 4+9, 5+8, 6+7; Kings pair with nothing). Its seven
cards are a uniformly random 7 of the 52, so the chance of *no* pair is a counting question
with an exact answer (:func:`no_pair_probability`), and dealing many deals
(:func:`no_pair_outcomes`) estimates the same number: a Monte Carlo experiment whose truth is
known.

>>> p = no_pair_probability()
>>> p
Fraction(233468, 1194505)
>>> round(float(p), 4)  # about one deal in five
0.1955

Counting (a generating function): a hand without a pair takes, from each of the six
complementary rank pairs, cards of one of its two ranks only (or none), and any Kings. With
``s`` suits, the ways to take ``k`` cards from one rank pair are the coefficients of
``1 + 2((1 + x)^s - 1)``, from the Kings those of ``(1 + x)^s``, so the hands of size ``n``
without a pair number ``[x^n] (1 + 2((1 + x)^s - 1))^6 (1 + x)^s`` out of ``C(13 s, n)``.
"""

from __future__ import annotations

import math
from fractions import Fraction

from pyramid_widget.engine.deals import deal_from_number
from pyramid_widget.errors import ArgumentError
from pyramid_widget.lab.experiments import deal_for

__all__ = [
    "bottom_row",
    "has_pair",
    "no_pair_outcomes",
    "no_pair_probability",
    "repeated_estimates",
]

BOTTOM_ROW = range(21, 28)
"""The deal positions of the pyramid's bottom row (the cards uncovered at the start)."""


def _times(a: list[int], b: list[int], size: int) -> list[int]:
    """The product of two polynomials (coefficient lists), cut after degree ``size``."""
    out = [0] * (size + 1)
    for i, x in enumerate(a[: size + 1]):
        for j, y in enumerate(b[: size + 1 - i]):
            out[i + j] += x * y
    return out


def no_pair_probability(cards: int = 7, suits: int = 4) -> Fraction:
    """The exact chance that ``cards`` cards dealt from a deck of 13 ranks in ``suits`` suits
    hold no two totalling 13 (by default the pyramid's bottom row from a full deck).

    >>> no_pair_probability(2)  # 1 - (48/52)(4/51): a partner of a non-King first card
    Fraction(205, 221)
    >>> no_pair_probability(29)  # at most 6 x 4 + 4 = 28 cards avoid every pair
    Fraction(0, 1)
    """
    if isinstance(cards, bool) or not isinstance(cards, int) or not 0 <= cards <= 13 * suits:
        raise ArgumentError(f"cards must be a whole number from 0 to {13 * suits}, got {cards!r}")
    if isinstance(suits, bool) or not isinstance(suits, int) or not 1 <= suits <= 4:
        raise ArgumentError(f"suits must be a whole number from 1 to 4, got {suits!r}")
    one_rank = [math.comb(suits, k) for k in range(suits + 1)]  # (1 + x)^s
    rank_pair = [1] + [2 * c for c in one_rank[1:]]  # 1 + 2((1 + x)^s - 1)
    poly = one_rank
    for _ in range(6):
        poly = _times(poly, rank_pair, cards)
    ways = poly[cards] if cards < len(poly) else 0
    return Fraction(ways, math.comb(13 * suits, cards))


def bottom_row(deal: int) -> list[int]:
    """The seven cards of deal number ``deal``'s bottom row (cards as ints, rank ``c // 4 + 1``)."""
    return list(deal_from_number(deal)[BOTTOM_ROW.start : BOTTOM_ROW.stop])


def has_pair(cards: list[int]) -> bool:
    """Whether two of ``cards`` total 13.

    >>> has_pair([0, 47])  # Ace of clubs and Queen of spades
    True
    >>> has_pair([48, 49, 0])  # two Kings and an Ace
    False
    """
    ranks = {c // 4 + 1 for c in cards}
    return any(13 - r in ranks for r in ranks if r != 13)


def no_pair_outcomes(deals: int, seed: int = 0) -> list[bool]:
    """For each of ``deals`` deals of a run seeded ``seed`` (the deals ``run_experiment``
    plays), whether its bottom row holds no pair."""
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ArgumentError(f"deals must be a whole number of at least 1, got {deals!r}")
    return [not has_pair(bottom_row(deal_for(seed, i))) for i in range(deals)]


def repeated_estimates(experiments: int, deals: int, seed: int = 0) -> list[float]:
    """Repeat a small experiment ``experiments`` times, each estimating the no-pair chance
    from ``deals`` fresh deals, and return the estimates (for a sampling distribution).

    >>> estimates = repeated_estimates(3, 10, seed=1)
    >>> len(estimates), all(0 <= e <= 1 for e in estimates)
    (3, True)
    """
    if isinstance(experiments, bool) or not isinstance(experiments, int) or experiments < 1:
        raise ArgumentError(
            f"experiments must be a whole number of at least 1, got {experiments!r}"
        )
    outcomes = no_pair_outcomes(experiments * deals, seed)
    return [sum(outcomes[i : i + deals]) / deals for i in range(0, len(outcomes), deals)]
