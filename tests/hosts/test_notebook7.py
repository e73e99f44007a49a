"""The board in a real Jupyter Notebook 7 driven by Chromium (issue 17.1).

Notebook 7 reads ``keydown`` on ``document`` in the capture phase, before the board: before
the fix, "D, D" on the board deleted the board's own cell and the arrow keys moved between
cells. Here ``00_play`` runs; keys go to the board only (D, D draws twice; arrows move the
focus between cards; a, b, m, y, x, z, Shift+M, Shift+L, 0 0, i i do nothing to the notebook);
a short deal is won from the keyboard (cards focused, then Enter); the notebook still has
every cell, of the same types. The same short deal is then won by clicks alone, and a lesson
(``01_pairs_to_13``) takes a wrong pair first, explains it, and then takes the right one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget.engine.cards import parse_card, rank
from tests.hosts.keys import (
    BOARD,
    CELL_TYPES,
    keys_stay_on_the_board,
    win_by_keyboard,
    win_the_short_deal,
)
from tests.support.browser import REPO, SHORT_DEAL, chromium_page, screenshot
from tests.support.hosts import Notebook7, NotebookPage

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("hosts")]
LESSON = "01_pairs_to_13.ipynb"
STOCK = ".pyr-slot[data-zone='stock'] .pyr-slot-face"


@pytest.fixture(scope="module")
def server() -> Iterator[Notebook7]:
    notebooks = [REPO / "notebooks" / name for name in ("00_play.ipynb", LESSON)]
    with Notebook7(notebooks) as nb:
        yield nb  # type: ignore[misc]


@pytest.fixture()
def notebook(server: Notebook7, chromium: Any) -> Iterator[NotebookPage]:
    with chromium_page((1280, 1200), browser=chromium) as page:
        nb = NotebookPage(page, server).open("00_play.ipynb")
        nb.command("notebook:run-all-cells")
        page.wait_for_selector(".pyr-card[data-zone='pyramid']", timeout=120_000)
        nb.wait_idle(120)
        yield nb


def test_keys_on_the_board_never_reach_the_notebook(notebook: NotebookPage) -> None:
    types = keys_stay_on_the_board(notebook)
    win_by_keyboard(notebook)
    assert notebook.page.evaluate(CELL_TYPES) == types
    assert notebook.cell_count() == len(types)
    screenshot(notebook.page.locator(BOARD).first, "notebook7-won-by-keyboard")


def test_a_short_deal_won_by_clicks_alone(notebook: NotebookPage) -> None:
    page = notebook.page
    types = page.evaluate(CELL_TYPES)
    notebook.python(f"from pyramid_widget import Game\nw.load(Game('medium', deal={SHORT_DEAL!r}))")
    board = page.locator(BOARD).first
    moves = board.locator(".pyr-moves")
    expect(moves).to_have_text("0")
    for n in (1, 2):  # the short deal's line starts after two draws
        board.locator(STOCK).click()
        expect(moves).to_have_text(str(n), timeout=60_000)
    win_the_short_deal(
        notebook,
        lambda on, card: on.locator(f".pyr-card[data-id='{card}'][data-zone='pyramid']").click(),
    )
    assert page.evaluate(CELL_TYPES) == types
    screenshot(board, "notebook7-won-by-clicks")


def value(card: str) -> int:
    """The card's value (A = 1 … K = 13), by the engine's own parser."""
    return rank(parse_card(card))


def test_a_lesson_explains_a_wrong_pair_then_takes_the_right_one(
    server: Notebook7, chromium: Any
) -> None:
    with chromium_page((1280, 1300), browser=chromium) as page:
        nb = NotebookPage(page, server).open(LESSON)
        nb.command("notebook:run-all-cells")
        page.wait_for_selector(".pyr-card.is-available", timeout=120_000)
        nb.wait_idle(120)
        types = page.evaluate(CELL_TYPES)
        board = page.locator(".pyr-root").first
        says = page.locator(".pyr-lesson-says").first
        ids = [
            n.get_attribute("data-id") or "" for n in board.locator(".pyr-card.is-available").all()
        ]
        wrong = next((a, b) for a in ids for b in ids if a < b and value(a) + value(b) != 13)
        right = next((a, b) for a in ids for b in ids if a < b and value(a) + value(b) == 13)
        left = board.locator(".pyr-card[data-zone='pyramid']").count()
        for card in wrong:  # the mistake first: explained, and nothing moves
            board.locator(f".pyr-card[data-id='{card}']").click()
        expect(says).to_have_attribute("data-kind", "mistake", timeout=30_000)
        expect(says).to_contain_text(f"= {value(wrong[0]) + value(wrong[1])}")
        expect(board.locator(".pyr-card[data-zone='pyramid']")).to_have_count(left)
        # the refused pair's second card is the selection; Escape cancels it, as a player would
        second = board.locator(f".pyr-card[data-id='{wrong[1]}']")
        expect(second).to_have_attribute("aria-pressed", "true", timeout=30_000)
        page.keyboard.press("Escape")
        expect(board.locator(".pyr-card[aria-pressed='true']")).to_have_count(0)
        for card in right:  # then the right pair: taken, and the lesson says so
            board.locator(f".pyr-card[data-id='{card}']").click()
        expect(board.locator(".pyr-card[data-zone='pyramid']")).to_have_count(
            left - 2, timeout=30_000
        )
        expect(says).to_have_attribute("data-kind", "success", timeout=30_000)
        assert page.evaluate(CELL_TYPES) == types
        screenshot(page, "notebook7-lesson")
