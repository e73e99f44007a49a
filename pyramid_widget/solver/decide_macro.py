"""The decision search on macro moves (:mod:`pyramid_widget.solver.macro`): a depth-first
dive (the fewest-moves A* is in :mod:`pyramid_widget.solver.shortest_macro`).

It keeps one table entry per board (the cards left): the best value reached (pass number
times 128 plus stock index, ``-1`` for a dead end), checked *before* the dearer dead-end
tests (rule ``transposition``); see ``_dominated`` in
:mod:`pyramid_widget.solver.decide_moves` for why skipping a
position that is no better than one already searched loses no win. Only a test that judges
the cards alone makes a dead end; the last pass's digging test (:mod:`.prune.dig`) depends
on the stock index too, so a board it rejects is kept at that position's value: the same
cards reached there or further into the last pass are skipped (such a position has no move
the rejected one lacks, so it is lost too), but reached earlier, in particular in an earlier
pass, where a redeal brings the waste round again, they are searched.

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> g = Game.from_position("medium", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "4S"])
>>> [str(m) for m in macro_dive(Model.from_game(g), Budget(None, None)).line]
['draw', '5H+8D', 'draw', '4S+9C']
"""

from __future__ import annotations

from pyramid_widget.engine.cards import KING
from pyramid_widget.solver.macro import (
    _macro_move,
    buried_under,
    candidates,
    macro_line,
    starved,
)
from pyramid_widget.solver.model import PYRAMID_ALL, Model, State, own_partners
from pyramid_widget.solver.moves import dead_after
from pyramid_widget.solver.prune.dig import buried_by, class_inert, dig_dead, inert_cards
from pyramid_widget.solver.prune.relax import FreeStock, applies
from pyramid_widget.solver.search import CHECK_EVERY, Budget, OutOfBudget, Result


def macro_dive(model: Model, budget: Budget) -> Result:
    """Depth-first search on macro moves with the dominance table checked before the dead-end
    tests (see the module docstring; a position is expanded again
    only when reached with a better value)."""
    if budget.node_limit < 1:
        return Result(None, [], 0)
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
    dig = limited and model.rules.pairing == "sum13"  # rule ``dig``
    classes = model.rules.pairing == "sum13"  # inert cards found class by class
    cards, class_masks, icache = model.cards, model.class_masks, model.inert_cache
    lowest_king = 4 * (KING - 1)  # Kings belong to no class
    stack = [(root, candidates(model, root)[::-1], inert_cards(model, root[0]) if classes else 0)]
    path: list[tuple[State, tuple[int, int, int]]] = []  # candidates, made moves at the end
    nodes = 1
    node_limit = budget.node_limit
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
            if classes:  # prune.dig.inert_cards: only the class of the removed cards changed
                ninert = inert
                slot = (bits & -bits).bit_length() - 1
                mask = class_masks[slot]
                if cards[slot] < lowest_king:
                    cls = nboard & mask
                    more = icache.get(cls)
                    ninert = inert & ~mask | (class_inert(model, cls) if more is None else more)
            if last:
                gone = (
                    buried_by(ninert, nboard, nlo) if classes else buried_under(model, nboard, nlo)
                )
                if gone:  # inert for good: forget them (rule ``last-pass-burial``)
                    nboard &= ~gone
                    if not dig and starved(model, nboard):  # the digging test covers it
                        continue
            value = npno * 128 + nlo if limited else 0
            old = best.get(nboard)
            if old is not None and old <= value:
                continue
            # in the last pass the digging test implies the partner and counting tests; its
            # verdict depends on the stock index, so it is kept at this position's value
            # (the same cards reached earlier, in this pass or an earlier one, may still
            # win), while the other tests judge the cards alone: a dead end at any value
            if dig and last:
                if dig_dead(model, nboard, nlo):
                    best[nboard] = value
                    continue
            elif dead_after(model, nboard, bits):
                best[nboard] = -1
                continue
            if (free and not free.wins(nboard)) or (
                not classes and not own_partners(model, nboard)
            ):
                best[nboard] = -1
                continue
            best[nboard] = value
            path.append((state, cand))
            if not nboard & PYRAMID_ALL:
                steps = [(st, _macro_move(c)) for st, c in path]
                return Result(True, macro_line(model, steps), nodes)
            if nodes >= node_limit:
                raise OutOfBudget
            nodes += 1
            if not nodes % CHECK_EVERY:
                budget.check_time()
            nxt = (nboard, nlo, 0, 0, npno, fl)
            stack.append((nxt, candidates(model, nxt)[::-1], ninert if classes else 0))
    except OutOfBudget:
        return Result(None, [], nodes)
    return Result(False, [], nodes)
