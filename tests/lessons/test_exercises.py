"""The notebook exercises: right answers pass, wrong ones say what is wrong."""

from __future__ import annotations

import pytest

from pyramid_widget.lessons.exercises import EXERCISES, exercise

RIGHT = {
    1: [("A", "Q"), (2, "J"), (3, 10), (4, 9), (5, 8), (6, 7)],
    2: ["KH", "kd"],
    3: "5C, 8D, AS",
    4: [("9H", "4S")],
    5: {"hard": 0, "medium": 2, "easy": "Unlimited", "apophis": 1, "cheops": 0},
    6: ["draw", "4D+9S", "5C+8D", "draw", "AS+QH"],
}

WRONG = {
    1: ([(5, 9)], "5 + 9 = 14"),
    2: (["KH", "QS"], "QS is worth 12 and needs a partner"),
    3: (["QH", "5C", "8D", "AS"], "QH is covered by 5C and 8D"),
    4: (["5D+8C", "4S+9H"], "8C is not on top of its waste pile (4S is on it)"),
    5: ({"hard": 0, "medium": 3}, "medium allows 2, not 3"),
    6: (["5C+8D", "draw", "draw", "4D+9S"], "the 4 of diamonds is not on top of its waste pile"),
}


@pytest.mark.parametrize("number", sorted(EXERCISES))
def test_right_answer(number: int) -> None:
    verdict = exercise(number).check(RIGHT[number])
    assert verdict.ok and repr(verdict).startswith("✔ Right!")


@pytest.mark.parametrize("number", sorted(EXERCISES))
def test_wrong_answer_says_why(number: int) -> None:
    answer, why = WRONG[number]
    verdict = exercise(number).check(answer)
    assert not verdict and why in verdict.message and repr(verdict).startswith("✘ Not yet")


def test_incomplete_and_unreadable_answers() -> None:
    assert "4 missing" in exercise(1).check([(6, 7), (5, 8)]).message
    assert "1 card(s) missing" in exercise(3).check(["5C", "8D"]).message
    unreadable = exercise(1).check(5)
    assert not unreadable and "could not read" in unreadable.message
    assert "not a card value" in exercise(1).check([("X", 3)]).message
    with pytest.raises(KeyError, match=r"numbered 1\.\.6"):
        exercise(7)


def test_pictures_do_not_give_the_answer_away() -> None:
    assert "[" not in repr(exercise(3)) and "QH" in repr(exercise(3))
    assert "waste 8C [4S]" in repr(exercise(4))
