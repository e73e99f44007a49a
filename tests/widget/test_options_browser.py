"""The host's display options in real Chromium (harness page bridged to a real Python widget):
``banner`` off, banner buttons and keyboard shortcuts that follow ``controls``, and the
``compact`` display for hand-made positions, as the lesson board uses them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget import Game
from pyramid_widget.lessons.widget import LessonWidget
from pyramid_widget.widget import PyramidWidget
from tests.support.browser import StaticServer, bridge, open_harness, push, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

PYRAMID = ".pyr-card[data-zone='pyramid']"
KING_AND_PAIR = [None] * 25 + ["5H", "KS", "8C"]


def card(page: Any, card_id: str) -> Any:
    return page.locator(f".pyr-card[data-id='{card_id}'][data-zone]")


def show(page: Any, server: StaticServer, w: PyramidWidget) -> PyramidWidget:
    bridge(page, w)
    open_harness(page, server, w)
    page.wait_for_selector(PYRAMID)
    return w


def win_by_clicks(page: Any) -> None:
    """Clear the :data:`KING_AND_PAIR` position: the King (one click), then 5 + 8."""
    for card_id in ("KS", "5H", "8C"):
        card(page, card_id).click()


def sent_kinds(page: Any) -> list[str]:
    return [m["kind"] for m in page.evaluate("window.harness.sent()")]


# -- banner ------------------------------------------------------------------------------


def test_banner_off_shows_no_overlay_when_the_game_ends(
    page: Any, static_server: StaticServer
) -> None:
    w = PyramidWidget("medium", records=False, banner=False)
    w.load(Game.from_position("medium", pyramid=KING_AND_PAIR))
    show(page, static_server, w)
    win_by_clicks(page)
    expect(page.locator(".pyr-root")).to_have_attribute("data-status", "won")
    expect(page.locator(".pyr-message")).to_contain_text("You won!")
    expect(page.locator(".pyr-banner")).to_be_hidden()
    assert w.status == "won"
    w.banner = True  # the host may switch it back on: the banner appears at once
    push(page, w)
    expect(page.locator(".pyr-banner")).to_be_visible()


@pytest.mark.parametrize(
    ("controls", "shown", "absent"),
    [
        (["undo", "help"], [], ["new", "restart"]),
        (["restart", "help"], ["restart"], ["new"]),
        (["new", "restart"], ["new", "restart"], []),
    ],
)
def test_banner_buttons_follow_controls(
    page: Any, static_server: StaticServer, controls: list[str], shown: list[str], absent: list[str]
) -> None:
    w = PyramidWidget("medium", records=False, controls=controls)
    w.load(Game.from_position("medium", pyramid=KING_AND_PAIR))
    show(page, static_server, w)
    win_by_clicks(page)
    banner = page.locator(".pyr-banner")
    expect(banner).to_contain_text("You won!")
    for action in shown:
        expect(banner.locator(f"[data-action='{action}']")).to_be_visible()
    for action in absent:
        expect(banner.locator(f"[data-action='{action}']")).to_have_count(0)
    if shown:  # the first button left is the primary one
        expect(banner.locator(f"[data-action='{shown[0]}']")).to_have_class("pyr-btn pyr-primary")


def test_without_banner_the_stock_button_deals_the_next_round(
    page: Any, static_server: StaticServer
) -> None:
    w = PyramidWidget("egypt", records=False, banner=False)
    w.load(Game.from_position("egypt", pyramid=[None] * 27 + ["KS"], stock=["2C", "3C", "4C"]))
    show(page, static_server, w)
    card(page, "KS").click()  # a King goes with one click
    draw = page.locator(".pyr-draw")
    expect(draw).to_have_text("Next round")
    expect(draw).to_be_enabled()
    expect(page.locator(".pyr-banner")).to_be_hidden()
    draw.click()
    expect(page.locator(PYRAMID)).to_have_count(28)
    assert w.game.round == 2 and w.status == "playing"


# -- keyboard shortcuts follow controls --------------------------------------------------


def test_a_hidden_controls_key_does_nothing_but_say_so(
    page: Any, static_server: StaticServer
) -> None:
    w = show(page, static_server, PyramidWidget("medium", deal=7, records=False, controls=[]))
    page.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    card(page, "QS").focus()
    message = page.locator(".pyr-message")
    for key, words in [
        ("u", "Undo is not available here."),
        ("Control+z", "Undo is not available here."),
        ("Control+y", "Redo is not available here."),
        ("r", "Redo is not available here."),
        ("h", "Hint is not available here."),
        ("p", "Pause is not available here."),
        ("n", "New deal is not available here."),
        ("?", "Keyboard help is not available here."),
    ]:
        page.keyboard.press(key)
        expect(message).to_have_text(words)
    expect(page.locator(".pyr-panel")).to_be_hidden()
    expect(page.locator(".pyr-paused")).to_be_hidden()
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    assert w.moves == 1 and not w.paused and not w.highlight
    assert sent_kinds(page) == ["draw"]  # no intent left the page for a hidden control
    expect(message).to_have_text("", timeout=5_000)  # the note goes, the board's message is back
    page.keyboard.press("d")  # drawing is a move, not a toolbar control: it still works
    expect(page.locator(".pyr-stock-count")).to_have_text("22")


def test_keys_and_help_follow_the_controls_shown(page: Any, static_server: StaticServer) -> None:
    w = PyramidWidget("medium", deal=7, records=False, controls=["undo", "help"])
    show(page, static_server, w)
    page.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    card(page, "QS").focus()
    page.keyboard.press("u")  # shown: works
    expect(page.locator(".pyr-stock-count")).to_have_text("24")
    page.keyboard.press("r")  # hidden: does nothing
    expect(page.locator(".pyr-message")).to_have_text("Redo is not available here.")
    expect(page.locator(".pyr-stock-count")).to_have_text("24")
    page.keyboard.press("?")
    help_panel = page.locator(".pyr-help")
    expect(help_panel).to_contain_text("U or Ctrl+Z")
    for hidden in ("R or Ctrl+Y", "new deal", "pause or resume"):
        expect(help_panel).not_to_contain_text(hidden)
    assert w.moves == 0 and sent_kinds(page) == ["draw", "undo"]


# -- compact ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "passes_shown"), [("hard", True), ("easy", False)])
def test_compact_hides_the_discard_pile_deal_and_counters(
    page: Any, static_server: StaticServer, rules: str, passes_shown: bool
) -> None:
    w = PyramidWidget(rules, records=False, compact=True)
    w.load(Game.from_position(rules, pyramid=KING_AND_PAIR, stock=["2D", "3D"]))
    show(page, static_server, w)
    assert w.board["discard_count"] == 47  # every card left out of the position
    expect(page.locator(".pyr-root")).to_have_attribute("data-compact", "true")
    expect(page.locator(".pyr-slot[data-zone='discard']")).to_have_count(0)
    expect(page.locator(".pyr-card[data-zone='discard']")).to_have_count(0)
    for gone in (".pyr-deal", ".pyr-time", ".pyr-score"):
        expect(page.locator(gone)).to_have_count(0)
    expect(page.locator(".pyr-moves")).to_have_text("0")
    expect(page.locator(".pyr-passes-left")).to_have_count(1 if passes_shown else 0)
    expect(page.locator(".pyr-slot[data-zone='stock']")).to_be_visible()
    card(page, "5H").click()
    card(page, "8C").click()  # the pair leaves the board and does not land on a discard pile
    expect(card(page, "8C")).to_have_count(0)
    expect(page.locator(".pyr-moves")).to_have_text("1")
    expect(page.locator(".pyr-card[data-zone='discard']")).to_have_count(0)
    w.compact = False  # the full display again: discard pile, deal label, time and score
    push(page, w)
    expect(page.locator(".pyr-slot[data-zone='discard']")).to_be_visible()
    expect(page.locator(".pyr-discard-count")).to_have_text("49")
    expect(page.locator(".pyr-deal")).to_have_text("custom deal")
    expect(page.locator(".pyr-time")).to_have_count(1)


# -- the lesson board ------------------------------------------------------------------------


def test_lesson_board_is_clean_in_the_harness(page: Any, static_server: StaticServer) -> None:
    """The LessonWidget's board as the page draws it: four cards, no discard pile or deal
    label; the right pair ends the game (no move left) and no banner covers the lesson."""
    lw = LessonWidget(demo_pause=0)
    show(page, static_server, lw.board)
    expect(page.locator(PYRAMID)).to_have_count(4)
    # Keys only: the lesson has its own Restart step / Restart lesson (issue 16.6)
    expect(page.locator(".pyr-toolbar .pyr-btn:visible")).to_have_count(1)
    expect(page.locator(".pyr-slot[data-zone='discard'], .pyr-deal, .pyr-time")).to_have_count(0)
    screenshot(page.locator(".view"), "harness-lesson-start")
    card(page, "5H").click()
    card(page, "9D").click()
    expect(page.locator(".pyr-message")).to_contain_text("5 + 9 = 14")
    card(page, "5H").click()
    card(page, "8C").click()
    expect(page.locator(PYRAMID)).to_have_count(2)
    assert lw.runner.solved and lw.board.status != "playing"
    expect(page.locator(".pyr-message")).to_contain_text("5 + 8 = 13")
    expect(page.locator(".pyr-banner")).to_be_hidden()
    expect(page.locator(".pyr-card[data-zone='discard']")).to_have_count(0)
    screenshot(page.locator(".view"), "harness-lesson-solved")
    page.locator(PYRAMID).first.focus()
    page.keyboard.press("n")  # no new deal over a lesson, by key either
    expect(page.locator(".pyr-message")).to_have_text("New deal is not available here.")
    expect(page.locator(".pyr-panel")).to_be_hidden()
    assert "new" not in sent_kinds(page)
