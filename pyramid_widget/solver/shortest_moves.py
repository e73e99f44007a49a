"""Shortest mode move by move (several waste piles, the cell, any rule set without macro
moves): A* on engine moves with the dead-position tests of :mod:`pyramid_widget.solver.prune.piles`
and a bound that counts the removals and the draws still needed.

>>> from pyramid_widget.engine.game import Game
>>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"], stock=["2D", "3C", "4S", "8C"])
>>> [str(m) for m in a_star(Model.from_game(g).for_shortest(), Budget(None, None)).line]
['draw', 'draw', '5H+8C']
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from pyramid_widget.engine.moves import Move
from pyramid_widget.solver.bounds import PairTable
from pyramid_widget.solver.model import (
    CELL,
    PYRAMID_ALL,
    Model,
    State,
    StepMove,
    Successors,
    matched,
    slots_of,
)
from pyramid_widget.solver.prune import piles
from pyramid_widget.solver.prune.endgame import EmptyStock
from pyramid_widget.solver.search import CHECK_EVERY, Budget, OutOfBudget, Result, lower_bound
from pyramid_widget.solver.shortest_macro import OWN, STEP, Tables

Digs = tuple[
    list[int], list[tuple[int, int]] | None, dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]
]
""":meth:`PileDig.tables`' answer."""

LOST = 1 << 20
"""A bound for positions the counting proves lost (not enough partners left)."""

CHEAP, FLOORED, BOUNDED, DONE = range(4)
"""How far :func:`a_star` has looked at a queued position: only the quick part of its bound
(where :class:`PileDig` does not apply); the quick part and ``D`` (:meth:`MoveBound.floor`),
not yet the dig-or-deal count; the whole bound, but not the dead-end tests; both."""


def a_star(model: Model, budget: Budget, ceiling: int | None = None) -> Result:
    """Find a winning line with the fewest moves (every move counts one), or prove none.

    A* ranked by :class:`MoveBound`, taken lazily (a position is queued with its quick part,
    :meth:`MoveBound.cheap`, and gets the rest when it comes off the queue, going back in if
    that raises it; the dead-end tests wait till it comes off at its whole bound: ``egypt``
    deal 74 sent 154,153 positions back, and 91,350 of them never came off again; where
    :class:`PileDig` applies, a position is queued with ``D`` added to the quick part
    (:meth:`MoveBound.floor`, kept per pyramid like the removal count, so it costs a read),
    and the dig-or-deal count, never less than ``D``, waits till it comes off: ``egypt``
    deal 74 expands the same 39,134 positions with 85,527 fewer trips through the queue
    than when ``D`` too waited. A child whose queued estimate is no more than the level
    being expanded will come off before the search ends, unless a win comes off first at
    that very level, so it gets the whole bound at once, saving that trip: deal 74, 28.8 G
    instructions against 29.9 G, one position fewer through a tie): the
    moves that must still remove (or park) cards,
    :func:`pyramid_moves` where it applies, else
    :func:`~pyramid_widget.solver.search.lower_bound`, plus :func:`deal_bound` (draws), plus
    the moves spent digging partners out of the waste piles (:class:`PileDig`) or lost to
    pairs of different rank classes that rule each other out, ties broken towards deeper
    nodes. The sum is admissible but
    not consistent (a removal can drop the draws still needed by several), so a position
    reached again more cheaply is searched again; the first win taken off the queue is then
    a shortest one. Where :mod:`pyramid_widget.solver.prune.piles` applies (several piles or a
    cell), positions it proves lost are dropped (no win, so no shortest win, is lost) and a
    forced pair is the only move tried (rule ``pile-forced-pair``: the line gets no longer); with one pass
    and a cell, a cell move is taken only together with a next move that uses what it freed
    (rule ``cell-follow-up``, which also keeps a line no longer), as one step of two moves.
    Positions of the last pass that differ only in which card of a rank lies where are kept
    once, by :class:`RankKey` (rule ``rank-order``): ``egypt`` deals 16 and 25 expanded
    129,827 and 191,557 positions without it, 68,447 and 92,876 with it. Where rule
    ``empty-stock`` applies (:class:`~pyramid_widget.solver.prune.endgame.EmptyStock`), a
    position with the stock dealt out is first searched depth first for a win within its
    level (``f - g`` moves); if there is none it goes back in the queue at the bound that
    search found, or is dropped when it cannot be won at all (``egypt`` deals 114 and 16:
    828,129 and 68,447 positions expanded without it, 136,342 and 24,661 with it). ``ceiling``
    (the length of a known winning line) lets the search drop nodes that cannot beat it.
    """
    if budget.node_limit < 1:
        return Result(None, [], 0)
    root = model.root
    if model.is_win(root):
        return Result(True, [], 1)
    tests = piles.select(model)
    dead, expand, fuse = tests.dead, tests.expand, tests.follow_ups
    if model.is_dead(root) or dead(root):
        return Result(False, [], 1)
    bound = MoveBound(model)
    floor, split = bound.floor, bound.dig is not None
    queued = FLOORED if split else CHEAP
    key = RankKey(model).key
    endgame = EmptyStock(model, bound.settled).within if EmptyStock.applies(model) else None
    parent: dict[State, tuple[State, StepMove] | None] = {root: None}
    depth = {key(root): 0}
    counter = 0
    heap = [(bound(root), 0, counter, root, DONE, key(root))]
    nodes = 0
    node_limit = budget.node_limit
    limit = ceiling if ceiling is not None else 1 << 30
    try:
        while heap:
            f, negg, _, state, stage, mark = heapq.heappop(heap)
            g = -negg
            if depth.get(mark, g) < g:
                continue
            if stage < BOUNDED:  # queued with a part of the bound: the rest now (lazy A*)
                least = floor(state) if stage == FLOORED else 0
                more = bound.extra(state, f - g - least) - least
                if more:  # back in the queue; the dead-end tests wait till it comes off again
                    if f + more <= limit:
                        counter += 1
                        heapq.heappush(heap, (f + more, negg, counter, state, BOUNDED, mark))
                    continue
                stage = BOUNDED
            if stage == BOUNDED and dead(state):
                continue
            if endgame is not None and not state[0] >> state[1]:
                need = endgame(state, f - g)  # rule empty-stock
                if need > f - g:  # no win within this level: back at the bound it found
                    if g + need <= limit:
                        counter += 1
                        heapq.heappush(heap, (g + need, negg, counter, state, DONE, mark))
                    continue
            if nodes >= node_limit:
                raise OutOfBudget
            nodes += 1
            if model.is_win(state):
                return Result(True, _line(model, parent, state), nodes)
            if not nodes % CHECK_EVERY:
                budget.check_time()
            steps = expand(state)
            if fuse is not None:
                steps = _fused(steps, state, fuse)
            level = f  # a child no higher comes off anyway: its whole bound now
            for move, nxt in steps:
                ng = g + len(move) // 3
                nmark = key(nxt)
                if depth.get(nmark, limit + 1) <= ng:
                    continue
                cheap = bound.cheap(nxt)
                least = floor(nxt) if split else 0
                f = ng + cheap + least
                stage = queued
                if f <= level:
                    f += bound.extra(nxt, cheap) - least
                    stage = BOUNDED
                if f > limit:
                    continue
                depth[nmark] = ng
                parent[nxt] = (state, move)
                counter += 1
                heapq.heappush(heap, (f, -ng, counter, nxt, stage, nmark))
    except OutOfBudget:
        return Result(None, [], nodes)
    return Result(False, [], nodes)


