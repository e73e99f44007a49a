"""``LessonWidget``: a lesson on the live board, with progress, feedback and "Show me".

The whole lesson is one anywidget model, the :class:`LessonBoard` (a
:class:`~pyramid_widget.widget.PyramidWidget`), so it renders and plays wherever anywidget
does: JupyterLab, Notebook 7, Voilà, marimo (which refuses ipywidgets containers), VS Code and
Colab. Around the board the page draws the board's ``panel`` trait, plain data that
:class:`LessonWidget` keeps up to date from a :class:`~pyramid_widget.lessons.runner.LessonRunner`:
a header ("Lesson 2 of 6 · Step 3 of 6", the dots of the lesson's steps, the learner's
progress through the course), a lesson picker, the step's prompt, a feedback line and the
buttons *Show me*, *Restart step*, *Restart lesson*, *Previous* and *Next*. Every text reaches
the page as text, never as markup. A press on a button or the picker comes back as a
``"panel"`` intent, checked by the board like every other intent. The board is sized to the
rows the step uses and shows only the piles and counters the step is about (the root's CSS
classes in the panel, read by the lesson stylesheet, :mod:`pyramid_widget.lessons.style`).
The learner plays on the board by clicking; every move goes through the runner (the board's
``move_filter``) before it is applied, so a wrong try is explained and leaves the position
as it was.

:class:`LessonWidget` itself is a controller, not a widget: it shows its board (Jupyter,
Voilà and Colab through ``_repr_mimebundle_``, marimo through ``_display_``). In marimo,
``mo.ui.anywidget(lesson.board)`` also makes the lesson observable (its ``.value`` changes
with every move and press).

>>> from pyramid_widget.lessons.builtin import LESSONS
>>> lw = LessonWidget(LESSONS, lesson=2, demo_pause=0)
>>> lw.progress_text
'Lesson 3 of 6 · Step 1 of 5'
>>> lw.board.play("QH", "AS")
Traceback (most recent call last):
...
pyramid_widget.errors.IllegalMoveError: cannot play 'AS+QH': QH is covered by 5C and 8D
>>> lw.feedback_text[:40]
'A covered Queen cannot pair with an Ace,'
>>> _ = lw.board.play("5C", "8D")
>>> lw.runner.solved, lw.feedback_kind
(True, 'success')
>>> [(b["label"], b["primary"]) for b in lw.board.panel["buttons"]][-1]
('Next', True)
>>> lw.board._on_msg(lw.board, {"kind": "panel", "action": "next"}, [])  # the page's Next
>>> lw.board.panel["header"]["progress"], lw.board.panel["header"]["dots"]
('Lesson 3 of 6 · Step 2 of 5', '●○○○○')
"""

from __future__ import annotations

import contextlib
import reprlib
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from pyramid_widget.engine.cards import parse_card
from pyramid_widget.engine.describe import describe_move
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.errors import IllegalMoveError
from pyramid_widget.lessons.model import Lesson, lesson_error
from pyramid_widget.lessons.progress import (
    LessonProgress,
    check_learner_argument,
    is_progress_store,
)
from pyramid_widget.lessons.runner import LessonRunner, Outcome
from pyramid_widget.lessons.style import STYLESHEET, step_classes
from pyramid_widget.widget import STATIC, PyramidWidget

__all__ = ["LessonBoard", "LessonWidget"]

#: Toolbar buttons the board keeps during every lesson step (no new deal, no solver, no
#: restart: the lesson's own Restart step / Restart lesson buttons say what they restart);
#: a step adds the ones it teaches (:attr:`~pyramid_widget.lessons.model.Step.controls`).
LESSON_CONTROLS = ["help"]
_MOVE_KINDS = ("pair", "king", "draw", "redeal", "cell")

#: The panel's buttons, in the order shown: the action a press sends, and its label.
BUTTONS = {
    "show": "Show me",
    "restart-step": "Restart step",
    "restart": "Restart lesson",
    "previous": "Previous",
    "next": "Next",
}
#: What the dots in the header mean (their tooltip).
DOTS_TITLE = "● done by you, ◐ shown by Show me, ○ to do"


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"demo_pause is a number of seconds, got {reprlib.repr(value)}")
    if not 0 <= value <= 5:  # NaN too
        raise lesson_error(f"demo_pause must be 0..5 seconds, got {value!r}")
    return float(value)


