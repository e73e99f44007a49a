"""What the records store writes, checked field by field before it reaches SQLite, and
which rows it reads back (:data:`SOUND`).

A game whose fields cannot be stored as they are (an edited save with a list for a deal
number, a negative or infinite time, text that is not Unicode) is a bad record: it is refused
with one :class:`~pyramid_widget.errors.RecordsError` sentence, and the file stays in use for
the good ones. Deal numbers are stored as decimal text so that every deal up to 2**64 - 1 is
kept exactly.

>>> deal_number_text(2**64 - 1), deal_number_from_text("18446744073709551615") == 2**64 - 1
('18446744073709551615', True)
>>> deal_number_text(-1)
Traceback (most recent call last):
...
pyramid_widget.errors.RecordsError: cannot record this game: its deal number must be a whole number from 0 to 18446744073709551615, got -1
"""

from __future__ import annotations

import datetime as dt
import json
import math
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.deals import MAX_DEAL_NUMBER

# The engine's short quote of a bad value: the records quote what they are given the same way
# (a hostile megabyte string or a 5000-digit number never lands whole in a message).
from pyramid_widget.engine.quoting import shown
from pyramid_widget.errors import RecordsError

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game

INT64 = 2**63
"""SQLite integers are signed 64-bit: every stored count must lie in ``-INT64 <= n < INT64``."""

RESULTS = ("won", "lost", "abandoned")

SOUND = {
    "games": (
        "typeof(rules) = 'text' AND typeof(deal) = 'text'"
        " AND (deal_number IS NULL OR typeof(deal_number) = 'text')"
        f" AND typeof(result) = 'text' AND result IN ({', '.join(map(repr, RESULTS))})"
        " AND typeof(score) = 'integer' AND typeof(moves) = 'integer'"
        " AND typeof(rounds) = 'integer' AND typeof(finished_at) = 'text'"
        " AND typeof(seconds) IN ('integer', 'real') AND seconds >= 0 AND seconds < 9e999"
        " AND typeof(assisted) = 'integer' AND assisted IN (0, 1)"
    ),
    "saved_games": (
        "typeof(name) = 'text' AND typeof(rules) = 'text' AND typeof(saved_at) = 'text'"
        " AND typeof(moves) = 'integer' AND typeof(score) = 'integer'"
    ),
    "lesson_progress": (
        "typeof(lesson) = 'text' AND typeof(step) = 'integer'"
        " AND typeof(how) = 'text' AND how IN ('done', 'shown')"
    ),
}
"""Per table, an SQL condition true for a row whose every column read back holds a value of
the kind the store writes (never NULL: each column's ``typeof`` is tested first; ``9e999`` is
SQLite's infinity, which no time can be shown as).

SQLite keeps whatever it is given when a value does not fit a column's type (``UPDATE games
SET score = 'abc'``), so a file edited by hand can hold text where a number belongs. Readers
select only these rows, and the store reports the others in one warning, so that one edited
row neither breaks the statistics nor reaches a caller as a number that is not one.

>>> import sqlite3
>>> conn = sqlite3.connect(":memory:")
>>> _ = conn.execute("CREATE TABLE lesson_progress (lesson, step, how)")
>>> _ = conn.executemany("INSERT INTO lesson_progress VALUES (?, ?, ?)",
...                      [("L", 1, "done"), ("L", "two", "done"), (None, 3, "shown")])
>>> conn.execute(f"SELECT step FROM lesson_progress WHERE {SOUND['lesson_progress']}").fetchall()
[(1,)]
"""
MAX_NAME = 200
_BAD = (TypeError, ValueError, OverflowError, AttributeError, RecursionError, KeyError)


def now() -> str:
    """The current UTC time as ISO 8601 text, to the second."""
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def _refuse(why: str) -> RecordsError:
    return RecordsError(f"cannot record this game: {why}")


