"""Records survive bad files and bad places: corrupt files, read-only locations, old schemas."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pyramid_widget import Game, get_rules
from pyramid_widget.records.store import CURRENT_VERSION, Records, RecordsWarning

ROOT = Path(__file__).resolve().parents[2]


def won(rules: str = "medium") -> Game:
    game = Game.from_position(rules, pyramid=[None] * 27 + ["KH"])
    game.play("KH")
    return game


def test_a_file_that_is_not_a_database_is_left_alone_and_play_goes_on(tmp_path: Path) -> None:
    """Not ours, so not moved or replaced: a warning, and the games are kept in memory."""
    path = tmp_path / "records.sqlite3"
    garbage = b"this is not a database at all\n" * 200
    path.write_bytes(garbage)
    with pytest.warns(RecordsWarning) as caught:
        records = Records(path)
    message = str(caught[0].message)
    assert f"{path} is not a pyramid-widget records file" in message
    assert "left as it is" in message and "kept in memory" in message
    assert records.warning == message
    assert records.in_memory
    records.record_game(won())
    assert records.stats("medium").won == 1
    records.close()
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.sqlite3"]


def test_a_damaged_database_is_moved_aside_too(tmp_path: Path) -> None:
    """A real records file whose pages were overwritten in the middle (header intact)."""
    path = tmp_path / "records.sqlite3"
    with Records(path) as records:
        for _ in range(200):
            records.record_game(won())
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    data[4096 : len(data) - 100] = b"\xa5" * (len(data) - 4196)
    path.write_bytes(bytes(data))
    with pytest.warns(RecordsWarning, match="moved to .*corrupt-"):
        records = Records(path)
    assert records.stats("medium").played == 0
    records.close()


def test_a_path_under_a_regular_file_falls_back_to_memory(tmp_path: Path) -> None:
    """A location that cannot be written even by root: its "directory" is a regular file,
    so neither mkdir nor SQLite can ever create the records file there."""
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where a directory should be")
    with pytest.warns(RecordsWarning, match="kept in memory") as caught:
        records = Records(blocker / "records.sqlite3")
    assert str(blocker / "records.sqlite3") in str(caught[0].message)
    assert records.in_memory and records.path is None
    records.record_game(won())
    assert records.stats("medium").won == 1
    assert blocker.read_text() == "a file where a directory should be"


READ_ONLY_CHILD = textwrap.dedent(
    """
    import sys, warnings
    from pathlib import Path
    from pyramid_widget import Game
    from pyramid_widget.records.store import Records
    path = Path(sys.argv[1])
    try:  # prove the place really cannot be written by this process
        (path.parent / "probe").write_text("x")
        sys.exit("the directory is writable: the test would prove nothing")
    except PermissionError:
        pass
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        records = Records(path)
    game = Game.from_position("medium", pyramid=[None] * 27 + ["KH"])
    game.play("KH")
    records.record_game(game)
    print(records.in_memory, records.stats("medium").played, sep="|")
    print(caught[0].message)
    """
)


def _without_permission_override() -> None:
    """In the child, before exec: drop CAP_DAC_OVERRIDE (1) and CAP_DAC_READ_SEARCH (2) from
    the capability bounding set (prctl PR_CAPBSET_DROP = 24), so that even root obeys the
    permission bits after exec."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) refused")


