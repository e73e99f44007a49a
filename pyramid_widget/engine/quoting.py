"""How the engine's error messages quote what they were given: briefly.

A message names the bad value so the reader can find it, but bad input may be hostile or
just huge (a pasted file, a million-character move, a number of ten thousand digits), and a
message that echoes it whole is unreadable, and costly to build and to show. Every engine
message quotes input through :func:`shown` (one value) or :func:`listed` (a set of names).

>>> shown("5H"), shown(1.5), shown(None), shown([1, 2])
("'5H'", '1.5', 'None', 'a list')
>>> len(shown("x" * 10**6))
60
>>> shown(-(10**5000))
'an integer of more than 30 digits'
>>> listed({"b", "a", 7})
"'a', 'b', 7"
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["listed", "shown"]

#: The longest quote of one value, in characters.
LIMIT = 60
#: The most names :func:`listed` shows.
COUNT = 6


def shown(value: object, limit: int = LIMIT) -> str:
    """A short text for a bad value: the ``repr`` of a text, number, bool or ``None`` cut to
    ``limit`` characters (ending "…", as the widget marks a cut), and the type's name for anything else (a list or a
    dict could be huge or nested without end)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        # Python refuses to print an int of more than 4300 digits, and no reader needs 30
        return "an integer of more than 30 digits"
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]  # never repr a huge text whole only to cut it
    if isinstance(value, (str, int, float, bool, type(None))):
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 1] + "…"
    return f"a {type(value).__name__}"


def listed(names: Iterable[object], count: int = COUNT) -> str:
    """Some names (unknown fields, keys), each quoted by :func:`shown` (40 characters at
    most), sorted, the first ``count`` of them then "…" if there are more.

    >>> listed(["x" * 100, "y"], count=1)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… …"
    """
    quoted = sorted(shown(name, 40) for name in names)
    return ", ".join(quoted[:count]) + (" …" if len(quoted) > count else "")
