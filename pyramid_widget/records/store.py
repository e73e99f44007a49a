"""Records that last: finished games, per-rule-set statistics and saved games, in SQLite.

One file, ``records.sqlite3``, holds everything. Where it lives, first match wins:

1. the ``path`` argument of :class:`Records` (a file, a directory, or ``":memory:"``);
2. the directory named by the environment variable ``PYRAMID_WIDGET_DATA_DIR``;
3. ``platformdirs.user_data_dir("pyramid-widget")``.

The store never stops play, and never moves or replaces a file that is not its own. A damaged
records file (recognisably one of ours: see :func:`~pyramid_widget.records.schema.looks_like_ours`)
is moved aside to ``records.sqlite3.corrupt-<UTC time>`` with a :class:`RecordsWarning` naming
the new path, and a fresh file is started. Any other file (a text file, another program's
database, a newer version's records, a file of ours whose tables or columns were changed by
hand) is left exactly as it is, and so is a location that cannot be written (read-only
directory, a path under a regular file, a disk that refuses writes): the store falls back to
memory, with a warning; when an old file can still be read, its contents are copied into
memory so the statistics still show. A file whose tables were changed is not copied: the
session records into a fresh store with the whole current schema (a copy would refuse every
game as the file did); the file is left, not moved aside, because its games are all still
there and the change may be the user's own, so restoring the table or column is all it takes.
``read_only=True`` (what a read command such as ``pyramid-widget stats`` uses) changes nothing
at all, and raises :class:`RecordsError` for a file it cannot read.

A bad record (a game whose fields cannot be stored: an edited save with a list for its deal
number, a negative time) is refused with one :class:`RecordsError` sentence; the file stays in
use and later games are written as usual. A row already in the file with a value of the wrong
type (a hand edit: SQLite keeps ``'abc'`` in a number column) is left out of the statistics and
of every list, and named in one :class:`RecordsWarning` when the file is opened; the file is
not changed.

Several widgets, notebooks and processes may write at once: the file is in WAL mode, every
write is one short ``BEGIN IMMEDIATE`` transaction, and a busy database is waited for
(``busy_timeout``), so nothing is lost.

Schema versions live in ``PRAGMA user_version`` and migrate forward on open:

* **v1** (the first layout): ``games(id, rules, deal, result, score, seconds, moves,
  played_at)`` only.
* **v2**: ``games`` gains ``rules_json`` (the full rule set, so user-built rule sets are
  kept), ``deal_number``, ``rounds`` (``egypt``'s completed rounds) and ``game_json`` (the whole
  game, moves included); ``played_at`` becomes ``finished_at``; a ``saved_games`` table holds
  games in progress.
* **v3** (current): ``games.deal_number`` is TEXT (decimal digits), so deal numbers from 2**63
  to 2**64 - 1 are stored exactly; the file carries ``PRAGMA application_id`` ``0x50597257``.

>>> from pyramid_widget import Game
>>> records = Records(":memory:")
>>> game = Game("medium", deal=7)
>>> records.record_game(game)  # still in play: "abandoned"
1
>>> records.stats("medium").played, records.stats("medium").won
(1, 0)
>>> name = records.save_game(game, name="lunch break")
>>> records.load_game("lunch break").deal == game.deal
True
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sqlite3
import threading
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.quoting import shown  # the engine's short quote of a value
from pyramid_widget.errors import RecordsError, UnknownSavedGameError
from pyramid_widget.records import rows
from pyramid_widget.records.rows import RESULTS
from pyramid_widget.records.schema import (
    CURRENT_VERSION,
    SQLITE_MAGIC,
    SchemaError,
    T,
    connect_file,
    copy_readonly,
    is_corruption,
    looks_like_ours,
    migrate,
    open_readonly,
    transaction,
)

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game
    from pyramid_widget.engine.rules import RuleSet

__all__ = [
    "CURRENT_VERSION",
    "DATA_DIR_ENV",
    "FILE_NAME",
    "RESULTS",
    "GameRecord",
    "Records",
    "RecordsError",
    "RecordsWarning",
    "SavedGame",
    "Stats",
    "UnknownSavedGameError",
    "default_path",
]

DATA_DIR_ENV = "PYRAMID_WIDGET_DATA_DIR"
FILE_NAME = "records.sqlite3"
_RECORD_ERRORS = (
    sqlite3.ProgrammingError,
    sqlite3.InterfaceError,
    sqlite3.DataError,
    sqlite3.IntegrityError,
    OverflowError,
    UnicodeError,
)
"""What SQLite raises for a value it cannot bind or keep: a bad record, not a bad file."""
_LISTED = 10
"""Saved games named in an "unknown saved game" message; the rest are counted."""
_UNSOUND = {
    "games": ("game", "games", "id", "the statistics and the list of games"),
    "saved_games": ("saved game", "saved games", "row", "the list of saved games"),
    "lesson_progress": ("lesson mark", "lesson marks", "row", "the lesson progress"),
}
"""How a warning names rows of each table that hold a value of the wrong type."""


class RecordsWarning(UserWarning):
    """The records file could not be used as it was; what happened instead is in the text."""


@dataclass(frozen=True)
class Stats:
    """Per-rule-set statistics over every finished game.

    ``best_time`` is the fastest won game in seconds (``None`` before the first win);
    ``best_rounds`` is the longest run of completed rounds (``egypt``; 0 for the others).
    Abandoned games count as played and not won, so they end a streak. ``assisted`` counts
    the games in which the solver played moves or gave its winning hint: they are kept apart
    and never count as played, won, toward a streak, a best score or a best time.

    >>> Stats.empty("hard").win_pct
    0.0
    """

    rules: str
    played: int
    won: int
    win_pct: float
    current_streak: int
    best_streak: int
    best_score: int | None
    best_time: float | None
    best_rounds: int
    assisted: int = 0

    @classmethod
    def empty(cls, rules: str) -> Stats:
        """Statistics of a rule set with no games."""
        return cls(rules, 0, 0, 0.0, 0, 0, None, None, 0, 0)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for the widget and ``pyramid-widget stats --json``)."""
        return asdict(self)


