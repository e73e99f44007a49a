"""Rule ``bound-dig`` (:class:`~pyramid_widget.solver.shortest_moves.PileDig` and the
clearing-order counts of :class:`~pyramid_widget.solver.shortest_moves.MoveBound`): the
moves spent digging partners out of the waste piles, and the pairs no clearing order can
make, never make the move-by-move A*'s bound exceed the true fewest moves.

The truth is the plain breadth-first search of ``tests/solver/test_exhaustive.py``, on
random small positions whose waste piles hold the pyramid cards' partners under other cards
(some of them Kings, some with no partner left, some with pyramid partners), with a short
stock, sometimes a card in the cell, and random walks from there. The checks also require
positions where the new term counts and the whole bound is exact, so a bound raised by one
there would fail them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from pyramid_widget import Game, RuleSet, get_rules
from pyramid_widget.engine.cards import KING, rank
from pyramid_widget.solver import solve
from pyramid_widget.solver.model import PYRAMID_ALL, Model
from pyramid_widget.solver.shortest_moves import MoveBound, PileDig, deal_bound, pyramid_moves
from tests.solver.test_exhaustive import reference
from tests.support.engine import shuffled_corner
from tests.support.tier import seeds

RULES = {
    "egypt": get_rules("egypt"),
    "egypt-no-cell": get_rules("egypt").replace(
        name="egypt-no-cell",
        cells=0,
        pair_zones=get_rules("egypt").pair_zones - {"cell+pyramid", "cell+waste"},
    ),
    "two-waste-one-pass": get_rules("medium").replace(
        name="two-waste-one-pass", waste_piles=2, draw_count=2, passes=1
    ),
    "draw-three-two-passes": get_rules("medium").replace(
        name="draw-three-two-passes", draw_count=3, passes=2
    ),
}


def piled_position(rules: RuleSet, seed: int) -> Game:
    """Two to four bottom-row pyramid cards; their partners buried in the waste piles under
    one to three other cards each; a stock of up to three cards; under a rule set with a
    cell, sometimes a card in it; the last pass, or under two passes either pass."""
    rng = random.Random(seed)
    deck, pyramid = shuffled_corner(rng)
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    for card in pyramid:
        if card is None:
            continue
        mates = [c for c in deck if rules.pairs(card, c)]
        if mates and rng.random() < 0.85:
            deck.remove(mates[0])
            wastes[rng.randrange(len(wastes))].append(mates[0])
    for pile in wastes:
        for _ in range(rng.randint(0, 2)):  # over the partners: Kings half the time
            kings = [c for c in deck if rank(c) == KING]
            card = kings[0] if kings and rng.random() < 0.5 else deck[-1]
            deck.remove(card)
            pile.append(card)
    stock = [deck.pop() for _ in range(rng.randint(0, 3))]
    cells: list[int | None] = [deck.pop() if rng.random() < 0.3 else None] if rules.cells else []
    passes = rules.passes or 1
    return Game.from_position(
        rules,
        pyramid=pyramid,
        stock=stock,
        wastes=wastes,
        cells=cells,
        pass_number=passes if rng.random() < 0.75 else 1,
    )


def with_cell(
    rules: RuleSet,
    rng: random.Random,
    deck: list[int],
    pyramid: list[int | None],
    stock: list[int],
    wastes: list[list[int]],
    pass_number: int,
) -> Game:
    """The position of these cards; under a rule set with a cell, a card of ``deck`` in it
    three times in ten."""
    cells: list[int | None] = [deck.pop() if rng.random() < 0.3 else None] if rules.cells else []
    return Game.from_position(
        rules, pyramid=pyramid, stock=stock, wastes=wastes, cells=cells, pass_number=pass_number
    )


def bound_parts(game: Game) -> tuple[int, int]:
    """``(the A*'s whole bound, PileDig's count)`` at the position of ``game``."""
    model = Model.from_game(game).for_shortest()
    bound = MoveBound(model)
    assert bound.dig is not None
    return bound(model.root), bound.dig.extra(model.root)


def walks(
    make: Callable[[RuleSet, int], Game], rules: RuleSet, numbers: range, quick: int
) -> Iterator[tuple[int, int, Game]]:
    """``(seed, step, game)`` for each position still in play among those
    ``make(rules, seed)`` gives and up to three random moves on from each (the game moves
    on once the caller is done with it)."""
    for seed in seeds(numbers, quick=quick):
        rng = random.Random(seed)
        game = make(rules, seed)
        for step in range(4):
            if game.is_over:
                break
            yield seed, step, game
            game.play(rng.choice(list(game.legal_moves)))


def won_walks(
    make: Callable[[RuleSet, int], Game], rules: RuleSet, numbers: range, quick: int
) -> Iterator[tuple[int, int, Game, int]]:
    """``(seed, step, game, fewest moves)`` for each position of :func:`walks` that can be
    won."""
    for seed, step, game in walks(make, rules, numbers, quick):
        truth = reference(game)
        if truth is not None:
            yield seed, step, game, truth


@pytest.mark.parametrize("name", sorted(RULES))
def test_dig_bound_never_exceeds_the_fewest_moves(name: str) -> None:
    rules = RULES[name]
    assert PileDig.applies(Model.from_game(piled_position(rules, 0)))
    checked = counted = exact = 0
    for seed, _, game, truth in won_walks(piled_position, rules, range(80), 50):
        bound, dig = bound_parts(game)
        assert bound <= truth, (name, seed, str(game))
        checked += 1
        counted += dig > 0
        exact += dig > 0 and bound == truth
    # the term must have counted, and have been tight, on enough positions to mean something
    assert checked >= 20 and counted >= 5 and exact >= 2, (checked, counted, exact)


@pytest.mark.parametrize("name", sorted(RULES))
def test_shortest_lines_with_the_dig_bound_match_the_plain_search(name: str) -> None:
    rules = RULES[name]
    won = 0
    for seed in seeds(range(200, 240), quick=20):
        game = piled_position(rules, seed)
        truth = reference(game)
        solution = solve(game, shortest=True)
        assert solution.winnable is (truth is not None), (name, seed)
        if truth is None:
            continue
        won += 1
        assert solution.shortest and len(solution.moves) == truth, (name, seed)
        replay = game.copy()
        for move in solution.moves:
            replay.play(move)
        assert replay.status.value == "won"
    assert won >= 3, name


def test_a_partner_under_a_king_and_a_lone_card_costs_two_moves() -> None:
    # 5H needs the 8C under 2D and KS: the King goes alone, the 2 to the cell (or with a J
    # there is none of): two moves before 5H+8C
    game = Game.from_position("egypt", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "2D", "KS"]])
    assert bound_parts(game) == (3, 2)
    assert reference(game) == len(solve(game, shortest=True).moves) == 3


def test_a_card_above_that_goes_with_another_pyramid_card_is_free() -> None:
    # 5H needs the 8C under 9D, and 9D goes with the 4S of the pyramid: no extra move
    game = Game.from_position("egypt", pyramid=[None] * 26 + ["5H", "4S"], wastes=[["8C", "9D"]])
    assert bound_parts(game) == (2, 0)
    assert reference(game) == 2


def test_no_dig_while_a_redeal_is_left() -> None:
    rules = RULES["draw-three-two-passes"]
    game = Game.from_position(rules, pyramid=[None] * 27 + ["5H"], wastes=[["8C", "2D", "KS"]])
    model = Model.from_game(game).for_shortest()
    assert PileDig(model).extra(model.root) == 0
    last = Game.from_position(
        rules, pyramid=[None] * 27 + ["5H"], wastes=[["8C", "2D", "KS"]], pass_number=2
    )
    assert bound_parts(last)[1] == 2


def dealt_position(rules: RuleSet, seed: int) -> Game:
    """Two to four bottom-row pyramid cards whose partners lie both under one or two cards
    of a waste pile and somewhere in a stock of three to seven cards, so that a line either
    digs or deals; under a rule set with a cell, sometimes a card in it; the last pass."""
    rng = random.Random(seed)
    deck, pyramid = shuffled_corner(rng)
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    stock: list[int] = []
    for card in pyramid:
        if card is None:
            continue
        mates = [c for c in deck if rules.pairs(card, c)]
        if len(mates) > 1 and rng.random() < 0.8:
            deck.remove(mates[1])
            stock.append(mates[1])
        if mates and rng.random() < 0.8:
            deck.remove(mates[0])
            pile = wastes[rng.randrange(len(wastes))]
            pile.append(mates[0])
            for _ in range(rng.randint(1, 2)):
                pile.append(deck.pop())
    while len(stock) < rng.randint(3, 7):
        stock.insert(rng.randrange(len(stock) + 1), deck.pop())
    return with_cell(rules, rng, deck, pyramid, stock, wastes, rules.passes or 1)


@pytest.mark.parametrize("name", ["egypt", "egypt-no-cell", "two-waste-one-pass"])
def test_dig_or_deal_never_exceeds_the_fewest_moves(name: str) -> None:
    """Rule ``bound-dig-or-deal`` (:meth:`PileDig.joint`): on positions where the partners
    lie deep in the piles and late in the stock, the whole bound never exceeds the plain
    search's fewest moves; the rule must raise it above the dig count and the draws alone
    on enough positions, and be exact on some."""
    rules = RULES[name]
    checked = raised = exact = 0
    for seed, _, game, truth in won_walks(dealt_position, rules, range(120), 60):
        model = Model.from_game(game).for_shortest()
        bound = MoveBound(model)
        root = model.root
        assert bound.dig is not None
        whole = bound(root)
        assert whole <= truth, (name, seed, str(game))
        apart = max(bound.dig.extra(root), bound.delta(root[0] & PYRAMID_ALL, 0))
        up = bound.extra(root) > apart
        checked += 1
        raised += up
        exact += up and whole == truth
    assert checked >= 40 and raised >= 5 and exact >= 2, (checked, raised, exact)


def test_dig_or_deal_prices_each_partner_its_cheaper_way() -> None:
    # 5H: its 8C lies under 2D and KS (two moves to dig), its 8D is the fourth stock card
    # (two draws of three cards): two moves either way, where apart each way costs nothing
    game = Game.from_position(
        "egypt",
        pyramid=[None] * 27 + ["5H"],
        wastes=[["8C", "2D", "KS"]],
        stock=["AS", "3C", "4D", "8D"],
    )
    model = Model.from_game(game).for_shortest()
    bound = MoveBound(model)
    assert bound.dig is not None
    assert (bound.dig.extra(model.root), deal_bound(model, model.root)) == (0, 0)
    assert bound(model.root) == 3 == reference(game)
    # with the 8D first in the stock, one draw deals it
    early = Game.from_position(
        "egypt",
        pyramid=[None] * 27 + ["5H"],
        wastes=[["8C", "2D", "KS"]],
        stock=["8D", "AS", "3C", "4D"],
    )
    model = Model.from_game(early).for_shortest()
    assert MoveBound(model)(model.root) == 2 == reference(early)


def top_position(rules: RuleSet, seed: int) -> Game:
    """The top four rows of a pyramid (ten cards, each covering the ones above it; most of
    them 4s, 5s, 8s and 9s, so pairs of one class cross and clearing orders rule pairs
    out), partners of some of them in the stock and the waste piles, and under a cell rule
    set sometimes a card in the cell."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    pyramid: list[int | None] = [None] * 28
    for pos in range(10):
        pool = [c for c in deck if rank(c) in (4, 5, 8, 9)]
        card = pool[0] if pool and rng.random() < 0.7 else deck[-1]
        deck.remove(card)
        pyramid[pos] = card
    loose: list[int] = []
    for card in pyramid[:10]:
        mates = [c for c in deck if card is not None and rules.pairs(card, c)]
        if mates and rng.random() < 0.8 and len(loose) < 7:
            loose.append(mates[0])
            deck.remove(mates[0])
    rng.shuffle(loose)
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    while loose and rng.random() < 0.6:
        wastes[rng.randrange(len(wastes))].append(loose.pop())
    return with_cell(rules, rng, deck, pyramid, loose, wastes, rules.passes or 1)