def _run_without_write_permission(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a child process that really lacks write permission where the mode
    bits deny it: as root (tests run as root, where chmod alone stops nothing) the child
    loses the capabilities that let root ignore permission bits."""
    as_root = os.geteuid() == 0
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=_without_permission_override if as_root else None,
        check=False,
    )


def test_a_read_only_directory_falls_back_to_memory_and_keeps_old_games(tmp_path: Path) -> None:
    """A real read-only directory (mode 0555) holding a records file (0444) with one game.

    The opening process is a child that the permission bits really stop (as root it runs
    without CAP_DAC_OVERRIDE; the child first checks that it cannot write there). It must
    warn, name the file, work in memory, and still show the game already in the file."""
    place = tmp_path / "read-only"
    place.mkdir()
    path = place / "records.sqlite3"
    with Records(path) as records:
        records.record_game(won())
    place.chmod(0o555)
    path.chmod(0o444)
    try:
        result = _run_without_write_permission(READ_ONLY_CHILD, str(path))
    except subprocess.SubprocessError as exc:  # prctl refused: no way to make root obey modes
        pytest.skip(f"cannot drop root's permission override on this machine ({exc})")
    finally:
        place.chmod(0o755)
    assert result.returncode == 0, result.stderr
    status, message = result.stdout.strip().split("\n", 1)
    assert status == "True|2"  # in memory: the old game plus the new one
    assert f"cannot write the records file {path}" in message
    assert "copied into memory" in message
    assert sorted(p.name for p in place.iterdir()) == ["records.sqlite3"]


def test_migration_from_a_version_1_file(tmp_path: Path) -> None:
    """A version 1 file made by hand with the v1 layout, opened by the current code."""
    path = tmp_path / "records.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            """
            CREATE TABLE games (id INTEGER PRIMARY KEY, rules TEXT NOT NULL, deal TEXT NOT NULL,
                result TEXT NOT NULL, score INTEGER NOT NULL, seconds REAL NOT NULL,
                moves INTEGER NOT NULL, played_at TEXT NOT NULL);
            INSERT INTO games VALUES (1, 'medium', 'AS 2S', 'won', 700, 95.5, 40,
                '2025-03-01T10:00:00+00:00');
            INSERT INTO games VALUES (2, 'medium', 'AS 2S', 'lost', 100, 200.0, 61,
                '2025-03-02T10:00:00+00:00');
            INSERT INTO games VALUES (3, 'mine', 'AS 2S', 'won', 900, 80.0, 30,
                '2025-03-03T10:00:00+00:00');
            PRAGMA user_version = 1;
            """
        )
    conn.close()
    with Records(path) as records:
        assert records.warning is None
        stats = records.stats("medium")
        assert (stats.played, stats.won, stats.best_time, stats.best_score) == (2, 1, 95.5, 700)
        (oldest,) = [g for g in records.games() if g.id == 1]
        assert oldest.finished_at == "2025-03-01T10:00:00+00:00" and oldest.rounds == 0
        records.record_game(won())
        records.save_game(Game("medium", deal=1), name="new feature")
        assert records.stats("medium").current_streak == 1
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == CURRENT_VERSION
        rules = dict(conn.execute("SELECT rules, rules_json FROM games WHERE id < 4").fetchall())
    assert get_rules(__import__("json").loads(rules["medium"])) == get_rules("medium")
    assert rules["mine"] == "{}"  # an unknown v1 rule set: its full definition was never stored
    conn.close()


def test_a_newer_schema_is_left_alone_and_play_goes_on_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, future TEXT)")
        conn.execute(f"PRAGMA user_version = {CURRENT_VERSION + 5}")
    conn.close()
    before = path.read_bytes()
    with pytest.warns(RecordsWarning, match="newer pyramid-widget"):
        records = Records(path)
    assert records.in_memory
    records.record_game(won())
    records.close()
    assert path.read_bytes() == before


def test_someone_elses_database_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "accounts.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE ledger (amount REAL)")
    conn.close()
    with pytest.warns(RecordsWarning, match="not a pyramid-widget records file"):
        records = Records(path)
    assert records.in_memory
    with sqlite3.connect(path) as conn:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master")]
    conn.close()
    assert tables == ["ledger"]


def test_a_disk_that_fills_up_during_play_loses_nothing(tmp_path: Path) -> None:
    """The file stops taking writes while a store has it open (SQLite's own page limit makes
    the disk "full": SQLITE_FULL). The store warns, copies what the file holds into memory and
    goes on there: every game recorded, before and after, is still counted."""
    path = tmp_path / "records.sqlite3"
    records = Records(path)
    records.record_game(won())
    pages = records._conn.execute("PRAGMA page_count").fetchone()[0]
    records._conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.warns(RecordsWarning, match=f"cannot write the records file {path}") as caught:
        for _ in range(20):
            records.record_game(won())
    assert "full" in str(caught[0].message) and "copied into memory" in str(caught[0].message)
    assert records.in_memory and records.warning is not None
    assert records.stats("medium").won == 21
    records.close()
