"""Rule ``empty-stock``: once the stock is dealt out on the last pass, the game left is
small and fixed, so whether a position can be won within a number of moves is searched
exactly, depth first, at a small part of what the A* spends on a position.

With the stock empty and no redeal left nothing is ever dealt again: a move removes a King,
removes two available cards that pair, or parks an available pyramid card or pile top in
the empty cell. Every waste card stays on the pile it lies on, so the positions of one solve
differ only in which cards are left and what the cell holds, and :class:`EmptyStock`
remembers what it learnt of each (won within so many moves, or not within so many) for the
rest of the solve. Under ``egypt`` the move-by-move A* used to expand most of its positions
there (deal 114: 710,501 of 828,129), most of them with no win within the A*'s level though
its bound allowed one; asked before each such expansion, this search sends those back to
the bound it finds, at about a twentieth of the A*'s cost a position
(``docs/PERFORMANCE_LOG.md``).

The search keeps a shortest winning line, if there is one, through three reductions (each
argued in :meth:`EmptyStock.within`): an available pyramid King goes at once; a pyramid card
whose one partner left is available goes with it at once; and a cell move is tried only
together with a next move that uses a card it freed. It stops where the moves still needed
by the A*'s count (admissible: the removals and its ``D``) exceed the moves left.

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> def within(moves, **position):
...     model = Model.from_game(Game.from_position("egypt", pyramid=[None] * 26 + ["5H", "9C"],
...                                                stock=[], **position))
...     assert EmptyStock.applies(model)
...     return EmptyStock(model, lambda state: 1).within(model.root, moves)
>>> within(2, wastes=[["4D", "8S"], [], []]), within(1, wastes=[["4D", "8S"], [], []])
(2, 2)
>>> within(3, wastes=[["8S", "4D", "6C"], [], []])  # park the 6C, 4D+9C, 8S+5H
3
>>> within(2, wastes=[["8S", "4D", "6C"], [], []])  # no win in two: at least three
3
>>> within(99, wastes=[["8S", "4D", "6C", "6D"], [], []]) == NEVER  # two Sixes, one cell
True
"""

from __future__ import annotations

from collections.abc import Callable

from pyramid_widget.solver.model import PYRAMID_ALL, Model, State, covered_cache, uncovered
from pyramid_widget.solver.prune.piles import _landing

NEVER = 1 << 20
"""What :meth:`EmptyStock.within` answers for a position that cannot be won."""


