"""Rule ``empty-stock`` (:class:`~pyramid_widget.solver.prune.endgame.EmptyStock`): the
search, within a number of moves, of the game left once the stock is dealt out on the last
pass, and the move-by-move A* that sends back the positions it finds no win for within their
level (and drops those it finds lost).

The truth is the plain breadth-first search of ``tests/solver/test_exhaustive.py``, on
random small positions with an empty stock: a few pyramid cards (some covering others),
their partners buried in the waste piles under other cards (Kings among them), sometimes a
card in the cell, and random moves on from there (parks of pyramid cards among them), under
``egypt``, ``egypt`` without its cell and two waste piles with a cell.
"""

from __future__ import annotations

import random

import pytest

from pyramid_widget import Game, RuleSet, get_rules
from pyramid_widget.engine.cards import KING, rank
from pyramid_widget.solver import solve
from pyramid_widget.solver.model import Model, State
from pyramid_widget.solver.moves import expand
from pyramid_widget.solver.prune import RULES_BY_ID
from pyramid_widget.solver.prune.endgame import NEVER, EmptyStock
from pyramid_widget.solver.search import Budget
from pyramid_widget.solver.shortest_moves import MoveBound, a_star
from tests.solver.test_exhaustive import reference
from tests.solver.test_pile_dig import walks
from tests.support.tier import seeds

EGYPT = get_rules("egypt")
RULES = {
    "egypt": EGYPT,
    "egypt-no-cell": EGYPT.replace(
        name="egypt-no-cell", cells=0, pair_zones=EGYPT.pair_zones - {"cell+pyramid", "cell+waste"}
    ),
    "two-piles-cell": EGYPT.replace(name="two-piles-cell", waste_piles=2, draw_count=2),
}


def empty_stock_position(rules: RuleSet, seed: int) -> Game:
    """Three or four bottom-row pyramid cards and up to two above them; most of their
    partners on the waste piles, each pile with zero to three other cards over and under
    them (Kings a third of the time); under a rule set with a cell, a deck card in it three
    times in ten; an empty stock on the last pass."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    pyramid: list[int | None] = [None] * 28
    for slot in [*range(rng.choice([24, 25]), 28), *rng.sample([19, 20], rng.randint(0, 2))]:
        pyramid[slot] = deck.pop()
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    for card in pyramid:
        mates = [c for c in deck if card is not None and rules.pairs(card, c)]
        if mates and rng.random() < 0.8:
            deck.remove(mates[0])
            wastes[rng.randrange(len(wastes))].append(mates[0])
    for pile in wastes:
        for _ in range(rng.randint(0, 3)):
            kings = [c for c in deck if rank(c) == KING]
            card = kings[0] if kings and rng.random() < 0.3 else deck[-1]
            deck.remove(card)
            pile.insert(rng.randint(0, len(pile)), card)
    cells: list[int | None] = [deck.pop() if rng.random() < 0.3 else None] if rules.cells else []
    return Game.from_position(
        rules, pyramid=pyramid, wastes=wastes, cells=cells, pass_number=rules.passes or 1
    )


def fresh(model: Model) -> EmptyStock:
    """The rule's search for ``model``, with the A*'s removal count plus its ``D`` (what the
    A* gives it: :meth:`MoveBound.settled`)."""
    return EmptyStock(model, MoveBound(model).settled)


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_empty_stock_game_is_searched_as_the_plain_search_finds(name: str) -> None:
    """Asked with its fewest moves, every position finds a line of that length; asked with
    fewer, it finds none and names the fewest as its bound (never more); a position the
    plain search cannot win is called lost outright. Both kinds turn up, and so do
    positions whose shortest win needs the cell (a copy with parks switched off gets them
    wrong), so parks and their follow-ups are tested too."""
    rules = RULES[name]
    counts = {True: 0, False: 0}
    without_parks = 0
    for seed, step, game in walks(empty_stock_position, rules, range(300), quick=120):
        model = Model.from_game(game).for_shortest()
        assert EmptyStock.applies(model), (name, seed)
        truth = reference(game)
        where = (name, seed, step, str(game))
        if truth is None:
            assert fresh(model).within(model.root, 60) == NEVER, where
        else:
            assert fresh(model).within(model.root, truth) == truth, where
            assert fresh(model).within(model.root, truth - 1) == truth, where
            assert truth - 1 <= fresh(model).within(model.root, truth - 2) <= truth, where
        counts[truth is not None] += 1
        no_parks = fresh(model)
        no_parks.cell = False
        budget = 60 if truth is None else truth
        without_parks += (no_parks.within(model.root, budget) <= budget) is (truth is None)
    assert counts[True] >= 40 and counts[False] >= 40, (name, counts)
    if rules.cells:
        assert without_parks >= 5, (name, without_parks)
    else:
        assert without_parks == 0


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_a_star_with_the_rule_finds_the_fewest_moves(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move-by-move A* sends back a level the positions the rule finds no win for within
    the level, and still finds the plain search's fewest moves (and ``None`` where there is
    no win); the rule sends positions back on the way in some of them."""
    rules = RULES[name]
    dropped = 0
    plain = EmptyStock.within

    def counting(self: EmptyStock, state: State, moves: int) -> int:
        nonlocal dropped
        need = plain(self, state, moves)
        dropped += need > moves
        return need

    monkeypatch.setattr(EmptyStock, "within", counting)
    for seed, step, game in walks(empty_stock_position, rules, range(300), quick=60):
        truth = reference(game)
        result = a_star(Model.from_game(game).for_shortest(), Budget(None, None))
        assert (len(result.line) if result.found else None) == truth, (name, seed, step)
        if truth is not None:
            assert len(solve(game, shortest=True).moves) == truth, (name, seed, step)
    assert dropped >= 5, (name, dropped)


