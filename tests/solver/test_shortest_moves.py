"""The move-by-move A* (several waste piles, the cell): its bound never overestimates.

:func:`~pyramid_widget.solver.shortest_moves.a_star` ranks positions by
:func:`~pyramid_widget.solver.search.lower_bound` plus
:func:`~pyramid_widget.solver.shortest_moves.deal_bound`. Here that sum is checked against the true
fewest moves from the plain breadth-first search of ``tests/solver/test_exhaustive.py`` on random small
positions with stocks long enough for the deal bound to matter, and shortest mode must still
return a line of exactly that length.
"""

from __future__ import annotations

import random

import pytest

from pyramid_widget import Game, RuleSet, get_rules
from pyramid_widget.solver import shortest_moves, solve
from pyramid_widget.solver.model import Model, State
from pyramid_widget.solver.search import Budget, lower_bound
from pyramid_widget.solver.shortest_moves import _removal_bound, a_star, deal_bound
from tests.solver.test_exhaustive import reference
from tests.support.engine import shuffled_corner

RULES = {
    "egypt": get_rules("egypt"),
    "apophis": get_rules("apophis"),
    "two-waste": get_rules("medium").replace(name="two-waste", waste_piles=2, draw_count=2),
    "draw-three": get_rules("medium").replace(name="draw-three", draw_count=3),
}


def long_stock_position(rules: RuleSet, seed: int) -> Game:
    """A few bottom-row pyramid cards and a stock of 6-9 cards whose partners for them lie
    towards its end, so that reaching them takes several draws (when every card must go,
    the other stock cards come with partners too)."""
    rng = random.Random(seed)
    deck, pyramid = shuffled_corner(rng)
    mates = []
    for card in pyramid:
        found = [c for c in deck if card is not None and rules.pairs(card, c)]
        if found and rng.random() < 0.8:
            mates.append(found[0])
            deck.remove(found[0])
    filler = [deck.pop() for _ in range(rng.randint(3, 6))]
    if rules.win != "pyramid":  # every card must go: give each filler card a partner
        for card in list(filler):
            found = [c for c in deck if rules.pairs(card, c)]
            if found and card in filler:
                filler.append(found[0])
                deck.remove(found[0])
            elif card in filler and not rules.kings_alone:
                filler.remove(card)
    stock = filler + mates
    rng.shuffle(stock[: len(filler)])
    return Game.from_position(rules, pyramid=pyramid, stock=stock[:10])


@pytest.mark.parametrize("name", sorted(RULES))
def test_bound_never_overestimates(name: str) -> None:
    rules = RULES[name]
    fired = won = 0
    for seed in range(40):
        game = long_stock_position(rules, seed)
        truth = reference(game)
        model = Model.from_game(game).for_shortest()
        extra = deal_bound(model, model.root)
        fired += extra > 0
        if truth is None:
            continue
        won += 1
        removals = _removal_bound(model)(model.root)
        assert lower_bound(model, model.root) <= removals, (name, seed)
        assert removals + extra <= truth, (name, seed)
        solution = solve(game, shortest=True)
        assert len(solution.moves) == truth, (name, seed)
    assert fired and won >= 3, name  # the bound must have been tested where it counts


@pytest.mark.parametrize(
    ("rules", "pyramid", "stock", "bound"),
    [
        # 5C at 19 lies under both 8s: neither pair meets without a cell move
        ("egypt", {19: "5C", 25: "8H", 26: "8C"}, ["5D", "5S", "8D"], 4),
        # 5D at 20 lies under 8C only, so 5D+8H can meet: 4 cards, one pair
        ("egypt", {19: "5C", 20: "5D", 25: "8H", 26: "8C"}, ["AD"], 3),
        # without a cell, the covered pair is not counted either
        ("two-waste", {19: "5C", 25: "8H", 26: "8C"}, ["5D", "5S", "8D"], 5),
    ],
)
def test_removal_bound_counts_cell_moves(
    rules: str, pyramid: dict[int, str], stock: list[str], bound: int
) -> None:
    """Where a pyramid pair can meet only after a cell move, the bound counts a move per card
    (more than ``lower_bound``), and it still never exceeds the true fewest moves."""
    cards: list[str | None] = [pyramid.get(p) for p in range(28)]
    game = Game.from_position(RULES[rules], pyramid=cards, stock=stock)
    model = Model.from_game(game).for_shortest()
    removals = _removal_bound(model)(model.root)
    assert removals > lower_bound(model, model.root)
    assert removals + deal_bound(model, model.root) == bound
    truth = reference(game)
    assert truth is not None and bound <= truth
    assert len(solve(game, shortest=True).moves) == truth


