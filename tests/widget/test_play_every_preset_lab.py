"""Issue 15, "done when": every preset played to a win and to a loss in real JupyterLab, by
mouse alone and by keyboard alone, with a screenshot of each end in ``artifacts/``.

The kernel only sets the deal up (``w.new_game(...)``); every move is then made on the page:
clicks on cards and on the deck, or Tab into the board, arrow keys to the card, Enter, D and C.
The winning line is the solver's; the losing one is the engine's rule of thumb (greedy) on a
deal it loses, both worked out in this process and replayed by hand on the board.

``make test`` plays four games (:data:`QUICK`): two wins by mouse (``hard``'s one pass,
``egypt``'s cell and three waste piles, and so every kind of click), one by keyboard
(``cheops``'s adjacent ranks), and a loss by keyboard (``easy``'s stall rule), within the
suite's 12-minute budget. ``pytest --thorough`` plays every preset's win with its hand of
:data:`HANDS` and two losses, one by each hand (``medium``'s last pass by mouse too; 9
games); ``pytest --every-way`` all 28 (each end of each preset by each hand), as issue 15
first did.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget import Game
from pyramid_widget.engine.hints import hint
from pyramid_widget.engine.moves import Move
from pyramid_widget.solver.lines import checked_solve
from tests.support import tier
from tests.support.browser import JupyterLab, LabPage, chromium_page, screenshot

# One xdist group: the 14 games run on one worker and its one JupyterLab (about 4 minutes).
# Spread over three workers, three JupyterLabs started at once on two cores, and opening the
# notebook timed out once under that load.
pytestmark = [pytest.mark.browser, pytest.mark.jupyterlab, pytest.mark.xdist_group("lab-play")]
WIDGET = ".jp-OutputArea-output:has(.pyr-root)"
NOTEBOOK = "play-every-preset.ipynb"


@pytest.fixture(scope="module")
def board(jupyterlab: JupyterLab, chromium: Any) -> Iterator[LabPage]:
    """One notebook with the board, opened once for the module; each game starts a new deal."""
    import nbformat

    code = "from pyramid_widget.widget import PyramidWidget\nw = PyramidWidget('medium', deal=7, records=False)\nw"
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nbformat.write(notebook, jupyterlab.root / NOTEBOOK)
    with chromium_page((1280, 1100), browser=chromium) as page:
        lab = LabPage(page, jupyterlab).open(NOTEBOOK, timeout=180)
        lab.run_all(wait_for=".pyr-card[data-zone='pyramid']", timeout=120)
        yield lab


#: Per preset, a winnable deal and a deal the rule of thumb loses, chosen (once, by a search
#: over deals 0-400 and 200-700) for short lines, so the 28 games played by hand stay within
#: the suite's time budget. The test still works each line out and checks each end.
DEALS = {
    "easy": (17, 299),
    "medium": (17, 409),
    "hard": (268, 586),
    "relaxed": (17, 605),
    "apophis": (4, 279),
    "cheops": (21, 495),
    "egypt": (8, 530),
}


#: The hand that wins each preset in the suite; the other hand plays its loss. Four presets are
#: won by mouse and three by keyboard, so each hand both wins and loses in the suite.
HANDS = {
    "easy": "mouse",
    "medium": "keys",
    "hard": "mouse",
    "relaxed": "keys",
    "apophis": "mouse",
    "cheops": "keys",
    "egypt": "mouse",
}


#: The presets whose loss the suite plays, with the hand other than their winning one: the
#: ``easy`` stall rule by keyboard and ``medium``'s last pass by mouse.
LOSSES = ("easy", "medium")


#: The quick tier's games (``make test``): see the module's docstring.
QUICK = (
    ("easy", "loss", "keys"),
    ("hard", "win", "mouse"),
    ("cheops", "win", "keys"),
    ("egypt", "win", "mouse"),
)


def games(every_way: bool, thorough: bool = True) -> list[tuple[str, str, str]]:
    """The (preset, end, hand) games to play: every win and two losses (``thorough``), all
    four ends and hands of every preset (``every_way``), else the quick tier's four.

    >>> games(False)[:2]
    [('easy', 'win', 'mouse'), ('easy', 'loss', 'keys')]
    >>> len(games(False, thorough=False)), len(games(False)), len(games(True))
    (4, 9, 28)
    """
    other = {"mouse": "keys", "keys": "mouse"}
    chosen = []
    for preset in HANDS:  # the seven classic presets (the family: test_play_family_lab)
        hand = HANDS[preset]
        chosen.append((preset, "win", hand))
        if every_way or preset in LOSSES:
            chosen.append((preset, "loss", other[hand]))
        if every_way:
            chosen += [(preset, "win", other[hand]), (preset, "loss", hand)]
    if not (every_way or thorough):
        chosen = [game for game in chosen if game in QUICK]
    return chosen


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if {"preset", "end", "hand"} <= set(metafunc.fixturenames):
        every_way = bool(metafunc.config.getoption("every_way"))
        chosen = games(every_way, thorough=tier.THOROUGH)
        metafunc.parametrize(("preset", "end", "hand"), chosen, ids=["-".join(g) for g in chosen])


def winning(preset: str) -> tuple[int, list[Move]]:
    """The chosen winnable deal and the solver's line (checked by replay)."""
    number = DEALS[preset][0]
    answer = checked_solve(Game(preset, deal=number), 30, None)
    assert answer.moves, (preset, number, "not winnable")
    return number, list(answer.moves)