def test_order_counts_never_exceed_the_fewest_moves_on_deep_positions() -> None:
    """Deep pyramids, where pairs of one class can rule out pairs of another: the
    clearing-order cap and ``D`` must count on positions that can be won, and the whole
    bound never exceed the plain search's fewest moves there, on the position and a few
    random moves on; the shortest line has that length."""
    rules = RULES["egypt"]
    checked = capped = crossed = 0
    for seed, step, game, truth in won_walks(top_position, rules, range(60), 30):
        model = Model.from_game(game).for_shortest()
        bound = MoveBound(model)
        root = model.root
        assert bound(root) <= truth, (seed, str(game))
        capped += bound.removals(root) > pyramid_moves(model, root, {})
        crossed += bound.delta(root[0] & PYRAMID_ALL, root[3] & PYRAMID_ALL) > 0
        checked += 1
        if step == 0:
            assert len(solve(game, shortest=True).moves) == truth, seed
    assert checked >= 20 and capped >= 2 and crossed >= 2, (checked, capped, crossed)


def test_pairs_that_rule_each_other_out_count_once() -> None:
    # 5H (1) covers 8C (3) and 5S (2) covers 8S (5): 5H+8S and 5S+8C each meet alone, not
    # both; the matching allows two pairs, a clearing order one
    game = Game.from_position(
        "egypt", pyramid=[None, "5H", "5S", "8C", "AD", "8S"] + [None] * 22, stock=["8D", "8H"]
    )
    model = Model.from_game(game).for_shortest()
    assert pyramid_moves(model, model.root, {}) == 3  # AD, and 4 cards in 2 pairs
    assert MoveBound(model).removals(model.root) == 4  # 4 cards in 1 pair + 2 alone... + AD
    assert reference(game) is None or MoveBound(model)(model.root) <= (reference(game) or 0)


