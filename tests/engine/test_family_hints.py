"""The hint (the rule of thumb of :mod:`pyramid_widget.engine.hints`) in every game of the
family: always a legal move, read from the rule set's own layout and cards."""

from __future__ import annotations

import random

import pytest

from pyramid_widget import PRESETS, Game, Move
from pyramid_widget.engine.hints import hint
from tests.support.engine import slots


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_hint_is_a_legal_move_whenever_there_is_one(name: str) -> None:
    checked = 0
    for number in range(8):
        rng = random.Random(number)
        game = Game(name, number, clock=lambda: 0.0)
        for _ in range(80):
            moves = list(game.legal_moves)
            move = hint(game)
            assert (move is None) == (not moves), (name, number, game.history)
            checked += 1
            if move is None:
                break
            assert move in moves
            game.play(rng.choice(moves))
    assert checked > 80


def test_the_hint_counts_uncovered_cards_on_the_rule_sets_layout() -> None:
    # Triangle: 5H (27, the single bottom card) covers 9D (25) and 3S (26); 4D (21) covers
    # nothing still there. 5H+8C (stock top) uncovers two cards, 4D+9S (waste) none; the
    # classic pyramid's geometry would say the opposite.
    tableau = slots(28, p27="5H", p25="9D", p26="3S", p21="4D", p15="2C")
    game = Game.from_position("triangle", pyramid=tableau, stock=["8C"], wastes=[["9S"]])
    assert {Move.parse("5H+8C"), Move.parse("4D+9S")} <= set(game.legal_moves)
    assert str(hint(game)) == "5H+8C"


def test_the_hint_does_not_take_a_second_deck_card_for_a_king() -> None:
    tableau = slots(45, p44="5H'", p43="2C", p42="JD")
    game = Game.from_position("double_pyramid", pyramid=tableau, stock=["8C'"])
    assert str(hint(game)) == "2C+JD", "two pyramid cards beat one; 5H' is no King"