@dataclass(frozen=True)
class GameRecord:
    """One finished game as stored: ``finished_at`` is an ISO 8601 UTC time."""

    id: int
    rules: str
    deal: str
    deal_number: int | None
    result: str
    score: int
    seconds: float
    moves: int
    rounds: int
    finished_at: str


@dataclass(frozen=True)
class SavedGame:
    """A saved game in progress, as listed by :meth:`Records.saved_games`."""

    name: str
    rules: str
    saved_at: str
    moves: int
    score: int


def default_path() -> Path:
    """The records file used when no path is given: env var directory, else the user data dir.

    >>> default_path().name
    'records.sqlite3'
    """
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser() / FILE_NAME
    import platformdirs

    return Path(platformdirs.user_data_dir("pyramid-widget")) / FILE_NAME


def resolve_path(path: str | os.PathLike[str] | None) -> Path | None:
    """The file a ``path`` argument means; ``None`` for an in-memory store.

    A directory (existing, or written with a trailing slash) means ``records.sqlite3`` in it.

    >>> resolve_path(":memory:") is None
    True
    >>> str(resolve_path("/tmp/somewhere/"))
    '/tmp/somewhere/records.sqlite3'
    >>> resolve_path(5)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.RecordsError: a records path must be a file or directory name, ':memory:' or None, got 5
    """
    if path is None:
        return default_path()
    # Refused here with a sentence, as every other wrong-typed argument to the store is
    # (os.fspath would say "expected str, bytes or os.PathLike object, not int"); bytes too,
    # since Path() cannot take them.
    text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else None
    if not isinstance(text, str):
        raise RecordsError(
            "a records path must be a file or directory name, ':memory:' or None, "
            f"got {shown(path)}"
        )
    if text == ":memory:":
        return None
    resolved = Path(text).expanduser()
    if text.endswith(("/", os.sep)) or resolved.is_dir():
        return resolved / FILE_NAME
    return resolved


