"""The family's layouts in real Chromium (issue 19): the harness page bridged to a real Python
:class:`PyramidWidget`. Face-down cards name nothing in the DOM and turn over when uncovered;
the triangle's mistake-then-right-move; overlap discards, the waste pair, reserves and two
decks played by click and drag; the keyboard walks the layout's geometry; wide layouts fit a
500 px column; the New-deal panel's groups and the rules in the Keys panel."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget import PRESETS, Game
from pyramid_widget.engine.cards import card_long_name, card_str
from pyramid_widget.engine.moves import Move
from pyramid_widget.widget import PyramidWidget
from tests.support.browser import PYRAMID, StaticServer, harness_card, show_in_harness
from tests.widget.family_positions import position, winning_line

pytestmark = [pytest.mark.browser]
DECK = ".pyr-slot[data-zone='stock'] .pyr-slot-face"


def _has(cls: str) -> Any:
    return re.compile(rf"(^|\s){cls}(\s|$)")


def click_move(page: Any, move: Move) -> None:
    """Play ``move`` with the mouse on the harness page."""
    text = str(move)
    if text in ("draw", "redeal"):
        page.locator(DECK).click()
        return
    for name in text.split("+"):
        card = harness_card(page, name)
        # near the top edge: the part of a card that nothing covers (rows and fans go down)
        card.click(position={"x": card.bounding_box()["width"] / 2, "y": 6})


def play_by_clicks(page: Any, w: PyramidWidget, line: list[Move]) -> None:
    for move in line:
        before = w.moves
        click_move(page, move)
        expect(page.locator(".pyr-moves")).to_have_text(str(before + 1))
        assert w.last_event["move"] == str(move)


def test_face_down_cards_name_nothing_in_the_dom_and_turn_over(
    page: Any, static_server: StaticServer
) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("dark_pyramid", deal=7, records=False))
    g = w.game
    expect(page.locator(".pyr-card.is-down")).to_have_count(21)
    html = page.locator(".view").inner_html()
    for pos in g.hidden:
        card = g.pyramid[pos]
        assert card is not None
        assert f'data-id="{card_str(card)}"' not in html and card_long_name(card) not in html
    names = page.eval_on_selector_all(
        ".pyr-card.is-down", "ns => ns.map(n => n.getAttribute('aria-label'))"
    )
    assert set(names) == {"face-down card"}
    assert page.eval_on_selector_all(
        ".pyr-card.is-down", "ns => ns.every(n => !n.querySelector('svg'))"
    )
    page.locator(".pyr-card.is-down").first.click()
    expect(page.locator(".pyr-message")).to_have_text(
        "That card is face down: it turns over once nothing covers it."
    )
    # a small position: the 5H at 15 turns over (the same element, with the flip) once uncovered
    w.load(position("dark_pyramid"))
    page.evaluate("s => window.harness.update(s)", {"board": w.board, "moves": 0})
    expect(page.locator(".pyr-card.is-down")).to_have_count(1)
    back = page.locator(".pyr-card[data-id='down15']")
    back.evaluate("n => { window.__back = n; }")
    line = winning_line(w.game)
    play_by_clicks(page, w, line[:3])  # KS, draw, 5D+8C
    expect(harness_card(page, "5H")).to_have_count(1)
    assert harness_card(page, "5H").evaluate("n => n === window.__back")
    expect(page.locator(".pyr-card.is-down")).to_have_count(0)
    # undo covers it again: a back once more, its face gone from the DOM; redo turns it over
    page.locator("[data-action='undo']").click()
    expect(page.locator(".pyr-card[data-id='down15']")).to_have_count(1)
    assert "5 of hearts" not in page.locator(".view").inner_html()
    assert page.locator(".pyr-card[data-id='down15']").evaluate("n => n === window.__back")
    page.locator("[data-action='redo']").click()
    expect(harness_card(page, "5H")).to_have_count(1)
    play_by_clicks(page, w, line[3:])
    expect(page.locator(".pyr-banner")).to_contain_text("You won!")


def drag(page: Any, source: Any, target: Any, at: float = 0.7) -> None:
    """Drag ``source`` by its middle onto ``target`` at ``at`` of its height."""
    src, dst = source.bounding_box(), target.bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] * at, steps=8)
    page.mouse.up()


def test_a_card_dragged_onto_a_face_down_card_is_told_so_then_pairs(
    page: Any, static_server: StaticServer
) -> None:
    # The audit's drag onto a back read "'down20' is not a card": the back names no card, so
    # the board says what a click on it says, and the drag onto the real partner then works.
    w = show_in_harness(page, static_server, PyramidWidget("dark_pyramid", deal=7, records=False))
    pair = next(m for m in w.game.legal_moves if m.kind.value == "pair")
    first, second = (card_str(c) for c in pair.cards)
    back = page.locator(".pyr-card.is-down").last  # its top edge shows above the bottom row
    drag(page, harness_card(page, first), back, at=0.1)
    expect(page.locator(".pyr-message")).to_have_text(
        "That card is face down: it turns over once nothing covers it."
    )
    assert w.moves == 0 and w.message_kind != "error"
    expect(page.locator(".pyr-card.is-drop")).to_have_count(0)
    # the card slides back to its place first (as a player waits for it)
    harness_card(page, first).evaluate(
        "n => Promise.allSettled(n.getAnimations().map(a => a.finished))"
    )
    drag(page, harness_card(page, first), harness_card(page, second))
    expect(page.locator(".pyr-moves")).to_have_text("1")
    assert w.last_event["move"] in (f"{first}+{second}", f"{second}+{first}")


def test_the_triangle_a_mistake_then_the_right_move(page: Any, static_server: StaticServer) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("triangle", deal=7, records=False))
    expect(page.locator(PYRAMID)).to_have_count(28)
    # the inverted triangle: the single bottom card is available, the top row is covered
    bottom = next(c for c in w.board["cards"] if c.get("pos") == 27)
    top = next(c for c in w.board["cards"] if c.get("pos") == 0)
    assert bottom["available"] and not top["available"]
    box_top = harness_card(page, top["id"]).bounding_box()
    box_bottom = harness_card(page, bottom["id"]).bounding_box()
    assert box_top["y"] < box_bottom["y"]
    harness_card(page, top["id"]).click()
    expect(page.locator(".pyr-message")).to_contain_text("is still covered by")
    expect(page.locator(".pyr-message")).to_have_attribute("data-kind", "error")
    stock_top = next(c for c in w.board["cards"] if c["zone"] == "stock")
    if w.game.rules.pairs(w.game.pyramid[27] or 0, w.game.stock[0]):
        pytest.fail("deal 7 was chosen for a bottom card and stock top that do not pair")
    harness_card(page, bottom["id"]).click()
    harness_card(page, stock_top["id"]).click()
    expect(page.locator(".pyr-message")).to_contain_text("not 13")
    assert w.moves == 0 and len(w.game.pyramid) == 28
    move = next(m for m in w.game.legal_moves)
    click_move(page, move)
    expect(page.locator(".pyr-moves")).to_have_text("1")
    assert w.last_event["ok"] and w.last_event["move"] == str(move)


@pytest.mark.parametrize("preset", ["tuts_tomb", "thirteen", "giza", "pharaohs", "up_and_down"])
def test_small_positions_of_each_shape_are_won_by_clicks(
    page: Any, static_server: StaticServer, preset: str
) -> None:
    w = PyramidWidget(preset, deal=1, records=False)
    w.load(position(preset))
    show_in_harness(page, static_server, w)
    line = winning_line(w.game)
    if preset == "tuts_tomb":  # the overlap discard: the covered card is playable, not available
        five = harness_card(page, "5H")
        expect(five).to_have_class(_has("is-playable"))
        expect(five).not_to_have_class(_has("is-available"))
    if preset == "thirteen":  # the waste pair: the card beneath the waste top plays
        expect(harness_card(page, "5H")).to_have_attribute("data-zone", "waste")
    if preset == "giza":
        expect(page.locator(".pyr-slot[data-zone='reserve']")).to_have_count(8)
        expect(page.locator(DECK)).to_have_count(0)
    play_by_clicks(page, w, line)
    expect(page.locator(".pyr-banner")).to_contain_text("You won!")
    assert w.status == "won"


def test_two_decks_drag_one_copy_onto_the_other_decks_partner(
    page: Any, static_server: StaticServer
) -> None:
    w = PyramidWidget("double_pyramid", deal=1, records=False)
    w.load(position("double_pyramid"))
    show_in_harness(page, static_server, w)
    second = harness_card(page, "8C'")
    expect(second).to_have_class(_has("is-deck2"))
    expect(harness_card(page, "8C")).not_to_have_class(_has("is-deck2"))
    assert "(second deck)" in (second.get_attribute("aria-label") or "")
    assert "second" not in (harness_card(page, "8C").get_attribute("aria-label") or "")
    src = harness_card(page, "5H").bounding_box()
    dst = second.bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] * 0.7, steps=8)
    expect(second).to_have_class(_has("is-drop"))
    page.mouse.up()
    expect(second).to_have_attribute("data-zone", "discard")
    assert w.last_event["move"] == "5H+8C'"
    expect(harness_card(page, "8C")).to_have_attribute("data-zone", "pyramid")  # its twin stays
    harness_card(page, "KS'").click()  # a King of the second deck goes alone
    harness_card(page, "5H'").click()
    expect(harness_card(page, "5H'")).to_have_attribute("aria-pressed", "true")
    harness_card(page, "8C").click()
    expect(page.locator(".pyr-banner")).to_contain_text("You won!")


def test_the_keyboard_walks_the_layout_of_two_pyramids(
    page: Any, static_server: StaticServer
) -> None:
    w = show_in_harness(page, static_server, PyramidWidget("two_pyramids", deal=7, records=False))
    playable = {c["id"] for c in w.board["cards"] if c["playable"]}
    first = next(c for c in w.board["cards"] if c.get("pos") == 21)
    harness_card(page, first["id"]).focus()
    seen = []
    for _ in range(len(playable) + 1):  # the playable cards and the deck, round again
        seen.append(page.evaluate("document.activeElement.dataset.id || 'deck'"))
        page.keyboard.press("ArrowRight")
    assert set(seen) == playable | {"deck"}
    # the bottom rows of both pyramids are one row: left to right across the gap between them
    row = [
        s
        for s in seen
        if s != "deck" and s in {c["id"] for c in w.board["cards"] if c.get("y") == 6}
    ]
    xs = {c["id"]: c["x"] for c in w.board["cards"] if c.get("y") == 6}
    assert [xs[s] for s in row] == sorted(xs[s] for s in row) and len(row) == 14
    # up from a bottom card: nothing playable above, focus stays on a playable card
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.dataset.id || 'deck'") in playable | {"deck"}
    # Enter plays by keys: the first legal pair among the pyramids
    move = next(m for m in w.game.legal_moves if m.is_removal and len(m.cards) == 2)
    for card in move.cards:
        harness_card(page, card_str(card)).focus()
        page.keyboard.press("Enter")
    expect(page.locator(".pyr-moves")).to_have_text("1")
    assert w.last_event["move"] == str(move)


@pytest.mark.parametrize("preset", ["anubis", "two_pyramids", "pharaohs"])
def test_wide_and_tall_layouts_fit_a_500_px_column(
    page: Any, static_server: StaticServer, preset: str
) -> None:
    w = show_in_harness(
        page, static_server, PyramidWidget(preset, deal=7, records=False), width=500
    )
    felt = page.locator(".pyr-felt").bounding_box()
    boxes = page.eval_on_selector_all(
        ".pyr-card, .pyr-slot",
        "ns => ns.map(n => { const r = n.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })",
    )
    assert len(boxes) >= w.game.rules.layout.size
    for x, y, width, height in boxes:
        assert felt["x"] - 0.5 <= x and x + width <= felt["x"] + felt["width"] + 0.5
        assert y + height <= felt["y"] + felt["height"] + 0.5
        assert width >= 24
    # cards of one row never overlap sideways: every card can be clicked
    cards = page.eval_on_selector_all(
        PYRAMID,
        "ns => ns.map(n => [n.style.getPropertyValue('--y'), n.getBoundingClientRect().x, n.getBoundingClientRect().width])",
    )
    rows: dict[str, list[tuple[float, float]]] = {}
    for y, x, width in cards:
        rows.setdefault(y, []).append((x, width))
    for row in rows.values():
        row.sort()
        assert all(b[0] >= a[0] + a[1] - 0.5 for a, b in itertools.pairwise(row))
    # cards under 40 px wide show the big-index face (the full face's corner is unreadable)
    small = preset != "anubis"
    expect(page.locator(".pyr-root")).to_have_attribute("data-small", str(small).lower())
    face = page.locator(f"{PYRAMID}.is-available .pyr-mini").first
    if small:
        expect(face).to_be_visible()
    else:
        expect(face).to_be_hidden()
    # a tap on any available card selects it
    card = next(
        c for c in w.board["cards"] if c["available"] and c["zone"] == "pyramid" and c["rank"] != 13
    )
    harness_card(page, card["id"]).click()
    expect(harness_card(page, card["id"])).to_have_class(_has("is-selected"))


def test_the_new_deal_panel_groups_the_presets_and_the_keys_state_the_rules(
    page: Any, static_server: StaticServer
) -> None:
    show_in_harness(page, static_server, PyramidWidget("pyramid_dozen", deal=7, records=False))
    page.locator("[data-action='help']").click()
    help_text = page.locator(".pyr-help").inner_text()
    assert PRESETS["pyramid_dozen"].pairing_table.text in help_text
    assert "a King never goes alone" in help_text and "all 52 cards" in help_text
    assert "Rules: PySolFC Pyramid Dozen." in help_text
    assert "draw (or redeal" not in help_text  # no stock, no D key
    page.locator("[data-action='new']").click()
    groups = page.eval_on_selector_all(
        ".pyr-rules-select optgroup", "gs => gs.map(g => [g.label, g.children.length])"
    )
    assert groups == [["Classic", 4], ["Variants of the seeds", 3], ["The Pyramid family", 14]]
    page.locator(".pyr-rules-select").select_option("giza")
    expect(page.locator(".pyr-rules-desc")).to_contain_text(PRESETS["giza"].description)
    expect(page.locator(".pyr-rules-source")).to_have_text(f"Source: {PRESETS['giza'].source}.")


def test_a_classic_game_keeps_its_geometry(page: Any, static_server: StaticServer) -> None:
    """The classic pyramid is drawn where it always was: column c of row r at (c - r/2)."""
    w = show_in_harness(page, static_server, PyramidWidget("medium", deal=7, records=False))
    apex = harness_card(page, card_str(w.game.pyramid[0] or 0)).bounding_box()
    left = harness_card(page, card_str(w.game.pyramid[21] or 0)).bounding_box()
    right = harness_card(page, card_str(w.game.pyramid[27] or 0)).bounding_box()
    assert abs((left["x"] + right["x"]) / 2 - apex["x"]) < 1
    assert abs(right["x"] - left["x"] - 6 * 1.1 * apex["width"]) < 2
    assert Game("medium", deal=7).rules.layout.size == 28


def test_the_flip_is_short_and_still_under_reduced_motion(
    page: Any, static_server: StaticServer
) -> None:
    show_in_harness(page, static_server, PyramidWidget("dark_pyramid", deal=7, records=False))
    probe = "n => { n.classList.add('is-flipping'); const s = getComputedStyle(n); return [s.animationName, s.animationDuration]; }"
    card = page.locator(f"{PYRAMID}.is-available").first
    assert card.evaluate(probe) == ["pyr-flip", "0.3s"]
    page.emulate_media(reduced_motion="reduce")
    assert card.evaluate(probe)[0] == "none"
