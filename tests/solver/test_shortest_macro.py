"""Shortest mode for one waste pile (:mod:`pyramid_widget.solver.shortest_macro`): the bound is
admissible (never above the fewest moves a plain search finds), it is exact on hand-built
positions that exercise each of its parts, node dominance fires and keeps lines shortest,
and the search agrees with the previous A* on numbered deals."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pyramid_widget import Game, RuleSet, get_rules
from pyramid_widget.solver import shortest_macro
from pyramid_widget.solver.bounds import PassReach
from pyramid_widget.solver.macro import candidates
from pyramid_widget.solver.model import PYRAMID_ALL, Model
from pyramid_widget.solver.prune.relax import FreeStock
from pyramid_widget.solver.search import BucketQueue, Budget, lower_bound
from pyramid_widget.solver.shortest_macro import (
    AGAIN,
    LOST,
    Tables,
    _bound_functions,
    _Dominance,
    _excess,
    _floor,
    _king_barriers,
    _reach,
    extra_bound,
    macro_a_star,
)
from pyramid_widget.solver.shortest_moves import a_star
from tests.solver.test_exhaustive import RULES, reference, small_position
from tests.solver.test_rank_order import random_position
from tests.support.tier import seeds

ONE_PILE = ["easy", "medium", "hard", "relaxed", "cheops", "unlimited", "stall-2", "cheops-kings"]


def _bound(game: Game) -> int:
    model = Model.from_game(game).for_shortest()
    board, lo, _, _, pno, _ = model.root
    return int(_bound_functions(model)[0](board, lo, pno))


def walk_checking_bound(
    game: Game, rng: random.Random, steps: int, label: object, draw_bias: float = 0.0
) -> list[Game]:
    """Play up to ``steps`` random moves from ``game`` (a draw or redeal with probability
    ``draw_bias`` when one is legal), checking before each that the shortest-mode bound is
    at most the fewest moves the plain search finds (``label`` names the walk in a
    failure); the positions that could be won (a copy of each) are returned, so a test can
    require enough of them."""
    won = []
    for _ in range(steps):
        if game.is_over:
            break
        truth = reference(game)
        if truth is not None:
            assert _bound(game) <= truth, (label, str(game))
            won.append(game.copy())
        moves = list(game.legal_moves)
        draws = [m for m in moves if str(m) in ("draw", "redeal")]
        biased = draw_bias > 0 and draws and rng.random() < draw_bias
        game.play(rng.choice(draws) if biased else rng.choice(moves))
    return won


def _shortest(game: Game) -> list[str]:
    result = macro_a_star(Model.from_game(game).for_shortest(), Budget(None, None))
    assert result.found
    trial = game.copy()
    for move in result.line:
        trial.play(move)
    assert trial.status.value == "won"
    return [str(m) for m in result.line]


def _extra(game: Game) -> int:
    model = Model.from_game(game)
    board, lo, _, _, pno, _ = model.root
    return extra_bound(model, board, lo, pno)


# -- the bound on hand-built positions --------------------------------------------------


def test_requirement_groups_drop_the_ones_never_dearer() -> None:
    # the 1st cheapest of {29, 30, 31} is never above the 2nd cheapest of {29, 30}, nor
    # the 1st cheapest of {29, 30}: only (2, {29, 30}) and the disjoint (1, {40}) are kept
    costs = [LOST] * 29 + [5, 3, 1] + [LOST] * 8 + [7]
    wanted = [(1, 0b111 << 29), (2, 0b11 << 29), (1, 0b11 << 29), (1, 1 << 40), (1, 1 << 40)]
    groups = Tables.groups(wanted)
    assert groups is not None
    pairs, others = groups
    assert pairs == [(40, 40)]  # one slot: read as a pair of it
    assert [(e, sorted(get(costs))) for e, get in others] == [(2, [3, 5])]
    assert Tables.groups([(2, 1 << 40)]) is None  # two partners wanted, one in the deck
    assert Tables.groups([(1, 0)]) is None  # a pyramid card with no deck partner at all


def test_stock_walk_counts_every_card_before_the_partner() -> None:
    # 5H needs the 8C under 2D and 3C: two draws (or removals) first
    game = Game.from_position("relaxed", pyramid=[None] * 27 + ["5H"], stock=["2D", "3C", "8C"])
    assert _extra(game) == 2
    assert _bound(game) == len(_shortest(game)) == 3


def test_a_balanced_class_costs_one_move_for_two_deck_cards() -> None:
    # 5H and 8D pair with each other; taking 8H and 5S off the stock top with them instead
    # costs one move more than the removal bound, not two
    game = Game.from_position(
        "relaxed", pyramid=[None] * 25 + ["5H", "8D", "6C"], stock=["8H", "5S", "7S"]
    )
    assert _extra(game) == 1
    assert _bound(game) == len(_shortest(game)) == 3


def test_the_allowance_lets_a_needed_card_pass_for_free() -> None:
    # the pyramid has a surplus of two Sixes: the first 7 on the stock is played with one
    # of them, the second 7 lies behind 2D
    game = Game.from_position(
        "relaxed", pyramid=[None] * 26 + ["6H", "6C"], stock=["7D", "2D", "7S"]
    )
    assert _extra(game) == 1
    assert _bound(game) == len(_shortest(game)) == 3


def test_without_stock_top_play_the_partner_is_drawn_too() -> None:
    game = Game.from_position("medium", pyramid=[None] * 27 + ["5H"], stock=["2D", "3C", "8C"])
    assert _extra(game) == 3
    assert _bound(game) == len(_shortest(game)) == 4


def test_a_waste_partner_under_other_cards_or_behind_a_redeal() -> None:
    # 8C lies in the waste under 2D and 3C, which pair with nothing: cheaper than digging is
    # the redeal, after which 8C (drawn first before) is the stock top
    game = Game.from_position(
        "relaxed", pyramid=[None] * 27 + ["5H"], wastes=[["8C", "2D", "3C"]], stock=[]
    )
    assert _extra(game) == 1
    assert _bound(game) == len(_shortest(game)) == 2
    medium = Game.from_position(
        "medium", pyramid=[None] * 27 + ["5H"], wastes=[["2D", "3C", "8C", "4D"]], stock=[]
    )
    # 4D pairs with nothing left, so it stays on the waste till the redeal and 8C under
    # it is reached only after one: redeal, three draws, 5H+8C (once the bound took 4D
    # off the waste for one move and said 2)
    assert _extra(medium) == 4
    assert _bound(medium) == len(_shortest(medium)) == 5


def test_without_stock_top_play_every_card_of_the_next_pass_is_drawn() -> None:
    # 4D pairs with nothing left, so 8C is reached after the redeal only; 7D comes first
    # in the new pass and is drawn (a move) even though it later goes with 6C: redeal, two
    # draws and two removals (the bound once let 7D pass for free and said 4)
    game = Game.from_position(
        "medium", pyramid=[None] * 26 + ["6C", "5H"], wastes=[["7D", "8C", "4D"]], stock=[]
    )
    assert _extra(game) == 3
    assert _bound(game) == len(_shortest(game)) == 5


def test_last_pass_waste_partner_must_be_dug_out() -> None:
    game = Game.from_position(
        "hard", pyramid=[None] * 26 + ["5H", "9C"], wastes=[["8C", "4D"]], stock=["2S"]
    )
    # 4D goes with 9C, then 8C is the waste top: no draw needed
    assert _extra(game) == 0
    assert _bound(game) == len(_shortest(game)) == 2


def test_a_card_without_any_partner_is_lost() -> None:
    game = Game.from_position("relaxed", pyramid=[None] * 27 + ["5H"], stock=["2D"])
    model = Model.from_game(game)
    board, lo, _, _, pno, _ = model.root
    assert extra_bound(model, board, lo, pno) >= LOST - lower_bound(model, model.root)


def test_other_pairings_get_no_extra() -> None:
    game = Game.from_position("cheops", pyramid=[None] * 27 + ["5H"], stock=["2D", "3C", "6C"])
    assert _extra(game) == 0


# -- late partners (rule ``bound-late-partner``) ---------------------------------------

# 5H (slot 20) lies under 9C (26); 9C's partner 4S lies in the waste under a JD that goes
# with nothing, so 5H cannot be uncovered before the redeal, and its 8C comes after it
LATE = {
    "pyramid": [None] * 20 + ["5H"] + [None] * 5 + ["9C", None],
    "stock": ["3C", "3D", "3H", "3S", "8C"],
}


def _parts(game: Game) -> tuple[int, int]:
    """The bound without and with the late partners (:meth:`Tables.first`, ``bound``)."""
    model = Model.from_game(game).for_shortest()
    board, lo, _, _, pno, _ = model.root
    tables = Tables(model)
    return tables.first(board, lo, pno), tables.bound(board, lo, pno)


def test_a_card_covered_till_the_redeal_meets_its_partner_in_the_next_pass() -> None:
    # the four 3s pair with nothing and are passed in both passes, a move each time (a
    # rank passed more than four times once ran off the end of the allowance table, and
    # the bound said 9); then 4S+9C in the new pass uncovers 5H: the bound is exact
    game = Game.from_position("relaxed", wastes=[["4S", "JD"]], **LATE)  # type: ignore[arg-type]
    first, full = _parts(game)
    assert first == 7
    assert full == reference(game) == len(_shortest(game)) == 13


def test_cards_that_may_leave_this_pass_are_free_in_the_next() -> None:
    # 3C can go with TD (stock top and waste top) before the redeal, and any 3 could: in
    # the next pass they may be gone, so they cost nothing there (counted, the bound said
    # 14 and the search returned a line of 14 for 12)
    game = Game.from_position("relaxed", wastes=[["4S", "JD", "TD"]], **LATE)  # type: ignore[arg-type]
    first, full = _parts(game)
    assert first < full <= reference(game) == len(_shortest(game)) == 12


def test_in_the_next_pass_a_card_whose_partners_are_still_covered_is_drawn() -> None:
    # 3D (slot 14) lies under 5H (20), 5H under 9C (26); the JD on the waste keeps 9C's 4S
    # down till the redeal. In the next pass TS and 2C come up first, while 3D is covered
    # (and no Jack is uncovered): both are drawn, not played; then 4S+9C, 2C+JD off the
    # waste, 5H+8C and 3D+TS (letting TS pass for free, the bound said 8)
    pyramid = [None] * 14 + ["3D"] + [None] * 5 + ["5H"] + [None] * 5 + ["9C", None]
    game = Game.from_position(
        "relaxed", pyramid=pyramid, stock=["8C", "QD"], wastes=[["TS", "2C", "4S", "JD"]]
    )
    first, full = _parts(game)
    assert first == 6
    assert full == reference(game) == len(_shortest(game)) == 9


def test_waste_cards_of_one_rank_need_a_partner_each() -> None:
    # TS and TD lie on 9C's 4S, and the one 3 left (3C, in the stock) can take only one of
    # them: 4S stays down till the redeal, and 5H under 9C is late (counting only the ranks
    # in reach, the relaxed game let both Tens go with 3C and the bound said 4)
    game = Game.from_position(
        "relaxed", pyramid=LATE["pyramid"], stock=["8C", "3C"], wastes=[["4S", "TD", "TS"]]
    )
    first, full = _parts(game)
    assert (first, full) == (4, 5)
    assert reference(game) == len(_shortest(game)) == 7


@pytest.mark.parametrize("name", ["relaxed", "medium", "easy", "hard"])
def test_a_card_covered_to_the_end_of_the_last_pass_is_lost(name: str) -> None:
    # 2S (slot 14) lies under 5H (20), 5H under 9C (26); 9C's 4S lies under JD, whose only
    # partner is 2S: nothing of it can move before a redeal (the KC apart keeps 2S from
    # being the last card, which another test catches)
    pyramid = [None] * 14 + ["2S"] + [None] * 5 + ["5H", "KC"] + [None] * 4 + ["QH", "9C"]
    stock, wastes = ["AD", "8C"], [["4S", "JD"]]
    for pass_number in range(1, (RULES[name].passes or 2) + 1):
        game = Game.from_position(
            name, pyramid=pyramid, stock=stock, wastes=wastes, pass_number=pass_number
        )
        first, full = _parts(game)
        truth = reference(game)
        if pass_number == RULES[name].passes:  # no redeal left
            assert truth is None and first < LOST <= full
        else:
            assert first < full <= truth == len(_shortest(game)), (name, pass_number)


@pytest.mark.parametrize("name", ONE_PILE)
def test_the_relaxed_game_may_count_ranks_instead_of_cards(name: str) -> None:
    """``PassReach`` looks only at the ranks of the deck cards in reach: that is exact when
    every pyramid card's deck partners are all the deck cards of some ranks."""
    for seed in range(5):
        model = Model.from_game(Game(RULES[name], seed)).for_shortest()
        reach = PassReach(model)
        deck = ((1 << model.deck_hi) - 1) & ~PYRAMID_ALL
        for p in range(28):
            of_ranks = sum(
                1 << s
                for s in range(model.deck_lo, model.deck_hi)
                if reach.by_rank[reach.rank_bit[s].bit_length() - 1] >> p & 1
            )
            assert model.needs[p] & deck == of_ranks, (name, seed, p)


