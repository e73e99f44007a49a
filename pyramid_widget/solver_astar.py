"""Shortest mode move by move (several waste piles, the cell, any rule set without macro
moves): A* on engine moves with the dead-position tests of :mod:`pyramid_widget.solver_piles`
and a bound that counts the removals and the draws still needed.

>>> from pyramid_widget.game import Game
>>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"], stock=["2D", "3C", "4S", "8C"])
>>> [str(m) for m in a_star(Model.from_game(g).for_shortest(), Budget(None, None)).line]
['draw', 'draw', '5H+8C']
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from pyramid_widget.moves import Move
from pyramid_widget.solver_model import PYRAMID_ALL, Model, State
from pyramid_widget.solver_search import CHECK_EVERY, Budget, OutOfBudget, Result, lower_bound

StepMove = tuple[int, ...]


def a_star(model: Model, budget: Budget, ceiling: int | None = None) -> Result:
    """Find a winning line with the fewest moves (every move counts one), or prove none.

    A* ranked by :func:`~pyramid_widget.solver_search.lower_bound` (removals) plus
    :func:`deal_bound` (draws), ties broken towards deeper nodes. The sum is admissible but
    not consistent (a removal can drop the draws still needed by several), so a position
    reached again more cheaply is searched again; the first win taken off the queue is then
    a shortest one. Where :mod:`pyramid_widget.solver_piles` applies (several piles or a
    cell), positions it proves lost are dropped (no win, so no shortest win, is lost) and a
    forced pair is the only move tried (its test 9: the line gets no longer). ``ceiling``
    (the length of a known winning line) lets the search drop nodes that cannot beat it.
    """
    root = model.root
    if model.is_win(root):
        return Result(True, [], 1)
    dead, expand = _tests(model)
    if model.is_dead(root) or dead(root):
        return Result(False, [], 1)
    parent: dict[State, tuple[State, StepMove] | None] = {root: None}
    depth = {root: 0}
    counter = 0
    heap = [(lower_bound(model, root) + deal_bound(model, root), 0, counter, root)]
    nodes = 0
    limit = ceiling if ceiling is not None else 1 << 30
    try:
        while heap:
            _, negg, _, state = heapq.heappop(heap)
            g = -negg
            if depth.get(state, g) < g:
                continue
            nodes += 1
            if model.is_win(state):
                return Result(True, _line(model, parent, state), nodes)
            if not nodes % CHECK_EVERY:
                budget.check(nodes)
            for move, nxt in expand(state):
                ng = g + 1
                if depth.get(nxt, limit + 1) <= ng:
                    continue
                f = ng + lower_bound(model, nxt) + deal_bound(model, nxt)
                if f > limit or dead(nxt):
                    continue
                depth[nxt] = ng
                parent[nxt] = (state, move)
                counter += 1
                heapq.heappush(heap, (f, -ng, counter, nxt))
    except OutOfBudget:
        return Result(None, [], nodes)
    return Result(False, [], nodes)


def deal_bound(model: Model, state: State) -> int:
    """Draws still needed, at least, where no stock card is ever available (it is played
    only once dealt onto a waste pile), so a draw is the only way a stock card comes out.

    A card that must still go and whose every partner left in play (anywhere, the cell
    included) lies in the stock cannot go before one of them is dealt, and all the cards
    must be dealt when every card must go. Dealing the stock card in slot ``j`` deals every
    stock card before it first, ``draw_count`` to a draw, so it takes
    ``ceil(k / draw_count)`` draws, ``k`` being the stock cards up to ``j``; all of them in
    this pass, since the stock is redealt only once it is empty. A draw removes no card, so
    this adds to :func:`lower_bound` and the sum stays admissible.

    >>> from pyramid_widget.game import Game
    >>> stock = ["2D", "3C", "4S", "9C", "8C"]
    >>> g = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"], stock=stock)
    >>> m = Model.from_game(g)
    >>> deal_bound(m, m.root), lower_bound(m, m.root)
    (2, 1)
    """
    if model.sw.ps or model.sw.sw or model.sw.cs:
        return 0
    board, lo = state[0], state[1]
    stock = board >> lo << lo
    if not stock:
        return 0
    alive = board | state[3]
    needs = model.needs
    reach = 0  # the furthest stock slot that must be dealt, plus one
    if model.rules.win != "pyramid":
        reach = stock.bit_length()
    must = PYRAMID_ALL if model.rules.win == "pyramid" else alive
    check = alive & must & ~model.sw.kings & ~stock
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


def _tests(
    model: Model,
) -> tuple[Callable[[State], bool], Callable[[State], list[tuple[StepMove, State]]]]:
    """The dead test and the move generator of :class:`~pyramid_widget.solver_piles.PileCheck`
    where it applies, else a test that says no and the model's own generator."""
    from pyramid_widget import solver_piles

    if solver_piles.applies(model):
        check = solver_piles.PileCheck(model)
        return check.dead, check.expand
    return _never, model.expand


def _never(state: State) -> bool:
    return False


def _line(
    model: Model, parent: dict[State, tuple[State, StepMove] | None], state: State
) -> list[Move]:
    moves: list[StepMove] = []
    step = parent[state]
    while step is not None:
        state, move = step
        moves.append(move)
        step = parent[state]
    return [model.to_move(m) for m in reversed(moves)]
