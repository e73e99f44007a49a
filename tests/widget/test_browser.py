"""The widget's frontend in real Chromium: ``pyramid_widget/widget/static/widget.js`` rendered by the harness page and
bridged to a real Python :class:`PyramidWidget` (no kernel), so every click runs the engine."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget import PRESETS, Game
from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.moves import Move
from pyramid_widget.widget import PyramidWidget
from pyramid_widget.widget.board import board_width
from tests.support.browser import (
    PYRAMID,
    SHORT_DEAL,
    StaticServer,
    harness_card,
    push,
    screenshot,
    show_in_harness,
)

# No xdist group: harness pages need no server of their own, so they spread over the workers.
pytestmark = [pytest.mark.browser]


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_renders_from_a_fixed_deal(
    page: Any, static_server: StaticServer, preset: str
) -> None:
    w = show_in_harness(page, static_server, PyramidWidget(preset, deal=7, records=False))
    rules = w.game.rules
    if rules.stock_size:
        w.draw()
        push(page, w)
        expect(page.locator(".pyr-moves")).to_have_text("1")
    # the tableau as the layout has it: every position drawn, face-down ones as backs
    expect(page.locator(PYRAMID)).to_have_count(rules.layout.size)
    expect(page.locator(".pyr-card.is-down")).to_have_count(len(w.game.hidden))
    want = sorted(c["id"] for c in w.board["cards"] if c["available"])
    got = page.eval_on_selector_all(".pyr-card.is-available", "ns => ns.map(n => n.dataset.id)")
    assert sorted(got) == want and want
    tops = [c["id"] for c in w.board["cards"] if c["zone"] == "waste" and c["depth"] == 0]
    for top in tops:
        expect(harness_card(page, top)).to_have_class(_has("is-available"))
    # piles: reserves fanned with only the top available; no stock, no waste, no Draw without one
    expect(page.locator(".pyr-slot[data-zone='reserve']")).to_have_count(rules.reserve_piles)
    reserve = page.locator(".pyr-card[data-zone='reserve']")
    expect(reserve).to_have_count(rules.reserve_piles * rules.reserve_depth)
    expect(page.locator(".pyr-card[data-zone='reserve'].is-available")).to_have_count(
        rules.reserve_piles
    )
    has_stock = rules.stock_size > 0
    expect(page.locator(".pyr-slot[data-zone='stock']")).to_have_count(int(has_stock))
    expect(page.locator(".pyr-slot[data-zone='waste']")).to_have_count(
        len(w.game.wastes) if has_stock else 0
    )
    expect(page.locator(".pyr-draw")).to_have_count(int(has_stock))
    expect(page.locator(".pyr-slot[data-zone='cell']")).to_have_count(w.game.rules.cells)
    if has_stock:
        expect(page.locator(".pyr-stock-count")).to_have_text(str(len(w.game.stock)))
    else:
        expect(page.locator(".pyr-passes-left")).to_have_count(0)
    expect(page.locator(".pyr-rules")).to_have_text(preset.replace("_", " "))
    # the page sizes the board as Python measures it (board_width: the widest preset fits)
    fit = page.locator(".pyr-root").evaluate("n => n.style.getPropertyValue('--fit')")
    assert float(fit) == pytest.approx(board_width(rules), abs=1e-3)
    # every card's place comes from the layout: the page's left edges keep the layout's order
    boxes = page.eval_on_selector_all(
        PYRAMID, "ns => ns.map(n => [Number(n.dataset.pos), n.getBoundingClientRect().x])"
    )
    places = rules.layout.places
    for (p, x), (q, y) in zip(sorted(boxes), sorted(boxes)[1:], strict=False):
        if places[p][1] == places[q][1]:
            assert (x < y) == (places[p][0] < places[q][0]), (p, q)
    first = next(c for c in w.board["cards"] if c["zone"] == "pyramid")
    label = page.locator(PYRAMID).first.get_attribute("aria-label")
    assert label == first["label"]
    assert "covered by" in label or label == "face-down card"


def _has(cls: str) -> Any:
    import re

    return re.compile(rf"(^|\s){cls}(\s|$)")


def test_click_play_select_then_partner(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    page.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()
    expect(harness_card(page, "AH")).to_have_attribute("data-zone", "pyramid")
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    harness_card(page, "QS").click()
    expect(harness_card(page, "QS")).to_have_class(_has("is-selected"))
    harness_card(page, "AH").click()
    expect(harness_card(page, "QS")).to_have_attribute("data-zone", "discard")
    expect(harness_card(page, "AH")).to_have_count(0)
    assert w.moves == 2 and w.last_event["move"] == "AH+QS" and w.last_event["source"] == "page"
    expect(page.locator(".pyr-discard-count")).to_have_text("2")


def test_a_wrong_pair_shows_its_explanation_and_changes_nothing(
    page: Any, static_server: StaticServer
) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    harness_card(page, "TD").click()
    harness_card(page, "4H").click()
    expect(page.locator(".pyr-message")).to_have_text("4 + 10 = 14, not 13.")
    expect(page.locator(".pyr-message")).to_have_attribute("data-kind", "error")
    expect(page.locator(PYRAMID)).to_have_count(28)
    harness_card(page, "5C").click()
    expect(page.locator(".pyr-message")).to_contain_text("5 of clubs is still covered")
    assert w.moves == 0


def test_drag_a_card_onto_its_partner(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    src = harness_card(page, "AC").bounding_box()
    dst = harness_card(page, "QC").bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] * 0.7, steps=8)
    expect(harness_card(page, "QC")).to_have_class(_has("is-drop"))
    page.mouse.up()
    expect(harness_card(page, "AC")).to_have_count(0)
    assert w.last_event["move"] == "AC+QC" and w.moves == 1


def test_keyboard_play(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    harness_card(page, "QC").focus()
    page.keyboard.press("Enter")
    expect(harness_card(page, "QC")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Escape")
    expect(harness_card(page, "QC")).to_have_attribute("aria-pressed", "false")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    expect(harness_card(page, "AC")).to_be_focused()
    page.keyboard.press(" ")
    expect(harness_card(page, "AC")).to_have_count(0)
    page.keyboard.press("d")
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    page.keyboard.press("u")
    expect(page.locator(".pyr-stock-count")).to_have_text("24")
    page.keyboard.press("r")
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    page.keyboard.press("h")
    expect(page.locator(".is-hint")).not_to_have_count(0)
    assert w.last_event["kind"] == "hint" and w.highlight
    page.keyboard.press("?")
    expect(page.locator(".pyr-help")).to_be_visible()
    expect(page.locator(".pyr-help")).to_contain_text("Escape")
    assert w.moves == 2


def test_the_keys_keep_working_after_a_panel_closes_or_a_button_greys_out(
    page: Any, static_server: StaticServer
) -> None:
    # A keyboard player's focus must never fall to the page (whose shortcuts would get D, U,
    # R): not when Escape closes a panel, not when the Undo button pressed greys out, not when
    # the focused card is paired away to the discard pile.
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    inside = "document.querySelector('.pyr-root').contains(document.activeElement)"
    harness_card(page, "QC").focus()
    page.keyboard.press("n")
    expect(page.locator(".pyr-rules-select")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator(".pyr-new")).to_be_hidden()
    assert page.evaluate(inside)
    page.keyboard.press("d")
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    # the panel's own button closes it too ("?" twice from the help panel's keys)
    page.keyboard.press("?")
    expect(page.locator(".pyr-help")).to_be_visible()
    page.locator(".pyr-toolbar [data-action='help']").focus()
    page.keyboard.press("Escape")
    assert page.evaluate(inside)
    # Undo by its button until it greys out: the next key still reaches the board
    undo = page.locator(".pyr-toolbar [data-action='undo']")
    undo.click()
    expect(undo).to_be_disabled()
    assert page.evaluate(inside)
    page.keyboard.press("r")
    expect(page.locator(".pyr-stock-count")).to_have_text("23")
    assert w.moves == 1
    # a pair made from the keyboard, either card last: the focus moves on to a playable card,
    # never stays on the card shown on the discard pile
    for first, arrow, second in (("QC", "ArrowRight", "AC"), ("AC", "ArrowLeft", "QC")):
        harness_card(page, first).focus()
        page.keyboard.press("Enter")
        page.keyboard.press(arrow)
        expect(harness_card(page, second)).to_be_focused()
        page.keyboard.press("Enter")
        in_pyramid = page.locator(f".pyr-card[data-id='{second}'][data-zone='pyramid']")
        expect(in_pyramid).to_have_count(0)
        expect(page.locator(".pyr-card:focus")).to_have_class(re.compile(r"\bis-playable\b"))
        assert w.moves == 2
        page.keyboard.press("u")
        expect(in_pyramid).to_have_count(1)
        assert w.moves == 1


def test_arrows_move_focus_among_the_playable_cards(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    harness_card(page, "QS").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.id") == "AH"
    page.keyboard.press("ArrowUp")  # nothing playable above the bottom row: focus stays put
    playable = {c["id"] for c in w.board["cards"] if c["available"]}
    assert page.evaluate("document.activeElement.dataset.id") in playable


def test_a_king_clears_with_one_click_and_the_win_banner_shows(
    page: Any, static_server: StaticServer
) -> None:
    w = PyramidWidget("medium", records=False)
    w.load(Game.from_position("medium", pyramid=[None] * 25 + ["5H", "KS", "8C"]))
    show_in_harness(page, static_server, w)
    harness_card(page, "KS").click()  # Kings go alone under medium: one click removes it
    expect(harness_card(page, "KS")).to_have_attribute("data-zone", "discard")
    harness_card(page, "5H").click()
    harness_card(page, "8C").click()
    banner = page.locator(".pyr-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You won!")
    expect(banner.locator("[data-action='new']")).to_be_visible()
    expect(banner.locator("[data-action='restart']")).to_be_visible()
    assert w.status == "won"
    banner.locator("[data-action='restart']").click()
    expect(page.locator(PYRAMID)).to_have_count(3)
    expect(banner).to_be_hidden()


def test_the_same_card_twice_asks_to_remove_it_alone_and_says_why_not(
    page: Any, static_server: StaticServer
) -> None:
    # A learner who clicks a Five twice hoping it goes alone is told why (issue 16.8).
    w = PyramidWidget("medium", records=False)
    w.load(Game.from_position("medium", pyramid=[None] * 25 + ["5H", "9S", "8C"]))
    show_in_harness(page, static_server, w)
    harness_card(page, "5H").click()
    harness_card(page, "5H").click()
    expect(page.locator(".pyr-message")).to_contain_text("needs a partner")
    expect(page.locator(".pyr-message")).to_have_attribute("data-kind", "error")
    expect(page.locator(".pyr-card.is-selected")).to_have_count(0)
    harness_card(page, "5H").click()  # the right move next: nothing of the refusal is left over
    harness_card(page, "8C").click()
    expect(harness_card(page, "8C")).to_have_attribute("data-zone", "discard")
    assert w.game.moves == 1
    expect(page.locator(".pyr-banner")).to_contain_text("1 card remains")
    # under cheops not even a King goes alone: a King clicked twice says so
    w.load(Game.from_position("cheops", pyramid=[None] * 26 + ["KH", "9S"], stock=["2C"]))
    push(page, w)
    harness_card(page, "KH").click()
    harness_card(page, "KH").click()
    expect(page.locator(".pyr-message")).to_have_attribute("data-kind", "error")
    assert w.game.moves == 0 and "K" in w.message


def test_two_views_of_one_widget_stay_in_sync(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(
        page, static_server, PyramidWidget("medium", deal=7, records=False), views=2
    )
    harness_card(page, "QC", view=1).click()
    harness_card(page, "AC", view=1).click()
    expect(harness_card(page, "AC", view=0)).to_have_count(0)
    expect(harness_card(page, "AC", view=1)).to_have_count(0)
    w.draw()
    push(page, w)
    for view in (0, 1):
        expect(page.locator(f".view[data-view='{view}'] .pyr-moves")).to_have_text("2")


def test_toolbar_new_deal_pause_and_egypt_cell(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    page.locator(".pyr-toolbar [data-action='new']").click()
    page.locator(".pyr-rules-select").select_option("egypt")
    page.locator(".pyr-deal-input").fill("7")
    page.locator("[data-action='deal']").click()
    expect(page.locator(".pyr-slot[data-zone='cell']")).to_have_count(1)
    assert w.game.rules.name == "egypt" and w.game.deal_number == 7
    # the cell clicked (or C pressed) before a card is chosen says how the cell is used
    page.locator(".pyr-slot[data-zone='cell'] .pyr-slot-face").click()
    how = "Choose a card first, then press C or click the cell to put it there."
    expect(page.locator(".pyr-message")).to_have_text(how)
    harness_card(page, "QS").focus()
    page.keyboard.press("Escape")
    page.keyboard.press("c")
    expect(page.locator(".pyr-message")).to_have_text(how)
    assert w.moves == 0
    harness_card(page, "QS").click()
    page.locator(".pyr-slot[data-zone='cell'] .pyr-slot-face").click()
    expect(harness_card(page, "QS")).to_have_attribute("data-zone", "cell")
    page.locator(".pyr-toolbar [data-action='pause']").click()
    expect(page.locator(".pyr-paused")).to_be_visible()
    assert w.paused
    for action in ("hint", "solve"):  # no hint or solver on a hidden board
        expect(page.locator(f".pyr-toolbar [data-action='{action}']")).to_be_disabled()
    page.locator(".pyr-paused [data-action='resume']").click()
    expect(page.locator(".pyr-paused")).to_be_hidden()
    assert not w.paused


@pytest.mark.parametrize("typed", ["-5", "abc", "1.5", "1e3"])
def test_a_bad_deal_number_is_explained_in_the_panel_and_goes_with_it(
    page: Any, static_server: StaticServer, typed: str
) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    page.locator(".pyr-toolbar [data-action='new']").click()
    page.locator(".pyr-deal-input").fill(typed)
    page.keyboard.press("Enter")
    error = page.locator(".pyr-new-error")
    expect(error).to_have_text(
        f"'{typed}' is not a deal: give a deal number (a whole number like 7) or 52 cards "
        "separated by spaces."
    )
    assert w.game.deal_number == 7
    page.keyboard.press("Escape")  # the player gives up on it: the error leaves with the panel
    expect(page.locator(".pyr-panel")).to_be_hidden()
    expect(page.locator(".pyr-message")).to_have_text("")
    page.keyboard.press("n")  # and then types a real number
    page.locator(".pyr-deal-input").fill("12")
    page.keyboard.press("Enter")
    expect(page.locator(".pyr-deal")).to_have_text("deal #12")
    expect(page.locator(".pyr-message")).not_to_contain_text("not a deal")


def test_controls_trait_hides_buttons(page: Any, static_server: StaticServer) -> None:
    show_in_harness(
        page, static_server, PyramidWidget("medium", deal=7, records=False, controls=["undo"])
    )
    expect(page.locator(".pyr-toolbar [data-action='undo']")).to_be_visible()
    expect(page.locator(".pyr-toolbar [data-action='new']")).to_be_hidden()


@pytest.mark.parametrize("width", [400, 900])
def test_fits_narrow_and_wide_columns(page: Any, static_server: StaticServer, width: int) -> None:
    show_in_harness(page, static_server, PyramidWidget("egypt", deal=7, records=False), width=width)
    view = page.locator(".view").bounding_box()
    boxes = page.eval_on_selector_all(
        ".pyr-card, .pyr-slot", "ns => ns.map(n => n.getBoundingClientRect().toJSON())"
    )
    for box in boxes:
        assert box["left"] >= view["x"] - 1 and box["right"] <= view["x"] + view["width"] + 1
    card_width = harness_card(page, "QS").bounding_box()["width"]
    assert (card_width < 56) if width == 400 else (card_width > 75)
    screenshot(page.locator(".view"), f"harness-egypt-{width}")


@pytest.mark.parametrize("preset", ["pharaohs", "two_pyramids", "up_and_down", "giza", "medium"])
def test_every_playable_card_can_be_reached_and_tapped_in_a_320_px_column(
    page: Any, static_server: StaticServer, preset: str
) -> None:
    # The audit: at 360 px the three-pyramid layouts were cut off at the felt's edges, their
    # outer cards out of reach. Cards stay at least 24 px wide; the board scrolls sideways.
    w = show_in_harness(
        page, static_server, PyramidWidget(preset, deal=7, records=False), width=320
    )
    widths = page.eval_on_selector_all(PYRAMID, "ns => ns.map(n => n.offsetWidth)")
    assert min(widths) >= 24, widths
    # a board wider than the column opens centred; the classic pyramid needs no scrolling
    page.wait_for_function(
        "() => { const n = document.querySelector('.pyr-scroll');"
        " return Math.abs(n.scrollLeft - (n.scrollWidth - n.clientWidth) / 2) <= 2; }"
    )
    overflow = page.locator(".pyr-scroll").evaluate("n => n.scrollWidth - n.clientWidth")
    assert (overflow > 0) == (preset in ("pharaohs", "two_pyramids", "up_and_down")), overflow
    screenshot(page.locator(".view"), f"narrow-320-{preset}-opened")
    playable = [c["id"] for c in w.board["cards"] if c["available"] and c["zone"] == "pyramid"]
    assert playable
    for card_id in playable:
        card = harness_card(page, card_id)
        card.scroll_into_view_if_needed()
        box = card.bounding_box()
        top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('.pyr-card')?.dataset.id",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.75],
        )
        assert top == card_id, f"{preset}: {card_id} is under {top} or off the page"
    view = page.locator(".view").bounding_box()
    assert page.locator(".pyr-felt").bounding_box()["width"] <= view["width"] + 1
    harness_card(page, playable[-1]).click()  # the last one, far right: a tap reaches it
    expect(page.locator(".pyr-card.is-selected, .pyr-message:not(.is-empty)")).not_to_have_count(0)
    screenshot(page.locator(".view"), f"narrow-320-{preset}")


@pytest.mark.parametrize("preset", ["pharaohs", "medium"])
def test_the_edge_where_a_wide_board_goes_on_out_of_view_is_shaded(
    page: Any, static_server: StaticServer, preset: str
) -> None:
    # The audit: pharaohs in a 420 px column opened on its middle pyramid with its small left
    # pyramid wholly out of view and no card cut at the edge, so nothing showed there was
    # more. The felt now shades each edge beyond which the board goes on.
    show_in_harness(page, static_server, PyramidWidget(preset, deal=7, records=False), width=420)
    felt = page.locator(".pyr-felt")
    scroller = page.locator(".pyr-scroll")

    def shades() -> tuple[str | None, str | None, float, float]:
        opacity = "(n, p) => getComputedStyle(n, p).opacity"
        return (
            felt.get_attribute("data-more-left"),
            felt.get_attribute("data-more-right"),
            float(felt.evaluate(opacity, "::before")),
            float(felt.evaluate(opacity, "::after")),
        )

    def faded_to(left: float, right: float) -> None:
        """Wait out the shades' 0.2 s fade (longer on a busy machine) to these opacities."""
        page.wait_for_function(
            """([l, r]) => {
                const n = document.querySelector('.pyr-felt');
                const o = (p) => Number(getComputedStyle(n, p).opacity);
                return o('::before') === l && o('::after') === r;
            }""",
            arg=[left, right],
            timeout=10_000,
        )

    if preset == "medium":  # the classic pyramid fits: no shade
        expect(felt).to_have_attribute("data-more-right", "false")
        assert shades() == ("false", "false", 0.0, 0.0)
        return
    expect(felt).to_have_attribute("data-more-left", "true")  # opened centred: both sides
    expect(felt).to_have_attribute("data-more-right", "true")
    faded_to(1.0, 1.0)
    assert shades() == ("true", "true", 1.0, 1.0)
    screenshot(page.locator(".view"), "narrow-420-pharaohs-shaded")
    scroller.evaluate("n => { n.scrollLeft = 0; }")  # the player scrolls to the left end
    expect(felt).to_have_attribute("data-more-left", "false")
    expect(felt).to_have_attribute("data-more-right", "true")
    scroller.evaluate("n => { n.scrollLeft = n.scrollWidth; }")  # and to the right end
    expect(felt).to_have_attribute("data-more-left", "true")
    expect(felt).to_have_attribute("data-more-right", "false")
    faded_to(1.0, 0.0)
    assert shades()[2:] == (1.0, 0.0)
    # a shade never takes a tap meant for the card under it
    for side in ("::before", "::after"):
        assert felt.evaluate("(n, p) => getComputedStyle(n, p).pointerEvents", side) == "none"


