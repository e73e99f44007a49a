"""Shared steps of the keyboard tests in real hosts (Notebook 7, JupyterLab): keys pressed on
the board stay on the board, and the short deal is won by any hand (keyboard alone, or
clicks alone)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.support.browser import SHORT_DEAL, SHORT_WIN

BOARD = ".jp-OutputArea-output:has(.pyr-root)"
CELL_TYPES = "() => window.jupyterapp.shell.currentWidget.content.widgets.map(c => c.model.type)"
ACTIVE_CELL = "() => window.jupyterapp.shell.currentWidget.content.activeCellIndex"
# Command-mode shortcuts of Notebook 7 and JupyterLab that are no board shortcut: insert above
# and below, to markdown and code, cut, undo, merge, line numbers, restart, interrupt.
HOST_KEYS = ["a", "b", "m", "y", "x", "z", "Shift+M", "Shift+L", "0", "0", "i", "i"]


def focus_card(board: Any, card: str) -> None:
    board.locator(f".pyr-card[data-id='{card}'][data-zone]").focus()


def keys_stay_on_the_board(notebook: Any) -> list[str]:
    """Load the short deal in the kernel's ``w``; press D, D, arrows and the host's own
    command-mode keys on the board; check each did only what it does on the board and the
    notebook kept every cell. Returns the notebook's cell types."""
    page = notebook.page
    types = page.evaluate(CELL_TYPES)
    assert len(types) >= 5
    notebook.python(f"from pyramid_widget import Game\nw.load(Game('medium', deal={SHORT_DEAL!r}))")
    board = page.locator(BOARD).first
    expect(board.locator(".pyr-card[data-zone='pyramid']")).to_have_count(28)
    focus_card(board, "KS")
    active = page.evaluate(ACTIVE_CELL)

    # D, D: two draws on the board, no cell deleted
    page.keyboard.press("d")
    page.keyboard.press("d")
    notebook.wait("() => document.querySelector('.pyr-moves')?.textContent === '2'")
    assert notebook.python_json("w.moves") == 2
    assert page.evaluate(CELL_TYPES) == types

    # a panel opened and closed from the keys, Undo greyed out by its own press: the focus
    # stays on the board, so D, D still draws (and deletes no cell) and U, U takes them back
    focus_card(board, "KS")
    page.keyboard.press("n")
    expect(board.locator(".pyr-rules-select")).to_be_focused()
    page.keyboard.press("Escape")
    expect(board.locator(".pyr-panel")).to_be_hidden()
    page.keyboard.press("d")
    page.keyboard.press("d")
    notebook.wait("() => document.querySelector('.pyr-moves')?.textContent === '4'")
    page.keyboard.press("u")
    page.keyboard.press("u")
    notebook.wait("() => document.querySelector('.pyr-moves')?.textContent === '2'")
    assert notebook.python_json("w.moves") == 2
    assert page.evaluate(CELL_TYPES) == types

    # arrows move the focus between the board's cards and piles, not between cells
    focus_card(board, "KS")
    seen = set()
    for key in ["ArrowLeft", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"]:
        page.keyboard.press(key)
        seen.add(page.evaluate("() => document.activeElement.dataset.id || 'pile'"))
        assert page.evaluate("() => !!document.activeElement.closest('.pyr-root')"), key
    assert len(seen) >= 2, seen
    now = page.evaluate(ACTIVE_CELL)
    assert now == active

    # the notebook's other command-mode keys do nothing either
    focus_card(board, "KS")
    for key in HOST_KEYS:
        page.keyboard.press(key)
    assert page.evaluate(CELL_TYPES) == types
    assert notebook.python_json("w.moves") == 2

    return list(types)


def win_the_short_deal(notebook: Any, press: Callable[[Any, str], None]) -> None:
    """Win the short deal (after its two draws) with ``press(board, card)`` for each card of
    each move (a click, or the focus and Enter); check the banner and the kernel. A King goes
    with one press where Kings go alone, or is selected first and goes with a second one."""
    page = notebook.page
    board = page.locator(BOARD).first
    moves = board.locator(".pyr-moves")
    for n, move in enumerate(SHORT_WIN.split(), start=3):
        for card in move.split("+"):
            press(board, card)
        if "+" not in move:
            king = board.locator(f".pyr-card[data-id='{move}'][data-zone='pyramid']")
            notebook.wait(
                "([id, n]) => document.querySelector('.pyr-moves')?.textContent === String(n)"
                " || document.querySelector(`.pyr-card[data-id='${id}'][aria-pressed='true']`)",
                timeout=60,
                arg=[move, n],
            )
            if king.count() and king.get_attribute("aria-pressed") == "true":
                press(board, move)
        expect(moves).to_have_text(str(n), timeout=60_000)
    expect(board.locator(".pyr-banner")).to_contain_text("You won!", timeout=30_000)
    assert notebook.python_json("[w.status, w.board['pyramid_left']]") == ["won", 0]


def win_by_keyboard(notebook: Any) -> None:
    """Win the short deal (after the two draws) from the keyboard: each card focused, then
    Enter."""

    def enter(board: Any, card: str) -> None:
        focus_card(board, card)
        notebook.page.keyboard.press("Enter")

    win_the_short_deal(notebook, enter)
