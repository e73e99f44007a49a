"""The records file underneath :mod:`pyramid_widget.records.store`: schema versions, forward
migrations, telling our files from anyone else's, and opening a file safely (WAL, busy waits,
corruption checks, read-only opening).

Schema versions live in ``PRAGMA user_version``; ``MIGRATIONS[v]`` turns version ``v`` into
``v + 1``, all in one transaction, so two processes opening an old file at once migrate it once.
Files of version 3 on carry ``PRAGMA application_id`` = :data:`APPLICATION_ID`; older ones are
known by their version number and their ``games`` table.

>>> import sqlite3
>>> conn = sqlite3.connect(":memory:", isolation_level=None)
>>> migrate(conn), conn.execute("PRAGMA user_version").fetchone()[0] == CURRENT_VERSION
(0, True)
>>> conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
True
"""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
BUSY_TIMEOUT_MS = 30_000

CURRENT_VERSION = 5
APPLICATION_ID = 0x50597257
"""``PRAGMA application_id`` of a records file (the bytes ``PYrW``), from schema version 3."""

SQLITE_MAGIC = b"SQLite format 3\x00"

_GAMES_V3 = """CREATE TABLE IF NOT EXISTS games (
        id INTEGER PRIMARY KEY,
        rules TEXT NOT NULL,
        rules_json TEXT NOT NULL DEFAULT '{}',
        deal TEXT NOT NULL,
        deal_number TEXT,
        result TEXT NOT NULL,
        score INTEGER NOT NULL,
        seconds REAL NOT NULL,
        moves INTEGER NOT NULL,
        rounds INTEGER NOT NULL DEFAULT 0,
        finished_at TEXT NOT NULL,
        game_json TEXT)"""

_TABLES_V3 = (
    _GAMES_V3,
    "CREATE INDEX IF NOT EXISTS games_by_rules ON games (rules, id)",
    """CREATE TABLE IF NOT EXISTS saved_games (
        name TEXT PRIMARY KEY,
        rules TEXT NOT NULL,
        saved_at TEXT NOT NULL,
        moves INTEGER NOT NULL,
        score INTEGER NOT NULL,
        game_json TEXT NOT NULL)""",
)


class SchemaError(sqlite3.DatabaseError):
    """The file is a database, but not one this version can use (foreign or newer)."""


def create_current(conn: sqlite3.Connection) -> None:
    """Create the current schema in an empty database (inside the caller's transaction)."""
    for statement in _TABLES_V3:
        conn.execute(statement)
    _v3_to_v4(conn)
    _v4_to_v5(conn)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {CURRENT_VERSION}")


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    from pyramid_widget import PRESETS

    conn.execute("ALTER TABLE games RENAME COLUMN played_at TO finished_at")
    for column in (
        "rules_json TEXT NOT NULL DEFAULT '{}'",
        "deal_number INTEGER",
        "rounds INTEGER NOT NULL DEFAULT 0",
        "game_json TEXT",
    ):
        conn.execute(f"ALTER TABLE games ADD COLUMN {column}")
    for name, preset in PRESETS.items():
        text = json.dumps(preset.to_dict(), sort_keys=True)
        conn.execute("UPDATE games SET rules_json = ? WHERE rules = ?", (text, name))
    for statement in _TABLES_V3[1:]:
        conn.execute(statement)


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """``games.deal_number`` becomes TEXT (decimal digits), so that every deal number up to
    2**64 - 1 is kept exactly (an SQLite INTEGER stops at 2**63 - 1); the file is marked
    with :data:`APPLICATION_ID`."""
    conn.execute("ALTER TABLE games RENAME TO games_v2")
    conn.execute("DROP INDEX IF EXISTS games_by_rules")
    conn.execute(_GAMES_V3)
    conn.execute(
        "INSERT INTO games (id, rules, rules_json, deal, deal_number, result, score, seconds,"
        " moves, rounds, finished_at, game_json) SELECT id, rules, rules_json, deal,"
        " CAST(deal_number AS TEXT), result, score, seconds, moves, rounds, finished_at,"
        " game_json FROM games_v2"
    )
    conn.execute("DROP TABLE games_v2")
    conn.execute(_TABLES_V3[1])
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _v3_to_v4(conn: sqlite3.Connection) -> None:
    """``games.assisted``: 1 for a game in which the solver played moves or gave its winning
    hint (such a game never counts toward wins, streaks or bests); older games were not."""
    conn.execute("ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0")


