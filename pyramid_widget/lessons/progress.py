"""Which lesson steps a learner has done, kept per learner in the records database, so the
progress shows in every lesson notebook and survives a kernel restart.

A step is *done* when the learner made its moves, *shown* when "Show me" played it; done
is never turned back into shown.

>>> from pyramid_widget.records import Records
>>> progress = LessonProgress(Records(":memory:"), "ada")
>>> progress.mark("Pairs to 13", 0, SHOWN); progress.mark("Pairs to 13", 1, DONE)
>>> progress.mark("Pairs to 13", 1, SHOWN)  # done stays done
>>> sorted(progress.load().items())
[(('Pairs to 13', 0), 'shown'), (('Pairs to 13', 1), 'done')]
"""

from __future__ import annotations

import getpass
import reprlib
from typing import TYPE_CHECKING

from pyramid_widget.errors import ArgumentError, RecordsError

if TYPE_CHECKING:
    from pyramid_widget.records import Records

__all__ = [
    "DONE",
    "SHOWN",
    "LessonProgress",
    "check_learner_argument",
    "default_learner",
    "is_progress_store",
]

#: The learner made the step's moves.
DONE = "done"
#: "Show me" played the step; the learner has not done it yet.
SHOWN = "shown"


def default_learner() -> str:
    """The learner's name when none is given: the login name (``"learner"`` if unknown)."""
    try:
        return getpass.getuser() or "learner"
    except (KeyError, OSError):
        return "learner"


def is_progress_store(records: object) -> bool:
    """Whether ``records`` can keep lesson progress: a
    :class:`~pyramid_widget.records.Records`, or a stand-in with its lesson methods.

    >>> from pyramid_widget.records import Records
    >>> is_progress_store(Records(":memory:")), is_progress_store(":memory:")
    (True, False)
    """
    return all(
        callable(getattr(records, name, None)) for name in ("lesson_marks", "mark_lesson_step")
    )


def check_learner_argument(learner: object) -> None:
    """Refuse a learner's name that no records store would keep, with
    :class:`~pyramid_widget.errors.ArgumentError` (as a lesson board's other arguments are).

    >>> check_learner_argument("ada")
    >>> check_learner_argument(5)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.ArgumentError: a learner's name must be text of 1 to 200 characters (not only spaces), got 5
    """
    from pyramid_widget.records.store import check_learner

    try:
        check_learner(learner)
    except RecordsError as exc:
        raise ArgumentError(str(exc)) from None


class LessonProgress:
    """One learner's marks in a :class:`~pyramid_widget.records.Records` store.

    ``records``: the store (``None``: the default records file); ``learner``: a name (``None``:
    :func:`default_learner`). A store that fails never stops a lesson: :attr:`problem` then
    holds one sentence saying so, and the marks live on in memory.
    """

    def __init__(self, records: Records | None = None, learner: str | None = None) -> None:
        if records is None:
            from pyramid_widget.records import Records

            records = Records()
        elif not is_progress_store(records):  # ":memory:" once failed on records.warning
            raise TypeError(
                "records must be a pyramid_widget.records.Records (None: the default records "
                f"file), got {reprlib.repr(records)}"
            )
        if learner is not None:  # a bad name is refused here, not at every step finished
            check_learner_argument(learner)
        self.records = records
        self.learner = default_learner() if learner is None else learner
        self.problem: str | None = records.warning
        self._memory: dict[tuple[str, int], str] = {}

    def load(self) -> dict[tuple[str, int], str]:
        """``{(lesson title, step index): "done" | "shown"}`` for this learner."""
        try:
            marks = self.records.lesson_marks(self.learner)
        except RecordsError as exc:
            self.problem = f"Lesson progress cannot be read: {exc}."
            marks = {}
        return {**marks, **self._memory}

    def mark(self, lesson: str, step: int, how: str) -> None:
        """Mark step ``step`` (0-based) of the lesson titled ``lesson`` done or shown."""
        if how not in (DONE, SHOWN):
            raise ArgumentError(f"a step is marked {DONE!r} or {SHOWN!r}, got {how!r}")
        key = (lesson, step)
        if self._memory.get(key) == DONE:
            return
        self._memory[key] = how
        try:
            self.records.mark_lesson_step(self.learner, lesson, step, how)
        except RecordsError as exc:
            self.problem = f"Lesson progress cannot be saved: {exc}."