def test_a_card_held_at_the_edge_of_a_scrolled_board_scrolls_it_to_its_partner(
    page: Any, static_server: StaticServer
) -> None:
    # pharaohs at 320 px opens centred; a partner in the far pyramid is out of view: held at
    # the edge, the dragged card scrolls the board until the partner shows, and pairs with it
    w = show_in_harness(
        page, static_server, PyramidWidget("pharaohs", deal=7, records=False), width=320
    )
    scroller = page.locator(".pyr-scroll")
    page.wait_for_function("() => document.querySelector('.pyr-scroll').scrollLeft > 0")
    pairs = [m for m in w.game.legal_moves if m.kind.value == "pair"]
    xs = {c["id"]: c.get("x", 0) for c in w.board["cards"]}

    def far(move: Move) -> float:
        a, b = (card_str(c) for c in move.cards)
        return abs(xs.get(a, 0) - xs.get(b, 0))

    move = max(pairs, key=far)
    a, b = sorted((card_str(c) for c in move.cards), key=lambda n: xs.get(n, 0))
    source, target = harness_card(page, b), harness_card(page, a)  # drag right to left
    source.scroll_into_view_if_needed()
    view = scroller.bounding_box()
    box = source.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    edge = view["x"] + 6
    page.mouse.move(edge, box["y"] + box["height"] / 2, steps=10)
    page.wait_for_function("() => document.querySelector('.pyr-scroll').scrollLeft === 0")
    dst = target.bounding_box()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] * 0.75, steps=6)
    page.mouse.up()
    expect(page.locator(".pyr-moves")).to_have_text("1")
    assert w.last_event["move"] in (f"{a}+{b}", f"{b}+{a}")