class Records:
    """The records store. Thread-safe; open as many as you like on the same file.

    ``path``: a file, a directory (``records.sqlite3`` in it), ``":memory:"``, or ``None`` for
    the default location (see :func:`default_path`). Never raises for an unusable location: it
    falls back to memory and says so with a :class:`RecordsWarning`, also kept in
    :attr:`warning` so a user interface can show it. ``path`` is the file in use
    (``None`` in memory).

    A ``path`` that is not one (a number, bytes) raises :class:`RecordsError`.

    ``read_only=True`` opens an existing file only to read it: nothing is created, migrated,
    moved or written (an older file is migrated in memory), and a file that is missing, not a
    pyramid-widget records file, damaged, from a newer version or with tables changed by hand
    raises :class:`RecordsError`.

    >>> with Records(":memory:") as records:
    ...     records.in_memory, records.warning
    (True, None)
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, read_only: bool = False
    ) -> None:
        self._lock = threading.RLock()
        self.warning: str | None = None
        self.read_only = bool(read_only)
        self.requested: Path | None = resolve_path(path)
        self.path: Path | None = None
        opener = self._open_to_read if self.read_only else self._open
        self._conn = opener(self.requested)
        self._report_unsound()

    # -- opening -------------------------------------------------------------------------

    def _open(self, target: Path | None) -> sqlite3.Connection:
        if target is None:
            return self._memory()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            conn = connect_file(target)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, SchemaError) or not is_corruption(exc):
                return self._fallback(target, exc)
            if not looks_like_ours(target):
                return self._fallback(target, SchemaError(f"{_not_ours(target)}, left as it is"))
            return self._move_aside_and_retry(target, exc)
        except (OSError, ValueError) as exc:
            return self._fallback(target, exc)
        self.path = target
        return conn

    def _open_to_read(self, target: Path | None) -> sqlite3.Connection:
        if target is None:
            return self._memory()
        try:
            if not target.exists():
                raise RecordsError(f"there is no records file at {target}")
            if target.is_dir():
                raise RecordsError(f"{target} is a directory, not a records file")
            if target.stat().st_size == 0:  # a file being created this very moment
                conn = self._memory()
            elif not looks_like_ours(target):
                raise RecordsError(f"{_not_ours(target)}; it was left as it is")
            else:
                conn = open_readonly(target)
        except SchemaError as exc:
            raise RecordsError(f"the records file {target} cannot be read: {exc}") from None
        except sqlite3.DatabaseError as exc:
            if is_corruption(exc):
                raise RecordsError(
                    f"the records file {target} is damaged ({exc}); it was left as it is"
                ) from None
            raise RecordsError(f"cannot read the records file {target} ({exc})") from None
        except (OSError, sqlite3.Error) as exc:
            raise RecordsError(f"cannot read the records file {target} ({exc})") from None
        self.path = target
        return conn

    def _move_aside_and_retry(self, target: Path, exc: Exception) -> sqlite3.Connection:
        stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
        aside = target.with_name(f"{target.name}.corrupt-{stamp}")
        try:
            target.rename(aside)
            for suffix in ("-wal", "-shm"):
                side = target.with_name(target.name + suffix)
                if side.exists():
                    side.rename(aside.with_name(aside.name + suffix))
            conn = connect_file(target)
        except (OSError, sqlite3.Error) as again:
            return self._fallback(target, again)
        self._warn(
            f"the records file {target} could not be read ({exc}); it was moved to {aside} "
            f"and a fresh records file was started"
        )
        self.path = target
        return conn

    def _fallback(self, target: Path, exc: BaseException) -> sqlite3.Connection:
        conn = None if isinstance(exc, SchemaError) else copy_readonly(target)
        kept = " (the games already there were copied into memory)" if conn else ""
        problem = (
            f"the records file {target} cannot be used: {exc}"
            if isinstance(exc, SchemaError)
            else f"cannot write the records file {target} ({exc})"
        )
        self._warn(
            f"{problem}; records are kept in memory for this session only and will be lost "
            f"when it ends{kept}"
        )
        return conn or self._memory()

    def _memory(self) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        migrate(conn)
        return conn

    def _warn(self, text: str) -> None:
        self.warning = f"pyramid-widget: {text}"
        warnings.warn(self.warning, RecordsWarning, stacklevel=4)

    @property
    def in_memory(self) -> bool:
        """True when records are not being written to a file."""
        return self.path is None

    def close(self) -> None:
        """Close the database connection (idempotent)."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Records:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = "memory" if self.path is None else str(self.path)
        return f"Records({where!r})"

    def _write(self, action: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``action`` in one short write transaction (``BEGIN IMMEDIATE``). Should the
        file fail under us (damaged, made read-only, disk full), go on in memory, warning.
        A value SQLite cannot keep is a bad record: :class:`RecordsError`, the file kept."""
        if self.read_only:
            raise RecordsError(f"the records file {self.path} was opened read-only")
        with self._lock:
            try:
                return transaction(self._conn, action)
            except _RECORD_ERRORS as exc:
                raise RecordsError(f"cannot store this record: {exc}") from None
            except sqlite3.DatabaseError as exc:
                if self.path is None:
                    raise RecordsError(f"cannot store this record: {exc}") from None
                self._lose_file(exc)
            try:
                return transaction(self._conn, action)
            except (*_RECORD_ERRORS, sqlite3.Error) as exc:
                raise RecordsError(f"cannot store this record: {exc}") from None

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except _RECORD_ERRORS as exc:
                raise RecordsError(f"cannot read the records: {exc}") from None
            except sqlite3.DatabaseError as exc:
                if self.path is None or self.read_only:
                    raise RecordsError(f"cannot read the records: {exc}") from None
                self._lose_file(exc)
            try:
                return self._conn.execute(sql, params).fetchall()
            except (*_RECORD_ERRORS, sqlite3.Error) as exc:
                raise RecordsError(f"cannot read the records: {exc}") from None

    def _lose_file(self, exc: sqlite3.DatabaseError) -> None:
        target, self.path = self.path, None
        assert target is not None
        with contextlib.suppress(sqlite3.Error):
            self._conn.close()
        self._conn = self._fallback(target, exc)
        self._report_unsound()  # a copy of the file's games may hold what the file held

    def _report_unsound(self) -> None:
        """Warn about rows holding a value of the wrong type (edited by hand: SQLite keeps
        text in a number column), one sentence per table. Every reader leaves them out
        (:data:`~pyramid_widget.records.rows.SOUND`); the file is not changed.

        Done when a file is opened (or copied into memory), not on each read: it scans the
        whole table, as the open's ``quick_check`` does anyway, while a read such as
        ``games(limit=10)`` touches a few rows. A row edited during the session is left out
        all the same, only not reported."""
        for table in _UNSOUND:
            sql = f"SELECT rowid FROM {table} WHERE NOT ({rows.SOUND[table]}) ORDER BY rowid"
            ids = [row[0] for row in self._read(sql)]
            if ids:
                self._warn_unsound(table, ids)

    def _warn_unsound(self, table: str, ids: list[int]) -> None:
        one, many, label, left_out = _UNSOUND[table]
        n = len(ids)
        listed = ", ".join(map(str, ids[:5])) + (f" and {n - 5} more" if n > 5 else "")
        where = "the records in memory" if self.path is None else f"the records file {self.path}"
        kept = "" if self.path is None else "; nothing in the file was changed"
        if n == 1:
            head, tail = (
                f"1 {one} in {where} holds",
                f"({label} {listed}; edited by hand?) and is",
            )
        else:
            head, tail = (
                f"{n} {many} in {where} hold",
                f"({label}s {listed}; edited by hand?) and are",
            )
        self._warn(f"{head} a value of the wrong type {tail} left out of {left_out}{kept}")

    # -- finished games ------------------------------------------------------------------

    def record_game(self, game: Game, *, when: str | None = None, assisted: bool = False) -> int:
        """Store a finished game and return its id.

        The result is the game's status: ``"won"``, ``"lost"``, or ``"abandoned"`` for a game
        still in play (the player started another). ``when`` (ISO 8601 text) defaults to now.
        ``assisted``: the solver played moves or gave its winning hint in this game; it is
        kept apart in :meth:`stats` (never a win, a streak or a best).
        Raises :class:`RecordsError`, storing nothing, for a game whose fields cannot be
        stored as they are (an edited save); the store goes on writing the next games.

        >>> from pyramid_widget import Game
        >>> records = Records(":memory:")
        >>> records.record_game(Game.from_position("hard", pyramid=[None] * 27 + ["QH"]))
        1
        >>> records.games()[0].result
        'lost'
        """
        if not isinstance(assisted, bool):
            raise RecordsError(f"assisted must be True or False, got {type(assisted).__name__}")
        row = (*rows.game_row(game, when), int(assisted))

        def insert(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(
                "INSERT INTO games (rules, rules_json, deal, deal_number, result, score, seconds,"
                " moves, rounds, finished_at, game_json, assisted)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                row,
            )
            return int(cursor.lastrowid or 0)

        return self._write(insert)

    def games(
        self, rules: str | None = None, *, result: str | None = None, limit: int | None = None
    ) -> list[GameRecord]:
        """Finished games, newest first, optionally of one rule set and/or one result."""
        if result is not None:
            rows.check_result(result)
        if rules is not None:
            rows.check_query(rules, "rule set name")
        sql = (
            "SELECT id, rules, deal, deal_number, result, score, seconds, moves, rounds,"
            " finished_at FROM games WHERE (?1 IS NULL OR rules = ?1)"
            f" AND (?2 IS NULL OR result = ?2) AND {rows.SOUND['games']} ORDER BY id DESC LIMIT ?3"
        )
        found = self._read(sql, (rules, result, rows.check_limit(limit)))
        return [
            GameRecord(r[0], r[1], r[2], rows.deal_number_from_text(r[3]), *r[4:]) for r in found
        ]

    def game_json(self, record_id: int) -> str:
        """The whole stored game (``Game.from_json`` reads it); RecordsError if not stored."""
        rows.check_query(record_id, "record id")
        found = self._read("SELECT game_json FROM games WHERE id = ?", (record_id,))
        if not found or found[0][0] is None:
            raise RecordsError(f"no stored game with id {record_id}")
        if not isinstance(found[0][0], str):  # a blob: str() would hand back "b'...'" as a game
            raise RecordsError(
                f"the stored game with id {record_id} is not text (edited by hand?), so it "
                "cannot be read back"
            )
        return found[0][0]

    def stats(self, rules: str | RuleSet) -> Stats:
        """Statistics of one rule set (all zero when it has no games).

        >>> from pyramid_widget import Game
        >>> records = Records(":memory:")
        >>> for last in ["KH", "KH", "QH", "KH"]:  # a lone King wins, a lone Queen is lost
        ...     game = Game.from_position("easy", pyramid=[None] * 27 + [last])
        ...     _ = last == "KH" and game.play("KH")
        ...     _ = records.record_game(game)
        >>> s = records.stats("easy")
        >>> s.played, s.won, s.win_pct, s.current_streak, s.best_streak
        (4, 3, 75.0, 1, 2)
        >>> solved = Game.from_position("easy", pyramid=[None] * 27 + ["KH"])
        >>> _ = solved.play("KH"); _ = records.record_game(solved, assisted=True)
        >>> s = records.stats("easy")
        >>> s.played, s.won, s.current_streak, s.assisted
        (4, 3, 1, 1)
        """
        name = getattr(rules, "name", rules)
        rows.check_query(name, "rule set name")
        return self._stats(str(name))

    def _stats(self, name: str) -> Stats:
        found = self._read(
            "SELECT result, score, seconds, rounds, assisted FROM games WHERE rules = ?"
            f" AND {rows.SOUND['games']} ORDER BY id",
            (name,),
        )
        return _aggregate(name, found)

    def all_stats(self) -> list[Stats]:
        """Statistics of every rule set that has games: presets first in their order, then the
        others by name."""
        sql = f"SELECT DISTINCT rules FROM games WHERE {rows.SOUND['games']}"
        names = [row[0] for row in self._read(sql)]
        return [self._stats(name) for name in sorted(names, key=_rules_order)]

    # -- saved games ---------------------------------------------------------------------

    def save_game(self, game: Game, name: str | None = None) -> str:
        """Save a game in progress (undo history included); return the name it is saved under.

        Without a name, one is made from the rule set and the time. Saving under an existing
        name replaces that save. Raises :class:`RecordsError` for an empty or overlong name,
        or a game whose fields cannot be stored as they are.
        """
        checked = None if name is None else rows.check_name(name)
        row = rows.saved_row(game, checked or "", rows.now())

        def save(conn: sqlite3.Connection) -> str:
            final = checked or _fresh_name(conn, row[1])
            conn.execute(
                "INSERT OR REPLACE INTO saved_games (name, rules, saved_at, moves, score,"
                " game_json) VALUES (?,?,?,?,?,?)",
                (final, *row[1:]),
            )
            return final

        return self._write(save)

    def load_game(self, name: str) -> Game:
        """The saved game, exactly as it was (undo and redo included).

        Raises :class:`UnknownSavedGameError` (listing the saved names) if there is none, and
        :class:`RecordsError` if the save cannot be read back; the save is kept either way.

        >>> Records(":memory:").load_game("nope")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pyramid_widget.errors.UnknownSavedGameError: no saved game named 'nope'; there are no ...
        """
        from pyramid_widget import Game

        rows.check_query(name, "saved game name")
        found = self._read("SELECT game_json FROM saved_games WHERE name = ?", (name,))
        if not found:
            raise UnknownSavedGameError(self._unknown_text(name))
        try:
            return Game.from_json(found[0][0])
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            raise RecordsError(f"the saved game {shown(name)} cannot be read back: {exc}") from None

    def saved_games(self) -> list[SavedGame]:
        """Saved games, newest first."""
        found = self._read(
            "SELECT name, rules, saved_at, moves, score FROM saved_games"
            f" WHERE {rows.SOUND['saved_games']} ORDER BY saved_at DESC, rowid DESC"
        )
        return [SavedGame(*row) for row in found]

    def delete_saved(self, name: str) -> None:
        """Delete a saved game; :class:`UnknownSavedGameError` if there is none by that name."""
        rows.check_query(name, "saved game name")
        sql = "DELETE FROM saved_games WHERE name = ?"
        if not self._write(lambda conn: conn.execute(sql, (name,)).rowcount):
            raise UnknownSavedGameError(self._unknown_text(name))

    # -- lesson progress -----------------------------------------------------------------

    def lesson_marks(self, learner: str) -> dict[tuple[str, int], str]:
        """``{(lesson title, step index): "done" | "shown"}`` for ``learner``.

        >>> with Records(":memory:") as records:
        ...     records.mark_lesson_step("ada", "Kings clear alone", 2, "done")
        ...     records.lesson_marks("ada"), records.lesson_marks("bob")
        ({('Kings clear alone', 2): 'done'}, {})
        """
        check_learner(learner)
        found = self._read(
            "SELECT lesson, step, how FROM lesson_progress WHERE learner = ?"
            f" AND {rows.SOUND['lesson_progress']}",
            (learner,),
        )
        return {(lesson, step): how for lesson, step, how in found}

    def mark_lesson_step(self, learner: str, lesson: str, step: int, how: str) -> None:
        """Mark step ``step`` of ``lesson`` ``"done"`` (by the learner) or ``"shown"`` (by
        "Show me") for ``learner``; a done step stays done. Raises :class:`RecordsError`
        for a mark that is not one of those or a key of the wrong type."""
        check_learner(learner)
        if not isinstance(lesson, str) or not lesson:
            raise RecordsError(f"a lesson title must be non-empty text, got {shown(lesson)}")
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < 10_000:
            raise RecordsError(f"a lesson step is a number 0..9999, got {shown(step)}")
        if how not in ("done", "shown"):
            raise RecordsError(f"a lesson step is marked 'done' or 'shown', got {shown(how)}")
        when = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
        sql = (
            "INSERT INTO lesson_progress (learner, lesson, step, how, marked_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (learner, lesson, step) DO UPDATE SET"
            " how = CASE WHEN how = 'done' THEN 'done' ELSE excluded.how END,"
            " marked_at = excluded.marked_at"
        )
        self._write(lambda conn: conn.execute(sql, (learner, lesson, step, how, when)))

    def _unknown_text(self, name: str) -> str:
        names = [saved.name for saved in self.saved_games()]
        listing = ", ".join(map(shown, names[:_LISTED]))
        if len(names) > _LISTED:  # a message is one sentence, not a catalogue of every save
            listing += f" and {len(names) - _LISTED} more"
        listing = f"there are {listing}" if names else "there are no saved games"
        return f"no saved game named {shown(name)}; {listing}"


#: The longest learner's name the store keeps.
LEARNER_NAME_LIMIT = 200


def check_learner(learner: object) -> None:
    """Refuse a learner's name that is no text, blank, or longer than
    :data:`LEARNER_NAME_LIMIT` characters, with :class:`RecordsError`.

    >>> check_learner("  ")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.RecordsError: a learner's name must be text of 1 to 200 characters (not only spaces), got '  '
    """
    if not isinstance(learner, str) or not learner.strip() or len(learner) > LEARNER_NAME_LIMIT:
        raise RecordsError(
            f"a learner's name must be text of 1 to {LEARNER_NAME_LIMIT} characters "
            f"(not only spaces), got {shown(learner)}"
        )


def _not_ours(target: Path) -> str:
    """Why ``target`` is not used: it is not a records file (a sentence without a stop)."""
    try:
        with target.open("rb") as handle:
            is_sqlite = handle.read(16) == SQLITE_MAGIC
    except OSError:
        is_sqlite = False
    kind = "an SQLite database of another kind" if is_sqlite else "not an SQLite database"
    return f"{target} is not a pyramid-widget records file (it is {kind})"


def _fresh_name(conn: sqlite3.Connection, rules: str) -> str:
    base = f"{rules} {dt.datetime.now().strftime('%Y-%m-%d %H:%M:%S')}"
    name, n = base, 1
    while conn.execute("SELECT 1 FROM saved_games WHERE name = ?", (name,)).fetchone():
        n += 1
        name = f"{base} ({n})"
    return name


def _aggregate(rules: str, rows: list[tuple[Any, ...]]) -> Stats:
    own = [row[:4] for row in rows if not row[4]]
    assisted = len(rows) - len(own)
    if not own:
        return Stats(rules, 0, 0, 0.0, 0, 0, None, None, 0, assisted)
    streak = best_streak = won = 0
    best_score: int | None = None
    best_time: float | None = None
    best_rounds = 0
    for result, score, seconds, rounds in own:
        streak = streak + 1 if result == "won" else 0
        best_streak = max(best_streak, streak)
        best_score = score if best_score is None else max(best_score, score)
        best_rounds = max(best_rounds, rounds)
        if result == "won":
            won += 1
            best_time = seconds if best_time is None else min(best_time, seconds)
    played = len(own)
    pct = round(100.0 * won / played, 1)
    return Stats(
        rules, played, won, pct, streak, best_streak, best_score, best_time, best_rounds, assisted
    )


def _rules_order(name: str) -> tuple[int, str]:
    from pyramid_widget import PRESETS

    order = list(PRESETS)
    return (order.index(name), "") if name in order else (len(order), name)
