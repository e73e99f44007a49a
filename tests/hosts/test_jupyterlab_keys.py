"""The same keyboard check in a real JupyterLab (issue 17.1): D, D, arrows and Lab's own
command-mode keys pressed on the board stay on the board, and the notebook keeps every cell.
(JupyterLab reads keys in the bubble phase, so this held before the fix; it must still hold.)
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.hosts.keys import CELL_TYPES, keys_stay_on_the_board, win_by_keyboard
from tests.support.browser import JupyterLab, LabPage, chromium_page

pytestmark = [pytest.mark.browser, pytest.mark.jupyterlab, pytest.mark.xdist_group("browser")]


def test_keys_on_the_board_never_reach_jupyterlab(jupyterlab: JupyterLab, chromium: Any) -> None:
    """Uses the session's JupyterLab (``tests/conftest.py``), which serves ``00_play``."""
    with chromium_page((1280, 1200), browser=chromium) as page:
        nb = LabPage(page, jupyterlab).open("00_play.ipynb", timeout=120)
        nb.run_all(wait_for=".pyr-card[data-zone='pyramid']", timeout=120)
        types = keys_stay_on_the_board(nb)
        win_by_keyboard(nb)
        assert page.evaluate(CELL_TYPES) == types