def test_a_long_message_in_a_narrow_column_stays_on_its_background(
    page: Any, static_server: StaticServer
) -> None:
    w = show_in_harness(
        page, static_server, PyramidWidget("medium", deal=7, records=False), width=360
    )
    w.show_message(
        "The 5 of clubs is covered by the 2 of clubs and the 10 of clubs: pair those first, then "
        "the 5 of clubs is free.",
        "error",
    )
    push(page, w)
    text = page.locator(".pyr-message-text")
    expect(text).to_contain_text("pair those first")
    box = text.bounding_box()
    assert box["height"] > 30, "the message wraps in a narrow column"
    inside = text.evaluate(
        "n => n.scrollHeight <= n.clientHeight + 1 && n.scrollWidth <= n.clientWidth + 1"
    )
    assert inside, "every line of the message is on its own background"
    felt = page.locator(".pyr-felt").bounding_box()
    assert box["x"] >= felt["x"] and box["x"] + box["width"] <= felt["x"] + felt["width"] + 1
    screenshot(page.locator(".view"), "narrow-360-long-message")


def test_dark_theme_changes_the_felt(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    felt = page.locator(".pyr-felt")
    light = felt.evaluate("n => getComputedStyle(n).backgroundImage")
    w.theme = "dark"
    push(page, w)
    expect(page.locator(".pyr-root")).to_have_attribute("data-theme", "dark")
    assert felt.evaluate("n => getComputedStyle(n).backgroundImage") != light
    screenshot(page.locator(".view"), "harness-dark")


def test_a_stalemate_shows_the_lost_banner(page: Any, static_server: StaticServer) -> None:
    w = PyramidWidget("hard", records=False)
    w.load(Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["2D"]))
    show_in_harness(page, static_server, w)
    page.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()
    banner = page.locator(".pyr-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("No more moves")
    assert w.status == "lost"
    banner.locator("[data-action='new']").click()
    expect(banner).to_be_hidden()
    expect(page.locator(PYRAMID)).to_have_count(28)


@pytest.mark.parametrize("action", ["new", "restart"])
def test_the_banners_buttons_pressed_from_the_keyboard_leave_the_focus_on_the_board(
    page: Any, static_server: StaticServer, action: str
) -> None:
    w = PyramidWidget("hard", records=False)
    w.load(Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["2D"]))
    show_in_harness(page, static_server, w, width=360)
    harness_card(page, "5H").focus()
    page.keyboard.press("d")  # the last draw: the game is lost, the banner takes the focus
    banner = page.locator(".pyr-banner")
    expect(banner.locator("[data-action='new']")).to_be_focused()
    # in a narrow column the box sits low, clear of the message at the top, its buttons whole
    box, msg = banner.locator(".pyr-banner-box").bounding_box(), page.locator(".pyr-message-text")
    assert msg.bounding_box()["y"] + msg.bounding_box()["height"] <= box["y"]
    heights = banner.locator(".pyr-btn").evaluate_all("ns => ns.map(n => n.offsetHeight)")
    assert max(heights) < 2 * min(heights), heights  # no button wrapped onto several lines
    banner.locator(f"[data-action='{action}']").focus()
    page.keyboard.press("Enter")
    expect(banner).to_be_hidden()
    page.keyboard.press("d")  # the focus is on the new game's cards: D draws there
    expect(page.locator(".pyr-moves")).to_have_text("1")
    assert w.moves == 1 and page.evaluate("document.activeElement.closest('.pyr-root') !== null")