def test_beyond_four_passings_each_costs_one_move() -> None:
    # what the next-pass walk of ``Tables.late`` relies on when it stops at the table's end
    for pk, pm, pairs, um in itertools.product(range(5), range(5), range(5), range(9)):
        for uk in range(4, 9):
            step = _excess(pk, pm, pairs, uk + 1, um, 0) - _excess(pk, pm, pairs, uk, um, 0)
            own = _excess(pk, pm, pairs, uk, um, 1) - _excess(pk, pm, pairs, uk, um, 0)
            table = min(um, 4)
            own4 = _excess(pk, pm, pairs, 4, table, 1) - _excess(pk, pm, pairs, 4, table, 0)
            assert (step, own) == (1, own4)


LATE_SEEDS = {
    "relaxed": (38, 46, 51, 67, 72, 74, 95, 96, 114, 116, 117, 126),
    "medium": (38, 41, 46, 55, 64, 69, 74, 114, 117, 118, 126, 182),
    "unlimited": (38, 41, 46, 55, 64, 69, 74, 114, 117, 118, 126, 182),
    "hard": (38, 74, 114, 117, 118, 126, 182, 204, 273, 275, 323, 324),
}
"""Seeds of :func:`_multi_pass_position` whose walk in
:func:`test_late_partners_never_exceed_the_fewest_moves` meets positions where the late
partners raise the bound (found by a scan of seeds 0-599, the first twelve per rule set)."""


