"""The lessons in plain Python: every step can be completed by its intended action, every
anticipated mistake is explained and leaves the position unchanged, and a lesson a user
writes works the same way."""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest

from pyramid_widget import Game, Move
from pyramid_widget.lessons.builtin import (
    LESSONS,
    WHOLE_GAME,
    Lesson,
    LessonError,
    Step,
    at,
    pyramid_cleared,
)
from pyramid_widget.lessons.model import MISTAKE_KINDS
from pyramid_widget.lessons.runner import LessonRunner, check_lesson, explain_mistake, mistake_kind
from tests.support.engine import snapshot

STATIC = Path(__file__).parents[2] / "pyramid_widget" / "widget" / "static"

STEPS = [(i, j) for i, lesson in enumerate(LESSONS) for j in range(len(lesson))]
IDS = [f"lesson{i + 1}-step{j + 1}" for i, j in STEPS]


def runner_at(lesson: int, step: int) -> LessonRunner:
    runner = LessonRunner()
    runner.jump(lesson, step)
    return runner


def every_move(game: Game) -> Iterator[Move]:
    """Every move that names cards still in play, legal or not, plus draw and redeal."""
    cards = [c for c in range(52) if c not in game.discard]
    yield Move.draw()
    yield Move.redeal()
    for card in cards:
        if card // 4 == 12:
            yield Move.king(card)
    for a, b in combinations(cards, 2):
        yield Move.pair(a, b)


def states_along_demo(lesson: int, step: int) -> Iterator[LessonRunner]:
    """A runner at the start of the step and after each demo move but the last."""
    demo = LESSONS[lesson].steps[step].demo
    for k in range(len(demo)):
        runner = runner_at(lesson, step)
        for move in demo[:k]:
            assert runner.try_move(move).applied
        yield runner


def test_six_lessons_of_four_to_seven_steps() -> None:
    assert [lesson.title for lesson in LESSONS] == [
        "Pairs to 13",
        "Kings clear alone",
        "Covered cards",
        "The waste",
        "The stock and redeals",
        "A whole game",
    ]
    assert all(4 <= len(lesson) <= 7 for lesson in LESSONS)
    for lesson in LESSONS:
        check_lesson(lesson)


@pytest.mark.parametrize(("lesson", "step"), STEPS, ids=IDS)
def test_demo_completes_the_step(lesson: int, step: int) -> None:
    runner = runner_at(lesson, step)
    outcomes = runner.show_me()
    assert [o.kind for o in outcomes][-1] == "success"
    assert all(o.applied for o in outcomes)
    assert outcomes[-1].message.startswith(LESSONS[lesson].steps[step].why)
    # Show me marks the step shown, not done by the learner (issue 16.7)
    assert runner.solved and (lesson, step) in runner.shown
    assert (lesson, step) not in runner.completed and not runner.lesson_done(lesson)


@pytest.mark.parametrize(("lesson", "step"), STEPS, ids=IDS)
def test_every_accepted_move_succeeds_at_once(lesson: int, step: int) -> None:
    for text in LESSONS[lesson].steps[step].accept:
        runner = runner_at(lesson, step)
        if runner.game.explain(text) is not None:
            continue  # accepted later in the step, after the demo's first moves
        outcome = runner.try_move(text)
        assert outcome.kind == "success", (text, outcome)


@pytest.mark.parametrize(("lesson", "step"), STEPS, ids=IDS)
def test_anticipated_mistakes_are_explained_and_change_nothing(lesson: int, step: int) -> None:
    the_step = LESSONS[lesson].steps[step]
    for key, text in the_step.mistakes.items():
        if key in MISTAKE_KINDS:
            continue
        runner = runner_at(lesson, step)
        before = snapshot(runner.game)
        outcome = runner.try_move(key)
        assert outcome.refused and not outcome.applied, (key, outcome)
        assert outcome.message.startswith(text.split("{")[0].rstrip(". ")[:30]), outcome.message
        assert snapshot(runner.game) == before
        assert not runner.solved


@pytest.mark.parametrize(("lesson", "step"), STEPS, ids=IDS)
def test_mistake_kinds_are_reachable_and_explained(lesson: int, step: int) -> None:
    kinds = [k for k in LESSONS[lesson].steps[step].mistakes if k in MISTAKE_KINDS]
    seen: set[str] = set()
    for runner in states_along_demo(lesson, step):
        for move in every_move(runner.game):
            kind = mistake_kind(runner.game, move)
            if kind not in kinds or str(move) in runner.step.mistakes:
                continue
            before = snapshot(runner.game)
            outcome = runner.try_move(move)
            assert outcome.refused, (move, outcome)
            assert outcome.message == explain_mistake(runner.step, runner.game, move)
            assert "{" not in outcome.message
            assert snapshot(runner.game) == before
            seen.add(kind)
    assert seen == set(kinds)


