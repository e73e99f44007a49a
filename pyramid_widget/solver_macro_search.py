"""Searches on macro moves (:mod:`pyramid_widget.solver_macro`): a depth-first dive for the
decision and A* with draw-counting costs for the fewest moves.

Both use one table per board (the cards left): in the dive it holds the best value reached
(pass number times 128 plus stock index, ``-1`` for a dead end), checked *before* the dearer
dead-end tests; see ``_dominated`` in :mod:`pyramid_widget.solver_search` for why skipping a
position that is no better than one already searched loses no win.

>>> from pyramid_widget.game import Game
>>> from pyramid_widget.solver_model import Model
>>> g = Game.from_position("medium", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "4S"])
>>> [str(m) for m in macro_dive(Model.from_game(g), Budget(None, None)).line]
['draw', '5H+8D', 'draw', '4S+9C']
"""

from __future__ import annotations

import heapq

from pyramid_widget.cards import KING
from pyramid_widget.moves import Move
from pyramid_widget.solver_dig import class_inert, dig_dead, inert_cards
from pyramid_widget.solver_macro import (
    MacroMove,
    _count,
    _macro_move,
    buried,
    buried_under,
    candidates,
    macro_line,
    starved,
)
from pyramid_widget.solver_model import PYRAMID_ALL, Model, State, own_partners
from pyramid_widget.solver_moves import dead_after
from pyramid_widget.solver_relax import FreeStock, applies
from pyramid_widget.solver_search import CHECK_EVERY, Budget, OutOfBudget, Result, lower_bound


def macro_dive(model: Model, budget: Budget) -> Result:
    """Depth-first search on macro moves with the dominance table checked before the dead-end
    tests (see the module docstring; a position is expanded again
    only when reached with a better value)."""
    root = model.root
    fl = 1 if model.rules.stall_rule else 0
    limited = model.rules.passes is not None
    if model.is_dead(root):
        return Result(False, [], 1)
    hi = model.deck_hi
    passes = model.rules.passes if model.rules.passes is not None else 1 << 30
    best: dict[int, int] = {root[0]: 0}
    # the free-stock test at every position pays off when the stock comes round again
    free = FreeStock(model) if applies(model) and model.rules.passes != 1 else None
    dig = limited and model.rules.pairing == "sum13"  # see solver_dig
    classes = model.rules.pairing == "sum13"  # inert cards found class by class
    cards, class_masks, icache = model.cards, model.class_masks, model.inert_cache
    lowest_king = 4 * (KING - 1)  # Kings belong to no class
    stack = [(root, candidates(model, root)[::-1], inert_cards(model, root[0]) if classes else 0)]
    path: list[tuple[State, tuple[int, int, int]]] = []  # candidates, made moves at the end
    nodes = 1
    try:
        while stack:
            state, frame, inert = stack[-1]
            if not frame:
                stack.pop()
                if path:
                    path.pop()
                continue
            cand = frame.pop()
            bits, nlo, crossed = cand
            nboard = state[0] & ~bits
            if bits >> nlo & 1:
                rest = nboard >> nlo
                nlo = nlo + (rest & -rest).bit_length() - 1 if rest else hi
            npno = state[4] + crossed if limited else 0
            last = npno >= passes
            if classes:  # solver_dig.inert_cards: only the class of the removed cards changed
                ninert = inert
                slot = (bits & -bits).bit_length() - 1
                mask = class_masks[slot]
                if cards[slot] < lowest_king:
                    cls = nboard & mask
                    more = icache.get(cls)
                    ninert = inert & ~mask | (class_inert(model, cls) if more is None else more)
            if last:
                if classes:  # solver_dig.buried_by
                    dead = ninert & nboard & ~PYRAMID_ALL & ((1 << nlo) - 1)
                    gone = (
                        nboard & ~PYRAMID_ALL & ((1 << (dead.bit_length() - 1)) - 1) if dead else 0
                    )
                else:
                    gone = buried_under(model, nboard, nlo)
                if gone:  # inert for good: forget them (see solver_macro.buried_under)
                    nboard &= ~gone
                    if not dig and starved(model, nboard):  # the digging test covers it
                        continue
            value = npno * 128 + nlo if limited else 0
            old = best.get(nboard)
            if old is not None and old <= value:
                continue
            # in the last pass the digging test implies the partner and counting tests
            if (
                (dig_dead(model, nboard, nlo) if dig and last else dead_after(model, nboard, bits))
                or (free and not free.wins(nboard))
                or (not classes and not own_partners(model, nboard))
            ):
                best[nboard] = -1
                continue
            best[nboard] = value
            path.append((state, cand))
            if not nboard & PYRAMID_ALL:
                steps = [(st, _macro_move(c)) for st, c in path]
                return Result(True, macro_line(model, steps), nodes)
            nodes += 1
            if not nodes % CHECK_EVERY:
                budget.check(nodes)
            nxt = (nboard, nlo, 0, 0, npno, fl)
            stack.append((nxt, candidates(model, nxt)[::-1], ninert if classes else 0))
    except OutOfBudget:
        return Result(None, [], nodes)
    return Result(False, [], nodes)


