"""The order-aware bounds of shortest mode (:mod:`pyramid_widget.solver.bounds` and the
waste rule of :mod:`pyramid_widget.solver.shortest_macro`): the pair count against a brute
force over the engine's own geometry, and every bound against the plain breadth-first
search on random positions deeper than the bottom row (cards covering cards, gaps, a
waste), under every one-pile rule set, as the lines A* returns."""

from __future__ import annotations

import random
from functools import cache

import pytest

from pyramid_widget import Game, RuleSet
from pyramid_widget.engine.layout import COVERED_BY, SIZE
from pyramid_widget.solver.bounds import PairedBound, PairTable
from pyramid_widget.solver.model import PYRAMID_ALL, Model, matched, matching, open_cards
from pyramid_widget.solver.shortest_macro import _bound_functions
from tests.solver.test_exhaustive import RULES, reference
from tests.solver.test_shortest_macro import (
    check_a_star_against_plain_search,
    raised_positions,
    walk_checking_bound,
)
from tests.support.tier import seeds

ONE_PILE = ["easy", "medium", "hard", "relaxed", "cheops", "unlimited", "stall-2", "cheops-kings"]


def _brute_pairs(rules: RuleSet, cards: dict[int, int]) -> int:
    """The most pyramid pairs of any clearing order, from the engine's covering alone."""

    @cache
    def best(present: frozenset[int]) -> int:
        free = [p for p in present if not any(q in present for q in COVERED_BY[p])]
        out = 0
        for p in free:
            out = max(out, best(present - {p}))
            for q in free:
                if p < q and rules.pairs(cards[p], cards[q]):
                    out = max(out, 1 + best(present - {p, q}))
        return out

    return best(frozenset(cards))


