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

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> g = Game.from_position("medium", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "2S"])
>>> free_stock_wins(Model.from_game(g))
False
"""

from __future__ import annotations

from pyramid_widget.engine.cards import KING, rank
from pyramid_widget.engine.layout import SIZE
from pyramid_widget.solver.model import PYRAMID_ALL, UNCOVERED, Model, uncovered


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


EMPTY, BLOCKED = -1, -2
"""Cell values of :class:`FreeStock` besides a parked pyramid slot."""


class FreeStock:
    """The free-stock game of one model, with a table of answers shared by every question
    asked (so the search may ask it about each position it reaches).

    The relaxed position is the pyramid mask, the counts of the free deck cards per rank,
    and the cell: :data:`EMPTY`, :data:`BLOCKED` (no cell, or one holding a card that can
    never leave), or the slot of the card parked there. An uncovered pyramid card may go
    alone (a King, where Kings go alone), pair with an uncovered pyramid card, with a free
    deck card of a partner rank, or with the parked card, or step into the empty cell; the
    parked card may pair with a free deck card, or leave alone if it is a King that goes
    alone. The pyramid is cleared when it is empty and
    no pyramid card is parked.

    Soundness with a cell: follow a real winning line and keep the relaxed cell equal to the
    real one while it holds a pyramid card or the card it held at the start, else empty
    (blocked only when the real cell holds a card that never leaves). A deck card that
    enters the real cell later counts as a free deck card, so every real move that touches a
    pyramid card or the starting cell card is a relaxed move (a pyramid card enters the cell
    only when it is empty, and then the relaxed cell is empty too); other moves between deck
    cards only use deck cards up and are left out. So a real win gives a relaxed win.

    Under sum-13 pairing, a rank class {r, 13 - r} is *saturated* when the free deck holds
    a partner for every pyramid card of the class, a pyramid card in the cell included (at
    least as many cards of rank ``13 - r`` as such cards of rank ``r``, and the other way
    round). An uncovered card of a saturated class is then removed with a deck card at
    once, with no other choice tried. Soundness: take a winning line; do that removal first
    and then the line, except that the card's own moves are dropped (its removal, and its
    step into the cell and out: the cell is then empty where the line had it full, so every
    later step into it is still legal) and, if the line paired it with a pyramid card
    ``q``, ``q`` takes a deck card instead (a ``q`` in the cell too, which is why a card
    there counts only where the cell pairs with deck cards). The line used at most
    ``#pyramid(13 - r) - 1`` deck cards of rank ``r`` elsewhere and at most
    ``#pyramid(r) - 1`` of rank ``13 - r`` for the others, so both deck cards exist, and an
    earlier removal only uncovers cards sooner. With the cell empty or holding a card this
    halved the calls of its search on ``egypt`` deal 22 (287,767 to 139,103), with the same
    answers; before, the shortcut was taken only with no usable cell.
    """

    def __init__(self, model: Model) -> None:
        rules = model.rules
        zones = rules.pair_zones
        self.model = model
        self.kings_alone = rules.kings_alone
        self.king_first = rules.kings_alone and rules.pairing == "sum13"
        self.pp = "pyramid+pyramid" in zones
        self.pd = bool({"pyramid+waste", "pyramid+stock", "cell+pyramid"} & zones)
        self.cp = "cell+pyramid" in zones
        self.cd = bool({"cell+waste", "cell+stock"} & zones)
        self.saturating = rules.pairing == "sum13" and self.pd
        self.mates = [
            [r2 for r2 in range(1, 14) if _ranks_pair(rules.pairing, r, r2)] for r in range(14)
        ]
        self.ranks = [rank(c) if c >= 0 else 0 for c in model.cards]
        self.seen: dict[tuple[int, tuple[int, ...], int], bool] = {}
        self.counts: dict[int, tuple[int, ...]] = {}
        """The free deck cards per rank, per deck mask."""
        self.spent = 0
        """Free-stock positions searched so far; past :data:`LIMIT` the test gives up."""

    def wins(self, board: int, parked: int = 0, usable: bool = False) -> bool:
        """Whether the pyramid cards of ``board`` and a pyramid card ``parked`` in the cell
        (a one-bit mask of the cell card, or 0) can be cleared with the deck cards of
        ``board`` free; ``usable`` says whether an empty cell may take cards (never without
        a cell). True once the budget of :data:`LIMIT` positions is spent (the test then
        prunes nothing)."""
        if self.spent > LIMIT:
            return True
        deck = board & ~PYRAMID_ALL
        counts = self.counts.get(deck)
        if counts is None:
            counts = self.counts[deck] = tuple(
                [(deck & mask).bit_count() for mask in self.model.rank_masks]
            )
        cell = parked.bit_length() - 1 if parked else EMPTY if usable else BLOCKED
        try:
            return self._clear(board & PYRAMID_ALL, counts, cell)
        except _GiveUp:
            return True

    def _clear(self, pyr: int, left: tuple[int, ...], cell: int) -> bool:
        if not pyr and (cell < 0 or cell >= SIZE):
            return True
        key = (pyr, left, cell)
        hit = self.seen.get(key)
        if hit is not None:
            return hit
        self.spent += 1
        if self.spent > LIMIT:
            raise _GiveUp
        result = self._try_cell(pyr, left, cell) or self._try(pyr, left, cell)
        self.seen[key] = result
        return result

    def _try_cell(self, pyr: int, left: tuple[int, ...], cell: int) -> bool:
        """Moves of the parked card: alone (a King, where Kings go alone) or with a deck
        card. (A King parked in the cell once could not leave it here, so a position with
        one was called lost: issue 14.)"""
        if cell < 0:
            return False
        if self.kings_alone and self.ranks[cell] == KING:
            return self._clear(pyr, left, EMPTY)
        if not self.cd:
            return False
        for r2 in self.mates[self.ranks[cell]]:
            if left[r2] and self._clear(pyr, _less(left, r2), EMPTY):
                return True
        return False

    def _saturated(self, pyr: int, left: tuple[int, ...], unc: int) -> int:
        """An uncovered card of ``unc`` in a saturated rank class (see the class docs), or
        0; ``pyr``: the pyramid cards, with a pyramid card in the cell."""
        rm = self.model.rank_masks
        rest = unc
        while rest:
            low = rest & -rest
            rest ^= low
            r = self.ranks[low.bit_length() - 1]
            if (
                r != KING
                and left[13 - r] >= (pyr & rm[r]).bit_count() > 0
                and left[r] >= (pyr & rm[13 - r]).bit_count()
            ):
                return low
        return 0

    def _try(self, pyr: int, left: tuple[int, ...], cell: int) -> bool:
        """Moves of each uncovered pyramid card."""
        partners = self.model.partners
        unc = uncovered(pyr, UNCOVERED)
        if self.saturating and (cell < 0 or self.cd):  # rule free-stock-saturated
            low = self._saturated(pyr | (1 << cell if 0 <= cell < SIZE else 0), left, unc)
            if low:
                r = self.ranks[low.bit_length() - 1]
                return self._clear(pyr & ~low, _less(left, 13 - r), cell)
        rest = unc
        while rest:
            low = rest & -rest
            rest ^= low
            slot = low.bit_length() - 1
            r = self.ranks[slot]
            if self.kings_alone and r == KING:
                if self._clear(pyr & ~low, left, cell):
                    return True
                if self.king_first:
                    return False  # a King pairs with nothing: removing it alone is no worse
            if self.pp:
                mates = partners[slot] & unc & ~((low << 1) - 1)
                while mates:
                    mlow = mates & -mates
                    mates ^= mlow
                    if self._clear(pyr & ~low & ~mlow, left, cell):
                        return True
            if self.pd:
                for r2 in self.mates[r]:
                    if left[r2] and self._clear(pyr & ~low, _less(left, r2), cell):
                        return True
            pairs_cell = cell >= 0 and self.cp and partners[slot] >> cell & 1
            if pairs_cell and self._clear(pyr & ~low, left, EMPTY):
                return True
            if cell == EMPTY and self._clear(pyr & ~low, left, slot):
                return True
        return False


def _less(left: tuple[int, ...], r: int) -> tuple[int, ...]:
    """``left`` with one card of rank ``r`` fewer."""
    fewer = list(left)
    fewer[r] -= 1
    return tuple(fewer)


def _ranks_pair(pairing: object, a: int, b: int) -> bool:
    """Whether two (different) cards of ranks ``a`` and ``b`` pair."""
    if not a:
        return False
    if pairing == "sum13":
        return a + b == 13
    return abs(a - b) <= 1
