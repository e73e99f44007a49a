"""Running lessons in plain Python: progress, checking moves, explanations, "Show me".

:class:`LessonRunner` holds a list of :class:`~pyramid_widget.lessons.model.Lesson`\\ s, the
current lesson and step, and a :class:`~pyramid_widget.engine.game.Game` on the step's position. It
knows nothing about widgets: :class:`~pyramid_widget.lessons.widget.LessonWidget` puts a board
and buttons around it, and tests drive it directly.

>>> runner = LessonRunner()
>>> runner.progress_text
'Lesson 1 of 6 · Step 1 of 6'
>>> out = runner.try_move("5H+9D")
>>> out.kind, out.message, out.applied
('illegal', '5 + 9 = 14, one too many. The Five needs a card worth 8.', False)
>>> out = runner.try_move("5H+8C")
>>> out.kind, runner.solved
('success', True)
>>> runner.next()
True
>>> runner.progress_text
'Lesson 1 of 6 · Step 2 of 6'

A move the rules refuse is explained in friendlier words than the engine's:

>>> runner.jump(2)
>>> runner.try_move("AS+QH").message[:54]
'A covered Queen cannot pair with an Ace, even though t'
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from dataclasses import dataclass

from pyramid_widget.engine.cards import KING, Card, card_long_name, parse_card, rank, rank_name
from pyramid_widget.engine.describe import describe_move
from pyramid_widget.engine.describe import sentence as _sentence
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Zone
from pyramid_widget.errors import InvalidMoveError, Refusal, UnknownLessonError
from pyramid_widget.lessons.model import (
    DEMO_WORDS,
    MISTAKE_KINDS,
    Lesson,
    Step,
    _check_step,
    lesson_error,
)
from pyramid_widget.lessons.progress import DONE, SHOWN, LessonProgress

__all__ = [
    "LessonRunner",
    "Outcome",
    "check_lesson",
    "explain_mistake",
    "explain_setback",
    "friendly_reason",
    "mistake_kind",
]

#: What :attr:`Outcome.kind` may be.
OUTCOME_KINDS = ("ok", "success", "progress", "setback", "mistake", "illegal", "done")

#: Where the course sends a learner who has finished it.
PLAY_NOTEBOOK = "notebooks/00_play.ipynb"


@dataclass(frozen=True)
class Outcome:
    """What happened to one try.

    ``kind``: ``"ok"`` (the move may be played; from :meth:`LessonRunner.judge` only),
    ``"success"`` (the step is done), ``"progress"`` (an allowed move on the way),
    ``"setback"`` (an allowed move that was played but threw the win away, on a step the
    solver checks), ``"mistake"`` (a legal move this step refuses), ``"illegal"`` (the rules
    refuse it) or ``"done"`` (the step is already finished; press Next). ``message`` is for
    the learner; ``applied`` says whether the move changed the board.
    """

    kind: str
    message: str
    move: str = ""
    applied: bool = False
    lesson_done: bool = False

    @property
    def refused(self) -> bool:
        """Whether the move was (or would be) refused, leaving the position unchanged."""
        return self.kind in ("mistake", "illegal", "done")


def friendly_reason(refusal: Refusal | None, game: Game | None = None) -> str:
    """The engine's refusal with its cards spelled out, as a sentence (``""`` for none).

    Under a same-or-next-rank pairing (``game`` given) a no-match is said from the refusal's
    cards, and "ranks do not wrap" only for an Ace with a King, where wrapping is the point.

    >>> g = Game.from_position("medium", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "4S"]])
    >>> friendly_reason(g.refusal("5H+8C"))
    'The 8 of clubs is not on top of its waste pile (the 4 of spades is on it).'
    >>> friendly_reason(g.refusal("5H+4S"))
    '4 + 5 = 9, not 13.'
    >>> c = Game.from_position("cheops", pyramid=[None] * 24 + ["AH", "KS", "9D", "8C"])
    >>> friendly_reason(c.refusal("AH+9D"), c), friendly_reason(c.refusal("AH+KS"), c)
    ('Ace and 9 are not the same or next to each other.', 'Ace and King are not the same or next to each other (ranks do not wrap: an Ace never pairs with a King).')
    """
    if refusal is None:
        return ""
    if refusal.kind == "no-match" and game is not None and game.rules.pairing != "sum13":
        ranks = sorted(rank(c) for c in refusal.cards)
        words = " and ".join(rank_name(r) for r in ranks)
        text = f"{words} are not the same or next to each other"
        if ranks == [1, KING]:
            text += " (ranks do not wrap: an Ace never pairs with a King)"
        return _sentence(text)
    return _sentence(refusal.words)


#: The mistake kind (:data:`~pyramid_widget.lessons.model.MISTAKE_KINDS`) of an engine
#: refusal kind whose name differs; an engine kind that is neither here nor a mistake kind
#: is an ``"illegal"`` mistake.
MISTAKE_OF_REFUSAL = {"stock-top": "stock"}


def mistake_kind(game: Game, move: Move) -> str:
    """Name the kind of mistake ``move`` is in ``game`` (see ``MISTAKE_KINDS``): the kind of
    the engine's refusal, or ``"legal"`` when the rules allow it.

    >>> g = Game.from_position("medium", pyramid=[None] * 15 + ["QH"] + [None] * 5
    ...                        + ["5C", "8D", "AS"] + [None] * 4)
    >>> mistake_kind(g, Move.parse("QH+AS")), mistake_kind(g, Move.parse("5C+AS"))
    ('covered', 'no-match')
    """
    refusal = game.refusal(move)
    if refusal is None:
        return "legal"
    kind = MISTAKE_OF_REFUSAL.get(refusal.kind, refusal.kind)
    return kind if kind in MISTAKE_KINDS else "illegal"


def _default_text(kind: str, game: Game) -> str:
    if kind == "legal":
        return "That move is allowed, but it is not what this step asks. {prompt}"
    if kind == "no-match":
        if game.rules.pairing == "sum13":
            return "{reason} Two cards pair only when their values add up to exactly 13."
        return "{reason} Under {rules}, cards pair when their ranks are the same or next to each other."
    if kind == "covered":
        return "{reason} A pyramid card is available only when both cards below it are gone."
    if kind == "buried":
        return "{reason} Only the top card of a waste pile is available."
    if kind == "needs-partner":
        return "{reason} Click {cards} once, then a card that pairs with it."
    if kind == "game-over":
        return "The game on this board is over. Restart the step or press Show me."
    return "{reason}"


def explain_mistake(step: Step, game: Game, move: Move) -> str:
    """The explanation a learner gets for ``move`` in ``game`` on ``step``: the step's own
    text for this exact move, else for its kind, else for ``"illegal"``, else a default.

    ``{reason}`` (the engine's reason as a sentence), ``{cards}`` (the move's cards in words),
    ``{prompt}`` and ``{rules}`` in the text are filled in.

    >>> from pyramid_widget.lessons.builtin import KINGS
    >>> step = KINGS.steps[0]
    >>> explain_mistake(step, step.new_game(), Move.king(parse_card("5D")))
    'Only a King is removed alone; the 5 of diamonds needs a partner. Click the 5 of diamonds once, then a card that pairs with it.'
    """
    kind = mistake_kind(game, move)
    text = step.mistakes.get(str(move)) or step.mistakes.get(kind)
    if text is None and kind != "legal":
        text = step.mistakes.get("illegal")
    if text is None:
        text = _default_text(kind, game)
    reason = friendly_reason(game.refusal(move), game)
    names = " and ".join(f"the {card_long_name(c)}" for c in move.cards)
    filled = (
        text.replace("{reason}.", reason)
        .replace("{reason}", reason)
        .replace("{cards}", names)
        .replace("{prompt}", step.prompt)
        .replace("{rules}", game.rules.name)
    )
    return _sentence(filled)


def explain_setback(before: Game, move: Move, winning: Move | None) -> str:
    """Why ``move`` (played in ``before``) threw the win away, ``winning`` being the next
    move of a winning line from ``before``.

    >>> g = Game.from_position("hard", pyramid=[None] * 27 + ["9S"], stock=["2C"],
    ...                        wastes=[["4D"]])
    >>> explain_setback(g, Move.draw(), Move.parse("4D+9S"))[:59]
    'That draw buried the 4 of diamonds, and from here no line c'
    """
    undo = " Press Undo to take the move back."
    instead = f" To keep the win, {describe_move(winning)} instead." if winning else ""
    top = before.wastes[0][-1] if before.wastes and before.wastes[0] else None
    if move.kind is MoveKind.DRAW and top is not None:
        return (
            f"That draw buried the {card_long_name(top)}, and from here no line clears the "
            f"pyramid (the solver checked every one).{instead}{undo}"
        )
    return (
        "That move threw the win away: the solver checked every line from here and none "
        f"clears the pyramid.{instead}{undo}"
    )


class LessonRunner:
    """Progress through lessons: the current lesson and step, its game, checks and moves.

    ``lessons``: one :class:`~pyramid_widget.lessons.model.Lesson`, a sequence of them, or
    ``None`` for the built-in lessons; ``lesson``: the index to start at; ``progress``: a
    :class:`~pyramid_widget.lessons.progress.LessonProgress` that keeps which steps this
    learner has done (or been shown) across notebooks and kernels (``None``: kept here only).
    Every lesson was checked when it was made, so each one can be completed.
    """

    def __init__(
        self,
        lessons: Lesson | Sequence[Lesson] | None = None,
        *,
        lesson: int = 0,
        progress: LessonProgress | None = None,
    ) -> None:
        if lessons is None:
            from pyramid_widget.lessons.builtin import LESSONS

            lessons = LESSONS
        if isinstance(lessons, Lesson):
            lessons = [lessons]
        # 5 once failed as "'int' object is not iterable"
        if isinstance(lessons, (str, bytes)) or not isinstance(lessons, Sequence) or not lessons:
            raise lesson_error("give a Lesson or a non-empty list of Lessons")
        if not all(isinstance(item, Lesson) for item in lessons):
            raise lesson_error("every item must be a Lesson")
        self.lessons: tuple[Lesson, ...] = tuple(lessons)
        #: Where finished steps are kept across sessions (``None``: in this runner only).
        self.progress = progress
        #: ``(lesson index, step index)`` of every step the learner did themselves.
        self.completed: set[tuple[int, int]] = set()
        #: ``(lesson index, step index)`` of every step "Show me" played (and not yet done).
        self.shown: set[tuple[int, int]] = set()
        self._load_progress()
        self.lesson_index = 0
        self.step_index = 0
        self.solved = False
        #: Whether "Show me" is playing the moves now (they are the demo's, not the learner's).
        self.demo_running = False
        #: The history length at the first move that threw the win away (solver-checked steps).
        self.lost_at: int | None = None
        self.game: Game = self.lessons[0].steps[0].new_game()
        self.jump(lesson)

    def _load_progress(self) -> None:
        if self.progress is None:
            return
        marks = self.progress.load()
        for i, item in enumerate(self.lessons):
            for j in range(len(item)):
                how = marks.get((item.title, j))
                if how == DONE:
                    self.completed.add((i, j))
                elif how == SHOWN:
                    self.shown.add((i, j))

    def _mark(self, how: str) -> None:
        key = (self.lesson_index, self.step_index)
        if how == DONE:
            self.completed.add(key)
            self.shown.discard(key)
        elif key not in self.completed:
            self.shown.add(key)
        else:
            return
        if self.progress is not None:
            self.progress.mark(self.lesson.title, self.step_index, how)

    # -- where we are ---------------------------------------------------------------------

    @property
    def lesson(self) -> Lesson:
        """The current lesson."""
        return self.lessons[self.lesson_index]

    @property
    def step(self) -> Step:
        """The current step."""
        return self.lesson.steps[self.step_index]

    @property
    def progress_text(self) -> str:
        """Where the learner is, e.g. ``'Lesson 2 of 6 · Step 3 of 6'``."""
        return (
            f"Lesson {self.lesson_index + 1} of {len(self.lessons)} · "
            f"Step {self.step_index + 1} of {len(self.lesson)}"
        )

    @property
    def course_text(self) -> str:
        """How far the learner is through the whole course, e.g. ``'3 of 36 steps done by
        you, 1 shown'``."""
        total = sum(len(item) for item in self.lessons)
        shown = f", {len(self.shown)} shown" if self.shown else ""
        return f"{len(self.completed)} of {total} steps done by you{shown}"

    def lesson_done(self, index: int | None = None) -> bool:
        """Whether the learner did every step of lesson ``index`` (default: the current
        one) themselves; a step "Show me" played does not count until the learner does it."""
        i = self.lesson_index if index is None else index
        return all((i, s) in self.completed for s in range(len(self.lessons[i])))

    @property
    def all_done(self) -> bool:
        """Whether every lesson is finished."""
        return all(self.lesson_done(i) for i in range(len(self.lessons)))

    def still_to_do(self) -> list[tuple[int, int]]:
        """``(lesson, step)`` (0-based) of every step the learner has not done yet."""
        return [
            (i, j)
            for i, item in enumerate(self.lessons)
            for j in range(len(item))
            if (i, j) not in self.completed
        ]

    # -- moving around --------------------------------------------------------------------

    def jump(self, lesson: int, step: int = 0) -> None:
        """Go to step ``step`` of lesson ``lesson`` (both 0-based) on a fresh position.

        Raises :class:`~pyramid_widget.errors.UnknownLessonError` (a ``LessonError`` and an
        ``IndexError``) naming the valid range for a lesson or step that does not exist.

        >>> LessonRunner().jump(9)
        Traceback (most recent call last):
        ...
        pyramid_widget.errors.UnknownLessonError: lesson must be 0..5, got 9
        """
        if not _whole(lesson) or not 0 <= lesson < len(self.lessons):
            raise lesson_error(
                f"lesson must be 0..{len(self.lessons) - 1}, got {reprlib.repr(lesson)}",
                UnknownLessonError,
            )
        steps = len(self.lessons[lesson])
        if not _whole(step) or not 0 <= step < steps:
            raise lesson_error(
                f"step must be 0..{steps - 1} in this lesson, got {reprlib.repr(step)}",
                UnknownLessonError,
            )
        self.lesson_index, self.step_index = lesson, step
        self.restart_step()

    def restart_step(self) -> None:
        """Set the current step's position up again."""
        self.game = self.step.new_game()
        self.solved = False
        self.lost_at = None

    def restart_lesson(self) -> None:
        """Back to the first step of the current lesson (finished steps stay counted)."""
        self.jump(self.lesson_index)

    def next(self) -> bool:
        """Go to the next step, or the next lesson's first; ``False`` at the very end."""
        if self.step_index + 1 < len(self.lesson):
            self.jump(self.lesson_index, self.step_index + 1)
        elif self.lesson_index + 1 < len(self.lessons):
            self.jump(self.lesson_index + 1)
        else:
            return False
        return True

    def previous(self) -> bool:
        """Go to the previous step (or the previous lesson's last); ``False`` at the start."""
        if self.step_index > 0:
            self.jump(self.lesson_index, self.step_index - 1)
        elif self.lesson_index > 0:
            self.jump(self.lesson_index - 1, len(self.lessons[self.lesson_index - 1]) - 1)
        else:
            return False
        return True

    # -- trying moves ---------------------------------------------------------------------

    def judge(self, move: Move | str, game: Game | None = None) -> Outcome:
        """Decide about ``move`` without playing it: ``"ok"`` or a refusal saying why.

        Raises :class:`~pyramid_widget.errors.InvalidMoveError` for text that is no move.
        """
        game = self.game if game is None else game
        parsed = Move.parse(move) if isinstance(move, str) else move
        text = str(parsed)
        if self.solved:
            return Outcome("done", "This step is done: press Next to go on.", text)
        kind = mistake_kind(game, parsed)
        if kind != "legal":
            return Outcome("illegal", explain_mistake(self.step, game, parsed), text)
        if self.step.permits(parsed):
            return Outcome("ok", "", text)
        return Outcome("mistake", explain_mistake(self.step, game, parsed), text)

    def after_move(self, move: Move | str) -> Outcome:
        """Record that ``move`` was played on :attr:`game`; say whether the step is done.

        During "Show me" (:attr:`demo_running`) the step is marked *shown*, not done, and the
        words are about the demo, not the learner."""
        parsed = Move.parse(move) if isinstance(move, str) else move
        text = str(parsed)
        if not self.step.is_done(self.game, parsed):
            setback = None if self.demo_running else self._check_win(parsed)
            if setback is not None:
                return Outcome("setback", setback, text, True)
            if self.demo_running:
                return Outcome("progress", "", text, True)
            if self.lost_at is not None:
                return Outcome(
                    "setback",
                    "The win is already gone (since move "
                    f"{self.lost_at + 1}); press Undo back to it, or Restart step.",
                    text,
                    True,
                )
            return Outcome("progress", _sentence(self.step.progress), text, True)
        return self._success(text)

    def _success(self, text: str) -> Outcome:
        self.solved = True
        why = _sentence(self.step.why) if self.step.why else "Well done."
        if self.demo_running:
            self._mark(SHOWN)
            return Outcome("success", why, text, True)
        self._mark(DONE)
        done = self.lesson_done()
        if done and self.step_index == len(self.lesson) - 1:
            why += f" You have finished the lesson “{self.lesson.title}”!"
        elif self.step_index == len(self.lesson) - 1:
            left = [
                j + 1
                for j in range(len(self.lesson))
                if (self.lesson_index, j) not in self.completed
            ]
            why += f" To finish the lesson, do step(s) {', '.join(map(str, left))} yourself too."
        if self.lesson_index == len(self.lessons) - 1 and self.step_index == len(self.lesson) - 1:
            why += " " + self.end_of_course_text()
        return Outcome("success", why, text, True, lesson_done=done)

    def end_of_course_text(self) -> str:
        """What the learner reads at the end of the last lesson: well done, or what is left,
        and where to go next."""
        if self.all_done:
            return (
                "You have finished the whole course. Now play whole games on your own in "
                f"{PLAY_NOTEBOOK}."
            )
        left = self.still_to_do()
        where = ", ".join(f"{i + 1}.{j + 1}" for i, j in left[:6]) + ("…" if len(left) > 6 else "")
        return (
            f"That is the end of the course; {len(left)} step(s) are still to do yourself "
            f"(lesson.step: {where}). Then play whole games in {PLAY_NOTEBOOK}."
        )

    def _check_win(self, move: Move) -> str | None:
        """On a solver-checked step: the explanation if ``move`` (just played) threw away a
        win that was in hand before it, else ``None``."""
        if not self.step.solver_checks or self.lost_at is not None:
            return None
        from pyramid_widget.solver import Verdict, solve

        after = solve(self.game, max_seconds=3)
        if after.verdict is not Verdict.UNWINNABLE:
            return None
        before = self.game.copy()
        before.undo()
        line = solve(before, max_seconds=3)
        if not line.winnable:
            return None  # lost already: said when it happened (or the step starts lost)
        self.lost_at = len(self.game.history) - 1
        return explain_setback(before, move, line.moves[0] if line.moves else None)

    def try_move(self, move: Move | str) -> Outcome:
        """Judge ``move`` and, if it may be played, play it on :attr:`game`.

        A refused move leaves the position exactly as it was.
        """
        outcome = self.judge(move)
        if outcome.kind != "ok":
            return outcome
        self.game.play(outcome.move)
        return self.after_move(outcome.move)

    def undo(self) -> Outcome:
        """Take the last move back (the board's Undo), and check the goal again."""
        if not self.game.can_undo:
            return Outcome("illegal", "There is no move to take back.", "undo")
        self.game.undo()
        return self.after_undo()

    def after_undo(self) -> Outcome:
        """Record that a move was taken back on :attr:`game`; a step about Undo may be done."""
        self.solved = False
        if self.lost_at is not None and len(self.game.history) <= self.lost_at:
            self.lost_at = None
        if self.step.is_done(self.game, None):
            return self._success("undo")
        back = " The win is in hand again." if self.step.solver_checks else ""
        return Outcome("progress", "Move taken back." + back, "undo", True)

    def explain_touch(self, card: Card | str) -> str | None:
        """Why touching ``card`` does nothing (it is not available), in the step's words.

        Uses the step's explanation of a move with this card that is illegal now (so touching
        the covered Queen explains ``"QH+AS"``), else the engine's reason made friendly.
        ``None`` when the card is available.
        """
        card = parse_card(card) if isinstance(card, str) else card
        if self.game.is_available(card) or self.game.where(card).zone is Zone.DISCARD:
            return None
        for key in self.step.mistakes:
            try:
                move = Move.parse(key)
            except InvalidMoveError:
                continue
            if card in move.cards and self.game.explain(move) is not None:
                return explain_mistake(self.step, self.game, move)
        return explain_mistake(self.step, self.game, Move.king(card))

    def show_me(self) -> list[Outcome]:
        """Set the step up again and play its demo; returns what each demo move did. The
        step is marked *shown*, not done: the learner still has to do it."""
        self.restart_step()
        self.demo_running = True
        try:
            return [self.undo() if m in DEMO_WORDS else self.try_move(m) for m in self.step.demo]
        finally:
            self.demo_running = False


def _whole(number: object) -> bool:
    """Whether ``number`` is an int and not a bool (True is no lesson number)."""
    return isinstance(number, int) and not isinstance(number, bool)


def check_lesson(lesson: Lesson) -> None:
    """Check that every step's demo is accepted and completes the step (a
    :class:`~pyramid_widget.lessons.model.Lesson` is checked when it is made; this checks
    it again). Raises :class:`~pyramid_widget.errors.LessonError` naming the step and the move.
    """
    for index, step in enumerate(lesson.steps):
        _check_step(step, f"lesson {lesson.title!r}, step {index + 1}")
