"""One rule of thumb: the widget's first-level hint is exactly the ``greedy`` strategy's move.

Random walks through deals of every preset, and hand-made positions of any shape, compare the
engine's :func:`~pyramid_widget.engine.hints.hint` with ``greedy`` on the engine path (a
:class:`~pyramid_widget.lab.fastplay.FastGame` twin of the position) and, under classic rules,
with the fast playout's own direct pick. ``make test`` walks 12 deals of each classic preset
and 5 of each of the family's, and makes 80 positions by hand; ``pytest --thorough`` 30, 10
and 150.
"""

from __future__ import annotations

import random

import pytest

from pyramid_widget import PRESETS, Game, card_str
from pyramid_widget.engine.hints import hint
from pyramid_widget.lab.fastplay import FastGame
from pyramid_widget.lab.strategies import GREEDY, _classic_pick, _is_classic
from tests.support.tier import sized

DEALS = sized(30, quick=12)
WALK_LIMIT = 400


def check(game: Game, rng: random.Random) -> int:
    """Compare the hint with greedy in ``game``; returns 1 (one position checked)."""
    mine = hint(game)
    greedy = GREEDY(game, rng) if game.legal_moves else None
    assert mine == greedy, (game.rules.name, game.deal_number, [str(m) for m in game.history])
    if mine is not None and _is_classic(game.rules):
        fast = _classic_pick(FastGame.from_game(game))
        assert (mine.kind.value, mine.cards) == fast, (game.rules.name, game.history)
    return 1


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_hint_is_greedys_move_along_random_walks(preset: str) -> None:
    checked = 0
    family_deals = sized(10, quick=5)
    deals = DEALS if PRESETS[preset].classic_shape else family_deals
    for deal in range(deals):
        game, rng = Game(preset, deal), random.Random(deal)
        while not game.is_over and game.moves < WALK_LIMIT:
            checked += check(game, rng)
            game.play(rng.choice(sorted(game.legal_moves)))
        checked += check(game, rng)
    # many positions, not a handful (the family's stockless and one-pass games are short)
    assert checked > deals * (20 if PRESETS[preset].classic_shape else 5)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_hint_is_greedys_move_in_hand_made_positions(preset: str) -> None:
    """Sparse pyramids with gaps anywhere, a short stock: ties and odd shapes."""
    rng = random.Random(f"hand-made {preset}")
    rules = PRESETS[preset]
    size = rules.tableau_size
    checked = 0
    made = sized(150, quick=80)
    for _ in range(made):
        cards = [card_str(c) for c in rng.sample(range(rules.deck_size), 40)]
        pyramid: list[str | None] = [None] * size
        for p in rng.sample(range(size), rng.randint(1, 14)):
            pyramid[p] = cards.pop()
        stock = cards[: rng.randint(0, 8)] if rules.stock_size else []
        reserves = [[cards.pop()] for _ in range(rules.reserve_piles)]
        try:
            game = Game.from_position(preset, pyramid=pyramid, stock=stock, reserves=reserves)
        except ValueError:
            continue  # a shape this rule set refuses
        for _ in range(6):
            checked += check(game, rng)
            if game.is_over:
                break
            game.play(rng.choice(sorted(game.legal_moves)))
    assert checked > 2 * made
