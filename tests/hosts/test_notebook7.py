"""The board in a real Jupyter Notebook 7 driven by Chromium (issue 17.1).

Notebook 7 reads ``keydown`` on ``document`` in the capture phase, before the board: before
the fix, "D, D" on the board deleted the board's own cell and the arrow keys moved between
cells. Here ``00_play`` runs; keys go to the board only (D, D draws twice; arrows move the
focus between cards; a, b, m, y, x, z, Shift+M, Shift+L, 0 0, i i do nothing to the notebook);
a short deal is won from the keyboard (cards focused, then Enter); the notebook still has
every cell, of the same types.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.hosts.keys import BOARD, CELL_TYPES, keys_stay_on_the_board, win_by_keyboard
from tests.support.browser import REPO, chromium_page, screenshot
from tests.support.hosts import Notebook7, NotebookPage

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("hosts")]


@pytest.fixture(scope="module")
def server() -> Iterator[Notebook7]:
    with Notebook7([REPO / "notebooks" / "00_play.ipynb"]) as nb:
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
