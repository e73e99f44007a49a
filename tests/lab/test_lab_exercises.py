"""The lab's exercises (issue 16.16): each says "not answered yet" for an empty answer cell,
✔ for the answer the data give, ✘ with what is off for a wrong one, and "could not read"
for a malformed one; they reuse the lessons' Check and Exercise."""

from __future__ import annotations

import pytest

from pyramid_widget.lab import exercises
from pyramid_widget.lab.experiments import Results, run_experiment, what_if
from pyramid_widget.lab.stats_ci import sample_size
from pyramid_widget.lessons.exercises import Check, Exercise


@pytest.fixture(scope="module")
def results() -> Results:
    return run_experiment("medium", ["greedy", "random"], games=60, seed=4, jobs=1, progress=False)


def _verdicts(ex: Exercise, right: object, wrong: object, malformed: object) -> None:
    assert isinstance(ex, Exercise)
    empty = ex.check(None)
    assert isinstance(empty, Check) and not empty and "Not answered yet" in empty.message
    good = ex.check(right)
    assert good, good
    assert repr(good).startswith("✔ Right!")
    bad = ex.check(wrong)
    assert not bad and repr(bad).startswith("✘ Not yet")
    unreadable = ex.check(malformed)
    assert not unreadable and "could not read" in unreadable.message


def test_known_sample_size() -> None:
    ex = exercises.known_sample_size(0.1955, 0.02)
    need = sample_size(0.02, 0.1955)
    _verdicts(ex, need, need // 2, "lots")
    assert "1.96" in repr(ex)


def test_estimate(results: Results) -> None:
    cell = results.summary()[0]
    ex = exercises.estimate(results, "medium", "greedy")
    _verdicts(ex, (cell.win_rate, cell.ci_low, cell.ci_high), (cell.win_rate, 0.0, 1.0), (1, 2))
    percent = (100 * cell.win_rate, 100 * cell.ci_low, 100 * cell.ci_high)
    assert ex.check(percent), "percentages are read as percentages"
    assert "share of decided games" in ex.check((0.99, cell.ci_low, cell.ci_high)).message


def test_games_needed(results: Results) -> None:
    p = results.summary()[0].win_rate
    ex = exercises.games_needed(results, 0.01)
    _verdicts(ex, sample_size(0.01, p), 400, "many")


def test_compare(results: Results) -> None:
    paired = results.paired("greedy", "random")
    ex = exercises.compare(results, "greedy", "random")
    right = (paired.only_first, paired.only_second, paired.p_value < 0.05)
    _verdicts(ex, right, (paired.only_second, paired.only_first, True), (1, 2))
    wrong_verdict = ex.check((paired.only_first, paired.only_second, not right[2]))
    assert not wrong_verdict and "counts are right" in wrong_verdict.message


def test_extra_pass() -> None:
    sweep = what_if(
        "medium", "passes", [1, 2], ["greedy"], games=60, seed=4, jobs=1, progress=False
    )
    rates = [c.win_rate for c in sweep.summary()]
    gain = 100 * (rates[1] - rates[0])
    ex = exercises.extra_pass(sweep, "greedy", (1, 2))
    _verdicts(ex, gain, gain + 5, "more")
    with pytest.raises(ValueError, match="what_if"):
        exercises.extra_pass(run_experiment("hard", "greedy", games=2, jobs=1, progress=False))


def test_ceiling() -> None:
    exact = run_experiment("medium", "perfect", games=6, seed=4, jobs=1, progress=False)
    cell = exact.summary()[0]
    ex = exercises.ceiling(exact, "medium", "perfect")
    _verdicts(
        ex,
        cell.win_rate_bounds,
        (0.0, 1.0) if cell.win_rate_bounds != (0.0, 1.0) else (0.5, 0.5),
        3,
    )
