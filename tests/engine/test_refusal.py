"""One structured refusal (issue 13), the real reason of a refused draw (issue 16 item 3) and
moves that apply wholly or not at all (issue 14 item 6)."""

from __future__ import annotations

import dataclasses

import pytest

from pyramid_widget import PRESETS, Game, IllegalMoveError
from pyramid_widget.engine import legality
from pyramid_widget.engine.cards import KING, card_long_name, parse_card, rank
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.rules import CLASSIC_SCORING, Scoring, get_rules
from pyramid_widget.errors import Refusal
from tests.support.engine import bottom, game


def kind_of(g: Game, move: str) -> str | None:
    refusal = g.refusal(move)
    return None if refusal is None else refusal.kind


@pytest.mark.parametrize(
    ("rules", "pyr", "extra", "move", "kind"),
    [
        ("medium", bottom("5H", "9C"), {"stock": ["2D"]}, "5H+9C", "no-match"),
        ("cheops", bottom("AH", "KC"), {"stock": ["2D"]}, "AH+KC", "no-match"),
        ("medium", bottom("5H"), {"wastes": [["8C", "2D"]]}, "5H+8C", "buried"),
        ("medium", bottom("5H"), {"stock": ["2D", "8C"]}, "5H+8C", "stock"),
        ("medium", bottom("5H"), {"stock": ["8C"]}, "5H+8C", "stock-top"),
        ("cheops", bottom("KH"), {"stock": ["2C"]}, "KH", "king-alone"),
        ("medium", bottom("QH", "AD"), {}, "KS", "discarded"),
        ("apophis", bottom("5H"), {"wastes": [["8C"], ["2D"], []]}, "8C+2D", "no-match"),
        ("medium", bottom("5H"), {"wastes": [["8C"]]}, "cell 5H", "no-cell"),
        ("egypt", bottom("5H", "2C"), {"cells": ["9D"], "stock": ["3D"]}, "cell 5H", "cell-full"),
        ("medium", bottom("5H"), {"stock": ["2C"]}, "redeal", "no-redeal"),
        ("medium", bottom("5H"), {"stock": ["2C"]}, "next-round", "no-rounds"),
        ("egypt", bottom("5H"), {"stock": ["2C"]}, "next-round", "round-unfinished"),
    ],
)
def test_each_refusal_has_its_kind(
    rules: str, pyr: list[str | None], extra: dict[str, object], move: str, kind: str
) -> None:
    g = game(rules, pyr, **extra)
    refusal = g.refusal(move)
    assert refusal is not None and refusal.kind == kind
    assert refusal.kind in legality.KINDS
    assert g.explain(move) == refusal.text
    with pytest.raises(IllegalMoveError) as caught:
        g.play(move)
    assert caught.value.refusal == refusal
    assert caught.value.reason == refusal.text


def test_covered_refusal_names_the_card_then_its_cover() -> None:
    g = Game("medium", deal=7)
    refusal = g.refusal("5C+8D")
    assert refusal == Refusal(
        "covered",
        (parse_card("5C"), parse_card("2C"), parse_card("TC")),
        "5C is covered by 2C and TC",
        "the 5 of clubs is covered by the 2 of clubs and the 10 of clubs",
    )


def test_legality_works_on_rules_and_position_alone() -> None:
    g = Game("medium", deal=7)
    g.play("draw")
    for move in ("5C+8D", "redeal", "3C+TD", "KD", "QS+AH"):
        parsed = Move.parse(move)
        assert legality.refusal(g.rules, g.position, parsed) == g.refusal(parsed)
    assert set(legality.candidate_moves(g.rules, g.position)) == set(g.legal_moves)
    assert legality.judge(g.rules, g.position) == (g.status, g.status_reason)


def test_a_card_the_player_touches_gets_the_same_refusal() -> None:
    g = game("medium", bottom("5H"), wastes=[["8C", "2D"]])
    touched = g.unavailable("8C")
    move = g.refusal("5H+8C")
    assert touched == move and touched is not None and touched.kind == "buried"
    assert g.unavailable("5H") is None


def test_undo_and_redo_refusals_have_kinds() -> None:
    g = Game("medium", deal=7)
    with pytest.raises(IllegalMoveError) as caught:
        g.undo()
    assert caught.value.refusal.kind == "nothing-to-undo"
    with pytest.raises(IllegalMoveError) as caught:
        g.redo()
    assert caught.value.refusal.kind == "nothing-to-redo"


# -- issue 16 item 3: an empty stock says why it cannot be drawn from ----------------------


