"""Bad arguments to the lessons' Python API: each is one clear sentence of the lessons' own
error (a wrong records object a ``TypeError``, as ``PyramidWidget`` says it), never an
``AttributeError``, an ``IndexError`` or "'NoneType' object is not iterable" from inside."""

from __future__ import annotations

from typing import Any

import pytest

from pyramid_widget.errors import LessonError
from pyramid_widget.lessons import Lesson, Step, at

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
