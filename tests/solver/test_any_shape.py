"""The solver against the plain exhaustive search on small positions of *any* shape.

:func:`~tests.solver.test_exhaustive.small_position` lays cards out as a deal would (a
few full bottom rows); here the pyramid is a random subset of the 28 slots, with gaps
anywhere (a card may sit far above a card that would normally cover it, with nothing in
between), a random stock, random waste piles, a random pass and, where the rule set has
cells, a card in a cell; some positions are then played on a few random legal moves (which
can park a pyramid card in the cell). These are exactly the positions
:meth:`Game.from_position <pyramid_widget.engine.game.Game.from_position>` accepts and
lessons build, and the prunings that assumed a deal-shaped pyramid called some of them
lost (issue 14, item 1).

The property: decision mode's verdict is the reference's, and shortest mode's line has the
reference's length (both lines replay to a win). Seeded; the case and failure counts of a
run are what :func:`agreement` returns (``benchmarks/bench_agreement.py`` prints them for
bigger samples).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from pyramid_widget import Game, RuleSet, get_rules
from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.rules import CLASSIC_ZONES, MULTI_WASTE_ZONES
from pyramid_widget.solver import Verdict, solve
from tests.solver.test_exhaustive import RULES as BASE_RULES
from tests.solver.test_exhaustive import reference

SEED = 20260514

EXTRA = {
    "two-cells": get_rules("egypt").replace(name="two-cells", cells=2),
    "draw-three-top": get_rules("relaxed").replace(name="draw-three-top", draw_count=3),
    "all-one-pile": get_rules("medium").replace(name="all-one-pile", win="all"),
    "easy-three": get_rules("easy").replace(name="easy-three", draw_count=3),
    "cheops-all": get_rules("cheops").replace(name="cheops-all", win="all"),
    # a card gains partners by going into the cell (rule cell-follow-up's precondition)
    "cell-bridge": RuleSet(
        name="cell-bridge",
        passes=1,
        cells=1,
        pair_zones=frozenset({"pyramid+pyramid", "cell+pyramid"}),
    ),
    "cell-cell": RuleSet(
        name="cell-cell", passes=1, cells=2, pair_zones=CLASSIC_ZONES | {"cell+cell"}
    ),
    "cell-waste-piles": RuleSet(
        name="cell-waste-piles",
        waste_piles=2,
        draw_count=2,
        passes=1,
        cells=1,
        win="all",
        pair_zones=CLASSIC_ZONES | {"cell+waste"},
    ),
    "cell-stock": RuleSet(
        name="cell-stock",
        pairing="adjacent",
        kings_alone=False,
        draw_count=2,
        passes=1,
        cells=1,
        stock_top_available=True,
        stock_face_up=True,
        pair_zones=CLASSIC_ZONES | {"cell+cell", "cell+stock"},
    ),
    # two cells, one pile: two cell moves in a row, each for the other's next move
    "two-cells-one-pile": RuleSet(
        name="two-cells-one-pile",
        passes=1,
        cells=2,
        stock_face_up=True,
        pair_zones=MULTI_WASTE_ZONES | {"cell+waste"},
    ),
    # the stock top is available but pairs with nothing: only a King leaves it undealt
    # (shortest_moves.deal_bound's precondition)
    "top-king-all": RuleSet(
        name="top-king-all",
        draw_count=2,
        passes=1,
        win="all",
        stock_top_available=True,
        stock_face_up=True,
    ),
}
"""Rule sets beyond :data:`~tests.solver.test_exhaustive.RULES` whose switches meet the
prunings' preconditions in other ways (two cells, three cards a draw with the stock top
available or under the stall rule, every card to go with one pile), or break them: a cell
that pairs with zones the card's own zone does not, a stock top that pairs with nothing."""
RULES = {**BASE_RULES, **EXTRA}


