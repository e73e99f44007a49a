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


LIMIT = 200_000
"""Free-stock positions one model may search (the game is tiny for sum-13 pairing, but can
grow large for adjacent ranks, where it is then given up rather than waited for)."""


class _GiveUp(Exception):
    """The free-stock budget is spent."""


def free_stock_wins(model: Model) -> bool:
    """Whether the pyramid of ``model.root`` can be cleared with a free stock."""
    return FreeStock(model).wins(model.root[0])


class FreeStock:
    """The free-stock game of one model, with tables of won and lost positions shared by
    every question asked (so the search may ask it about each position it reaches)."""

    def __init__(self, model: Model) -> None:
        rules = model.rules
        self.model = model
        self.zones_pp = "pyramid+pyramid" in rules.pair_zones
        self.zones_deck = bool({"pyramid+waste", "pyramid+stock"} & rules.pair_zones)
        self.mates = [
            [r2 for r2 in range(1, 14) if _ranks_pair(rules.pairing, r, r2)] for r in range(14)
        ]
        self.ranks = [rank(c) if c >= 0 else 0 for c in model.cards]
        self.failed: set[tuple[int, tuple[int, ...]]] = set()
        self.won: set[tuple[int, tuple[int, ...]]] = set()
        self.spent = 0
        """Free-stock positions searched so far; past :data:`LIMIT` the test gives up."""

    def wins(self, board: int) -> bool:
        """Whether the pyramid of ``board`` can be cleared with its deck cards free (True
        also once the test has spent its budget: it then prunes nothing)."""
        if self.spent > LIMIT:
            return True
        counts = [0] * 14
        deck = board & ~PYRAMID_ALL
        ranks = self.ranks
        while deck:
            low = deck & -deck
            deck ^= low
            counts[ranks[low.bit_length() - 1]] += 1
        try:
            return self._clear(board & PYRAMID_ALL, tuple(counts))
        except _GiveUp:
            return True

    def _clear(self, pyr: int, left: tuple[int, ...]) -> bool:
        if not pyr:
            return True
        key = (pyr, left)
        if key in self.failed:
            return False
        if key in self.won:
            return True
        self.spent += 1
        if self.spent > LIMIT:
            raise _GiveUp
        if self._try(pyr, left):
            self.won.add(key)
            return True
        self.failed.add(key)
        return False

    def _try(self, pyr: int, left: tuple[int, ...]) -> bool:
        model = self.model
        rules = model.rules
        unc = uncovered(pyr, _UNCOVERED)
        rest = unc
        while rest:
            low = rest & -rest
            rest ^= low
            slot = low.bit_length() - 1
            r = self.ranks[slot]
            if rules.kings_alone and r == KING:
                if self._clear(pyr & ~low, left):
                    return True
                if rules.pairing == "sum13":
                    return False  # a King pairs with nothing: removing it alone is no worse
            if self.zones_pp:
                partners = model.partners[slot] & unc & ~((low << 1) - 1)
                while partners:
                    plow = partners & -partners
                    partners ^= plow
                    if self._clear(pyr & ~low & ~plow, left):
                        return True
            if self.zones_deck:
                for r2 in self.mates[r]:
                    if left[r2]:
                        fewer = list(left)
                        fewer[r2] -= 1
                        if self._clear(pyr & ~low, tuple(fewer)):
                            return True
        return False


def _ranks_pair(pairing: str, a: int, b: int) -> bool:
    """Whether two (different) cards of ranks ``a`` and ``b`` pair."""
    if not a:
        return False
    if pairing == "sum13":
        return a + b == 13
    return abs(a - b) <= 1
