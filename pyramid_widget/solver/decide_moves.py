"""The decision search move by move: depth-first with a transposition table, on the single
engine moves of :mod:`pyramid_widget.solver.moves` (several waste piles, several cards a
draw, a free cell, every card to go: the rule sets without macro moves), with the dead-end
tests :func:`pyramid_widget.solver.prune.piles.select` picks.

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> g = Game.from_position("egypt", pyramid=[None] * 26 + ["5H", "8C"], stock=["KD"])
>>> result = depth_first(Model.from_game(g), Budget(None, None))
>>> result.found, [str(m) for m in result.line]
(True, ['5H+8C'])
"""

from __future__ import annotations

import random
from collections.abc import Callable

from pyramid_widget.solver.model import CELL, Model, State, StepMove, Successors
from pyramid_widget.solver.prune import piles
from pyramid_widget.solver.search import CHECK_EVERY, Budget, OutOfBudget, Result


def depth_first(model: Model, budget: Budget) -> Result:
    """Decide whether ``model.root`` can be won; return a winning line if so.

    Depth-first search on an explicit stack with a set of seen canonical keys: a position is
    expanded at most once, so the search ends even when passes are unlimited, and a
    position already seen is either on the current path or known not to lead to a win
    (graph search for reachability is complete with a global seen set; rule
    ``transposition``).

    With several waste piles or a cell, a few short searches with the moves in shuffled
    orders (fixed seeds: the answer is reproducible) come first, each stopped after
    :data:`RESTARTS` positions: a poor early choice can cost a long search where another
    order wins at once. Only a search that finishes gives a verdict, so one that is cut
    off proves nothing and the last search is not cut off.

    With one pass (no redeal), the searches share what they proved (rule
    ``one-pass-lost``): a position all of whose successors were searched to the end
    without a win is lost, and the later searches skip it. Soundness: with no redeal every
    move takes a card off the board or deals from the stock, so no position comes round
    again and a position met a second time in one search was searched to its end (it is
    not on the current path); by induction on the order in which searches of positions
    end, each child of such a position was dropped by a sound test, left out by a move
    ordering that keeps a win when there is one (Kings first, forced pairs), already proved
    lost, or searched to its end without a win. Positions still open when a search is cut
    off are not recorded.

    With one pass and a cell, a cell move is searched only together with a next move that
    uses a card it freed (rule ``cell-follow-up``): the position in between is never a
    node of the search.
    """
    if budget.node_limit < 1:
        return Result(None, [], 0)
    root = model.root
    if model.is_win(root):
        return Result(True, [], 1)
    tests = piles.select(model)
    if model.is_dead(root) or tests.dead(root):
        return Result(False, [], 1)
    nodes = 0
    lost: set[State] | None = set() if model.rules.passes == 1 else None
    if tests.check is not None:
        for seed, cap in enumerate(RESTARTS):
            shuffled = _shuffled(tests.expand, seed)
            result = _dive(model, tests.dead, shuffled, budget, cap, nodes, lost, tests.follow_ups)
            nodes = result.nodes
            if result.found is not None or budget.spent(nodes):
                return result
    return _dive(model, tests.dead, tests.expand, budget, None, nodes, lost, tests.follow_ups)


RESTARTS = (1000,) * 12
"""Position caps of the shuffled searches that come first (see :func:`depth_first`)."""


def _shuffled(expand: Callable[[State], Successors], seed: int) -> Callable[[State], Successors]:
    """``expand`` with its moves in a random order drawn from ``seed``."""
    rng = random.Random(seed)

    def moves(state: State) -> Successors:
        out = expand(state)
        rng.shuffle(out)
        return out

    return moves


def _dive(
    model: Model,
    dead: Callable[[State], bool],
    expand: Callable[[State], Successors],
    budget: Budget,
    cap: int | None,
    done: int,
    lost: set[State] | None = None,
    fuse: Callable[[State, State], Successors] | None = None,
) -> Result:
    """One depth-first search (see :func:`depth_first`); ``found`` is ``None`` when the
    budget or the position ``cap`` ran out. ``done`` positions were searched before.
    ``lost`` (one pass only): positions proved lost, skipped, and those this search proves
    lost are added. ``fuse`` (one pass, a cell): a cell move's successor is replaced by
    the steps ``fuse(position, after the cell move)`` gives (cell move and next move)."""
    root = model.root
    is_win = model.is_win
    node_limit = budget.node_limit
    if done >= node_limit:
        budget.out = True
        return Result(None, [], done)
    best: dict[object, int] = {}
    _dominated(best, *dominance(root))
    stack = [expand(root)[::-1]]
    trail = [root]
    path: list[tuple[State, StepMove]] = []
    nodes = done + 1
    limit = done + cap if cap is not None else -1
    try:
        while stack:
            frame = stack[-1]
            if not frame:
                stack.pop()
                done_with = trail.pop()
                if lost is not None:
                    lost.add(done_with)
                if path:
                    path.pop()
                continue
            move, nxt = frame.pop()
            if lost is not None and nxt in lost:
                continue
            if fuse is not None and move[0] == CELL and len(move) == 3:
                key, value = dominance(nxt)
                old = best.get(key)
                if old is None or old > value:  # else searched already, with every move
                    frame.extend(fuse(trail[-1], nxt)[::-1])
                continue
            if _dominated(best, *dominance(nxt)) or dead(nxt):
                continue
            if nodes >= node_limit:
                raise OutOfBudget
            nodes += 1
            path.append((trail[-1], move))
            if is_win(nxt):
                steps = [m[i : i + 3] for _, m in path for i in range(0, len(m), 3)]
                return Result(True, [model.to_move(m) for m in steps], nodes)
            if not nodes % CHECK_EVERY:
                budget.check_time()
            if nodes == limit:
                return Result(None, [], nodes)
            trail.append(nxt)
            stack.append(expand(nxt)[::-1])
    except OutOfBudget:
        budget.out = True
        return Result(None, [], nodes)
    return Result(False, [], nodes)


def dominance(state: State) -> tuple[object, int]:
    """Split a position into a key and a value: of two positions with the same key, the
    one with the smaller value can play every move of the other (see :func:`_dominated`):
    the same cards in the same places, in an earlier pass (more redeals left)."""
    board, lo, piles_, cells, pno, flag = state
    return (board, lo, piles_, cells, flag), pno


def _dominated(best: dict[object, int], key: object, value: int) -> bool:
    """Whether a position at least as good as this one (same ``key``, value no larger) was
    already searched; if not, record it. This is the transposition table, with subsumption
    (rule ``transposition``).

    Soundness: a position with the same key and a smaller value can play every move of the
    other, to a position at least as good again (:func:`dominance`). Take the searched
    position nearest to a win: if it were not a win, the next position of its shortest
    winning line would be neither searched nor dominated by a searched one (either would be
    nearer a win), but the search skips a successor only when it is one or the other. So a
    win is always found.
    """
    old = best.get(key)
    if old is not None and old <= value:
        return True
    best[key] = value
    return False
