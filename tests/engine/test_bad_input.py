"""Bad input to the engine gets one clear sentence, a PyramidError, and changes nothing (the
bad-input audit: huge inputs, which messages quote briefly, layouts, second-deck cards in a
one-deck game, hand-made positions and pairing tables)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pyramid_widget import Game, PyramidError, get_rules
from pyramid_widget.engine.deals import deal_from_number, format_deal, parse_deal
from pyramid_widget.engine.layout import CLASSIC, Layout
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.rules import PAIRINGS, Pairing, RuleSet
from pyramid_widget.errors import (
    GameFileError,
    IllegalMoveError,
    InvalidCardError,
    InvalidDealError,
    InvalidMoveError,
    InvalidRulesError,
    Refusal,
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


# -- a card the game does not hold ------------------------------------------------------------

SECOND_DECK = "is a second-deck card, but the game has one deck"


@pytest.mark.parametrize("move", ["AH'+QS", "KS'", "cell AS'", Move.pair(47, 54)])
def test_a_second_deck_card_in_a_one_deck_game_is_refused_like_any_move(move: Any) -> None:
    g = Game("medium", deal=7, clock=lambda: 0.0)
    g.play("draw")
    before = g.to_json()
    with pytest.raises(IllegalMoveError, match=SECOND_DECK) as caught:
        g.play(move)
    assert caught.value.refusal.kind == "not-in-game" and "\n" not in str(caught.value)
    assert g.explain(move) == caught.value.reason and move not in g.legal_moves
    assert g.to_json() == before


def test_a_second_deck_card_is_unavailable_and_nowhere() -> None:
    g = Game("medium", deal=7)
    refusal = g.unavailable("AS'")
    assert refusal is not None and refusal.kind == "not-in-game"
    assert refusal.text == f"AS' {SECOND_DECK}"
    assert g.unavailable(103) == Refusal("not-in-game", (103,), f"KS' {SECOND_DECK}")
    assert one_sentence(lambda: g.where("AS'"), InvalidCardError) == f"AS' {SECOND_DECK}"
    assert g.covering("AS'") == ()


@pytest.mark.parametrize("card", [200, -1, 104, True, 1.0, None, "5"])
def test_what_is_no_card_is_refused_when_asked_about(card: Any) -> None:
    one_sentence(lambda: Game("medium", deal=7).where(card), InvalidCardError)


@pytest.mark.parametrize(
    "build",
    [
        lambda: Move.pair(0, 200),
        lambda: Move.king(104),
        lambda: Move.to_cell(-1),
        lambda: Move.pair(0, True),
        lambda: Move.pair(0, "QS"),
        lambda: Move(MoveKind.KING, (51.0,)),
    ],
)
def test_a_move_names_cards_from_0_to_103(build: Callable[[], Move]) -> None:
    assert "is not a card" in one_sentence(build, InvalidMoveError)


def test_a_second_deck_card_still_plays_in_a_two_deck_game() -> None:
    g = Game.from_position("anubis", pyramid=[None] * 44 + ["5H'"], stock=["8C'"])
    g.play("draw")
    g.play("5H'+8C'")
    assert g.status.value == "won"


@pytest.mark.parametrize("field", ["moves", "redo"])
def test_a_save_naming_a_second_deck_card_is_refused(field: str) -> None:
    data = json.loads(Game("medium", deal=7).to_json())
    data[field] = [["AH'+QS", 0.5]]
    message = one_sentence(lambda: Game.from_json(json.dumps(data)), GameFileError)
    assert message.endswith(f"AH' {SECOND_DECK}")


def test_a_deal_names_the_second_deck_card_in_the_same_words() -> None:
    words = format_deal(deal_from_number(7)).split()
    words[2] += "'"
    message = one_sentence(lambda: parse_deal(" ".join(words)), InvalidDealError)
    assert message == f"card 3 of the deal: TC' {SECOND_DECK}"


@pytest.mark.parametrize(("typed", "decks"), [("-5", 1), ("abc", 1), ("1.5", 2), ("1e3", 1)])
def test_one_word_that_is_no_card_is_told_what_a_deal_is(typed: str, decks: int) -> None:
    # typed into a deal box as a number: not "a deal needs 52 cards, got 1"
    rules = "medium" if decks == 1 else "anubis"
    message = one_sentence(lambda: Game(rules, deal=typed), InvalidDealError)
    assert message == (
        f"{typed!r} is not a deal: give a deal number (a whole number like 7) "
        f"or {52 * decks} cards separated by spaces"
    )
    # one card alone is a deal string that is short
    short = one_sentence(lambda: parse_deal("AS", decks), InvalidDealError)
    assert short == f"a deal needs {52 * decks} cards separated by spaces, got 1"


# -- a hand-made position -----------------------------------------------------------------------

LAST = [None] * 27 + ["5H"]


@pytest.mark.parametrize(
    ("rules", "fields", "message"),
    [
        ("medium", dict(pass_number=1.5), "pass_number must be a whole number, got 1.5"),
        ("medium", dict(pass_number=True), "pass_number must be a whole number, got True"),
        ("medium", dict(pass_number="1"), "pass_number must be a whole number, got '1'"),
        ("medium", dict(pass_number=4), "pass_number must be 1..3, got 4"),
        ("easy", dict(pass_number=10**7), "pass_number must be 1..1000000, got 10000000"),
        ("easy", dict(pass_number=10**100), "more than 30 digits"),
        ("medium", dict(pyramid=None), "the pyramid must be a list, got None"),
        ("medium", dict(pyramid="5H" * 14), "the pyramid must be a list"),
        ("medium", dict(stock=None), "the stock must be a list, got None"),
        ("medium", dict(wastes=None), "the wastes must be a list, got None"),
        ("medium", dict(cells=None), "the cells must be a list, got None"),
        ("medium", dict(reserves=None), "the reserves must be a list, got None"),
        ("medium", dict(wastes=[5]), "the waste pile must be a list, got 5"),
        ("medium", dict(wastes=["8C"]), "the waste pile must be a list, got '8C'"),
        ("giza", dict(pyramid=LAST, reserves=[None]), "the reserve pile must be a list"),
        ("medium", dict(stock=[None]), "the stock: None is not a card"),
        ("medium", dict(stock=[1.5]), "the stock: 1.5 is not a card"),
        ("egypt", dict(cells=[[]]), "the cells: a list is not a card"),
        ("medium", dict(stock=["AH'"]), f"the stock: AH' {SECOND_DECK}"),
    ],
)
def test_a_bad_hand_made_position_is_refused_in_one_sentence(
    rules: str, fields: dict[str, Any], message: str
) -> None:
    arguments: dict[str, Any] = {"pyramid": LAST, **fields}
    text = one_sentence(lambda: Game.from_position(rules, **arguments), InvalidDealError)
    assert message in text


@pytest.mark.parametrize(
    ("rules", "pass_number"), [("easy", 10**6), ("easy", 1), ("medium", 3), ("egypt", 1)]
)
def test_a_hand_made_position_that_is_accepted_can_be_saved(rules: str, pass_number: int) -> None:
    g = Game.from_position(rules, pyramid=LAST, stock=("8C",), pass_number=pass_number)
    twin = Game.from_json(g.to_json())
    assert twin.pass_number == pass_number and twin.stock == g.stock


# -- pairing tables -----------------------------------------------------------------------------

RANK_VALUES = "pairs are two rank values from 1 (Ace) to 13 (King)"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        pytest.param(lambda: Pairing("x", None), "pairs must be a collection", id="None"),  # type: ignore[arg-type]
        pytest.param(lambda: Pairing("x", "5,8"), "pairs must be a collection", id="text"),  # type: ignore[arg-type]
        pytest.param(lambda: Pairing("x", {5: 8}), "pairs must be a collection", id="mapping"),  # type: ignore[arg-type]
        pytest.param(lambda: Pairing("x", [(1, [12])]), RANK_VALUES, id="nested"),  # type: ignore[list-item]
        pytest.param(lambda: Pairing("x", [[5, 8]] * 201), "at most 200 pairs", id="too many"),  # type: ignore[arg-type]
        pytest.param(lambda: Pairing(None, frozenset()), "name must be a string", id="no name"),  # type: ignore[arg-type]
        pytest.param(lambda: Pairing("a\nb", frozenset()), "control characters", id="name"),
        pytest.param(lambda: Pairing("x", frozenset(), text=5), "text must be", id="text 5"),  # type: ignore[arg-type]
    ],
)
def test_a_pairing_table_of_bad_data_is_refused(build: Callable[[], object], message: str) -> None:
    assert message in one_sentence(build, InvalidRulesError)


@pytest.mark.parametrize("pairs", [[[1, [12]]], [{"a": 1}], [[1, 12], None], [[1, 12, 3]], 5])
def test_a_pairing_table_read_from_data_is_refused(pairs: Any) -> None:
    table = {"pairing": {"name": "p", "pairs": pairs}}
    one_sentence(lambda: RuleSet.from_dict(table), InvalidRulesError)
    one_sentence(lambda: get_rules(table), InvalidRulesError)
    data = json.loads(Game("medium", deal=7).to_json())
    data["rules"]["pairing"] = table["pairing"]
    text = one_sentence(lambda: Game.from_json(json.dumps(data)), GameFileError)
    assert text.startswith("the saved game's rules: ")


def test_a_pairing_table_read_from_lists_plays() -> None:
    table = {"name": "thirteen", "pairs": [[a, 13 - a] for a in range(1, 7)]}
    rules = RuleSet.from_dict({"name": "lists", "pairing": table})
    assert rules.pairing_table.pairs == PAIRINGS["sum13"].pairs
    assert RuleSet.from_dict(rules.to_dict()) == rules