def _deep_position(rules: RuleSet, seed: int, size: int = 7) -> Game:
    """A random position whose pyramid has ``size`` cards among rows four to seven (so
    cards cover cards, with gaps; many of them pair), a short stock holding partners of some of them, and
    maybe a waste."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    spots = rng.sample(range(6, SIZE), size)
    pyramid: list[int | None] = [None] * SIZE
    for pos in spots:  # about half of them a partner of a card placed before
        placed = [c for c in pyramid if c is not None]
        mates = [c for c in deck if placed and rules.pairs(rng.choice(placed), c)]
        card = mates[0] if mates and rng.random() < 0.5 else deck[-1]
        deck.remove(card)
        pyramid[pos] = card
    stock: list[int] = []
    for pos in spots:
        mates = [c for c in deck if rules.pairs(pyramid[pos] or 0, c)]
        if mates and rng.random() < 0.75 and len(stock) < 6:
            stock.append(mates[0])
            deck.remove(mates[0])
    stock += [deck.pop() for _ in range(rng.randint(0, 2))]
    rng.shuffle(stock)
    wastes: list[list[int]] = [[]]
    while stock and rng.random() < 0.4:
        wastes[0].append(stock.pop())
    return Game.from_position(rules, pyramid=pyramid, stock=stock, wastes=wastes)


def _bound(game: Game) -> int:
    model = Model.from_game(game).for_shortest()
    board, lo, _, _, pno, _ = model.root
    return _bound_functions(model)[0](board, lo, pno)


# -- the pair count ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["relaxed", "cheops"])
def test_pair_table_is_the_most_pairs_of_any_clearing_order(name: str) -> None:
    rules = RULES[name]
    fewer = 0
    for seed in range(60):
        rng = random.Random(seed)
        spots = rng.sample(range(SIZE), rng.randint(4, 11))
        faces = rng.sample(range(52), len(spots))
        pyramid: list[int | None] = [None] * SIZE
        for pos, card in zip(spots, faces, strict=True):
            pyramid[pos] = card
        game = Game.from_position(rules, pyramid=pyramid, stock=[])
        model = Model.from_game(game)
        pyr = model.root[0] & PYRAMID_ALL
        truth = _brute_pairs(rules, {p: c for p, c in enumerate(pyramid) if c is not None})
        assert PairTable(model, classes=False).pairs(pyr) == truth, (name, seed)
        by_class = PairTable(model).pairs(pyr)
        assert by_class >= truth
        if name == "relaxed":
            assert by_class == PairTable(model, classes=True).pairs(pyr)
        fewer += truth < (len(spots) // 2)
    assert fewer > 10  # the orders matter: often fewer pairs than a plain halving


def test_pairs_that_need_each_other_gone_first_count_once() -> None:
    # 7S (position 5) covers JC (2), 2D (6) covers 6S (3): 6S+7S needs 2D gone and
    # 2D+JC needs 7S gone, so only one of the two pairs (relaxed deal 52, move 30)
    pyramid: list[str | None] = [None] * SIZE
    pyramid[2], pyramid[3], pyramid[5], pyramid[6] = "JC", "6S", "7S", "2D"
    game = Game.from_position("relaxed", pyramid=pyramid, stock=["JS", "2H"])
    model = Model.from_game(game)
    pyr = model.root[0] & PYRAMID_ALL
    assert PairTable(model, classes=True).pairs(pyr) == 2  # each class alone: one pair
    assert PairTable(model, classes=False).pairs(pyr) == 1
    assert _brute_pairs(model.rules, {p: model.cards[p] for p in (2, 3, 5, 6)}) == 1


def test_a_memo_too_wide_answers_with_an_upper_bound() -> None:
    pyramid: list[str | None] = [None] * 21 + ["AS", "QS", "2H", "JH", "3D", "TD", "4C"]
    model = Model.from_game(Game.from_position("relaxed", pyramid=pyramid, stock=[]))
    table = PairTable(model, classes=False)
    table.memo = {i: 0 for i in range(1 << 15)}  # full: nothing more is remembered
    assert table.pairs(model.root[0] & PYRAMID_ALL) == 3  # 7 cards with mates, halved


# -- the bounds against the plain search ------------------------------------------------


@pytest.mark.parametrize("name", ONE_PILE)
def test_bounds_never_exceed_the_fewest_moves_on_deep_positions(name: str) -> None:
    rules = RULES[name]
    won = 0
    for seed in seeds(range(40), quick=16):  # all 40 with --thorough
        game = _deep_position(rules, seed)
        won += len(walk_checking_bound(game, random.Random(seed), 3, (name, seed)))
    assert won >= 4


@pytest.mark.parametrize("name", ONE_PILE)
def test_shortest_lines_on_deep_positions_match_the_plain_search(name: str) -> None:
    rules = RULES[name]
    for seed in seeds(range(300, 330), quick=12):  # all 30 with --thorough
        check_a_star_against_plain_search(_deep_position(rules, seed), (name, seed))


def test_open_cards_are_the_cards_nothing_left_covers() -> None:
    # the shift form of PassReach and the move generators against the engine's geometry,
    # on masks of every density (gaps included)
    rng = random.Random(7)
    for _ in range(20_000):
        pyr = rng.getrandbits(SIZE) & rng.getrandbits(SIZE) | rng.getrandbits(
            SIZE
        ) * rng.getrandbits(1)
        plain = sum(
            1 << p
            for p in range(SIZE)
            if pyr >> p & 1 and not any(pyr >> q & 1 for q in COVERED_BY[p])
        )
        assert open_cards(pyr) == plain, bin(pyr)


def _most_pairs(slots: list[int], needs: list[int], alive: int, used: int = 0) -> int:
    # the largest matching by trying every partner (and none) for each slot in turn
    if not slots:
        return 0
    first, rest = slots[0], slots[1:]
    best = _most_pairs(rest, needs, alive, used)
    options = needs[first] & alive & ~used
    while options:
        low = options & -options
        options ^= low
        best = max(best, 1 + _most_pairs(rest, needs, alive, used | low))
    return best


def test_matched_finds_the_largest_matching() -> None:
    # the matching behind rule hall (own_partners) against trying every assignment, on
    # sparse and dense graphs alike, slots and partners overlapping as pyramid cards do
    rng = random.Random(11)
    for _ in range(3_000):
        size = rng.randint(1, 9)
        needs = [rng.getrandbits(size) & rng.getrandbits(size) for _ in range(size)]
        for q in range(size):
            needs[q] &= ~(1 << q)  # no card partners itself
        alive = rng.getrandbits(size) | rng.getrandbits(size)
        want = alive & rng.getrandbits(size)
        slots = [q for q in range(size) if want >> q & 1]
        most = _most_pairs(slots, needs, alive)
        assert matched(want, needs, alive) == most, (want, needs, alive)
        assert matching(want, needs, alive) == (most == len(slots)), (want, needs, alive)


# -- the paired bound on hand-built positions -------------------------------------------


def test_paired_bound_counts_the_cards_before_a_lonely_cards_partner() -> None:
    # cheops: 5H pairs with 4, 5 or 6; the only one is under 9C, 9D and KS; each of those
    # is a draw (one pass: no pyramid card takes them), so 1 removal + 3 draws
    game = Game.from_position(
        "cheops", pyramid=[None] * 27 + ["5H"], stock=["9C", "9D", "KS", "6C"]
    )
    assert _bound(game) == 4 == reference(game)


def test_paired_bound_a_waste_partner_under_a_stuck_card_is_lost_without_a_redeal() -> None:
    # cheops, one pass: 6C lies under 9C, which pairs with nothing left
    game = Game.from_position(
        "cheops", pyramid=[None] * 27 + ["5H"], wastes=[["6C", "9C"]], stock=["AD"]
    )
    model = Model.from_game(game)
    board, lo, _, _, pno, _ = model.root
    assert PairedBound(model).bound(board, lo, pno) >= 1 << 20
    assert reference(game) is None


# -- partners that come too early (rule ``bound-early-partner``) -------------------------

# cheops: 5H (slot 20) lies under 9C (26); 5H pairs with 4, 5 or 6 and 9C with 8, 9 or T,
# and no pyramid card can take either
EARLY = [None] * 20 + ["5H"] + [None] * 5 + ["9C", None]


def _paired(game: Game, early: bool = True) -> int:
    model = Model.from_game(game).for_shortest()
    board, lo, _, _, pno, _ = model.root
    return PairedBound(model, early=early).bound(board, lo, pno)


def _early_parts(game: Game) -> tuple[int, int]:
    """The paired bound without and with the early partners."""
    return _paired(game, early=False), _paired(game)


def test_a_partner_that_comes_up_while_its_card_is_covered_is_drawn() -> None:
    # 4D comes up first, while 9C still covers 5H: it is drawn, then 8D+9C, 5H+4D (priced
    # as played from the stock top, 4D cost nothing and the bound said 2)
    game = Game.from_position("cheops", pyramid=EARLY, stock=["4D", "8D"])
    assert _paired(game, early=False) == 2
    assert _paired(game) == 3 == reference(game)


def test_a_partner_is_not_early_when_the_covering_card_can_go_first() -> None:
    # 8D before 4D, or 8D in the waste (with the stock top 4D): 9C goes first, two moves
    before = Game.from_position("cheops", pyramid=EARLY, stock=["8D", "4D"])
    waste = Game.from_position("cheops", pyramid=EARLY, stock=["4D"], wastes=[["8D"]])
    for game in (before, waste):
        assert _paired(game) == 2 == reference(game)


def test_a_dearer_partner_that_comes_later_does_not_help() -> None:
    # 5C comes up after 8D, but passing 4D and 8D first costs a removal more: 4D is the
    # cheapest partner, and it is early (draw 4D, 8D+9C, 5H+4D); with KS before 4D, each
    # price one more
    game = Game.from_position("cheops", pyramid=EARLY, stock=["4D", "8D", "5C"])
    assert _paired(game, early=False) == 2
    assert _paired(game) == 3 == reference(game)
    king = Game.from_position("cheops", pyramid=EARLY, stock=["KS", "4D", "8D"])
    assert _paired(king, early=False) == 3
    assert _paired(king) == 4 == reference(king)


EARLY_SEEDS = {
    "cheops": (96, 111, 126, 147, 195, 196, 204, 219, 232, 275, 302, 399),
    "cheops-kings": (18, 87, 96, 105, 126, 147, 204, 219, 224, 237, 275, 341),
}
"""Seeds of :func:`~tests.solver.test_shortest_macro._multi_pass_position` whose walk in
:func:`test_early_partners_never_exceed_the_fewest_moves` meets at least two won positions
where the rule raises the bound, and whose plain searches take a few seconds at most: twelve
of a scan of seeds 0-399, which met 85 such positions under ``cheops`` and 81 under
``cheops-kings``, the bound at most the plain search's fewest moves on every one and equal to
it on 31 and 33."""


@pytest.mark.parametrize("name", list(EARLY_SEEDS))
def test_early_partners_never_exceed_the_fewest_moves(name: str) -> None:
    """Wherever the early partners raise the bound of a position that can be won, on walks
    that mostly draw, it stays at most the plain search's fewest moves."""
    raised = 0
    picked = seeds(range(len(EARLY_SEEDS[name])), quick=4)  # all twelve with --thorough
    walk_seeds = [EARLY_SEEDS[name][i] for i in picked]
    walks = raised_positions(RULES[name], walk_seeds, 10, _early_parts, ("draw",), 0.5)
    for seed, game, bound in walks:
        truth = reference(game)
        if truth is not None:
            raised += 1
            assert bound <= truth, (name, seed, str(game))
    assert raised >= 4


