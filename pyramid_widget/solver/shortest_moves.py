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
from pyramid_widget.solver.model import CELL, PYRAMID_ALL, Model, State, matched
from pyramid_widget.solver.prune import piles
from pyramid_widget.solver.search import CHECK_EVERY, Budget, OutOfBudget, Result, lower_bound

StepMove = tuple[int, ...]

LOST = 1 << 20
"""A bound for positions the counting proves lost (not enough partners left)."""


def a_star(model: Model, budget: Budget, ceiling: int | None = None) -> Result:
    """Find a winning line with the fewest moves (every move counts one), or prove none.

    A* ranked by the moves that must still remove (or park) cards, :func:`pyramid_moves`
    where it applies, else :func:`~pyramid_widget.solver.search.lower_bound`, plus
    :func:`deal_bound` (draws), ties broken towards deeper nodes. The sum is admissible but
    not consistent (a removal can drop the draws still needed by several), so a position
    reached again more cheaply is searched again; the first win taken off the queue is then
    a shortest one. Where :mod:`pyramid_widget.solver.prune.piles` applies (several piles or a
    cell), positions it proves lost are dropped (no win, so no shortest win, is lost) and a
    forced pair is the only move tried (rule ``pile-forced-pair``: the line gets no longer); with one pass
    and a cell, a cell move is taken only together with a next move that uses what it freed
    (rule ``cell-follow-up``, which also keeps a line no longer), as one step of two moves. ``ceiling``
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
    removals = _removal_bound(model)
    parent: dict[State, tuple[State, StepMove] | None] = {root: None}
    depth = {root: 0}
    counter = 0
    wanted: dict[int, list[tuple[int, int]]] = {}
    heap = [(removals(root) + deal_bound(model, root, wanted), 0, counter, root)]
    nodes = 0
    node_limit = budget.node_limit
    limit = ceiling if ceiling is not None else 1 << 30
    try:
        while heap:
            _, negg, _, state = heapq.heappop(heap)
            g = -negg
            if depth.get(state, g) < g:
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
                steps = [fused for step in steps for fused in _fused(step, state, fuse)]
            for move, nxt in steps:
                ng = g + len(move) // 3
                if depth.get(nxt, limit + 1) <= ng:
                    continue
                f = ng + removals(nxt) + deal_bound(model, nxt, wanted)
                if f > limit or dead(nxt):
                    continue
                depth[nxt] = ng
                parent[nxt] = (state, move)
                counter += 1
                heapq.heappush(heap, (f, -ng, counter, nxt))
    except OutOfBudget:
        return Result(None, [], nodes)
    return Result(False, [], nodes)


def deal_bound(
    model: Model, state: State, cache: dict[int, list[tuple[int, int]]] | None = None
) -> int:
    """Draws still needed, at least, where no stock card is ever available (it is played
    only once dealt onto a waste pile), so a draw is the only way a stock card comes out.

    A card that must still go and whose every partner left in play (anywhere, the cell
    included) lies in the stock cannot go before one of them is dealt, and all the cards
    must be dealt when every card must go. Counting does better under sum-13 pairing with
    a pyramid-only win: in a rank class {r, 13 - r} with ``a`` and ``b`` pyramid cards (in
    place or in the cell) of which at most ``M`` pairs can ever meet (a matching over
    ``Model.needs``), a win pairs at least ``a - M`` of the rank-``r`` ones with deck cards
    of rank ``13 - r``, distinct ones; if ``w`` of those are out of the stock already (in a
    pile or the cell), the ``(a - M - w)``-th one in the stock must be dealt. Dealing the stock card in slot ``j`` deals every
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

    ``cache`` keeps, per set of pyramid cards, the deck cards they need by rank.
    """
    if model.flags.pyramid_stock or model.flags.stock_waste or model.flags.cell_stock:
        return 0
    board, lo = state[0], state[1]
    stock = board >> lo << lo
    if not stock:
        return 0
    if model.rules.win != "pyramid":  # every stock card must go, so must be dealt
        return -(-stock.bit_count() // model.rules.draw_count)
    alive = board | state[3]
    needs = model.needs
    reach = 0  # the furthest stock slot that must be dealt, plus one
    must = PYRAMID_ALL
    check = alive & must & ~model.flags.lone_kings & ~stock
    while check:
        low = check & -check
        check ^= low
        mates = needs[low.bit_length() - 1] & alive
        if mates and not mates & ~stock:
            first = mates & -mates
            reach = max(reach, first.bit_length())
    if model.rules.pairing == "sum13" and model.rules.win == "pyramid":
        counted = _counted_reach(model, state, stock, cache)
        if counted < 0:
            return LOST
        reach = max(reach, counted)
    if not reach:
        return 0
    dealt = (stock & ((1 << reach) - 1)).bit_count()
    return -(-dealt // model.rules.draw_count)


def _counted_reach(
    model: Model, state: State, stock: int, cache: dict[int, list[tuple[int, int]]] | None
) -> int:
    """The furthest stock slot (plus one) the counting of :func:`deal_bound` must deal, or
    ``-1`` when the stock does not hold enough partners."""
    pyramid = (state[0] | state[3]) & PYRAMID_ALL
    wanted = cache.get(pyramid) if cache is not None else None
    if wanted is None:
        wanted = []
        masks, needs = model.rank_masks, model.needs
        for r in range(1, 7):
            low_side, high_side = pyramid & masks[r], pyramid & masks[13 - r]
            pairs = matched(low_side, needs, high_side) if low_side and high_side else 0
            if low_side.bit_count() > pairs:
                wanted.append((13 - r, low_side.bit_count() - pairs))
            if high_side.bit_count() > pairs:
                wanted.append((r, high_side.bit_count() - pairs))
        if cache is not None:
            cache[pyramid] = wanted
    reach = 0
    out = (state[0] | state[3]) & ~PYRAMID_ALL & ~stock
    for k, count in wanted:
        count -= (out & model.rank_masks[k]).bit_count()
        if count <= 0:
            continue
        left = stock & model.rank_masks[k]
        for _ in range(count - 1):  # the count-th of them in stock order
            left &= left - 1
        if not left:
            return -1
        reach = max(reach, (left & -left).bit_length())
    return reach


def pyramid_moves(model: Model, state: State, cache: dict[tuple[int, int], int]) -> int:
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
    total = (both & masks[13]).bit_count()
    for r in range(1, 7):
        low_side, high_side = both & masks[r], both & masks[13 - r]
        pairs = matched(low_side, edges, high_side) if low_side and high_side else 0
        total += low_side.bit_count() + high_side.bit_count() - pairs
    cache[key] = total
    return total


def _removal_bound(model: Model) -> Callable[[State], int]:
    """:func:`pyramid_moves` (with a cache) where it applies, else ``lower_bound``."""
    if model.rules.pairing != "sum13" or model.rules.win != "pyramid":
        return lambda state: lower_bound(model, state)
    cache: dict[tuple[int, int], int] = {}
    return lambda state: pyramid_moves(model, state, cache)


Steps = list[tuple[StepMove, State]]


def _fused(
    step: tuple[StepMove, State], state: State, fuse: Callable[[State, State], Steps]
) -> Steps:
    """A cell move's follow-ups as two-move steps (rule ``cell-follow-up``); any other step
    as it is."""
    move, nxt = step
    if move[0] == CELL and len(move) == 3:
        return fuse(state, nxt)
    return [step]


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
