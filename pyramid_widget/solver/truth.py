"""The "can this still be won?" indicator: a background thread that answers after every move.

Winnability along a game is monotone: a position that cannot be won has no winnable successor,
and a move of a winning line leads to a position the rest of the line still wins. The
:class:`TruthWatcher` uses both facts to solve less (answers already implied are given at once).
"""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Status
from pyramid_widget.solver import check_game
from pyramid_widget.solver.lines import (
    INTERACTIVE_SECONDS,
    Verdict,
    checked_solve,
    first_position,
    undecided_text,
)

__all__ = ["TruthReport", "TruthState", "TruthWatcher", "position_key"]

TruthState = Literal["winnable", "unwinnable", "thinking", "unknown"]
_SLICES = (0.25, 1.0, 4.0)

# -- knowing which positions were decided ----------------------------------------------------

Key = tuple[str, str, tuple[str, ...]]


def position_key(game: Game) -> Key:
    """What fixes a position: the rule set, the game's first position and the moves in
    effect since then (later ``egypt`` rounds follow from the first deal)."""
    rules = json.dumps(game.rules.to_dict(), sort_keys=True)
    start = first_position(game)
    first = repr((start.pyramid, start.stock, start.wastes, start.cells, start.pass_number))
    return (rules, first, tuple(str(move) for move in game.history))