class RankKey:
    """Rule ``rank-order`` for the move-by-move search: positions of the last pass that
    differ only in which card of a rank lies where are searched as one.

    Soundness. Whether two cards pair, whether a King goes alone and when the game is won
    depend on ranks alone under every pairing of the classic model, never on suits. In the
    last pass no redeal comes, so what a position can do depends on the pyramid cards (by
    slot), the ranks in each waste pile from the bottom up, the ranks in the stock in the
    order they will be dealt (the ``j``-th lands on a pile by ``j`` alone), the cards in the
    cells (pyramid ones by slot, deck ones by rank) and the stall flag. Two positions alike
    in all of these are one game up to renaming cards of one rank: each move of one is a
    move of the other, one is won exactly when the other is, and their fewest moves to a
    win are equal, so the search keeps the cheaper one. (With a redeal left the next pass
    deals the deck cards left in slot order, across the piles, so the key is then the
    position itself; so it is too where every card must go, where it merged almost
    nothing.) Lines are kept per position, so nothing needs renaming.

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("egypt", pyramid=[None] * 26 + ["5H", "5S"],
    ...                        wastes=[["TC", "8C"], [], []], stock=["8D"])
    >>> model = Model.from_game(g)
    >>> board, lo, piles, cells, pno, flag = model.root  # TC in slot 28, 8C 29, 8D 30
    >>> left = board & ~(1 << 26) & ~(1 << 30)  # 5H+8C, then the 8D dealt onto the TC
    >>> a = (left | 1 << 30) & ~(1 << 29), 31, (1 << 28 | 1 << 30, 0, 0), cells, pno, flag
    >>> b = left | 1 << 29, 31, (1 << 28 | 1 << 29, 0, 0), cells, pno, flag  # dealt, 5H+8D
    >>> key = RankKey(model).key
    >>> a != b and key(a) == key(b)
    True
    """

    def __init__(self, model: Model) -> None:
        self.ranks = model.ranks
        self.codes: dict[int, int] = {0: 0}
        """:meth:`code` per mask."""
        self.pieces: dict[int, tuple[int, int]] = {}
        """:meth:`piece` per mask."""
        self.passes = model.rules.passes if model.rules.win == "pyramid" else None
        """The last pass's number, or ``None`` where the key is always the position: also
        where every card must go (``apophis``: 101 fewer positions of 5.6 million over
        deals 0-199, for 7% more time)."""
        self.multi = model.flags.piles > 1

    def code(self, mask: int) -> int:
        """The ranks of the cards of ``mask`` in slot order, four bits each (ranks are 1 to
        13, so no two sequences share a code)."""
        hit = self.codes.get(mask)
        if hit is None:
            hit = 0
            ranks = self.ranks
            rest = mask
            while rest:
                low = rest & -rest
                rest ^= low
                hit = hit << 4 | ranks[low.bit_length() - 1]
            self.codes[mask] = hit
        return hit

    def piece(self, mask: int) -> tuple[int, int]:
        """``(width, bits)``: the cards of ``mask`` as :meth:`key` packs them, their number
        in six bits and then their :meth:`code` (``width`` bits in all), kept per mask.

        >>> from pyramid_widget.engine.game import Game
        >>> key = RankKey(Model.from_game(Game("egypt", deal=3)))
        >>> key.piece(0), key.piece(0b11) == (14, 2 << 8 | key.code(0b11))
        ((6, 0), True)
        """
        hit = self.pieces.get(mask)
        if hit is None:
            count = mask.bit_count()
            hit = self.pieces[mask] = (6 + 4 * count, count << 4 * count | self.code(mask))
        return hit

    def key(self, state: State) -> object:
        """The key :func:`a_star` keeps positions by: ``state`` itself while a redeal is
        left, else the ranks as above, packed in one number (a leading 1, the pyramid
        cards, the pyramid cards in the cells, the stall flag, then per waste pile, the
        stock and the deck cards in the cells the number of cards in six bits and their
        :meth:`code`): a tuple of the parts took a third more memory a position."""
        board, lo, piles, cells, pno, flag = state
        if self.passes is None or pno < self.passes:
            return state
        pieces = self.pieces
        stock = board >> lo << lo
        mark = ((1 << 28 | board & PYRAMID_ALL) << 28 | cells & PYRAMID_ALL) << 1 | flag
        for part in (
            (*piles, stock, cells & ~PYRAMID_ALL)
            if self.multi
            else (board & ~PYRAMID_ALL & ~stock, stock, cells & ~PYRAMID_ALL)
        ):
            hit = pieces.get(part)  # (self.piece(part), read inline: most calls)
            if hit is None:
                hit = self.piece(part)
            mark = mark << hit[0] | hit[1]
        return mark


