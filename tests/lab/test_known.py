"""The warm-up's known answer (issue 16.14): the exact no-pair probability of the bottom
row, checked against two other counts, and the simulation that estimates it."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from fractions import Fraction

import pytest

from pyramid_widget import Game
from pyramid_widget.engine.cards import parse_card
from pyramid_widget.lab.experiments import deal_for
from pyramid_widget.lab.known import (
    bottom_row,
    has_pair,
    no_pair_outcomes,
    no_pair_probability,
    repeated_estimates,
)


def _rank_counts(ranks: int, total: int, most: int) -> Iterator[tuple[int, ...]]:
    """Every way to take ``total`` cards as counts per rank (each at most ``most``)."""
    if ranks == 1:
        if total <= most:
            yield (total,)
        return
    for k in range(min(most, total) + 1):
        for rest in _rank_counts(ranks - 1, total - k, most):
            yield (k, *rest)


def _by_rank_multisets(cards: int, suits: int) -> Fraction:
    """Sum over rank multisets without a complementary pair of prod C(suits, count)."""
    ways = 0
    for counts in _rank_counts(13, cards, suits):
        present = {r + 1 for r, k in enumerate(counts) if k}
        if any(13 - r in present for r in present if r != 13):
            continue
        ways += math.prod(math.comb(suits, k) for k in counts)
    return Fraction(ways, math.comb(13 * suits, cards))


def _by_brute_force(cards: int, suits: int) -> Fraction:
    deck = [(rank, suit) for rank in range(1, 14) for suit in range(suits)]
    hands = list(itertools.combinations(deck, cards))
    good = sum(
        not any(a[0] + b[0] == 13 for a, b in itertools.combinations(hand, 2)) for hand in hands
    )
    return Fraction(good, len(hands))


def test_the_exact_value_matches_a_count_over_rank_multisets() -> None:
    assert no_pair_probability() == _by_rank_multisets(7, 4) == Fraction(233468, 1194505)
    for cards in (0, 1, 2, 5, 6):
        assert no_pair_probability(cards) == _by_rank_multisets(cards, 4)


@pytest.mark.parametrize(("cards", "suits"), [(2, 4), (3, 4), (7, 1), (5, 2), (6, 2)])
def test_the_exact_value_matches_brute_force_on_small_decks(cards: int, suits: int) -> None:
    assert no_pair_probability(cards, suits) == _by_brute_force(cards, suits)


def test_the_bottom_row_is_what_the_game_uncovers_first() -> None:
    for i in range(20):
        deal = deal_for(3, i)
        game = Game("medium", deal)
        assert set(bottom_row(deal)) == set(game.available())  # medium: no stock card is free
        assert list(game.pyramid[21:]) == bottom_row(deal)


def test_has_pair_reads_ranks_not_cards() -> None:
    ace, queen, king = parse_card("AH"), parse_card("QS"), parse_card("KD")
    assert has_pair([ace, queen]) and not has_pair([ace, king, parse_card("KC")])
    assert not has_pair([parse_card("7H"), parse_card("7S")])  # 14, not 13


def test_the_simulation_converges_to_the_truth() -> None:
    p = float(no_pair_probability())
    outcomes = no_pair_outcomes(4000, seed=5)
    estimate = sum(outcomes) / len(outcomes)
    assert abs(estimate - p) < 4 * math.sqrt(p * (1 - p) / len(outcomes))
    estimates = repeated_estimates(200, 20, seed=5)
    assert len(estimates) == 200 and {e * 20 for e in estimates} <= set(range(21))
    mean = sum(estimates) / len(estimates)
    assert abs(mean - p) < 4 * math.sqrt(p * (1 - p) / 4000)


def test_bad_sizes_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="cards"):
        no_pair_probability(53)
    with pytest.raises(ValueError, match="deals"):
        no_pair_outcomes(0)
