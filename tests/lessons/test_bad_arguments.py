"""Bad arguments to the lessons' Python API: each is one clear sentence of the lessons' own
error (a wrong records object a ``TypeError``, as ``PyramidWidget`` says it), never an
``AttributeError``, an ``IndexError`` or "'NoneType' object is not iterable" from inside."""

from __future__ import annotations

from typing import Any

import pytest

from pyramid_widget.errors import ArgumentError, LessonError
from pyramid_widget.lessons import LESSONS, Lesson, LessonRunner, Step, at
from pyramid_widget.lessons.exercises import exercise
from pyramid_widget.lessons.progress import LessonProgress
from pyramid_widget.lessons.widget import LessonWidget
from pyramid_widget.records import Records

FIVE = {at(7, 1): "5H", at(7, 2): "8C"}


def one_line(error: BaseException) -> str:
    text = str(error)
    assert "\n" not in text and text.strip(), text
    return text


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        (
            {"pyramid": None},
            "pyramid must be a dict {position: card} or a list of 28 slots, got None",
        ),
        ({"pyramid": 5}, "pyramid must be a dict {position: card} or a list of 28 slots, got 5"),
        ({"accept": None}, "accept must be a list like ['5H+8C'], got None"),
        ({"accept": "5H+8C"}, "accept must be a list like ['5H+8C'], got '5H+8C'"),
        ({"demo": None}, "demo must be a list like ['5H+8C'], got None"),
        ({"allow": None}, "allow must be a list like ['draw', 'pair'], got None"),
        ({"stock": None}, "stock must be a list like ['9D', '4S'], got None"),
        ({"stock": "9D"}, "stock must be a list like ['9D', '4S'], got '9D'"),
        ({"wastes": None}, "wastes must be a list like [['9D', '4S']], got None"),
        ({"wastes": [None]}, "each waste pile must be a list like ['9D', '4S'], got None"),
        ({"wastes": ["9D"]}, "each waste pile must be a list like ['9D', '4S'], got '9D'"),
        ({"cells": None}, "cells must be a list like ['9D'], got None"),
        ({"controls": None}, "controls are a list of ['undo', 'redo', 'hint'], got None"),
        ({"controls": 5}, "controls are a list of ['undo', 'redo', 'hint'], got 5"),
        ({"mistakes": None}, "mistakes must be a dict {move or kind: explanation}, got None"),
        (
            {"mistakes": ["5H+9C"]},
            "mistakes must be a dict {move or kind: explanation}, got ['5H+9C']",
        ),
        ({"pass_number": "2"}, "pass_number must be a whole number of at least 1, got '2'"),
        ({"pass_number": None}, "pass_number must be a whole number of at least 1, got None"),
        ({"pass_number": 1.5}, "pass_number must be a whole number of at least 1, got 1.5"),
    ],
    ids=lambda value: str(value)[:30],
)
def test_a_step_field_of_the_wrong_kind_is_one_lesson_error(
    fields: dict[str, Any], words: str
) -> None:
    """``mistakes=None`` raised AttributeError, ``stock=None`` (and the other list fields)
    TypeError from inside; each now names the field."""
    step: dict[str, Any] = {"pyramid": FIVE, "accept": ["5H+8C"], **fields}
    with pytest.raises(LessonError) as caught:
        Step("Pair the Five.", **step)
    assert one_line(caught.value) == f"step 'Pair the Five.': {words}"
    assert caught.value._render_traceback_() == [f"LessonError: {caught.value}"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("steps", [None, 5, "abc", [None]])
def test_a_lesson_without_a_list_of_steps_is_one_lesson_error(steps: Any) -> None:
    with pytest.raises(LessonError, match=r"^lesson 'L' needs a non-empty list of Step objects$"):
        Lesson("L", steps)


@pytest.mark.parametrize("lessons", [5, "abc", [], [None]])
def test_a_runner_without_lessons_is_one_lesson_error(lessons: Any) -> None:
    with pytest.raises(LessonError, match="Lesson"):
        LessonRunner(lessons)
    with pytest.raises(LessonError, match="Lesson"):
        LessonWidget(lessons, records=False)


@pytest.mark.parametrize(
    ("lesson", "step"), [(99, 0), (-1, 0), ("a", 0), (1.0, 0), (True, 0), (0, 6)]
)
def test_a_lesson_or_step_that_does_not_exist_is_a_lesson_error(lesson: Any, step: Any) -> None:
    """It was a bare IndexError; it is still one (code that caught it still does)."""
    with pytest.raises(
        LessonError, match=r"^(lesson|step) must be 0\.\.\d( in this lesson)?, got "
    ) as caught:
        LessonRunner(lesson=lesson) if step == 0 else LessonRunner().jump(lesson, step)
    assert isinstance(caught.value, IndexError)
    if step == 0:
        with pytest.raises(LessonError, match=r"^lesson must be 0\.\.5, got "):
            LessonWidget(records=False, lesson=lesson)


@pytest.mark.parametrize("pause", [-1, 5.5, float("nan"), float("inf")])
def test_a_demo_pause_out_of_range_is_a_lesson_error(pause: float) -> None:
    with pytest.raises(LessonError, match=r"^demo_pause must be 0\.\.5 seconds, got "):
        LessonWidget(records=False, demo_pause=pause)


def test_a_demo_pause_that_is_no_number_stays_a_type_error() -> None:
    with pytest.raises(TypeError, match="demo_pause is a number of seconds, got '1'"):
        LessonWidget(records=False, demo_pause="1")  # type: ignore[arg-type]


@pytest.mark.parametrize("records", [":memory:", 5, "progress.sqlite3", True])
def test_records_that_are_no_store_are_refused_as_the_board_refuses_them(records: Any) -> None:
    """``records=":memory:"`` raised "'str' object has no attribute 'warning'"; it is now
    the sentence PyramidWidget says for the same argument."""
    with pytest.raises(TypeError) as caught:
        LessonWidget(records=records)
    assert one_line(caught.value) == (
        f"records must be None, False or a pyramid_widget.records.Records, got {records!r}"
    )
    with pytest.raises(TypeError, match=r"^records must be a pyramid_widget\.records\.Records"):
        LessonProgress(records, "ada")


def test_a_real_store_is_still_taken() -> None:
    with Records(":memory:") as records:
        lw = LessonWidget(LESSONS, records=records, learner="ada", demo_pause=0)
        assert lw.runner.progress is not None and lw.runner.progress.records is records


@pytest.mark.parametrize(
    ("learner", "shown"), [(5, "5"), ("", "''"), ("  ", "'  '"), (["a"], "a list")]
)
def test_a_bad_learner_name_is_refused_up_front(learner: Any, shown: str) -> None:
    """``learner=5`` used to be taken, and every finished step then failed to save."""
    with Records(":memory:") as records:
        for make in (
            lambda: LessonWidget(LESSONS, records=records, learner=learner),
            lambda: LessonWidget(LESSONS, records=False, learner=learner),  # nothing kept
            lambda: LessonProgress(records, learner),
        ):
            with pytest.raises(ArgumentError) as caught:
                make()
            assert one_line(caught.value) == (
                f"a learner's name must be text of 1 to 200 characters (not only spaces), got {shown}"
            )
        assert records.lesson_marks("ada") == {}


@pytest.mark.parametrize("number", [[], 7, 0, "1", True, None, {}])
def test_an_exercise_that_does_not_exist_is_a_lesson_error(number: Any) -> None:
    """``exercise([])`` raised "unhashable type: 'list'"; it is still a KeyError too."""
    with pytest.raises(LessonError) as caught:
        exercise(number)
    assert isinstance(caught.value, KeyError)
    assert one_line(caught.value).startswith("lessons are numbered 1..6, got "), caught.value


@pytest.mark.parametrize("value", ["²", "٣", "１", "13²"])  # noqa: RUF001
def test_an_answer_in_other_digits_is_not_read_as_a_number(value: str) -> None:
    """ "²" once showed Python's "invalid literal for int()" to the learner, and "٣" was
    taken as 3."""
    check = exercise(1).check([(value, "10")])
    assert not check and check.message == (
        f"I could not read that answer: {value!r} is not a card value (1..13, or A, J, Q, K)"
    )
