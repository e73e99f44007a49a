"""The dead-position tests for several waste piles and the free cell
(:mod:`pyramid_widget.solver.prune.piles`; rule ids of ``PRUNING_RULES``), each on a small
hand-built position where it fires, and all of them against a plain search."""

from __future__ import annotations

import random

import pytest

from pyramid_widget import Game, get_rules
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.solver import Verdict, solve
from pyramid_widget.solver.model import (
    CELL,
    DRAW,
    KING_ALONE,
    PAIR,
    PYRAMID_ALL,
    REDEAL,
    Model,
    State,
)
from pyramid_widget.solver.moves import expand
from pyramid_widget.solver.prune.piles import PileCheck, applies
from pyramid_widget.solver.prune.relax import BLOCKED, EMPTY, FreeStock
from tests.solver.test_exhaustive import reference
from tests.support.tier import seeds

ONE_PASS_PILES = get_rules("medium").replace(
    name="one-pass-piles", waste_piles=2, draw_count=2, passes=1
)
"""Two waste piles, one pass, no cell, pyramid-only win: burial without a cell."""


def pyramid(**cards: str) -> list[str | None]:
    """A pyramid with the given cards at the given positions (``p27="5H"``)."""
    out: list[str | None] = [None] * 28
    for name, card in cards.items():
        out[int(name[1:])] = card
    return out


def dead(game: Game) -> bool:
    model = Model.from_game(game)
    assert applies(model)
    return PileCheck(model).dead(model.root)


def check_against_plain_search(game: Game) -> None:
    truth = reference(game)
    solution = solve(game)
    assert solution.winnable is (truth is not None), str(game)
    if truth is not None:
        trial = game.copy()
        for move in solution.moves:
            trial.play(move)
        assert trial.status.value == "won"
    else:
        assert solution.verdict is Verdict.UNWINNABLE


def test_only_piles_and_cells_get_the_tests() -> None:
    assert applies(Model.from_game(Game("egypt", deal=1)))
    assert applies(Model.from_game(Game("apophis", deal=1)))
    assert not applies(Model.from_game(Game("medium", deal=1)))


def test_cell_required_card_without_partner() -> None:
    # Rule pile-partners: with a cell, a pyramid card still needs a partner left somewhere.
    alive = Game.from_position("egypt", pyramid=pyramid(p26="5H", p27="8C"), stock=["2D"])
    assert not dead(alive)
    lost = Game.from_position("egypt", pyramid=pyramid(p26="5H", p27="2C"), stock=["2D"])
    assert dead(lost)
    check_against_plain_search(lost)


def test_cell_counting() -> None:
    # Rule pile-partners, Hall's condition: two 5s to clear and a single 8 left.
    game = Game.from_position("egypt", pyramid=pyramid(p26="5H", p27="5C"), stock=["8D", "2S"])
    assert dead(game)
    check_against_plain_search(game)


def test_stuck_cell_makes_covering_partners_useless() -> None:
    # Rules pile-stuck-cell and pile-strict-needs: the 5H at 21 covers nothing, the 8C at 15 lies under it (position 15
    # is covered by 21 and 22). With an empty cell the 5H can wait there for the 8C;
    # with a cell card that can never go, it cannot.
    cards = pyramid(p15="8C", p21="5H", p22="KS")
    assert not dead(Game.from_position("egypt", pyramid=cards))
    stuck = Game.from_position("egypt", pyramid=cards, cells=["2D"])
    assert dead(stuck)
    check_against_plain_search(stuck)
    check_against_plain_search(Game.from_position("egypt", pyramid=cards))


def test_burial_without_cell() -> None:
    # Rule pile-burial: the 3C can never go (no Ten left), so the 8D under it never comes free.
    buried = Game.from_position(
        ONE_PASS_PILES, pyramid=pyramid(p27="5H"), wastes=[["8D", "3C"], []]
    )
    assert dead(buried)
    check_against_plain_search(buried)
    free = Game.from_position(ONE_PASS_PILES, pyramid=pyramid(p27="5H"), wastes=[["8D"], ["3C"]])
    assert not dead(free)


def test_a_stock_card_buries_nothing_yet() -> None:
    # The 3C will land on the 8D, but the 8D can go first (a draw later).
    game = Game.from_position(
        ONE_PASS_PILES, pyramid=pyramid(p27="5H"), wastes=[["8D"], []], stock=["3C", "4S"]
    )
    assert not dead(game)
    check_against_plain_search(game)


