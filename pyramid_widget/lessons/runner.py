"""Running lessons in plain Python: progress, checking moves, explanations, "Show me".

:class:`LessonRunner` holds a list of :class:`~pyramid_widget.lessons.model.Lesson`\\ s, the
current lesson and step, and a :class:`~pyramid_widget.engine.game.Game` on the step's position. It
knows nothing about widgets: :class:`~pyramid_widget.lessons.widget.LessonWidget` puts a board
and buttons around it, and tests drive it directly.

>>> runner = LessonRunner()
>>> runner.progress_text
'Lesson 1 of 5 · Step 1 of 6'
>>> out = runner.try_move("5H+9D")
>>> out.kind, out.message, out.applied
('illegal', '5 + 9 = 14, one too many. The Five needs a card worth 8.', False)
>>> out = runner.try_move("5H+8C")
>>> out.kind, runner.solved
('success', True)
>>> runner.next()
True
>>> runner.progress_text
'Lesson 1 of 5 · Step 2 of 6'

A move the rules refuse is explained in friendlier words than the engine's:

>>> runner.jump(2)
>>> runner.try_move("AS+QH").message[:54]
'A covered Queen cannot pair with an Ace, even though t'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pyramid_widget.engine.cards import Card, card_long_name, parse_card
from pyramid_widget.engine.describe import sentence as _sentence
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Zone
from pyramid_widget.errors import InvalidMoveError, Refusal
from pyramid_widget.lessons.model import MISTAKE_KINDS, Lesson, LessonError, Step

__all__ = [
    "LessonRunner",
    "Outcome",
    "check_lesson",
    "explain_mistake",
    "friendly_reason",
    "mistake_kind",
]

#: What :attr:`Outcome.kind` may be.
OUTCOME_KINDS = ("ok", "success", "progress", "mistake", "illegal", "done")


@dataclass(frozen=True)
class Outcome:
    """What happened to one try.

    ``kind``: ``"ok"`` (the move may be played; from :meth:`LessonRunner.judge` only),
    ``"success"`` (the step is done), ``"progress"`` (an allowed move on the way),
    ``"mistake"`` (a legal move this step refuses), ``"illegal"`` (the rules refuse it) or
    ``"done"`` (the step is already finished; press Next). ``message`` is for the learner;
    ``applied`` says whether the move changed the board.
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


def friendly_reason(refusal: Refusal | None) -> str:
    """The engine's refusal with its cards spelled out, as a sentence (``""`` for none).

    >>> g = Game.from_position("medium", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "4S"]])
    >>> friendly_reason(g.refusal("5H+8C"))
    'The 8 of clubs is not on top of its waste pile (the 4 of spades is on it).'
    >>> friendly_reason(g.refusal("5H+4S"))
    '4 + 5 = 9, not 13.'
    """
    return "" if refusal is None else _sentence(refusal.words)


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
    if kind == "game-over":
        return "The game on this board is over. Restart the step or press Show me."
    return "{reason}"


def explain_mistake(step: Step, game: Game, move: Move) -> str:
    """The explanation a learner gets for ``move`` in ``game`` on ``step``: the step's own
    text for this exact move, else for its kind, else for ``"illegal"``, else a default.

    ``{reason}`` (the engine's reason as a sentence), ``{cards}`` (the move's cards in words),
    ``{prompt}`` and ``{rules}`` in the text are filled in.
    """
    kind = mistake_kind(game, move)
    text = step.mistakes.get(str(move)) or step.mistakes.get(kind)
    if text is None and kind != "legal":
        text = step.mistakes.get("illegal")
    if text is None:
        text = _default_text(kind, game)
    reason = friendly_reason(game.refusal(move))
    names = " and ".join(f"the {card_long_name(c)}" for c in move.cards)
    filled = (
        text.replace("{reason}.", reason)
        .replace("{reason}", reason)
        .replace("{cards}", names)
        .replace("{prompt}", step.prompt)
        .replace("{rules}", game.rules.name)
    )
    return _sentence(filled)