def text(value: object, what: str) -> str:
    """``value`` if it is text SQLite can store (a ``str`` that encodes as UTF-8)."""
    if not isinstance(value, str):
        raise _refuse(f"its {what} must be text, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _refuse(f"its {what} is not valid Unicode text") from None
    return value


def whole(value: object, what: str, low: int = 0) -> int:
    """``value`` if it is an ``int`` (not a bool) from ``low`` up to SQLite's largest."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value < INT64:
        got = shown(value) if isinstance(value, int) else type(value).__name__
        raise _refuse(f"its {what} must be a whole number from {low} to {INT64 - 1}, got {got}")
    return value


def seconds(value: object) -> float:
    """``value`` as a float if it is a finite, non-negative number of seconds."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _refuse(f"its time must be a number of seconds, got {type(value).__name__}")
    if not math.isfinite(value) or value < 0:
        raise _refuse(f"its time must be a finite number of seconds from 0 up, got {value!r}")
    return float(value)


def deal_number_text(value: object) -> str | None:
    """The stored text of a deal number (``None`` for a hand-made position)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DEAL_NUMBER:
        got = shown(value) if isinstance(value, int) else type(value).__name__
        raise _refuse(
            f"its deal number must be a whole number from 0 to {MAX_DEAL_NUMBER}, got {got}"
        )
    return str(value)


def deal_number_from_text(value: object) -> int | None:
    """A stored deal number read back; ``None`` for none (or for text that is not one)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        number = int(value)
        return number if number <= MAX_DEAL_NUMBER else None
    return None


def when_text(when: object) -> str:
    """``when`` if it is ISO 8601 text (or now, for ``None``)."""
    if when is None:
        return now()
    stamp = text(when, "finishing time")
    try:
        dt.datetime.fromisoformat(stamp)
    except ValueError:
        raise _refuse(f"its finishing time must be ISO 8601 text, got {shown(stamp)}") from None
    return stamp


def game_row(game: Game, when: object) -> tuple[Any, ...]:
    """The ``games`` row of a finished game; :class:`RecordsError` if it cannot be stored."""
    try:
        return _game_row(game, when)
    except RecordsError:
        raise
    except _BAD as exc:
        raise _refuse(str(exc) or type(exc).__name__) from None


def _game_row(game: Game, when: object) -> tuple[Any, ...]:
    from pyramid_widget.engine.deals import format_deal

    status = getattr(game.status, "value", game.status)
    result = status if status in ("won", "lost") else "abandoned"
    rules = game.rules
    rules_json = json.dumps(rules.to_dict(), sort_keys=True, allow_nan=False)
    return (
        text(rules.name, "rule set name"),
        text(rules_json, "rule set"),
        "" if game.deal is None else text(format_deal(game.deal), "deal"),
        deal_number_text(game.deal_number),
        result,
        whole(game.score, "score", -INT64),
        seconds(game.elapsed),
        whole(game.moves, "move count"),
        whole(rounds_completed(game, result), "rounds", -1),
        when_text(when),
        text(game.to_json(), "saved form"),
    )


def saved_row(game: Game, name: str, saved_at: str) -> tuple[Any, ...]:
    """The ``saved_games`` row of a game in progress; :class:`RecordsError` if it cannot be
    stored."""
    try:
        return (
            name,
            text(game.rules.name, "rule set name"),
            saved_at,
            whole(game.moves, "move count"),
            whole(game.score, "score", -INT64),
            text(game.to_json(), "saved form"),
        )
    except RecordsError as exc:
        raise RecordsError(str(exc).replace("cannot record", "cannot save", 1)) from None
    except _BAD as exc:
        raise RecordsError(f"cannot save this game: {exc}") from None


def rounds_completed(game: Game, result: str) -> int:
    """Rounds cleared in a run (``egypt``); 0 for rule sets without rounds."""
    if not getattr(game.rules, "rounds", False):
        return 0
    current = whole(game.round, "round", 0)
    return current if result == "won" else current - 1


def check_result(result: object) -> str:
    """``result`` if it is one of :data:`RESULTS`."""
    if not isinstance(result, str) or result not in RESULTS:
        raise RecordsError(f"unknown result {shown(result)}; expected one of {', '.join(RESULTS)}")
    return result


def check_name(name: object) -> str:
    """A saved game's name, stripped: non-empty Unicode text of at most :data:`MAX_NAME`."""
    if not isinstance(name, str) or not name.strip():
        raise RecordsError("a saved game needs a non-empty name")
    if len(name) > MAX_NAME:
        raise RecordsError(f"a saved game's name is at most {MAX_NAME} characters")
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordsError("a saved game's name must be valid Unicode text") from None
    return name.strip()


def check_query(value: object, what: str) -> None:
    """Refuse a look-up key of the wrong type before it reaches SQLite."""
    kinds = {"rule set name": str, "saved game name": str, "record id": int}
    kind = kinds[what]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise RecordsError(f"a {what} must be {kind.__name__}, got {type(value).__name__}")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise RecordsError(f"a {what} must be valid Unicode text") from None
    if isinstance(value, int) and not -INT64 <= value < INT64:
        raise RecordsError(f"no stored game with id {shown(value)}")


def check_limit(limit: object) -> int:
    """SQLite's ``LIMIT`` for ``limit`` (``None``: no limit, ``-1``)."""
    if limit is None:
        return -1
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit < INT64:
        raise RecordsError(f"limit must be a whole number from 0 up, or None, got {shown(limit)}")
    return limit
