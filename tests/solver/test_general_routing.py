"""Which search takes which rule set: the general search decides King Tut and Traditional
(one waste pile, every card to go or draw three), the seven original presets and Dark
Pyramid keep the classic searches, and a shortest line on the classic shape still comes
from the classic model's A*."""

from __future__ import annotations

from typing import Any

import pytest

from pyramid_widget import Game, get_rules
from pyramid_widget.solver import general, solve
from pyramid_widget.solver.general import fits_classic
from tests.solver.test_exhaustive import reference

ORIGINAL = ("relaxed", "medium", "hard", "cheops", "apophis", "egypt", "easy")


def test_king_tut_and_traditional_go_to_the_general_search() -> None:
    assert all(fits_classic(get_rules(name)) for name in (*ORIGINAL, "dark_pyramid"))
    assert not fits_classic(get_rules("king_tut"))
    assert not fits_classic(get_rules("traditional"))
    # data, not names: the same rules under another name go the same way
    assert not fits_classic(get_rules("medium").replace(name="medium-all", win="all"))
    assert not fits_classic(get_rules("hard").replace(name="hard-three", draw_count=3))


def test_a_shortest_line_on_the_classic_shape_comes_from_the_classic_a_star(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[Any] = []
    classic = general._classic_fewest

    def spy(*args: Any) -> Any:
        calls.append(args)
        return classic(*args)

    monkeypatch.setattr(general, "_classic_fewest", spy)
    game = Game.from_position(
        "king_tut", pyramid=[None] * 25 + ["5H", "9C", "KD"], stock=["2C", "4S", "8D", "QH"]
    )
    solution = solve(game, shortest=True)
    assert calls, "the classic A* was not asked"
    assert solution.shortest and len(solution.moves) == reference(game)
    replay = game.copy()
    for move in solution.moves:
        replay.play(move)
    assert replay.status.value == "won"
