"""A second deck's card named on a one-deck board (bad-input audit, item 1): the page and
the Python API get the engine's sentence, never Python's "54 is not in list", and the game
does not change."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pyramid_widget import IllegalMoveError
from pyramid_widget.widget import PyramidWidget

SENTENCE = "is a second-deck card, but the game has one deck"


def send(w: PyramidWidget, content: dict[str, Any]) -> None:
    """Send ``content`` as the page does (ipywidgets' real entry point)."""
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def state(w: PyramidWidget) -> dict[str, Any]:
    """The game on the board, without the clock (which ticks on)."""
    saved = json.loads(w.game.to_json())
    saved.pop("elapsed")
    return {**saved, "board": w.board}


@pytest.fixture()
def w() -> PyramidWidget:
    return PyramidWidget("medium", deal=7, records=False)


def test_a_pair_naming_a_second_deck_card_is_refused_in_a_sentence(w: PyramidWidget) -> None:
    before = state(w)
    send(w, {"kind": "pair", "cards": ["AH'", "QS"]})
    assert w.message == f"AH' {SENTENCE}." and w.message_kind == "error"
    assert "not in list" not in w.message and not w.last_event["ok"]
    assert state(w) == before


@pytest.mark.parametrize(
    "content",
    [
        {"kind": "king", "card": "KS'"},
        {"kind": "cell", "card": "AS'"},
        {"kind": "select", "card": "AS'"},
    ],
)
def test_every_message_naming_one_is_refused_in_a_sentence(
    w: PyramidWidget, content: dict[str, Any]
) -> None:
    before = state(w)
    send(w, content)
    assert SENTENCE in w.message and "not in list" not in w.message
    assert state(w) == before


def test_the_python_api_refuses_it_too(w: PyramidWidget) -> None:
    before = state(w)
    with pytest.raises(IllegalMoveError, match=SENTENCE):
        w.play("AH'", "QS")
    assert w.message == f"AH' {SENTENCE}."
    assert state(w) == before
