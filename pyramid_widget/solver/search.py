"""The decision search over the compact encoding: depth-first with a transposition table;
and what the searches share: budgets, results and the removal bound of the A* searches
(:mod:`pyramid_widget.solver.shortest_macro` for one waste pile, :mod:`pyramid_widget.solver.shortest_moves`
for the others).

The searches stop cleanly when a caller's node or time budget runs out and then report
that the question is undecided; none ever calls a position unwinnable without having
looked at every position reachable from it (up to the sound prunings of
:mod:`pyramid_widget.solver.moves`).

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> g = Game.from_position("medium", pyramid=[None] * 26 + ["5H", "8C"], stock=["KD"])
>>> result = depth_first(Model.from_game(g), Budget(None, None))
>>> result.found, [str(m) for m in result.line]
(True, ['5H+8C'])
"""

from __future__ import annotations

import gc
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from pyramid_widget.engine.moves import Move
from pyramid_widget.solver.model import CELL, PYRAMID_ALL, Model, State

StepMove = tuple[int, ...]


class OutOfBudget(Exception):
    """Raised inside a search when the node or time budget is spent."""


@dataclass
class Budget:
    """A node and time budget (``None`` = no limit), checked every few thousand nodes."""

    max_nodes: int | None
    max_seconds: float | None
    started: float = field(default_factory=time.perf_counter)
    out: bool = False
    """Set once a search ran out of this budget."""

    def spent(self, nodes: int) -> bool:
        """Whether the budget ran out (or ``nodes`` passes the node limit)."""
        return self.out or (self.max_nodes is not None and nodes > self.max_nodes)

    def check(self, nodes: int) -> None:
        """Raise :class:`OutOfBudget` when a limit is passed."""
        if self.max_nodes is not None and nodes > self.max_nodes:
            raise OutOfBudget
        if self.max_seconds is not None and time.perf_counter() - self.started > self.max_seconds:
            raise OutOfBudget


@dataclass
class Result:
    """What a search found: ``found`` is True (won), False (proved lost) or None (budget)."""

    found: bool | None
    line: list[Move]
    nodes: int


CHECK_EVERY = 1024