# -- waste cards stuck till the redeal ---------------------------------------------------


def test_a_waste_king_or_a_card_with_a_stock_partner_is_not_stuck() -> None:
    # KD goes alone and 3D with the stock top TS: either way 8C is the waste top next
    king = Game.from_position(
        "relaxed", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "KD"]], stock=["2D"]
    )
    stock = Game.from_position(
        "relaxed", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "3D"]], stock=["TS", "2C"]
    )
    for game in (king, stock):
        assert _bound(game) == 2 == reference(game)


def test_a_waste_card_with_no_partner_left_keeps_the_cards_under_it_till_the_redeal() -> None:
    # 4D pairs with nothing left: 8C under it is reached after the redeal (a draw of 2D,
    # the redeal, 5H+8C with 8C the stock top)
    game = Game.from_position(
        "relaxed", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "4D"]], stock=["2D"]
    )
    assert _bound(game) == 3 == reference(game)


def test_a_waste_card_whose_only_partner_is_the_last_card_keeps_the_cards_under_it() -> None:
    # AH pairs only with the apex QD, which 5H covers: AH can leave only in the winning
    # move, so 8C under it comes back after the redeal (redeal, 5H+8C, AH+QD)
    pyramid: list[str | None] = ["QD", "5H"] + [None] * 26
    game = Game.from_position("relaxed", pyramid=pyramid, wastes=[["8C", "AH"]], stock=[])
    assert _bound(game) == 3 == reference(game)
    # cheops, one pass: 2H pairs only with the apex 3D, so 6C under it is no partner for
    # 5H; 4S is, behind 9C and TD (draw, TD+9C, 5H+4S, 2H+3D)
    cheops = Game.from_position(
        "cheops",
        pyramid=["3D", "5H"] + [None] * 26,
        wastes=[["6C", "2H"]],
        stock=["9C", "TD", "4S"],
    )
    assert _bound(cheops) == 4 == reference(cheops)
