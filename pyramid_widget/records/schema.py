"""The records file underneath :mod:`pyramid_widget.records.store`: schema versions, forward
migrations, and opening a file safely (WAL, busy waits, corruption checks, read-only copies).

Schema versions live in ``PRAGMA user_version``; ``MIGRATIONS[v]`` turns version ``v`` into
``v + 1``, all in one transaction, so two processes opening an old file at once migrate it once.

>>> import sqlite3
>>> conn = sqlite3.connect(":memory:", isolation_level=None)
>>> migrate(conn), conn.execute("PRAGMA user_version").fetchone()[0] == CURRENT_VERSION
(0, True)
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
BUSY_TIMEOUT_MS = 30_000

CURRENT_VERSION = 2

_TABLES_V2 = (
    """CREATE TABLE IF NOT EXISTS games (
        id INTEGER PRIMARY KEY,
        rules TEXT NOT NULL,
        rules_json TEXT NOT NULL DEFAULT '{}',
        deal TEXT NOT NULL,
        deal_number INTEGER,
        result TEXT NOT NULL,
        score INTEGER NOT NULL,
        seconds REAL NOT NULL,
        moves INTEGER NOT NULL,
        rounds INTEGER NOT NULL DEFAULT 0,
        finished_at TEXT NOT NULL,
        game_json TEXT)""",
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
    for statement in _TABLES_V2:
        conn.execute(statement)
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
    for statement in _TABLES_V2[1:]:
        conn.execute(statement)


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1_to_v2}
"""``MIGRATIONS[v]`` turns a version ``v`` file into version ``v + 1``."""


def _check_version(conn: sqlite3.Connection) -> int:
    """The file's schema version; :class:`SchemaError` for a newer or a foreign database."""
    version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise SchemaError("it is a database, but not a pyramid-widget records file")
    if version > CURRENT_VERSION:
        raise SchemaError(
            f"it was written by a newer pyramid-widget (schema version {version}; "
            f"this one knows up to {CURRENT_VERSION})"
        )
    return version


def migrate(conn: sqlite3.Connection) -> int:
    """Bring a records database to the current schema in one transaction; return the version
    it had. Raises :class:`SchemaError` for a newer or a foreign database (left untouched)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _check_version(conn)  # again: another process may have migrated meanwhile
        if version == 0:
            create_current(conn)
        else:
            for step in range(version, CURRENT_VERSION):
                MIGRATIONS[step](conn)
            conn.execute(f"PRAGMA user_version = {CURRENT_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return version


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


def copy_readonly(target: Path) -> sqlite3.Connection | None:
    """An in-memory copy of a readable records file (migrated); None if there is none."""
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
