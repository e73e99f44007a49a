"""Rule ``g-waste-stack`` of the general search against the plain exhaustive search.

The relaxation keeps the tableau's covering and the waste's order and frees the stock, so
it says most on the last pass with a deep waste: the positions here are small tableau
patches with three to six waste cards and a short stock, on the last pass, for every
shape the rule applies to (draw one or three, the waste pair, the stock top, overlap
discards, a pyramid-only or an all-cards win, the inverted triangle). A position the rule
calls lost must be lost for the reference search (:func:`tests.solver.test_exhaustive.
reference`); the rule must fire often enough for that to mean something; and the whole
general search, with the rule on, must agree with the reference everywhere.
"""

from __future__ import annotations

import random

import pytest

from pyramid_widget import Game, RuleSet, get_rules
from pyramid_widget.solver import general
from pyramid_widget.solver.general import GeneralModel, waste_stack
from tests.solver.test_family_exhaustive import (
    assert_lost_where_called_lost,
    decide_agrees,
    random_walk,
    tableau_patch,
)

RULES: dict[str, tuple[RuleSet, int]] = {
    "thirteen": (get_rules("thirteen"), 1),
    "thirteen-pyramid": (get_rules("thirteen").replace(name="thirteen-pyramid", win="pyramid"), 1),
    "thirteen-draw-three": (
        get_rules("thirteen").replace(name="thirteen-draw-three", draw_count=3, passes=2),
        2,
    ),
    "traditional": (get_rules("traditional"), 1),
    "traditional-pyramid": (
        get_rules("traditional").replace(name="traditional-pyramid", win="pyramid"),
        1,
    ),
    "triangle-last-pass": (get_rules("triangle"), 3),
    "tuts-one-pass": (
        get_rules("tuts_tomb").replace(name="tuts-one-pass", passes=1, stall_rule=False),
        1,
    ),
    "tuts-all-one-pass": (
        get_rules("tuts_tomb").replace(
            name="tuts-all-one-pass", passes=1, stall_rule=False, win="all", draw_count=1
        ),
        1,
    ),
    "king-tut-one-pass": (
        get_rules("king_tut").replace(name="king-tut-one-pass", passes=1, stall_rule=False),
        1,
    ),
}
"""Rule sets the rule applies to, with the pass the positions are in (the last)."""


def stack_position(rules: RuleSet, last_pass: int, seed: int) -> Game:
    """A small position of ``rules`` on its last pass: a patch of two to five tableau cards
    covering each other, three to six waste cards (partners of tableau cards and of each
    other among them) and up to four stock cards."""
    rng = random.Random(seed)
    deck = list(range(rules.deck_size))
    rng.shuffle(deck)
    tableau = tableau_patch(rules, rng, deck, (1, 4))
    loose: list[int] = []
    for card in [c for c in tableau if c is not None]:
        mates = [c for c in deck if rules.pairs(card, c)]
        if mates and rng.random() < 0.9:
            loose.append(mates[0])
            deck.remove(mates[0])
    while len(loose) < 5:
        card = deck.pop()
        loose.append(card)
        mates = [c for c in deck if rules.pairs(card, c)]
        if mates and rng.random() < 0.6:
            loose.append(mates[0])
            deck.remove(mates[0])
    rng.shuffle(loose)
    cut = rng.randint(3, min(6, len(loose)))
    waste, stock = loose[:cut], loose[cut : cut + 4]
    return Game.from_position(
        rules, pyramid=tableau, stock=stock, wastes=[waste], pass_number=last_pass
    )


SEEDS = range(60)


@pytest.mark.parametrize("name", sorted(RULES))
def test_a_position_the_waste_stack_calls_lost_is_lost(name: str) -> None:
    rules, last_pass = RULES[name]
    games = (stack_position(rules, last_pass, seed) for seed in SEEDS)
    fired = assert_lost_where_called_lost(games, waste_stack)
    assert fired >= 5, (name, fired)


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_general_search_with_the_waste_stack_agrees_with_plain_search(name: str) -> None:
    rules, last_pass = RULES[name]
    verdicts = set()
    for seed in SEEDS:
        verdicts.add(decide_agrees(stack_position(rules, last_pass, seed), (name, seed)))
    assert verdicts == {True, False}, (name, verdicts)


def test_the_waste_stack_does_not_apply_with_redeals_left_or_several_piles() -> None:
    assert waste_stack(GeneralModel.from_game(Game("tuts_tomb", deal=0))) is None
    assert waste_stack(GeneralModel.from_game(Game("eleven_triangle", deal=0))) is None
    assert waste_stack(GeneralModel.from_game(Game("giza", deal=0))) is None
    model = GeneralModel.from_game(Game("triangle", deal=0))
    check = waste_stack(model)
    assert check is not None and check(model.root)  # first pass of three: no verdict


def _memo_of(check: object) -> dict[int, bool]:
    """The memory of a :func:`waste_stack` test (a closure of its inner ``wins``)."""
    code, closure = check.__code__, check.__closure__  # type: ignore[attr-defined]
    wins = dict(zip(code.co_freevars, closure, strict=True))["wins"].cell_contents
    inner = dict(zip(wins.__code__.co_freevars, wins.__closure__, strict=True))
    memo: dict[int, bool] = inner["memo"].cell_contents
    return memo


def test_the_waste_stack_memory_is_bounded_and_clearing_it_changes_no_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past ``WASTE_STACK_MEMO`` positions the memory is cleared before the next question
    (unbounded it once held 87 million); every answer is the same either way."""
    model = GeneralModel.from_game(Game("traditional", deal=3))  # one pass: always asked
    rng = random.Random(7)
    states = []
    for _ in range(40):  # random playouts, to their end, where positions are lost
        states += random_walk(model, rng)
    check = waste_stack(model)
    assert check is not None
    plain = [check(state) for state in states]
    assert len(_memo_of(check)) > 3
    monkeypatch.setattr(general, "WASTE_STACK_MEMO", 3)
    small = waste_stack(model)
    assert small is not None
    for state, answer in zip(states, plain, strict=True):
        assert small(state) is answer
        assert len(_memo_of(small)) <= 3 + general.WASTE_STACK_STEPS + 1
    assert False in plain and True in plain
