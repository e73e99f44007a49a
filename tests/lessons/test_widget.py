"""LessonWidget on the Python side: page messages as the board's frontend sends them."""

from __future__ import annotations

from typing import Any

import pytest

from pyramid_widget.lessons.builtin import LESSONS, Lesson, Step, at
from pyramid_widget.lessons.widget import LESSON_CONTROLS, LessonWidget


def click(lw: LessonWidget, **intent: Any) -> None:
    """Deliver one message as the page would send it."""
    lw.board._on_msg(lw.board, dict(intent), [])


def position(lw: LessonWidget) -> tuple[Any, ...]:
    g = lw.board.game
    return (g.pyramid, g.stock, g.wastes, g.discard, g.pass_number, g.moves)


def test_layout_progress_and_prompt() -> None:
    lw = LessonWidget(records=False)
    assert "Lesson 1 of 6 · Step 1 of 6" in lw.header.value
    assert "Pairs to 13" in lw.header.value
    assert "Which card pairs with this Five?" in lw.prompt.value
    assert "Ace = 1, Jack = 11, Queen = 12, King = 13" in lw.prompt.value  # the intro
    assert lw.board.controls == LESSON_CONTROLS
    assert lw.board.game is lw.runner.game
    assert lw.board.message == LESSONS[0].steps[0].prompt
    assert lw.buttons["previous"].disabled and not lw.buttons["next"].disabled
    assert lw.picker.options[0][0] == "1. Pairs to 13"


def test_wrong_click_explained_then_right_click_moves_on() -> None:
    lw = LessonWidget(records=False)
    before = position(lw)
    click(lw, kind="pair", cards=["5H", "9D"], seq=1)
    assert lw.feedback_kind == "mistake"
    assert "5 + 9 = 14, one too many" in lw.feedback.value
    assert lw.board.message.startswith("5 + 9 = 14, one too many")
    assert position(lw) == before
    click(lw, kind="pair", cards=["5H", "8C"], seq=2)
    assert lw.feedback_kind == "success" and lw.runner.solved
    assert "5 + 8 = 13" in lw.feedback.value
    assert lw.buttons["next"].button_style == "success"
    assert "●○○○○○" in lw.header.value
    click(lw, kind="draw", seq=3)  # the step is done: nothing more happens on this board
    assert "press Next" in lw.feedback_text
    lw.buttons["next"].click()
    assert "Step 2 of 6" in lw.header.value and lw.feedback_text == ""


def test_touching_a_covered_card_explains_it() -> None:
    lw = LessonWidget(records=False, lesson=2)
    click(lw, kind="select", card="QH")
    assert lw.feedback_text.startswith("A covered Queen cannot pair with an Ace")
    click(lw, kind="pair", cards=["AS", "QH"])  # keyboard or drag can still name the pair
    assert lw.feedback_text.startswith("A covered Queen cannot pair with an Ace")
    assert lw.board.game.pyramid == LESSONS[2].steps[0].new_game().pyramid


def test_show_me_plays_the_step_and_lesson_complete() -> None:
    lw = LessonWidget(records=False, lesson=1, demo_pause=0)
    for step in range(len(LESSONS[1])):
        lw.jump(1, step)
        lw.buttons["show"].click()
        assert lw.runner.solved, step
        assert lw.feedback_text.startswith("Here is how:")
    # Show me marks steps shown (◐), not done: the lesson is not complete (issue 16.7)
    assert "◐◐◐◐" in lw.header.value and "Lesson complete" not in lw.header.value
    for step in range(len(LESSONS[1])):
        lw.jump(1, step)
        for move in LESSONS[1].steps[step].demo:
            lw.play(move)
    assert "Lesson complete ✓" in lw.header.value and "●●●●" in lw.header.value
    assert LESSONS[1].summary in lw.feedback.value
    assert lw.picker.options[1][0].endswith("✓")