def apart_position(rules: RuleSet, seed: int) -> Game:
    """The top three rows of a pyramid (six cards), most often with two pairs of two rank
    classes that rule each other out (the card under each pair's upper card must go before
    the other pair's upper card is uncovered, so ``D`` counts one); the partners of some
    pyramid cards in the waste piles under one or two cards that no pyramid card takes
    (Kings, or ranks none of the six pairs), a short stock, and under a cell rule set
    sometimes a card in the cell."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    pyramid: list[int | None] = [None] * 28

    def take(wanted: int) -> int:
        card = next(c for c in deck if rank(c) == wanted)
        deck.remove(card)
        return card

    if rng.random() < 0.8:  # slots 3 and 4 cover 1, slots 4 and 5 cover 2
        a, b = rng.sample(range(1, 7), 2)
        a, b = (a, 13 - a)[:: rng.choice((1, -1))], (b, 13 - b)[:: rng.choice((1, -1))]
        pyramid[1], pyramid[5] = take(a[0]), take(a[1])  # 1 meets 5 once 3 is gone
        pyramid[2], pyramid[3] = take(b[0]), take(b[1])  # 2 meets 3 once 5 is gone
    for pos in range(6):
        if pyramid[pos] is None:
            pyramid[pos] = deck.pop()
    placed = [c for c in pyramid if c is not None]
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    for card in placed:
        mates = [c for c in deck if rules.pairs(card, c)]
        if not mates or rng.random() < 0.3:
            continue
        deck.remove(mates[0])
        pile = wastes[rng.randrange(len(wastes))]
        pile.append(mates[0])
        for _ in range(rng.randint(1, 2)):  # over it: cards no pyramid card takes
            apart = [c for c in deck if not any(rules.pairs(p, c) for p in placed)]
            if apart:
                deck.remove(apart[0])
                pile.append(apart[0])
    stock = [deck.pop() for _ in range(rng.randint(0, 3))]
    return with_cell(rules, rng, deck, pyramid, stock, wastes, rules.passes or 1)


def test_cards_no_pyramid_card_takes_add_to_d(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule ``bound-dig-apart`` (:meth:`PileDig.apart`): with pairs of two rank classes
    ruling each other out in the pyramid (so ``D`` counts) and partners under pile cards no
    pyramid card takes, the whole bound never exceeds the plain search's fewest moves, on
    the position and a few random moves on. The rule must raise the bound on enough
    positions and be exact on some, the same rule one move dearer must exceed the fewest
    moves on some, and the shortest line found from each position must have the plain
    search's length. (Under the rule sets without a cell the crossed pairs leave these
    positions lost nearly always.)"""
    name = "egypt"
    rules = RULES[name]
    real = PileDig.apart
    checked = raised = exact = over = 0
    for seed, step, game, truth in won_walks(apart_position, rules, range(300), 100):
        model = Model.from_game(game).for_shortest()
        whole = MoveBound(model)(model.root)
        assert whole <= truth, (name, seed, step, str(game))
        with monkeypatch.context() as patch:  # the bound without the rule
            patch.setattr(PileDig, "apart", lambda _, pile, __: (0,) * pile.bit_count())
            without = MoveBound(model)(model.root)
            patch.setattr(  # and D plus those cards one move dearer: unsound
                PileDig,
                "apart",
                lambda dig, pile, both: tuple(a + 1 for a in real(dig, pile, both)),
            )
            dearer = MoveBound(model)(model.root)
        assert without <= whole <= dearer
        over += dearer > truth
        checked += 1
        raised += whole > without
        exact += whole > without and whole == truth
        if step == 0:
            assert len(solve(game, shortest=True).moves) == truth, (name, seed)
    assert checked >= 40 and raised >= 10 and exact >= 5, (checked, raised, exact)
    assert over >= 5, over  # the check can fail
