"""The play notebook and the lessons in real Voila + Chromium (issue 17.5): the board renders,
a click goes to the kernel and back (the page and the progress line change), and the play and
lesson pages carry no notebook instructions that do not apply under Voila (no Run All, no
exercise cell a visitor cannot edit, no records file shared by every visitor). The lesson page
(``notebooks/lessons_voila.ipynb``) is one anywidget (issue 17.4): its panel's Next goes to
the kernel and back too."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget.engine.cards import parse_card, rank
from tests.support.browser import REPO, chromium_page, screenshot
from tests.support.hosts import Voila

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("hosts")]

PLAY = REPO / "notebooks" / "play_voila.ipynb"
LESSON = REPO / "notebooks" / "lessons_voila.ipynb"
STOCK = ".pyr-slot[data-zone='stock'] .pyr-slot-face"


@pytest.fixture(scope="module")
def play() -> Iterator[Voila]:
    with Voila([PLAY], timeout=120) as server:
        yield server  # type: ignore[misc]


#: What a Voila page must not say or do: notebook instructions a visitor cannot follow, a
#: records file every visitor shares, an exercise cell they cannot edit, links to notebooks
#: this server does not serve.
NOT_UNDER_VOILA = ("Run All", "Run ▸", "Shift+Enter", "run the cell", "records=None")
NOT_IN_THE_LESSON_PAGE = ("exercise(", ".check(", "Not yet", "Your turn", ".ipynb", "learner=")


def notebook_text(path: Path) -> str:
    return " ".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])


@pytest.mark.parametrize("path", [PLAY, LESSON], ids=["play", "lessons"])
def test_the_voila_notebooks_say_nothing_that_does_not_apply(path: Path) -> None:
    text = notebook_text(path)
    for phrase in NOT_UNDER_VOILA + (NOT_IN_THE_LESSON_PAGE if path == LESSON else ()):
        assert phrase not in text, phrase
    assert "records=False" in text


def test_the_lesson_page_is_only_the_lesson() -> None:
    """One code cell, and it shows the lesson (its last line is the widget)."""
    cells = json.loads(LESSON.read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert len(code) == 1 and code[0].splitlines()[-1].startswith("LessonWidget(records=False")


def test_play_page_click_round_trip(play: Voila, chromium: Any) -> None:
    with chromium_page((1200, 1100), browser=chromium) as page:
        page.goto(play.url("/"))
        page.wait_for_selector(".pyr-card[data-zone='pyramid']", timeout=120_000)
        expect(page.locator(".pyr-card[data-zone='pyramid']")).to_have_count(28)
        expect(page.get_by_text("0 moves · score 0 · playing")).to_be_visible()
        page.locator(STOCK).click()
        expect(page.locator(".pyr-moves")).to_have_text("1", timeout=30_000)
        expect(page.get_by_text("1 move · score 0 · playing")).to_be_visible(timeout=30_000)
        expect(page.locator(".pyr-card[data-zone='waste']")).to_have_count(1)
        screenshot(page, "voila-play")


def value(card: str) -> int:
    """The card's value (A = 1 … K = 13), by the engine's own parser."""
    return rank(parse_card(card))


def test_a_lesson_in_voila_click_round_trip(chromium: Any) -> None:
    with (
        Voila([LESSON], timeout=120) as server,
        chromium_page((1200, 1300), browser=chromium) as page,
    ):
        page.goto(server.url("/"))
        page.wait_for_selector(".pyr-lesson .pyr-card.is-available", timeout=120_000)
        board = page.locator(".pyr-root.pyr-lesson").first
        progress = board.locator(".pyr-lesson-progress")
        expect(progress).to_have_text("Lesson 1 of 6 · Step 1 of 6")
        expect(board.locator(".pyr-lesson-prompt")).to_contain_text("Which card pairs")
        expect(board.locator(".pyr-lesson-course")).to_contain_text("this session only")
        ids = [
            n.get_attribute("data-id") or "" for n in board.locator(".pyr-card.is-available").all()
        ]
        pair = next((a, b) for a in ids for b in ids if a < b and value(a) + value(b) == 13)
        left = board.locator(".pyr-card[data-zone='pyramid']").count()
        for card in pair:
            board.locator(f".pyr-card[data-id='{card}']").click()
        # the pair went to the kernel, the lesson's runner took it, the board lost two cards
        expect(board.locator(".pyr-card[data-zone='pyramid']")).to_have_count(
            left - 2, timeout=30_000
        )
        for card in pair:
            expect(
                board.locator(f".pyr-card[data-id='{card}'][data-zone='pyramid']")
            ).to_have_count(0)
        expect(board.locator(".pyr-lesson-says")).to_have_attribute("data-kind", "success")
        expect(board.locator(".pyr-lesson-next")).to_have_class(re.compile(r"\bpyr-primary\b"))
        page.wait_for_timeout(400)  # the leaving cards' and the buttons' transitions end
        screenshot(page, "voila-lesson")
        board.locator(".pyr-lesson-next").click()  # a panel button: to the kernel and back
        expect(progress).to_have_text("Lesson 1 of 6 · Step 2 of 6", timeout=30_000)
        expect(board.locator(".pyr-lesson-dots")).to_have_text("●○○○○○")
