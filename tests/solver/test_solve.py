"""The solver's contract, hand-built deals with known answers, and each pruning rule."""

from __future__ import annotations

import dataclasses
import gc
import random
import threading

import pytest

from pyramid_widget import Game, get_rules, parse_card
from pyramid_widget import solver as solver_module
from pyramid_widget.engine.cards import card_str, rank
from pyramid_widget.engine.deals import format_deal
from pyramid_widget.engine.layout import BLOCKERS_MASK
from pyramid_widget.solver import Solution, Verdict, solve, solve_deal
from pyramid_widget.solver.macro import buried
from pyramid_widget.solver.model import Model, needs_mask, starved_in, union_of
from pyramid_widget.solver.moves import dead_after, expand
from pyramid_widget.solver.search import collector_paused
from tests.support.tier import sized

SUM13 = ["easy", "medium", "hard", "relaxed", "apophis"]


def replay_wins(game: Game, solution: Solution) -> bool:
    trial = game.copy()
    for move in solution.moves:
        trial.play(move)
    return trial.status.value == "won"


# -- contract --------------------------------------------------------------------------


def test_solution_is_a_frozen_dataclass_with_a_winnable_property() -> None:
    solution = solve(Game("medium", deal=7))
    assert isinstance(solution.verdict, Verdict) and solution.verdict == "winnable"
    assert solution.winnable is True and solution.nodes > 0 and solution.seconds >= 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        solution.verdict = Verdict.UNKNOWN  # type: ignore[misc]
    assert Solution(Verdict.UNKNOWN).winnable is None
    assert Solution(Verdict.UNWINNABLE).winnable is False


def test_solve_leaves_the_game_alone_and_works_mid_game() -> None:
    game = Game("medium", deal=7)
    game.play("AH+QS")
    game.play("draw")
    before = (game.pyramid, game.stock, game.wastes, game.history, game.pass_number)
    solution = solve(game)
    assert (game.pyramid, game.stock, game.wastes, game.history, game.pass_number) == before
    assert solution.winnable and replay_wins(game, solution)


def test_bad_arguments_are_rejected() -> None:
    with pytest.raises(TypeError, match="Game"):
        solve("medium")
    with pytest.raises(ValueError, match="max_nodes"):
        solve(Game("medium", deal=1), max_nodes=-1)
    with pytest.raises(ValueError, match="max_seconds"):
        solve(Game("medium", deal=1), max_seconds=-0.5)
    with pytest.raises(ValueError, match="unknown rule set"):
        solve_deal("klondike", 1)


@pytest.mark.parametrize("seconds", [float("nan"), float("inf"), -float("inf"), "1"])
def test_a_time_limit_that_is_no_number_of_seconds_is_refused(seconds: object) -> None:
    """NaN once passed the ``< 0`` check and the search ran with no limit at all; infinity
    would have done the same (and skipped the fewest-moves node cap): None is "no limit"."""
    with pytest.raises(ValueError, match=r"^max_seconds must be a finite number .* got"):
        solve(Game("medium", deal=1), max_seconds=seconds)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_seconds"):
        solve_deal("medium", 1, shortest=True, max_seconds=seconds)  # type: ignore[arg-type]


def test_a_whole_number_of_seconds_is_a_limit_however_large() -> None:
    assert solve(Game("medium", deal=1), max_seconds=10**400).verdict is not Verdict.UNKNOWN


def test_a_budget_that_runs_out_gives_unknown() -> None:
    solution = solve(Game("medium", deal=29), max_nodes=50)
    assert solution.verdict is Verdict.UNKNOWN and solution.moves == []
    assert solution.winnable is None


def test_finished_games() -> None:
    won = Game.from_position("medium", pyramid=[None] * 27 + ["5H"], stock=["8C"])
    won.play("draw")
    won.play("5H+8C")
    assert solve(won).verdict is Verdict.WINNABLE and solve(won).moves == []
    lost = Game.from_position("hard", pyramid=[None] * 27 + ["5H"], stock=["9C"])
    lost.play("draw")
    assert lost.status.value == "lost"
    assert solve(lost).verdict is Verdict.UNWINNABLE


@pytest.mark.parametrize("rules", ["easy", "medium", "hard", "relaxed", "cheops", "egypt"])
def test_numbered_deals_replay_to_a_win(rules: str) -> None:
    decided = 0
    for number in range(4):
        game = Game(rules, deal=number)
        solution = solve(game, max_nodes=3000)
        decided += solution.winnable is not None
        if solution.winnable:
            assert replay_wins(game, solution)
    assert decided


# -- hand-built deals with known answers -----------------------------------------------


