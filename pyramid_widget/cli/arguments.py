"""Argument types and limits shared by the subcommands: each refuses a bad value with one
sentence, which argparse prints as ``pyramid-widget COMMAND: error: argument --X: ...``.

The stated maxima keep a mistyped number from filling the memory or the process table:

* :data:`MAX_JOBS` worker processes;
* :data:`MAX_BATCH` deals in one ``solve --numbers`` range (deals stream one at a time, so
  the limit only bounds the run's length: split a longer one into several runs);
* the lab's ``MAX_GAMES`` deals per cell in one ``experiment`` (the lab keeps every row in
  memory; :mod:`pyramid_widget.lab.experiments` holds that limit for the API and the CLI).

>>> seconds("2.5"), jobs("3"), deal_number("18446744073709551615") == 2**64 - 1
(2.5, 3, True)
>>> seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a number of seconds above 0, like 10, got 'nan'
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from pyramid_widget.engine.deals import MAX_DEAL_NUMBER

MAX_JOBS = 64
MAX_BATCH = 10_000_000
MAX_NODES = 10**15
MAX_RULES_FILE = 1_000_000
"""Bytes: a rules file is a few hundred; anything past this is not one."""

_DIGITS = re.compile(r"[0-9]{1,25}")
_SHOWN = 60


def shown(text: str) -> str:
    """``text`` quoted for a message, cut short if long.

    >>> shown("x" * 100)[-6:]
    "xx...'"
    """
    cut = text if len(text) <= _SHOWN else text[:_SHOWN] + "..."
    return repr(cut)


def whole_number(text: str) -> int | None:
    """The value of ``text`` if it is plain decimal digits (ASCII, at most 25), else None.

    >>> whole_number(" 42 "), whole_number("4_2"), whole_number("-1"), whole_number("٤٢")
    (42, None, None, None)
    """
    stripped = text.strip()
    return int(stripped) if _DIGITS.fullmatch(stripped) else None


def deal_number(text: str) -> int:
    """A deal number, 0 to 2**64 - 1."""
    value = whole_number(text)
    if value is None or value > MAX_DEAL_NUMBER:
        raise argparse.ArgumentTypeError(
            f"a deal number is a whole number from 0 to {MAX_DEAL_NUMBER}, got {shown(text)}"
        )
    return value


def bounded(low: int, high: int) -> Callable[[str], int]:
    """An argument type: a whole number from ``low`` to ``high``."""

    def parse(text: str) -> int:
        value = whole_number(text)
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"expected a whole number from {low} to {high:,}, got {shown(text)}"
            )
        return value

    parse.__name__ = f"whole number from {low} to {high}"
    return parse


jobs = bounded(1, MAX_JOBS)
"""``--jobs``: 1 to :data:`MAX_JOBS` worker processes."""


def seconds(text: str) -> float:
    """A time limit: a finite number of seconds above 0 (``nan``, ``inf``, 0 and below are
    refused: none of them is a limit)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds above 0, like 10, got {shown(text)}"
        )
    return value


def name(text: str) -> str:
    """A non-empty name (a rule set, a strategy)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a name, got an empty one")
    return text
