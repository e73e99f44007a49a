"""The "drawn partners" part of the one-pile shortest-mode bound
(:meth:`pyramid_widget.solver.shortest_macro.Tables.redrawn`): a lonely pyramid card covered
by a lonely card whose deck partners all come later in the stock has its own partner
drawn before it is played. Exact on a hand-built position, never above the fewest moves
of the plain breadth-first search on random positions built so that it fires, and a bound
raised by one more is seen to fail there (the check has teeth)."""

from __future__ import annotations

import random

import pytest

from pyramid_widget import Game, get_rules
from pyramid_widget.solver.model import Model
from pyramid_widget.solver.search import Budget
from pyramid_widget.solver.shortest_macro import Tables, _bound_functions, macro_a_star
from tests.solver.test_exhaustive import reference

# slot 15 (row 6, first card) is covered by slots 21 and 22 of the bottom row
UNDER, OVER = 15, 21


def _bound(game: Game) -> int:
    model = Model.from_game(game).for_shortest()
    board, lo, _, _, pno, _ = model.root
    return int(_bound_functions(model)[0](board, lo, pno))


def _redrawn(game: Game) -> int:
    model = Model.from_game(game).for_shortest()
    board, lo = model.root[0], model.root[1]
    tables = Tables(model)
    tables.bound(board, lo, model.root[4])
    return tables.redrawn(board, lo, tables.cache[board & ((1 << 28) - 1)][6])


def _covered_pair(under: str, over: str, stock: list[str], rules: str = "relaxed") -> Game:
    pyramid: list[str | None] = [None] * 28
    pyramid[UNDER], pyramid[OVER] = under, over
    return Game.from_position(rules, pyramid=pyramid, stock=stock)


def test_the_covered_cards_partner_is_drawn_first() -> None:
    # 9C covers 5H; 9C's only partner 4S lies under 8D, 5H's: 8D is drawn, 4S+9C, 5H+8D
    game = _covered_pair("5H", "9C", ["8D", "4S"])
    assert _redrawn(game) == 1
    line = macro_a_star(Model.from_game(game).for_shortest(), Budget(None, None)).line
    assert [str(m) for m in line] == ["draw", "4S+9C", "5H+8D"]
    assert _bound(game) == len(line) == reference(game) == 3


def test_no_draw_is_counted_when_the_order_allows_play_from_the_stock_top() -> None:
    # 4S first: 4S+9C from the stock top, then 5H+8D from the stock top, two moves
    game = _covered_pair("5H", "9C", ["4S", "8D"])
    assert _redrawn(game) == 0
    assert _bound(game) == reference(game) == 2


def test_a_partner_in_the_waste_or_a_card_that_is_not_lonely_counts_nothing() -> None:
    # 8D already drawn: playing it costs no draw more
    pyramid: list[str | None] = [None] * 28
    pyramid[UNDER], pyramid[OVER] = "5H", "9C"
    drawn = Game.from_position("relaxed", pyramid=pyramid, wastes=[["8D"]], stock=["4S"])
    assert _redrawn(drawn) == 0
    # 9C has a pyramid partner (4D beside it): it is not lonely
    pyramid[27] = "4D"
    mate = Game.from_position("relaxed", pyramid=pyramid, stock=["8D", "4S"])
    assert _redrawn(mate) == 0
    # without stock top play every stock card is drawn anyway: nothing to add
    assert _redrawn(_covered_pair("5H", "9C", ["8D", "4S"], "medium")) == 0


def _inverted_position(seed: int, passes: int) -> Game:
    """A random position with a few covered pairs of lonely cards and their partners in the
    stock in either order, some other cards, maybe a waste."""
    rng = random.Random(seed)
    rules = get_rules("relaxed").replace(name=f"relaxed-{passes}", passes=passes)
    deck = [c for c in range(52) if c // 4 != 12]  # no Kings: they would go alone
    rng.shuffle(deck)
    pyramid: list[int | None] = [None] * 28
    stock: list[int] = []
    # (covered, coverer, coverer): rows six and seven
    spots = rng.sample([(15, 21, 22), (17, 23, 24), (19, 25, 26)], rng.choice([1, 2]))
    for under, left, right in spots:
        for slot in (under, left) if rng.random() < 0.6 else (under, left, right):
            pyramid[slot] = deck.pop()
    for slot in range(28):
        card = pyramid[slot]
        if card is None:
            continue
        mates = [c for c in deck if rules.pairs(card, c)]
        if mates and rng.random() < 0.9:
            stock.append(mates[0])
            deck.remove(mates[0])
    rng.shuffle(stock)
    stock += [deck.pop() for _ in range(rng.randint(0, 2))]
    wastes: list[list[int]] = [[]]
    if rng.random() < 0.3:
        wastes[0].append(stock.pop(0))
    return Game.from_position(rules, pyramid=pyramid, stock=stock, wastes=wastes)


@pytest.mark.parametrize("passes", [1, 3])
def test_drawn_partners_never_exceed_the_fewest_moves(passes: int) -> None:
    fired = tight = 0
    for seed in range(40):
        game = _inverted_position(seed, passes)
        truth = reference(game)
        if truth is None:
            continue
        bound = _bound(game)
        assert bound <= truth, (passes, seed, str(game))
        if _redrawn(game):
            fired += 1
            tight += bound == truth  # one more would be wrong here
    assert fired >= 8, fired
    assert tight >= 4, tight