def ace_under_queens() -> list[int]:
    """AS in the bottom row at position 21, all four Queens on the positions it covers
    (15, 10, 6, 3): each Queen is freed only after the Ace is gone, and the Ace needs one."""
    queens = [parse_card(q) for q in ("QC", "QD", "QH", "QS")]
    ace = parse_card("AS")
    rest = [c for c in range(52) if c not in queens and c != ace]
    deal: list[int] = [-1] * 28
    deal[21] = ace
    for pos, queen in zip((15, 10, 6, 3), queens, strict=True):
        deal[pos] = queen
    filler = iter(rest)
    return [c if c >= 0 else next(filler) for c in deal] + list(filler)


@pytest.mark.parametrize("rules", SUM13)
def test_ace_below_all_four_queens_is_unwinnable(rules: str) -> None:
    solution = solve_deal(rules, format_deal(ace_under_queens()))
    assert solution.verdict is Verdict.UNWINNABLE
    assert solution.nodes == 1  # proved at the root by the partner rule


def test_ace_below_all_four_queens_can_use_the_cell() -> None:
    # In egypt the Ace may step into the cell, so the partner rule must not prune it.
    game = Game("egypt", deal=format_deal(ace_under_queens()))
    assert Model.from_game(game).is_dead(Model.from_game(game).root) is False


def fed_deal() -> list[int]:
    """Pyramid: the 24 cards of ranks A-6 plus the four Kings at the top; stock: the 24
    cards of ranks 7-Q ordered so that each drawn card pairs with the next pyramid card to
    clear, clearing the pyramid from the bottom right, position 27, to the apex."""
    kings = [c for c in range(52) if rank(c) == 13]
    low = [c for c in range(52) if rank(c) <= 6]
    pyramid = kings + low  # positions 0-3 Kings, 4-27 low cards
    order = list(range(27, 3, -1))
    used: set[int] = set()
    stock = []
    for pos in order:
        mate = next(c for c in range(52) if rank(c) == 13 - rank(pyramid[pos]) and c not in used)
        used.add(mate)
        stock.append(mate)
    return pyramid + stock


@pytest.mark.parametrize(("rules", "fewest"), [("hard", 52), ("medium", 52), ("relaxed", 28)])
def test_a_stock_that_feeds_the_pyramid_wins_in_a_known_number_of_moves(
    rules: str, fewest: int
) -> None:
    # hard/medium: each of the 24 stock cards must be drawn and paired (48 moves), each King
    # removed (4); relaxed pairs straight off the stock top, so no draw is needed.
    game = Game(rules, deal=format_deal(fed_deal()))
    assert solve(game).winnable
    solution = solve(game, shortest=True)
    assert solution.shortest and len(solution.moves) == fewest
    assert replay_wins(game, solution)


def test_hand_made_position_with_waste_and_passes() -> None:
    game = Game.from_position(
        "medium",
        pyramid=[None] * 26 + ["5H", "9C"],
        stock=["2D"],
        wastes=[["4S", "8D"]],
        pass_number=2,
    )
    solution = solve(game, shortest=True)
    assert [str(m) for m in solution.moves] == ["5H+8D", "4S+9C"]


# -- the pruning rules, one by one -----------------------------------------------------


def test_partner_rule_ignores_cards_that_cover_or_are_covered() -> None:
    model = Model.from_game(Game("medium", deal=format_deal(ace_under_queens())))
    needs = needs_mask(model, 21)  # the Ace
    assert needs & ((1 << 28) - 1) & ~BLOCKERS_MASK[21] == needs & ((1 << 28) - 1)
    assert all(not needs >> q & 1 for q in (15, 10, 6, 3))
    assert model.is_dead(model.root)


def test_counting_rule_two_cards_one_partner() -> None:
    # Two 6s in the pyramid and a single 7 left: each 6 alone has a partner, not both.
    game = Game.from_position("medium", pyramid=[None] * 26 + ["6H", "6C"], stock=["7D", "2S"])
    model = Model.from_game(game)
    assert model.is_dead(model.root) and solve(game).nodes == 1
    # removing the 2S (no 6 or 7) leaves the same two 6s for the one 7: counting fails
    two = model.rank_masks[2] & model.root[0]
    assert dead_after(model, model.root[0] & ~two, two | model.rank_masks[7]) is True
    # with a second 7 in play each 6 has its own partner
    game = Game.from_position(
        "medium", pyramid=[None] * 26 + ["6H", "6C"], stock=["7D", "2S", "7C"]
    )
    model = Model.from_game(game)
    assert not model.is_dead(model.root) and solve(game).winnable


