"""The widget's optional parts: records (the stats panel) and the solver's help (winnable
deals, "can this still be won?", second-level hints, the solve button, the post-mortem).

The links are one way. :class:`Extras` imports the records store and the solver as ordinary
modules and knows nothing of the widget: it is handed a :class:`~pyramid_widget.engine.game.Game`
and returns values (a :class:`RecordsUpdate`, a move, a line, a truth value) that the widget
applies to its traits. The only value that arrives later, from a background thread (the truth
watcher's verdict, a post-mortem), goes to the ``on_truth`` callable the widget passed in.

A records store that fails (a locked or damaged file, a value SQLite cannot hold, anything it
raises) never stops play: the failure comes back as a sentence in :attr:`RecordsUpdate.problem`.

>>> from pyramid_widget import Game
>>> extras = Extras(False, on_truth=print)
>>> extras.features
{'records': False, 'assist': True}
>>> extras.record(Game("medium", deal=7), generation=0) is None
True
>>> str(extras.winning_move(Game.from_position("hard", pyramid=[None] * 27 + ["KD"])))
'KD'
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.records.store import Records, Stats
from pyramid_widget.solver.lines import (
    INTERACTIVE_SECONDS,
    UndecidedError,
    WinningLine,
    next_winning_move,
    winning_line,
)
from pyramid_widget.solver.post_mortem import PostMortem, post_mortem
from pyramid_widget.solver.truth import TruthReport, TruthWatcher
from pyramid_widget.solver.winnable import search_winnable, winnable_deal

__all__ = [
    "WINNABLE_BOUND",
    "WINNABLE_SECONDS",
    "Extras",
    "RecordStore",
    "RecordsUpdate",
    "open_records",
]

_log = logging.getLogger(__name__)

#: Solver budget for a "winnable deals only" new deal from Python: deals tried and seconds
#: per deal. The page's search (:meth:`Extras.search_winnable`) runs in the background with no
#: visible bound (about 5% of ``hard`` deals are winnable: 20 deals are not enough).
WINNABLE_BOUND = 200
WINNABLE_SECONDS = 1.0

TruthValue = dict[str, Any]


class RecordStore(Protocol):
    """What the widget needs of a records store (:class:`~pyramid_widget.records.store.Records`
    or a stand-in with the same two methods)."""

    def record_game(self, game: Game) -> int:
        """Store a finished (or abandoned) game (a store that takes ``assisted=True`` keeps
        the solver's games apart; it is passed only for such a game)."""
        ...

    def stats(self, rules: str) -> Stats:
        """The statistics of one rule set."""
        ...


@dataclass(frozen=True)
class RecordsUpdate:
    """What the widget shows after a records step: the ``stats`` trait's new value, and
    ``problem``, a sentence for the board when the store failed (``None`` when all went well)."""

    stats: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None


def open_records(records: Any) -> RecordStore | None:
    """The records store a widget uses: ``None`` means the default ``Records()``, ``False``
    none at all; an object with ``record_game`` and ``stats`` is used as it is.

    >>> open_records(False) is None
    True
    >>> open_records("yes please")
    Traceback (most recent call last):
    ...
    TypeError: records must be None, False or a pyramid_widget.records.Records, got 'yes please'
    """
    if records is False:
        return None
    if records is None:
        return Records()
    if not (
        callable(getattr(records, "record_game", None))
        and callable(getattr(records, "stats", None))
    ):
        raise TypeError(
            f"records must be None, False or a pyramid_widget.records.Records, got {records!r}"
        )
    store: RecordStore = records
    return store


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().rstrip(".") or type(exc).__name__
    return text if len(text) <= 200 else text[:200] + "…"


def _is_final(game: Game) -> bool:
    return game.status is Status.LOST or (game.status is Status.WON and not game.rules.rounds)


class Extras:
    """Records and solver help for one widget. ``records``: see :func:`open_records`;
    ``on_truth(value)``: where the "can this still be won?" indicator's new value goes (the
    widget's ``truth`` trait), called from the submitting or a background thread."""

    def __init__(self, records: Any, on_truth: Callable[[TruthValue], object]) -> None:
        self.records = open_records(records)
        self._on_truth = on_truth
        self._watcher: TruthWatcher | None = None
        self._watched: tuple[int, int, int] | None = None
        self._recorded = -1
        self._generation = 0
        self._lock = threading.Lock()
        self._post_mortem = ""
        self.truth: TruthValue = {}
        self.solve_limits: tuple[float | None, int | None] = (INTERACTIVE_SECONDS, None)
        """Seconds and positions one Solve may spend looking for a fewest-move line
        (:meth:`winning_line`)."""

    @property
    def features(self) -> dict[str, bool]:
        """The optional parts present, for the page's ``features`` trait."""
        return {"records": self.records is not None, "assist": True}

    @property
    def warning(self) -> str | None:
        """The records store's warning (e.g. it fell back to memory), if any."""
        text = getattr(self.records, "warning", None)
        return str(text) if text else None

    # -- records ---------------------------------------------------------------------------

    def stats(self, rules: str) -> RecordsUpdate | None:
        """The records of rule set ``rules`` (``None`` without records)."""
        if self.records is None:
            return None
        try:
            found = self.records.stats(rules)
            as_dict = found.to_dict()
        except Exception as exc:  # a broken store must not stop play: say so instead
            _log.warning("pyramid widget: could not read the records: %s", exc)
            return RecordsUpdate({}, f"The records could not be read: {_reason(exc)}.")
        return RecordsUpdate({k: v for k, v in as_dict.items() if not isinstance(v, (list, dict))})

    def record(
        self, game: Game, generation: int, *, assisted: bool = False
    ) -> RecordsUpdate | None:
        """Record ``game`` (once per ``generation``, the widget's game counter) and return the
        new stats; ``None`` when there is nothing to record (no records, a hand-made position,
        already recorded). ``assisted``: the solver played moves or gave its winning hint (the
        game never counts toward wins, streaks or bests). A store that raises gives a
        :attr:`RecordsUpdate.problem`."""
        if self.records is None or self._recorded == generation or game.deal is None:
            return None
        self._recorded = generation  # tried once: a failing store is not asked again
        try:
            if assisted:
                self.records.record_game(game, assisted=True)  # type: ignore[call-arg]
            else:
                self.records.record_game(game)
        except Exception as exc:  # any failure of the store: report it, keep playing
            _log.warning("pyramid widget: could not record the game: %s", exc)
            update = self.stats(game.rules.name) or RecordsUpdate()
            return RecordsUpdate(update.stats, f"This game could not be recorded: {_reason(exc)}.")
        return self.stats(game.rules.name)

    def game_over(
        self, game: Game, generation: int, *, assisted: bool = False
    ) -> RecordsUpdate | None:
        """After a move that ended the game: record it (when final) and, with the indicator on,
        start a post-mortem of a loss in the background."""
        update = self.record(game, generation, assisted=assisted) if _is_final(game) else None
        if game.status is Status.LOST and self.truth.get("on"):
            self._start_post_mortem(game.copy(), generation)
        return update

    def abandon(
        self, game: Game, generation: int, *, assisted: bool = False
    ) -> RecordsUpdate | None:
        """The player leaves ``game`` (new deal, restart): a started game counts as played."""
        if game.moves > 0 and game.status is Status.PLAYING:
            return self.record(game, generation, assisted=assisted)
        return None

    def new_game(self, game: Game, generation: int) -> RecordsUpdate | None:
        """A new game is on the board: forget the old post-mortem, ask about the new position,
        and return the stats of its rule set."""
        with self._lock:
            self._generation = generation
            self._post_mortem = ""
        if self.truth.get("on"):
            self._set_truth({"on": True, "state": "thinking", "detail": "Thinking…"})
            self.after_change(game, generation)
        return self.stats(game.rules.name)

    # -- "can this still be won?" ------------------------------------------------------------

    def _set_truth(self, value: TruthValue) -> None:
        self.truth = value
        self._on_truth(value)

    def after_change(self, game: Game, generation: int) -> None:
        """Ask the truth watcher about ``game``'s position (when the indicator is on)."""
        if self._watcher is None:
            return
        key = (generation, game.moves, len(game.history))
        if key != self._watched:
            self._watched = key
            self._watcher.submit(game)

    def set_truth(self, on: bool, game: Game, generation: int) -> None:
        """Switch the "can this still be won?" indicator on or off."""
        if not on:
            self.close()
            self._set_truth({"on": False})
            return
        if self._watcher is None:
            self._watcher = TruthWatcher(self._on_report)
        self._watched = None
        self._set_truth({"on": True, "state": "thinking", "detail": "Thinking…"})
        self.after_change(game, generation)

    def _on_report(self, report: TruthReport) -> None:
        if self._watcher is None:
            return
        with self._lock:
            self._set_truth(
                {
                    "on": True,
                    "state": str(report.state),
                    "detail": str(report.detail),
                    "moves": int(report.moves),
                    "post_mortem": self._post_mortem,
                }
            )

    def _start_post_mortem(self, game: Game, generation: int) -> None:
        def run() -> None:
            try:
                text = str(self.post_mortem(game).detail)
            except ValueError as exc:
                text = f"No post-mortem: {exc}"
            with self._lock:
                if generation == self._generation:
                    self._post_mortem = text
                    self._set_truth({**self.truth, "post_mortem": text})

        threading.Thread(target=run, name="pyramid-post-mortem", daemon=True).start()

    # -- solver help --------------------------------------------------------------------------

    def post_mortem(self, game: Game) -> PostMortem:
        """The solver's post-mortem of ``game``."""
        return post_mortem(game)

    def winnable_deal(self, rules: RuleSet) -> int:
        """A deal number the solver proves winnable under ``rules``."""
        return winnable_deal(rules, start=None, bound=WINNABLE_BOUND, max_seconds=WINNABLE_SECONDS)

    def search_winnable(
        self,
        rules: RuleSet,
        stop: Callable[[], bool],
        progress: Callable[[int, int], object],
        start: int | None = None,
    ) -> int | None:
        """The page's "winnable deals only": search deal after deal (background thread) until
        one is proved winnable; ``None`` when ``stop()`` turned true first."""
        return search_winnable(
            rules, start=start, max_seconds=WINNABLE_SECONDS, stop=stop, progress=progress
        )

    def _known(self, game: Game) -> tuple[bool, list[Move] | None]:
        """``(True, line)`` when the truth watcher already decided ``game``'s position (the
        rest of a winning line, or ``None`` for unwinnable); ``(False, None)`` otherwise."""
        watcher = self._watcher
        found = watcher.known(game) if watcher is not None else None
        if found is None:
            return False, None
        verdict, line = found
        return True, (line if verdict == "winnable" else None)

    def winning_move(self, game: Game) -> Move | None:
        """The next move of a winning line (the second-level hint); the truth watcher's line
        when it already has one."""
        known, line = self._known(game)
        if known:
            return line[0] if line else None
        return next_winning_move(game)

    def winning_line(self, game: Game) -> WinningLine | None:
        """What Solve plays: a line with the fewest moves from ``game``'s position when the
        solver proves one within :attr:`solve_limits`, else the decision search's line
        (:func:`~pyramid_widget.solver.lines.winning_line`; :meth:`WinningLine.describe
        <pyramid_widget.solver.lines.WinningLine.describe>` says which); ``None`` when the
        position cannot be won. When the truth watcher already proved the position lost,
        that is the answer at once; when it holds a line and the solver cannot decide
        within the limits, its line is played (not proved shortest).

        >>> from pyramid_widget import Game
        >>> g = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "4S"])
        >>> Extras(False, on_truth=print).winning_line(g).describe()
        'a shortest line, 4 moves'
        """
        known, line = self._known(game)
        if known and line is None:
            return None
        seconds, nodes = self.solve_limits
        try:
            return winning_line(game, max_seconds=seconds, max_nodes=nodes)
        except UndecidedError:
            if line is None:
                raise
            return WinningLine(line, shortest=False)

    def close(self) -> None:
        """Stop the truth watcher's thread."""
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.close()
