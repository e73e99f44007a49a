"""Issue 19 in real JupyterLab: a game of each new shape of the family won on the page, and
light and dark screenshots of the new shapes (``artifacts/`` and, for the README,
``docs/screenshots/``).

The kernel only sets each game up (``w.new_game(...)`` or ``w.load(Game.from_position(...))``);
every move is then made on the page by mouse clicks, or by the keyboard alone (Tab into the
board, the arrow keys, Enter). The lines are the solver's, worked out in this process: Giza's
whole deal 3 (its eight reserve piles), and small positions of the other shapes
(``tests/widget/family_positions.py``) — the inverted triangle, three pyramids, a face-down
card that turns over, two decks on the 9-row pyramid, one upright and one inverted pyramid —
so the whole module stays within a minute of browser time on one JupyterLab.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.solver import solve_deal
from tests.support.browser import REPO, JupyterLab, LabPage, chromium_page, screenshot
from tests.widget.family_positions import position as small_position
from tests.widget.family_positions import python_text, winning_line
from tests.widget.test_play_every_preset_lab import by_keys, by_mouse, enter_board, wait_for_move

# The same xdist group as the classic presets played by hand: one worker, one JupyterLab.
pytestmark = [pytest.mark.browser, pytest.mark.jupyterlab, pytest.mark.xdist_group("lab-play")]
WIDGET = ".jp-OutputArea-output:has(.pyr-root)"
NOTEBOOK = "play-the-family.ipynb"
SCREENSHOTS = REPO / "docs" / "screenshots"

#: The shapes shown in the README, each from a fixed deal: the inverted triangle, Giza's
#: reserve, a two-deck 9-row pyramid, the face-down rows of Dark Pyramid and two pyramids.
PICTURES = [
    ("triangle", 1),
    ("giza", 3),
    ("double_pyramid", 7),
    ("dark_pyramid", 7),
    ("two_pyramids", 7),
]


@pytest.fixture(scope="module")
def board(jupyterlab: JupyterLab, chromium: Any) -> Iterator[LabPage]:
    """One notebook with the board, opened once for the module."""
    import nbformat

    code = (
        "from pyramid_widget import Game\nfrom pyramid_widget.widget import PyramidWidget\n"
        "w = PyramidWidget('triangle', deal=1, records=False)\nw"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, jupyterlab.root / NOTEBOOK)
    with chromium_page((1280, 1100), browser=chromium) as page:
        lab = LabPage(page, jupyterlab).open(NOTEBOOK, timeout=180)
        lab.run_all(wait_for=".pyr-card[data-zone='pyramid']", timeout=120)
        yield lab


def _show(board: LabPage, code: str, deal: str) -> Any:
    """Run ``code`` in the kernel (a new game on the board) and wait until the page shows it."""
    out = board.python(code)
    assert "Error" not in out, out
    root = board.page.locator(".pyr-root").first
    expect(root.locator(".pyr-deal")).to_have_text(deal)
    expect(root.locator(".pyr-moves")).to_have_text("0")
    return root


def _picture(board: LabPage, preset: str, theme: str) -> Path:
    name = f"family-{preset}-{theme}.png"
    return screenshot(board.page.locator(WIDGET).first, f"issue19-{name}", also=SCREENSHOTS / name)


def test_screenshots_of_the_new_shapes_light_and_dark(board: LabPage) -> None:
    page = board.page
    for theme in ("light", "dark"):
        board.theme(theme)
        for preset, deal in PICTURES:
            root = _show(board, f"w.new_game({preset!r}, {deal})", f"deal #{deal}")
            game = Game(preset, deal=deal)
            expect(root.locator(".pyr-card[data-zone='pyramid']")).to_have_count(
                game.rules.layout.size
            )
            expect(root.locator(".pyr-card.is-down")).to_have_count(len(game.hidden))
            page.wait_for_timeout(250)  # the cards slide into place
            path = _picture(board, preset, theme)
            assert path.stat().st_size > 10_000
    board.theme("light")


#: How each shape is won: (preset, where its game comes from, the hand that plays it).
WINS = [
    ("giza", "deal", "mouse"),
    ("triangle", "position", "mouse"),
    ("pharaohs", "position", "mouse"),
    ("dark_pyramid", "position", "mouse"),
    ("double_pyramid", "position", "mouse"),
    ("up_and_down", "position", "keys"),
    ("dark_pyramid", "position", "keys"),
]


def _game(preset: str, source: str) -> tuple[str, str, list[Move]]:
    """Kernel code for the game, the deal label the page shows, and the solver's line."""
    if source == "deal":
        solution = solve_deal(preset, 3, max_seconds=30)
        assert solution.moves, f"{preset} deal 3 is not winnable"
        return f"w.new_game({preset!r}, 3)", "deal #3", list(solution.moves)
    return f"w.load({python_text(preset)})", "custom deal", winning_line(small_position(preset))


@pytest.mark.parametrize(("preset", "source", "hand"), WINS, ids=["-".join(w) for w in WINS])
def test_each_new_shape_is_won_on_the_page(
    board: LabPage, preset: str, source: str, hand: str
) -> None:
    page = board.page
    code, deal, line = _game(preset, source)
    root = _show(board, code, deal)
    hidden = (
        len(Game(preset, deal=3).hidden) if source == "deal" else len(small_position(preset).hidden)
    )
    expect(root.locator(".pyr-card.is-down")).to_have_count(hidden)
    play = by_mouse if hand == "mouse" else by_keys
    if hand == "keys":
        enter_board(page)
    for i, move in enumerate(line):
        play(page, move)
        wait_for_move(page, i)
    banner = root.locator(".pyr-banner")
    expect(banner).to_contain_text("You won!", timeout=15_000)
    expect(root.locator(".pyr-moves")).to_have_text(str(len(line)))
    assert board.python_json("w.status") == "won", (preset, hand)
    screenshot(page.locator(WIDGET).first, f"issue19-win-{preset}-{source}-{hand}")