def test_pause_holds_the_solvers_line_and_resume_goes_on_with_it(
    page: Any, static_server: StaticServer
) -> None:
    w = show_in_harness(
        page, static_server, PyramidWidget("medium", deal=SHORT_DEAL, records=False)
    )
    page.locator(".pyr-speed").select_option("slow")
    page.locator(".pyr-toolbar [data-action='solve']").click()
    expect(page.locator(".pyr-moves")).to_have_text("1", timeout=20_000)
    page.locator(".pyr-toolbar [data-action='pause']").click()
    expect(page.locator(".pyr-paused")).to_be_visible()
    held = w.moves
    expect(page.locator(".pyr-message")).to_be_hidden()  # nothing of the board shows paused
    page.wait_for_timeout(2500)  # two of the slow speed's steps: none is played
    assert w.moves == held and w.autoplay
    page.locator(".pyr-paused [data-action='resume']").click()
    page.locator(".pyr-speed").select_option("fast")
    expect(page.locator(".pyr-banner")).to_contain_text(
        "Won with the solver's help", timeout=20_000
    )
    assert w.moves == 16 and w.message.startswith("Won with the solver's help.")


def test_solve_button_plays_the_line_step_by_step(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(
        page, static_server, PyramidWidget("medium", deal=SHORT_DEAL, records=False)
    )
    if not w.features["assist"]:
        pytest.skip("pyramid_widget.solver is not available")
    page.locator(".pyr-toolbar [data-action='solve']").click()
    expect(page.locator(".pyr-message")).to_contain_text("Solving")
    # the solver's win is no "You won!" and shows no score (the records keep it as assisted)
    banner = page.locator(".pyr-banner")
    expect(banner).to_contain_text("Won with the solver's help", timeout=20_000)
    expect(banner.locator(".pyr-banner-figures")).to_have_text(
        re.compile(r"^Assisted · 16 moves · ")
    )
    assert w.status == "won" and w.moves == 16 and w.assisted
    banner.locator("[data-action='restart']").click()  # the same deal afresh is unassisted
    expect(banner).to_be_hidden()
    assert not w.assisted and w.moves == 0


def test_stats_panel_and_truth_indicator(
    page: Any, static_server: StaticServer, tmp_path: Any
) -> None:
    from pyramid_widget.records.store import Records

    records = Records(tmp_path / "records.sqlite3")
    w = PyramidWidget("medium", deal=SHORT_DEAL, records=records)
    for move in ["KS", "AS+QS"]:
        w.play(move)
    w.new_game(deal=SHORT_DEAL)
    show_in_harness(page, static_server, w)
    page.locator(".pyr-toolbar [data-action='stats']").click()
    panel = page.locator(".pyr-stats")
    expect(panel).to_contain_text("Played")
    expect(panel.locator("[data-stat='Played'] b")).to_have_text("1")
    if w.features["assist"]:
        page.locator(".pyr-toolbar [data-action='truth']").click()
        expect(page.locator(".pyr-truth")).to_be_visible()
        w._extras._watcher.wait(30)
        push(page, w)
        expect(page.locator(".pyr-truth")).not_to_have_attribute("data-state", "thinking")
        screenshot(page.locator(".view"), "harness-stats-truth")


def test_egypt_round_complete_banner_deals_the_next_round(
    page: Any, static_server: StaticServer
) -> None:
    w = PyramidWidget("egypt", records=False)
    w.load(Game.from_position("egypt", pyramid=[None] * 27 + ["KS"], stock=["2C", "3C", "4C"]))
    show_in_harness(page, static_server, w)
    harness_card(page, "KS").click()  # a King goes with one click
    banner = page.locator(".pyr-banner")
    expect(banner).to_contain_text("Round 1 complete!")
    banner.locator("[data-action='next-round']").click()
    expect(page.locator(PYRAMID)).to_have_count(28)
    expect(banner).to_be_hidden()
    assert w.game.round == 2 and w.status == "playing"


def test_keyboard_alone_wins_and_starts_the_next_deal(
    page: Any, static_server: StaticServer
) -> None:
    w = PyramidWidget("medium", records=False)
    w.load(Game.from_position("medium", pyramid=[None] * 27 + ["KS"], stock=["2C"]))
    show_in_harness(page, static_server, w)
    harness_card(page, "KS").focus()
    page.keyboard.press("Enter")  # a King goes at once
    new_deal = page.locator(".pyr-banner [data-action='new']")
    expect(new_deal).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(PYRAMID)).to_have_count(28)
    assert w.status == "playing" and w.game.deal_number is not None


def test_a_bad_message_is_shown_to_the_player(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    page.evaluate("window.harness.model.send({kind: 'pair', cards: ['QS', 'ZZ']})")
    expect(page.locator(".pyr-message")).to_contain_text("'ZZ' is not a card")
    expect(page.locator(".pyr-message")).to_have_attribute("data-kind", "error")
    expect(page.locator(PYRAMID)).to_have_count(28)
    assert w.moves == 0 and w.last_event["ok"] is False
