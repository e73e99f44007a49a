"""The fair strategies never read a face-down card.

In Dark Pyramid and Thirteen rows 1-6 of the pyramid are dealt face down, and during the
first pass the stock is face down too. For many positions along random walks, the cards the
player has not seen (the face-down pyramid cards, and on the first pass the stock) are
shuffled among their places, the same moves are replayed on that deal, and the strategy is
asked again with the same random generator: a fair strategy picks the same move. A strategy
that peeks is caught by the same check (the last test), so the check can fail.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from pyramid_widget import Game, Move, get_rules
from pyramid_widget.engine.deals import deal_from_number
from pyramid_widget.lab.fastplay import FastGame
from pyramid_widget.lab.strategies import GREEDY, LOOKAHEAD, RANDOM
from tests.support.tier import sized

StrategyFn = Callable[[Game, random.Random], "Move | str"]


def unseen_places(game: Game, deal: list[int]) -> list[int]:
    """Indices into ``deal`` of the cards the player has not seen in ``game``: the face-down
    pyramid positions, and (first pass, face-down stock) the cards still in the stock."""
    fg = FastGame.from_game(game)
    places = list(fg.hidden())
    rules = game.rules
    if fg.pass_number == 1:
        shown = 1 if rules.stock_face_up and fg.stock else 0
        unseen = fg.stock[: len(fg.stock) - shown]
        places += [deal.index(card) for card in unseen]
    return places


def shuffled_twin(game: Game, deal: list[int], rng: random.Random) -> Game | None:
    """The same moves replayed on ``deal`` with the unseen cards shuffled among their places
    (``None`` when fewer than two cards are unseen, or the shuffle moved no card)."""
    places = unseen_places(game, deal)
    if len(places) < 2:
        return None
    cards = [deal[i] for i in places]
    moved = cards.copy()
    while moved == cards:
        rng.shuffle(moved)
    twin_deal = deal.copy()
    for i, card in zip(places, moved, strict=True):
        twin_deal[i] = card
    twin = Game(game.rules, twin_deal, clock=lambda: 0.0)
    for move in game.history:
        twin.play(move)
    return twin


def disagreements(rules: str, strategy: StrategyFn, deals: int, every: int) -> tuple[int, int]:
    """(positions checked, positions where the strategy's move changed)."""
    checked = changed = 0
    for number in range(deals):
        deal = list(deal_from_number(number))
        game, walk = Game(rules, deal, clock=lambda: 0.0), random.Random(number)
        step = 0
        while not game.is_over:
            if step % every == 0:
                twin = shuffled_twin(game, deal, random.Random(f"{number} {step}"))
                if twin is not None:
                    seed = number * 1000 + step
                    here = strategy(game, random.Random(seed))
                    there = strategy(twin, random.Random(seed))
                    checked += 1
                    changed += str(here) != str(there)
            game.play(walk.choice(sorted(game.legal_moves)))
            step += 1
    return checked, changed


@pytest.mark.parametrize("rules", ["dark_pyramid", "thirteen"])
@pytest.mark.parametrize(
    ("strategy", "deals", "every"),
    [
        (GREEDY, sized(40, quick=12), 1),
        (RANDOM, sized(40, quick=10), 1),
        (LOOKAHEAD, 6, 4),
    ],
)
def test_fair_strategies_do_not_read_hidden_cards(
    rules: str, strategy: StrategyFn, deals: int, every: int
) -> None:
    """Deals 0..deals-1: the quick tier takes the first 10-12 for greedy and random,
    ``--thorough`` all 40."""
    checked, changed = disagreements(rules, strategy, deals, every)
    assert checked >= (7 if strategy is not LOOKAHEAD else 4) * deals
    assert changed == 0


def test_the_twin_really_differs_in_hidden_cards_only() -> None:
    game = Game("dark_pyramid", 5, clock=lambda: 0.0)
    for _ in range(6):
        game.play(sorted(game.legal_moves)[0])
    deal = list(deal_from_number(5))
    twin = shuffled_twin(game, deal, random.Random(1))
    assert twin is not None
    hidden = set(FastGame.from_game(game).hidden())
    assert hidden
    differ = {p for p in range(28) if game.pyramid[p] != twin.pyramid[p]}
    assert differ <= hidden
    assert differ or game.stock != twin.stock
    assert sorted(game.legal_moves) == sorted(twin.legal_moves)
    assert list(game.wastes) == list(twin.wastes)


def test_a_strategy_that_peeks_is_caught() -> None:
    """A strategy reading the face-down apex card changes its move when it changes."""

    def peeker(game: Game, rng: random.Random) -> Move:
        moves = sorted(game.legal_moves)
        apex = game.pyramid[0]
        return moves[(apex or 0) % len(moves)]

    checked, changed = disagreements("dark_pyramid", peeker, 10, 1)
    assert checked > 50 and changed > 0


def test_the_rules_have_face_down_cards() -> None:
    assert get_rules("dark_pyramid").has_hidden and get_rules("thirteen").has_hidden