class _Known:
    """Verdicts already found, reused through monotonicity (bounded, most recent kept)."""

    def __init__(self, size: int = 512) -> None:
        self._entries: OrderedDict[Key, tuple[Verdict, tuple[str, ...]]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def add(self, key: Key, verdict: Verdict, line: Sequence[Move]) -> None:
        if verdict == "unknown":
            return
        with self._lock:
            self._entries[key] = (verdict, tuple(str(move) for move in line))
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def lookup(self, key: Key) -> tuple[Verdict, tuple[str, ...]] | None:
        """The verdict for ``key`` (and the rest of a winning line), if already implied."""
        rules, deal, history = key
        with self._lock:
            entries = list(self._entries.items())
        for (k_rules, k_deal, k_history), (verdict, line) in reversed(entries):
            if (k_rules, k_deal) != (rules, deal) or history[: len(k_history)] != k_history:
                continue
            done = history[len(k_history) :]
            if verdict == "unwinnable":
                return verdict, ()
            if line[: len(done)] == done:
                return verdict, line[len(done) :]
        return None


# -- the "can this still be won?" indicator ---------------------------------------------------


@dataclass(frozen=True)
class TruthReport:
    """What the indicator shows for one position.

    ``state``: "winnable", "unwinnable", "thinking" or "unknown"; ``detail``: a sentence for
    the player; ``moves``: the game's move count when submitted (the position this is about);
    ``token``: the submission number (a later token supersedes); ``line``: a winning line from
    that position when known (the solve button and the second-level hint can reuse it).
    """

    state: TruthState
    detail: str
    moves: int
    token: int
    line: tuple[Move, ...] | None = None


def _report(game: Game, token: int, verdict: str, line: Sequence[Move]) -> TruthReport:
    moves = int(game.moves)
    if game.status is Status.WON:
        return TruthReport("winnable", "Won.", moves, token, ())
    if verdict == "winnable":
        text = f"Still winnable: a winning line of {len(line)} moves exists from here."
        return TruthReport("winnable", text, moves, token, tuple(line))
    if verdict == "unwinnable":
        if game.is_over:
            text = "The game is lost."
        elif not game.history:
            text = "This deal cannot be won, whatever you play."
        else:
            text = "Not winnable any more: no sequence of moves wins from here."
        return TruthReport("unwinnable", text, moves, token)
    return TruthReport("unknown", f"Can't tell: {verdict}.", moves, token)


class TruthWatcher:
    """Answers "can this still be won?" after every move, in a background thread.

    ``submit(game)`` returns at once: it copies the game, reports "thinking" (or the answer
    straight away when it is already known, e.g. after a move of the known winning line or
    after any move from a lost position), and the solver runs in the watcher's thread. Only
    the latest submission counts: a result for an older one is dropped. ``callback(report)``
    receives each :class:`TruthReport` — "thinking" in the submitting thread, results in the
    watcher's thread; an exception in the callback is turned into a warning. The solver
    searches in growing time slices (0.25 s, 1 s, 4 s, then ``max_seconds``), so a position
    that has become stale gives way to the newest one at the end of its slice.

    >>> from pyramid_widget import Game
    >>> game = Game.from_position("hard", pyramid=[None] * 26 + ["KD", "QH"], stock=["AC", "2C"])
    >>> seen = []
    >>> with TruthWatcher(seen.append) as watcher:
    ...     _ = watcher.submit(game)
    ...     watcher.wait(60)
    True
    >>> [report.state for report in seen]
    ['thinking', 'winnable']
    >>> _ = game.play("draw"), game.play("draw")  # the Ace is buried under the Two for good
    >>> watcher = TruthWatcher(seen.append)
    >>> watcher.submit(game).state, watcher.wait(60), seen[-1].state
    ('thinking', True, 'unwinnable')
    >>> watcher.close()
    """

    def __init__(
        self,
        callback: Callable[[TruthReport], object],
        *,
        max_seconds: float | None = INTERACTIVE_SECONDS,
        max_nodes: int | None = None,
    ) -> None:
        self._callback = callback
        self._max_seconds = max_seconds
        self._max_nodes = max_nodes
        self._known = _Known()
        self._cond = threading.Condition()
        self._deliver_lock = threading.Lock()
        self._pending: tuple[int, Game] | None = None
        self._token = 0
        self._busy = False
        self._closed = False
        self.latest: TruthReport | None = None
        self._thread = threading.Thread(target=self._run, name="pyramid-truth", daemon=True)
        self._thread.start()

    def submit(self, game: Game) -> TruthReport:
        """Ask about ``game``'s current position; never blocks on the solver. Returns the
        report delivered now ("thinking", or the answer if already known)."""
        check_game(game, "TruthWatcher.submit()")
        snapshot = game.copy()
        with self._cond:
            if self._closed:
                raise RuntimeError("this TruthWatcher is closed")
            self._token += 1
            token = self._token
        answer = self._immediate(snapshot, token)
        if answer is not None:
            self._deliver(answer)
            return answer
        thinking = TruthReport("thinking", "Thinking…", int(snapshot.moves), token)
        self._deliver(thinking)
        with self._cond:
            self._pending = (token, snapshot)
            self._cond.notify_all()
        return thinking

    def _immediate(self, game: Game, token: int) -> TruthReport | None:
        if game.is_over:
            return _report(game, token, "unwinnable", ())
        known = self._known.lookup(position_key(game))
        if known is None:
            return None
        verdict, rest = known
        return _report(game, token, verdict, [Move.parse(text) for text in rest])

    def known(self, game: Game) -> tuple[Verdict, list[Move]] | None:
        """What the watcher already knows of ``game``'s position: ``("winnable", rest of a
        winning line)`` or ``("unwinnable", [])``; ``None`` when it has not decided it. The
        solve button and the second-level hint reuse it instead of solving again.

        >>> from pyramid_widget import Game
        >>> game = Game.from_position("hard", pyramid=[None] * 27 + ["KD"])
        >>> with TruthWatcher(lambda report: None) as watcher:
        ...     _ = watcher.submit(game)
        ...     _ = watcher.wait(60)
        ...     verdict, line = watcher.known(game)
        >>> verdict, [str(m) for m in line]
        ('winnable', ['KD'])
        """
        check_game(game, "TruthWatcher.known()")
        found = self._known.lookup(position_key(game))
        if found is None:
            return None
        verdict, rest = found
        return verdict, [Move.parse(text) for text in rest]

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                assert self._pending is not None
                token, game = self._pending
                self._pending = None
                self._busy = True
            try:
                report = self._work(game, token)
                if report is not None:
                    self._deliver(report)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _slices(self) -> list[float | None]:
        """Growing time budgets for one position: most positions are decided in the first,
        and between slices a newer submission can take over (the solver cannot be stopped
        from outside, so a stale search ends at the end of its slice)."""
        final = self._max_seconds
        steps: list[float | None] = [s for s in _SLICES if final is None or s < final]
        return [*steps, final]

    def _stale(self, token: int) -> bool:
        with self._cond:
            return token != self._token or self._closed

    def _work(self, game: Game, token: int) -> TruthReport | None:
        """Solve ``game`` slice by slice; None when a newer position made it stale."""
        try:
            for budget in self._slices():
                solution = checked_solve(game, budget, self._max_nodes)
                if solution.verdict != "unknown":
                    break
                if self._stale(token):
                    return None
        except Exception as exc:  # the indicator must never die; say what went wrong
            return TruthReport("unknown", f"The solver failed: {exc}", int(game.moves), token)
        self._known.add(position_key(game), solution.verdict, solution.moves)
        if solution.verdict == "unknown":
            text = undecided_text(self._max_seconds, self._max_nodes)
            return TruthReport("unknown", text[0].upper() + text[1:] + ".", int(game.moves), token)
        return _report(game, token, solution.verdict, solution.moves)

    def _deliver(self, report: TruthReport) -> None:
        with self._deliver_lock:
            with self._cond:
                if report.token != self._token:
                    return  # a newer position was submitted: this answer is stale
            self.latest = report
            try:
                self._callback(report)
            except Exception as exc:
                warnings.warn(f"TruthWatcher callback failed: {exc!r}", stacklevel=2)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every submission is answered; False if ``timeout`` ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._pending is not None or self._busy:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self) -> None:
        """Stop the thread (after the solve in progress, if any, ends)."""
        with self._cond:
            self._closed = True
            self._pending = None
            self._cond.notify_all()

    def __enter__(self) -> TruthWatcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
