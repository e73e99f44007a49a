"""Issue 19 in real JupyterLab: a game of each new shape of the family won on the page, and
light and dark screenshots of the new shapes (``artifacts/`` and, for the README,
``docs/screenshots/``).

The kernel only sets each game up (``w.new_game(...)`` or ``w.load(Game.from_position(...))``);
every move is then made on the page by mouse clicks, or by the keyboard alone (Tab into the
board, the arrow keys, Enter). The lines are the solver's, worked out in this process: small
positions of the new shapes (``tests/widget/family_positions.py``) — the inverted triangle,
three pyramids, a face-down card that turns over, two decks on the 9-row pyramid, one upright
and one inverted pyramid — each won in a few moves.

Every preset of the family is also played whole, from a numbered deal
(:data:`~tests.widget.family_positions.FAMILY_DEALS`) along the solver's line, by mouse and
by keyboard, each game starting with a refused pair (the board says why; nothing changes;
where the deal's first position has no two touchable cards that do not pair, the inverted
triangles', after the first draw): :data:`FAMILY_HANDS` with ``pytest --thorough`` (the quick
tier of ``make test`` plays none: its time budget; the refused pair first and the right move
second on a family board is also ``test_family_browser.py``'s, in the harness page), all 14
presets by both hands (28 games, about 11 minutes on two busy cores) with
``pytest --every-way``. :func:`test_each_family_deal_is_won_by_its_line`
checks, without a browser, that each deal's line still wins through the engine.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget import FAMILY_PRESETS, Game
from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.moves import Move
from tests.support.browser import REPO, JupyterLab, LabPage, chromium_page, screenshot
from tests.widget.family_positions import (
    FAMILY_DEALS,
    deal_line,
    python_text,
    refusal_text,
    winning_line,
    wrong_pair,
)
from tests.widget.family_positions import position as small_position
from tests.widget.test_play_every_preset_lab import (
    by_keys,
    by_mouse,
    card_sel,
    enter_board,
    wait_for_move,
)

# The same xdist group as the classic presets played by hand: one worker, one JupyterLab.
# The browser marks go on each browser test: the engine check of the deals needs no browser.
pytestmark = [pytest.mark.xdist_group("lab-play")]
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
    # the README's copy is refreshed only when asked (PYRAMID_WIDGET_UPDATE_DOCS=1) or missing,
    # so an ordinary test run leaves tracked files alone
    target = SCREENSHOTS / name
    refresh = os.environ.get("PYRAMID_WIDGET_UPDATE_DOCS") == "1" or not target.exists()
    return screenshot(
        board.page.locator(WIDGET).first, f"issue19-{name}", also=target if refresh else None
    )


@pytest.mark.browser
@pytest.mark.jupyterlab
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


#: How each shape's small position is won: (preset, the hand that plays it). Giza's whole
#: deal 3, clicked here before, is the whole-deal games' (below).
WINS = [
    ("triangle", "mouse"),
    ("pharaohs", "mouse"),
    ("double_pyramid", "mouse"),
    ("up_and_down", "keys"),
    ("dark_pyramid", "keys"),
]


@pytest.mark.browser
@pytest.mark.jupyterlab
@pytest.mark.parametrize(("preset", "hand"), WINS, ids=["-".join(w) for w in WINS])
def test_each_new_shape_is_won_on_the_page(board: LabPage, preset: str, hand: str) -> None:
    page = board.page
    line = winning_line(small_position(preset))
    root = _show(board, f"w.load({python_text(preset)})", "custom deal")
    hidden = len(small_position(preset).hidden)
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
    screenshot(page.locator(WIDGET).first, f"issue19-win-{preset}-position-{hand}")


#: The whole-deal game of ``--thorough`` (the whole 14 x 2 is ``--every-way``'s): one of
#: the shortest lines, Pyramid Dozen's sum-12 pairs and six reserves by keyboard (the small
#: positions above are mostly clicked).
FAMILY_HANDS = {"pyramid_dozen": "keys"}


def family_games(every_way: bool) -> list[tuple[str, str]]:
    """The (preset, hand) whole-deal games to play: :data:`FAMILY_HANDS`, or every family
    preset by both hands with ``every_way``.

    >>> family_games(False)
    [('pyramid_dozen', 'keys')]
    >>> len(family_games(True)), len(FAMILY_DEALS)
    (28, 14)
    """
    if not every_way:
        return list(FAMILY_HANDS.items())
    return [(rules.name, hand) for rules in FAMILY_PRESETS for hand in ("mouse", "keys")]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if {"family_preset", "family_hand"} <= set(metafunc.fixturenames):
        chosen = family_games(bool(metafunc.config.getoption("every_way")))
        ids = ["-".join(g) for g in chosen]
        metafunc.parametrize(("family_preset", "family_hand"), chosen, ids=ids)


@pytest.mark.parametrize("preset", [rules.name for rules in FAMILY_PRESETS])
def test_each_family_deal_is_won_by_its_line(preset: str) -> None:
    game = Game(preset, deal=FAMILY_DEALS[preset])
    for move in deal_line(preset):
        game.play(move)
    assert game.status.value == "won", preset


#: A point of the card that nothing covers, in page coordinates, or null: the card's own box
#: sampled from the top (a waste fan or a row of the pyramid covers a card's lower part).
SEEN_POINT = """el => { const r = el.getBoundingClientRect();
  for (const fy of [0.06, 0.2, 0.35, 0.5, 0.65, 0.8, 0.94])
    for (const fx of [0.5, 0.25, 0.75, 0.08, 0.92]) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      const top = document.elementFromPoint(x, y);
      if (top && top.closest('.pyr-card') === el) return [x, y];
    }
  return null; }"""


def click_where_seen(page: Any, card_id: str) -> None:
    """Click the card where a player sees it: the card beneath the waste top (Thirteen's waste
    pair) shows only a strip, so a click at its middle would land on the top card."""
    card = page.locator(card_sel(card_id))
    card.scroll_into_view_if_needed()
    point = card.evaluate(SEEN_POINT)
    assert point is not None, f"no part of {card_id} shows on the board to be clicked"
    page.mouse.click(point[0], point[1])


def by_mouse_where_seen(page: Any, move: Move) -> None:
    """:func:`by_mouse`, each card of a pair or a King clicked where it shows."""
    if move.is_removal:
        for card in move.cards:
            click_where_seen(page, card_str(card))
    else:
        by_mouse(page, move)


def _refused(board: LabPage, root: Any, preset: str, step: int, pair: Move, hand: str) -> None:
    """Try the refused ``pair`` with the hand; the board says why and nothing changed; then
    the selection (the second card, after a refused pair) is cancelled by the same hand."""
    page = board.page
    on_board = root.locator(".pyr-card[data-zone]:not([data-zone='discard'])")
    cards = on_board.count()
    (by_mouse_where_seen if hand == "mouse" else by_keys)(page, pair)
    message = root.locator(".pyr-message")
    expect(message).to_have_text(refusal_text(preset, step, pair))
    expect(message).to_have_attribute("data-kind", "error")
    expect(root.locator(".pyr-moves")).to_have_text(str(step))
    for card in pair.cards:
        expect(page.locator(card_sel(card_str(card)))).to_have_count(1)
    assert on_board.count() == cards
    assert board.python_json("w.moves") == step
    if hand == "mouse":
        root.locator(".pyr-felt").click(position={"x": 3, "y": 3})
    else:
        page.keyboard.press("Escape")
    expect(root.locator(".pyr-card[aria-pressed='true']")).to_have_count(0)


@pytest.mark.browser
@pytest.mark.jupyterlab
@pytest.mark.slow  # --thorough (or --every-way) only: the quick tier's time budget
def test_each_family_preset_is_won_whole_on_the_page(
    board: LabPage, family_preset: str, family_hand: str
) -> None:
    preset, hand, page = family_preset, family_hand, board.page
    number, line = FAMILY_DEALS[preset], deal_line(preset)
    step, pair = wrong_pair(preset)
    root = _show(board, f"w.new_game({preset!r}, {number})", f"deal #{number}")
    play = by_mouse_where_seen if hand == "mouse" else by_keys
    if hand == "keys":
        enter_board(page)
    for i, move in enumerate(line):
        if i == step:
            _refused(board, root, preset, step, pair, hand)
        play(page, move)
        wait_for_move(page, i)
    banner = root.locator(".pyr-banner")
    expect(banner).to_contain_text("You won!", timeout=15_000)
    expect(root.locator(".pyr-moves")).to_have_text(str(len(line)))
    assert board.python_json("w.status") == "won", (preset, hand)
    screenshot(page.locator(WIDGET).first, f"issue19-deal-{preset}-{number}-{hand}")
