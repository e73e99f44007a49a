"""Issue 16, items 1-11: the lessons as a learner meets them (Python side: the runner and the
lesson widget driven with the page's own messages)."""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from pyramid_widget import Game, Move
from pyramid_widget.engine.cards import card_str, rank, rank_name
from pyramid_widget.engine.position import Status
from pyramid_widget.errors import LessonError
from pyramid_widget.lessons.builtin import (
    LESSONS,
    REDEALS,
    WHOLE_GAME,
    WHOLE_GAME_DEAL,
    WHOLE_GAME_LINE,
    WHOLE_GAME_RULES,
    Lesson,
    Step,
    at,
)
from pyramid_widget.lessons.progress import LessonProgress
from pyramid_widget.lessons.runner import PLAY_NOTEBOOK, LessonRunner, explain_mistake
from pyramid_widget.lessons.style import FEEDBACK_COLOURS, STYLESHEET, contrast, step_classes
from pyramid_widget.lessons.widget import LessonWidget
from pyramid_widget.records import Records
from pyramid_widget.solver import solve
from tests.lessons.panel import button, header, press


def click(lw: LessonWidget, **intent: Any) -> None:
    """Deliver one message as the page would send it."""
    lw.board._on_msg(lw.board, dict(intent), [])


def widget(lesson: int = 0, step: int = 0, **options: Any) -> LessonWidget:
    lw = LessonWidget(lesson=lesson, demo_pause=0, records=options.pop("records", False), **options)
    lw.jump(lesson, step)
    return lw


# -- 1. a refused touch never poisons the next try --------------------------------------------


def test_refused_touches_leave_no_state_behind() -> None:
    lw = widget(2, 0)
    click(lw, kind="select", card="QH")  # the covered Queen, touched after the Ace
    assert lw.feedback_kind == "mistake" and "covered Queen" in lw.feedback_text
    click(lw, kind="pair", cards=["AS", "QH"])
    assert lw.feedback_kind == "mistake"
    click(lw, kind="pair", cards=["5C", "8D"])
    assert lw.runner.solved and lw.feedback_kind == "success", lw.feedback_text
    for lesson, step, wrong, right in [
        (2, 4, ["AS", "TS"], ["4C", "9D"]),
        (4, 4, ["5C", "JD"], None),
    ]:
        lw.jump(lesson, step)
        click(lw, kind="pair", cards=wrong)
        assert lw.feedback_kind == "mistake"
        for move in lw.runner.step.demo if right is None else ["+".join(right)]:
            outcome = lw.play(move)
            assert not outcome.refused, (move, outcome)


# -- 2. the easy stall rule as docs/RULES.md states it ----------------------------------------


def test_easy_stall_rule_texts_match_the_rules() -> None:
    texts = [REDEALS.summary] + [t for s in REDEALS.steps for t in (s.prompt, s.why)]
    joined = " ".join(texts)
    assert "a pass that removes nothing ends the game" not in joined
    assert "as long as every pass removes something" not in joined
    assert "as long as each pass removes something" not in joined
    stall = REDEALS.steps[5]
    assert "whole pass removed nothing" in stall.prompt and "stock is empty" in stall.prompt
    runner = LessonRunner(REDEALS)
    runner.jump(0, 5)
    assert runner.try_move("draw").kind == "success"
    assert runner.game.status is Status.LOST  # what the why says happened


def test_easy_redeal_step_needs_the_pair_so_its_sentence_is_true() -> None:
    runner = LessonRunner(REDEALS)
    runner.jump(0, 6)
    assert runner.try_move("draw").kind == "progress"
    assert runner.try_move("redeal").kind == "progress"  # pass 3, the pair still there
    assert not runner.solved and runner.game.pass_number == 3
    last = runner.try_move("6C+7D")
    assert last.kind == "success" and "The pair is gone and a new pass has begun" in last.message
    assert runner.game.pass_number >= 3 and runner.game.discard


# -- 3. the empty-stock refusal names the real reason in lessons 1-3 --------------------------


@pytest.mark.parametrize("lesson", [0, 1, 2])
def test_empty_stock_text_in_the_first_lessons(lesson: int) -> None:
    runner = LessonRunner()
    runner.jump(lesson, 0)
    message = runner.try_move("draw").message
    assert "no redeal is left" not in message
    assert message.startswith("The stock and the waste are empty")


# -- 4, 6. the board shows the rows, piles and counters the step uses --------------------------