def any_shape(rules: RuleSet, rng: random.Random) -> Game:
    """A random small position the engine accepts: any pyramid slots, gaps anywhere."""
    deck = list(range(52))
    rng.shuffle(deck)
    small = rules.waste_piles > 1 or bool(rules.cells)
    count = rng.choice([1, 2, 2, 3, 3, 4] if small else [1, 2, 2, 3, 3, 4, 4, 5])
    slots = rng.sample(range(28), count)
    pyramid: list[int | None] = [None] * 28
    for slot in slots:
        pyramid[slot] = deck.pop()
    stock: list[int] = []
    room = 4 if small else 6
    for slot in slots:
        card = pyramid[slot]
        mates = [c for c in deck if card is not None and rules.pairs(card, c)]
        if mates and rng.random() < 0.75 and len(stock) < room:
            stock.append(mates[0])
            deck.remove(mates[0])
    stock += [deck.pop() for _ in range(rng.randint(0, 2))]
    rng.shuffle(stock)
    wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
    for _ in range(rng.randint(0, 2)):
        if stock and rng.random() < 0.5:
            rng.choice(wastes).append(stock.pop())
    cells: list[int | None] = []
    if rules.cells and stock and rng.random() < 0.3:
        cells.append(stock.pop())
    top = rules.passes if rules.passes is not None else 3
    pass_number = rng.randint(1, top) if rng.random() < 0.3 else 1
    game = Game.from_position(
        rules, pyramid=pyramid, stock=stock, wastes=wastes, cells=cells, pass_number=pass_number
    )
    if rng.random() < 0.3:
        for _ in range(rng.randint(1, 3)):
            moves = list(game.legal_moves)
            if not moves or game.is_over:
                break
            game.play(rng.choice(moves))
    return game


def describe(game: Game) -> str:
    """The position as ``Game.from_position`` arguments (for a failure message)."""
    pyramid = [None if c is None else card_str(c) for c in game.pyramid]
    return (
        f"Game.from_position({game.rules.name!r}, pyramid={pyramid!r}, "
        f"stock={[card_str(c) for c in game.stock]!r}, "
        f"wastes={[[card_str(c) for c in p] for p in game.wastes]!r}, "
        f"cells={[None if c is None else card_str(c) for c in game.cells]!r}, "
        f"pass_number={game.pass_number})"
    )


@dataclass
class Tally:
    """Cases tried and the ones that disagreed (with what went wrong)."""

    cases: int = 0
    winnable: int = 0
    failures: list[str] = field(default_factory=list)


def check(game: Game, tally: Tally) -> None:
    """Compare decision and shortest mode with :func:`reference` on one position."""
    truth = reference(game)
    tally.cases += 1
    tally.winnable += truth is not None
    for shortest in (False, True):
        solution = solve(game, shortest=shortest)
        mode = "shortest" if shortest else "decision"
        if solution.winnable is not (truth is not None):
            tally.failures.append(
                f"{mode}: {solution.verdict.value}, truth {truth}: {describe(game)}"
            )
            return
        if truth is None:
            continue
        replay = game.copy()
        for move in solution.moves:
            replay.play(move)
        if replay.status.value != "won":
            tally.failures.append(f"{mode}: line does not win: {describe(game)}")
        elif shortest and (not solution.shortest or len(solution.moves) != truth):
            tally.failures.append(
                f"{mode}: {len(solution.moves)} moves, fewest {truth}: {describe(game)}"
            )


def agreement(name: str, cases: int, seed: int = SEED) -> Tally:
    """Run ``cases`` random any-shape positions under rule set ``name``."""
    rng = random.Random(f"{seed}-{name}")
    tally = Tally()
    for _ in range(cases):
        check(any_shape(RULES[name], rng), tally)
    return tally


CASES = 40
"""Positions per rule set in the suite (25 rule sets, 1,000 positions, about 15 s in all)."""


@pytest.mark.parametrize("name", sorted(RULES))
def test_any_shape_agrees_with_plain_search(name: str) -> None:
    tally = agreement(name, CASES)
    assert tally.cases == CASES
    assert not tally.failures, "\n".join(tally.failures)
    assert 0 < tally.winnable < tally.cases  # both verdicts turn up