def macro_a_star(model: Model, budget: Budget, ceiling: int | None = None) -> Result:
    """The fewest engine moves to a win (draws and redeals count), or ``found=False``.

    A* over macro moves whose cost is the draws and redeal they stand for plus one for the
    removal; :func:`~pyramid_widget.solver_search.lower_bound` (removals still needed) is
    admissible and consistent since every macro move costs at least one and lowers it by at
    most one. Removals are only tried at their earliest stop, which is also the cheapest.
    ``ceiling``: the length of a known winning line (nodes that cannot beat it are dropped).
    """
    root = model.root
    if model.is_dead(root):
        return Result(False, [], 1)
    hi, start = model.deck_hi, model.deck_lo
    limited = model.rules.passes is not None
    passes = model.rules.passes if model.rules.passes is not None else 1 << 30
    fl = 1 if model.rules.stall_rule else 0
    limit = ceiling if ceiling is not None else 1 << 30
    Key = tuple[int, int, int]
    rkey: Key = (root[0], root[1], root[4])
    cost: dict[Key, int] = {rkey: 0}
    parent: dict[Key, tuple[Key, MacroMove] | None] = {rkey: None}
    heap = [(lower_bound(model, root) + draws_bound(model, root[0], root[1]), 0, rkey)]
    nodes = 0
    try:
        while heap:
            _, negg, key = heapq.heappop(heap)
            g = -negg
            if cost[key] < g:
                continue
            board, lo, pno = key
            state = (board, lo, 0, 0, pno, fl if key != rkey else root[5])
            nodes += 1
            if not board & PYRAMID_ALL:
                return Result(True, _line(model, parent, key), nodes)
            if not nodes % CHECK_EVERY:
                budget.check(nodes)
            deck = board & ~PYRAMID_ALL
            for bits, at, crossed in candidates(model, state):
                if crossed:
                    step = _count(deck, lo, hi) + 2 + _count(deck, start, at)
                else:
                    step = _count(deck, lo, at) + 1
                nboard = board & ~bits
                nlo = at
                if bits >> at & 1:
                    rest = nboard >> at
                    nlo = at + (rest & -rest).bit_length() - 1 if rest else hi
                npno = pno + crossed if limited else 0
                nkey = (nboard, nlo, npno)
                ng = g + step
                if cost.get(nkey, limit + 1) <= ng:
                    continue
                nstate = (nboard, nlo, 0, 0, npno, fl)
                f = ng + lower_bound(model, nstate) + draws_bound(model, nboard, nlo)
                if f > limit or dead_after(model, nboard, bits):
                    continue
                if npno >= passes and buried(model, nboard, nlo):
                    continue
                cost[nkey] = ng
                parent[nkey] = (key, _macro_move((bits, at, crossed)))
                heapq.heappush(heap, (f, -ng, nkey))
    except OutOfBudget:
        return Result(None, [], nodes)
    return Result(False, [], nodes)


def draws_bound(model: Model, board: int, lo: int) -> int:
    """Draws still needed, at least: where stock cards pair only once drawn (no stock top
    play), each pyramid card whose every usable partner is still in the stock needs its own
    partner drawn, one draw a card. Added to the removal bound, it stays admissible."""
    if model.rules.stock_top_available:
        return 0
    needs, stock = model.needs, board >> lo << lo
    count = 0
    check = board & model.required & PYRAMID_ALL
    while check:
        low = check & -check
        check ^= low
        mates = needs[low.bit_length() - 1] & board
        if mates and not mates & ~stock:
            count += 1
    return count


def _line(
    model: Model,
    parent: dict[tuple[int, int, int], tuple[tuple[int, int, int], MacroMove] | None],
    key: tuple[int, int, int],
) -> list[Move]:
    steps: list[tuple[State, MacroMove]] = []
    step = parent[key]
    while step is not None:
        pkey, move = step
        steps.append(((pkey[0], pkey[1], 0, 0, pkey[2], 0), move))
        step = parent[pkey]
    return macro_line(model, steps[::-1])
