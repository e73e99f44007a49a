"""The solve button in a real JupyterLab (Chromium): its line wins, and the stats panel shows it.

A notebook made for the test shows a ``PyramidWidget`` on a deal the solver proves winnable,
with its records in a temporary directory. The test clicks Solve, waits for the page to play
the whole line (fast speed) and show the win, checks the kernel's game is won, opens the stats
panel and reads there that the game counts as assisted, not as a win (issue 15.5), and reads the
records file from this process too. It uses the session's ``jupyterlab`` and ``chromium``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pyramid_widget.records.store import Records
from pyramid_widget.solver.assist import winnable_deal
from tests.support.browser import JupyterLab, LabPage, chromium_page, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.jupyterlab, pytest.mark.xdist_group("browser")]
RULES = "easy"


def solve_notebook(path: Path, deal: int, data: Path) -> Path:
    """A one-cell notebook showing the widget on ``deal`` with the records in ``data``."""
    import nbformat

    code = (
        "from pyramid_widget.widget import PyramidWidget\n"
        "from pyramid_widget.records.store import Records\n"
        f"records = Records({str(data)!r})\n"
        f"w = PyramidWidget({RULES!r}, deal={deal}, records=records)\n"
        "w"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, path)
    return path


def test_the_solve_button_wins_and_the_stats_panel_shows_it_as_assisted(
    tmp_path: Path, jupyterlab: JupyterLab, chromium: Any
) -> None:
    deal = winnable_deal(RULES, start=300, bound=40, max_seconds=5)
    data = tmp_path / "data"
    data.mkdir()
    notebook = solve_notebook(jupyterlab.root / f"solve-{tmp_path.name}.ipynb", deal, data)
    with chromium_page(browser=chromium) as page:
        lab_page = LabPage(page, jupyterlab).open(notebook.name)
        lab_page.run_all(wait_for=".pyr-root", timeout=120)
        assert lab_page.python_json("[w.status, w.moves, w.features]") == [
            "playing", 0, {"records": True, "assist": True},
        ]  # fmt: skip
        page.select_option(".pyr-root .pyr-speed", "fast")
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
    # The solver's win is the solver's: kept apart, never a win, a streak or a best (issue 15.5).
    assert (panel["Played"], panel["Won"], panel["Streak"], panel["Assisted"]) == (
        "0", "0", "0", "1",
    )  # fmt: skip
    with Records(data) as records:
        (game,) = records.games()
        stats = records.stats(RULES)
    assert (game.result, game.deal_number, game.moves) == ("won", deal, won[2])
    assert (stats.won, stats.best_time, stats.assisted) == (0, None, 1)


def _stat_tiles(page: Any) -> dict[str, str]:
    """The stats panel's figures by name: ``{"Played": "1", "Won": "1", ...}``."""
    tiles = page.locator(".pyr-root .pyr-stats [data-stat]")
    return {
        tiles.nth(i).get_attribute("data-stat"): tiles.nth(i).locator("b").inner_text()
        for i in range(tiles.count())
    }
