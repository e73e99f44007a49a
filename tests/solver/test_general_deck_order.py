"""Rule ``g-deck-order`` of the general search against the plain exhaustive search.

The relaxation frees the tableau and keeps the deck's order, so it speaks where deck cards
must pair with each other in an order that crosses: the positions here are one to three
tableau cards and a deck of six to ten cards, every card with its partner somewhere
(pairs split between the tableau and the deck, or both in the deck), in some pass, for
every shape the rule applies to (one or two decks, one or several passes or unlimited, the
stock top available or not, the waste pair, draw three, a reserve). A position the rule
calls lost must be lost for the reference search (:func:`tests.solver.test_exhaustive.
reference`); the rule must fire often enough for that to mean something, and a variant
made unsound on purpose must be caught; and the whole general search, with the rule on,
must agree with the reference everywhere.
"""

from __future__ import annotations

import gc
import random

import pytest

from pyramid_widget import Game, RuleSet, get_rules
from pyramid_widget.engine.cards import KING, rank
from pyramid_widget.solver import general
from pyramid_widget.solver.general import GeneralModel, deck_order, emptied_order
from pyramid_widget.solver.search import Budget
from tests.solver.test_exhaustive import reference
from tests.solver.test_family_exhaustive import (
    assert_lost_where_called_lost,
    decide_agrees,
    random_walk,
    tableau_patch,
    take_mate,
)
from tests.support.tier import seeds

_GIZA = get_rules("giza")
RULES: dict[str, RuleSet] = {
    "double_pyramid": get_rules("double_pyramid"),
    "two-deck-one-pass": get_rules("double_pyramid").replace(name="two-deck-one-pass", passes=1),
    "up_and_down": get_rules("up_and_down"),
    "traditional": get_rules("traditional"),
    "triangle": get_rules("triangle"),
    "thirteen": get_rules("thirteen"),
    "thirteen-two-passes": get_rules("thirteen").replace(name="thirteen-two-passes", passes=2),
    "medium-all": get_rules("medium").replace(name="medium-all", win="all"),
    "king-tut-all": get_rules("king_tut").replace(name="king-tut-all", win="all"),
    "reserve-stock": _GIZA.replace(
        name="reserve-stock",
        reserve_piles=2,
        reserve_depth=2,
        passes=2,
        stock_top_available=True,
        stock_face_up=True,
        pair_zones=_GIZA.pair_zones
        | {"pyramid+waste", "reserve+waste", "pyramid+stock", "reserve+stock", "stock+waste"},
    ),
}
"""Rule sets the rule applies to: every card must go, one waste pile, no free cell."""