@pytest.mark.parametrize("name", list(LATE_SEEDS))
def test_late_partners_never_exceed_the_fewest_moves(name: str) -> None:
    """On walks that mostly draw and redeal, wherever the late partners raise the bound it
    stays at most the plain search's fewest moves, and where they say lost (no redeal left)
    the plain search finds no win."""
    picked = seeds(range(len(LATE_SEEDS[name])), quick=4)  # all twelve with --thorough
    assert _late_walks(name, [LATE_SEEDS[name][i] for i in picked], 10) >= 4


DIG_SEEDS = {
    "relaxed": (340, 356, 406, 532, 535, 537),
    "medium": (313, 340, 349, 356, 476, 479),
    "hard": (313, 340, 356, 476, 485, 488),
}
"""Seeds of :func:`_multi_pass_position` whose 12-move walk meets positions where counting
the waste cards' partners (:class:`PassReach`) stops the relaxed game's dig through the
waste and so raises the bound: the first six per rule set from seed 300 on (a scan of
seeds 300-1499 against the relaxed game without the count found 58 such positions under
``relaxed``, 68 under ``medium``, 55 under ``hard``, and 48, 28 and 99 it called lost; the
plain search agreed with every one)."""


@pytest.mark.parametrize("name", list(DIG_SEEDS))
def test_counted_waste_partners_never_exceed_the_fewest_moves(name: str) -> None:
    picked = seeds(range(len(DIG_SEEDS[name])), quick=2)  # all six with --thorough
    assert _late_walks(name, [DIG_SEEDS[name][i] for i in picked], 12) >= 1


