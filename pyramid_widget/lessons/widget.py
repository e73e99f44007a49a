"""``LessonWidget``: a lesson on the live board, with progress, feedback and "Show me".

An ipywidgets composition around a :class:`~pyramid_widget.widget.PyramidWidget`, driven by
a :class:`~pyramid_widget.lessons.runner.LessonRunner`: a header ("Lesson 2 of 6 · Step 3 of
6", the learner's progress through the course), a lesson picker, the step's prompt, the board,
a feedback line and the buttons *Show me*, *Restart step*, *Restart lesson*, *Previous* and
*Next*. The board is sized to the rows the step uses and shows only the piles and counters
the step is about (the lesson board's stylesheet, :mod:`pyramid_widget.lessons.style`). The learner plays on the board by clicking; every
move goes through the runner (the board's ``move_filter``) before it is applied, so a wrong
try is explained and leaves the position as it was.

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
"""

from __future__ import annotations

import contextlib
import html
import time
from collections.abc import Iterator, Sequence
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from pyramid_widget.engine.cards import parse_card
from pyramid_widget.engine.describe import describe_move
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.errors import IllegalMoveError
from pyramid_widget.lessons.model import Lesson
from pyramid_widget.lessons.progress import LessonProgress
from pyramid_widget.lessons.runner import LessonRunner, Outcome
from pyramid_widget.lessons.style import STYLESHEET, step_classes
from pyramid_widget.widget import STATIC, PyramidWidget

__all__ = ["LessonBoard", "LessonWidget"]

#: Toolbar buttons the board keeps during every lesson step (no new deal, no solver, no
#: restart: the lesson's own Restart step / Restart lesson buttons say what they restart);
#: a step adds the ones it teaches (:attr:`~pyramid_widget.lessons.model.Step.controls`).
LESSON_CONTROLS = ["help"]
_MOVE_KINDS = ("pair", "king", "draw", "redeal", "cell")


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"demo_pause is a number of seconds, got {value!r}")
    if not 0 <= value <= 5:
        raise ValueError(f"demo_pause must be 0..5 seconds, got {value!r}")
    return float(value)


def _html(name: str, **kwargs: Any) -> Any:
    """An HTML widget with the DOM class ``pyr-lesson-NAME`` (for styling and tests)."""
    box = widgets.HTML(**kwargs)
    box.add_class(f"pyr-lesson-{name}")
    return box


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