def test_deal_bound_when_every_card_must_go_is_the_whole_stock() -> None:
    """Under ``apophis`` every stock card must be dealt, ``draw_count`` a draw: the bound is
    the stock dealt out, and still never more than the true fewest moves minus removals."""
    rules = RULES["apophis"]
    for seed in range(40):
        game = long_stock_position(rules, seed)
        model = Model.from_game(game).for_shortest()
        stock = len(game.stock)
        assert deal_bound(model, model.root) == -(-stock // rules.draw_count), seed


def first_partner_draws(model: Model) -> int:
    """The draws :func:`deal_bound` asked for before its counting: every card that must go
    whose partners left in play all lie in the stock needs the first of them dealt."""
    board, lo, _, cells, _, _ = model.root
    stock, alive = board >> lo << lo, board | cells
    reach = 0
    for slot in range(28):
        mates = model.needs[slot] & alive
        must = alive >> slot & 1 and not model.flags.lone_kings >> slot & 1
        if must and mates and not mates & ~stock:
            reach = max(reach, (mates & -mates).bit_length())
    return -(-(stock & ((1 << reach) - 1)).bit_count() // model.rules.draw_count)


@pytest.mark.parametrize("name", ["egypt", "two-waste", "draw-three"])
def test_the_counting_finds_every_card_whose_partners_all_lie_in_the_stock(name: str) -> None:
    """Under sum-13 pairing :func:`deal_bound` runs only its counting, which must ask for at
    least the draws of the per-card rule it replaced, on positions and random moves on."""
    rules = RULES[name]
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        game = long_stock_position(rules, seed)
        for _ in range(5):
            if game.is_over:
                break
            model = Model.from_game(game).for_shortest()
            plain = first_partner_draws(model)
            assert deal_bound(model, model.root) >= plain, (name, seed, str(game))
            checked += plain > 0
            game.play(rng.choice(list(game.legal_moves)))
    assert checked >= 30, checked


def along_deal(rules: RuleSet, number: int, share: float) -> Game:
    """Deal ``number`` after the first ``share`` of its decision line's moves."""
    game = Game(rules, deal=number)
    line = solve(game).moves
    for move in line[: int(len(line) * share)]:
        game.play(move)
    return game


@pytest.mark.parametrize(
    ("name", "numbers", "least"), [("egypt", range(6), 500), ("apophis", range(14, 20), 0)]
)
def test_positions_alike_but_for_suits_are_searched_once(
    name: str, numbers: range, least: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule ``rank-order`` in the move-by-move search (:class:`RankKey`): on positions part
    of the way along deals, the search meets positions of the last pass that differ only
    in which card of a rank lies where and keeps one of each (not where every card must
    go: there the key is the position), and it finds the same verdicts and lengths as the
    same search keeping every position (its key replaced by the position itself), with and
    without a ceiling one below the fewest."""
    merged = []

    class Counting(shortest_moves.RankKey):
        def __init__(self, model: Model) -> None:
            super().__init__(model)
            self.seen: dict[object, State] = {}

        def key(self, state: State) -> object:
            mark = super().key(state)
            if self.seen.setdefault(mark, state) != state:
                merged.append(mark)
            return mark

    def by_position(self: shortest_moves.RankKey, state: State) -> object:
        return state

    rules = RULES[name]
    compared = 0
    for number in numbers:
        for share in (0.4, 0.6, 0.75):
            model = Model.from_game(along_deal(rules, number, share)).for_shortest()
            monkeypatch.setattr(shortest_moves, "RankKey", Counting)
            found = a_star(model, Budget(20_000, None))
            monkeypatch.setattr(shortest_moves.RankKey, "key", by_position)
            plain = a_star(model, Budget(40_000, None))
            monkeypatch.undo()
            if found.found is None or plain.found is None:
                continue
            compared += 1
            assert found.found is plain.found, (name, number, share)
            assert len(found.line) == len(plain.line), (name, number, share)
            if found.found and found.line:
                below = len(found.line) - 1
                monkeypatch.setattr(shortest_moves, "RankKey", Counting)
                assert a_star(model, Budget(20_000, None), below).found is False
                monkeypatch.undo()
    assert compared >= 12 and len(merged) >= least, (compared, len(merged))
    if not least:  # every card must go: the key is the position itself
        assert not merged


def eights_swapped(rules: RuleSet) -> tuple[shortest_moves.RankKey, State, State]:
    """The key of a position with 5H and 5S in the pyramid, TC and 8C on the first pile and
    8D on the second, that position, and the same with the 8C and the 8D swapped."""
    game = Game.from_position(
        rules,
        pyramid=[None] * 26 + ["5H", "5S"],
        wastes=[["TC", "8C"], ["8D"], []],
        stock=["AS", "2S", "3S"],
    )
    model = Model.from_game(game)
    board, lo, (one, two, three), cells, pno, flag = model.root
    c8, d8 = one.bit_length() - 1, two.bit_length() - 1
    piles = (one & ~(1 << c8) | 1 << d8, two & ~(1 << d8) | 1 << c8, three)
    return shortest_moves.RankKey(model), model.root, (board, lo, piles, cells, pno, flag)


def test_the_rank_key_tells_apart_what_the_game_does() -> None:
    """:class:`RankKey` forgets suits and nothing else: in the last pass two positions with
    8C and 8D swapped between the same places on a pile are one key, but not when the 8s
    lie on different piles, when a card moves between piles, when the stock differs, when
    the pyramid differs, or while a redeal is left (the next pass deals the deck cards in
    slot order across the piles)."""
    ranks, root, swapped = eights_swapped(get_rules("egypt"))
    key = ranks.key
    assert swapped != root and key(swapped) == key(root)
    board, lo, (one, two, three), cells, pno, flag = root
    c8 = one.bit_length() - 1
    assert key((board, lo, (two, one, three), cells, pno, flag)) != key(root)
    moved = (board, lo, (one & ~(1 << c8), two | 1 << c8, three), cells, pno, flag)
    assert key(moved) != key(root)  # TC | 8C 8D against TC 8C | 8D
    fewer = board & ~(1 << (board.bit_length() - 1))  # the last stock card gone
    assert key((fewer, lo, (one, two, three), cells, pno, flag)) != key(root)
    assert key((board & ~(1 << 26), lo, (one, two, three), cells, pno, flag)) != key(root)
    two_passes = get_rules("egypt").replace(name="egypt-2", passes=2)
    ranks, root, swapped = eights_swapped(two_passes)
    assert root[4] == 1 and ranks.key(swapped) != ranks.key(root)
