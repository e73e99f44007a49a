"""What the four searches share: node and time budgets, results, the collector's pause
and the plain removal bound.

The solver's design is two by two: *decide* (is there a win?) or *shortest* (the fewest
moves), each either *move by move* or *removal to removal* (macro moves, one waste pile and
one card a draw): :mod:`pyramid_widget.solver.decide_moves`,
:mod:`pyramid_widget.solver.decide_macro`, :mod:`pyramid_widget.solver.shortest_moves` and
:mod:`pyramid_widget.solver.shortest_macro`. Each picks its own move generator
(:mod:`pyramid_widget.solver.moves` or :mod:`pyramid_widget.solver.macro`) and its dead-end
tests (:mod:`pyramid_widget.solver.prune`).

The searches stop cleanly when a caller's node or time budget runs out and then report
that the question is undecided; none ever calls a position unwinnable without having
looked at every position reachable from it (up to the sound prunings of
:data:`pyramid_widget.solver.prune.PRUNING_RULES`). A search never counts more positions than
the node limit (:attr:`Budget.node_limit`); the clock is read every :data:`CHECK_EVERY`.

>>> budget = Budget(3, None)
>>> budget.node_limit, budget.spent(3), budget.spent(4)
(3, False, True)
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pyramid_widget.engine.moves import Move
from pyramid_widget.solver.model import PYRAMID_ALL, Model, State

T = TypeVar("T")

NO_LIMIT = 1 << 62
"""The node limit of a budget without one."""


class OutOfBudget(Exception):
    """Raised inside a search when the node or time budget is spent."""


@dataclass
class Budget:
    """A node and time budget (``None`` = no limit).

    A search counts a position against :attr:`node_limit` before it searches it, so it
    never counts more than ``max_nodes`` (issue 14: the limit was once checked only every
    1,024 positions); the clock is read every :data:`CHECK_EVERY` positions."""

    max_nodes: int | None
    max_seconds: float | None
    started: float = field(default_factory=time.perf_counter)
    out: bool = False
    """Set once a search ran out of this budget."""

    @property
    def node_limit(self) -> int:
        """The most positions a search may count (:data:`NO_LIMIT` when unbounded)."""
        return NO_LIMIT if self.max_nodes is None else self.max_nodes

    def spent(self, nodes: int) -> bool:
        """Whether the budget ran out (or ``nodes`` passes the node limit)."""
        return self.out or nodes > self.node_limit

    def check_time(self) -> None:
        """Raise :class:`OutOfBudget` when the time limit is passed."""
        if self.max_seconds is not None and time.perf_counter() - self.started > self.max_seconds:
            raise OutOfBudget


@dataclass
class Result:
    """What a search found: ``found`` is True (won), False (proved lost) or None (budget)."""

    found: bool | None
    line: list[Move]
    nodes: int


CHECK_EVERY = 1024
"""Positions between two looks at the clock."""

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


def never(state: State) -> bool:
    """A dead-end test that never fires (where no extra test applies)."""
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


class BucketQueue(Generic[T]):
    """The A* open list as buckets: positions by ``f`` (lowest first), then by ``g``
    (highest first), then last in, first out. ``f`` and ``g`` are small whole numbers (moves),
    so a push and a pop cost a list operation each, not a heap's ``log n`` tuple comparisons.

    Any order of positions that share ``f`` keeps A* exact (the first win taken off the
    queue is a shortest one); preferring the larger ``g`` goes deep first among them, as the
    heap's ``(f, -g)`` key did. A push below the current ``f`` (an inconsistent bound without
    pathmax) is allowed and taken next.

    >>> q: BucketQueue[str] = BucketQueue()
    >>> for f, g, item in [(5, 1, "a"), (4, 0, "b"), (5, 3, "c"), (5, 3, "d"), (7, 2, "e")]:
    ...     q.push(f, g, item)
    >>> [q.pop() for _ in range(len(q))]
    [(4, 0, 'b'), (5, 3, 'd'), (5, 3, 'c'), (5, 1, 'a'), (7, 2, 'e')]
    >>> q.pop()
    Traceback (most recent call last):
    ...
    IndexError: pop from an empty queue
    """

    __slots__ = ("_f", "_g", "_levels", "_size")

    def __init__(self) -> None:
        self._levels: dict[int, list[list[T]]] = {}
        self._f = -1  # the lowest f that may hold positions (-1: none yet)
        self._g = -1  # in level ``_f``, the highest g that may hold positions
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def push(self, f: int, g: int, item: T) -> None:
        """Queue ``item`` at ``f`` (its estimate of the total) and ``g`` (its cost so far)."""
        level = self._levels.get(f)
        if level is None:
            level = self._levels[f] = [[] for _ in range(g + 1)]
        elif len(level) <= g:
            level.extend([] for _ in range(g + 1 - len(level)))
        level[g].append(item)
        self._size += 1
        if f < self._f or self._f < 0:
            self._f, self._g = f, g
        elif f == self._f and g > self._g:
            self._g = g

    def pop(self) -> tuple[int, int, T]:
        """``(f, g, item)`` of the next position (``IndexError`` when there is none)."""
        if not self._size:
            raise IndexError("pop from an empty queue")
        levels = self._levels
        while True:
            level = levels.get(self._f)
            if level is not None:
                g = self._g
                while g >= 0:
                    bucket = level[g]
                    if bucket:
                        self._g = g
                        self._size -= 1
                        return self._f, g, bucket.pop()
                    g -= 1
                del levels[self._f]
            self._f = min(levels)
            self._g = len(levels[self._f]) - 1