class LessonWidget(widgets.VBox):  # type: ignore[misc]
    """Lessons played on the live board.

    ``lessons``: one :class:`~pyramid_widget.lessons.model.Lesson`, a list of them, or ``None``
    for the built-in lessons; ``lesson``: the (0-based) lesson to open; ``demo_pause``:
    seconds "Show me" waits before each move (0 plays the demo at once); ``records``: where
    the learner's progress is kept (``None``: the default records file, ``False``: nowhere,
    or a :class:`~pyramid_widget.records.Records`); ``learner``: whose progress (``None``: the
    login name). Raises :class:`~pyramid_widget.errors.LessonError` for bad lessons.
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
        progress = None if records is False else LessonProgress(records, learner)
        self.runner = LessonRunner(lessons, lesson=lesson, progress=progress)
        self._loading = False
        self.feedback_text = ""
        self.feedback_kind = "info"
        self._last: Outcome | None = None
        # No won/lost banner (it would offer a new game over the lesson; the lesson says what
        # happened in its own words) and the compact display: a hand-made position counts every
        # card it leaves out as discarded, so no discard pile, deal label, time or score.
        self.board = LessonBoard(
            self.runner.game.rules,
            records=False,
            controls=LESSON_CONTROLS,
            banner=False,
            compact=True,
            move_filter=self._filter,
        )
        self.header = _html("header", layout=widgets.Layout(flex="1 1 auto"))
        self.picker = widgets.Dropdown(description="Lesson:", layout=widgets.Layout(width="280px"))
        self.picker.add_class("pyr-lesson-picker")
        self.prompt = _html("prompt")
        self.feedback = _html("feedback")
        self.buttons = self._make_buttons()
        self.board.observe(self._on_event, names="last_event")
        self.picker.observe(self._on_pick, names="value")
        self._classes: list[str] = []
        super().__init__(
            [
                widgets.HBox([self.header, self.picker]),
                self.prompt,
                self.board,
                self.feedback,
                widgets.HBox(list(self.buttons.values())),
            ]
        )
        self.add_class("pyr-lesson")
        self._load_step("")

    def _make_buttons(self) -> dict[str, Any]:
        actions = {
            "show": ("Show me", "play", self.show_me),
            "restart-step": ("Restart step", "undo", self.restart_step),
            "restart": ("Restart lesson", "refresh", self.restart_lesson),
            "previous": ("Previous", "arrow-left", self.previous),
            "next": ("Next", "arrow-right", self.next),
        }
        buttons = {}
        for name, (label, icon, action) in actions.items():
            button = widgets.Button(description=label, icon=icon)
            button.add_class(f"pyr-lesson-{name}")
            button.on_click(lambda _button, act=action: act())
            buttons[name] = button
        return buttons

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
        runner, lesson = self.runner, self.runner.lesson
        done = runner.lesson_done()
        dots = "".join(self._dot(i) for i in range(len(lesson)))
        state = ' · <span class="pyr-lesson-done">Lesson complete ✓</span>' if done else ""
        self.header.value = (
            f"<b>{html.escape(lesson.title)}</b> — "
            f'<span class="pyr-lesson-progress">{html.escape(runner.progress_text)}</span> '
            f'<span class="pyr-lesson-dots" title="● done by you, ◐ shown by Show me, '
            f'○ to do">{dots}</span>{state}<br>'
            f'<span class="pyr-lesson-course">{html.escape(self._course_line())}</span>'
        )
        intro = lesson.intro if runner.step_index == 0 else ""
        summary = lesson.summary if done else ""
        parts = [f"<p><i>{html.escape(t)}</i></p>" for t in (intro,) if t]
        parts.append(f"<p><b>{html.escape(runner.step.prompt)}</b></p>")
        self.prompt.value = "".join(parts)
        extra = f"<p><i>{html.escape(summary)}</i></p>" if summary else ""
        self.feedback.value = (
            f'<p class="pyr-lesson-says" data-kind="{self.feedback_kind}">'
            f"{html.escape(self.feedback_text)}</p>{extra}"
        )
        self._update_picker()
        self.buttons["previous"].disabled = runner.lesson_index == 0 and runner.step_index == 0
        last = runner.lesson_index == len(runner.lessons) - 1
        self.buttons["next"].disabled = last and runner.step_index == len(lesson) - 1
        self.buttons["next"].button_style = "success" if runner.solved else ""

    def _dot(self, step: int) -> str:
        key = (self.runner.lesson_index, step)
        return "●" if key in self.runner.completed else "◐" if key in self.runner.shown else "○"

    def _course_line(self) -> str:
        runner = self.runner
        who = runner.progress.learner if runner.progress is not None else "you"
        text = f"Course progress of {who}: {runner.course_text}."
        problem = runner.progress.problem if runner.progress is not None else None
        return f"{text} {problem}" if problem else text

    def _fit_board(self) -> None:
        """Size the board to the step's rows and show only what the step uses (classes the
        lesson stylesheet reads), with the board buttons the step teaches."""
        step = self.runner.step
        for name in self._classes:
            self.remove_class(name)
        self._classes = step_classes(step)
        for name in self._classes:
            self.add_class(name)
        self.board.controls = [*LESSON_CONTROLS, *step.controls]

    def _update_picker(self) -> None:
        runner = self.runner
        options = [
            (f"{i + 1}. {lesson.title}" + (" ✓" if runner.lesson_done(i) else ""), i)
            for i, lesson in enumerate(runner.lessons)
        ]
        self._loading = True
        try:
            if list(self.picker.options) != options:
                self.picker.options = options
            self.picker.value = runner.lesson_index
        finally:
            self._loading = False

    def _say(self, text: str, kind: str, *, on_board: bool = True) -> None:
        self.feedback_text, self.feedback_kind = text, kind
        if on_board and text:
            board_kind = {"success": "success", "mistake": "error"}.get(kind, "info")
            self.board.show_message(text, board_kind)
        self._render()

    # -- moving between steps -------------------------------------------------------------

    def _load_step(self, text: str) -> None:
        """Show the runner's current step on the board (the runner has set it up)."""
        self._loading = True
        try:
            self._fit_board()
            self.board.load(self.runner.game)
        finally:
            self._loading = False
        self._say(text, "info", on_board=False)
        self.board.show_message(self.runner.step.prompt, "info")

    def jump(self, lesson: int, step: int = 0) -> None:
        """Open step ``step`` of lesson ``lesson`` (0-based); ``IndexError`` if none."""
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

    def _on_pick(self, change: dict[str, Any]) -> None:
        if not self._loading and isinstance(change["new"], int):
            self.jump(change["new"])

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