def test_burial_with_a_usable_cell() -> None:
    # Rule pile-burial-cell: the 4C may step into the cell, but then the 3C under it stays, and so does
    # the 8D under that.
    two = Game.from_position(
        "egypt", pyramid=pyramid(p27="5H"), wastes=[["8D", "3C", "4C"], [], []]
    )
    assert dead(two)
    check_against_plain_search(two)
    one = Game.from_position("egypt", pyramid=pyramid(p27="5H"), wastes=[["8D", "3C"], [], []])
    assert not dead(one)
    check_against_plain_search(one)


def test_free_stock_with_a_cell() -> None:
    # Rule pile-free-stock: the 5H (position 15) lies under the 8C and the 8D; one 8 may wait in the
    # cell, the other finds no 5 and stays on the 5H.
    cards = pyramid(p15="5H", p21="8C", p22="8D")
    game = Game.from_position("egypt", pyramid=cards, stock=["5D"])
    model = Model.from_game(game)
    free = FreeStock(model)
    assert free.wins(model.root[0], 0, True)  # 8C+5D, 8D to the cell, then 5H+8D
    assert not free.wins(model.root[0], 0, False)  # no cell: the 5H is never uncovered
    check_against_plain_search(game)


def test_free_stock_lets_a_king_pair_where_it_pairs_with_others() -> None:
    # Kings go alone but also pair with Queens (adjacent ranks, with a cell): KH alone
    # strands the QS, so the relaxed game must try KH+QS too; it once stopped at KH alone.
    rules = get_rules("egypt").replace(name="egypt-adjacent", pairing="adjacent")
    game = Game.from_position(rules, pyramid=pyramid(p26="KH", p27="QS"), stock=["2C"])
    model = Model.from_game(game)
    assert FreeStock(model).wins(model.root[0], 0, True)
    assert solve(game).verdict is Verdict.WINNABLE
    check_against_plain_search(game)


def test_forced_order_cycle() -> None:
    # Rule forced-order (apophis, last pass): each 5 lies on an 8; each 5 can only pair with the 8
    # under the other 5, so neither pair can go first.
    game = Game.from_position(
        "apophis", pyramid=pyramid(), wastes=[["8D", "5H"], ["8C", "5S"], []], pass_number=2
    )
    model = Model.from_game(game)
    check = PileCheck(model)
    cols = check._columns(model.root)
    assert check._deadlocked(cols, model.root[2][0] | model.root[2][1], model.root[0])
    assert dead(game)
    check_against_plain_search(game)
    crossed = Game.from_position(
        "apophis", pyramid=pyramid(), wastes=[["8D", "5H"], ["5S", "8C"], []], pass_number=2
    )
    assert not dead(crossed)
    check_against_plain_search(crossed)


