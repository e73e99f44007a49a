"""The solver against the plain exhaustive search on small positions of every new shape of
issue 18: inverted triangle, several pyramids, the 9-row pyramid, reserves, two decks,
overlap discards, the waste pair, sum-11 and sum-12 pairing, ``by-pile`` redeals.

The truth is :func:`tests.solver.test_exhaustive.reference` (engine moves on engine games,
breadth first): every verdict must agree, every line replay to a win, and a line called
shortest must have the reference's length. This is what checks the pruning rules of
:mod:`pyramid_widget.solver.general` (``g-reach``, ``g-hall``, ``g-lone-first``,
``g-forced-pair``, ``g-cycle``; ``g-waste-stack`` has its own file) on each shape.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from pyramid_widget import PRESETS, Game, RuleSet, get_rules
from pyramid_widget.solver import Verdict, general, solve
from pyramid_widget.solver.general import GeneralModel, Generator, decide, fits_classic
from pyramid_widget.solver.search import Budget
from tests.solver.test_exhaustive import reference
from tests.support.tier import seeds

NEW = [name for name, rules in PRESETS.items() if not fits_classic(rules)]
CUSTOM = {
    "triangle-by-pile": get_rules("eleven_triangle").replace(
        name="triangle-by-pile", redeal_order="by-pile", passes=2
    ),
    "overlap-all": get_rules("tuts_tomb").replace(
        name="overlap-all", draw_count=1, passes=2, win="all", stall_rule=False
    ),
    "waste-pair-three": get_rules("thirteen").replace(
        name="waste-pair-three", draw_count=3, passes=2
    ),
    "reserve-stock": get_rules("giza").replace(
        name="reserve-stock",
        reserve_piles=2,
        reserve_depth=3,
        passes=2,
        stock_top_available=True,
        stock_face_up=True,
        pair_zones=get_rules("giza").pair_zones
        | {"pyramid+waste", "reserve+waste", "pyramid+stock", "reserve+stock", "stock+waste"},
    ),
    "pyramid-reserve": get_rules("giza").replace(name="pyramid-reserve", win="pyramid"),
    "two-deck-piles": get_rules("anubis").replace(name="two-deck-piles", passes=1),
    "overlap-stall-passes": get_rules("tuts_tomb").replace(
        name="overlap-stall-passes", passes=2, draw_count=1
    ),
    "overlap-stall-draw-one": get_rules("tuts_tomb").replace(
        name="overlap-stall-draw-one", draw_count=1
    ),
    # unlimited passes, the cycle walk of rule g-cycle: draw three (the light walk) with and
    # without the stall rule, with every card to go; the full walk with the stock top, the
    # waste pair, a reserve
    "king-tut-no-stall": get_rules("king_tut").replace(name="king-tut-no-stall", stall_rule=False),
    "king-tut-all": get_rules("king_tut").replace(name="king-tut-all", win="all"),
    "cycle-stock-top": get_rules("traditional").replace(
        name="cycle-stock-top", passes=None, draw_count=3
    ),
    "cycle-waste-pair": get_rules("thirteen").replace(name="cycle-waste-pair", passes=None),
    # Kings that go alone and pair too: two Kings may leave in one move (rule g-bound)
    "sum11-kings-all": get_rules("king_tut").replace(
        name="sum11-kings-all", pairing="sum11", win="all"
    ),
    "adjacent-kings-giza": get_rules("giza").replace(
        name="adjacent-kings-giza", pairing="adjacent", kings_alone=True
    ),
    "cycle-reserve": get_rules("giza").replace(
        name="cycle-reserve",
        reserve_piles=2,
        reserve_depth=2,
        passes=None,
        draw_count=3,
        pair_zones=get_rules("giza").pair_zones | {"pyramid+waste", "reserve+waste"},
    ),
}
RULES = {**{name: PRESETS[name] for name in NEW}, **CUSTOM}


def tableau_patch(
    rules: RuleSet, rng: random.Random, deck: list[int], more: tuple[int, int]
) -> list[int | None]:
    """A patch of tableau cards dealt from the end of ``deck``: a bottom card, then between
    ``more[0]`` and ``more[1]`` more picks next to the patch (each, 70% of the time, a place
    covering a chosen one, else any place), so the cards cover each other and gaps are
    allowed."""
    layout = rules.layout
    covers = [
        [q for q in range(layout.size) if p in layout.covered_by[q]] for p in range(layout.size)
    ]
    chosen = {rng.choice(layout.bottom)}
    for _ in range(rng.randint(*more)):
        p = rng.choice(sorted(chosen))
        options = covers[p] if covers[p] and rng.random() < 0.7 else range(layout.size)
        chosen.add(rng.choice(list(options)))
    tableau: list[int | None] = [None] * layout.size
    for p in chosen:
        tableau[p] = deck.pop()
    return tableau


def decide_agrees(game: Game, label: object) -> bool:
    """The general search decides ``game`` as the plain search does, and a line it finds
    wins when replayed on the engine; returns whether it is winnable."""
    truth = reference(game)
    result = decide(GeneralModel.from_game(game), Budget(None, None))
    assert result.found is (truth is not None), (label, str(game), truth)
    if result.found:
        replay = game.copy()
        for move in result.line:
            replay.play(move)
        assert replay.status.value == "won", label
    return result.found


def take_mate(rules: RuleSet, deck: list[int], card: int) -> int | None:
    """The first card of ``deck`` that pairs with ``card``, taken out of ``deck`` (``None``
    when none does)."""
    mate = next((c for c in deck if rules.pairs(card, c)), None)
    if mate is not None:
        deck.remove(mate)
    return mate


def random_walk(
    model: GeneralModel, rng: random.Random, steps: int | None = None
) -> list[tuple[Any, ...]]:
    """The positions of one random walk of the general search's moves from ``model``'s
    root, the root first: ``steps`` moves, or to a position without moves."""
    expand = Generator(model).expand
    state, seen = model.root, [model.root]
    while steps is None or len(seen) <= steps:
        children = expand(state)
        if not children:
            break
        state = rng.choice(children)[1]
        seen.append(state)
    return seen


def assert_lost_where_called_lost(
    games: Iterable[Game], test_of: Callable[[GeneralModel], Callable[[Any], bool] | None]
) -> int:
    """For a relaxation (``test_of(model)``: a test of positions, which must apply here):
    every game whose root it calls lost is lost for the plain search. Returns how many it
    called lost, for the caller to check that the rule fired."""
    fired = 0
    for game in games:
        model = GeneralModel.from_game(game)
        check = test_of(model)
        assert check is not None, game.rules.name
        if not check(model.root):
            fired += 1
            assert reference(game) is None, (game.rules.name, str(game))
    return fired


def family_position(rules: RuleSet, seed: int) -> Game:
    """A random small position of ``rules``' shape: a few tableau cards in a patch where
    they cover each other (gaps allowed), a card or two in some reserve piles, a short stock
    holding partners of some of them, maybe a waste card."""
    rng = random.Random(seed)
    deck = list(range(rules.deck_size))
    rng.shuffle(deck)
    layout = rules.layout
    tableau = tableau_patch(rules, rng, deck, (2, 5))
    reserves: list[list[int]] = [[] for _ in range(rules.reserve_piles)]
    for pile in rng.sample(reserves, min(len(reserves), 2)):
        for _ in range(rng.randint(1, min(2, rules.reserve_depth))):
            pile.append(deck.pop())
    placed = [c for c in tableau if c is not None] + [c for pile in reserves for c in pile]
    stock: list[int] = []
    has_stock = rules.stock_size > 0
    for card in placed:
        mates = [c for c in deck if rules.pairs(card, c)]
        if mates and rng.random() < 0.85:
            mate = mates[0]
            deck.remove(mate)
            free = [p for p in layout.bottom if tableau[p] is None]
            if has_stock:
                if len(stock) < 5:
                    stock.append(mate)
            elif rules.reserve_piles:
                rng.choice(reserves).append(mate)
            elif free:
                tableau[rng.choice(free)] = mate
    if has_stock:
        stock += [deck.pop() for _ in range(rng.randint(0, 1))]
    rng.shuffle(stock)
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    if stock and rng.random() < 0.3:
        wastes[0].append(stock.pop())
    return Game.from_position(rules, pyramid=tableau, stock=stock, wastes=wastes, reserves=reserves)


def _check(game: Game, shortest: bool) -> Verdict:
    truth = reference(game)
    solution = solve(game, shortest=shortest)
    assert solution.winnable is (truth is not None), (game.rules.name, str(game), truth)
    if truth is None:
        assert solution.verdict is Verdict.UNWINNABLE and not solution.moves
        return solution.verdict
    replay = game.copy()
    for move in solution.moves:
        replay.play(move)
    assert replay.status.value == "won"
    if shortest:
        assert solution.shortest
        assert len(solution.moves) == truth, (game.rules.name, str(game))
    return solution.verdict


def test_the_new_presets_are_all_routed_here() -> None:
    assert sorted(NEW) == sorted(
        [
            "king_tut",
            "tuts_tomb",
            "traditional",
            "thirteen",
            "giza",
            "pyramid_dozen",
            "triangle",
            "eleven_triangle",
            "pharaohs",
            "anubis",
            "double_pyramid",
            "two_pyramids",
            "up_and_down",
        ]
    )


@pytest.mark.parametrize("name", sorted(RULES))
def test_decision_agrees_with_plain_search(name: str) -> None:
    rules = RULES[name]
    verdicts = {_check(family_position(rules, seed), shortest=False) for seed in range(40)}
    assert verdicts == {Verdict.WINNABLE, Verdict.UNWINNABLE}, verdicts


@pytest.mark.parametrize("name", sorted(RULES))
def test_shortest_matches_plain_search(name: str) -> None:
    rules = RULES[name]
    for seed in range(100, 115):
        _check(family_position(rules, seed), shortest=True)


#: The two-deck rule sets, each also with one pass (so that the deck's order loses some
#: deals), and one with unlimited passes (Luby's restarts then share the positions they
#: proved lost, rule ``g-cycle-lost``).
TWO_DECKS = {
    **{name: rules for name, rules in RULES.items() if rules.decks > 1},
    **{
        f"{name}-one-pass": rules.replace(name=f"{name}-one-pass", passes=1)
        for name, rules in RULES.items()
        if rules.decks > 1 and rules.passes != 1
    },
    "two-deck-cycle": get_rules("anubis").replace(
        name="two-deck-cycle", passes=None, stall_rule=True
    ),
}


def ordered_position(rules: RuleSet, seed: int) -> Game:
    """A small two-deck position that only the order of the deck can lose: a few tableau
    cards in a patch, a partner of each in the stock, and a pair or two more there (so no
    relaxation at the root proves it lost, and the search must run)."""
    rng = random.Random(seed)
    deck = list(range(rules.deck_size))
    rng.shuffle(deck)
    tableau = tableau_patch(rules, rng, deck, (3, 6))
    stock: list[int] = []
    for card in [c for c in tableau if c is not None] + [None] * rng.randint(0, 2):
        if card is None:  # a pair in the stock
            card = deck.pop()
            stock.append(card)
        mate = take_mate(rules, deck, card)
        if mate is not None:
            stock.append(mate)
    rng.shuffle(stock)
    return Game.from_position(rules, pyramid=tableau, stock=stock)


@pytest.mark.parametrize("name", sorted(TWO_DECKS))
def test_two_decks_restarts_cut_off_early_agree_with_plain_search(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a unit of two positions the two-deck searches are cut off again and again (a
    search cut off proves nothing); the verdict comes from the first that finishes."""
    monkeypatch.setattr(general, "RESTART_UNIT", 2)
    rules = TWO_DECKS[name]
    tried = seeds(range(30), quick=12)
    verdicts = {decide_agrees(ordered_position(rules, seed), (name, seed)) for seed in tried}
    assert True in verdicts
    if name.endswith("-one-pass"):
        assert False in verdicts, "no deal the deck's order loses"
