"""Text from Python reaches the page as text, never as HTML (issue 15 item 1, issue 14 item 2).

In real Chromium, through the harness (``tests/harness/index.html``): a rule set built from a
dict and a saved game whose name and description carry markup, Python messages with markup,
and then hostile values pushed straight into every trait the page shows (rule names, deal
labels, messages, banner reasons, the indicator, post-mortems, stats, presets, card data).
Each must show as literal text, and none may run: ``window.__pwned`` stays undefined, no
dialog opens and no ``img``/``script``/``iframe`` element appears.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from playwright.sync_api import expect

from pyramid_widget import Game, get_rules
from pyramid_widget.records.store import Records
from pyramid_widget.widget import PyramidWidget
from tests.support.browser import (
    StaticServer,
    bridge,
    open_harness,
    push,
    screenshot,
    widget_state,
)

# No xdist group: harness pages need no server of their own, so they spread over the workers.
pytestmark = [pytest.mark.browser]

PWN = "<img src=x onerror=window.__pwned=1>"
VECTORS = [
    PWN,
    "<svg onload=window.__pwned=2></svg>",
    "<script>window.__pwned=3</script>",
    '"><img src=x onerror=window.__pwned=4>',
    "<iframe srcdoc='<script>parent.__pwned=5</script>'></iframe>",
    "</text></svg><img src=x onerror=window.__pwned=6>",
]
#: Elements none of the texts may create inside the widget.
DANGEROUS = "img, script, iframe, object, embed, svg[onload], [onerror], [onload], [onclick]"


def watch(page: Any) -> list[str]:
    """Collect any dialog the page opens (an ``alert`` run by injected script)."""
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return dialogs


def assert_nothing_ran(page: Any, dialogs: list[str]) -> None:
    page.wait_for_timeout(300)  # an image's onerror fires asynchronously
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert dialogs == []
    found = page.eval_on_selector_all(
        f".view :is({DANGEROUS})", "ns => ns.map(n => n.outerHTML.slice(0, 120))"
    )
    assert found == []


def hostile_rules(name: str = PWN) -> dict[str, Any]:
    return {
        **get_rules("medium").to_dict(),
        "name": name,
        "description": "<b>bold?</b> " + " ".join(VECTORS),
    }


def test_a_rule_set_and_a_saved_game_with_markup_show_as_text(
    page: Any, static_server: StaticServer, tmp_path: Any
) -> None:
    dialogs = watch(page)
    records = Records(tmp_path / "records.sqlite3")
    w = PyramidWidget(hostile_rules(), deal=7, records=records)
    bridge(page, w)
    open_harness(page, static_server, w)
    rules = page.locator(".pyr-rules")
    expect(rules).to_have_text(PWN)
    assert rules.get_attribute("title") == w.game.rules.description
    w.show_message(" ".join(VECTORS), "error")
    push(page, w)
    expect(page.locator(".pyr-message")).to_have_text(" ".join(VECTORS))
    page.locator("button[data-action='stats']").click()
    expect(page.locator(".pyr-stats-title")).to_have_text(f"Records · {PWN}")
    assert_nothing_ran(page, dialogs)

    saved = json.loads(Game(get_rules(hostile_rules(VECTORS[3])), deal=5).to_json())
    tampered = Game.from_json(json.dumps(saved))
    records.save_game(tampered, "evil")
    w.load(records.load_game("evil"))
    push(page, w)
    expect(rules).to_have_text(VECTORS[3])
    expect(page.locator(".pyr-message")).to_have_text(f"New game: {VECTORS[3]}, deal #5.")
    page.locator(".pyr-slot[data-zone='stock'] .pyr-slot-face").click()  # the game plays on
    expect(page.locator(".pyr-moves")).to_have_text("1")
    assert w.moves == 1
    assert_nothing_ran(page, dialogs)
    screenshot(page.locator(".view").first, "page-text-hostile-rules")


def hostile_state(w: PyramidWidget, text: str) -> dict[str, Any]:
    """The widget's traits with ``text`` in every string the page may show."""
    state = copy.deepcopy(widget_state(w))
    board = state["board"]
    board["rules"]["name"] = text
    board["rules"]["description"] = text
    board["deal_number"] = text
    board["round"] = text
    board["passes_left"] = text
    board["cells"] = [text] * len(board["cells"])
    for card in board["cards"]:
        card["label"] = card["name"] = text
    board["cards"][0]["rank"] = text  # card data that is not a card
    board["cards"][1]["suit"] = text
    board["cards"][2]["rank"] = 13
    board["cards"][2]["suit"] = "S" + text
    state.update(
        status="lost",
        status_reason=text,
        message=text,
        score=text,
        moves=text,
        presets=[text, "medium"],
        truth={"on": True, "state": text, "detail": text, "post_mortem": text},
        stats={"rules": text, "played": text, "won": text, "win_pct": 50, "best_time": None},
        features={"records": True, "assist": True},
    )
    return state


@pytest.mark.parametrize("text", VECTORS, ids=range(len(VECTORS)))
def test_markup_in_every_trait_the_page_shows_stays_text(
    page: Any, static_server: StaticServer, text: str
) -> None:
    dialogs = watch(page)
    w = PyramidWidget("medium", deal=7, records=False)
    page.goto(static_server.url("tests/harness/index.html"))  # first render: hostile already
    page.wait_for_function("window.harnessReady === true")
    page.evaluate("s => window.harness.start(s, {})", hostile_state(w, text))
    expect(page.locator(".pyr-rules")).to_have_text(text)
    expect(page.locator(".pyr-deal")).to_contain_text(text)
    expect(page.locator(".pyr-message")).to_have_text(text)
    expect(page.locator(".pyr-banner-reason")).to_have_text(text)
    expect(page.locator(".pyr-banner-detail")).to_have_text(text)
    expect(page.locator(".pyr-moves")).to_have_text(text)
    expect(page.locator(".pyr-truth")).to_have_attribute("title", text)
    for panel in ("stats", "new", "help"):
        page.locator(f".pyr-toolbar button[data-action='{panel}']").click()
        expect(page.locator(".pyr-panel")).to_be_visible()
        if panel == "stats":
            expect(page.locator(".pyr-stats-title")).to_have_text(f"Records · {text}")
        if panel == "new":
            expect(page.locator(".pyr-rules-select option").first).to_have_text(text)
    assert_nothing_ran(page, dialogs)
    cards = page.locator(".pyr-card")
    expect(cards.first).to_have_attribute("aria-label", text)
    # the cards with bad rank or suit data show an empty face, the others their pips
    faces = page.eval_on_selector_all(".pyr-card svg", "ns => ns.map(n => n.childElementCount)")
    assert faces[:3] == [0, 0, 0] and all(n > 0 for n in faces[3:]), faces
    if text == PWN:
        screenshot(page.locator(".view").first, "page-text-hostile-traits")
