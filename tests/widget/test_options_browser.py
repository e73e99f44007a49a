"""The host's display options in real Chromium (harness page bridged to a real Python widget):
``banner`` off, banner buttons and keyboard shortcuts that follow ``controls``, and the
``compact`` display for hand-made positions, as the lesson board uses them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget import Game
from pyramid_widget.lessons.builtin import Lesson, Step, at
from pyramid_widget.lessons.widget import LessonWidget
from pyramid_widget.widget import PyramidWidget
from tests.support.browser import (
    PYRAMID,
    StaticServer,
    harness_card,
    push,
    screenshot,
    show_in_harness,
)

# No xdist group: harness pages need no server of their own, so they spread over the workers.
pytestmark = [pytest.mark.browser]

KING_AND_PAIR = [None] * 25 + ["5H", "KS", "8C"]


def win_by_clicks(page: Any) -> None:
    """Clear the :data:`KING_AND_PAIR` position: the King (one click), then 5 + 8."""
    for card_id in ("KS", "5H", "8C"):
        harness_card(page, card_id).click()


def sent_kinds(page: Any) -> list[str]:
    return [m["kind"] for m in page.evaluate("window.harness.sent()")]


# -- banner ------------------------------------------------------------------------------


def test_banner_off_shows_no_overlay_when_the_game_ends(
    page: Any, static_server: StaticServer
) -> None:
    w = PyramidWidget("medium", records=False, banner=False)
    w.load(Game.from_position("medium", pyramid=KING_AND_PAIR))
    show_in_harness(page, static_server, w)
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
    show_in_harness(page, static_server, w)
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
    show_in_harness(page, static_server, w)
    harness_card(page, "KS").click()  # a King goes with one click
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
    w = show_in_harness(
        page, static_server, PyramidWidget("medium", deal=7, records=False, controls=[])
    )
    page.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    harness_card(page, "QS").focus()
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
    show_in_harness(page, static_server, w)
    page.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    harness_card(page, "QS").focus()
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
    show_in_harness(page, static_server, w)
    assert w.board["discard_count"] == 47  # every card left out of the position
    expect(page.locator(".pyr-root")).to_have_attribute("data-compact", "true")
    expect(page.locator(".pyr-slot[data-zone='discard']")).to_have_count(0)
    expect(page.locator(".pyr-card[data-zone='discard']")).to_have_count(0)
    for gone in (".pyr-deal", ".pyr-time", ".pyr-score"):
        expect(page.locator(gone)).to_have_count(0)
    expect(page.locator(".pyr-moves")).to_have_text("0")
    expect(page.locator(".pyr-passes-left")).to_have_count(1 if passes_shown else 0)
    expect(page.locator(".pyr-slot[data-zone='stock']")).to_be_visible()
    harness_card(page, "5H").click()
    harness_card(
        page, "8C"
    ).click()  # the pair leaves the board and does not land on a discard pile
    expect(harness_card(page, "8C")).to_have_count(0)
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
    show_in_harness(page, static_server, lw.board)
    expect(page.locator(PYRAMID)).to_have_count(4)
    # Keys only: the lesson has its own Restart step / Restart lesson (issue 16.6)
    expect(page.locator(".pyr-toolbar .pyr-btn:visible")).to_have_count(1)
    expect(page.locator(".pyr-slot[data-zone='discard'], .pyr-deal, .pyr-time")).to_have_count(0)
    screenshot(page.locator(".view"), "harness-lesson-start")
    harness_card(page, "5H").click()
    harness_card(page, "9D").click()
    expect(page.locator(".pyr-message")).to_contain_text("5 + 9 = 14")
    harness_card(page, "5H").click()
    harness_card(page, "8C").click()
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


# -- the lesson's panel: one model, drawn around the board (issue 17.4) -----------------------

LESSON_PARTS = (".pyr-lesson-header", ".pyr-lesson-prompt", ".pyr-lesson-buttons")


def lesson_page(page: Any, server: StaticServer, lw: LessonWidget) -> Any:
    """The lesson board in the harness, with the stylesheet anywidget gives it in a host (the
    board's own and the lesson's: the step's fit, the feedback colours)."""
    show_in_harness(page, server, lw.board)
    page.add_style_tag(content=lw.board._css)
    root = page.locator(".pyr-root.pyr-lesson")
    expect(root).to_have_count(1)
    return root


def test_the_lesson_panel_is_drawn_and_pressed(page: Any, static_server: StaticServer) -> None:
    """Header, picker, prompt, feedback and buttons come from the board's ``panel``; a wrong
    pair is explained in the feedback line, the right one turns Next primary, and Next goes to
    Python and back (the page then shows step 2)."""
    lw = LessonWidget(demo_pause=0, records=False)
    root = lesson_page(page, static_server, lw)
    for part in LESSON_PARTS:
        expect(root.locator(part)).to_be_visible()
    expect(root.locator(".pyr-lesson-feedback .pyr-lesson-says")).to_have_text("")  # nothing yet
    expect(root.locator(".pyr-lesson-progress")).to_have_text("Lesson 1 of 6 · Step 1 of 6")
    expect(root.locator(".pyr-lesson-dots")).to_have_text("○○○○○○")
    expect(root.locator(".pyr-lesson-prompt")).to_contain_text("Which card pairs with this Five?")
    expect(root).to_have_class(re.compile(r"\bpyr-lesson-from-7\b.*\bpyr-lesson-no-piles\b"))
    buttons = root.locator(".pyr-lesson-buttons button")
    expect(buttons).to_have_text(["Show me", "Restart step", "Restart lesson", "Previous", "Next"])
    expect(root.locator(".pyr-lesson-previous")).to_be_disabled()
    expect(root.locator(".pyr-lesson-picker select option")).to_have_count(6)
    # the panel's buttons name their action apart from the board's controls (data-action)
    expect(root.locator(".pyr-lesson-restart")).to_have_attribute("data-panel-action", "restart")
    expect(root.locator("[data-action='restart']")).to_have_count(1)
    expect(root.locator("[data-action='restart']")).to_be_hidden()  # the board's own Restart
    harness_card(page, "5H").click()
    harness_card(page, "9D").click()
    says = root.locator(".pyr-lesson-says")
    expect(says).to_have_attribute("data-kind", "mistake")
    expect(says).to_contain_text("5 + 9 = 14, one too many")
    harness_card(page, "5H").click()
    harness_card(page, "8C").click()
    expect(says).to_have_attribute("data-kind", "success")
    expect(root.locator(".pyr-lesson-next")).to_have_class(re.compile(r"\bpyr-primary\b"))
    expect(root.locator(".pyr-lesson-dots")).to_have_text("●○○○○○")
    screenshot(page.locator(".view"), "harness-lesson-panel-solved")
    root.locator(".pyr-lesson-next").click()
    expect(root.locator(".pyr-lesson-progress")).to_have_text("Lesson 1 of 6 · Step 2 of 6")
    expect(root.locator(".pyr-lesson-next")).not_to_have_class(re.compile(r"\bpyr-primary\b"))
    assert lw.progress_text == "Lesson 1 of 6 · Step 2 of 6"
    root.locator(".pyr-lesson-picker select").select_option(label="3. Covered cards")
    expect(root.locator(".pyr-lesson-progress")).to_have_text("Lesson 3 of 6 · Step 1 of 5")
    expect(root).to_have_class(re.compile(r"\bpyr-lesson-from-6\b"))  # the old class is gone
    expect(root).not_to_have_class(re.compile(r"\bpyr-lesson-from-7\b"))
    root.locator(".pyr-lesson-show").click()
    expect(says).to_contain_text("Here is how: pair the 5 of clubs with the 8 of diamonds")
    expect(root.locator(".pyr-lesson-dots")).to_have_text("◐○○○○")
    assert (2, 0) in lw.runner.shown
    kinds = [
        m.get("action") for m in page.evaluate("window.harness.sent()") if m["kind"] == "panel"
    ]
    assert kinds == ["next", "pick", "show"]


def test_lesson_text_reaches_the_page_as_text(page: Any, static_server: StaticServer) -> None:
    hostile = '<img src=x onerror="window.__pwned=1">'
    mine = Lesson(
        hostile,
        [Step(f"Pair <b>it</b> {hostile}", {at(7, 1): "TH", at(7, 3): "3S"}, accept=["TH+3S"])],
        intro="<script>window.__pwned=2</script>",
        summary=f"<i>done</i> {hostile}",
    )
    lw = LessonWidget(mine, demo_pause=0, records=False)
    root = lesson_page(page, static_server, lw)
    expect(root.locator(".pyr-lesson-title")).to_have_text(hostile)
    expect(root.locator(".pyr-lesson-prompt")).to_contain_text(f"Pair <b>it</b> {hostile}")
    expect(root.locator(".pyr-lesson-prompt")).to_contain_text("<script>window.__pwned=2</script>")
    expect(root.locator(".pyr-lesson-picker option")).to_have_text([f"1. {hostile}"])
    harness_card(page, "TH").click()
    harness_card(page, "3S").click()
    expect(root.locator(".pyr-lesson-feedback")).to_contain_text(f"<i>done</i> {hostile}")
    expect(root.locator("img, script, .pyr-lesson-top b b, .pyr-lesson-bottom i i")).to_have_count(
        0
    )
    assert page.evaluate("window.__pwned") is None


def test_the_panel_works_by_keyboard_and_keeps_its_keys(
    page: Any, static_server: StaticServer
) -> None:
    """The panel's buttons and picker are reached with Tab and work with Enter, Space and the
    arrows; no key pressed in them reaches a listener of the host page (not even one in the
    capture phase on ``document``, as Notebook 7 has), and a button pressed from the keyboard
    that turns disabled hands the focus to its neighbour, not to the page."""
    lw = LessonWidget(demo_pause=0, records=False)
    root = lesson_page(page, static_server, lw)
    page.evaluate(  # Tab leaves on purpose (to move on from the board); every other key stays
        "() => { window.__leaked = []; document.addEventListener('keydown',"
        " e => e.key === 'Tab' || window.__leaked.push(e.key), true); }"
    )
    focused = "() => document.activeElement && document.activeElement.className"
    root.locator(".pyr-lesson-restart").focus()
    page.keyboard.press("Tab")  # Previous is disabled: Tab goes on to Next
    assert "pyr-lesson-next" in page.evaluate(focused)
    page.keyboard.press("Enter")
    expect(root.locator(".pyr-lesson-progress")).to_have_text("Lesson 1 of 6 · Step 2 of 6")
    assert "pyr-lesson-next" in page.evaluate(focused)  # the button stays, and keeps the focus
    page.keyboard.press("Shift+Tab")
    assert "pyr-lesson-previous" in page.evaluate(focused)
    page.keyboard.press(" ")  # Previous, back on step 1, where it is disabled
    expect(root.locator(".pyr-lesson-progress")).to_have_text("Lesson 1 of 6 · Step 1 of 6")
    expect(root.locator(".pyr-lesson-previous")).to_be_disabled()
    assert "pyr-lesson-next" in page.evaluate(focused)  # handed on, still in the lesson
    root.locator(".pyr-lesson-show").focus()
    page.keyboard.press("Enter")
    expect(root.locator(".pyr-lesson-says")).to_contain_text("Here is how:")
    for key in ["d", "d", "a", "b", "m", "x", "z", "0", "0", "Shift+M"]:  # Notebook 7's keys
        page.keyboard.press(key)
    select = root.locator(".pyr-lesson-picker select")
    select.focus()
    for key in ["d", "d", "m", "0", "0"]:
        page.keyboard.press(key)
    page.keyboard.press("ArrowDown")  # the picker's own arrows still choose a lesson
    expect(root.locator(".pyr-lesson-progress")).to_have_text("Lesson 2 of 6 · Step 1 of 4")
    assert page.evaluate("window.__leaked") == []
    assert lw.progress_text == "Lesson 2 of 6 · Step 1 of 4"
