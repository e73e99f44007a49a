"""The lessons read the engine's refusal: mistake kinds are lookups of its kind and the
learner's wording spells out its cards, never by parsing the engine's English (issue 13)."""

from __future__ import annotations

import pytest

from pyramid_widget import Game, get_rules
from pyramid_widget.engine.legality import KINDS
from pyramid_widget.engine.moves import Move
from pyramid_widget.lessons.model import MISTAKE_KINDS
from pyramid_widget.lessons.runner import MISTAKE_OF_REFUSAL, friendly_reason, mistake_kind
from tests.support.engine import bottom


def test_a_rule_set_named_like_a_card_is_not_spelled_as_one() -> None:
    rules = get_rules("cheops").replace(name="KD")
    g = Game.from_position(rules, pyramid=bottom("KH"), stock=["2C"])
    text = friendly_reason(g.refusal("KH"))
    assert text == "Kings are not removed alone under KD: pair it with a Queen or a King."


def test_cards_are_spelled_from_the_refusal() -> None:
    g = Game("medium", deal=7)
    assert friendly_reason(g.refusal("5C+8D")) == (
        "The 5 of clubs is covered by the 2 of clubs and the 10 of clubs."
    )
    assert friendly_reason(None) == ""


@pytest.mark.parametrize(
    ("rules", "position", "move", "kind"),
    [
        ("relaxed", {"pyramid": bottom("5H", "9D"), "stock": ["4C", "8S"]}, "5H+8S", "stock"),
        ("medium", {"pyramid": bottom("5H", "9D"), "stock": ["8S"]}, "5H+8S", "stock"),
        (
            "egypt",
            {"pyramid": bottom("5H", "9D"), "cells": ["2C"], "stock": ["4C"]},
            "cell 5H",
            "illegal",
        ),
        ("medium", {"pyramid": bottom("5H", "9D"), "stock": ["4C"]}, "next-round", "illegal"),
        ("medium", {"pyramid": bottom("5H", "8D"), "stock": ["4C"]}, "5H+8D", "legal"),
    ],
)
def test_mistake_kind_is_the_refusal_kind(
    rules: str, position: dict[str, object], move: str, kind: str
) -> None:
    g = Game.from_position(rules, **position)  # type: ignore[arg-type]
    assert mistake_kind(g, Move.parse(move)) == kind


def test_every_lesson_mistake_kind_comes_from_an_engine_kind() -> None:
    assert set(MISTAKE_OF_REFUSAL) <= set(KINDS)
    assert set(MISTAKE_OF_REFUSAL.values()) <= set(MISTAKE_KINDS)
    lesson_only = set(MISTAKE_KINDS) - {"illegal", "legal"}
    assert lesson_only <= set(KINDS) | set(MISTAKE_OF_REFUSAL.values())