def _v4_to_v5(conn: sqlite3.Connection) -> None:
    """``lesson_progress``: per learner, each lesson step done by the learner (``done``) or
    played by "Show me" (``shown``), keyed by the lesson's title and the step's index."""
    conn.execute(
        """CREATE TABLE IF NOT EXISTS lesson_progress (
        learner TEXT NOT NULL,
        lesson TEXT NOT NULL,
        step INTEGER NOT NULL,
        how TEXT NOT NULL CHECK (how IN ('done', 'shown')),
        marked_at TEXT NOT NULL,
        PRIMARY KEY (learner, lesson, step))"""
    )


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
    3: _v3_to_v4,
    4: _v4_to_v5,
}
"""``MIGRATIONS[v]`` turns a version ``v`` file into version ``v + 1``."""


def _check_version(conn: sqlite3.Connection) -> int:
    """The file's schema version; :class:`SchemaError` for a newer or a foreign database."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    app = int(conn.execute("PRAGMA application_id").fetchone()[0])
    if app not in (0, APPLICATION_ID) or (
        version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    ):
        raise SchemaError("it is a database, but not a pyramid-widget records file")
    if version > CURRENT_VERSION:
        raise SchemaError(
            f"it was written by a newer pyramid-widget (schema version {version}; "
            f"this one knows up to {CURRENT_VERSION})"
        )
    return version


@functools.cache
def _current_columns() -> dict[str, frozenset[str]]:
    """Each table of the current schema and its columns, read off a fresh in-memory database
    (so the check below can never disagree with what :func:`create_current` makes)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        create_current(conn)
        tables = [
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        return {table: frozenset(c[0] for c in _columns(conn, table)) for table in tables}
    finally:
        conn.close()


def _columns(conn: sqlite3.Connection, table: str) -> list[tuple[str, bool, bool]]:
    """``(name, must be filled, has a default)`` for each column of ``table``."""
    found = conn.execute(
        'SELECT name, "notnull" AND NOT pk, dflt_value IS NOT NULL FROM pragma_table_info(?)',
        (table,),
    ).fetchall()
    return [(str(name), bool(filled), bool(default)) for name, filled, default in found]


def check_tables(conn: sqlite3.Connection) -> None:
    """Raise :class:`SchemaError` unless every table and column of the current schema is
    there, and no extra column must be filled by each new row.

    The version number alone does not say so: a hand edit (``ALTER TABLE games DROP COLUMN
    assisted``) or another tool can change a file of ours and leave its number as it was.
    Such a file would open as healthy and then refuse every record of the session.

    >>> conn = sqlite3.connect(":memory:", isolation_level=None)
    >>> _ = migrate(conn)
    >>> check_tables(conn)
    >>> _ = conn.execute("ALTER TABLE games DROP COLUMN assisted")
    >>> _ = conn.execute("DROP TABLE lesson_progress")
    >>> check_tables(conn)
    Traceback (most recent call last):
    ...
    pyramid_widget.records.schema.SchemaError: its tables are not the ones pyramid-widget writes (no column assisted in games; no table lesson_progress), so it was left as it is
    """
    problems = []
    for table, wanted in sorted(_current_columns().items()):
        exists = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        if not conn.execute(exists, (table,)).fetchone():
            problems.append(f"no table {table}")
            continue
        columns = _columns(conn, table)
        missing = sorted(wanted - {name for name, _, _ in columns})
        problems += [f"no column {name} in {table}" for name in missing]
        problems += [
            f"an extra column {name} in {table} that every new row would have to fill"
            for name, filled, default in columns
            if name not in wanted and filled and not default
        ]
    if problems:
        raise SchemaError(
            f"its tables are not the ones pyramid-widget writes ({'; '.join(problems)}), "
            "so it was left as it is"
        )


def migrate(conn: sqlite3.Connection) -> int:
    """Bring a records database to the current schema in one transaction; return the version
    it had. Raises :class:`SchemaError` for a newer or a foreign database, or one whose
    tables were changed by hand (see :func:`check_tables`); it is left untouched."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _check_version(conn)  # again: another process may have migrated meanwhile
        if version == 0:
            create_current(conn)
        else:
            for step in range(version, CURRENT_VERSION):
                MIGRATIONS[step](conn)
            conn.execute(f"PRAGMA user_version = {CURRENT_VERSION}")
        check_tables(conn)  # rolled back, migration and all, when the tables are not ours
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return version


def looks_like_ours(target: Path) -> bool:
    """Whether ``target`` is recognisably a records file, even a damaged one: an SQLite header
    with our :data:`APPLICATION_ID`, or (files before version 3) a version number we wrote
    and the text of our ``games`` table on the first page. Reads the first page only.

    >>> import tempfile
    >>> notes = Path(tempfile.mkdtemp()) / "notes.txt"
    >>> _ = notes.write_text("shopping: milk, eggs")
    >>> looks_like_ours(notes)
    False
    """
    try:
        with target.open("rb") as handle:
            head = handle.read(100)
            if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
                return False
            size = int.from_bytes(head[16:18], "big")
            page = head + handle.read((65536 if size == 1 else size) - 100)
    except OSError:
        return False
    version = int.from_bytes(head[60:64], "big")
    app = int.from_bytes(head[68:72], "big")
    if app == APPLICATION_ID:
        return True
    return app == 0 and version >= 1 and b"CREATE TABLE games" in page


def connect_file(target: Path) -> sqlite3.Connection:
    """Open (creating or migrating) a records file; raises sqlite3 / OS errors."""
    conn = sqlite3.connect(
        str(target), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
        check_same_thread=False,
    )  # fmt: skip
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        check = conn.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
        # Schema first, WAL after: a file we cannot use is left byte for byte alone, and two
        # processes creating the same new file lock it the same way (WAL on an empty file
        # is not yet recorded in it, so they could otherwise both think they hold the lock).
        migrate(conn)
        _retry_busy(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
        conn.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        conn.close()
        raise
    return conn


def transaction(conn: sqlite3.Connection, action: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``action`` in one ``BEGIN IMMEDIATE`` transaction, rolled back if it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = action(conn)
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


def _retry_busy(action: Callable[[], object], attempts: int = 200) -> None:
    """Run ``action``, retrying while another connection briefly holds the file."""
    for attempt in range(attempts):
        try:
            action()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.01)


def _source(target: Path, query: str) -> sqlite3.Connection:
    return sqlite3.connect(
        f"{target.resolve().as_uri()}?{query}", uri=True, isolation_level=None,
        check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000,
    )  # fmt: skip


def open_readonly(target: Path) -> sqlite3.Connection:
    """Open an existing records file to read it, changing nothing in it.

    A current file is read in place (read-only mode; where even that cannot work, as with a
    WAL file in a read-only place, the main file as it stands); an older one is copied into
    memory and migrated there. Raises :class:`SchemaError` for a foreign or newer database, or
    one whose tables were changed by hand, and ``sqlite3.DatabaseError`` for a damaged one
    (``is_corruption`` tells which).
    """
    failure: sqlite3.Error | None = None
    for query in ("mode=ro", "immutable=1"):
        source = _source(target, query)
        try:
            check = source.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
            if _check_version(source) == CURRENT_VERSION:
                check_tables(source)
                return source
            into = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            source.backup(into)
            source.close()
            migrate(into)
            return into
        except SchemaError:
            source.close()
            raise
        except sqlite3.Error as exc:
            source.close()
            if isinstance(exc, sqlite3.DatabaseError) and is_corruption(exc):
                raise
            failure = exc
    assert failure is not None
    raise failure


def copy_readonly(target: Path) -> sqlite3.Connection | None:
    """An in-memory copy of a readable records file (migrated); None if there is none, or if
    its tables were changed by hand (a copy would refuse every record just as the file did)."""
    if not target.is_file():
        return None
    # A WAL file in a read-only place cannot get its shared-memory index, so read-only mode
    # fails; "immutable" then reads the main file as it stands (the last checkpoint).
    for query in ("mode=ro", "immutable=1"):
        into = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        try:
            source = sqlite3.connect(f"{target.resolve().as_uri()}?{query}", uri=True)
            try:
                _check_version(source)
                source.backup(into)
            finally:
                source.close()
            migrate(into)
        except (sqlite3.Error, OSError):
            into.close()
            continue
        return into
    return None


def is_corruption(exc: sqlite3.DatabaseError) -> bool:
    """True for "not a database" / "malformed" errors; False for locks, permissions, I/O."""
    name = getattr(exc, "sqlite_errorname", "")
    if name:
        return name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT"))
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text