@pytest.mark.parametrize(
    ("rules", "pyramid", "stock", "first"),
    [
        ("medium", ["5H"] + [None] * 26 + ["8S"], [], "5H+8S"),  # issue 14's example
        ("easy", ["5H"] + [None] * 26 + ["8S"], [], "5H+8S"),
        ("hard", ["5H"] + [None] * 26 + ["8S"], ["2C"], "5H+8S"),
        ("relaxed", [None] * 3 + ["6D"] + [None] * 20 + ["7C"] + [None] * 3, [], "6D+7C"),
        ("apophis", ["5H"] + [None] * 26 + ["8S"], [], "5H+8S"),
        ("egypt", ["5H"] + [None] * 26 + ["8S"], ["2C"], "5H+8S"),
        ("cheops", ["5H"] + [None] * 26 + ["6S"], [], "5H+6S"),
        ("cheops", [None, "9D"] + [None] * 20 + ["9C"] + [None] * 5, ["2S"], "9C+9D"),
    ],
)
def test_a_card_above_a_gap_meets_the_card_below(
    rules: str, pyramid: list[str | None], stock: list[str], first: str
) -> None:
    # the two cards sit on one covering line with empty slots between them: both are
    # available now, so the pair wins (no prune may assume the slots between are full)
    game = Game.from_position(rules, pyramid=pyramid, stock=stock)
    assert first in [str(m) for m in game.legal_moves]
    for shortest in (False, True):
        solution = solve(game, shortest=shortest)
        assert solution.verdict is Verdict.WINNABLE, (rules, shortest)
        assert str(solution.moves[0]) == first
        trial = game.copy()
        for move in solution.moves:
            trial.play(move)
        assert trial.status.value == "won"


def _wins(game: Game, moves: list[str]) -> bool:
    trial = game.copy()
    for move in moves:
        trial.play(move)
    return trial.status.value == "won"


def test_a_waste_king_stays_when_three_cards_a_draw_come_round_again() -> None:
    # Taking KS off the waste at once changes how the redealt waste falls into threes
    # (the win needs 7S on top after the redeal, and KS is what puts it there).
    rules = get_rules("medium").replace(name="draw-three", draw_count=3)
    pyramid: list[str | None] = [None] * 28
    for slot, card in ((1, "6H"), (7, "7C"), (16, "2C"), (20, "3H"), (23, "9D")):
        pyramid[slot] = card
    stock = ["4C", "TD", "6S", "JS", "7S", "7D"]
    game = Game.from_position(rules, pyramid=pyramid, stock=stock, wastes=[["KS"]])
    assert reference(game) == 9
    solution = solve(game)
    assert solution.winnable and _wins(game, [str(m) for m in solution.moves])
    assert len(solve(game, shortest=True).moves) == 9


def test_a_pyramid_king_parked_in_the_cell_can_leave_it() -> None:
    # the free-stock test let no King leave the cell, so this was called lost
    pyramid: list[str | None] = [None] * 28
    pyramid[0], pyramid[15], pyramid[17] = "KC", "9H", "AH"
    game = Game.from_position("egypt", pyramid=pyramid, stock=["4D", "2H", "QS"])
    game.play("cell KC")
    assert reference(game) == 4
    solution = solve(game, shortest=True)
    assert solution.winnable and len(solution.moves) == 4
    assert _wins(game, [str(m) for m in solution.moves])


def test_two_full_cells_one_card_stuck_the_other_free_to_go() -> None:
    # QD can never leave its cell (no Ace left), but 6S in the other cell pairs with 7H;
    # only one cell card was looked at, so both counted as stuck and the 6S as lost
    game = Game.from_position(
        EXTRA["two-cells"], pyramid=[None] * 27 + ["6S"], stock=["QS", "7H"], wastes=[["QD"]]
    )
    for move in ("cell 6S", "cell QD", "draw"):
        game.play(move)
    for shortest in (False, True):
        assert [str(m) for m in solve(game, shortest=shortest).moves] == ["6S+7H"]


def test_a_stock_top_king_is_not_removed_when_the_win_needs_no_draw() -> None:
    # relaxed, shortest mode: 6C+7D then AD+QC wins in two; KC on the stock top may stay
    pyramid: list[str | None] = [None] * 28
    pyramid[17], pyramid[23] = "AD", "7D"
    game = Game.from_position("relaxed", pyramid=pyramid, stock=["6C", "KC"], wastes=[["QC"]])
    solution = solve(game, shortest=True)
    assert [str(m) for m in solution.moves] == ["6C+7D", "AD+QC"]