def small_pile_position(rules: RuleSet, seed: int) -> Game:
    """A random small position with stacked waste piles (where burial can fire)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    cards: list[int | None] = [None] * 28
    for pos in range(rng.choice([22, 24, 25]), 28):
        cards[pos] = deck.pop()
    loose = [deck.pop() for _ in range(rng.randint(3, 7))]
    everything = rules.win != "pyramid"  # all cards must go: give most cards a mate
    for card in cards + loose[:]:
        mates = [c for c in deck if card is not None and rules.pairs(card, c)]
        if mates and rng.random() < (0.9 if everything else 0.5):
            loose.append(mates[0])
            deck.remove(mates[0])
    rng.shuffle(loose)
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    stock: list[int] = []
    for card in loose:
        if rng.random() < 0.6:
            wastes[rng.randrange(rules.waste_piles)].append(card)
        else:
            stock.append(card)
    cells: list[int | None] = []
    if rules.cells and rng.random() < 0.4:
        cells = [deck.pop()]
    passes = rules.passes or 1
    return Game.from_position(
        rules, pyramid=cards, stock=stock, wastes=wastes, cells=cells, pass_number=passes
    )


@pytest.mark.parametrize("rules", ["egypt", "apophis", "one-pass-piles"])
def test_agrees_with_plain_search_on_stacked_piles(rules: str) -> None:
    ruleset = ONE_PASS_PILES if rules == "one-pass-piles" else get_rules(rules)
    verdicts = set()
    for seed in seeds(range(40), quick=20):
        game = small_pile_position(ruleset, seed)
        if game.is_over:
            continue
        check_against_plain_search(game)
        verdicts.add(solve(game).verdict)
    assert len(verdicts) == 2


def test_burial_with_a_cell_by_masks_matches_the_card_by_card_walk() -> None:
    # Rule pile-burial-cell works a pile at a time with rank masks under sum-13 pairing; the card-by-card
    # walk (used for other pairings) must give the same cards on every position searched.
    fired = 0
    for seed in range(60):
        game = small_pile_position(get_rules("egypt"), seed)
        if game.is_over:
            continue
        model = Model.from_game(game)
        check = PileCheck(model)
        for state in [model.root] + [nxt for _, nxt in check.expand(model.root)]:
            board, _, piles, cells, _, _ = state
            alive = board | cells
            stuck = check._stuck_in_cells(cells, alive)
            if not check._cell_usable(cells, stuck):
                continue
            cols = check._columns(state)
            waste = piles[0] | piles[1] | piles[2]
            fast = check._buried(cols, waste, stuck, alive, True)
            check.sum13 = False
            slow = check._buried(cols, waste, stuck, alive, True)
            check.sum13 = True
            assert fast == slow, str(game)
            fired += fast != 0
    assert fired


def test_one_pass_searches_share_the_positions_they_proved_lost() -> None:
    # depth_first's restarts (one pass) skip positions an earlier search proved lost: a
    # second search given that record agrees, searching fewer positions.
    from pyramid_widget.solver.decide_moves import _dive
    from pyramid_widget.solver.prune.piles import select
    from pyramid_widget.solver.search import Budget

    shared = 0
    for seed in range(40):
        game = small_pile_position(get_rules("egypt"), seed)
        if game.is_over:
            continue
        model = Model.from_game(game)
        tests = select(model)
        dead, generate = tests.dead, tests.expand
        lost: set[State] = set()
        first = _dive(model, dead, generate, Budget(None, None), None, 0, lost)
        again = _dive(model, dead, generate, Budget(None, None), None, 0, lost)
        assert first.found is again.found is (reference(game) is not None), str(game)
        assert again.nodes <= first.nodes
        shared += again.nodes < first.nodes
        if first.found is False:
            assert model.root in lost
    assert shared


def test_a_cell_move_goes_with_a_move_it_makes_possible() -> None:
    # Rule cell-follow-up: parking the 8C (position 21) uncovers the 5H (position 15), which pairs with
    # it, so the cell move comes with that pair; parking the 2C uncovers nothing, so it
    # comes with nothing (the draw is no reason: a pyramid card is never buried).
    game = Game.from_position(
        "egypt", pyramid=pyramid(p15="5H", p21="8C", p27="2C"), stock=["JD", "4S", "9S"]
    )
    model = Model.from_game(game)
    check = PileCheck(model)
    cells = {move[1]: nxt for move, nxt in expand(model, model.root) if move[0] == CELL}
    (step,) = check.cell_follow_ups(model.root, cells[21])
    assert [model.describe(step[0][i : i + 3]) for i in (0, 3)] == ["cell 8C", "5H+8C"]
    assert check.cell_follow_ups(model.root, cells[27]) == []
    check_against_plain_search(game)
    # a pile card may also step aside from the draw that would bury it (the 5H has two
    # partners: no forced pair)
    piles = Game.from_position(
        "egypt", pyramid=pyramid(p27="5H"), wastes=[["8D"], [], []], stock=["8C", "3C", "4C"]
    )
    model = Model.from_game(piles)
    check = PileCheck(model)
    (parked,) = [nxt for move, nxt in expand(model, model.root) if move[0] == CELL and move[1] > 27]
    kinds = [step[0][3] for step in check.cell_follow_ups(model.root, parked)]
    assert kinds == [DRAW]
    check_against_plain_search(piles)


def test_cell_steps_agree_with_plain_search() -> None:
    # Rule cell-follow-up on more small stacked egypt positions than the test above (the
    # quick tier takes 20 of the 60 seeds; pytest --thorough all).
    for seed in seeds(range(100, 160), quick=20):
        game = small_pile_position(get_rules("egypt"), seed)
        if not game.is_over:
            check_against_plain_search(game)


def test_free_stock_counted_by_rank_masks_matches_free_stock_wins() -> None:
    # _free_ok asks the free-stock game directly, counting the deck by rank masks; it must
    # answer as FreeStock.wins does, on every position reached.
    for seed in range(40):
        game = small_pile_position(get_rules("egypt"), seed)
        if game.is_over:
            continue
        model = Model.from_game(game)
        check, reference_game = PileCheck(model), FreeStock(model)
        for state in [model.root] + [nxt for _, nxt in check.expand(model.root)]:
            board, _, _, cells, _, _ = state
            alive = board | cells
            usable = check._cell_usable(cells, alive)
            parked, deck = cells & alive, alive & check.deck
            pyr = alive & PYRAMID_ALL
            expected = not pyr & check.required or reference_game.wins(
                pyr & ~parked | deck & ~parked, parked, usable
            )
            assert check._free_ok(state, alive, usable) == expected, str(game)


def kept_for(move: tuple[int, ...], focus: int, deals: bool) -> bool:
    """Whether a cell move's follow-up may be ``move``: it takes or parks a card of
    ``focus``, or it is a draw or a redeal and ``deals`` allows them."""
    if move[0] == PAIR:
        return bool((1 << move[1] | 1 << move[2]) & focus)
    if move[0] in (KING_ALONE, CELL):
        return bool(1 << move[1] & focus)
    return deals and move[0] in (DRAW, REDEAL)


def test_focused_moves_are_the_whole_list_filtered() -> None:
    # A cell move's follow-ups (rule cell-follow-up) are made by PileCheck.focused, which
    # makes only the moves that use the focus cards (and the draw or redeal when asked):
    # they must be the whole move list's, filtered, in its order, forced pairs included
    # (rule pile-forced-pair lists such a pair alone). Every available card and pair of
    # available cards is tried as the focus, with and without deals, on random stacked
    # positions and a few moves on, under egypt and two piles with a cell.
    two_piles = get_rules("egypt").replace(name="two-piles-cell", waste_piles=2, draw_count=2)
    compared = forced = 0
    for rules in (get_rules("egypt"), two_piles):
        for seed in range(60):
            game = small_pile_position(rules, seed)
            rng = random.Random(seed)
            for _ in range(4):
                if game.is_over:
                    break
                model = Model.from_game(game)
                check = PileCheck(model)
                state = model.root
                whole = check.expand(state)
                cards = check._available(state)
                singles = [1 << s for s in range(64) if cards >> s & 1]
                for focus in singles + [a | b for a in singles for b in singles if a < b]:
                    for deals in (False, True):
                        want = [step for step in whole if kept_for(step[0], focus, deals)]
                        assert check.focused(state, focus, deals) == want, (seed, str(game))
                        compared += 1
                forced += len(whole) == 1 and whole[0][0][0] == PAIR
                game.play(rng.choice(list(game.legal_moves)))
    assert compared > 2000 and forced > 5, (compared, forced)


class _Counted(FreeStock):
    """:class:`FreeStock`, counting the positions where its saturation shortcut takes a
    card with a card in the cell or the cell empty (``_try`` asks ``_saturated`` first
    thing, before it recurses, so the cell it was called with is the one in play)."""

    def __init__(self, model: Model) -> None:
        super().__init__(model)
        self.shortcuts = {"empty": 0, "parked": 0}
        self._cell = BLOCKED

    def _try(self, pyr: int, left: tuple[int, ...], cell: int) -> bool:
        self._cell = cell
        return super()._try(pyr, left, cell)

    def _saturated(self, pyr: int, left: tuple[int, ...], unc: int) -> int:
        low = super()._saturated(pyr, left, unc)
        if low and self._cell != BLOCKED:
            self.shortcuts["empty" if self._cell == EMPTY else "parked"] += 1
        return low


def test_the_saturation_shortcut_with_a_cell_changes_no_answer() -> None:
    # Rule pile-free-stock's game takes an uncovered card of a saturated rank class with a
    # deck card at once, with the cell empty or holding a card too (the parked pyramid
    # card counted in its class). That must answer exactly as the game trying every move
    # does, on random pyramids, decks and cells; some of them must be won and some lost,
    # and the shortcut must fire with the cell empty and with a card in it.
    rng = random.Random(20261208)
    answers = {True: 0, False: 0}
    fast_total = {"empty": 0, "parked": 0}
    for seed in seeds(range(400), quick=120):
        model = Model.from_game(Game("egypt", deal=seed))
        fast, plain = _Counted(model), FreeStock(model)
        plain.saturating = False  # every move tried
        for _ in range(3):
            pyr = sum(1 << s for s in range(10, 28) if rng.random() < 0.45)
            deck_slots = [s for s in range(28, len(model.cards)) if rng.random() < 0.6]
            parked = 0
            if rng.random() < 0.5 and pyr:
                pick = rng.choice([s for s in range(10, 28) if pyr >> s & 1])
                pyr &= ~(1 << pick)
                parked = 1 << pick
            elif rng.random() < 0.3 and deck_slots:
                parked = 1 << deck_slots.pop()
            board = pyr | sum(1 << s for s in deck_slots)
            usable = rng.random() < 0.8
            expected = plain.wins(board, parked, usable)
            assert fast.wins(board, parked, usable) is expected, (seed, board, parked, usable)
            answers[expected] += 1
        for kind, count in fast.shortcuts.items():
            fast_total[kind] += count
    assert min(answers.values()) >= 20, answers
    assert min(fast_total.values()) >= 20, fast_total
