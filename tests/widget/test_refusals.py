"""The widget's words for a refused touch or move come from the engine's one refusal
(issue 13), and an empty stock says why it is empty (issue 16 item 3)."""

from __future__ import annotations

from typing import Any

import pytest

from pyramid_widget import Game, IllegalMoveError, parse_card
from pyramid_widget.widget import PyramidWidget
from pyramid_widget.widget.board import WHY_UNAVAILABLE, why_unavailable
from tests.support.engine import bottom


def send(w: PyramidWidget, **content: Any) -> dict[str, Any]:
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    return dict(w.last_event)


@pytest.mark.parametrize(
    ("rules", "position", "card", "kind", "text"),
    [
        (
            "medium",
            {"pyramid": bottom("5H")},
            "AS",
            "discarded",
            "The Ace of spades is already discarded.",
        ),
        (
            "medium",
            {"pyramid": bottom("5H"), "wastes": [["8C", "4S"]]},
            "8C",
            "buried",
            "The 8 of clubs is not on top of its waste pile: only the top card can be played.",
        ),
        (
            "medium",
            {"pyramid": bottom("5H"), "stock": ["8C", "4S"]},
            "4S",
            "stock",
            "The 4 of spades is in the stock: draw to bring it into play.",
        ),
        (
            "medium",
            {"pyramid": bottom("5H"), "stock": ["8C"]},
            "8C",
            "stock-top",
            "The 8 of clubs is in the stock: draw to bring it into play.",
        ),
        (
            "apophis",
            {"pyramid": bottom("5H"), "stock": ["8C"]},
            "8C",
            "stock-top",
            "The 8 of clubs is on top of the stock but not available under these rules.",
        ),
    ],
)
def test_why_unavailable_is_a_lookup_of_the_engine_refusal(
    rules: str, position: dict[str, Any], card: str, kind: str, text: str
) -> None:
    g = Game.from_position(rules, **position)
    refusal = g.unavailable(card)
    assert refusal is not None and refusal.kind == kind
    assert why_unavailable(g, parse_card(card)) == text


def test_every_unavailable_kind_has_its_words() -> None:
    from pyramid_widget.engine.legality import KINDS

    assert set(WHY_UNAVAILABLE) <= set(KINDS)
    assert {"covered", "buried", "stock", "stock-top", "discarded"} <= set(WHY_UNAVAILABLE)


def test_clicking_an_empty_stock_with_redeals_left_does_not_say_none_is_left() -> None:
    w = PyramidWidget(records=False)
    w.load(Game.from_position("medium", pyramid=bottom("5H", "8C", "9D")))
    assert w.game.passes_left == 2
    with pytest.raises(IllegalMoveError):
        w.draw()
    assert "no redeal" not in w.message
    assert "waste are empty" in w.message
    event = send(w, kind="draw")
    assert event["ok"] is False and "no redeal" not in event["message"]


def test_the_widget_raises_the_engines_own_refusal() -> None:
    # the board's refusal is the engine's structured one, not a re-worded text
    from pyramid_widget.errors import IllegalMoveError
    from pyramid_widget.widget import PyramidWidget

    w = PyramidWidget("medium", deal=7, records=False)
    try:
        w.play("5C", "8D")
    except IllegalMoveError as error:
        assert error.refusal.kind == "covered"
        assert error.refusal == w.game.refusal("5C+8D")
    else:
        raise AssertionError("a covered card was played")
    assert w.game.moves == 0
