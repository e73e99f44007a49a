"""The suite's two tiers: ``make test`` (the quick tier) and ``pytest --thorough``.

The random-position agreement checks (the solver against the plain search, the hint against
``greedy``, the fair strategies against shuffled hidden cards …) draw their positions from
fixed seeds. The quick tier takes a prefix of those seeds, sized so that each check still
meets every position kind it is there to catch (the tests assert their own minimum counts);
``--thorough`` takes them all. A seed means the same position in both tiers, so a failure
the thorough run finds names a seed that reproduces it.

>>> seeds(range(100, 160), quick=20) in (range(100, 120), range(100, 160))
True
"""

from __future__ import annotations

THOROUGH = False
"""Set by the root ``conftest.py`` from ``--thorough`` before any test module is collected."""


def sized(thorough: int, *, quick: int) -> int:
    """``thorough`` under ``pytest --thorough``, else ``quick`` (never more than ``thorough``).

    >>> sized(5, quick=9)
    5
    """
    return thorough if THOROUGH else min(quick, thorough)


def seeds(thorough: range, *, quick: int) -> range:
    """The first ``quick`` seeds of ``thorough`` (all of them under ``--thorough``).

    >>> seeds(range(100, 105), quick=20)
    range(100, 105)
    """
    return thorough[: sized(len(thorough), quick=quick)]
