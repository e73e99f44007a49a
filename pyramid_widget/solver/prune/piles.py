"""Dead-position tests for the move-by-move search: several waste piles and the free cell.

The generic generator (:mod:`pyramid_widget.solver.moves`) prunes with the static tables of
:class:`~pyramid_widget.solver.model.Model`, which require nothing at all once a free cell is
in play and know nothing of waste piles. :class:`PileCheck` adds tests that look at the
whole position; :func:`select` hands them to
:func:`pyramid_widget.solver.decide_moves.depth_first` and
:func:`pyramid_widget.solver.shortest_moves.a_star`, which skip every position it calls
dead. Each test only drops positions from which no win exists, so verdicts, lines and
shortest lengths are unchanged (the tests cross-check with a plain search). The rules (ids
of :data:`pyramid_widget.solver.prune.PRUNING_RULES`) and their arguments:

- ``pile-partners``: **Cards that must go, with a cell.** The pyramid win still needs every
  pyramid card (Kings that go alone aside) removed, in the pyramid or parked in a cell, and
  a removal takes one card and one partner. Any partner still in play may meet it (one of
  the two may step into a cell), so a required card with no partner left in play is lost,
  and Hall's condition must hold per rank class (:func:`_counts_ok`).
- ``pile-stuck-cell``: **A stuck cell.** A card in a cell with no partner left in play
  never leaves it (a card leaves a cell only by removal), so it is gone for every partner
  test; once every cell holds such a card, no card can step into a cell again and the
  cell-free arguments below apply. (Every cell is looked at: with two cells, one stuck card
  once made the other cell's card count as stuck too.)
- ``pile-strict-needs``: **Cell-free needs.** Without a usable cell a card leaves the pyramid or a waste pile
   only by removal, so a card and a card that covers it are never available together:
   pyramid covering as in :func:`~pyramid_widget.solver.model.needs_mask`, and, on the last
   pass, the order of a waste pile (a card above another in the same pile). On the last
   pass the pile a stock card will land on is already known when the stock top is not
   available (no stock card leaves before it is drawn): the ``j``-th stock card lands on
   pile ``(j % draw_count) % waste_piles``, above every card on that pile. Stacking only
   changes by removals then, which keep the order of the rest, so a relation found now
   holds for the rest of the game.
- ``pile-burial``: **Burial on the last pass.** A pile card with no cell-free partner left that could ever
   be removed never leaves its pile (without a usable cell); once it lies on a waste pile
   the cards under it are never available again, so they count as gone for every partner
   test (a stock card buries nothing yet: the cards it will land on may go before it). This is iterated to a
   fixpoint (a card buried or stuck can itself be nobody's partner).
- ``pile-burial-cell``: **Burial with usable cells.** A pile card with no partner left at
  all (that could ever be available) can leave its pile only into a cell, where it then
  stays for good; so with ``c`` cells at most ``c`` such cards ever leave the piles. In a
  pile holding more of them, the next one down can leave only after those above it, which
  are then in the cells for good: it and everything under it stay.
- ``pile-free-stock``: **Free stock** (:mod:`pyramid_widget.solver.prune.relax`): the pyramid must be clearable when
   every deck card not buried may be played at any time; with a usable cell, the relaxed
   game may also park an uncovered pyramid card in the cell
   (:class:`~pyramid_widget.solver.prune.relax.FreeStock`). It has one cell: with several
   usable cells the test is left out.
- ``forced-order``: **Forced order** (every card must go, no cell, last pass). A card goes after every card
   covering it now (pyramid covering, or higher in its waste pile), and together with a partner it
   could meet, so also after every card that covers *all* those partners. Each such
   relation holds in every winning line, so a cycle of them (``x`` before ``y`` before ...
   before ``x``) means there is none, and so does a card all of whose partners must go
   before it (through any chain of these relations): it goes at the same time as one. Example: two piles holding a 5 above an 8 each, the
   other 5s and 8s gone: each 5 must pair with the 8 of the other pile, under the other 5.
- ``pile-forced-pair``: **Forced pairs** (last pass, no stock card available, no stall rule; a move ordering
   that loses nothing). When a card that must go has a single partner left in play, every
   winning line removes the two together. If both are available now, doing it at once is
   as good: the rest of the line stays legal without them (cards only ever become
   available by others leaving; draws deal onto the piles by count, not by what lies
   there; a cell they would have used is empty instead; no redeal follows), moves that
   touch them are dropped, and the line gets no longer. So the search tries only that pair.
- ``cell-follow-up``: **A card goes to the cell only for what it frees** (one pass, one cell;
   :meth:`PileCheck.cell_follow_ups`). Moving a card ``x`` into the cell makes some cards
   newly available: those it uncovered in the pyramid, or the card under it on its pile.
   In a winning line, let ``y`` be the move right after ``cell x``. If ``y`` pairs ``x``,
   drop the cell move: ``x`` was available where it lay (a pyramid card stays uncovered,
   and nothing lands on a pile between two moves that are not draws), and could pair
   there with whatever it pairs in the cell. That last part is a precondition on the
   zones: every zone the cell pairs with must pair with ``x``'s own zone too (true of
   ``egypt``). Where it fails (say ``"cell+stock"`` without ``"pyramid+stock"``, or
   ``"cell+cell"``), ``x`` itself counts as freed by its move, so ``y`` may use it
   (:meth:`PileCheck.cell_follow_ups`; without this, an audit on 2026-12-06 found winnable
   positions called lost under such zones). If ``y`` uses no
   newly available card and is not a draw or redeal while ``x`` lies on a pile, swap the
   two: ``y`` was legal before ``cell x`` (its cards were available; it is no cell move,
   as the one cell holds ``x``), ``cell x`` is still legal after it
   (``x`` is still available, as only a draw or redeal covers a pile card, and there is
   room in the cell), and the position after both is the same (a cell move swapped past
   the winning move is dropped: it never wins itself). Each step drops a move or moves a
   cell move later, so this ends with a winning line no longer than before in
   which every cell move is followed at once by a move using a card it freed, or (a pile
   card) by the draw or redeal that would have buried it. The search therefore takes
   ``cell x`` only together with such a next move. Where the next moves are restricted
   (rule ``kings-first``; forced pairs, rule ``pile-forced-pair``) a win is still kept: a King or forced pair of the
   position after ``cell x`` that was available before would have been the only move
   there, so no cell move was offered; hence it uses a freed card. The transposition table
   needs the successors to depend on the position alone and no position to come round:
   one pass only. And one cell only: with two, ``y`` may be a cell move itself, and two cell
   moves that each free a card the other's next move needs would swap for ever (a 2026-12-06
   audit found a winnable position called lost that way, now a test).

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> g = Game.from_position("egypt", pyramid=[None] * 25 + ["5H", "5C", "8C"], stock=["8D"])
>>> model = Model.from_game(g)
>>> PileCheck(model).dead(model.root)
False
>>> g = Game.from_position("egypt", pyramid=[None] * 25 + ["5H", "5C", "8C"], stock=["2D"])
>>> model = Model.from_game(g)
>>> PileCheck(model).dead(model.root)
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from pyramid_widget.engine.rules import ZONES, zone_pair
from pyramid_widget.solver.model import (
    CELL,
    DRAW,
    KING_ALONE,
    PAIR,
    PYRAMID_ALL,
    REDEAL,
    Model,
    State,
    Successors,
    matching,
    needs_mask,
    starved_in,
    uncovered,
)
from pyramid_widget.solver.moves import expand as single_moves
from pyramid_widget.solver.prune.relax import LIMIT, FreeStock
from pyramid_widget.solver.search import never


def applies(model: Model) -> bool:
    """Whether the move-by-move search of ``model`` gets these tests: several waste piles or
    a free cell (one plain pile is the macro search's, or covered by the static tables)."""
    return not model.macro and (model.rules.waste_piles > 1 or bool(model.rules.cells))


@dataclass(frozen=True)
class PileTests:
    """What a move-by-move search uses (:func:`select`): the dead-end test, the move
    generator and, with one pass and a cell, the cell moves' follow-ups (``None`` else)."""

    dead: Callable[[State], bool]
    expand: Callable[[State], Successors]
    follow_ups: Callable[[State, State], Successors] | None
    check: PileCheck | None
    """The tests' :class:`PileCheck`, ``None`` where they do not apply."""


def select(model: Model) -> PileTests:
    """The one place the move-by-move searches (:mod:`pyramid_widget.solver.decide_moves`,
    :mod:`pyramid_widget.solver.shortest_moves`) get their tests: :class:`PileCheck`'s where
    they apply (:func:`applies`), else a test that never fires and the plain generator of
    :mod:`pyramid_widget.solver.moves`.

    >>> from pyramid_widget.engine.game import Game
    >>> medium = Model.from_game(Game("medium", deal=1))
    >>> select(medium).check is None, select(medium).follow_ups is None
    (True, True)
    >>> egypt = Model.from_game(Game("egypt", deal=1))
    >>> select(egypt).check is not None, select(egypt).follow_ups is not None
    (True, True)
    """
    if not applies(model):
        return PileTests(never, partial(single_moves, model), None, None)
    check = PileCheck(model)
    # one cell: with two, two cell moves in a row could each wait on the other (see the rule)
    follows = model.rules.passes == 1 and model.rules.cells == 1
    return PileTests(check.dead, check.expand, check.cell_follow_ups if follows else None, check)


class PileCheck:
    """The dead-position tests of one model (see the module docstring)."""

    def __init__(self, model: Model) -> None:
        rules = model.rules
        self.model = model
        n = len(model.cards)
        lone = model.kings if rules.kings_alone else 0
        self.lone = lone
        must = PYRAMID_ALL if rules.win == "pyramid" else (1 << n) - 1
        present = sum(1 << s for s in range(n) if model.cards[s] >= 0)
        self.required = must & ~lone & present
        self.loose = model.partners
        self.strict = [strict_needs(model, s) for s in range(n)]
        self.deck = ((1 << n) - 1) & ~PYRAMID_ALL  # with cards parked at the root
        self.cell_rules = bool(rules.cells)
        self.last_only = rules.passes
        self.sum13 = rules.pairing == "sum13"
        self.all_required = not rules.cells and rules.win != "pyramid"
        self.forcing = 0 if rules.stock_top_available or rules.stall_rule else rules.passes or 0
        """Forced pairs are taken from this pass number on (the last; 0: never)."""
        self.free = FreeStock(model)
        self.mate_ranks = _mate_ranks(model) if self.sum13 else []
        """Per rank ``r`` (sum-13 pairing): ``(cards of rank r, cards of rank 13 - r)``, the
        ranks whose cards have no partner left when no card of the other rank is live."""
        self.uncovered_cache: dict[int, int] = {}
        self.before: tuple[State | None, int] = (None, 0)
        """The last position :meth:`cell_follow_ups` was asked about from, with its
        :meth:`_available`: a search asks about every park of one position in a row."""
        self.one_cell = rules.cells == 1
        zones = rules.pair_zones
        gains = [
            any(zone_pair("cell", w) in zones and zone_pair(origin, w) not in zones for w in ZONES)
            for origin in ("pyramid", "waste")
        ]
        self.cell_gains = gains
        """Per origin (pyramid, waste pile): whether a card moved into a cell can pair there
        with a zone it could not pair with where it lay (rule ``cell-follow-up``'s
        precondition fails for it: it counts as freed by its own cell move)."""
        self.cell_count = rules.cells
        self.stock_cols: dict[int, tuple[int, ...]] = {}
        """Cache of :meth:`_columns`: the pile each stock card will land on, per stock."""

    def expand(self, state: State) -> Successors:
        """The model's moves, or only a forced pair when there is one (rule ``pile-forced-pair``)."""
        moves = single_moves(self.model, state)
        if not self.forcing or state[4] < self.forcing:
            return moves
        alive = state[0] | state[3]
        partners, required = self.loose, self.required
        for move, nxt in moves:
            if move[0] != PAIR:
                continue
            a, b = move[1], move[2]
            if (required >> a & 1 and partners[a] & alive == 1 << b) or (
                required >> b & 1 and partners[b] & alive == 1 << a
            ):
                return [(move, nxt)]
        return moves

    def cell_follow_ups(self, state: State, parked: State) -> Successors:
        """Rule ``cell-follow-up``: for ``parked``, the position after a cell move from ``state``, the
        moves of ``parked`` (from :meth:`expand`, made by :meth:`focused`) that use a card
        the cell move made available, or (when the card came from a pile) draw or redeal,
        each as one step ``(cell move + move, position after both)``."""
        card = state[0] & ~parked[0]
        now = self._available(parked)
        last, then = self.before
        if last is not state:
            then = self._available(state)
            self.before = (state, then)
        fresh = now & ~then
        from_pile = not card & PYRAMID_ALL
        if self.cell_gains[from_pile]:  # the card pairs in the cell as it could not before
            fresh |= card
        board, lo, _, _, pno, _ = parked
        flags = self.model.flags
        deals = board >> lo or flags.passes is None or pno < flags.passes  # a draw or a redeal
        if not (from_pile and deals):
            # only pairs or Kings with a freed card can follow: are there any?
            rest, partners, hope = fresh, self.loose, fresh & self.lone
            while rest and not hope:
                low = rest & -rest
                rest ^= low
                hope = partners[low.bit_length() - 1] & now
            if not hope:
                return []
        moved = (CELL, card.bit_length() - 1, -1)
        steps = self.focused(parked, fresh, from_pile, now)
        return [(moved + move, nxt) for move, nxt in steps]

    def focused(
        self, state: State, focus: int, deals: bool, avail: int | None = None
    ) -> Successors:
        """The moves of :meth:`expand` that take or park a card of ``focus``, and, if
        ``deals``, its draw or redeal, in its order. Only those are made, unless a forced
        pair may be about (rule ``pile-forced-pair``: :meth:`expand` then lists that pair
        alone), when the whole list is made and filtered. ``avail``: :meth:`_available` of
        ``state``, if the caller has it."""
        if self.forcing and state[4] >= self.forcing:
            alive = state[0] | state[3]
            if avail is None:
                avail = self._available(state)
            partners = self.loose
            rest = avail & self.required
            while rest:  # a card that must go with one partner left, available
                low = rest & -rest
                rest ^= low
                mates = partners[low.bit_length() - 1] & alive
                if mates and not mates & (mates - 1) and mates & avail:
                    return [
                        (move, nxt)
                        for move, nxt in self.expand(state)
                        if _uses(move) & focus or (deals and move[0] in (DRAW, REDEAL))
                    ]
        return single_moves(self.model, state, focus, deals)

    def _available(self, state: State) -> int:
        """The available cards of ``state``: uncovered pyramid cards, pile tops, the
        cell, and the stock top where it is available."""
        board, lo, piles, cells, _, _ = state
        out = uncovered(board & PYRAMID_ALL, self.uncovered_cache) | cells
        if self.model.flags.piles > 1:
            for pile in piles:
                if pile:
                    out |= 1 << (pile.bit_length() - 1)
        else:
            waste = board & ((1 << lo) - 1) & ~PYRAMID_ALL
            if waste:
                out |= 1 << (waste.bit_length() - 1)
        stock = board >> lo << lo
        if stock and self.model.flags.stock_top:
            out |= stock & -stock
        return out

    def dead(self, state: State) -> bool:
        """Whether no win can be reached from ``state`` (proved by the tests above)."""
        board, _, _, cells, _, _ = state
        alive = board | cells
        stuck = self._stuck_in_cells(cells, alive)
        usable = self.cell_rules and self._cell_usable(cells, stuck)
        needs = self.loose if usable else self.strict
        cols = self._columns(state)
        waste = _union(state[2]) if cols else 0
        gone = self._buried(cols, waste, stuck, alive, usable)
        if gone < 0:
            return True
        live = alive & ~gone
        want = self.required & alive
        if not self._free_ok(state, live, usable):
            return True
        # with a usable cell the free-stock game already pairs every card that must go
        # with its own partner (rule ``pile-partners``), unless it gave up
        relaxed = usable and self.one_cell and self.free.spent <= LIMIT
        if (
            (gone or self.cell_rules)
            and not relaxed
            and not self._partners_ok(want, needs, live, usable)
        ):
            return True
        return bool(cols) and self.all_required and self._deadlocked(cols, waste, live)

    def _deadlocked(self, cols: list[int], waste: int, live: int) -> bool:
        """Rule ``forced-order``: whether the forced order of removals has a cycle, or leaves some card
        only partners that must all go before it (every live card must go, no cell, last
        pass)."""
        above = _above(self.model.chains, cols, waste, live)
        strict, lone = self.strict, self.lone
        before: dict[int, int] = {}
        options: dict[int, int] = {}
        rest = live
        while rest:
            low = rest & -rest
            rest ^= low
            x = low.bit_length() - 1
            over = before[x] = above.get(x, 0)
            if lone >> x & 1:
                continue
            opts = options[x] = strict[x] & live & ~_column_of(cols, x)
            common = -1
            while opts:
                low = opts & -opts
                opts ^= low
                common &= above.get(low.bit_length() - 1, 0)
            if common > 0:
                before[x] = over | common
        order = _peel(before, live)
        if order is None:
            return True
        earlier: dict[int, int] = {}
        for x in order:  # everything that must go before x, through any chain
            mask = over = before[x]
            while over:
                low = over & -over
                over ^= low
                mask |= earlier[low.bit_length() - 1]
            earlier[x] = mask
            if x in options and not options[x] & ~mask:
                return True  # x goes with a partner, but every partner goes before x
        return False

    def _partners_ok(self, want: int, needs: list[int], live: int, usable: bool) -> bool:
        """Every card of ``want`` has a partner in ``live`` (rules ``pile-partners`` and ``pile-strict-needs``), Hall's condition
        holding. (Without a cell and with nothing buried, the model's own tables already
        checked this on the way here: :func:`pyramid_widget.solver.moves.dead_after`.)"""
        if starved_in(want, needs, live):
            return False
        return not self.sum13 or _counts_ok(self.model.rank_masks, want, needs, live, not usable)

    def _stuck_in_cells(self, cells: int, alive: int) -> int:
        """The cards in the cells that can never leave them (rule ``pile-stuck-cell``): no King that goes
        alone, and no partner left in play (a card leaves a cell only by removal)."""
        stuck = 0
        rest = cells & ~self.lone
        while rest:
            low = rest & -rest
            rest ^= low
            if not self.loose[low.bit_length() - 1] & alive:
                stuck |= low
        return stuck

    def _cell_usable(self, cells: int, stuck: int) -> bool:
        """A card may still step into a cell some time: unless every cell holds a card that
        can never leave it (``stuck``, from :meth:`_stuck_in_cells`). (With several cells
        this once looked at one cell card only, and called a position lost when another
        cell was empty: issue 14.)"""
        return cells.bit_count() < self.cell_count or stuck != cells

    def _buried(self, cols: list[int], waste: int, stuck: int, alive: int, usable: bool) -> int:
        """The cards that can never be available again, on the last pass: without a usable
        cell, a pile card that can never be removed and every card under it (rule ``pile-burial``); with
        cells, everything from the card after the first ``cells`` such cards of a pile down
        (rule ``pile-burial-cell``). ``-1`` when a
        card that must go is among them."""
        gone = stuck  # cards in a cell for good (with one cell: only when it is not usable)
        if not cols:
            return gone
        if usable and self.sum13:
            return self._buried_usable(cols, waste, alive)
        changed = True
        while changed:
            changed = False
            live = alive & ~gone
            for col in cols:
                more = self._stuck_from(col, waste, live, usable)
                if more:
                    gone |= more
                    changed = True
        if gone & self.required:
            return -1
        return gone

    def _buried_usable(self, cols: list[int], waste: int, alive: int) -> int:
        """:meth:`_buried` with a usable cell under sum-13 pairing, a pile at a time with
        masks: a card has no partner left exactly when no card of the partner rank is live
        (Kings that go alone aside), so the cards :meth:`_stuck_from` looks for are the live
        cards of such ranks; in each pile every stock one counts as gone, and everything
        from the second waste one down stays."""
        gone = 0
        lone, cells = self.lone, self.cell_count
        while True:
            live = alive & ~gone
            lonely = 0
            for mine, mates in self.mate_ranks:
                if not mates & live:
                    lonely |= mine
            lonely &= live & ~lone
            if not lonely:
                break
            more = gone
            for col in cols:
                stuck = col & lonely
                if not stuck:
                    continue
                more |= stuck & ~waste
                low = stuck & waste
                if low.bit_count() > cells:
                    for _ in range(cells):  # the first ones may step into the cells
                        low ^= 1 << (low.bit_length() - 1)
                    more |= col & live & ((1 << low.bit_length()) - 1)
            if more == gone:
                break
            gone = more
        if gone & self.required:
            return -1
        return gone

    def _stuck_from(self, col: int, waste: int, live: int, usable: bool) -> int:
        """The live cards of pile ``col`` that can never leave it (see :meth:`_buried`).

        A stock card that can never be removed buries nothing yet: the cards under it may
        go before it is drawn. It is nobody's partner either, so it counts as gone."""
        needs, lone = (self.loose, self.lone) if usable else (self.strict, self.lone)
        rest = col & live
        escapes = self.cell_count if usable else 0  # such cards that may still leave
        out = 0
        while rest:
            top = rest.bit_length() - 1
            bit = 1 << top
            if not lone & bit and not needs[top] & live & ~(0 if usable else col):
                if not waste & bit:
                    out |= bit
                elif not escapes:
                    return out | rest  # never removed: it and everything under it stay
                else:
                    escapes -= 1  # the first ones may still step into the cells
            rest ^= bit
        return out

    def _columns(self, state: State) -> list[int]:
        """On the last pass: per waste pile, the slots that are or will be on it (pile cards
        and, when the stock top is not available, the stock cards that will land on it)."""
        board, lo, piles, _, pno, _ = state
        flags = self.model.flags
        if flags.passes is None or pno < flags.passes or flags.piles < 2:
            return []
        cols = list(piles)
        if not flags.stock_top:
            stock = board >> lo << lo
            lands = self.stock_cols.get(stock)
            if lands is None:
                lands = self.stock_cols[stock] = _landing(stock, flags.draw, flags.piles)
            for i, more in enumerate(lands):
                cols[i] |= more
        return cols

    def _free_ok(self, state: State, live: int, usable: bool) -> bool:
        """The free-stock relaxation with the deck cards still live."""
        board, cells = state[0], state[3]
        pyr = (board | cells) & PYRAMID_ALL
        if not pyr & self.required:
            return True
        parked = cells & live  # a stuck cell card is gone: the cell is then blocked
        if parked.bit_count() > 1 or (usable and not self.one_cell):
            return True  # the free-stock game has one cell (rule ``pile-free-stock``)
        return self.free.wins(pyr & ~parked | live & self.deck & ~parked, parked, usable)


def strict_needs(model: Model, slot: int) -> int:
    """The partners of ``slot`` it could meet if no card ever went to a cell (the no-cell
    :func:`~pyramid_widget.solver.model.needs_mask`; a card parked in the cell at the root is
    nobody's partner then: the cell is stuck). Pile order is checked per position
    (``_buried``)."""
    return needs_mask(model, slot, cell=False)


def _uses(move: tuple[int, ...]) -> int:
    """The cards a compact move takes or parks (none for a draw or a redeal)."""
    kind = move[0]
    if kind == PAIR:
        return 1 << move[1] | 1 << move[2]
    if kind in (KING_ALONE, CELL):
        return 1 << move[1]
    return 0


def _landing(stock: int, draw: int, piles: int) -> tuple[int, ...]:
    """Per waste pile, the stock cards of ``stock`` that will land on it (the ``j``-th
    stock card, next one first, lands on pile ``(j % draw) % piles``)."""
    cols = [0] * piles
    j = 0
    while stock:
        low = stock & -stock
        stock ^= low
        cols[(j % draw) % piles] |= low
        j += 1
    return tuple(cols)


def _mate_ranks(model: Model) -> list[tuple[int, int]]:
    """``(cards of rank r, cards of rank 13 - r)`` for each rank ``r`` with cards (sum-13
    pairing; a King's partner rank 0 holds no card)."""
    masks = model.rank_masks
    return [(masks[r], masks[13 - r] if r < 13 else 0) for r in range(1, 14) if masks[r]]


def _union(piles: tuple[int, ...]) -> int:
    out = 0
    for pile in piles:
        out |= pile
    return out


def _above(chains: list[int], cols: list[int], waste: int, live: int) -> dict[int, int]:
    """Per live slot, the live cards covering it now: pyramid covering through a chain of
    cards (:attr:`Model.chains <pyramid_widget.solver.model.Model.chains>`), and on a waste pile
    the cards higher up (a stock card covers nothing yet: what it will land on may go
    first; ``cols`` as :meth:`PileCheck._columns`)."""
    above: dict[int, int] = {}
    rest = live & PYRAMID_ALL
    while rest:
        low = rest & -rest
        rest ^= low
        slot = low.bit_length() - 1
        above[slot] = chains[slot] & live
    for col in cols:
        rest = col & live & waste
        while rest:
            low = rest & -rest
            rest ^= low
            above[low.bit_length() - 1] = rest  # the higher cards of the pile
    return above


def _column_of(cols: list[int], slot: int) -> int:
    for col in cols:
        if col >> slot & 1:
            return col
    return 0


def _peel(before: dict[int, int], live: int) -> list[int] | None:
    """An order of the cards of ``live`` in which each comes after its ``before`` set, or
    ``None`` when there is a cycle: peel off the cards with nothing left before them until
    none is left or none can go."""
    left = live
    order: list[int] = []
    slots = sorted(before, reverse=True)  # covering cards have higher slots: few sweeps
    while left:
        start = left
        for x in slots:
            if left >> x & 1 and not before[x] & left:
                left ^= 1 << x
                order.append(x)
        if left == start:
            return None
    return order


def _counts_ok(rank_masks: list[int], want: int, needs: list[int], live: int, match: bool) -> bool:
    """Hall's condition per rank class: the cards of ``want`` of rank ``x`` each need their
    own partner of rank ``13 - x`` in ``live`` (a matching; with ``match`` false, ``needs``
    holds every partner and counting is enough)."""
    for x in range(1, 13):
        mine = want & rank_masks[x]
        if not mine:
            continue
        if mine.bit_count() > (live & rank_masks[13 - x]).bit_count():
            return False
        if match and not matching(mine, needs, live):
            return False
    return True
