"""A relaxation that proves many deals unwinnable at once: the *free stock*.

Forget the order of the stock and waste: let every stock or waste card be playable at any
time, so that only how many cards of each rank the deck still holds matters. If even then the
pyramid cannot be cleared, the real game cannot be won either:

Soundness: take any winning line of the real game. Each pyramid card leaves it either alone
(a King, where Kings go alone), with an uncovered pyramid partner, or with a deck card (waste
or stock top) of a partner rank, each deck card used once. The same removals, in the same
order, are legal in the free-stock game, whose deck counts cover every deck card the line
uses (pairs of two deck cards only use up deck cards and can be left out). So a real win
gives a free-stock win, and no free-stock win means no real win.

The free-stock game is small (a pyramid mask and thirteen counts), so a depth-first search
with a table of failed positions settles it in milliseconds.

>>> from pyramid_widget.game import Game
>>> from pyramid_widget.solver_model import Model
>>> g = Game.from_position("medium", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "2S"])
>>> free_stock_wins(Model.from_game(g))
False
"""

from __future__ import annotations

from pyramid_widget.cards import KING, rank
from pyramid_widget.solver_model import PYRAMID_ALL, Model, uncovered
from pyramid_widget.solver_moves import _UNCOVERED


def applies(model: Model) -> bool:
    """Whether the relaxation is sound for the rule set: no free cell (a card parked in the
    cell leaves the pyramid without a partner)."""
    return not model.rules.cells


def free_stock_wins(model: Model) -> bool:
    """Whether the pyramid of ``model.root`` can be cleared with a free stock."""
    rules, cards = model.rules, model.cards
    counts = [0] * 14
    deck = model.root[0] & ~PYRAMID_ALL
    while deck:
        low = deck & -deck
        deck ^= low
        counts[rank(cards[low.bit_length() - 1])] += 1
    zones = rules.pair_zones
    pyramid_pairs = "pyramid+pyramid" in zones
    deck_pairs = bool({"pyramid+waste", "pyramid+stock"} & zones)
    mates = [[r2 for r2 in range(1, 14) if _ranks_pair(rules.pairing, r, r2)] for r in range(14)]
    failed: set[tuple[int, tuple[int, ...]]] = set()
    solo = rules.kings_alone

    def clear(pyr: int, left: tuple[int, ...]) -> bool:
        if not pyr:
            return True
        if (pyr, left) in failed:
            return False
        unc = uncovered(pyr, _UNCOVERED)
        rest = unc
        while rest:
            low = rest & -rest
            rest ^= low
            slot = low.bit_length() - 1
            r = rank(cards[slot])
            if solo and r == KING:
                if clear(pyr & ~low, left):
                    return True
                if rules.pairing == "sum13":
                    break  # a King pairs with nothing: removing it alone is never worse
            if pyramid_pairs:
                partners = model.partners[slot] & unc & ~((low << 1) - 1)
                while partners:
                    plow = partners & -partners
                    partners ^= plow
                    if clear(pyr & ~low & ~plow, left):
                        return True
            if deck_pairs:
                for r2 in mates[r]:
                    if left[r2]:
                        fewer = list(left)
                        fewer[r2] -= 1
                        if clear(pyr & ~low, tuple(fewer)):
                            return True
        failed.add((pyr, left))
        return False

    return clear(model.root[0] & PYRAMID_ALL, tuple(counts))


def _ranks_pair(pairing: str, a: int, b: int) -> bool:
    """Whether two (different) cards of ranks ``a`` and ``b`` pair."""
    if not a:
        return False
    if pairing == "sum13":
        return a + b == 13
    return abs(a - b) <= 1
