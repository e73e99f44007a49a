"""A bad value given to any room's public functions is a ``PyramidError`` (a ``ValueError``)
with one sentence, as bad input to the engine is: a notebook can catch them all with one
``except PyramidError``. (Wrong *types* stay ``TypeError``, as in Python itself.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pyramid_widget import Game, PyramidError, PyramidWidget
from pyramid_widget.engine.layout import position
from pyramid_widget.lab.experiments import run_experiment
from pyramid_widget.lab.known import no_pair_probability
from pyramid_widget.lab.stats_ci import sample_size, wilson
from pyramid_widget.solver import solve
from pyramid_widget.solver.winnable import winnable_deal

CALLS: dict[str, Callable[[], Any]] = {
    "run_experiment games=0": lambda: run_experiment("hard", "greedy", 0, progress=False),
    "run_experiment no deals": lambda: run_experiment("hard", "greedy", deals=[], progress=False),
    "run_experiment same rules twice": lambda: run_experiment(
        ["hard", "hard"], "greedy", 2, progress=False
    ),
    "wilson more successes than games": lambda: wilson(5, 3),
    "sample_size half width 2": lambda: sample_size(2.0),
    "no_pair_probability 60 cards": lambda: no_pair_probability(60),
    "solve max_seconds nan": lambda: solve(Game("hard", deal=1), max_seconds=float("nan")),
    "winnable_deal bound 0": lambda: winnable_deal("hard", bound=0),
    "svg theme": lambda: Game("hard", deal=1).svg(theme="sepia"),
    "layout position": lambda: position(7, 0),
    "widget hint level 3": lambda: PyramidWidget("hard", deal=1, records=False).hint(level=3),
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_bad_value_is_a_pyramid_error_in_one_sentence(call: str) -> None:
    with pytest.raises(PyramidError) as caught:
        CALLS[call]()
    text = str(caught.value)
    assert text and "\n" not in text and len(text) < 300, text
