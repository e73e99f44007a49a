"""Deals the solver proves winnable (the widget's "winnable deals only").

>>> from pyramid_widget import Game
>>> from pyramid_widget.solver.lines import winning_line
>>> n = winnable_deal("easy", start=0)
>>> winning_line(Game("easy", deal=n)) is not None
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from pyramid_widget.engine.deals import MAX_DEAL_NUMBER
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.rules import RuleSet, get_rules
from pyramid_widget.errors import ArgumentError, InvalidDealError, NoWinnableDealError
from pyramid_widget.solver.lines import checked_solve

__all__ = ["DEAL_SECONDS", "NoWinnableDealError", "search_winnable", "winnable_deal"]

DEAL_SECONDS = 2.0
"""Default time budget per deal tried by :func:`winnable_deal`."""
_RANDOM_START_LIMIT = 10**9


def winnable_deal(
    rules: str | RuleSet = "medium",
    *,
    start: int | None = None,
    bound: int = 50,
    max_seconds: float | None = DEAL_SECONDS,
    max_nodes: int | None = None,
) -> int:
    """The first deal number from ``start`` on that the solver proves winnable under ``rules``.

    Tries at most ``bound`` consecutive deal numbers, giving the solver ``max_seconds`` (and
    ``max_nodes``) for each; ``start=None`` picks a random start. Raises
    :class:`NoWinnableDealError` (a ``ValueError``) saying how many deals were unwinnable and
    how many undecided when none is found, :class:`~pyramid_widget.errors.InvalidDealError`
    for a ``start`` that is no deal number, and ``ArgumentError`` for a bound below 1.

    >>> winnable_deal("easy", start=0, bound=0)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.ArgumentError: bound must be a whole number of deals, at least 1; got 0
    """
    rule_set = get_rules(rules)
    if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
        raise ArgumentError(f"bound must be a whole number of deals, at least 1; got {bound!r}")
    first = _first_deal(start)
    last = min(first + bound - 1, MAX_DEAL_NUMBER)
    verdicts: Counter[str] = Counter()
    for number in range(first, last + 1):
        verdict = checked_solve(Game(rule_set, deal=number), max_seconds, max_nodes).verdict
        if verdict == "winnable":
            return number
        verdicts[verdict] += 1
    budget = f"{max_seconds:g} s" if max_seconds is not None else "no time limit"
    raise NoWinnableDealError(
        f"no winnable deal found for rule set {rule_set.name!r} among deals {first}..{last} "
        f"({verdicts['unwinnable']} proved unwinnable, {verdicts['unknown']} undecided within "
        f"{budget} each); try a larger bound or more time per deal"
    )


def _first_deal(start: object) -> int:
    """The deal number to start from: ``start``, or a random one when it is ``None``.

    >>> _first_deal(7)
    7
    >>> _first_deal("7")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidDealError: start must be a deal number from 0 to 18446744073709551615, or None for a random one, got str
    """
    if start is None:
        return random.randrange(_RANDOM_START_LIMIT)
    # Checked here: "0" failed on "0" + bound, and 2**64 tried no deal at all.
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= MAX_DEAL_NUMBER:
        got = start if isinstance(start, int) and not isinstance(start, bool) else None
        raise InvalidDealError(
            f"start must be a deal number from 0 to {MAX_DEAL_NUMBER}, or None for a random "
            f"one, got {type(start).__name__ if got is None else got}"
        )
    return start


def search_winnable(
    rules: str | RuleSet,
    *,
    start: int | None = None,
    max_seconds: float | None = 1.0,
    stop: Callable[[], bool] = lambda: False,
    progress: Callable[[int, int], object] = lambda tried, number: None,
    limit: int = 100_000,
) -> int | None:
    """Like :func:`winnable_deal` but without a visible bound, for a background thread: try
    deal numbers from ``start`` on (random when ``None``) until one is proved winnable, and
    return it; ``None`` when ``stop()`` turned true first (checked before every deal).
    ``progress(tried, number)`` is called before each deal. ``limit`` deals at most (then
    :class:`NoWinnableDealError`): with any real rule set a winnable deal comes long before.

    >>> seen = []
    >>> n = search_winnable("hard", start=0, progress=lambda tried, number: seen.append(tried))
    >>> n is not None and seen[0] == 0 and len(seen) == n + 1
    True
    >>> search_winnable("hard", start=0, stop=lambda: True) is None
    True
    """
    rule_set = get_rules(rules)
    first = _first_deal(start)
    for tried in range(limit):
        if stop():
            return None
        number = (first + tried) % (MAX_DEAL_NUMBER + 1)
        progress(tried, number)
        if checked_solve(Game(rule_set, deal=number), max_seconds, None).verdict == "winnable":
            return number
    raise NoWinnableDealError(
        f"no winnable deal found for rule set {rule_set.name!r} among {limit} deals from {first}"
    )
