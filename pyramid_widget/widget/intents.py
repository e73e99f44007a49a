"""Checking the messages the widget's page sends, before anything reaches the engine.

The page sends *intents* such as ``{"kind": "pair", "cards": ["5H", "8C"]}``. :func:`check_intent`
verifies the kind, that every required field is there with the right type, that no unknown
field came along, and that card names are real cards. It raises :class:`IntentError` (a
``ValueError``) with a sentence for the player; it never looks at the game. Whatever part of
a message a sentence quotes back is cut to :data:`QUOTE_LIMIT` characters (:func:`quote`), so a
10 MB field never reaches the board. :class:`FloodGuard` refuses messages that arrive faster
than a person can click.

>>> check_intent({"kind": "pair", "cards": ["5H", "8C"], "seq": 3})["cards"]
['5H', '8C']
>>> check_intent({"kind": "jump"})
Traceback (most recent call last):
...
pyramid_widget.errors.IntentError: unknown message kind 'jump'; expected one of: cell, draw, hint, king, new, next-round, pair, panel, pause, post-mortem, redeal, redo, restart, resume, select, solve, solve-speed, solve-step, solve-stop, stats, truth, undo, visibility

A press in the panel around the board (a lesson's buttons and picker) is a ``"panel"``
intent: an action name, and for ``"pick"`` the index of the option chosen.

>>> check_intent({"kind": "panel", "action": "pick", "index": 2})["index"]
2
>>> check_intent({"kind": "panel", "action": "next", "index": 2})
Traceback (most recent call last):
...
pyramid_widget.errors.IntentError: a 'panel' press of 'next' takes no 'index' (only 'pick' does)
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from pyramid_widget.engine.cards import is_card
from pyramid_widget.errors import IntentError

#: The most characters of a page's value quoted back in a message (then "…").
QUOTE_LIMIT = 60
#: The most characters of any error sentence shown on the board (then "…").
MESSAGE_LIMIT = 400


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` cut to ``limit`` characters plus "…": how a message quotes page input.

    >>> quote("5H")
    "'5H'"
    >>> quote("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"
    >>> len(quote([[[[]]]] * 10**6))
    61
    """
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]  # never repr a huge string whole
    elif isinstance(value, (list, dict, tuple)) and len(value) > limit:
        value = type(value)(
            list(value.items())[:limit] if isinstance(value, dict) else value[:limit]
        )
    try:
        text = repr(value)
    except RecursionError:
        text = f"<a deeply nested {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "…"


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters plus "…" (a safety net for sentences from elsewhere
    that quote a long input).

    >>> clip("short")
    'short'
    >>> clip("a" * 500).endswith("a…"), len(clip("a" * 500))
    (True, 401)
    """
    return text if len(text) <= limit else text[:limit] + "…"


def _card(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise IntentError(f"field {field!r} must be a card name like '5H', got {quote(value)}")
    if not is_card(value):
        raise IntentError(f"{quote(value)} is not a card (cards look like 'AS', 'TD', 'KH')")
    return value.upper()


def _cards(value: Any, field: str) -> list[str]:
    if not isinstance(value, list) or len(value) != 2:
        raise IntentError(f"field {field!r} must be a list of two card names, got {quote(value)}")
    return [_card(v, field) for v in value]


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise IntentError(f"field {field!r} must be true or false, got {quote(value)}")
    return value


def _level(value: Any, field: str) -> int:
    if isinstance(value, bool) or value not in (1, 2):
        raise IntentError(f"field {field!r} must be 1 or 2, got {quote(value)}")
    return int(value)


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise IntentError(f"field {field!r} must be a non-empty text, got {quote(value)}")
    if len(value) > TEXT_LIMIT:
        raise IntentError(
            f"field {field!r} must be a text of at most {TEXT_LIMIT} characters, "
            f"got {len(value)}: {quote(value)}"
        )
    return value.strip()


#: The longest text field accepted (a rule-set name or a deal string of 52 cards fits).
TEXT_LIMIT = 400


#: A deal number as text: ASCII digits only, as the CLI's ``whole_number`` takes them.
_DIGITS = re.compile(r"[0-9]+")


def _deal(value: Any, field: str) -> int | str:
    """A deal number, or a deal string for the engine to read.

    >>> _deal(" 7 ", "deal"), _deal("AS 2H", "deal")
    (7, 'AS 2H')
    >>> _deal("٣", "deal")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.IntentError: field 'deal': numbers are written with the digits 0-9, got '٣'
    """
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise IntentError(
            f"field {field!r} must be a deal number or a deal string, got {quote(value)}"
        )
    if isinstance(value, str):
        text = _text(value, field)
        if _DIGITS.fullmatch(text):
            return int(text)
        # str.isdigit() is true for "²" and "٣" too: int() raises on the first and reads
        # the second as 3, so a number in other digits is refused here, never guessed.
        if any(ch.isnumeric() and not ch.isascii() for ch in text):
            raise IntentError(
                f"field {field!r}: numbers are written with the digits 0-9, got {quote(text)}"
            )
        return text
    if value < 0:
        raise IntentError(f"field {field!r}: deal numbers are not negative, got {quote(value)}")
    return value


#: How fast the page plays the solver's line: seconds between moves ("step": on request).
SOLVE_SPEEDS = {"slow": 1.0, "normal": 0.4, "fast": 0.12, "step": 0.0}


def _speed(value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in SOLVE_SPEEDS:
        raise IntentError(
            f"field {field!r} must be one of {sorted(SOLVE_SPEEDS)}, got {quote(value)}"
        )
    return value


#: The longest panel action name, and the most options a panel's picker may hold.
ACTION_LIMIT = 30
INDEX_LIMIT = 1000
#: The panel action that chooses an option of the picker (it alone carries an ``index``).
PICK = "pick"
_ACTION = re.compile(rf"[a-z][a-z-]{{0,{ACTION_LIMIT - 1}}}")


def _action(value: Any, field: str) -> str:
    """A panel action: a short lower-case name like ``'next'`` or ``'restart-step'``."""
    if not isinstance(value, str) or not _ACTION.fullmatch(value[: ACTION_LIMIT + 1]):
        raise IntentError(
            f"field {field!r} must be a panel action like 'next' or 'restart-step', "
            f"got {quote(value)}"
        )
    return str(value)


def _index(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < INDEX_LIMIT:
        raise IntentError(
            f"field {field!r} must be a whole number from 0 to {INDEX_LIMIT - 1}, "
            f"got {quote(value)}"
        )
    return value


Checker = Callable[[Any, str], Any]

#: For each kind: its required fields and its optional fields, each with a checker.
SCHEMA: dict[str, tuple[dict[str, Checker], dict[str, Checker]]] = {
    "pair": ({"cards": _cards}, {}),
    "king": ({"card": _card}, {}),
    "cell": ({"card": _card}, {}),
    "select": ({"card": _card}, {}),
    "draw": ({}, {}),
    "redeal": ({}, {}),
    "next-round": ({}, {}),
    "undo": ({}, {}),
    "redo": ({}, {}),
    "hint": ({}, {"level": _level}),
    "new": ({}, {"rules": _text, "deal": _deal, "winnable": _bool}),
    "restart": ({}, {}),
    "pause": ({}, {}),
    "resume": ({}, {}),
    "solve": ({}, {}),
    "solve-step": ({}, {}),
    "solve-stop": ({}, {}),
    "solve-speed": ({"speed": _speed}, {}),
    "post-mortem": ({}, {}),
    "visibility": ({"hidden": _bool}, {}),
    "truth": ({"on": _bool}, {}),
    "stats": ({}, {}),
    "panel": ({"action": _action}, {"index": _index}),
}

#: Fields any message may carry: a sequence number and the page's clock (for latency figures).
META_FIELDS = ("seq", "sent_at")


def check_intent(content: Any) -> dict[str, Any]:
    """Return the checked fields of one page message, or raise :class:`IntentError`."""
    if not isinstance(content, Mapping):
        raise IntentError(f"a message must be an object with a 'kind', got {quote(content)}")
    kind = content.get("kind")
    if not isinstance(kind, str):
        raise IntentError(f"a message needs a text field 'kind', got {quote(kind)}")
    if kind not in SCHEMA:
        raise IntentError(
            f"unknown message kind {quote(kind)}; expected one of: {', '.join(sorted(SCHEMA))}"
        )
    required, optional = SCHEMA[kind]
    out: dict[str, Any] = {"kind": kind}
    for field, check in required.items():
        if field not in content:
            raise IntentError(f"a {kind!r} message needs the field {field!r}")
        out[field] = check(content[field], field)
    for field, check in optional.items():
        if field in content and content[field] is not None:
            out[field] = check(content[field], field)
    extra = set(content) - set(required) - set(optional) - {"kind", *META_FIELDS}
    if extra:
        names = sorted(quote(name, 30) for name in extra)
        shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
        raise IntentError(f"a {kind!r} message has unknown field(s): {shown}")
    if kind == "panel":
        _check_pick(out)
    seq = content.get("seq")
    out["seq"] = seq if isinstance(seq, int) and not isinstance(seq, bool) else None
    return out


def _check_pick(intent: dict[str, Any]) -> None:
    """A ``"pick"`` press names the option chosen; no other panel press names one."""
    action = intent["action"]
    if action == PICK and "index" not in intent:
        raise IntentError("a 'panel' press of 'pick' needs the field 'index'")
    if action != PICK and "index" in intent:
        raise IntentError(f"a 'panel' press of {action!r} takes no 'index' (only 'pick' does)")


class FloodGuard:
    """Allows at most ``limit`` messages in any ``window`` seconds.

    >>> guard = FloodGuard(limit=2, window=1.0, clock=lambda: 0.0)
    >>> guard.allow(), guard.allow(), guard.allow()
    (True, True, False)
    """

    def __init__(
        self, limit: int = 40, window: float = 1.0, clock: Callable[[], float] | None = None
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock or time.monotonic
        self._times: deque[float] = deque()

    def allow(self) -> bool:
        """Count one message; ``False`` when it is one too many for the window."""
        now = self._clock()
        while self._times and now - self._times[0] > self.window:
            self._times.popleft()
        if len(self._times) >= self.limit:
            return False
        self._times.append(now)
        return True