def deal_bound(
    model: Model, state: State, cache: dict[int, list[tuple[int, int]]] | None = None
) -> int:
    """Draws still needed, at least, where no stock card is ever available (it is played
    only once dealt onto a waste pile), so a draw is the only way a stock card comes out.
    Precondition: the stock top is not available (no stock zone pairs and the rule set's
    ``stock_top_available`` is off: else a King there can leave alone undealt; answer 0).

    A card that must still go and whose every partner left in play (anywhere, the cell
    included) lies in the stock cannot go before one of them is dealt, and all the cards
    must be dealt when every card must go. Counting does better under sum-13 pairing with
    a pyramid-only win: in a rank class {r, 13 - r} with ``a`` and ``b`` pyramid cards (in
    place or in the cell) of which at most ``M`` pairs can ever meet (a matching over
    ``Model.needs``), a win pairs at least ``a - M`` of the rank-``r`` ones with deck cards
    of rank ``13 - r``, distinct ones; if ``w`` of those are out of the stock already (in a
    pile or the cell), the ``(a - M - w)``-th one in the stock must be dealt. That finds
    every card the first test does, so under sum-13 pairing only the counting runs: such a
    card of rank ``r`` meets no pyramid card left, so every matching leaves it out
    (``a - M >= 1``), and every deck card of rank ``13 - r`` is a partner it could meet,
    so none lies outside the stock (``w = 0``) and the first of them in the stock must be
    dealt. Dealing the stock card in slot ``j`` deals every
    stock card before it first, ``draw_count`` to a draw, so it takes
    ``ceil(k / draw_count)`` draws, ``k`` being the stock cards up to ``j``; all of them in
    this pass, since the stock is redealt only once it is empty. A draw removes no card, so
    this adds to :func:`lower_bound` and the sum stays admissible.

    >>> from pyramid_widget.engine.game import Game
    >>> stock = ["2D", "3C", "4S", "9C", "8C"]
    >>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"], stock=stock)
    >>> m = Model.from_game(g)
    >>> deal_bound(m, m.root), lower_bound(m, m.root)
    (2, 1)

    When every card must go, that is every stock card: the answer is
    ``ceil(stock cards / draw_count)`` at once (the per-card loop can add nothing; this
    shortcut is most of this function's cost under ``apophis``).

    ``cache`` keeps, per set of pyramid cards, the deck cards they need: ``(the cards of a
    rank, how many of them)``.
    """
    flags = model.flags
    if flags.stock_top or flags.pyramid_stock or flags.stock_waste or flags.cell_stock:
        return 0
    board, lo = state[0], state[1]
    stock = board >> lo << lo
    if not stock:
        return 0
    if model.rules.win != "pyramid":  # every stock card must go, so must be dealt
        return -(-stock.bit_count() // model.rules.draw_count)
    if model.rules.pairing == "sum13":  # the counting finds every card the loop below would
        reach = _counted_reach(model, state, stock, cache)
        if reach < 0:
            return LOST
    else:
        alive = board | state[3]
        needs = model.needs
        reach = 0  # the furthest stock slot that must be dealt, plus one
        check = alive & PYRAMID_ALL & ~model.flags.lone_kings & ~stock
        while check:
            low = check & -check
            check ^= low
            mates = needs[low.bit_length() - 1] & alive
            if mates and not mates & ~stock:
                first = mates & -mates
                reach = max(reach, first.bit_length())
    if not reach:
        return 0
    dealt = (stock & ((1 << reach) - 1)).bit_count()
    return -(-dealt // model.rules.draw_count)


def _counted_reach(
    model: Model, state: State, stock: int, cache: dict[int, list[tuple[int, int]]] | None
) -> int:
    """The furthest stock slot (plus one) the counting of :func:`deal_bound` must deal, or
    ``-1`` when the stock does not hold enough partners."""
    alive = state[0] | state[3]
    pyramid = alive & PYRAMID_ALL
    wanted = cache.get(pyramid) if cache is not None else None
    if wanted is None:
        wanted = []
        masks, needs = model.rank_masks, model.needs
        for r in range(1, 7):
            low_side, high_side = pyramid & masks[r], pyramid & masks[13 - r]
            pairs = matched(low_side, needs, high_side) if low_side and high_side else 0
            if low_side.bit_count() > pairs:
                wanted.append((masks[13 - r], low_side.bit_count() - pairs))
            if high_side.bit_count() > pairs:
                wanted.append((masks[r], high_side.bit_count() - pairs))
        if cache is not None:
            cache[pyramid] = wanted
    reach = 0
    out = alive & ~(PYRAMID_ALL | stock)
    for rank, count in wanted:
        count -= (out & rank).bit_count()
        if count <= 0:
            continue
        left = stock & rank
        for _ in range(count - 1):  # the count-th of them in stock order
            left &= left - 1
        if not left:
            return -1
        here = (left & -left).bit_length()
        if here > reach:
            reach = here
    return reach


def pyramid_moves(
    model: Model,
    state: State,
    cache: dict[tuple[int, int], int],
    pairs: Callable[[int, int], list[int]] | None = None,
) -> int:
    """Moves still needed to take the pyramid cards away (sum-13 pairing, pyramid-only win),
    at least: per rank class {r, 13 - r} holding ``a`` and ``b`` of them, ``a + b - M``,
    where ``M`` is the largest matching of pairs of them that can meet with no more cell
    moves (neither covers the other, or one is in the cell already); Kings one each.

    Argument. Each of these cards leaves in a removal. A removal taking two of them is a
    pair of the class; if one covers the other through a chain of cards
    (:attr:`Model.related <pyramid_widget.solver.model.Model.related>`: the cards between
    them stay while the lower one is in the pyramid) and neither is in the cell yet, one of them
    must first move to the cell, a move of its own, which no other pair can share. So the
    moves that take the class away number at least its cards minus the pairs that need no
    such move, and those pairs form a matching of the graph above: at most ``M``. Moves
    of different classes differ (a pair is of one class, a cell move moves one card), and
    draws remove nothing, so this adds to :func:`deal_bound`. It is at least
    :func:`~pyramid_widget.solver.search.lower_bound` (``M <= min(a, b)``). ``cache`` maps
    ``(pyramid cards in place, pyramid cards in the cell)`` to the answer.

    ``pairs(placed, parked)`` gives ``M`` per class (default: :func:`free_pairs` without
    a clearing order). With an order (a :class:`~pyramid_widget.solver.bounds.PairTable`
    over the rank classes, as :class:`MoveBound`'s :class:`ClassPairs` has), ``M`` is also at most the most pairs of the class that some clearing order of
    the pyramid cards in place can make, plus one per card of the class in the cell: a pair
    made with no cell move takes two cards uncovered at the same moment (or one already in
    the cell, which is in at most one pair), and a card stepping into the cell leaves the
    pyramid like a card taken alone (see :func:`free_pairs`).

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("egypt", pyramid=[None] * 25 + ["8H", "5C", "8C"], stock=["AD"])
    >>> pyramid_moves(Model.from_game(g), Model.from_game(g).root, {})
    2
    """
    placed, parked = state[0] & PYRAMID_ALL, state[3] & PYRAMID_ALL
    key = (placed, parked)
    found = cache.get(key)
    if found is not None:
        return found
    masks = model.rank_masks
    both = placed | parked
    total = (both & masks[13]).bit_count()
    per_class = pairs(placed, parked) if pairs is not None else free_pairs(model, placed, parked)
    for r, made in enumerate(per_class):
        if r:
            total += (both & masks[r]).bit_count() + (both & masks[13 - r]).bit_count() - made
    cache[key] = total
    return total


def free_pairs(model: Model, placed: int, parked: int, order: PairTable | None = None) -> list[int]:
    """Per rank ``r`` of 1..6 (index ``r``; index 0 unused), the largest number of pairs of
    rank class {r, 13 - r} among the pyramid cards ``placed`` and those ``parked`` in the
    cell that can meet with no more cell moves (:func:`pyramid_moves`' ``M``), capped by
    ``order`` when given (see there).

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("egypt", pyramid=[None] * 25 + ["8H", "5C", "8C"], stock=["AD"])
    >>> free_pairs(Model.from_game(g), 0b111 << 25, 0)[5]
    1
    """
    flags, masks = model.flags, model.rank_masks
    both = placed | parked
    edges = [0] * PYRAMID_ALL.bit_length()
    partners, related = model.partners, model.related
    rest = both & ~masks[13]
    while rest:
        low = rest & -rest
        rest ^= low
        q = low.bit_length() - 1
        mates = partners[q] & both
        if low & parked:
            edges[q] = mates & (
                (placed if flags.cell_pyramid else 0) | (parked if flags.cell_cell else 0)
            )
        else:
            free = (placed & ~related[q] if flags.pyramid_pyramid else 0) | (
                parked if flags.cell_pyramid else 0
            )
            edges[q] = mates & free
    out = [0] * 7
    for r in range(1, 7):
        low_side, high_side = both & masks[r], both & masks[13 - r]
        if not (low_side and high_side):
            continue
        pairs = matched(low_side, edges, high_side)
        if order is not None and pairs:
            ordered = order.best(placed & (low_side | high_side))
            ordered += (parked & (low_side | high_side)).bit_count()
            pairs = min(pairs, ordered)
        out[r] = pairs
    return out


class ClassPairs:
    """:func:`free_pairs` of one model with a clearing-order cap (or none), remembered per
    pyramid: :class:`MoveBound`'s removal count, its ``D`` and :class:`PileDig`'s allowance
    all ask it. (An object of its own, not a method of the bound: :class:`PileDig` keeps
    it, and a bound method would make a reference cycle, left for the garbage collector,
    which the searches hold off.)

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("egypt", pyramid=[None] * 25 + ["8H", "5C", "8C"], stock=["AD"])
    >>> ClassPairs(Model.from_game(g))(0b111 << 25, 0)[5]
    1
    """

    def __init__(self, model: Model, order: PairTable | None = None) -> None:
        self.model = model
        self.order = order
        self.cache: dict[tuple[int, int], list[int]] = {}

    def __call__(self, placed: int, parked: int) -> list[int]:
        """``M`` per rank class for the pyramid cards in place and in the cell."""
        key = (placed, parked)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = free_pairs(self.model, placed, parked, self.order)
        return hit


class MoveBound:
    """The bound :func:`a_star` ranks positions by: ``bound(state)`` is the removals still
    needed (:func:`pyramid_moves` with the clearing-order cap under sum-13 pairing and a
    pyramid-only win, else :func:`~pyramid_widget.solver.search.lower_bound`), plus the
    draws still needed (:func:`deal_bound`), plus the dearer of two counts of further
    moves (rule ``bound-dig``): the moves that digging partners out of the waste piles
    costs (:class:`PileDig`, where it applies), and ``D``, the pairs the rank classes can
    make each on its own beyond the most pairs the whole pyramid can make in one clearing
    order (:class:`~pyramid_widget.solver.bounds.PairTable`, plus one per card in the cell).
    Where :class:`PileDig` applies, the draws and those further moves are also counted
    together (rule ``bound-dig-or-deal``, :meth:`PileDig.joint`): a partner deep in a pile
    costs moves and one late in the stock costs draws, so a card whose partners lie only
    there costs one or the other, which neither count sees alone. And a pile card under
    cards that no pyramid card can take costs ``D`` plus those cards (rule
    ``bound-dig-apart``, :meth:`PileDig.apart`): their moves take no pyramid card, and
    every move ``D`` counts takes one (``egypt`` deals 74, 25, 103 and 185: 52,192,
    91,945, 62,431 and 62,710 positions without it, 39,134, 73,223, 47,535 and 27,556
    with it).

    Argument for ``D``: with ``M_c`` the pairs the removal bound allows class ``c`` and
    ``x_c`` the pairs a line makes with no cell move, the line spends ``sum(M_c - x_c)``
    removals beyond the removal bound, and ``sum(x_c)`` is at most the joint count, so that
    is at least ``D``. :class:`PileDig` counts a part of the same moves (those removals and
    moves of deck cards), so the two are not added: the larger is taken. Draws are neither.

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "2D", "KS"]])
    >>> MoveBound(Model.from_game(g))(Model.from_game(g).root)  # 5H+8C after KS and 2D
    3
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        counted = model.rules.pairing == "sum13" and model.rules.win == "pyramid"
        self.order = PairTable(model, classes=True) if counted else None
        self.joint = PairTable(model, classes=False) if counted else None
        self.pairs = ClassPairs(model, self.order)
        self.dig = PileDig(model, self.pairs) if PileDig.applies(model) else None
        self.removal_cache: dict[tuple[int, int], int] = {}
        self.delta_cache: dict[tuple[int, int], int] = {}
        self.settled_cache: dict[tuple[int, int], int] = {}
        """:meth:`settled` per pyramid cards in place and in the cell (where ``D`` counts)."""
        self.wanted: dict[int, list[tuple[int, int]]] = {}
        """:func:`deal_bound`'s cache."""

    def removals(self, state: State) -> int:
        """The removals still needed."""
        if self.order is None:
            return lower_bound(self.model, state)
        hit = self.removal_cache.get((state[0] & PYRAMID_ALL, state[3] & PYRAMID_ALL))
        if hit is not None:  # (pyramid_moves' cache read inline: most calls)
            return hit
        return pyramid_moves(self.model, state, self.removal_cache, self.pairs)

    def delta(self, placed: int, parked: int) -> int:
        """``D`` for the pyramid cards in place and in the cell (see the class)."""
        key = (placed, parked)
        hit = self.delta_cache.get(key)
        if hit is None:
            assert self.joint is not None
            apart = sum(self.pairs(placed, parked))
            together = self.joint.pairs(placed) + parked.bit_count()
            hit = self.delta_cache[key] = max(0, apart - together)
        return hit

    def __call__(self, state: State) -> int:
        """The bound for ``state``: :meth:`cheap` plus :meth:`extra`."""
        return self.cheap(state) + self.extra(state)

    def cheap(self, state: State) -> int:
        """The removals and draws still needed (the quick part of the bound)."""
        hit = self.removal_cache.get((state[0] & PYRAMID_ALL, state[3] & PYRAMID_ALL))
        if hit is None:  # (:meth:`removals`' cache read inline: asked of every child)
            hit = self.removals(state)
        return hit + deal_bound(self.model, state, self.wanted)

    def settled(self, state: State) -> int:
        """The removals still needed plus ``D``: never more than the whole bound (with the
        stock dealt out and no redeal left, equal to it wherever :class:`PileDig`'s count
        is no more than ``D``), and read from the pyramid cards in place and in the cell
        alone, so rule ``empty-stock``'s search can ask it of any position it meets."""
        if self.order is None:
            return self.removals(state)
        key = (state[0] & PYRAMID_ALL, state[3] & PYRAMID_ALL)
        hit = self.settled_cache.get(key)
        if hit is None:  # both parts read these cards alone
            hit = self.settled_cache[key] = self.removals(state) + self.delta(*key)
        return hit

    def floor(self, state: State) -> int:
        """``D`` for ``state`` (0 where it is not counted): :meth:`extra` is never less."""
        key = (state[0] & PYRAMID_ALL, state[3] & PYRAMID_ALL)
        hit = self.delta_cache.get(key)
        if hit is None:  # (:meth:`delta`'s cache read inline: asked of most positions)
            return 0 if self.order is None else self.delta(*key)
        return hit

    def extra(self, state: State, cheap: int | None = None) -> int:
        """The dig-or-deal count of :meth:`PileDig.joint` where it applies, else ``D`` (0
        where neither does); ``cheap``: :meth:`cheap` of ``state`` if known (the search
        queued the position with it)."""
        if self.order is None:
            return 0
        extra = self.delta(state[0] & PYRAMID_ALL, state[3] & PYRAMID_ALL)
        if self.dig is not None:
            if cheap is None:
                cheap = self.cheap(state)
            return self.dig.joint(state, cheap - self.removals(state), extra)
        return extra


class PileDig:
    """Rule ``bound-dig``: the moves a line must spend digging its pyramid cards' partners
    out of the waste piles, beyond the removals and draws still needed (added to
    :func:`pyramid_moves` and :func:`deal_bound`; sum-13 pairing, a pyramid-only win, no
    redeal left, no waste pair).

    The argument. With no redeal left a waste pile only grows on top and loses its top
    card, and no move takes two cards of one pile (only its top is available, and the
    waste-pair rule, which pairs the top with the card beneath it, is excluded). So before a
    pile card ``d`` is played every card above it leaves, each in a move of its own: a
    removal with a pyramid card, a removal of deck cards only (a King alone, or two deck
    cards, at most one of them from this pile), or a move to the cell. Only the first kind
    is counted by :func:`pyramid_moves`, and only up to an *allowance*: in a rank class
    {r, 13 - r} with ``a`` and ``b`` pyramid cards (in place or in the cell) and ``M`` pairs
    of them that can meet with no cell move, a line making ``x`` such pairs spends
    ``a + b - x`` moves on them, ``M - x`` more than the removal bound, while it plays
    ``a - x - z`` deck cards of rank ``13 - r`` with them (``z`` pairs made with a cell
    move, each two moves for two cards): so every deck card of rank ``13 - r`` played with
    a pyramid card beyond ``a - M`` costs an extra move, and every pile card passed that is
    not played with a pyramid card costs one. That is the excess table of
    :func:`~pyramid_widget.solver.shortest_macro.extra_bound` (``OWN`` and ``STEP``),
    walked down each pile from its top: the cost of ``d`` counts the cards above it and
    ``d`` itself. Stock cards and a deck card in the cell cost nothing here (their draws are
    :func:`deal_bound`'s). Which deck cards must be played: a partner of each pyramid card
    with no pyramid partner left at all (its cheapest), and per rank class ``a - M'`` deck
    cards of rank ``13 - r``, ``M'`` the largest matching of the class's pyramid cards that
    may ever meet (a cell move lets a covering pair meet): the ``a - M'``-th cheapest. The
    bound adds the dearest of these, never more than the moves a winning line spends
    besides its draws and the removal bound's removals: those moves are distinct from both.

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "2D", "KS"]])
    >>> model = Model.from_game(g)
    >>> PileDig(model).extra(model.root)  # the King and the 2 leave first
    2
    """

    def __init__(self, model: Model, pairs: ClassPairs | None = None) -> None:
        self.model = model
        self.pairs = pairs if pairs is not None else ClassPairs(model)
        """``M`` per class for the allowance (:class:`MoveBound`'s, with the clearing-order
        cap; none by default)."""
        self.size = len(model.cards)
        """Slots in all: the deck's, then any card in the cell at the start."""
        self.passes = model.rules.passes
        self.ranks = model.ranks
        self.cache: dict[tuple[int, int], Digs] = {}
        """:meth:`tables` per pyramid cards in place and in the cell."""
        self.costs = [LOST] * self.size
        """Scratch for :meth:`extra` and :meth:`joint`: each call writes the slots it
        reads."""
        flags = model.flags
        self.dealt = not (
            flags.pyramid_stock or flags.stock_waste or flags.cell_stock or flags.stock_top
        )
        """Whether a stock card leaves the stock only by being dealt (as :func:`deal_bound`
        needs; else :meth:`joint` prices stock cards at nothing, as :meth:`extra` does)."""
        self.draw = model.rules.draw_count

    @staticmethod
    def applies(model: Model) -> bool:
        """Whether the rule set is one the argument holds for (see the class docs)."""
        rules = model.rules
        return (
            rules.pairing == "sum13"
            and rules.win == "pyramid"
            and rules.passes is not None
            and not rules.waste_pair
            and not rules.overlap_discards
        )

    def tables(self, placed: int, parked: int) -> Digs:
        """``(base, requirements, rows)`` for the pyramid cards in place and in the cell:
        the excess-table index per rank before any deck card is passed, the requirements
        ``(e, slots)`` (the ``e``-th cheapest of the deck cards ``slots`` must be played;
        :meth:`~pyramid_widget.solver.shortest_macro.Tables.kept`), ``None`` when one can
        never be met, the dig costs per pile met so far and the same raised by rule
        ``bound-dig-apart`` per pile and ``D`` (:meth:`walk` fills both)."""
        key = (placed, parked)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        model = self.model
        masks, needs = model.rank_masks, model.needs
        both = placed | parked
        deck = ((1 << self.size) - 1) & ~PYRAMID_ALL
        counts = [(both & m).bit_count() for m in masks]
        free = self.pairs(placed, parked)
        base = [0] * 14
        base[13] = counts[13] * 625  # Kings: no partner rank, each passed costs one
        wanted: list[tuple[int, int]] = []
        for r in range(1, 7):
            m = 13 - r
            base[r] = ((counts[r] * 5 + counts[m]) * 5 + free[r]) * 25
            base[m] = ((counts[m] * 5 + counts[r]) * 5 + free[r]) * 25
            low_side, high_side = both & masks[r], both & masks[m]
            meet = matched(low_side, needs, high_side) if low_side and high_side else 0
            if counts[r] > meet:
                wanted.append((counts[r] - meet, masks[m] & deck))
            if counts[m] > meet:
                wanted.append((counts[m] - meet, masks[r] & deck))
        rest = both & ~masks[13]
        while rest:
            low = rest & -rest
            rest ^= low
            mates = needs[low.bit_length() - 1]
            if not mates & both:
                wanted.append((1, mates & deck))
        hit = self.cache[key] = (base, Tables.kept(wanted), {}, {})
        return hit

    def extra(self, state: State, floor: int = 0) -> int:
        """The bound's value for ``state`` (0 while a redeal is left; :data:`LOST` when a
        requirement cannot be met); ``floor``: :class:`MoveBound`'s ``D`` for the
        position, which rule ``bound-dig-apart`` adds to the pile cards no pyramid card can
        take above a card (see :meth:`apart`)."""
        board, lo, piles, cells, pno = state[0], state[1], state[2], state[3], state[4]
        if self.passes is None or pno < self.passes:
            return 0
        digs = self.tables(board & PYRAMID_ALL, cells & PYRAMID_ALL)
        kept = digs[1]
        if kept is None:
            return LOST
        if not kept:
            return 0
        alive = board | cells
        todo = self.dug(kept, alive, board >> lo << lo | cells & ~PYRAMID_ALL)
        if todo is None:
            return LOST
        if not todo:
            return 0
        targets = 0
        for _, live in todo:
            targets |= live
        costs = self.walk(board, lo, piles, targets, digs, floor, cells & PYRAMID_ALL)
        return _dearest(costs, todo)

    @staticmethod
    def dug(kept: list[tuple[int, int]], alive: int, free: int) -> list[tuple[int, int]] | None:
        """The requirements ``kept`` (:meth:`tables`) left to the piles: ``(e, pile slots)``
        per requirement that the ``free`` cards in play (stock cards, a deck card in the
        cell, which cost nothing here) do not meet, the ``e``-th cheapest of those slots
        to be dug out; ``None`` when a requirement can never be met."""
        todo = []
        for e, slots in kept:
            live = slots & alive
            cheap = (live & free).bit_count()
            if cheap >= e:
                continue
            if live.bit_count() < e:
                return None
            todo.append((e - cheap, live & ~free))
        return todo

    def walk(
        self,
        board: int,
        lo: int,
        piles: object,
        targets: int,
        digs: Digs,
        floor: int = 0,
        parked: int = 0,
    ) -> list[int]:
        """The scratch list of costs, written for the pile cards of ``targets``, read from
        ``digs`` (:meth:`tables`' answer for the position), each pile's :meth:`row` kept
        there: the cost of a pile card depends only on the pile and the pyramid cards, and
        ``egypt`` deal 43 walked 129,552 piles of only 21,501 distinct ones per pyramid.
        With ``floor`` (``D``, from 1), each cost is at least ``floor`` plus the pile
        cards above the card that no pyramid card can take (rule ``bound-dig-apart``,
        :meth:`apart`; ``parked``: the pyramid cards in the cell), kept per pile and
        ``floor`` too."""
        costs = self.costs
        base, rows, lifted = digs[0], digs[2], digs[3]
        for pile in (
            piles if isinstance(piles, tuple) else (board & ~PYRAMID_ALL & ((1 << lo) - 1),)
        ):
            wanted = pile & targets
            if not wanted:
                continue
            row = rows.get(pile)
            if row is None:
                row = rows[pile] = self.row(pile, base)
            if floor:
                key = pile << 6 | floor  # (D is at most 14: the pairs of 28 cards)
                raised = lifted.get(key)
                if raised is None:
                    apart = self.apart(pile, board & PYRAMID_ALL | parked)
                    raised = lifted[key] = tuple(
                        c if c > floor + a else floor + a for c, a in zip(row, apart, strict=True)
                    )
                row = raised
            while wanted:
                low = wanted & -wanted
                wanted ^= low
                costs[low.bit_length() - 1] = row[(pile & (low - 1)).bit_count()]
        return costs

    def apart(self, pile: int, both: int) -> tuple[int, ...]:
        """For each card of ``pile``, bottom card first, how many cards above it no pyramid
        card of ``both`` (the pyramid cards in place and in the cell) can take: Kings, and
        cards none of whose partners is among them (rule ``bound-dig-apart``).

        The argument. Before a pile card ``d`` is played, every card above it leaves its
        pile, each in a move of its own (see the class). A card that no pyramid card can
        take, now or later (pyramid cards only leave), leaves alone as a King, with a deck
        card, or into the cell: a move that takes no pyramid card and is no draw. Every
        move that :class:`MoveBound`'s removal count and ``D`` count takes a pyramid card
        (its removal, or its step into the cell), so a line that plays ``d`` spends at
        least ``D`` plus this many moves beyond the removals and the draws:
        :meth:`walk` raises ``d``'s cost to that where it is more.

        >>> from pyramid_widget.engine.game import Game
        >>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"],
        ...                        wastes=[["8C", "KS", "8D", "JC"]])
        >>> dig = PileDig(Model.from_game(g))
        >>> # the KS and the JC: no pyramid card takes them (the 5H takes the 8D)
        >>> dig.apart(dig.model.root[2][0], 1 << 27)
        (2, 1, 1, 0)
        """
        partners = self.model.partners
        out = []
        rest = pile
        count = 0
        while rest:  # from the top down
            s = rest.bit_length() - 1
            rest ^= 1 << s
            out.append(count)
            if not partners[s] & both:
                count += 1
        return tuple(reversed(out))

    def row(self, pile: int, base: list[int]) -> tuple[int, ...]:
        """The dig cost of each card of ``pile``, bottom card first, the pile walked from
        its top down (see the class; ``base``: :meth:`tables`' first part).

        >>> from pyramid_widget.engine.game import Game
        >>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"],
        ...                        wastes=[["8C", "2D", "KS"]])
        >>> dig = PileDig(Model.from_game(g))
        >>> pile = dig.model.root[2][0]
        >>> dig.row(pile, dig.tables(dig.model.root[0] & PYRAMID_ALL, 0)[0])  # 8C 2D KS
        (2, 2, 1)
        """
        ranks = self.ranks
        out = []
        rest = pile
        at = base[:]
        total = 0
        while rest:
            s = rest.bit_length() - 1
            rest ^= 1 << s
            k = ranks[s]
            i = at[k]
            out.append(total + OWN[i])
            total += STEP[i]
            at[k] = i + 5
            at[13 - k] += 1
        return tuple(reversed(out))

    def joint(self, state: State, dealt: int, floor: int) -> int:
        """Rule ``bound-dig-or-deal``: the moves beyond the removal bound that a line from
        ``state`` spends on draws and on everything else together, given that it draws at
        least ``dealt`` times (:func:`deal_bound`) and spends at least ``floor`` other
        moves beyond the removals (:class:`MoveBound`'s ``D``); the answer less ``dealt``
        (so :class:`MoveBound` adds it where it added :meth:`extra`). Never below
        ``max(floor, extra)``; :data:`LOST` when a requirement cannot be met.

        The argument. :meth:`extra` prices only the pile cards and lets a stock card pass
        for free, and :func:`deal_bound` counts the draws to a stock card only when every
        partner of some card lies in the stock: a card whose partners lie deep in a pile
        or late in the stock costs nothing in either. Yet each deck card ``d`` that the
        line plays with a pyramid card costs in one of the two: if ``d`` lies in a pile
        now, at least its dig cost ``c`` of other moves (the class's argument, one card);
        if it lies in the stock, at least the ``ceil(k / draw_count)`` draws that deal
        it, ``k`` being the stock cards up to it (no stock card is available under these
        rules, so a draw is its only way out, and every card before it is dealt first;
        no redeal is left). With the other bounds on both kinds of move, the line's draws
        and other extra moves together number at least ``dealt + max(X, c)`` for a pile
        card and ``max(dealt, draws) + X`` for a stock card, ``X`` being ``max(floor,
        extra)``, and ``dealt + X`` for a deck card in the cell. A requirement ``(e,
        slots)`` (:meth:`tables`) has the line play ``e`` different cards of ``slots``,
        each worth at least its own figure, so the line spends at least the ``e``-th
        smallest of them; the dearest requirement is taken. With no stock card left (or
        where a stock card may leave without a draw, when a stock card's figure is ``X``
        too) that is ``max(floor, extra)``, and :meth:`extra` alone is asked.

        >>> from pyramid_widget.engine.game import Game
        >>> # 5H's partners: the 8C under a King and a 2 (two moves to dig) and the 8D,
        >>> # the fourth stock card (two draws of three)
        >>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"],
        ...                        wastes=[["8C", "2D", "KS"]], stock=["AS", "3C", "4D", "8D"])
        >>> model = Model.from_game(g)
        >>> dig = PileDig(model)
        >>> dig.extra(model.root), deal_bound(model, model.root), dig.joint(model.root, 0, 0)
        (0, 0, 2)
        """
        board, lo, piles, cells, pno = state[0], state[1], state[2], state[3], state[4]
        if self.passes is None or pno < self.passes:
            return floor
        stock = board >> lo << lo
        if not stock or not self.dealt:  # every figure is then the dig's or the floor
            extra = self.extra(state, floor)
            return extra if extra > floor else floor
        digs = self.tables(board & PYRAMID_ALL, cells & PYRAMID_ALL)
        kept = digs[1]
        if kept is None:
            return LOST
        if not kept:
            return floor
        alive = board | cells
        free = stock | cells & ~PYRAMID_ALL
        todo = self.dug(kept, alive, free)
        if todo is None:
            return LOST
        targets = 0
        for _, slots in kept:
            targets |= slots & alive
        costs = self.walk(board, lo, piles, targets, digs, floor, cells & PYRAMID_ALL)
        worst = _dearest(costs, todo)  # :meth:`extra`'s answer, with rule bound-dig-apart
        x = worst if worst > floor else floor
        # the joint figures, less ``dealt``: a pile card max(x, its dig), a stock card x
        # plus its draws beyond ``dealt``, a deck card in the cell x. A pile card keeps its
        # dig cost here: ``_dearest``'s floor ``x`` takes the larger of ``x`` and each
        # requirement's ``e``-th smallest, which is the ``e``-th smallest of the figures
        # max(x, cost) (raising every value to ``x`` keeps their order), so only the other
        # targets are written (2.1 of 7.6 a call on ``egypt`` deal 43)
        draw = self.draw
        rest = targets & free
        while rest:
            low = rest & -rest
            rest ^= low
            if low & stock:
                over = -(-((stock & (low - 1)).bit_count() + 1) // draw) - dealt
                costs[low.bit_length() - 1] = x + over if over > 0 else x
            else:
                costs[low.bit_length() - 1] = x
        return _dearest(costs, kept, x, alive)


def _dearest(costs: list[int], todo: list[tuple[int, int]], floor: int = 0, alive: int = -1) -> int:
    """The largest of ``floor`` and, over ``todo``'s ``(e, slots)``, the ``e``-th smallest of
    ``costs`` over the slots of ``slots & alive`` (:data:`LOST` when there are fewer).

    >>> _dearest([5, 1, 3, 9], [(1, 0b0101), (2, 0b1011)], alive=0b0111)  # 3, then 5
    5
    >>> _dearest([5, 1, 3, 9], [(1, 0b0101)], floor=4), _dearest([5, 1], [(3, 0b11)])
    (4, 1048576)
    >>> _dearest([5, 1, 3, 9], [(2, 0b0110)]), _dearest([5, 1, 3, 9], [(3, 0b1110)])  # 1 3; 1 3 9
    (3, 9)
    """
    worst = floor
    for e, slots in todo:
        slots &= alive
        if e == 1:  # the cheapest, as a bit loop (the bound's hot path)
            c = LOST
            while slots:
                low = slots & -slots
                slots ^= low
                here = costs[low.bit_length() - 1]
                if here < c:
                    c = here
                    if c <= worst:  # this one cannot raise the answer
                        break
        else:
            n = slots.bit_count()
            if n < e:
                c = LOST
            elif n == e:  # every one of them is played: the dearest (most of these calls)
                c = 0
                while slots:
                    low = slots & -slots
                    slots ^= low
                    here = costs[low.bit_length() - 1]
                    if here > c:
                        c = here
            else:
                c = sorted([costs[s] for s in slots_of(slots)])[e - 1]
        if c > worst:
            worst = c
    return worst


def _removal_bound(model: Model) -> Callable[[State], int]:
    """:meth:`MoveBound.removals` of a fresh bound."""
    return MoveBound(model).removals


def _fused(
    steps: Successors, state: State, fuse: Callable[[State, State], Successors]
) -> Successors:
    """The steps of ``state``, each cell move replaced by its follow-ups as two-move steps
    (rule ``cell-follow-up``), the others as they are (one call a position, not one a step:
    ``egypt`` deal 74 made 244,828 calls for 52,192 positions)."""
    out: Successors = []
    for step in steps:
        move = step[0]
        if move[0] == CELL and len(move) == 3:
            out += fuse(state, step[1])
        else:
            out.append(step)
    return out


def _line(
    model: Model, parent: dict[State, tuple[State, StepMove] | None], state: State
) -> list[Move]:
    moves: list[StepMove] = []
    step = parent[state]
    while step is not None:
        state, move = step
        moves.extend(move[i : i + 3] for i in range(len(move) - 3, -1, -3))
        step = parent[state]
    return [model.to_move(m) for m in reversed(moves)]
