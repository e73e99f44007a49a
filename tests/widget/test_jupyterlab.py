"""The widget in a real JupyterLab driven by Chromium: run ``notebooks/00_play.ipynb``, win a
known short deal by clicks only, check the banner and the Python side, and save screenshots
(light and dark) to ``artifacts/`` and the README's to ``docs/screenshot.png``."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.support.browser import (
    REPO,
    SHORT_DEAL,
    SHORT_WIN,
    JupyterLab,
    LabPage,
    chromium_page,
    screenshot,
)

pytestmark = [pytest.mark.browser, pytest.mark.jupyterlab, pytest.mark.xdist_group("browser")]

WIDGET = ".jp-OutputArea-output:has(.pyr-root)"


def docs_copy(name: str) -> Path | None:
    """Where to copy a screenshot for the README: ``docs/NAME`` when it is missing or when
    ``PYRAMID_WIDGET_UPDATE_DOCS=1`` (so ordinary test runs leave tracked files alone)."""
    target = REPO / "docs" / name
    if os.environ.get("PYRAMID_WIDGET_UPDATE_DOCS") == "1" or not target.exists():
        return target
    return None


@pytest.fixture()
def notebook(jupyterlab: JupyterLab, chromium: Any) -> Iterator[LabPage]:
    with chromium_page((1280, 1100), browser=chromium) as page:
        nb = LabPage(page, jupyterlab).open("00_play.ipynb")
        nb.run_all(wait_for=".pyr-card[data-zone='pyramid']")
        yield nb


def tap(root: Any, card_id: str) -> None:
    root.locator(f".pyr-card[data-id='{card_id}'][data-zone]").click()


def deal_by_hand(root: Any, rules: str, deal: str) -> None:
    """Start a deal with the toolbar's New deal panel (clicks and typing only)."""
    root.locator(".pyr-toolbar [data-action='new']").click()
    root.locator(".pyr-rules-select").select_option(rules)
    root.locator(".pyr-deal-input").fill(deal)
    root.locator("[data-action='deal']").click()
    title = f"deal #{deal}" if deal.isdigit() else "custom deal"
    expect(root.locator(".pyr-deal")).to_have_text(title)
    expect(root.locator(".pyr-moves")).to_have_text("0")


def test_win_a_short_deal_by_clicks_in_jupyterlab(notebook: LabPage) -> None:
    page = notebook.page
    root = page.locator(".pyr-root").first
    expect(root.locator(".pyr-card[data-zone='pyramid']")).to_have_count(28)
    deal_by_hand(root, "medium", SHORT_DEAL)
    expect(root.locator(".pyr-card[data-id='KC'][data-zone='pyramid']")).to_have_count(1)
    expect(root.locator(".pyr-moves")).to_have_text("0")
    for move in SHORT_WIN.split():
        cards = move.split("+")
        for card_id in cards:  # a King goes with one click
            tap(root, card_id)
        expect(root.locator(f".pyr-card[data-id='{cards[0]}'][data-zone='pyramid']")).to_have_count(
            0
        )
    banner = root.locator(".pyr-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You won!")
    expect(banner.locator("[data-action='new']")).to_be_visible()
    state = notebook.python_json(
        "[w.status, w.moves, w.game.status.value, w.board['pyramid_left']]"
    )
    assert state == ["won", 16, "won", 0]
    screenshot(page.locator(WIDGET).first, "lab-won-light")


def test_screenshots_light_and_dark(notebook: LabPage) -> None:
    page = notebook.page
    root = page.locator(".pyr-root").first
    deal_by_hand(root, "medium", "7")
    for card_id in ("QC", "AC"):
        tap(root, card_id)
    root.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()
    expect(root.locator(".pyr-moves")).to_have_text("2")
    tap(root, "TD")
    tap(root, "4H")
    expect(root.locator(".pyr-message")).to_have_text("4 + 10 = 14, not 13.")
    page.keyboard.press("Escape")  # the refused 4H became the selection: cancel it
    tap(root, "QS")
    expect(root.locator(".pyr-card.is-selected")).to_have_count(1)
    page.locator(WIDGET).first.scroll_into_view_if_needed()
    page.mouse.move(0, 0)
    screenshot(page.locator(WIDGET).first, "lab-light", also=docs_copy("screenshot.png"))
    notebook.theme("dark")
    felt = root.locator(".pyr-felt")
    expect(felt).to_be_visible()
    screenshot(page.locator(WIDGET).first, "lab-dark", also=docs_copy("screenshot-dark.png"))
    assert notebook.python_json("w.moves") == 2
    notebook.theme("light")


def test_keyboard_play_in_jupyterlab_does_not_trigger_notebook_shortcuts(
    notebook: LabPage,
) -> None:
    page = notebook.page
    root = page.locator(".pyr-root").first
    deal_by_hand(root, "medium", "7")
    cells = page.locator(".jp-Notebook .jp-Cell").count()
    root.locator(".pyr-card[data-id='QC'][data-zone]").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(root.locator(".pyr-card[data-id='AC'][data-zone]")).to_have_count(0)
    for key in ("d", "d", "a", "b", "m", "u", "r", "h"):  # d d / a / b / m are notebook shortcuts
        page.keyboard.press(key)
    expect(root.locator(".pyr-moves")).to_have_text("3")
    expect(root.locator(".is-hint")).not_to_have_count(0)
    assert page.locator(".jp-Notebook .jp-Cell").count() == cells
    assert page.locator(".jp-Notebook .jp-MarkdownCell").count() == 4
    assert notebook.python_json("[w.moves, w.last_event['kind']]") == [3, "hint"]
