"""Decision mode and shortest mode agree (issue 3), on 200 random numbered deals per preset.

For each preset, deal numbers drawn from a seeded ``random.Random``. On every deal the
decision search (:func:`pyramid_widget.solver.solve`) and the shortest-mode search run *on
its own* must not disagree: the A* of :mod:`pyramid_widget.solver.shortest_macro` for one waste pile,
else :func:`pyramid_widget.solver.shortest_moves.a_star`, from the deal itself, without the decision
search's free-stock relaxation in front. When both say winnable, both lines must replay
through the engine to a win and the shortest line must be no longer than the decision line.

Cost. The A* proves a deal unwinnable only by exhausting it, and proves a line shortest only
by ruling out every shorter one, so each A* run gets a node budget (:data:`NODES`), and on a
winnable deal the decision line's length as its ceiling (it must still find a line of its
own within it); the decision search gets a budget too (:data:`DECISION_NODES`). A run
that spends its budget proves nothing either way: the test requires
that no deal disagrees, and that at least :data:`CONFIRMED` deals of each chunk of
:data:`CHUNK` are settled by both modes. The budget is a node count, so which deals are
settled does not depend on the machine. Marked ``slow``; ``make test`` runs it (chunks of
ten deals, so the two xdist workers share the presets).
"""

from __future__ import annotations

import random

import pytest

from pyramid_widget import Game
from pyramid_widget.solver import solve
from pyramid_widget.solver.model import Model
from pyramid_widget.solver.search import Budget
from pyramid_widget.solver.shortest_macro import macro_a_star
from pyramid_widget.solver.shortest_moves import a_star

COUNTS = {
    "easy": 200,
    "medium": 200,
    "hard": 200,
    "relaxed": 200,
    "apophis": 200,
    "cheops": 200,
    "egypt": 200,
}
"""Deals per preset (under ``cheops`` the shortest-mode bound is the weakest, so most of its
runs spend the whole budget and settle nothing)."""

NODES = 20_000
"""Node budget of each shortest-mode run."""

DECISION_NODES = 200_000
"""Node budget of each decision run: deals 0-199 of every preset need at most 45,000 (see
the README), but random deals far from those can need more (one ``cheops`` deal here did
not finish in 250,000)."""

CHUNK = 10
CONFIRMED = {
    "easy": 3,
    "medium": 1,
    "hard": 5,
    "relaxed": 5,
    "apophis": 5,
    "cheops": 1,
    "egypt": 1,
}
"""Deals of each chunk of ten that both modes must settle, per preset: a little under the
fewest any chunk settles today (in all, about 175 of 200 for ``hard``, ``relaxed`` and
``apophis``, 100-120 for ``easy``, ``medium`` and ``egypt``, about 70 for ``cheops``), so a
search that gets much weaker fails the test."""

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
    confirmed = 0
    for number in _deals(preset)[first : first + CHUNK]:
        game = Game(preset, deal=number)
        decision = solve(game, max_nodes=DECISION_NODES)
        if decision.winnable is None:
            continue  # not decided within the budget: nothing to compare
        moves = [str(m) for m in decision.moves]
        if decision.winnable:
            assert _wins(game, moves), (preset, number)
        found, line = _shortest_alone(game, len(moves) if decision.winnable else None)
        if found is None:
            continue  # budget spent: no verdict to compare
        confirmed += 1
        assert decision.winnable is found, (preset, number)
        if found:
            assert _wins(game, line), (preset, number)
            assert len(line) <= len(moves), (preset, number)
    assert confirmed >= CONFIRMED[preset], (preset, first, confirmed)