def test_restart_lesson_previous_and_picker() -> None:
    lw = LessonWidget(records=False)
    lw.next()
    lw.next()
    assert lw.progress_text == "Lesson 1 of 6 · Step 3 of 6"
    lw.buttons["previous"].click()
    assert lw.progress_text == "Lesson 1 of 6 · Step 2 of 6"
    lw.buttons["restart"].click()
    assert lw.progress_text == "Lesson 1 of 6 · Step 1 of 6"
    assert lw.feedback_text == "Lesson restarted."
    lw.picker.value = 4
    assert lw.progress_text == "Lesson 5 of 6 · Step 1 of 7"
    assert lw.board.game.rules.name == "medium" and lw.board.game.stock


def test_board_restart_and_new_deal_bring_the_step_back() -> None:
    lw = LessonWidget(records=False)
    lw.jump(0, 4)
    click(lw, kind="pair", cards=["6C", "7D"])
    assert lw.board.game.moves == 1
    click(lw, kind="restart")
    assert lw.board.game.moves == 0 and lw.board.game is lw.runner.game
    click(lw, kind="pair", cards=["6C", "7D"])
    click(lw, kind="new", rules="hard")  # the board's "new deal": the lesson position stays
    assert lw.board.game.pyramid == LESSONS[0].steps[4].new_game().pyramid
    assert lw.board.game.rules.name == "medium"


def test_undo_after_success_reopens_the_step() -> None:
    lw = LessonWidget(records=False)
    click(lw, kind="pair", cards=["5H", "8C"])
    assert lw.runner.solved
    click(lw, kind="undo")
    assert not lw.runner.solved and lw.board.game.moves == 0
    click(lw, kind="redo")
    assert lw.runner.solved


def test_variant_steps_run_on_their_rule_set() -> None:
    lw = LessonWidget(records=False, lesson=0)
    lw.jump(0, 5)
    assert lw.board.game.rules.name == "cheops"
    lw.play("5H+8C")
    assert "not under cheops" in lw.feedback_text
    assert lw.play("4D+5H").kind == "success"
    lw.jump(3, 5)
    assert lw.board.game.rules.name == "apophis"
    assert lw.play("5H+8C").kind == "success"


def test_a_teachers_lesson_in_the_widget() -> None:
    mine = Lesson(
        "Tens",
        [
            Step(
                "Pair the Ten.",
                {at(7, 1): "TH", at(7, 3): "3S", at(7, 5): "4D"},
                accept=["TH+3S"],
                mistakes={"4D+TH": "10 + 4 = 14: one too many."},
                why="10 + 3 = 13.",
            )
        ],
    )
    lw = LessonWidget(mine, records=False)
    assert "Lesson 1 of 1 · Step 1 of 1" in lw.header.value
    assert lw.play("TH+4D").message == "10 + 4 = 14: one too many."
    outcome = lw.play("3S+TH")
    assert outcome.kind == "success" and outcome.lesson_done
    assert "Lesson complete" in lw.header.value
    assert lw.buttons["next"].disabled


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="non-empty list"):
        LessonWidget([])
    with pytest.raises(IndexError, match="lesson must be"):
        LessonWidget(records=False, lesson=9)


def test_paused_board_says_so() -> None:
    lw = LessonWidget(records=False)
    click(lw, kind="pause")
    click(lw, kind="pair", cards=["5H", "8C"])
    assert "paused" in lw.feedback_text and lw.feedback_kind == "mistake"
    click(lw, kind="resume")
    click(lw, kind="pair", cards=["5H", "8C"])
    assert lw.runner.solved


def test_show_me_pauses_before_each_move(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr("pyramid_widget.lessons.widget.time.sleep", slept.append)
    lw = LessonWidget(records=False, demo_pause=0.25)
    lw.jump(0, 4)
    lw.show_me()
    assert slept == [0.25, 0.25, 0.25] and lw.runner.solved
    with pytest.raises(ValueError, match=r"0\.\.5 seconds"):
        LessonWidget(records=False, demo_pause=-1)
