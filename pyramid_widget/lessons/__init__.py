"""Interactive lessons on the live board: the lesson model, the built-in lessons, the runner
that checks a learner's moves, the widget that shows them, and the notebooks' exercises.

A lesson is data (:class:`Lesson` of :class:`Step`); :class:`LessonRunner` plays it in plain
Python and :class:`LessonWidget` on the board (imported on first use: it needs the widget room and anywidget).

>>> from pyramid_widget.lessons import LESSONS
>>> [lesson.title for lesson in LESSONS][:2]
['Pairs to 13', 'Kings clear alone']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramid_widget.errors import LessonError
from pyramid_widget.lessons.builtin import (
    COVERED_CARDS,
    KINGS,
    LESSONS,
    MISTAKE_KINDS,
    PAIRS_TO_13,
    REDEALS,
    THE_WASTE,
    WHOLE_GAME,
    Goal,
    Lesson,
    Step,
    at,
    both,
    game_lost,
    on_pass,
    on_top,
    pyramid_cleared,
    removed,
    undone,
)
from pyramid_widget.lessons.runner import LessonRunner

if TYPE_CHECKING:
    from pyramid_widget.lessons.widget import LessonWidget


def __getattr__(name: str) -> Any:
    """Import the lesson widget (and with it anywidget) only when first asked for."""
    if name == "LessonWidget":
        from pyramid_widget.lessons.widget import LessonWidget

        return LessonWidget
    raise AttributeError(f"module 'pyramid_widget.lessons' has no attribute {name!r}")


__all__ = [
    "COVERED_CARDS",
    "KINGS",
    "LESSONS",
    "MISTAKE_KINDS",
    "PAIRS_TO_13",
    "REDEALS",
    "THE_WASTE",
    "WHOLE_GAME",
    "Goal",
    "Lesson",
    "LessonError",
    "LessonRunner",
    "LessonWidget",
    "Step",
    "at",
    "both",
    "game_lost",
    "on_pass",
    "on_top",
    "pyramid_cleared",
    "removed",
    "undone",
]
