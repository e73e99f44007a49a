"""Positions that broke a pruning rule's or a bound's precondition under rule sets no preset
uses, found by a random audit on 2026-12-06 (123,860 preset positions agreed; 28 of 75,779
random rule-set combinations did not). Each is checked against the plain exhaustive search
of :func:`tests.solver.test_exhaustive.reference`: the verdict, a line that wins, and, in
shortest mode, the fewest moves. The rule sets are the any-shape and family tests' own, which
also run random positions under them.

- Rule ``cell-follow-up`` took a card into the cell only for a next move that used a card
  the cell move freed, arguing that the card itself "was available where it lay". Where the
  cell pairs with a zone the card's own zone does not (``cell+pyramid`` without
  ``pyramid+waste``, ``cell+waste`` across two piles without ``waste+waste``,
  ``cell+cell``, ``cell+stock``), the card gains partners by going there; winnable
  positions were called lost. With two cells it also assumed that the move after a cell move
  is no cell move; two cell moves that each free a card for the other's next move broke it
  (the rule now needs exactly one cell).
- ``shortest_moves.deal_bound`` counted the draws needed to deal stock cards out, though a
  King on an available stock top leaves undealt.
- Rule ``g-bound`` gave every King that may go alone a move of its own, though under
  ``sum11`` (King + King) and adjacent ranks two Kings can leave together.
"""

from __future__ import annotations

import pytest

from pyramid_widget import Game
from pyramid_widget.solver import Verdict, solve
from tests.solver.test_any_shape import RULES as ANY
from tests.solver.test_exhaustive import reference
from tests.solver.test_family_exhaustive import RULES as FAMILY


def _slots(**cards: str) -> list[str | None]:
    pyramid: list[str | None] = [None] * 28
    for slot, card in cards.items():
        pyramid[int(slot[1:])] = card
    return pyramid


def cell_bridge() -> Game:
    return Game.from_position(ANY["cell-bridge"], pyramid=_slots(p27="5H"), stock=["8C"])


def cell_waste_piles() -> Game:
    return Game.from_position(ANY["cell-waste-piles"], pyramid=[None] * 28, wastes=[["5H"], ["8C"]])


def cell_cell() -> Game:
    game = Game.from_position(ANY["cell-cell"], pyramid=_slots(p27="TC"), stock=["3S"])
    game.play("cell TC")
    return game


def cell_stock() -> Game:
    pyramid = _slots(p0="6S", p14="3H", p25="7S")
    return Game.from_position(ANY["cell-stock"], pyramid=pyramid, stock=["3S", "7D"])


def two_cell_moves() -> Game:
    pyramid = _slots(p2="3C", p4="AC", p9="8H")
    return Game.from_position(
        ANY["two-cells-one-pile"], pyramid=pyramid, wastes=[["QC", "TS", "3S", "5S"]]
    )


def top_king(draw: int) -> Game:
    rules = ANY["top-king-all"].replace(name=f"top-king-{draw}", draw_count=draw)
    return Game.from_position(rules, pyramid=_slots(p21="KC"), stock=["KS", "KH"])


def kings_pair() -> Game:
    rules = FAMILY["sum11-kings-all"]
    return Game.from_position(rules, pyramid=_slots(p26="KH", p27="KS"), stock=["KD", "KC"])


CASES = {
    "cell-bridge": (cell_bridge, 3),
    "cell-waste-piles": (cell_waste_piles, 2),
    "cell-cell": (cell_cell, 3),
    "cell-stock": (cell_stock, 3),
    "top-king-draw-two": (lambda: top_king(2), 3),
    "top-king-draw-one": (lambda: top_king(1), 3),
    "kings-pair": (kings_pair, 3),
    "two-cell-moves": (two_cell_moves, 5),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_solver_agrees_with_plain_search(name: str) -> None:
    make, fewest = CASES[name]
    game = make()
    assert reference(game) == fewest  # the position is as the audit found it
    for shortest in (False, True):
        solution = solve(game, shortest=shortest)
        assert solution.verdict is Verdict.WINNABLE, (name, shortest)
        replay = game.copy()
        for move in solution.moves:
            replay.play(move)
        assert replay.status.value == "won"
        if shortest:
            assert solution.shortest and len(solution.moves) == fewest, solution.moves
