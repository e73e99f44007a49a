"""``run_experiment`` plays every preset of the family, two-deck and reserve games included."""

from __future__ import annotations

import pytest

from pyramid_widget import PRESETS, Game, get_rules
from pyramid_widget.lab.experiments import pyramid_cards_left, run_experiment
from pyramid_widget.lab.strategies import play_game

NEW = list(PRESETS)[7:]


def test_the_family_is_there() -> None:
    assert len(NEW) == 14
    assert {"giza", "anubis", "dark_pyramid", "up_and_down"} <= set(NEW)


@pytest.mark.parametrize("name", NEW)
def test_run_experiment_plays_every_new_preset(name: str) -> None:
    rules = get_rules(name)
    results = run_experiment(name, ["greedy", "random"], games=8, seed=3, jobs=1, progress=False)
    assert len(results) == 16
    for row in results:
        assert row.result in ("won", "lost")
        assert row.cards_left is not None and row.cards_left_all is not None
        assert 0 <= row.cards_left <= rules.tableau_size
        assert row.cards_left <= row.cards_left_all <= rules.deck_size
        if row.won:
            assert row.cards_left == 0
            if rules.win == "all":
                assert row.cards_left_all == 0


@pytest.mark.parametrize("name", ["giza", "anubis", "pharaohs", "triangle"])
def test_pyramid_cards_left_counts_the_tableau_of_the_rules(name: str) -> None:
    """Played through the engine: the tableau cards still in the game at the end."""
    rules = get_rules(name)
    for deal in range(4):
        out = play_game("greedy", rules, deal, record=True)
        game = Game(rules, deal)
        for move in out.history:
            game.play(move)
        left = sum(card is not None for card in game.pyramid)
        assert pyramid_cards_left(deal, out, rules) == left
        assert out.cards_left == rules.deck_size - len(game.discard)