@pytest.mark.parametrize("rules", [*SUM13, "egypt"])
def test_dead_end_test_cached_per_rank_class_answers_as_the_full_test(rules: str) -> None:
    # dead_after caches its answer per class remainder under sum-13 pairing; on random
    # positions (cards taken away at random, a pair or a King removed) it must answer as
    # the full test over the whole board: the cards the removal touched, then Hall's count
    rng = random.Random(rules)
    for deal in range(6):
        model = Model.from_game(Game(rules, deal=deal))
        slots = [s for s in range(model.deck_hi) if model.cards[s] >= 0]
        dead_seen = alive_seen = 0
        for _ in range(300):
            alive = model.root[0]
            for s in rng.sample(slots, rng.randrange(len(slots))):
                alive &= ~(1 << s)
            a = rng.choice(slots)
            mates = [b for b in slots if model.partners[a] >> b & 1]
            bits = 1 << a | (1 << rng.choice(mates) if mates else 0)
            left = alive & ~bits
            r = rank(model.cards[(bits & -bits).bit_length() - 1])
            check = union_of(model.affects, bits) & left
            full = starved_in(check, model.needs, left) or (
                r != 13 and not model.counts_ok(left, r)
            )
            assert dead_after(model, left, bits) is full, (deal, bin(left), bin(bits))
            dead_seen += full
            alive_seen += not full
        if model.required:  # both answers were asked, many from the cache
            assert dead_seen and alive_seen
        else:  # egypt: with a cell nothing is required, so no position is a dead end here
            assert not dead_seen
        assert len(model.dead_cache) <= 6 * 2**8 + 2**4


def test_king_removal_is_the_only_move_offered() -> None:
    game = Game.from_position("medium", pyramid=[None] * 25 + ["5H", "KS", "8C"], stock=["2D"])
    model = Model.from_game(game)
    moves = [model.describe(m) for m, _ in expand(model, model.root)]
    assert moves == ["KS"]
    # ...but not under adjacent pairing, where a King pairs with a Queen or a King.
    kings = get_rules("cheops").replace(name="cheops-kings", kings_alone=True)
    game = Game.from_position(kings, pyramid=[None] * 26 + ["KS", "QC"], stock=["2D"])
    model = Model.from_game(game)
    assert len(expand(model, model.root)) > 1


def test_buried_rule_in_the_last_pass() -> None:
    # Last pass: the waste holds 8D (no 5 is left, so it never goes) on top of 4S, the only
    # partner of the 9C in the pyramid. 9C can never be removed.
    game = Game.from_position(
        "hard", pyramid=[None] * 27 + ["9C"], stock=["2D"], wastes=[["4S", "8D"]]
    )
    model = Model.from_game(game)
    board, lo = model.root[0], model.root[1]
    assert buried(model, board, lo)
    assert solve(game).verdict is Verdict.UNWINNABLE
    # With a redeal left (medium, pass 1 of 3) the 4S comes back: not buried.
    game = Game.from_position(
        "medium", pyramid=[None] * 27 + ["9C"], stock=["2D"], wastes=[["4S", "8D"]]
    )
    assert solve(game).winnable


def test_unlimited_passes_do_not_loop() -> None:
    rules = get_rules("medium").replace(name="forever", passes=None)
    game = Game.from_position(rules, pyramid=[None] * 27 + ["9C"], stock=["2D", "3H", "JS"])
    assert solve(game).verdict is Verdict.UNWINNABLE
    game = Game("easy", deal=7)
    assert solve(game).winnable


def test_cards_are_named_in_the_line() -> None:
    game = Game.from_position("hard", pyramid=[None] * 27 + ["5H"], stock=["2D", "8C"])
    assert [str(m) for m in solve(game).moves] == ["draw", "draw", "5H+8C"]
    assert card_str(parse_card("8C")) == "8C"


def test_a_pyramid_card_already_in_the_cell_must_still_go() -> None:
    """Solving mid-game with a pyramid card parked in the egypt cell: it is no deck card."""
    g = Game.from_position("egypt", pyramid=[None] * 26 + ["5H", "9C"], stock=["2D", "3S", "4C"])
    g.play("cell 5H")
    assert solve(g).verdict is Verdict.UNWINNABLE  # 9C can go with 4C; 5H has no 8
    g = Game.from_position(
        "egypt", pyramid=[None] * 26 + ["5H", "9C"], stock=["2D", "3S", "4C", "8D"]
    )
    g.play("cell 5H")
    solution = solve(g)
    for move in solution.moves:
        g.play(move)
    assert g.status.value == "won"


def test_a_cell_under_one_waste_pile() -> None:
    """A rule set with one waste pile and a free cell: parking the waste top uncovers the
    card under it (this once crashed the move generator)."""
    rules = get_rules("egypt").replace(name="one-pile-cell", waste_piles=1, draw_count=1)
    game = Game.from_position(rules, pyramid=[None] * 27 + ["5H"], wastes=[["8D", "2C"]])
    for shortest in (False, True):
        solution = solve(game, shortest=shortest)
        assert [str(m) for m in solution.moves] == ["cell 2C", "5H+8D"]


