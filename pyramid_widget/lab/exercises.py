"""The exercises of the probability lab (notebook 06): each is a question about the data the
notebook made, an answer the student types into a cell, and a check that says right or
wrong (and what is off), in the style of :mod:`pyramid_widget.lessons.exercises`.

Each function takes the experiment the question is about and returns an
:class:`~pyramid_widget.lessons.exercises.Exercise`; its ``check(answer)`` gives a
:class:`~pyramid_widget.lessons.exercises.Check` (✔ or ✘ and a sentence). ``None``, the
answer cells' starting value, is "not answered yet".

>>> from pyramid_widget.lab.experiments import run_experiment
>>> results = run_experiment("medium", "greedy", games=40, seed=1, jobs=1, progress=False)
>>> ex = estimate(results)
>>> ex.check(None)
✘ Not answered yet: in the answer cell, put (estimate, low, high), as fractions like 0.25.
>>> cell = results.summary()[0]
>>> ex.check((cell.win_rate, cell.ci_low, cell.ci_high))
✔ Right! greedy wins 37.5% of medium deals, 95% interval [24.2%, 53.0%].
>>> ex.check((0.375, 0.3, 0.45))
✘ Not yet: the interval is [24.2%, 53.0%]: read ci_low and ci_high of the medium / greedy cell.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from pyramid_widget.errors import ArgumentError
from pyramid_widget.lab.experiments import Results, Summary
from pyramid_widget.lab.stats_ci import sample_size
from pyramid_widget.lessons.exercises import Check, Exercise

__all__ = [
    "ceiling",
    "compare",
    "estimate",
    "extra_pass",
    "games_needed",
    "known_sample_size",
]


def _answered(form: str, checker: Callable[[Any], Check]) -> Callable[[Any], Check]:
    """``checker``, with ``None`` (an empty answer cell) read as "not answered yet"."""

    def check(answer: Any) -> Check:
        if answer is None:
            return Check(False, f"Not answered yet: in the answer cell, put {form}.")
        return checker(answer)

    return check


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise TypeError(f"{what} should be a number, got {value!r}")
    return float(value)


def _fraction(value: Any, what: str) -> float:
    """A probability given as 0.25 (or as 25 meaning 25%)."""
    x = _number(value, what)
    if 1 < x <= 100:
        x /= 100
    if not 0 <= x <= 1:
        raise ArgumentError(f"{what} should be a probability between 0 and 1, got {value!r}")
    return x


def _cell(results: Results, rules: str, strategy: str) -> Summary:
    for cell in results.summary():
        if cell.rules == rules and cell.strategy == strategy:
            return cell
    raise ArgumentError(f"the results hold no {rules} / {strategy} cell")


def _close_count(given: Any, expected: int, tolerance: float, what: str) -> bool:
    n = _number(given, what)
    return abs(n - expected) <= max(1.0, tolerance * expected)


def known_sample_size(truth: float, half_width: float = 0.02) -> Exercise:
    """How many deals for a 95% interval of ± ``half_width`` around the known probability?"""

    def check(answer: Any) -> Check:
        need = sample_size(half_width, truth)
        if _close_count(answer, need, 0.02, "the number of deals"):
            return Check(True, f"Right! n = 1.96² p(1 - p) / h² = {need} deals.")
        return Check(
            False,
            f"Not yet: with p = {truth:.4f} and h = {half_width}, n = 1.96² p(1 - p) / h²; "
            f"you said {answer}.",
        )

    return Exercise(
        f"The bottom row holds no pair with probability p = {truth:.4f}. How many deals do "
        f"you need for a 95% interval of ±{half_width:.0%} (half-width h = {half_width})? "
        "Use n = 1.96² p(1 - p) / h² and round up.",
        _answered("a whole number of deals", check),
    )


def estimate(results: Results, rules: str = "medium", strategy: str = "greedy") -> Exercise:
    """The win rate of one cell and its 95% interval, as ``(estimate, low, high)``."""
    cell = _cell(results, rules, strategy)
    right = (
        f"{strategy} wins {cell.win_rate:.1%} of {rules} deals, 95% interval "
        f"[{cell.ci_low:.1%}, {cell.ci_high:.1%}]"
    )

    def check(answer: Any) -> Check:
        rate, low, high = (_fraction(x, "each value") for x in answer)
        if abs(rate - cell.win_rate) > 0.005:
            return Check(
                False,
                f"Not yet: the estimate is the share of decided games won, "
                f"{cell.won} of {cell.won + cell.lost}.",
            )
        if abs(low - cell.ci_low) > 0.005 or abs(high - cell.ci_high) > 0.005:
            return Check(
                False,
                f"Not yet: the interval is [{cell.ci_low:.1%}, {cell.ci_high:.1%}]: read "
                f"ci_low and ci_high of the {rules} / {strategy} cell.",
            )
        return Check(True, f"Right! {right}.")

    return Exercise(
        f"What is the probability that {strategy} wins a {rules} deal? Give the estimate and "
        "its 95% interval as (estimate, low, high).",
        _answered("(estimate, low, high), as fractions like 0.25", check),
    )


def games_needed(
    results: Results, half_width: float = 0.01, rules: str = "medium", strategy: str = "greedy"
) -> Exercise:
    """How many games for a 95% interval of ± ``half_width`` at the measured rate?"""
    cell = _cell(results, rules, strategy)

    def check(answer: Any) -> Check:
        need = sample_size(half_width, cell.win_rate)
        if _close_count(answer, need, 0.05, "the number of games"):
            return Check(
                True,
                f"Right! About {need} games: four times the games halve the interval, so "
                f"±{half_width:.0%} costs (width now / width wanted)² times the games you have.",
            )
        return Check(
            False,
            f"Not yet: with p ≈ {cell.win_rate:.3f}, n = 1.96² p(1 - p) / h² with "
            f"h = {half_width}; you said {answer}.",
        )

    return Exercise(
        f"How many games would you need for a 95% interval of ±{half_width:.0%} around "
        f"{strategy}'s {rules} win rate?",
        _answered("a whole number of games", check),
    )


def compare(duel: Results, first: str, second: str, rules: str | None = None) -> Exercise:
    """The discordant deals and the verdict of McNemar's test at the 5% level."""
    paired = duel.paired(first, second, rules)

    def check(answer: Any) -> Check:
        only_first, only_second, better = answer
        counts = (_number(only_first, "a count"), _number(only_second, "a count"))
        if counts != (paired.only_first, paired.only_second):
            return Check(
                False,
                f"Not yet: count the deals only {first} won and only {second} won "
                "(the off-diagonal cells of the paired table).",
            )
        significant = paired.p_value < 0.05 and paired.only_first > paired.only_second
        if not isinstance(better, bool) or better != significant:
            return Check(
                False,
                f"Not yet: the counts are right; McNemar's p = {paired.p_value:.2g}: is that "
                f"below 0.05 with {first} ahead? Answer True or False.",
            )
        verdict = "is" if significant else "is not shown to be"
        return Check(
            True,
            f"Right! {paired.only_first} against {paired.only_second}, p = "
            f"{paired.p_value:.2g}: {first} {verdict} better than {second}.",
        )

    return Exercise(
        f"On how many deals did only {first} win, and only {second}? Does McNemar's test "
        f"show {first} better at the 5% level? Answer (only_{first}, only_{second}, True or "
        "False).",
        _answered(f"(only_{first}, only_{second}, True or False)", check),
    )