_pause_lock = threading.Lock()
_pauses = 0
_resume = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a search runs.

    A search keeps hundreds of thousands of small containers alive (its queue and its
    tables of costs, parents and seen positions) and makes no reference cycles, so each
    full collection walks all of them and frees nothing: with the collector on, the
    shortest-mode search of ``relaxed`` deals 133 and 184 takes about 11% more CPU time.
    Reference counting frees memory as usual meanwhile; only cyclic garbage (from anywhere
    in the process) waits for the pause to end. Nested and concurrent searches (the
    widget's hints run in a thread) share one pause, and the collector comes back on, if
    it was on, when the last of them ends, even by an exception.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    global _pauses, _resume
    with _pause_lock:
        if _pauses == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _resume:
                gc.enable()


def depth_first(model: Model, budget: Budget) -> Result:
    """Decide whether ``model.root`` can be won; return a winning line if so.

    Depth-first search on an explicit stack with a set of seen canonical keys: a position is
    expanded at most once, so the search ends even when passes are unlimited, and a
    position already seen is either on the current path or known not to lead to a win
    (graph search for reachability is complete with a global seen set).

    With several waste piles or a cell, a few short searches with the moves in shuffled
    orders (fixed seeds: the answer is reproducible) come first, each stopped after
    :data:`RESTARTS` positions: a poor early choice can cost a long search where another
    order wins at once. Only a search that finishes gives a verdict, so one that is cut
    off proves nothing and the last search is not cut off.

    With one pass (no redeal), the searches share what they proved: a position all of whose
    successors were searched to the end without a win is lost, and the later searches skip
    it. Soundness: with no redeal every move takes a card off the board or deals from the
    stock, so no position comes round again and a position met a second time in one search
    was searched to its end (it is not on the current path); by induction on the order in
    which searches of positions end, each child of such a position was dropped by a sound
    test, left out by a move ordering that keeps a win when there is one (Kings first,
    forced pairs), already proved lost, or searched to its end without a win. Positions still
    open when a search is cut off are not recorded.

    With one pass and a cell, a cell move is searched only together with a next move that
    uses a card it freed (test 10 of :mod:`pyramid_widget.solver.prune.piles`): the position in
    between is never a node of the search.
    """
    root = model.root
    if model.is_win(root):
        return Result(True, [], 1)
    from pyramid_widget.solver.prune import piles as solver_piles

    check = solver_piles.PileCheck(model) if solver_piles.applies(model) else None
    dead, expand = (check.dead, check.expand) if check else (_never, model.expand)
    if model.is_dead(root) or dead(root):
        return Result(False, [], 1)
    nodes = 0
    lost: set[State] | None = set() if model.rules.passes == 1 else None
    fuse = None
    if check and lost is not None and model.rules.cells:
        fuse = check.cell_follow_ups
    if expand is not model.expand:
        for seed, cap in enumerate(RESTARTS):
            shuffled = _shuffled(expand, seed)
            result = _dive(model, dead, shuffled, budget, cap, nodes, lost, fuse)
            nodes = result.nodes
            if result.found is not None or budget.spent(nodes):
                return result
    return _dive(model, dead, expand, budget, None, nodes, lost, fuse)


RESTARTS = (1000,) * 12
"""Position caps of the shuffled searches that come first (see :func:`depth_first`)."""


def _shuffled(
    expand: Callable[[State], list[tuple[StepMove, State]]], seed: int
) -> Callable[[State], list[tuple[StepMove, State]]]:
    """``expand`` with its moves in a random order drawn from ``seed``."""
    rng = random.Random(seed)

    def moves(state: State) -> list[tuple[StepMove, State]]:
        out = expand(state)
        rng.shuffle(out)
        return out

    return moves


def _dive(
    model: Model,
    dead: Callable[[State], bool],
    expand: Callable[[State], list[tuple[StepMove, State]]],
    budget: Budget,
    cap: int | None,
    done: int,
    lost: set[State] | None = None,
    fuse: Callable[[State, State], list[tuple[StepMove, State]]] | None = None,
) -> Result:
    """One depth-first search (see :func:`depth_first`); ``found`` is ``None`` when the
    budget or the position ``cap`` ran out. ``done`` positions were searched before.
    ``lost`` (one pass only): positions proved lost, skipped, and those this search proves
    lost are added. ``fuse`` (one pass, a cell): a cell move's successor is replaced by
    the steps ``fuse(position, after the cell move)`` gives (cell move and next move)."""
    root = model.root
    is_win, dominance = model.is_win, model.dominance
    best: dict[object, int] = {}
    _dominated(best, *dominance(root))
    stack = [expand(root)[::-1]]
    trail = [root]
    path: list[tuple[State, tuple[int, ...]]] = []
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
            nodes += 1
            path.append((trail[-1], move))
            if is_win(nxt):
                if fuse is None:
                    return Result(True, model.line(path), nodes)
                steps = [m[i : i + 3] for _, m in path for i in range(0, len(m), 3)]
                return Result(True, [model.to_move(m) for m in steps], nodes)
            if not nodes % CHECK_EVERY:
                budget.check(nodes)
            if nodes == limit:
                return Result(None, [], nodes)
            trail.append(nxt)
            stack.append(expand(nxt)[::-1])
    except OutOfBudget:
        budget.out = True
        return Result(None, [], nodes)
    return Result(False, [], nodes)


def _piles_tests(
    model: Model,
) -> tuple[Callable[[State], bool], Callable[[State], list[tuple[StepMove, State]]]]:
    """The dead-position test and the move generator with forced pairs of
    :mod:`pyramid_widget.solver.prune.piles` where they apply (several waste piles or a free
    cell), else a test that says no and the model's own generator."""
    from pyramid_widget.solver.prune import piles as solver_piles

    if solver_piles.applies(model):
        check = solver_piles.PileCheck(model)
        return check.dead, check.expand
    return _never, model.expand


def _never(state: State) -> bool:
    return False


def _dominated(best: dict[object, int], key: object, value: int) -> bool:
    """Whether a position at least as good as this one (same ``key``, value no larger) was
    already searched; if not, record it. This is the transposition table, with subsumption.

    Soundness: a position with the same key and a smaller value can play every move of the
    other, to a position at least as good again (:meth:`Model.dominance
    <pyramid_widget.solver.model.Model.dominance>`). Take the searched position nearest to a
    win: if it were not a win, the next position of its shortest winning line would be
    neither searched nor dominated by a searched one (either would be nearer a win), but the
    search skips a successor only when it is one or the other. So a win is always found.
    """
    old = best.get(key)
    if old is not None and old <= value:
        return True
    best[key] = value
    return False


def lower_bound(model: Model, state: State) -> int:
    """An admissible bound on the moves still needed: every move removes at most one card of
    each rank (so at most one of each rank class {r, 13 - r} under sum-13 pairing), and at
    most two cards in all. Kings that go alone need a move each."""
    board = state[0] if model.rules.win == "pyramid" else state[0] | state[3]
    if model.rules.win == "pyramid":
        board &= PYRAMID_ALL
    masks = model.rank_masks
    if model.rules.pairing != "sum13":
        return (board.bit_count() + 1) // 2
    total = (board & masks[13]).bit_count()
    for r in range(1, 7):
        total += max((board & masks[r]).bit_count(), (board & masks[13 - r]).bit_count())
    return total