# -- the garbage collector's pause ------------------------------------------------------


def test_solve_pauses_the_collector_and_turns_it_back_on() -> None:
    seen: list[bool] = []
    real = solver_module._decide

    def spy(model: Model, budget: object) -> object:
        seen.append(gc.isenabled())
        return real(model, budget)  # type: ignore[arg-type]

    assert gc.isenabled()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solver_module, "_decide", spy)
        assert solve(Game("medium", deal=7)).verdict == "winnable"
    assert seen == [False] and gc.isenabled()


def test_the_pause_ends_on_an_exception_and_keeps_a_collector_that_was_off() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("the search failed")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # it was off before: it stays off
    finally:
        gc.enable()


def test_overlapping_pauses_in_threads_share_one() -> None:
    # thread A pauses, B pauses, A ends (B still running: still paused), B ends: back on
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    states: dict[str, bool] = {}

    def first() -> None:
        with collector_paused():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def second() -> None:
        a_in.wait(5)
        with collector_paused():
            b_in.set()
            a_out.wait(5)
            states["after A ended"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert states == {"after A ended": False}
    assert gc.isenabled()


@pytest.mark.parametrize(
    "rules", ["easy", "medium", "hard", "relaxed", "apophis", "cheops", "egypt"]
)
def test_a_search_leaves_no_cyclic_garbage(rules: str) -> None:
    # the collector is paused during a search, so a search must not make reference cycles:
    # they would pile up until the pause ended (a recursive closure in the matching did)
    gc.collect()
    gc.disable()
    try:
        for deal in range(sized(3, quick=1)):
            solve(Game(rules, deal=deal), shortest=True, max_nodes=3_000)
        assert gc.collect() == 0
    finally:
        gc.enable()


# -- budgets (issue 14, item 9) ------------------------------------------------------------


@pytest.mark.parametrize("rules", ["medium", "hard", "relaxed", "apophis", "cheops", "egypt"])
@pytest.mark.parametrize("limit", [1, 2, 7, 100, 1500])
def test_a_node_limit_is_never_passed(rules: str, limit: int) -> None:
    for deal in (3, 29):
        for shortest in (False, True):
            solution = solve(Game(rules, deal=deal), shortest=shortest, max_nodes=limit)
            assert solution.nodes <= limit, (rules, deal, shortest, solution.nodes)


def test_a_node_limit_of_zero_searches_nothing() -> None:
    solution = solve(Game("medium", deal=7), max_nodes=0)
    assert solution.verdict is Verdict.UNKNOWN and solution.nodes == 0


@pytest.mark.parametrize("rules", ["medium", "relaxed", "egypt"])
def test_shortest_mode_keeps_the_line_it_proved_when_the_budget_ends(rules: str) -> None:
    deal = next(d for d in range(40) if solve(Game(rules, deal=d), max_nodes=20_000).winnable)
    game = Game(rules, deal=deal)
    decided = solve(game)
    # with no node left, or one (the A* root), the A* cannot finish its proof
    for limit in (decided.nodes, decided.nodes + 1):
        cut = solve(game, shortest=True, max_nodes=limit)
        assert cut.verdict is Verdict.WINNABLE and not cut.shortest and cut.nodes <= limit
        assert cut.moves == decided.moves and replay_wins(game, cut)


@pytest.mark.parametrize("rules", ["relaxed", "egypt", "king_tut"])
def test_an_unlimited_fewest_moves_search_stops_at_the_cap(
    rules: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With neither limit given the fewest-moves search stops after ``FEWEST_NODE_CAP``
    positions and returns the decision line, not proved shortest (so that a deal it cannot
    prove never fills the memory); with a time limit the cap does not apply."""
    deal = next(d for d in range(40) if solve(Game(rules, deal=d), max_nodes=20_000).winnable)
    game = Game(rules, deal=deal)
    decided, proved = solve(game), solve(game, shortest=True)
    assert proved.shortest and proved.nodes > decided.nodes + 3, (rules, deal)
    monkeypatch.setattr(solver_module, "FEWEST_NODE_CAP", 2)
    capped = solve(game, shortest=True)
    assert capped.winnable and not capped.shortest
    assert [str(m) for m in capped.moves] == [str(m) for m in decided.moves]
    assert capped.nodes <= decided.nodes + 2
    timed = solve(game, shortest=True, max_seconds=600.0)
    assert timed.shortest and len(timed.moves) == len(proved.moves)