class LessonRunner:
    """Progress through lessons: the current lesson and step, its game, checks and moves.

    ``lessons``: one :class:`~pyramid_widget.lessons.model.Lesson`, a sequence of them, or
    ``None`` for the five built-in lessons; ``lesson``: the index to start at. Every step's
    demo is checked up front, so a lesson that cannot be completed raises
    :class:`~pyramid_widget.errors.LessonError` here, not halfway through a class.
    """

    def __init__(
        self, lessons: Lesson | Sequence[Lesson] | None = None, *, lesson: int = 0
    ) -> None:
        if lessons is None:
            from pyramid_widget.lessons.builtin import LESSONS

            lessons = LESSONS
        if isinstance(lessons, Lesson):
            lessons = [lessons]
        if isinstance(lessons, (str, bytes)) or not lessons:
            raise LessonError("give a Lesson or a non-empty list of Lessons")
        if not all(isinstance(item, Lesson) for item in lessons):
            raise LessonError("every item must be a Lesson")
        self.lessons: tuple[Lesson, ...] = tuple(lessons)
        for item in self.lessons:
            check_lesson(item)
        #: ``(lesson index, step index)`` of every finished step.
        self.completed: set[tuple[int, int]] = set()
        self.lesson_index = 0
        self.step_index = 0
        self.solved = False
        self.game: Game = self.lessons[0].steps[0].new_game()
        self.jump(lesson)

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
        """Where the learner is, e.g. ``'Lesson 2 of 5 · Step 3 of 6'``."""
        return (
            f"Lesson {self.lesson_index + 1} of {len(self.lessons)} · "
            f"Step {self.step_index + 1} of {len(self.lesson)}"
        )

    def lesson_done(self, index: int | None = None) -> bool:
        """Whether every step of lesson ``index`` (default: the current one) is finished."""
        i = self.lesson_index if index is None else index
        return all((i, s) in self.completed for s in range(len(self.lessons[i])))

    @property
    def all_done(self) -> bool:
        """Whether every lesson is finished."""
        return all(self.lesson_done(i) for i in range(len(self.lessons)))

    # -- moving around --------------------------------------------------------------------

    def jump(self, lesson: int, step: int = 0) -> None:
        """Go to step ``step`` of lesson ``lesson`` (both 0-based) on a fresh position.

        Raises ``IndexError`` naming the valid range for a lesson or step that does not exist.
        """
        if not isinstance(lesson, int) or not 0 <= lesson < len(self.lessons):
            raise IndexError(f"lesson must be 0..{len(self.lessons) - 1}, got {lesson!r}")
        steps = len(self.lessons[lesson])
        if not isinstance(step, int) or not 0 <= step < steps:
            raise IndexError(f"step must be 0..{steps - 1} in this lesson, got {step!r}")
        self.lesson_index, self.step_index = lesson, step
        self.restart_step()

    def restart_step(self) -> None:
        """Set the current step's position up again."""
        self.game = self.step.new_game()
        self.solved = False

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
        step = self.step
        if step.accepts(parsed):
            return Outcome("ok", "", text)
        if text not in step.mistakes and step.allows(parsed):
            return Outcome("ok", "", text)
        return Outcome("mistake", explain_mistake(step, game, parsed), text)

    def after_move(self, move: Move | str) -> Outcome:
        """Record that ``move`` was played on :attr:`game`; say whether the step is done."""
        parsed = Move.parse(move) if isinstance(move, str) else move
        if not self.step.is_done(self.game, parsed):
            return Outcome("progress", _sentence(self.step.progress), str(parsed), True)
        self.solved = True
        self.completed.add((self.lesson_index, self.step_index))
        why = _sentence(self.step.why) if self.step.why else "Well done."
        last = self.step_index == len(self.lesson) - 1
        if last:
            why += f" You have finished the lesson “{self.lesson.title}”!"
        return Outcome("success", why, str(parsed), True, lesson_done=last)

    def try_move(self, move: Move | str) -> Outcome:
        """Judge ``move`` and, if it may be played, play it on :attr:`game`.

        A refused move leaves the position exactly as it was.
        """
        outcome = self.judge(move)
        if outcome.kind != "ok":
            return outcome
        self.game.play(outcome.move)
        return self.after_move(outcome.move)

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
        """Set the step up again and play its demo; returns what each demo move did."""
        self.restart_step()
        return [self.try_move(m) for m in self.step.demo]


def check_lesson(lesson: Lesson) -> None:
    """Check that every step's demo is accepted and completes the step.

    Raises :class:`~pyramid_widget.errors.LessonError` naming the step and the move.
    """
    runner = LessonRunner.__new__(LessonRunner)
    runner.lessons, runner.completed = (lesson,), set()
    for index, step in enumerate(lesson.steps):
        runner.lesson_index, runner.step_index = 0, index
        runner.restart_step()
        outcomes = [runner.try_move(m) for m in step.demo]
        where = f"lesson {lesson.title!r}, step {index + 1}"
        for outcome in outcomes:
            if outcome.refused:
                raise LessonError(
                    f"{where}: demo move {outcome.move} is refused: {outcome.message}"
                )
        if not runner.solved:
            raise LessonError(f"{where}: the demo {list(step.demo)} does not complete the step")
        if outcomes[-1].kind != "success":
            raise LessonError(f"{where}: the step is done before the end of its demo")