@pytest.mark.parametrize(("lesson", "step"), STEPS, ids=IDS)
def test_no_illegal_move_changes_the_position(lesson: int, step: int) -> None:
    runner = runner_at(lesson, step)
    before = snapshot(runner.game)
    for move in every_move(runner.game):
        if runner.game.explain(move) is not None:
            outcome = runner.try_move(move)
            assert outcome.kind == "illegal" and outcome.message, move
    assert snapshot(runner.game) == before


def test_covered_queen_explained_in_words() -> None:
    runner = runner_at(2, 0)
    outcome = runner.try_move("QH+AS")
    assert outcome.message == (
        "A covered Queen cannot pair with an Ace, even though they total 13: both cards below "
        "it (the 5 of clubs and the 8 of diamonds) must be gone first."
    )
    # Touching the covered Queen in the widget explains the same thing.
    assert runner.explain_touch("QH") == outcome.message
    assert runner.explain_touch("AS") is None


def test_engine_reason_made_friendly() -> None:
    runner = runner_at(0, 4)  # clear the pyramid: no per-move explanations
    outcome = runner.try_move("6C+TS")
    assert outcome.kind == "illegal"
    assert outcome.message == (
        "6 + 10 = 16, not 13. Two cards pair only when their values add up to exactly 13."
    )
    runner = runner_at(2, 4)
    assert runner.try_move("5D+8C").message == (
        "The 8 of clubs is covered by the 9 of diamonds and the 3 of hearts. A pyramid card is available only when both cards below it "
        "(in the next row) are gone."
    )


def test_legal_move_off_the_point_is_refused_with_the_prompt() -> None:
    runner = runner_at(3, 1)  # only the top waste card; the stock is empty so redeal is legal
    outcome = runner.try_move("redeal")
    assert outcome.kind == "mistake"
    assert outcome.message.endswith(runner.step.prompt)
    assert runner.game.stock == ()


def test_progress_then_success_then_done() -> None:
    runner = runner_at(0, 4)
    first = runner.try_move("6C+7D")
    assert (first.kind, first.applied, runner.solved) == ("progress", True, False)
    runner.try_move("3H+TS")
    last = runner.try_move("4D+9C")
    assert last.kind == "success" and runner.solved
    assert runner.judge("draw").kind == "done"


def test_lesson_done_and_navigation() -> None:
    runner = LessonRunner()
    assert runner.progress_text == "Lesson 1 of 6 · Step 1 of 6"
    assert runner.previous() is False
    for step in range(len(LESSONS[0])):
        runner.jump(0, step)
        outcomes = [runner.try_move(m) for m in LESSONS[0].steps[step].demo]
    assert outcomes[-1].lesson_done and "finished the lesson" in outcomes[-1].message
    assert runner.lesson_done(0) and not runner.lesson_done(1) and not runner.all_done
    assert runner.next() is True
    assert runner.progress_text == "Lesson 2 of 6 · Step 1 of 4"
    assert runner.previous() is True
    assert runner.progress_text == "Lesson 1 of 6 · Step 6 of 6"
    runner.restart_lesson()
    assert runner.progress_text == "Lesson 1 of 6 · Step 1 of 6"
    runner.jump(5, 3)
    assert runner.next() is False
    with pytest.raises(IndexError, match=r"lesson must be 0\.\.5"):
        runner.jump(6)
    with pytest.raises(IndexError, match=r"step must be 0\.\.3"):
        runner.jump(1, 4)


def test_restart_step_undoes_progress() -> None:
    runner = runner_at(0, 4)
    runner.try_move("6C+7D")
    runner.restart_step()
    assert runner.game.pyramid == LESSONS[0].steps[4].new_game().pyramid
    assert runner.game.moves == 0 and not runner.solved


# -- a lesson written by a user -------------------------------------------------------------


def users_lesson() -> Lesson:
    return Lesson(
        "Sevens and Sixes",
        [
            Step(
                "Pair the Seven.",
                {at(7, 1): "7H", at(7, 2): "6S", at(7, 4): "8D"},
                accept=["7H+6S"],
                mistakes={
                    "7H+8D": "7 + 8 = 15. Look for a Six.",
                    "illegal": "Not that: {reason}",
                },
                why="7 + 6 = 13.",
            ),
            Step(
                "Clear both pairs, Kings first.",
                {at(6, 4): "QC", at(7, 1): "KH", at(7, 2): "AD", at(7, 4): "5S", at(7, 5): "8S"},
                goal=pyramid_cleared(),
                allow=["any"],
                demo=["KH", "5S+8S", "AD+QC"],
            ),
        ],
    )


