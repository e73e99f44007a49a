"""Issue 16 in a real JupyterLab driven by Chromium: every lesson step fits one 1366x768
screen (prompt, cards, feedback and buttons, measured as bounding boxes), the feedback
colours are the AA ones in light and dark, and all six lessons are finished by clicking with a
deliberate mistake at every step (lesson 6's whole game with a move that throws the win
away, taken back with Undo). Screenshots go to ``artifacts/``."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget.engine.cards import KING, rank
from pyramid_widget.engine.moves import Move
from pyramid_widget.lessons.builtin import LESSONS, Step
from pyramid_widget.lessons.model import MISTAKE_KINDS
from pyramid_widget.lessons.style import FEEDBACK_COLOURS
from tests.support import tier
from tests.support.browser import JupyterLab, LabPage, chromium_page, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.jupyterlab, pytest.mark.xdist_group("browser")]

LESSON = ".pyr-lesson"
NOTEBOOK = "01_pairs_to_13.ipynb"
LAPTOP = (1366, 768)


def open_lesson(page: Any, lab: JupyterLab) -> tuple[LabPage, Any]:
    nb = LabPage(page, lab).open(NOTEBOOK, timeout=180)
    nb.run_all(wait_for=f"{LESSON} .pyr-card[data-zone='pyramid']", timeout=180)
    nb.python("lesson.demo_pause = 0")
    return nb, page.locator(LESSON).first


def go(nb: LabPage, lesson: Any, i: int, j: int) -> None:
    nb.python(f"lesson.jump({i}, {j})")
    expect(lesson.locator(".pyr-lesson-progress")).to_have_text(
        f"Lesson {i + 1} of 6 · Step {j + 1} of {len(LESSONS[i])}", timeout=30_000
    )
    expect(lesson.locator(".pyr-moves")).to_have_text("0", timeout=30_000)


def box(locator: Any) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, locator
    return dict(found)


#: The steps the quick tier measures: each lesson's first and last step and the ones the
#: screenshots show (``pytest --thorough`` measures every step of every lesson).
SHOWN = ((0, 0), (2, 4), (4, 2), (5, 3))


def steps_to_measure() -> list[tuple[int, int]]:
    """Every (lesson, step) with ``--thorough``; else the first, the last and :data:`SHOWN`.

    >>> (0, 0) in steps_to_measure() and (5, len(LESSONS[5]) - 1) in steps_to_measure()
    True
    """
    every = [(i, j) for i, lesson in enumerate(LESSONS) for j in range(len(lesson))]
    if tier.THOROUGH:
        return every
    ends = {(i, j) for i, lesson in enumerate(LESSONS) for j in (0, len(lesson) - 1)}
    return [step for step in every if step in ends or step in SHOWN]


def test_every_step_fits_one_laptop_screen(jupyterlab: JupyterLab, chromium: Any) -> None:
    with chromium_page(LAPTOP, browser=chromium) as page:
        nb, lesson = open_lesson(page, jupyterlab)
        for i, j in steps_to_measure():
            go(nb, lesson, i, j)
            lesson.locator(".pyr-lesson-header").scroll_into_view_if_needed()
            page.evaluate(
                "() => document.querySelector('.pyr-lesson').scrollIntoView({block: 'start'})"
            )
            page.wait_for_timeout(150)
            area = box(page.locator(".jp-NotebookPanel .jp-WindowedPanel-outer").first)
            prompt = box(lesson.locator(".pyr-lesson-prompt"))
            cards = [box(c) for c in lesson.locator(".pyr-card[data-zone]").all()]
            buttons = box(lesson.locator(".pyr-lesson-next"))
            feedback = box(lesson.locator(".pyr-lesson-feedback"))
            top = min(prompt["y"], *(c["y"] for c in cards))
            bottom = max(buttons["y"] + buttons["height"], feedback["y"] + feedback["height"])
            where = f"lesson {i + 1} step {j + 1}"
            assert top >= area["y"] - 1, (where, top, area)
            assert bottom <= area["y"] + area["height"] + 1, (where, bottom, area)
            assert all(c["y"] + c["height"] <= feedback["y"] + 1 for c in cards), where
            if (i, j) in SHOWN:
                screenshot(page, f"lesson-fit-{i + 1}-{j + 1}")


def test_controls_only_what_the_step_uses(jupyterlab: JupyterLab, chromium: Any) -> None:
    with chromium_page(LAPTOP, browser=chromium) as page:
        nb, lesson = open_lesson(page, jupyterlab)
        for slot in lesson.locator(".pyr-slot").all():
            expect(slot).to_be_hidden()
        expect(lesson.locator(".pyr-passes-left")).to_be_hidden()
        expect(lesson.locator(".pyr-btn[data-action='restart']")).to_be_hidden()
        expect(lesson.locator(".pyr-lesson-restart-step")).to_have_text("Restart step")
        expect(lesson.locator(".pyr-lesson-restart")).to_have_text("Restart lesson")
        go(nb, lesson, 4, 0)  # a draw: the stock shows, not the redeal counter
        expect(lesson.locator(".pyr-slot[data-zone='stock']")).to_be_visible()
        expect(lesson.locator(".pyr-passes-left")).to_be_hidden()
        go(nb, lesson, 4, 2)
        expect(lesson.locator(".pyr-passes-left")).to_be_visible()
        go(nb, lesson, 5, 1)
        expect(lesson.locator(".pyr-btn[data-action='undo']")).to_be_visible()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_feedback_colours_in_the_page(jupyterlab: JupyterLab, chromium: Any, theme: str) -> None:
    with chromium_page(LAPTOP, browser=chromium) as page:
        nb, lesson = open_lesson(page, jupyterlab)
        nb.theme(theme)
        nb.python('lesson.play("5H+9D")')
        says = lesson.locator(".pyr-lesson-says[data-kind='mistake']")
        expect(says).to_contain_text("5 + 9 = 14")
        colour, background = says.evaluate(
            "n => [getComputedStyle(n).color, getComputedStyle(n).backgroundColor]"
        )
        want = FEEDBACK_COLOURS[theme]
        assert colour == _rgb(want["mistake"]) and background == _rgb(want["background"])
        screenshot(lesson, f"lesson-feedback-{theme}")
        nb.theme("light")


def _rgb(colour: str) -> str:
    value = colour.lstrip("#")
    r, g, b = (int(value[k : k + 2], 16) for k in (0, 2, 4))
    return f"rgb({r}, {g}, {b})"


# -- finishing the course by clicking -----------------------------------------------------------


def a_mistake(step: Step) -> str:
    """A move this step refuses that a learner can click (a King goes at a touch where Kings
    go alone, so none of those), for the deliberate mistake."""
    game = step.new_game()
    alone = step.rules.kings_alone  # type: ignore[union-attr]
    keys = [k for k in step.mistakes if k not in MISTAKE_KINDS]
    cards = [c for c in game.pyramid if c is not None] + [p[-1] for p in game.wastes if p]
    pairs = [str(Move.pair(a, b)) for a, b in combinations(cards, 2)]
    for text in keys + pairs + ["draw"]:
        move = Move.parse(text)
        if alone and any(rank(c) == KING for c in move.cards):
            continue
        if game.refusal(move) is not None or not step.permits(move):
            return text
    raise AssertionError(f"no clickable mistake in {step.prompt!r}")


def click_move(lesson: Any, move: str) -> None:
    """Make ``move`` the way a learner does: the stock, Undo, two cards, or a King."""
    moves = lesson.locator(".pyr-moves")
    before = moves.inner_text()
    if move in ("draw", "redeal"):
        lesson.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()
        return
    if move == "undo":
        lesson.locator(".pyr-btn[data-action='undo']").click()
        return
    cards = move.split("+")
    for card_id in cards:
        touch(lesson, card_id)
    if len(cards) == 1:  # a King: one touch where Kings go alone, else select and touch again
        try:
            expect(moves).not_to_have_text(before, timeout=1500)
        except AssertionError:
            touch(lesson, cards[0])


def touch(lesson: Any, card_id: str) -> None:
    """Click a card where a learner sees it: a waste card under another shows only its top
    edge, so it is clicked there."""
    card = lesson.locator(f".pyr-card[data-id='{card_id}'][data-zone]")
    if card.get_attribute("data-zone") == "waste":
        width = box(card)["width"]
        card.click(position={"x": width / 2, "y": 4})
    else:
        card.click()


def test_all_six_lessons_finished_by_clicking_with_mistakes(
    jupyterlab: JupyterLab, chromium: Any
) -> None:
    with chromium_page(LAPTOP, browser=chromium) as page:
        nb, lesson = open_lesson(page, jupyterlab)
        feedback = lesson.locator(".pyr-lesson-says")
        moves = lesson.locator(".pyr-moves")
        for i, the_lesson in enumerate(LESSONS):
            for j, step in enumerate(the_lesson.steps):
                go(nb, lesson, i, j)
                wrong = a_mistake(step)
                click_move(lesson, wrong)
                expect(lesson.locator(".pyr-lesson-says[data-kind='mistake']")).to_have_count(
                    1, timeout=30_000
                )
                assert feedback.inner_text().strip(), (i, j, wrong)
                expect(moves).to_have_text("0")
                if j == 0:
                    screenshot(lesson, f"course-{i + 1}-mistake")
                lesson.press("Escape")  # the lesson is the board's root
                demo = list(step.demo)
                for k, move in enumerate(demo):
                    if (i, j) == (5, 3) and k == 6:  # throw the win away, then Undo it
                        click_move(lesson, "draw")
                        expect(feedback).to_contain_text("That draw buried the 4 of diamonds")
                        screenshot(lesson, "course-6-setback")
                        click_move(lesson, "undo")
                        expect(feedback).to_contain_text("The win is in hand again")
                    click_move(lesson, move)
                    # the page shows the move before the next click (a stale board would
                    # still call the next card covered)
                    expect(moves).to_have_text(str(k + 1 if move != "undo" else k - 1))
                expect(feedback).to_contain_text(step.why[:40], timeout=30_000)
        expect(lesson.locator(".pyr-lesson-header")).to_contain_text("Lesson complete ✓")
        expect(feedback).to_contain_text("notebooks/00_play.ipynb")
        screenshot(lesson, "course-finished")
        assert nb.python_json("lesson.runner.all_done") is True
        assert nb.python_json("len(lesson.runner.shown)") == 0
        # the progress is in the records file: a new widget for the learner sees it
        assert nb.python_json("len(type(lesson)(records=None).runner.completed)") == sum(
            len(item) for item in LESSONS
        )


def test_ace_then_covered_queen_then_the_right_pair(jupyterlab: JupyterLab, chromium: Any) -> None:
    """Issue 16.1: after the Ace and the covered Queen, 5 + 8 is accepted."""
    with chromium_page(LAPTOP, browser=chromium) as page:
        nb, lesson = open_lesson(page, jupyterlab)
        go(nb, lesson, 2, 0)
        for card_id in ("AS", "QH"):
            touch(lesson, card_id)
        expect(lesson.locator(".pyr-lesson-says")).to_contain_text("A covered Queen cannot pair")
        for card_id in ("5C", "8D"):
            touch(lesson, card_id)
        expect(lesson.locator(".pyr-lesson-says[data-kind='success']")).to_contain_text(
            "5 + 8 = 13 and both were uncovered"
        )
        assert nb.python_json("lesson.runner.solved") is True