def classes(lw: LessonWidget) -> list[str]:
    """The CSS classes the page puts on the lesson's root (the panel's ``classes``)."""
    return list(lw.board.panel["classes"])


def test_board_classes_follow_the_step() -> None:
    lw = widget(0, 0)
    assert "pyr-lesson-from-7" in classes(lw) and "pyr-lesson-no-piles" in classes(lw)
    assert classes(lw)[0] == "pyr-lesson"
    lw.jump(2, 4)  # rows 5-7
    assert "pyr-lesson-from-5" in classes(lw) and "pyr-lesson-from-7" not in classes(lw)
    lw.jump(4, 0)  # a draw: the stock shows, redeals do not yet
    now = set(classes(lw))
    assert "pyr-lesson-no-piles" not in now and "pyr-lesson-no-redeals" in now
    lw.jump(4, 2)  # the redeal step: the counter shows
    assert "pyr-lesson-no-redeals" not in classes(lw)
    lw.jump(0, 5)  # cheops: no "Redeals left 0"
    assert "pyr-lesson-no-redeals" in classes(lw)
    lw.jump(5, 3)  # the whole game under hard: one pass, no redeal counter
    assert "pyr-lesson-no-redeals" in classes(lw)
    for i, lesson in enumerate(LESSONS[:3]):
        for step in lesson.steps:
            assert "pyr-lesson-no-piles" in step_classes(step), (i, step.prompt)


def test_one_restart_per_scope_and_the_controls_a_step_teaches() -> None:
    lw = widget(0, 0)
    assert lw.board.controls == ["help"]  # no board "Restart" beside the lesson's
    labels = [b["label"] for b in lw.board.panel["buttons"]]
    assert labels.count("Restart step") == 1 and labels.count("Restart lesson") == 1
    assert "Restart" not in labels
    lw.jump(5, 1)
    assert lw.board.controls == ["help", "undo"]
    click(lw, kind="pair", cards=["5H", "8C"])
    assert not lw.runner.solved
    click(lw, kind="undo")
    assert (
        lw.runner.solved and lw.feedback_kind == "success" and "Undo takes back" in lw.feedback_text
    )
    assert button(lw, "next")["primary"]
    press(lw, "restart-step")
    assert lw.board.game.moves == 0 and not lw.runner.solved
    assert not button(lw, "next")["primary"]


def test_the_stylesheet_comes_with_the_lesson_board() -> None:
    lw = widget(0, 0)
    assert STYLESHEET in lw.board._css and ".pyr-board {" in lw.board._css
    # the lesson's panel is data for the page, with no markup (and no <style>) in it
    assert "<" not in json.dumps(lw.board.panel, ensure_ascii=False)


def test_the_stylesheet_sizes_every_row_count() -> None:
    for first in range(1, 8):
        assert f".pyr-lesson-from-{first} .pyr-board {{ --pad:" in STYLESHEET
    assert ".pyr-lesson-no-piles .pyr-slot { display: none; }" in STYLESHEET
    assert "pyr-passes-left" in STYLESHEET and "<" not in STYLESHEET


# -- 7. shown is not mastered; finished means done by the learner; progress persists ----------


def test_show_me_marks_shown_and_finishing_needs_every_step() -> None:
    lw = widget(1, 0)
    lw.show_me()
    assert (1, 0) in lw.runner.shown and (1, 0) not in lw.runner.completed
    assert "◐○○○" in header(lw) and "Restart step" in lw.feedback_text
    lw.jump(1, 3)  # jump to the last step and do it: the lesson is not finished
    outcome = lw.play("KH+QC")
    assert outcome.kind == "success" and not outcome.lesson_done
    assert "finished the lesson" not in outcome.message and "do step(s) 1, 2, 3" in outcome.message
    for step in range(3):
        lw.jump(1, step)
        for move in LESSONS[1].steps[step].demo:
            lw.play(move)
    lw.jump(1, 3)
    assert "finished the lesson" in lw.play("KH+QC").message
    assert "Lesson complete ✓" in header(lw)


def test_end_of_course_points_to_play() -> None:
    runner = LessonRunner()
    runner.jump(5, 3)
    outcomes = [runner.try_move(m) for m in runner.step.demo]
    assert PLAY_NOTEBOOK in outcomes[-1].message and "still to do" in outcomes[-1].message
    runner.completed = {(i, j) for i, item in enumerate(LESSONS) for j in range(len(item))}
    runner.jump(5, 3)
    last = [runner.try_move(m) for m in runner.step.demo][-1]
    assert "finished the whole course" in last.message and PLAY_NOTEBOOK in last.message