def _progress(records: Any, learner: str | None) -> LessonProgress | None:
    """Where the learner's progress is kept: ``records`` as :class:`PyramidWidget` takes it
    (``None``: the default records file, ``False``: nowhere, or a records store), refused
    with the board's own sentence otherwise; a bad ``learner`` is refused even where nothing
    is kept."""
    if records is False:
        if learner is not None:
            check_learner_argument(learner)
        return None
    if records is not None and not is_progress_store(records):
        raise TypeError(
            "records must be None, False or a pyramid_widget.records.Records, "
            f"got {reprlib.repr(records)}"
        )
    return LessonProgress(records, learner)


def _event_move(kind: str, text: str) -> Move:
    """The move a board event names: a lone card (``"5D"`` with kind ``"king"``) is that
    card removed alone, even when it is no King (the rules then refuse it, and say why)."""
    if kind == "king" and "+" not in text:
        return Move.king(parse_card(text))
    return Move.parse(text)


class LessonBoard(PyramidWidget):
    """The lesson's board: a :class:`~pyramid_widget.widget.PyramidWidget` whose stylesheet
    carries the lesson rules too (:data:`~pyramid_widget.lessons.style.STYLESHEET`: the board
    sized to the step's rows, only the piles and counters the step uses, the feedback
    colours), delivered the anywidget way, with no ``<style>`` of the lesson's own."""

    # anywidget takes CSS text as well as a path; the board's own sheet comes first.
    _css = (STATIC / "widget.css").read_text(encoding="utf-8") + "\n" + STYLESHEET  # type: ignore[assignment]


