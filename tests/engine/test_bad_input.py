"""Bad input to the engine gets one clear sentence, a PyramidError, and changes nothing (the
bad-input audit: huge inputs, which messages quote briefly, layouts, second-deck cards in a
one-deck game, hand-made positions and pairing tables)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from pyramid_widget import Game, PyramidError, get_rules
from pyramid_widget.engine.deals import deal_from_number, format_deal, parse_deal
from pyramid_widget.engine.layout import CLASSIC, Layout
from pyramid_widget.errors import (
    InvalidCardError,
    InvalidDealError,
    InvalidMoveError,
    InvalidRulesError,
)

HUGE = "X" * 10**6


def one_sentence(action: Callable[[], object], error: type[PyramidError]) -> str:
    """Run ``action``, which must raise ``error`` with a short one-line message; return it."""
    with pytest.raises(error) as caught:
        action()
    text = str(caught.value)
    assert "\n" not in text and len(text) < 400, text[:400]
    return text


# -- a hostile input is quoted, never echoed whole --------------------------------------------


def huge_word_in_a_deal() -> object:
    words = format_deal(deal_from_number(7)).split()
    words[3] = "Q" * 100_000
    return parse_deal(" ".join(words))


@pytest.mark.parametrize(
    ("action", "error"),
    [
        pytest.param(lambda: Game("medium", 7).play(HUGE), InvalidMoveError, id="move"),
        pytest.param(lambda: Game("medium", 7).play(HUGE + "+5H"), InvalidMoveError, id="pair"),
        pytest.param(lambda: Game("medium", 7).where(HUGE), InvalidCardError, id="card"),
        pytest.param(lambda: get_rules(HUGE), InvalidRulesError, id="preset"),
        pytest.param(
            lambda: get_rules("medium").replace(**{"x" * 10**5: 1}),
            InvalidRulesError,
            id="field name",
        ),
        pytest.param(
            lambda: get_rules("medium").replace(undo_depth=-(10**5000)),
            InvalidRulesError,
            id="huge number",
        ),
        pytest.param(huge_word_in_a_deal, InvalidDealError, id="deal word"),
        pytest.param(
            lambda: Game("medium", deal=" ".join(["Q" * 10**5] * 52)),
            InvalidDealError,
            id="deal of huge words",
        ),
        pytest.param(lambda: deal_from_number(-(10**5000)), InvalidDealError, id="deal number"),
        pytest.param(lambda: Layout.pyramid(HUGE), InvalidRulesError, id="rows"),  # type: ignore[arg-type]
    ],
)
def test_a_huge_input_is_quoted_briefly(action: Callable[[], object], error: type) -> None:
    one_sentence(action, error)


def test_a_huge_theme_is_quoted_briefly() -> None:
    with pytest.raises(ValueError) as caught:
        Game("medium", 7).svg(theme=HUGE)
    assert len(str(caught.value)) < 200


# -- layouts built by hand --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: Layout("x", None, ()), "covered_by must be a list", id="no coverers"),  # type: ignore[arg-type]
        pytest.param(lambda: Layout("x", ((),), None), "places must be a list", id="no places"),  # type: ignore[arg-type]
        pytest.param(lambda: Layout("x", ((),), ((0, "a"),)), "two numbers", id="text place"),
        pytest.param(lambda: Layout("x", ((),), ((0,),)), "two numbers", id="short place"),
        pytest.param(lambda: Layout("x", (("1",),), ((0, 0),)), "whole numbers", id="text index"),
        pytest.param(lambda: Layout("x", ((),), ((0, 0),), face_down=5), "positions", id="face 5"),  # type: ignore[arg-type]
        pytest.param(lambda: Layout("x", ((),), ((0, 0),), groups=None), "groups", id="groups"),  # type: ignore[arg-type]
        pytest.param(
            lambda: Layout.side_by_side(5), "side_by_side takes layouts", id="not a layout"
        ),  # type: ignore[arg-type]
        pytest.param(
            lambda: Layout.side_by_side(CLASSIC, gap="1"), "gap must be a number", id="gap"
        ),  # type: ignore[arg-type]
        pytest.param(lambda: CLASSIC.with_face_down(5), "face_down", id="with_face_down 5"),  # type: ignore[arg-type]
        pytest.param(lambda: CLASSIC.with_face_down([0.5]), "whole numbers", id="half position"),
    ],
)
def test_a_layout_of_bad_data_is_refused(build: Callable[[], object], message: str) -> None:
    assert message in one_sentence(build, InvalidRulesError)


def test_a_layout_takes_any_collection_of_face_down_positions() -> None:
    dark = CLASSIC.with_face_down(range(21))
    assert CLASSIC.with_face_down(p for p in range(21)) == dark
    assert CLASSIC.with_face_down({*range(21)}) == dark and dark.face_down == frozenset(range(21))
    assert Layout("one", [[]], [[0, 0]]) == Layout("one", ((),), ((0.0, 0.0),))  # type: ignore[arg-type]