def test_users_lesson_works_the_same_way() -> None:
    runner = LessonRunner(users_lesson())
    assert runner.progress_text == "Lesson 1 of 1 · Step 1 of 2"
    before = snapshot(runner.game)
    assert runner.try_move("8D+7H").message == "7 + 8 = 15. Look for a Six."
    assert runner.try_move("6S+8D").message == "Not that: 6 + 8 = 14, not 13."
    assert snapshot(runner.game) == before
    assert runner.try_move("6S+7H").kind == "success"
    assert runner.next()
    assert runner.try_move("AD+QC").message.startswith(
        "The Queen of clubs is covered by the 5 of spades and the 8 of spades"
    )
    assert runner.try_move("KH").kind == "progress"
    assert [o.kind for o in runner.show_me()] == ["progress", "progress", "success"]
    assert not runner.lesson_done() and runner.shown == {(0, 1)}
    runner.restart_step()
    for move in runner.step.demo:
        runner.try_move(move)
    assert runner.lesson_done() and runner.all_done and not runner.shown


def test_broken_lessons_are_refused_up_front() -> None:
    with pytest.raises(LessonError, match="does not complete the step"):
        (
            Lesson(
                "x",
                [
                    Step(
                        "Go.",
                        {21: "7H", 22: "6S", 23: "KC"},
                        goal=pyramid_cleared(),
                        allow=["any"],
                        demo=["6S+7H"],
                    )
                ],
            )
        )
    with pytest.raises(LessonError, match="demo move '5H\\+8C' names the 5 of hearts"):
        Lesson("x", [Step("Pair.", {21: "7H", 22: "6S"}, accept=["6S+7H"], demo=["5H+8C"])])
    with pytest.raises(LessonError, match="neither a move"):
        Step("Pair.", {21: "7H", 22: "6S"}, accept=["6S+7H"], mistakes={"oops": "x"})
    with pytest.raises(LessonError, match=r"7 of hearts .7H. is placed twice"):
        Step("Pair.", {21: "7H", 22: "7H"}, accept=["6S+7H"])
    with pytest.raises(LessonError, match="needs accept"):
        Step("Pair.", {21: "7H", 22: "6S"})
    with pytest.raises(LessonError, match="no legal move, so the game is lost before it starts"):
        Step("Pair.", {21: "7H", 22: "5S"}, accept=["5S+7H"])
    with pytest.raises(LessonError, match=r"columns 1\.\.7"):
        at(7, 8)
    with pytest.raises(LessonError, match="non-empty list"):
        Lesson("x", [])


def test_lessons_say_a_king_goes_with_one_click() -> None:
    """The board removes an available King at the first touch where Kings go alone (widget.js
    ``tap``), so no lesson text may ask a learner to click one twice: a second click would
    land on whatever card the King uncovered. (The course test in test_browser_course.py
    clicks each King once.)"""
    for lesson in LESSONS:
        texts = [lesson.intro, lesson.summary]
        for step in lesson.steps:
            texts += [step.prompt, step.why, step.progress, *step.mistakes.values()]
        for text in texts:
            assert not re.search(r"twice|click it again", text), text


def test_lessons_name_the_buttons_the_board_shows() -> None:
    """A lesson that sends a learner to a button uses the label on the board (widget.js
    TOOLBAR): the solver's verdict is "Can I win?", never the trait's name "Truth"."""
    labels = re.findall(r'\["\w+", "([^"]+)", "', (STATIC / "widget.js").read_text())
    assert "Can I win?" in labels and "Undo" in labels
    for lesson in LESSONS:
        for step in lesson.steps:
            for text in (step.prompt, step.why, step.progress, *step.mistakes.values()):
                assert "Truth" not in text, text
    assert "the Can I win? button" in WHOLE_GAME.steps[2].why


def test_the_undo_step_is_done_only_by_taking_back_the_pair_it_asks_for() -> None:
    # The audit: removing the King and pressing Undo marked "remove the Five and the Eight,
    # then press Undo" done. The King is now a named mistake; an undone King is no success.
    runner = LessonRunner()
    runner.jump(5, 1)
    king = runner.try_move("KS")
    assert king.kind == "mistake" and not king.applied and runner.game.moves == 0
    assert king.message.startswith("Not the King this time")
    step = runner.step
    g = step.new_game()
    g.play("KS")
    g.undo()
    assert not step.is_done(g, None)  # even if a King were taken back, that is not the step
    assert runner.try_move("5H+8C").kind == "progress"
    done = runner.undo()
    assert done.kind == "success" and runner.solved
