"""The solve button in a real JupyterLab (Chromium): its line wins, and the stats panel shows it.

A notebook made for the test shows a ``PyramidWidget`` on a deal the solver proves winnable,
with its records in a temporary directory. The test clicks Solve, waits for the page to play
the whole line (one move every ~0.4 s) and show the win, checks the kernel's game is won, opens
the stats panel and reads the win there, and reads the records file from this process too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pyramid_widget.records.store import DATA_DIR_ENV, Records
from pyramid_widget.solver.assist import winnable_deal
from tests.support.browser import JupyterLab, LabPage, chromium_page, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.jupyterlab, pytest.mark.xdist_group("browser")]
RULES = "easy"


def solve_notebook(path: Path, deal: int) -> Path:
    """A one-cell notebook showing the widget on ``deal`` with the records of ``$DATA_DIR``."""
    import nbformat

    code = (
        "import os\n"
        "from pyramid_widget.widget import PyramidWidget\n"
        "from pyramid_widget.records.store import Records\n"
        f"records = Records(os.environ[{DATA_DIR_ENV!r}])\n"
        f"w = PyramidWidget({RULES!r}, deal={deal}, records=records)\n"
        "w"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, path)
    return path


def test_the_solve_button_wins_and_the_stats_panel_shows_the_win(tmp_path: Path) -> None:
    deal = winnable_deal(RULES, start=300, bound=40, max_seconds=5)
    data = tmp_path / "data"
    data.mkdir()
    notebook = solve_notebook(tmp_path / "solve.ipynb", deal)
    with JupyterLab([notebook], env={DATA_DIR_ENV: str(data)}) as lab, chromium_page() as page:
        lab_page = LabPage(page, lab).open(notebook.name)
        lab_page.run_all(wait_for=".pyr-root", timeout=120)
        assert lab_page.python_json("[w.status, w.moves, w.features]") == [
            "playing", 0, {"records": True, "assist": True},
        ]  # fmt: skip
        page.click(".pyr-root button[data-action='solve']")
        page.wait_for_selector(".pyr-banner.is-won", timeout=180_000)
        won: Any = lab_page.python_json(
            "[w.game.status.value, w.autoplay, len(w.game.history), w.game.deal_number]"
        )
        assert won[:2] == ["won", []] and won[2] > 0 and won[3] == deal
        page.click(".pyr-root button[data-action='stats']")
        page.wait_for_selector(".pyr-root .pyr-stats [data-stat='Won']")
        panel = _stat_tiles(page)
        label = page.get_attribute(".pyr-root .pyr-stats", "aria-label")
        screenshot(page, "assist-solve-stats")
    assert label == f"Records for {RULES}"
    assert (panel["Played"], panel["Won"], panel["Win rate"], panel["Streak"]) == (
        "1", "1", "100%", "1",
    )  # fmt: skip
    with Records(data) as records:
        (game,) = records.games()
    assert (game.result, game.deal_number, game.moves) == ("won", deal, won[2])


def _stat_tiles(page: Any) -> dict[str, str]:
    """The stats panel's figures by name: ``{"Played": "1", "Won": "1", ...}``."""
    tiles = page.locator(".pyr-root .pyr-stats [data-stat]")
    return {
        tiles.nth(i).get_attribute("data-stat"): tiles.nth(i).locator("b").inner_text()
        for i in range(tiles.count())
    }