def losing(preset: str) -> tuple[int, list[Move]]:
    """The chosen deal the rule of thumb loses, and its moves."""
    number = DEALS[preset][1]
    game, line = Game(preset, deal=number), []
    while game.status.value == "playing" and len(line) < 400:
        move = hint(game)
        if move is None:
            break
        game.play(move)
        line.append(move)
    assert game.status.value == "lost", (preset, number, "the rule of thumb did not lose")
    return number, line


def card_sel(card_id: str) -> str:
    return f'.pyr-root .pyr-card[data-id="{card_id}"][data-zone]:not([data-zone="discard"])'


def by_mouse(page: Any, move: Move) -> None:
    text = str(move)
    if text in ("draw", "redeal"):
        page.locator(".pyr-root .pyr-slot[data-zone='stock'] .pyr-slot-face").click()
    elif text == "next-round":
        page.locator(".pyr-root .pyr-banner [data-action='next-round']").click()
    elif text.startswith("cell "):
        page.locator(card_sel(text[5:])).click()
        page.locator(".pyr-root .pyr-slot[data-zone='cell'] .pyr-slot-face").click()
    else:
        for card_id in text.split("+"):
            page.locator(card_sel(card_id)).click()


def focus_by_keys(page: Any, target: str) -> None:
    """ArrowRight from the focused card to ``target`` (a CSS selector): left and right walk
    every playable card in reading order, so each is reached with that one key."""
    trail = []
    for _ in range(60):
        if page.locator(target).evaluate("n => n === document.activeElement"):
            return
        trail.append(page.evaluate("document.activeElement.dataset.id || 'pile'"))
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"could not reach {target} with the arrow keys: {trail}")


def by_keys(page: Any, move: Move) -> None:
    text = str(move)
    if text in ("draw", "redeal"):
        page.keyboard.press("d")
    elif text == "next-round":
        page.locator(".pyr-root .pyr-banner [data-action='next-round']").focus()
        page.keyboard.press("Enter")
    elif text.startswith("cell "):
        focus_by_keys(page, card_sel(text[5:]))
        page.keyboard.press("Enter")
        page.keyboard.press("c")
    else:
        for card_id in text.split("+"):
            focus_by_keys(page, card_sel(card_id))
            page.keyboard.press("Enter")


def enter_board(page: Any) -> None:
    """Keyboard only: from the toolbar's last button, one Tab into the board."""
    page.locator(".pyr-root .pyr-toolbar [data-action='help']").focus()
    page.keyboard.press("Tab")


def wait_for_move(page: Any, before: int) -> None:
    """Wait until the page's move counter has left ``before``: polled every animation frame
    (an ``expect`` polls at 100, 250, 500 ms ..., which made each of ~1,000 moves wait)."""
    page.wait_for_function(
        "n => { const m = document.querySelector('.pyr-root .pyr-moves');"
        " return m !== null && m.textContent !== String(n); }",
        arg=before,
        polling="raf",
        timeout=15_000,
    )


def test_play_every_preset_to_a_win_and_a_loss_by_mouse_and_by_keyboard(
    board: LabPage, preset: str, end: str, hand: str
) -> None:
    page = board.page
    root = page.locator(".pyr-root").first
    number, line = winning(preset) if end == "win" else losing(preset)
    play = by_mouse if hand == "mouse" else by_keys
    board.python(f"w.new_game({preset!r}, {number})")
    expect(root.locator(".pyr-deal")).to_have_text(f"deal #{number}")
    expect(root.locator(".pyr-moves")).to_have_text("0")
    if hand == "keys":
        enter_board(page)
    for i, move in enumerate(line):
        play(page, move)
        wait_for_move(page, i)
    banner = root.locator(".pyr-banner")
    expect(banner).to_be_visible(timeout=15_000)
    expect(root.locator(".pyr-moves")).to_have_text(str(len(line)))
    want = "won" if end == "win" else "lost"
    assert board.python_json("w.status") == want, (preset, hand, end)
    if end == "win":
        expect(banner).to_contain_text("complete!" if preset == "egypt" else "You won!")
    else:
        expect(banner).to_contain_text("No more moves")
    screenshot(page.locator(WIDGET).first, f"issue15-play-{preset}-{end}-{hand}")