REST_SEEDS = (9, 19, 67, 74, 96, 114, 117, 126, 244, 273)
"""Seeds of :func:`_multi_pass_position` whose 12-move walk under ``relaxed`` meets
positions where rule ``bound-rest-of-pass`` raises the bound (a scan of seeds 0-299: 22
positions on these ten, each at most the plain search's fewest moves and 16 of them equal
to it; with one move more charged on the walk, 61 of 110 raised positions exceeded it)."""


@pytest.mark.parametrize("wrong", [False, True], ids=["as-built", "one-move-more"])
def test_the_rest_of_the_pass_never_exceeds_the_fewest_moves(
    wrong: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a card is late, a stock card no pyramid card may go with before the redeal
    costs a move (``Tables.rest_walk``): wherever that raises the bound it stays at most
    the plain search's fewest moves; a walk made wrong on purpose, one move dearer, is seen
    to exceed them."""
    built = Tables.rest_walk

    def plain(self: Tables, pyr: int, stock: int, base: list[int], exposed: int) -> Any:
        _, acc, at = self.walked(pyr, stock, base)
        return acc, at

    def dearer(self: Tables, pyr: int, stock: int, base: list[int], exposed: int) -> Any:
        acc, at = built(self, pyr, stock, base, exposed)
        return acc + 1, at

    def parts(game: Game) -> tuple[int, int]:
        model = Model.from_game(game).for_shortest()
        board, lo, _, _, pno, _ = model.root
        monkeypatch.setattr(Tables, "rest_walk", plain)
        before = Tables(model).bound(board, lo, pno)
        monkeypatch.setattr(Tables, "rest_walk", dearer if wrong else built)
        return before, Tables(model).bound(board, lo, pno)

    picked = [REST_SEEDS[i] for i in seeds(range(len(REST_SEEDS)), quick=4)]
    checked = exceeded = 0
    for _seed, game, full in raised_positions(
        RULES["relaxed"], picked, 12, parts, ("draw", "redeal"), 0.6
    ):
        checked += 1
        exceeded += not _within_fewest(game, full)
    if wrong:
        assert exceeded >= 1
    else:
        assert checked >= 4 and exceeded == 0


def _late_walks(name: str, walk_seeds: list[int], steps: int) -> int:
    """Walk ``steps`` moves (mostly draws and redeals) from :func:`_multi_pass_position` of
    each seed, checking at every position where the late partners raise the bound that it
    is at most the plain search's fewest moves, or, where it says lost, that the plain
    search finds no win; returns how many positions were checked."""
    raised = 0
    walks = raised_positions(RULES[name], walk_seeds, steps, _parts, ("draw", "redeal"), 0.6)
    for seed, game, full in walks:
        raised += 1
        assert _within_fewest(game, full), (name, seed, str(game))
    return raised


def _within_fewest(game: Game, bound: int) -> bool:
    """Whether ``bound`` is at most the plain search's fewest moves from ``game``, or, where
    it says lost (:data:`LOST`), the plain search finds no win."""
    truth = reference(game)
    if bound >= LOST:
        return truth is None
    return truth is not None and bound <= truth


def raised_positions(
    rules: RuleSet,
    walk_seeds: list[int],
    steps: int,
    parts: Callable[[Game], tuple[int, int]],
    kinds: tuple[str, ...],
    bias: float,
) -> Iterator[tuple[int, Game, int]]:
    """Walk ``steps`` random moves from :func:`_multi_pass_position` of each seed (one of the
    moves named in ``kinds`` with probability ``bias`` when there is one) and yield, as
    ``(seed, position, raised bound)``, each position where ``parts`` (a bound without and
    with a rule) says the rule raises the bound. The position is the walk's own game: look
    at it before asking for the next."""
    for seed in walk_seeds:
        game = _multi_pass_position(rules, seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if game.is_over:
                break
            first, full = parts(game)
            if full > first:
                yield seed, game, full
            moves = list(game.legal_moves)
            picks = [m for m in moves if str(m) in kinds]
            game.play(rng.choice(picks) if picks and rng.random() < bias else rng.choice(moves))


# -- admissibility against the plain search ---------------------------------------------


@pytest.mark.parametrize("name", ONE_PILE)
def test_bound_never_exceeds_the_fewest_moves(name: str) -> None:
    """On small positions and positions a few random moves into them."""
    rules = RULES[name]
    for seed in seeds(range(15), quick=8):  # all 15 with --thorough
        game = small_position(rules, seed)
        rng = random.Random(seed)
        for _ in range(4):
            if game.is_over:
                break
            truth = reference(game)
            model = Model.from_game(game)
            if truth is not None:
                assert _bound(game) <= truth, (name, seed, str(game))
            elif not model.is_dead(model.root):
                assert macro_a_star(model.for_shortest(), Budget(None, None)).found is False
            moves = list(game.legal_moves)
            game.play(rng.choice(moves))


@pytest.mark.parametrize("name", [n for n in ONE_PILE if RULES[n].passes != 1])
def test_bound_never_exceeds_the_fewest_moves_with_a_redeal_ahead(name: str) -> None:
    """As above, on walks that mostly draw and redeal: positions with a waste and a redeal
    still allowed, where the walk after the redeal prices the cards."""
    rules = RULES[name]
    later = 0
    for seed in seeds(range(1000, 1060), quick=12):  # all 60 with --thorough
        game = small_position(rules, seed)
        for seen in walk_checking_bound(game, random.Random(seed), 8, (name, seed), draw_bias=0.6):
            passes = rules.passes
            later += bool(any(seen.wastes) and (passes is None or seen.pass_number < passes))
    assert later >= 10, later


def check_a_star_against_plain_search(game: Game, label: object) -> None:
    """The A* with no ceiling finds a line exactly when the plain search does, of the plain
    search's (fewest) length, and the line wins when replayed on the engine."""
    truth = reference(game)
    result = macro_a_star(Model.from_game(game).for_shortest(), Budget(None, None))
    assert result.found is (truth is not None), (label, str(game))
    if truth is not None:
        assert len(result.line) == truth, (label, str(game))
        trial = game.copy()
        for move in result.line:
            trial.play(move)
        assert trial.status.value == "won"


@pytest.mark.parametrize("name", ONE_PILE)
def test_search_with_no_ceiling_matches_the_plain_search(name: str) -> None:
    rules = RULES[name]
    for seed in seeds(range(200, 240), quick=16):  # all 40 with --thorough
        check_a_star_against_plain_search(small_position(rules, seed), (name, seed))


# -- partial expansion ------------------------------------------------------------------


@pytest.mark.parametrize("weak", [False, True])
@pytest.mark.parametrize("name", ONE_PILE)
def test_children_held_back_come_in_time(
    name: str, weak: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Partial expansion: a parent that held back children comes off the queue again for
    them before the search passes their estimate, so every length is the plain search's.
    On these small positions the bound is mostly exact along the shortest lines, where no
    child is held back; so the second run has the bound cut to the removals alone (still
    admissible) and a spread of 0, and counts that parents came back. A version that never
    brings them back fails it on every rule set (and the lengths with it)."""
    returns = 0
    push = BucketQueue.push

    def counting(
        self: BucketQueue[tuple[object, int]], f: int, g: int, item: tuple[object, int]
    ) -> None:
        nonlocal returns
        returns += item[1] >= AGAIN
        push(self, f, g, item)

    monkeypatch.setattr(BucketQueue, "push", counting)
    if weak:
        full = shortest_macro._bound_functions

        def removals_only(model: Model) -> Any:
            _, cheap, known, _ = full(model)
            return lambda board, lo, pno: cheap(board), cheap, known, None

        monkeypatch.setattr(shortest_macro, "_bound_functions", removals_only)
        monkeypatch.setattr(shortest_macro, "SPREAD", 0)
    for seed in seeds(range(300, 340), quick=16):  # all 40 with --thorough
        check_a_star_against_plain_search(small_position(RULES[name], seed), (name, weak, seed))
    assert returns > 0 or not weak, name


def _step(state: tuple[int, ...], candidate: tuple[int, int, int]) -> int:
    """The engine moves of a macro move, as the search counts them."""
    board, lo = state[0], state[1]
    deck = board & ~PYRAMID_ALL
    _, at, crossed = candidate
    before = (deck & ((1 << at) - 1)).bit_count()
    if crossed:
        return (deck >> lo).bit_count() + 2 + before
    return before - (deck & ((1 << lo) - 1)).bit_count() + 1


@pytest.mark.parametrize("preset", ["relaxed", "cheops", "medium", "easy", "hard"])
def test_the_listing_leaves_out_only_moves_dearer_than_allowed(preset: str) -> None:
    """On random positions (half the deck and a third of the pyramid gone, any pass) the
    candidates listed for a step of at most ``most`` (:func:`_reach`) are the full list's
    with a step of at most ``most``, and perhaps some dearer ones; and no move leaves a
    pyramid needing fewer removals than :func:`_floor` says."""
    model = Model.from_game(Game(preset, deal=3)).for_shortest()
    cheap = _bound_functions(model)[1]
    rng = random.Random(preset)
    left_out = 0
    for _ in seeds(range(150), quick=40):
        board, lo = random_position(model, rng)
        board &= ~sum(1 << s for s in range(28) if rng.random() < 0.3)
        passes = model.rules.passes
        state = (board, lo, 0, 0, rng.randint(1, passes) if passes else 0, 0)
        everything = candidates(model, state)
        floor = _floor(board & PYRAMID_ALL, cheap)
        for bits, _, _ in everything:
            assert cheap(board & ~bits) >= floor, (preset, state, bits)
        for most in range(1, 14):
            listed = set(candidates(model, state, *_reach(board, lo, most)))
            assert listed <= set(everything)
            for c in everything:
                if _step(state, c) <= most:
                    assert c in listed, (preset, state, most, c)
                else:
                    left_out += c not in listed
    assert left_out > 0


# -- dominance --------------------------------------------------------------------------


def test_dominance_counts_the_draws_between_two_positions() -> None:
    game = Game.from_position("relaxed", pyramid=[None] * 27 + ["5H"], stock=["2D", "3C", "8C"])
    model = Model.from_game(game)
    board, lo = model.root[0], model.root[1]
    dom = _Dominance(model)
    entries = [(1, lo, 4)]
    assert dom.dominated(entries, board, lo + 2, 1, 6)  # two draws from the entry
    assert not dom.dominated(entries, board, lo + 2, 1, 5)
    assert not dom.dominated(entries, board, lo, 2, 4)  # earlier pass dominates, not later
    assert not dom.dominated([(2, lo, 0)], board, lo, 1, 9)
    # a pass earlier: 3 draws + a redeal + 1 draw
    assert dom.dominated(entries, board, lo + 1, 2, 9)
    assert not dom.dominated(entries, board, lo + 1, 2, 8)
    easy2 = get_rules("easy").replace(passes=2)
    stall = Model.from_game(Game.from_position(easy2, pyramid=_PYRAMID, stock=_STOCK))
    assert not _Dominance(stall).dominated([(1, lo, 0)], board, lo + 1, 2, 99)


_PYRAMID: list[str | None] = [None] * 27 + ["5H"]
_STOCK = ["2D", "3C", "8C"]


def test_under_unlimited_passes_a_position_further_on_dominates_across_the_redeal() -> None:
    """Under unlimited passes the pass is not in the key: an entry further into the stock
    reaches an earlier stop by the draws to the end, the redeal and the draws up to it."""
    for name in ("easy", "unlimited"):
        game = Game.from_position(RULES[name], pyramid=_PYRAMID, stock=_STOCK)
        model = Model.from_game(game)
        board, lo = model.root[0], model.root[1]
        dom = _Dominance(model)
        entries = [(0, lo + 2, 4)]  # 1 draw to the end + the redeal + 1 draw up to lo + 1
        assert dom.dominated(entries, board, lo + 1, 0, 7), name
        assert not dom.dominated(entries, board, lo + 1, 0, 6), name
    limited = Model.from_game(Game.from_position("medium", pyramid=_PYRAMID, stock=_STOCK))
    board, lo = limited.root[0], limited.root[1]
    assert not _Dominance(limited).dominated([(1, lo + 2, 0)], board, lo + 1, 1, 99)


def _multi_pass_position(rules: RuleSet, seed: int) -> Game:
    """The bottom two, three or four rows of a pyramid and a stock of one partner for each
    of its first ten cards (where the deck has one) and one to three other cards, shuffled:
    small enough for the plain search, and often won only after a redeal."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    first = rng.choice([15, 18, 21])
    pyramid: list[int | None] = [None] * 28
    for pos in range(first, 28):
        pyramid[pos] = deck.pop()
    stock: list[int] = []
    for card in pyramid[first:]:
        mates = [c for c in deck if card is not None and rules.pairs(card, c)]
        if mates and len(stock) < 10:
            stock.append(mates[0])
            deck.remove(mates[0])
    stock += [deck.pop() for _ in range(rng.randint(1, 3))]
    rng.shuffle(stock)
    return Game.from_position(rules, pyramid=pyramid, stock=stock)


WRAPPING = (203, 465, 403, 381, 567, 253, 340, 513, 111, 123, 294, 596, 430, 529, 544, 191, 74)
"""Seeds of :func:`_multi_pass_position` on which the dominance across a redeal fires
under both ``easy`` and ``unlimited`` (found by a scan of seeds 0-599; the quickest
first). Lengths agreed with the plain search on every seed of the scan. The list has been
renewed as the search changed: seed 253 took the place of 132 when the late partners (rule
``bound-late-partner``) kept the positions the dominance skipped out of the queue (44
seeds of 0-599 fired then); with partial expansion (``shortest_macro.SPREAD``), which
queues fewer children, 21 fire, and no length of the 1,200 positions differed."""


@pytest.mark.parametrize("name", ["easy", "unlimited"])
def test_dominance_across_the_redeal_keeps_lines_shortest(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On positions won only after a redeal, under unlimited passes with and without the
    stall rule, the dominance across a redeal fires on each and every line found is as
    short as the plain search's. (Versions made wrong on purpose, with the draws, the
    redeal or the whole cost left out, changed no length on seeds 0-1499 of these
    positions either: a position further into the stock with the same cards has nearly
    always got there more cheaply; see docs/PERFORMANCE_LOG.md. The arithmetic is pinned
    by ``test_under_unlimited_passes_a_position_further_on_dominates_across_the_redeal``.)"""
    rules = RULES[name]
    games = [_multi_pass_position(rules, WRAPPING[i]) for i in seeds(range(len(WRAPPING)), quick=8)]
    fired = 0
    plain = _Dominance.dominated

    def counting(
        self: _Dominance, entries: list[tuple[int, int, int]], board: int, lo: int, pno: int, g: int
    ) -> bool:
        nonlocal fired
        hit = plain(self, entries, board, lo, pno, g)
        if hit:  # would it have been skipped without the redeal?
            self.wrap = False
            fired += not plain(self, entries, board, lo, pno, g)
            self.wrap = True
        return hit

    monkeypatch.setattr(_Dominance, "dominated", counting)
    for seed, game in zip(WRAPPING, games, strict=False):
        before = fired
        check_a_star_against_plain_search(game, (name, seed))
        assert fired > before, (name, seed)


# -- Kings on the stock top are removed, never drawn ------------------------------------


def _kings_position(rules: RuleSet, seed: int) -> Game:
    """A small position whose stock (and maybe waste) holds Kings among partners."""
    rng = random.Random(seed)
    deck = [c for c in range(52) if c // 4 != 12]
    rng.shuffle(deck)
    first_row = rng.choice([21, 22, 23])
    pyramid: list[int | None] = [None] * 28
    for pos in range(first_row, 28):
        pyramid[pos] = deck.pop()
    stock: list[int] = []
    for card in pyramid[first_row:]:
        mates = [c for c in deck if card is not None and rules.pairs(card, c)]
        if mates and rng.random() < 0.8:
            stock.append(mates[0])
            deck.remove(mates[0])
    kings = [48, 49, 50, 51]
    rng.shuffle(kings)
    stock += kings[: rng.randint(1, 3)] + [deck.pop() for _ in range(rng.randint(0, 1))]
    rng.shuffle(stock)
    wastes: list[list[int]] = [[]]
    if rng.random() < 0.4:
        wastes[0] += [stock.pop() for _ in range(rng.randint(1, 2))]
    return Game.from_position(rules, pyramid=pyramid, stock=stock, wastes=wastes)


def _fewest_moves(game: Game, passes: int) -> int | None:
    """The fewest moves to a win: the plain breadth-first search with one pass, else the
    move-by-move A* (:func:`~pyramid_widget.solver.shortest_moves.a_star`: no macro moves,
    no King barriers, its own tests against the plain search), which agreed with the plain
    search on all 60 positions of two and three passes here at a small part of its cost
    (the plain search took 10-18 s for them)."""
    if passes == 1:
        return reference(game)
    result = a_star(Model.from_game(game).for_shortest(), Budget(None, None))
    assert result.found is not None
    return len(result.line) if result.found else None


@pytest.mark.parametrize("passes", [1, 2, 3])
def test_stock_kings_never_drawn_keeps_lines_shortest(passes: int) -> None:
    rules = get_rules("relaxed").replace(name=f"relaxed-{passes}", passes=passes)
    fired = 0
    for seed in range(30):
        game = _kings_position(rules, seed)
        truth = _fewest_moves(game, passes)
        model = Model.from_game(game).for_shortest()
        result = macro_a_star(model, Budget(None, None))
        assert result.found is (truth is not None), (passes, seed, str(game))
        if truth is not None:
            assert len(result.line) == truth, (passes, seed, str(game))
            trial = game.copy()
            for move in result.line:
                trial.play(move)
            assert trial.status.value == "won"
            fired += any(str(m)[0] == "K" for m in result.line)  # a stock King removed
    assert fired >= 5


def test_a_king_on_the_stock_top_is_removed_not_drawn() -> None:
    # drawing KD or removing it costs the same, and with KD gone 8C waits on the waste
    game = Game.from_position("relaxed", pyramid=[None] * 27 + ["5H"], stock=["8C", "KD", "2D"])
    line = _shortest(game)
    assert line == ["5H+8C"]
    game = Game.from_position("relaxed", pyramid=[None] * 27 + ["5H"], stock=["KD", "2D", "8C"])
    line = _shortest(game)
    assert line[0] == "KD" and len(line) == 3 == reference(game)
    assert _king_barriers(1 << 29, 28, 31) == (29, -1)


# -- the free-stock test cuts lost positions out ------------------------------------------


@pytest.mark.parametrize(
    ("name", "deal"), [("relaxed", 2), ("relaxed", 17), ("medium", 57), ("hard", 63)]
)
def test_the_free_stock_test_only_drops_lost_positions(
    name: str, deal: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the free-stock test (``prune.relax``) the A* searches fewer positions on these
    deals and finds the same verdict and the same length as with the test switched off
    (every position said to clear, the search as it was before the test came in); a line
    found replays to a win. Small positions never reach a position only this test drops
    (the dead-end test catches theirs), so numbered deals are used. (``hard`` deal 63 took
    the place of deal 6 when the late partners, rule ``bound-late-partner``, began to drop
    that deal's positions first: a scan of deals 0-199 found it, the one winnable deal where
    the free-stock test still drops positions.)"""
    game = Game(name, deal)
    pruned = macro_a_star(Model.from_game(game).for_shortest(), Budget(None, None))
    monkeypatch.setattr(FreeStock, "wins", lambda self, board, *rest: True)
    plain = macro_a_star(Model.from_game(game).for_shortest(), Budget(None, None))
    assert pruned.found is plain.found is not None
    assert len(pruned.line) == len(plain.line)
    assert pruned.nodes < plain.nodes
    trial = game.copy()
    for move in pruned.line:
        trial.play(move)
    assert trial.status.value == ("won" if pruned.found else "playing")


# -- rule hall over every card (adjacent ranks) ----------------------------------------


def scarce_position(rules: RuleSet, seed: int) -> Game:
    """A random position in which cards of a few close ranks compete for partners: pyramid
    cards on the lower four rows with gaps (so some cover others and can never meet), and
    a short stock, all drawn from Aces to 3s and Jacks to Kings."""
    rng = random.Random(seed)
    cards = [c for c in range(52) if c // 4 + 1 in (1, 2, 3, 11, 12, 13)]
    rng.shuffle(cards)
    pyramid: list[int | None] = [None] * 28
    for pos in rng.sample(range(10, 28), rng.randint(6, 9)):
        pyramid[pos] = cards.pop()
    stock = [cards.pop() for _ in range(rng.randint(3, 6))]
    return Game.from_position(rules, pyramid=pyramid, stock=stock)


@pytest.mark.parametrize("sampling", [False, True], ids=["every-position", "sampled"])
@pytest.mark.parametrize("name", ["cheops", "cheops-kings"])
def test_positions_whose_cards_lack_partners_of_their_own_are_dropped_soundly(
    name: str, sampling: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under adjacent ranks the A* drops a position whose cards that must go cannot each
    have a partner of their own (rule ``hall``, ``_OwnPartners``); every length stays the
    plain search's. Run as it is (each small search tests every position) and with the
    rate judged after every test and one position in two sampled, so both modes prune;
    the test must have fired on some of the positions, or it proves nothing."""
    fired = tested = 0
    paired = shortest_macro._OwnPartners.paired

    def counting(self: Any, board: int) -> bool:
        nonlocal fired, tested
        answer = paired(self, board)
        fired += not answer
        tested += 1
        return answer

    monkeypatch.setattr(shortest_macro._OwnPartners, "paired", counting)
    if sampling:
        monkeypatch.setattr(shortest_macro._OwnPartners, "WINDOW", 2)
        monkeypatch.setattr(shortest_macro._OwnPartners, "RATE", 1)
        monkeypatch.setattr(shortest_macro._OwnPartners, "SAMPLE", 2)
    for seed in seeds(range(500, 560), quick=30):  # all 60 with --thorough
        check_a_star_against_plain_search(scarce_position(RULES[name], seed), (name, seed))
    assert fired > 0 and tested > fired, (fired, tested)


def test_the_partner_test_samples_below_its_rate_and_comes_back_above_it() -> None:
    # two Aces, one over the other (they never meet), and one 2 left for both: no matching
    ace_over_ace = [None] * 15 + ["AH"] + [None] * 5 + ["AS"] + [None] * 6
    model = Model.from_game(Game.from_position("cheops", pyramid=ace_over_ace, stock=["2C", "KD"]))
    lacking = model.root[0]
    fine = lacking & ~PYRAMID_ALL  # no card left that must go
    assert not shortest_macro.own_partners(model, lacking)
    assert shortest_macro.own_partners(model, fine)
    owned = shortest_macro._OwnPartners(model)
    assert all(owned.due() for _ in range(owned.WINDOW))  # every position is tested at first
    for _ in range(owned.WINDOW):
        owned.paired(fine)  # a window in which the test never fires
    asked = [owned.due() for _ in range(4 * owned.SAMPLE)]
    assert asked.count(True) == 4  # now one position in SAMPLE
    for _ in range(owned.WINDOW // owned.SAMPLE):
        owned.paired(lacking)  # the samples fire
    assert all(owned.due() for _ in range(8))  # every position again
