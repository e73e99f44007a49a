"""The widget's optional parts: records (the stats panel) and the solver's help (winnable
deals, "can this still be won?", second-level hints, the solve button, the post-mortem).

Both come from other modules (``pyramid_widget.records.store`` and ``pyramid_widget.solver.assist``) and are
used only when they import; without them the page hides their buttons (the ``features``
trait) and the Python calls raise a ``ValueError`` that says what is missing.
"""

from __future__ import annotations

import dataclasses
import importlib
import threading
from types import ModuleType
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game
    from pyramid_widget.widget import PyramidWidget

#: Solver budget for a "winnable deals only" new deal: deals tried and seconds per deal.
WINNABLE_BOUND = 20
WINNABLE_SECONDS = 1.0


def _optional(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def open_records(records: Any) -> Any:
    """The records store a widget uses: ``None`` means the default ``Records()``, ``False``
    none at all; an object with ``record_game`` and ``stats`` is used as it is.

    >>> open_records(False) is None
    True
    """
    if records is False:
        return None
    if records is None:
        module = _optional("pyramid_widget.records.store")
        return None if module is None else module.Records()
    if not (hasattr(records, "record_game") and hasattr(records, "stats")):
        raise TypeError(
            f"records must be None, False or a pyramid_widget.records.Records, got {records!r}"
        )
    return records


def _needs(module: ModuleType | None, what: str) -> ModuleType:
    if module is None:
        raise ValueError(
            f"{what} needs pyramid_widget.solver.assist (the solver), which is not available"
        )
    return module


def _is_final(game: Game) -> bool:
    return game.status is Status.LOST or (game.status is Status.WON and not game.rules.rounds)


class Extras:
    """Records and solver help for one :class:`~pyramid_widget.widget.PyramidWidget`."""

    def __init__(self, widget: PyramidWidget, records: Any) -> None:
        self._w = widget
        self.records = open_records(records)
        solver_ready = _optional("pyramid_widget.solver") is not None
        self.assist = _optional("pyramid_widget.solver.assist") if solver_ready else None
        self._watcher: Any = None
        self._watched: tuple[int, int, int] | None = None
        self._recorded = -1
        self._truth_lock = threading.Lock()
        self._post_mortem = ""
        widget.features = {"records": self.records is not None, "assist": self.assist is not None}
        if self.records is not None and getattr(self.records, "warning", None):
            widget.show_message(str(self.records.warning), "error")
        self.refresh_stats()

    @property
    def _game(self) -> Game:
        return self._w.game

    # -- records ---------------------------------------------------------------------------

    def refresh_stats(self) -> None:
        """Put the current rule set's records into the ``stats`` trait."""
        if self.records is None:
            return
        stats = self.records.stats(self._game.rules.name)
        as_dict = stats.to_dict() if hasattr(stats, "to_dict") else dataclasses.asdict(stats)
        self._w.stats = {k: v for k, v in as_dict.items() if not isinstance(v, (list, dict))}

    def _record(self) -> None:
        game = self._game
        if self.records is None or self._recorded == self._w.generation or game.deal is None:
            return
        self.records.record_game(game)
        self._recorded = self._w.generation
        self.refresh_stats()

    def game_over(self) -> None:
        """After a move that ended the game: record it; explain a loss if asked to."""
        if _is_final(self._game):
            self._record()
        if self._game.status is Status.LOST and (self._w.truth or {}).get("on"):
            self._start_post_mortem()

    def abandon(self) -> None:
        """The player leaves this game (new deal, restart): a started game counts as played."""
        game = self._game
        if game.moves > 0 and game.status is Status.PLAYING:
            self._record()

    def new_game(self) -> None:
        """A new game is on the board."""
        self._post_mortem = ""
        self.refresh_stats()
        if (self._w.truth or {}).get("on"):
            self._w.truth = {"on": True, "state": "thinking", "detail": "Thinking…"}
            self.after_change()

    # -- "can this still be won?" ------------------------------------------------------------

    def after_change(self) -> None:
        """Ask the truth watcher about the position after every change."""
        if self._watcher is None:
            return
        key = (self._w.generation, self._game.moves, len(self._game.history))
        if key != self._watched:
            self._watched = key
            self._watcher.submit(self._game)

    def set_truth(self, on: bool) -> None:
        """Switch the "can this still be won?" indicator on or off."""
        if not on:
            self.close()
            self._w.truth = {"on": False}
            return
        assist = _needs(self.assist, "the 'can this still be won?' indicator")
        if self._watcher is None:
            self._watcher = assist.TruthWatcher(self._on_truth)
        self._watched = None
        self._w.truth = {"on": True, "state": "thinking", "detail": "Thinking…"}
        self.after_change()

    def _on_truth(self, report: Any) -> None:
        if self._watcher is None:
            return
        with self._truth_lock:
            self._w.truth = {
                "on": True,
                "state": str(report.state),
                "detail": str(report.detail),
                "moves": int(report.moves),
                "post_mortem": self._post_mortem,
            }

    def _start_post_mortem(self) -> None:
        game = self._game.copy()
        generation = self._w.generation

        def run() -> None:
            try:
                text = str(self.post_mortem(game).detail)
            except ValueError as exc:
                text = f"No post-mortem: {exc}"
            with self._truth_lock:
                if generation == self._w.generation:
                    self._post_mortem = text
                    self._w.truth = {**(self._w.truth or {}), "post_mortem": text}

        threading.Thread(target=run, name="pyramid-post-mortem", daemon=True).start()

    def post_mortem(self, game: Game | None = None) -> Any:
        """The solver's post-mortem of ``game`` (default: the game on the board)."""
        assist = _needs(self.assist, "the post-mortem")
        return assist.post_mortem(game or self._game)

    # -- solver help --------------------------------------------------------------------------

    def winnable_deal(self, rules: RuleSet) -> int:
        """A deal number the solver proves winnable under ``rules``."""
        assist = _needs(self.assist, "'winnable deals only'")
        number: int = assist.winnable_deal(
            rules, start=None, bound=WINNABLE_BOUND, max_seconds=WINNABLE_SECONDS
        )
        return number

    def winning_move(self) -> Move | None:
        """The next move of a winning line (the second-level hint)."""
        assist = _needs(self.assist, "the second-level hint")
        move: Move | None = assist.next_winning_move(self._game)
        return move

    def solve(self, step_by_step: bool) -> list[Move] | None:
        """Find a winning line and play it (queued for the page, or at once)."""
        assist = _needs(self.assist, "the solve button")
        line: list[Move] | None = assist.winning_line(self._game)
        w = self._w
        if line is None:
            w.show_message("The solver proved that this position cannot be won.", "error")
            return None
        if not step_by_step:
            for move in line:
                w._apply(move, solving=True)
            return line
        with w.hold_sync():
            w.autoplay = [str(m) for m in line]
            w.highlight = [card_str(c) for c in line[0].cards] if line else []
            w.show_message(f"Solving: {len(line)} moves to go.", "hint")
        return line

    def solve_step(self) -> None:
        """Play the next queued move of the solver's line (the page asks for each step)."""
        w = self._w
        queue = list(w.autoplay)
        if not queue:
            return
        try:
            w._apply(Move.parse(queue[0]), solving=True)
        except ValueError:
            w.autoplay = []
            raise
        with w.hold_sync():
            w.autoplay = queue[1:]
            if queue[1:]:
                nxt = Move.parse(queue[1])
                w.highlight = [card_str(c) for c in nxt.cards] or ["stock"]
                w.show_message(f"Solving: {len(queue) - 1} moves to go.", "hint")

    def close(self) -> None:
        """Stop the truth watcher's thread."""
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.close()