def test_empty_stock_and_empty_waste_does_not_claim_no_redeal_is_left() -> None:
    g = game("medium", bottom("5H", "9C", "8C"))  # no stock, no waste, pass 1 of 3
    assert g.passes_left == 2 and not g.is_over
    refusal = g.refusal("draw")
    assert refusal is not None and refusal.kind == "empty-stock"
    assert "no redeal is left" not in refusal.text
    assert "waste" in refusal.text and "empty" in refusal.text


def test_empty_stock_with_no_pass_left_says_so() -> None:
    g = game("hard", bottom("5H", "9C", "8C"), wastes=[["2D"]])
    refusal = g.refusal("draw")
    assert refusal is not None and refusal.text == "the stock is empty and no redeal is left"


def test_empty_stock_with_a_redeal_left_says_redeal() -> None:
    g = game("medium", bottom("5H", "9C", "8C"), wastes=[["2D"]])
    refusal = g.refusal("draw")
    assert refusal is not None and "redeal to turn the waste over" in refusal.text


# -- a move applies wholly or not at all ---------------------------------------------------


def observed(g: Game) -> tuple[object, ...]:
    return (
        g.to_json(),
        str(g),
        g.history,
        g.score,
        g.moves,
        g.status,
        g.can_undo,
        g.can_redo,
        g.pyramid,
        g.stock,
        g.wastes,
        g.discard,
    )


def test_a_fault_in_the_win_scoring_leaves_the_game_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    g = game("medium", bottom("5H", "8C"), stock=["2D"])
    g.play("draw")
    g.undo()  # something to redo, so a half-done move would lose it
    before = observed(g)

    def broken(self: Scoring, seconds: float) -> int:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(Scoring, "time_bonus", broken)
    with pytest.raises(RuntimeError, match="injected"):
        g.play("5H+8C")
    assert observed(g) == before
    monkeypatch.undo()
    g.play("5H+8C")
    assert g.is_over and g.score > 0


def test_a_fault_in_the_removal_scoring_leaves_the_game_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pyramid_widget.engine.game as game_module

    g = game("medium", bottom("5H", "8C", "KD"), stock=["2D"])
    before = observed(g)

    def broken(*args: object) -> object:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(game_module, "_removal_points", broken)
    for move in ("5H+8C", "KD"):
        with pytest.raises(RuntimeError, match="injected"):
            g.play(move)
        assert observed(g) == before


def test_a_scoring_field_forced_to_a_string_cannot_half_apply_a_move() -> None:
    rules = get_rules("medium").replace(name="faulty", scoring=dataclasses.replace(CLASSIC_SCORING))
    object.__setattr__(rules.scoring, "per_card", "5")  # past the validation, as a fault would be
    g = Game.from_position(rules, pyramid=bottom("5H", "8C", "KD"), stock=["2D"], clock=lambda: 0.0)
    before = observed(g)
    with pytest.raises(TypeError):
        g.play("5H+8C")
    assert observed(g) == before


def test_a_fault_in_redo_keeps_the_redo_list(monkeypatch: pytest.MonkeyPatch) -> None:
    import pyramid_widget.engine.game as game_module

    g = game("medium", bottom("5H", "8C", "KD"), stock=["2D"])
    g.play("KD")
    g.undo()
    before = observed(g)
    monkeypatch.setattr(game_module, "_removal_points", lambda *a: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        g.redo()
    assert observed(g) == before and g.can_redo


# -- egypt: each round's removals earn their points --------------------------------------


def test_egypt_pays_a_card_removed_again_in_a_later_round() -> None:
    g = Game.from_position("egypt", pyramid=[None] * 27 + ["KD"], stock=["2C"])
    g.play("KD")
    g.next_round()
    king = parse_card("KD")
    for _ in range(300):
        removals = [m for m in g.legal_moves if m.is_removal]
        with_king = [m for m in removals if king in m.cards]
        if with_king:
            before = g.score
            g.play(with_king[0])
            assert g.score - before >= 500
            return
        g.play(removals[0] if removals else next(iter(g.legal_moves)))
    pytest.fail("the King of diamonds never became removable in round 2")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_card_removed_alone_is_told_what_goes_alone_under_its_rules(preset: str) -> None:
    # Under cheops, the dozen and the triangle no card goes alone, Kings included: a learner
    # who clicks a Five twice there must not read "only a King is removed alone".
    g = Game(preset, deal=3)
    card = next(c for c in range(104) if rank(c) != KING and g.unavailable(c) is None)
    refusal = g.refusal(Move.king(card))
    assert refusal is not None and refusal.kind == "needs-partner"
    needs = f"the {card_long_name(card)} needs a partner"
    if g.rules.kings_alone:
        assert refusal.words == f"only a King is removed alone; {needs}"
    else:
        assert refusal.words == f"no card is removed alone under {preset}; {needs}"
    assert g.moves == 0