def order_position(rules: RuleSet, seed: int) -> Game:
    """A small position of ``rules`` where the deck's order matters: a patch of one to three
    tableau cards, each with a partner in the deck, and two to four pairs (or Kings) in the
    deck alone, shuffled, some of it already drawn, in a random pass."""
    rng = random.Random(seed)
    deck = list(range(rules.deck_size))
    rng.shuffle(deck)
    tableau = tableau_patch(rules, rng, deck, (0, 2))
    loose: list[int] = []
    for card in [c for c in tableau if c is not None]:
        mate = take_mate(rules, deck, card)
        if mate is not None:
            loose.append(mate)
        else:  # a King goes alone
            assert rank(card) == KING
    while len(loose) < rng.randint(6, 10):
        card = deck.pop()
        loose.append(card)
        mate = take_mate(rules, deck, card)
        if mate is not None:
            loose.append(mate)
    rng.shuffle(loose)
    drawn = rng.randint(0, len(loose) // 2)
    waste, stock = loose[:drawn], loose[drawn:]
    passes = rules.passes or 3
    reserves: list[list[int]] = [[] for _ in range(rules.reserve_piles)]
    return Game.from_position(
        rules,
        pyramid=tableau,
        stock=stock[::-1],  # the stock's last card is its top: ``stock`` is in drawing order
        wastes=[waste],
        reserves=reserves,
        pass_number=rng.randint(1, passes) if rules.passes is not None else 1,
    )


SEEDS = seeds(range(200), quick=50)
"""Positions per shape: 50 in the quick tier, 200 with ``--thorough``."""


@pytest.mark.parametrize("name", sorted(RULES))
def test_a_position_the_deck_order_calls_lost_is_lost(name: str) -> None:
    rules = RULES[name]
    games = (order_position(rules, seed) for seed in SEEDS)
    fired = assert_lost_where_called_lost(games, deck_order)
    assert fired >= 5, (name, fired)


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_general_search_with_the_deck_order_agrees_with_plain_search(name: str) -> None:
    rules = RULES[name]
    verdicts = {decide_agrees(order_position(rules, seed), (name, seed)) for seed in SEEDS}
    # where two deck cards never meet (no stock top, no waste pair) every deck card needs
    # a tableau card, which these positions seldom hold: all lost, and agreed
    deck_pairs = rules.waste_pair or (
        rules.stock_top_available and rules.zones_pair("waste", "stock")
    )
    assert verdicts == ({True, False} if deck_pairs else {False}), (name, verdicts)


@pytest.mark.parametrize("memo", [general.DECK_ORDER_MEMO, 1])
@pytest.mark.parametrize("name", ["double_pyramid", "two-deck-one-pass", "triangle"])
def test_the_search_asks_the_deck_order_where_the_waste_is_empty(
    name: str, memo: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """:func:`emptied_order` answers as the rule itself where the waste is empty, whatever the
    pass (its memory keys on the board alone), and asks nothing elsewhere; its memory
    cleared after every board (a bound of 1) changes no answer."""
    monkeypatch.setattr(general, "DECK_ORDER_MEMO", memo)
    rules, rng = RULES[name], random.Random(name)
    asked = lost = 0
    for seed in SEEDS:
        model = GeneralModel.from_game(order_position(rules, seed))
        emptied, check = emptied_order(model), deck_order(model)
        assert emptied is not None and check is not None
        for state in random_walk(model, rng, 12) * 2:  # the second time from its memory
            board, lo, piles, cells, pno, flag = state
            if board & model.deck_all & ((1 << lo) - 1):
                assert emptied(state), (name, seed, state)
                continue
            asked += 1
            truth = check(state)
            lost += not truth
            assert emptied(state) == truth, (name, seed, state)
            if rules.passes is not None and pno > 1:  # an earlier pass, the same board
                assert emptied((board, lo, piles, cells, pno - 1, flag)) == truth
    assert asked >= 50 and lost >= 10, (name, asked, lost)


def test_a_question_leaves_no_cyclic_garbage() -> None:
    """The search asks the rule thousands of times a second with the cyclic collector paused
    (:func:`pyramid_widget.solver.search.collector_paused`): a question whose tables only
    that collector could free made a 10 s solve of Double Pyramid grow to 1.1 GB."""
    model = GeneralModel.from_game(Game("triangle", deal=279))
    check = deck_order(model)
    assert check is not None
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        assert [check(model.root) for _ in range(20)] == [False] * 20
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_these_positions_catch_the_rule_made_unsound() -> None:
    """Taking the waste for a fixed stack although a redeal is left (the rule's last-pass
    strengthening one pass too early) calls winnable positions lost, and the positions
    above show it."""
    rules = RULES["double_pyramid"]
    caught = 0
    for seed in SEEDS:
        game = order_position(rules, seed)
        model = GeneralModel.from_game(game)
        board, lo, piles, cells, pno, flag = model.root
        check = deck_order(model)
        assert check is not None
        if pno < 3 and not check((board, lo, piles, cells, 3, flag)) and reference(game):
            caught += 1
    assert caught >= 3, caught


def test_the_deck_order_does_not_apply_where_its_argument_does_not_hold() -> None:
    for name in ("anubis", "eleven_triangle", "egypt", "medium", "pyramid_dozen", "giza"):
        assert deck_order(GeneralModel.from_game(Game(name, deal=0))) is None, name


@pytest.mark.parametrize(
    ("name", "deal"),
    [("two_pyramids", 115), ("up_and_down", 115), ("double_pyramid", 115)],
)
def test_deals_whose_deck_order_loses_are_proved_lost_at_the_root(name: str, deal: int) -> None:
    """Deals 0-199 of the two-deck games held four the search could not decide in 60 s:
    their decks cross (Two Pyramids' 115 ends in six 3s and 5s whose partners come early)."""
    model = GeneralModel.from_game(Game(name, deal=deal))
    check = deck_order(model)
    assert check is not None and not check(model.root)


def test_a_deal_won_only_with_the_rule_asked_where_the_waste_is_empty() -> None:
    """Double Pyramid's deal 69 was unknown after 570 s of search with the rule asked at the
    root only; asked wherever the waste is empty, the search wins it within 60,000 positions
    (a count, so the same on any machine), with a line the engine plays to a win."""
    game = Game("double_pyramid", deal=69)
    result = general.decide(GeneralModel.from_game(game), Budget(60_000, None))
    assert result.found is True
    for move in result.line:
        game.play(move)
    assert game.status.value == "won"
