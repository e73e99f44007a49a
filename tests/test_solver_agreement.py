"""Decision mode and shortest mode agree (issue 3), on random numbered deals per preset.

For each preset, deal numbers drawn from a seeded ``random.Random``: the decision search
(:func:`pyramid_widget.solver.solve`) and the shortest-mode search run on its own (the A*
of :mod:`pyramid_widget.solver_fewest` for one waste pile, else
:func:`pyramid_widget.solver_search.a_star`, without the decision search's free-stock test
in front) must not disagree; when winnable, both lines must replay through the engine to a
win and the shortest line must be no longer than the decision line.

Cost. Alone, the A* must exhaust an unwinnable deal without the relaxations that make the
decision fast (some relaxed deals take 40 s, cheops and egypt deals often minutes), so each
A* run gets a node budget, and on a winnable deal the decision line's length as its
ceiling (the A* must still find a line of its own, within it). A run that spends its
budget proves nothing either way; the test requires that no deal disagrees and that some
deal of every chunk is confirmed (most are, except on medium, apophis, cheops and egypt,
where about half are; egypt's A* confirms none within the budget yet, so egypt only checks
that nothing disagrees). The budget is a node count, so the outcome does not
depend on the machine. Counts per preset keep the file at a few minutes of CPU over two
xdist workers (chunks of five deals, so the workers share them). Marked ``slow``;
``make test`` runs it.
"""

from __future__ import annotations

import random

import pytest

from pyramid_widget import Game
from pyramid_widget.solver import solve
from pyramid_widget.solver_fewest import macro_a_star
from pyramid_widget.solver_model import Model
from pyramid_widget.solver_search import Budget, a_star

COUNTS = {
    "easy": 10,
    "medium": 10,
    "hard": 40,
    "relaxed": 15,
    "apophis": 10,
    "cheops": 5,
    "egypt": 5,
}
"""Deals per preset (see the module docstring)."""

NODES = 40_000
"""Node budget of each shortest-mode run."""

CHUNK = 5
SEED = 20261129


def _deals(preset: str) -> list[int]:
    rng = random.Random(f"{SEED}-{preset}")
    return [rng.randrange(2**32) for _ in range(COUNTS[preset])]


def _shortest_alone(game: Game, ceiling: int | None) -> tuple[bool | None, list[str]]:
    model = Model.from_game(game).for_shortest()
    search = macro_a_star if model.macro else a_star
    result = search(model, Budget(NODES, None), ceiling)
    return result.found, [str(m) for m in result.line]


def _wins(game: Game, line: list[str]) -> bool:
    trial = game.copy()
    for move in line:
        trial.play(move)
    return trial.status.value == "won"


CASES = [(preset, first) for preset, count in COUNTS.items() for first in range(0, count, CHUNK)]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "first"), CASES)
def test_decision_and_shortest_agree(preset: str, first: int) -> None:
    numbers = _deals(preset)[first : first + CHUNK]
    confirmed = 0
    for number in numbers:
        game = Game(preset, deal=number)
        decision = solve(game)
        assert decision.winnable is not None, (preset, number)
        moves = [str(m) for m in decision.moves]
        found, line = _shortest_alone(game, len(moves) if decision.winnable else None)
        if found is None:
            continue  # budget spent: no verdict to compare
        confirmed += 1
        assert decision.winnable is found, (preset, number)
        if found:
            assert _wins(game, moves) and _wins(game, line), (preset, number)
            assert len(line) <= len(moves), (preset, number)
    # at least one deal of the chunk confirmed; egypt's A* (solver_search.a_star, being
    # reworked) does not finish its deals within the budget yet
    assert confirmed or preset == "egypt", (preset, first)
