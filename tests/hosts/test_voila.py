"""The play notebook and a lesson in real Voila + Chromium (issue 17.5): the board renders,
a click goes to the kernel and back (the page and the progress line change), and the play
page carries no notebook instructions that do not apply under Voila."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.browser import REPO, chromium_page, screenshot
from tests.support.hosts import Voila

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("hosts")]

PLAY = REPO / "notebooks" / "play_voila.ipynb"
LESSON = REPO / "notebooks" / "01_pairs_to_13.ipynb"
STOCK = ".pyr-slot[data-zone='stock'] .pyr-slot-face"


@pytest.fixture(scope="module")
def play() -> Iterator[Voila]:
    with Voila([PLAY], timeout=120) as server:
        yield server  # type: ignore[misc]


def test_the_play_notebook_says_nothing_that_does_not_apply() -> None:
    text = " ".join("".join(c["source"]) for c in json.loads(PLAY.read_text())["cells"])
    for phrase in ("Run All", "Run ▸", "Shift+Enter", "run the cell", "records=None"):
        assert phrase not in text
    assert "records=False" in text


def test_play_page_click_round_trip(play: Voila, chromium: Any) -> None:
    with chromium_page((1200, 1100), browser=chromium) as page:
        page.goto(play.url("/"))
        page.wait_for_selector(".pyr-card[data-zone='pyramid']", timeout=120_000)
        expect(page.locator(".pyr-card[data-zone='pyramid']")).to_have_count(28)
        expect(page.get_by_text("0 moves · score 0 · playing")).to_be_visible()
        page.locator(STOCK).click()
        expect(page.locator(".pyr-moves")).to_have_text("1", timeout=30_000)
        expect(page.get_by_text("1 moves · score 0 · playing")).to_be_visible(timeout=30_000)
        expect(page.locator(".pyr-card[data-zone='waste']")).to_have_count(1)
        screenshot(page, "voila-play")


def value(card: str) -> int:
    return "A23456789TJQK".index(card[0]) + 1


def test_a_lesson_in_voila_click_round_trip(chromium: Any) -> None:
    with (
        Voila([LESSON], timeout=120) as server,
        chromium_page((1200, 1300), browser=chromium) as page,
    ):
        page.goto(server.url("/"))
        page.wait_for_selector(".pyr-card.is-available", timeout=120_000)
        board = page.locator(".pyr-root").first
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
        screenshot(page, "voila-lesson")