def extra_pass(sweep: Results, strategy: str = "greedy", step: Sequence[int] = (1, 2)) -> Exercise:
    """How many percentage points one more pass adds (from ``step[0]`` to ``step[1]``)."""
    if sweep.parameter != "passes":
        raise ArgumentError("give the results of what_if(..., 'passes', ...)")
    by_value = {sweep.values[name]: name for name in sweep.rules}
    before, after = (_cell(sweep, by_value[v], strategy) for v in step)
    gain = 100 * (after.win_rate - before.win_rate)

    def check(answer: Any) -> Check:
        points = _number(answer, "the gain")
        if abs(points) < 1 and abs(gain) >= 1:
            points *= 100  # given as a fraction
        if abs(points - gain) <= 0.5:
            return Check(True, f"Right! {gain:+.1f} percentage points.")
        return Check(
            False,
            f"Not yet: subtract the win rate with {step[0]} pass(es) from the one with "
            f"{step[1]}, in percentage points; you said {answer}.",
        )

    return Exercise(
        f"How many percentage points does {strategy}'s win rate gain from {step[0]} to "
        f"{step[1]} passes?",
        _answered("a number of percentage points", check),
    )


def ceiling(exact: Results, rules: str = "hard", strategy: str = "perfect") -> Exercise:
    """The perfect win rate's bounds: every unknown deal lost, then every one won."""
    cell = _cell(exact, rules, strategy)
    low, high = cell.win_rate_bounds

    def check(answer: Any) -> Check:
        given = tuple(_fraction(x, "each bound") for x in answer)
        if len(given) != 2:
            raise ArgumentError("give two numbers, (all lost, all won)")
        if abs(given[0] - low) <= 0.005 and abs(given[1] - high) <= 0.005:
            return Check(
                True,
                f"Right! Between {low:.1%} and {high:.1%}: {cell.unknown} unknown deals "
                f"of {cell.games}.",
            )
        return Check(
            False,
            f"Not yet: over all {cell.games} deals, count the {cell.won} wins, then add the "
            f"{cell.unknown} unknown ones as wins (cell.win_rate_bounds).",
        )

    return Exercise(
        f"Under {rules}, what would {strategy}'s win rate be if every unknown deal were lost, "
        "and if every one were won? Answer (all lost, all won).",
        _answered("(all lost, all won), as fractions", check),
    )