def test_hand_built_positions() -> None:
    """A King in the cell goes and frees it; the cell used twice over; a pyramid card in the
    cell still has to go; a forced pair that is not available yet forces nothing."""

    def wins(**position: object) -> bool:
        game = Game.from_position("egypt", **position)  # type: ignore[arg-type]
        model = Model.from_game(game).for_shortest()
        assert EmptyStock.applies(model)
        verdict = fresh(model).within(model.root, 60) <= 60
        assert verdict is (reference(game) is not None), position
        return verdict

    bottom = [None] * 26 + ["5H", "9C"]
    # the King leaves the cell, so the 6C can be parked and the 4D freed
    assert wins(pyramid=bottom, wastes=[["8S", "4D", "6C"], [], []], cells=["KD"])
    # the cell twice: park the 6C, 4D+9C, 7D+6C (the cell is free again), park the 2C, 8S+5H
    assert wins(pyramid=bottom, wastes=[["8S", "2C", "7D", "4D", "6C"], [], []])
    # a parked card leaves the cell only by a removal: with no Seven the cell stays taken
    assert not wins(pyramid=bottom, wastes=[["8S", "6D", "4D", "6C"], [], []])
    # a pyramid card parked in the cell must still go, and its only partner is buried
    assert not wins(
        pyramid=[None] * 27 + ["9C"], wastes=[["8S", "4D", "6C", "6D"], [], []], cells=["5H"]
    )
    # the 8S is the 5H's one partner but lies under the 4D: pair 4D+9C first, then 8S+5H
    assert wins(pyramid=bottom, wastes=[["8S", "4D"], [], []])


def fewest(model: Model, state: State) -> int | None:
    """The fewest moves from ``state`` by fresh searches of growing budgets (``None``: lost)."""
    for moves in range(60):
        if fresh(model).within(state, moves) <= moves:
            return moves
    return None


def test_one_memo_for_a_solve_answers_as_fresh_searches_do() -> None:
    """One :class:`EmptyStock` answers for every position of a solve from its memo: along
    random walks of the model's own moves (parks of pyramid and waste cards among them),
    asked with several budgets, it says what fresh searches of each position say (won
    within the budget or not, and a bound never above the fewest moves), so no two
    positions or budgets share an answer they should not (a pyramid card and a deck card
    of one rank parked, the rest alike)."""
    asked = 0
    for seed in seeds(range(200), quick=80):
        game = empty_stock_position(EGYPT, seed)
        model = Model.from_game(game)
        model = model.for_shortest()
        shared = fresh(model)
        rng = random.Random(seed)
        for _ in range(6):
            state = model.root
            for _ in range(8):
                least = fewest(model, state)
                for moves in (2, 4, 60):
                    need = shared.within(state, moves)
                    assert (need <= moves) is (least is not None and least <= moves), seed
                    assert least is None or need <= moves or need <= least, seed
                    asked += 1
                children = expand(model, state)
                if not children:
                    break
                state = rng.choice(children)[1]
    assert asked >= 3000, asked


def test_a_covered_king_still_waits() -> None:
    """A King goes at once only when it is available: here the KD covers the 3C and is
    covered by the 9C and the 5H, whose partners lie under the TS, and the cell is taken
    for good, so the game is lost (removing the covered King would free the 3C for the TS
    and win)."""
    pyramid: list[str | None] = [None] * 28
    pyramid[14], pyramid[20], pyramid[26], pyramid[27] = "3C", "KD", "9C", "5H"
    game = Game.from_position(
        "egypt", pyramid=pyramid, wastes=[["8S", "4D", "TS"], [], []], cells=["6H"]
    )
    model = Model.from_game(game).for_shortest()
    assert reference(game) is None
    assert fresh(model).within(model.root, 60) == NEVER


def test_where_it_applies() -> None:
    egypt = Model.from_game(Game("egypt", deal=3))
    assert EmptyStock.applies(egypt)
    assert not EmptyStock.applies(Model.from_game(Game("apophis", deal=3)))  # every card goes
    assert not EmptyStock.applies(Model.from_game(Game("medium", deal=3)))  # macro moves
    cheops_piles = get_rules("cheops").replace(name="cheops-piles", waste_piles=3, draw_count=3)
    assert not EmptyStock.applies(Model.from_game(Game(cheops_piles, deal=3)))  # adjacent ranks
    rule = RULES_BY_ID["empty-stock"]
    assert rule.where[0].endswith("EmptyStock.within")