def test_progress_persists_per_learner(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    first = LessonWidget(demo_pause=0, records=Records(path), learner="ada")
    first.play("5H+8C")
    first.jump(1, 0)
    first.show_me()
    again = LessonWidget(lesson=3, demo_pause=0, records=Records(path), learner="ada")  # new kernel
    assert again.runner.completed == {(0, 0)} and again.runner.shown == {(1, 0)}
    assert "Course progress of ada: 1 of" in header(again)
    other = LessonWidget(demo_pause=0, records=Records(path), learner="bob")
    assert other.runner.completed == set() and other.runner.shown == set()
    assert LessonProgress(Records(path), "ada").load()[("Pairs to 13", 0)] == "done"


# -- 8. every mistake explained, and on target --------------------------------------------------

_RANK_WORDS = {rank_name(v).lower(): v for v in range(1, 14)} | {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}


def _ranks_named(text: str) -> set[int]:
    """The ranks a text names as words ("Queen", "Fives"; "Two cards pair ..." is no rank)."""
    words = re.findall(r"[A-Z][a-z]+", text.replace("Two cards", "two cards"))
    return {
        _RANK_WORDS[w.lower().rstrip("s")] for w in words if w.lower().rstrip("s") in _RANK_WORDS
    }


def test_a_non_king_clicked_twice_is_explained() -> None:
    lw = widget(1, 0)
    click(lw, kind="king", card="5D")
    assert lw.feedback_kind == "mistake"
    assert lw.feedback_text.startswith("Only a King is removed alone")
    assert "the 5 of diamonds" in lw.feedback_text


def test_cheops_mistakes_are_about_the_cards_touched() -> None:
    runner = LessonRunner()
    runner.jump(0, 5)
    message = runner.try_move("8C+TS").message
    assert "Five" not in message and "wrap" not in message, message
    assert runner.try_move("5H+TS").message.startswith("5 and 10 are not the same")
    wrap = Game.from_position("cheops", pyramid=[None] * 24 + ["AH", "KS", "9D", "8C"])
    assert "do not wrap" in explain_mistake(runner.step, wrap, Move.parse("AH+KS"))


@pytest.mark.parametrize("lesson", range(5))
def test_pair_mistakes_name_only_the_cards_touched(lesson: int) -> None:
    """A refused pair or lone card of a step's start position is explained in words about
    those cards: a rank the text names is one of them, or the partner it needs."""
    for step in LESSONS[lesson].steps:
        game = step.new_game()
        cards = [c for c in range(52) if game.where(c).zone.value in ("pyramid", "waste")]
        moves = [Move.pair(a, b) for a, b in combinations(cards, 2)] + [Move.king(c) for c in cards]
        for move in moves:
            if step.permits(move) and game.refusal(move) is None:
                continue
            text = explain_mistake(step, game, move)
            touched = {rank(c) for c in move.cards}
            refusal = game.refusal(move)
            about = {rank(c) for c in refusal.cards} if refusal is not None else set()
            if game.rules.pairing == "sum13":
                partners = {13 - r for r in touched}
            else:
                partners = {n for r in touched for n in (r - 1, r + 1)}
            named = _ranks_named(text) - touched - about - partners - {13}
            assert not named, (step.prompt, str(move), text)


def test_show_me_does_not_talk_to_the_learner_about_the_demo() -> None:
    lw = widget(0, 4)
    said: list[str] = []
    lw.board.observe(lambda change: said.append(change["new"]), names="message")
    lw.show_me()
    assert said and not any("Keep going" in s or s.startswith("Good") for s in said), said
    allowed = ("Show me:", "New game", "Here is how:")
    # The board's own "You won!" is replaced in the same sync (hold_sync): the page never sees it.
    said = [s for s in said if not s.startswith("You won!")]
    assert all(not s or s.startswith(allowed) or s == lw.runner.step.prompt for s in said), said
    assert lw.feedback_text.startswith("Here is how:")


# -- 9. the feedback meets WCAG AA in light and dark -------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_feedback_contrast_is_aa(theme: str) -> None:
    colours = FEEDBACK_COLOURS[theme]
    for kind in ("info", "success", "mistake"):
        ratio = contrast(colours[kind], colours["background"])
        assert ratio >= 4.5, (theme, kind, round(ratio, 2))
        assert colours[kind] in STYLESHEET
    lw = widget(0, 0)
    lw.play("5H+9D")
    assert lw.board.panel["feedback"]["kind"] == "mistake"
    # the colours come from the stylesheet only: the panel names a kind, never a colour
    assert not any(colour in json.dumps(lw.board.panel) for colour in colours.values())


def test_the_old_feedback_colours_fail_in_dark() -> None:
    # issue 16.9: fixed colours on JupyterLab's near-black cell background
    assert contrast("#1b7f3b", "#111111") < 4.5 and contrast("#b3261e", "#111111") < 4.5


# -- 10. a lesson is checked when made, in one line ---------------------------------------------


def _error(**step: Any) -> str:
    with pytest.raises(LessonError) as info:
        Lesson("Mine", [Step("Pair the Five.", **step)])
    text = str(info.value)
    assert "\n" not in text
    assert info.value._render_traceback_() == [f"LessonError: {text}"]  # type: ignore[attr-defined]
    return text


def test_lessons_are_validated_when_constructed() -> None:
    five = {at(7, 1): "5H", at(7, 2): "8C", at(6, 1): "9D"}
    assert _error(pyramid=five, accept=["5H+8C", "5H+9D"], demo=["5H+8C"]) == (
        "lesson 'Mine', step 1 ('Pair the Five.'): accept move '5H+9D' can never be played (not "
        "at the start nor at any point of the demo); at the start: The 9 of diamonds is covered "
        "by the 5 of hearts and the 8 of clubs."
    )
    assert "names the 4 of spades (4S), which is not in the step's position" in _error(
        pyramid=five, accept=["5H+8C"], mistakes={"4S+9D": "no"}
    )
    assert "'5H+8C' is both accepted and explained as a mistake" in _error(
        pyramid=five, accept=["5H+8C"], mistakes={"5H+8C": "no"}
    )
    with pytest.raises(
        LessonError,
        match=r"the 5 of hearts \(5H\) is placed twice: at row 7 "
        r"column 1 and at the stock",
    ):
        Step("Pair.", five, accept=["5H+8C"], stock=["5H"])
    with pytest.raises(LessonError, match="already won"):
        Step("Pair.", [None] * 28, accept=["draw"], stock=["5H"])
    assert "demo move 1 ('5H+8C') is refused: The 8 of clubs is covered" in _error(
        pyramid={at(7, 1): "5H", at(6, 1): "8C", at(7, 2): "AS", at(7, 7): "QD"},
        accept=["5H+8C"],
    )


# -- 11. a whole game, checked by the solver -----------------------------------------------------


def test_the_whole_game_is_a_short_real_deal() -> None:
    deal = Game(WHOLE_GAME_RULES, WHOLE_GAME_DEAL)
    step = WHOLE_GAME.steps[3]
    assert [None if c is None else card_str(c) for c in deal.pyramid] == list(step.pyramid)
    assert [card_str(c) for c in deal.stock] == list(step.stock)
    shortest = solve(deal, shortest=True)
    assert shortest.shortest and len(shortest.moves) == len(WHOLE_GAME_LINE) == 32
    assert step.demo == tuple(WHOLE_GAME_LINE)


def test_the_solver_explains_the_first_move_that_throws_the_win_away() -> None:
    runner = LessonRunner()
    runner.jump(5, 3)
    for move in WHOLE_GAME_LINE[:6]:
        assert runner.try_move(move).kind == "progress"
    bad = runner.try_move("draw")  # instead of pairing the 4 of diamonds with the 9 of spades
    assert bad.kind == "setback" and bad.applied
    assert bad.message.startswith("That draw buried the 4 of diamonds, and from here no line")
    # one grammatical sentence says what kept the win ("Instead, pair ... would have" did not)
    assert re.search(
        r"\. To keep the win, (pair|remove|draw|move) [^.]+ instead\. "
        r"Press Undo to take the move back\.$",
        bad.message,
    ), bad.message
    later = runner.try_move("draw")
    assert later.kind == "setback" and "already gone (since move 7)" in later.message
    runner.undo()
    assert runner.lost_at is not None
    assert runner.undo().message == "Move taken back. The win is in hand again."
    assert runner.lost_at is None
    outcomes = [runner.try_move(m) for m in WHOLE_GAME_LINE[6:]]
    assert outcomes[-1].kind == "success" and runner.game.status is Status.WON
    assert all(o.kind == "progress" for o in outcomes[:-1])