class LessonWidget:
    """Lessons played on the live board.

    ``lessons``: one :class:`~pyramid_widget.lessons.model.Lesson`, a list of them, or ``None``
    for the built-in lessons; ``lesson``: the (0-based) lesson to open; ``demo_pause``:
    seconds "Show me" waits before each move (0 plays the demo at once); ``records``: where
    the learner's progress is kept (``None``: the default records file, ``False``: nowhere,
    or a :class:`~pyramid_widget.records.Records`); ``learner``: whose progress (``None``: the
    login name). Raises :class:`~pyramid_widget.errors.LessonError` for bad lessons, a
    lesson number that does not exist or a ``demo_pause`` out of range, and ``TypeError``
    for a ``records`` or ``demo_pause`` of the wrong type (as :class:`PyramidWidget` does).

    The widget shown is :attr:`board` (one anywidget model: the board and the lesson's panel
    around it); displaying the ``LessonWidget`` displays it, in every host.
    """

    def __init__(
        self,
        lessons: Lesson | Sequence[Lesson] | None = None,
        *,
        lesson: int = 0,
        demo_pause: float = 0.7,
        records: Any = None,
        learner: str | None = None,
    ) -> None:
        #: Seconds "Show me" waits before each demo move, so the learner sees them one by one.
        self.demo_pause = _seconds(demo_pause)
        self.runner = LessonRunner(lessons, lesson=lesson, progress=_progress(records, learner))
        self._loading = False
        self.feedback_text = ""
        self.feedback_kind = "info"
        self._last: Outcome | None = None
        # No won/lost banner (it would offer a new game over the lesson; the lesson says what
        # happened in its own words) and the compact display: a hand-made position counts every
        # card it leaves out as discarded, so no discard pile, deal label, time or score.
        #: The lesson's one widget: the board, with the lesson's panel (its ``panel`` trait).
        self.board = LessonBoard(
            self.runner.game.rules,
            records=False,
            controls=LESSON_CONTROLS,
            banner=False,
            compact=True,
            move_filter=self._filter,
        )
        self.board.on_panel = self._on_press
        self.board.observe(self._on_event, names="last_event")
        self._load_step("")

    # -- how hosts show it ----------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """Jupyter, Voilà, VS Code and Colab show the board (the live widget, and the static
        SVG of the position where there is no widget manager)."""
        return self.board._repr_mimebundle_(**kwargs)

    def _display_(self) -> LessonBoard:
        """marimo shows the board (an anywidget); wrap ``lesson.board`` in
        ``mo.ui.anywidget`` to observe it too."""
        return self.board

    def __repr__(self) -> str:
        return f"<LessonWidget: {self.runner.lesson.title!r}, {self.progress_text}>"

    def close(self) -> None:
        """Close the board (the widget on the page)."""
        self.board.close()

    # -- what the learner sees ------------------------------------------------------------

    @property
    def progress_text(self) -> str:
        """E.g. ``'Lesson 2 of 5 · Step 3 of 6'``."""
        return self.runner.progress_text

    @property
    def game(self) -> Game:
        """The game on the board (the current step's position and the moves since)."""
        return self.runner.game

    def _render(self) -> None:
        """Put what the lesson shows into the board's ``panel`` trait (plain data, drawn by
        the page as text; see :data:`~pyramid_widget.widget.PANEL_FIELDS`)."""
        runner, lesson = self.runner, self.runner.lesson
        done = runner.lesson_done()
        intro = lesson.intro if runner.step_index == 0 else ""
        prompt = [{"text": intro, "style": "intro"}] if intro else []
        prompt.append({"text": runner.step.prompt, "style": "task"})
        self.board.panel = {
            "classes": ["pyr-lesson", *step_classes(runner.step)],
            "header": {
                "title": lesson.title,
                "progress": runner.progress_text,
                "dots": "".join(self._dot(i) for i in range(len(lesson))),
                "dots_title": DOTS_TITLE,
                "state": "Lesson complete ✓" if done else "",
                "course": self._course_line(),
            },
            "picker": {
                "label": "Lesson:",
                "options": [
                    f"{i + 1}. {item.title}" + (" ✓" if runner.lesson_done(i) else "")
                    for i, item in enumerate(runner.lessons)
                ],
                "selected": runner.lesson_index,
            },
            "prompt": prompt,
            "feedback": {
                "text": self.feedback_text,
                "kind": self.feedback_kind,
                "summary": lesson.summary if done else "",
            },
            "buttons": self._buttons(),
        }

    def _buttons(self) -> list[dict[str, Any]]:
        runner = self.runner
        first = runner.lesson_index == 0 and runner.step_index == 0
        last = (
            runner.lesson_index == len(runner.lessons) - 1
            and runner.step_index == len(runner.lesson) - 1
        )
        disabled = {"previous": first, "next": last}
        return [
            {
                "action": action,
                "label": label,
                "disabled": disabled.get(action, False),
                "primary": action == "next" and runner.solved,
            }
            for action, label in BUTTONS.items()
        ]

    def _dot(self, step: int) -> str:
        key = (self.runner.lesson_index, step)
        return "●" if key in self.runner.completed else "◐" if key in self.runner.shown else "○"

    def _course_line(self) -> str:
        runner = self.runner
        if runner.progress is None:
            return f"Course progress (this session only, not saved): {runner.course_text}."
        text = f"Course progress of {runner.progress.learner}: {runner.course_text}."
        problem = runner.progress.problem
        return f"{text} {problem}" if problem else text

    def _say(self, text: str, kind: str, *, on_board: bool = True) -> None:
        self.feedback_text, self.feedback_kind = text, kind
        with self.board.hold_sync():  # the page gets the board's words and the panel at once
            if on_board and text:
                board_kind = {"success": "success", "mistake": "error"}.get(kind, "info")
                self.board.show_message(text, board_kind)
            self._render()

    # -- moving between steps -------------------------------------------------------------

    def _load_step(self, text: str) -> None:
        """Show the runner's current step on the board (the runner has set it up), with the
        board buttons the step teaches; the page gets the position and the panel at once."""
        with self.board.hold_sync():
            self._loading = True
            try:
                self.board.controls = [*LESSON_CONTROLS, *self.runner.step.controls]
                self.board.load(self.runner.game)
            finally:
                self._loading = False
            self._say(text, "info", on_board=False)
            self.board.show_message(self.runner.step.prompt, "info")

    def jump(self, lesson: int, step: int = 0) -> None:
        """Open step ``step`` of lesson ``lesson`` (0-based);
        :class:`~pyramid_widget.errors.UnknownLessonError` (an ``IndexError`` too) if none."""
        self.runner.jump(lesson, step)
        self._load_step("")

    def next(self) -> None:
        """Go to the next step (or lesson)."""
        if self.runner.next():
            self._load_step("")

    def previous(self) -> None:
        """Go back one step (or to the previous lesson's last step)."""
        if self.runner.previous():
            self._load_step("")

    def restart_lesson(self) -> None:
        """Start the current lesson again from its first step."""
        self.runner.restart_lesson()
        self._load_step("Lesson restarted.")

    def restart_step(self) -> None:
        """Set the current step's position up again."""
        self.runner.restart_step()
        self._load_step("")

    @contextlib.contextmanager
    def _demo(self) -> Iterator[None]:
        """The board's events during "Show me" are the demo's: the runner hears of each move
        from :meth:`show_me`, and nothing is said to the learner about them."""
        self._loading = self.runner.demo_running = True
        try:
            yield
        finally:
            self._loading = self.runner.demo_running = False

    def show_me(self) -> None:
        """Play the step for the learner: set it up again and make the demo moves. The step
        is marked *shown*, not done: the learner still has to do it themselves."""
        self.runner.restart_step()
        self._load_step("")
        outcome: Outcome | None = None
        with self._demo():
            for text in self.runner.step.demo:
                time.sleep(self.demo_pause)  # the page gets each move as it happens
                if text == "undo":
                    self.board.undo()
                    outcome = self.runner.after_undo()
                    self.board.show_message("Show me: Undo takes the move back.", "hint")
                    continue
                move = Move.parse(text)
                with self.board.hold_sync():  # the page gets the demo's words, not the board's
                    self.board.play(move)
                    self.board.show_message(f"Show me: {describe_move(move)}.", "hint")
                outcome = self.runner.after_move(move)
        steps = "; then ".join(
            "press Undo" if m == "undo" else describe_move(Move.parse(m))
            for m in self.runner.step.demo
        )
        why = outcome.message if outcome is not None else ""
        again = (
            ""
            if (self.runner.lesson_index, self.runner.step_index) in self.runner.completed
            else " That was Show me: press Restart step and do it yourself to count the step."
        )
        self._say(f"Here is how: {steps}. {why}{again}", "info")

    def play(self, move: str) -> Outcome:
        """Try ``move`` (text like ``"5H+8C"`` or ``"draw"``) as if clicked on the board and
        return what happened; a refused move is explained and changes nothing."""
        parsed = Move.parse(move)
        self._last = None
        with contextlib.suppress(IllegalMoveError):
            self.board.play(parsed)
        return self._last or self.runner.judge(parsed)

    # -- what happens on the board --------------------------------------------------------

    def _filter(self, game: Game, move: Move) -> str | None:
        outcome = self.runner.judge(move, game)
        return None if outcome.kind == "ok" else outcome.message

    def _on_press(self, action: str, index: int | None) -> None:
        """A press in the panel (the board checked the panel offers it now)."""
        if action == "pick":
            if index is not None and index != self.runner.lesson_index:
                self.jump(index)
            return
        actions: dict[str, Callable[[], None]] = {
            "show": self.show_me,
            "restart-step": self.restart_step,
            "restart": self.restart_lesson,
            "previous": self.previous,
            "next": self.next,
        }
        actions[action]()

    def _on_event(self, change: dict[str, Any]) -> None:
        if self._loading:
            return
        event = change["new"]
        kind, ok, move = event.get("kind"), event.get("ok"), event.get("move") or ""
        if kind in _MOVE_KINDS and move:
            self._on_move(_event_move(kind, move), bool(ok), str(event.get("message") or ""))
        elif kind == "select" and not ok and event.get("cards"):
            why = self.runner.explain_touch(event["cards"][0])
            if why:
                self._last = Outcome("illegal", why)
                self._say(why, "mistake")
        elif kind in ("new", "restart"):
            self.restart_step()  # a new deal or a restart from the board: the step again
        elif kind == "undo" and ok:
            self._report(self.runner.after_undo())
        elif kind == "redo" and ok and move:
            self._report(self.runner.after_move(_event_move("", move)))

    def _on_move(self, move: Move, ok: bool, board_says: str) -> None:
        if ok:
            self._report(self.runner.after_move(move))
            return
        outcome = self.runner.judge(move)
        if outcome.kind == "ok":  # refused by the board itself (paused, say): its words
            outcome = Outcome("illegal", board_says, str(move))
        self._report(outcome)

    def _report(self, outcome: Outcome) -> None:
        self._last = outcome
        kind = {"success": "success", "progress": "info"}.get(outcome.kind, "mistake")
        if outcome.kind == "progress" and not outcome.message:
            return
        self._say(outcome.message, kind)