class EmptyStock:
    """Rule ``empty-stock`` for one solve: :meth:`within` answers whether a position with
    the stock dealt out on the last pass can be won within so many moves, or else how many
    it needs at least. ``removals``: an admissible count of the moves still needed with the
    stock dealt out, which reads only the pyramid cards in place and in the cell (the A*'s
    removal count plus its ``D``, :meth:`~pyramid_widget.solver.shortest_moves.MoveBound.settled`:
    on ``egypt`` deals 16 and 74, 117,650 and 44,736 positions searched here instead of
    188,696 and 91,384 with the removal count alone)."""

    def __init__(self, model: Model, removals: Callable[[State], int]) -> None:
        board, lo, piles, _, _, _ = model.root
        flags = model.flags
        columns = list(piles) if flags.piles > 1 else [board & ~PYRAMID_ALL & ((1 << lo) - 1)]
        for i, more in enumerate(_landing(board >> lo << lo, flags.draw, flags.piles)):
            columns[i] |= more
        self.columns = [c for c in columns if c]
        """Each waste pile's cards now and to come (fixed: the root is on its last pass)."""
        self.partners = model.partners
        self.kings = flags.lone_kings
        self.cell = bool(flags.cells)
        self.removals = removals
        self.covers = covered_cache()
        self.won: dict[int, int] = {}
        """Positions (the cards left and the cell's, packed in one number) with the length
        of a winning line found."""
        self.least: dict[int, int] = {}
        """Positions with a lower bound on their fewest moves above the removal count
        (:data:`NEVER`: lost)."""
        self.counts: dict[int, int] = {}
        """``removals`` per cell and pyramid cards (packed as in :meth:`_within`'s key, the
        pile cards left out, which ``removals`` does not read): asked directly, it cost a
        position tuple, a call and its own key each time (265,680 times on ``egypt`` deal
        16)."""

    @staticmethod
    def applies(model: Model) -> bool:
        """Whether the rule holds for the solve of ``model``: sum-13 pairing with Kings going
        alone, a pyramid-only win, any two available cards pairing (pyramid cards, waste
        tops and the cell alike), at most one cell, no stall rule, no stock top play, and
        the root on the last pass (so each card's waste pile is known for good)."""
        rules, flags = model.rules, model.flags
        return (
            not model.macro
            and rules.pairing == "sum13"
            and rules.kings_alone
            and rules.win == "pyramid"
            and rules.passes is not None
            and model.root[4] >= rules.passes
            and rules.cells <= 1
            and not rules.stall_rule
            and not flags.stock_top
            and flags.pyramid_pyramid
            and flags.pyramid_waste
            and flags.waste_waste
            and (not rules.cells or (flags.cell_pyramid and flags.cell_waste))
        )

    def within(self, state: State, moves: int) -> int:
        """How many moves ``state`` (the stock empty, on the last pass) needs, as far as
        ``moves`` tells: at most ``moves`` when it can be won within ``moves`` moves, else
        a lower bound on its fewest moves (above ``moves``; :data:`NEVER` when it cannot be
        won at all). A depth-first search of the empty-stock game that gives up where the
        moves still needed (``removals``) exceed the moves left, taking the least such
        excess as the bound (as iterative deepening does).

        Each reduction keeps a line that wins and is no longer. Cards only ever become
        available when others leave, and nothing is dealt, so a line that makes a move
        earlier than it did, or drops a move, stays legal as long as the cell is free
        whenever it parks a card there:

        - **An available pyramid King goes at once.** It pairs with nothing and must go, by
          a move of its own; made now instead of later (a park of it dropped), the line is
          no longer. (A King on a pile or in the cell need never go: taking it is a move
          like any other.)
        - **A forced pair goes at once.** A pyramid card (in place or parked) whose one
          partner left is available now goes with that partner in every winning line;
          removing both now and dropping their moves (a park of either) keeps the line
          legal, won and no longer.
        - **A cell move only with a follow-up.** In a winning line, move a park of ``X`` to
          just before the first move that uses a card the park freed (the card under ``X``
          on its pile, or pyramid cards it uncovered): the moves between use neither (they
          cannot park: the cell holds ``X``), and ``X`` stays available where it was. If
          ``X`` is removed first, or no freed card is ever used, the park is dropped. So a
          park is searched only as one step of two moves with such a next move.
        """
        board, cells = state[0], state[3]
        return self._within(board & PYRAMID_ALL, board & ~PYRAMID_ALL, cells, moves)

    def _within(self, pyr: int, deck: int, cell: int, moves: int) -> int:
        """:meth:`within` of the position with pyramid cards ``pyr``, pile cards ``deck``
        and cell ``cell``, from and into the memo."""
        if not (pyr | cell) & PYRAMID_ALL:
            return 0
        key = cell << 64 | pyr | deck
        known = self.won.get(key)
        if known is not None and known <= moves:
            return known
        least = self.least.get(key)
        if least is None:
            least = self.counts.get(key ^ deck)
            if least is None:
                least = self.counts[key ^ deck] = self.removals((pyr, 0, 0, cell, 0, 0))
        if least > moves:
            return least
        need = self._search(pyr, deck, cell, moves)
        if need > NEVER:
            need = NEVER
        if need <= moves:
            self.won[key] = need
        else:
            self.least[key] = need
        return need

    def _search(self, pyr: int, deck: int, cell: int, moves: int) -> int:
        """The moves of the position (see :meth:`within`), each child asked with one move
        fewer (two for a park and its follow-up): at most ``moves`` as soon as one wins
        within them, else the least of the children's bounds plus their steps."""
        within = self._within
        unc = uncovered(pyr, self.covers)
        tops = 0
        for column in self.columns:
            pile = column & deck
            if pile:
                tops |= 1 << (pile.bit_length() - 1)
        avail = unc | tops | cell
        king = unc & self.kings
        if king:
            king &= -king
            return 1 + within(pyr & ~king, deck, cell, moves - 1)
        partners = self.partners
        alive = pyr | deck | cell
        lonely = (unc | cell) & PYRAMID_ALL
        while lonely:  # a forced pair
            low = lonely & -lonely
            lonely ^= low
            mates = partners[low.bit_length() - 1] & alive
            if not mates & (mates - 1) and mates & avail:
                gone = low | mates
                return 1 + within(pyr & ~gone, deck & ~gone, cell & ~gone, moves - 1)
        best = NEVER
        rest = avail & self.kings  # a King on a pile or in the cell
        while rest:
            low = rest & -rest
            rest ^= low
            need = 1 + within(pyr, deck & ~low, cell & ~low, moves - 1)
            if need <= moves:
                return need
            if need < best:
                best = need
        rest = avail
        while rest:
            low = rest & -rest
            rest ^= low
            mates = partners[low.bit_length() - 1] & rest
            while mates:
                mate = mates & -mates
                mates ^= mate
                gone = low | mate
                need = 1 + within(pyr & ~gone, deck & ~gone, cell & ~gone, moves - 1)
                if need <= moves:
                    return need
                if need < best:
                    best = need
        if cell or not self.cell:
            return best
        movable = (unc | tops) & ~self.kings  # (taking a King does all a park of it does)
        while movable:  # park a card, then use a card it freed
            low = movable & -movable
            movable ^= low
            npyr, ndeck = pyr & ~low, deck & ~low
            if low & pyr:
                fresh = uncovered(npyr, self.covers) & ~unc
            else:
                fresh = 0
                for column in self.columns:
                    if column & low:
                        pile = column & ndeck
                        fresh = 1 << (pile.bit_length() - 1) if pile else 0
                        break
            now = avail | fresh  # the parked card stays available, from the cell
            while fresh:
                new = fresh & -fresh
                fresh ^= new
                mates = new if new & self.kings else partners[new.bit_length() - 1] & now
                while mates:
                    mate = mates & -mates
                    mates ^= mate
                    gone = new | mate
                    need = 2 + within(npyr & ~gone, ndeck & ~gone, low & ~gone, moves - 2)
                    if need <= moves:
                        return need
                    if need < best:
                        best = need
        return best
