"""``pyramid-widget stats``: a readable table, JSON, and no records file made by reading."""

from __future__ import annotations

import argparse
import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pyramid_widget import Game
from pyramid_widget.cli import stats as cli_stats
from pyramid_widget.records.store import DATA_DIR_ENV, Records

ROOT = Path(__file__).resolve().parents[2]


def won(rules: str, seconds: float) -> Game:
    now = [0.0]
    game = Game.from_position(rules, pyramid=[None] * 27 + ["KH"], clock=lambda: now[0])
    now[0] = seconds
    game.play("KH")
    return game


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "records.sqlite3"
    with Records(path) as records:
        for game in [won("medium", 95), Game("medium", deal=1), won("medium", 130)]:
            records.record_game(game)
        records.record_game(won("egypt", 300))
        records.save_game(Game("hard", deal=8), name="tonight")
    return path


def stats(*argv: str) -> str:
    parser = argparse.ArgumentParser()
    cli_stats.add_arguments(parser)
    out = io.StringIO()
    assert cli_stats.run(parser.parse_args(list(argv)), out=out) == 0
    return out.getvalue()


def test_the_table_shows_each_rule_set(db: Path) -> None:
    lines = stats("--db", str(db)).splitlines()
    assert lines[0].split() == [
        "rules", "played", "won", "win", "%", "streak", "best", "streak", "best", "score",
        "best", "time",
    ]  # fmt: skip
    medium = lines[1].split()
    assert medium[:6] == ["medium", "3", "2", "66.7", "1", "1"]
    assert medium[7] == "1:35"  # the faster of the two wins
    assert lines[2].startswith("egypt (1 rounds)")
    assert lines[-1] == f"Records: {db}"


def test_json_and_a_rules_filter_and_saved_games(db: Path) -> None:
    document = json.loads(stats("--db", str(db), "--json", "--rules", "medium", "--saved"))
    assert document["path"] == str(db)
    (medium,) = document["stats"]
    assert (medium["rules"], medium["played"], medium["won"]) == ("medium", 3, 2)
    assert medium["best_time"] == pytest.approx(95.0)
    assert [s["name"] for s in document["saved"]] == ["tonight"]
    assert "saved: 'tonight' (hard, 0 moves" in stats("--db", str(db), "--saved")


def test_reading_never_creates_a_records_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "records.sqlite3"
    assert stats("--db", str(missing)) == (
        f"No games recorded yet (no records file at {missing}).\n"
    )
    assert json.loads(stats("--db", str(missing), "--json"))["stats"] == []
    assert not missing.parent.exists()


def test_an_empty_records_file_says_so(tmp_path: Path) -> None:
    Records(tmp_path).close()
    assert stats("--db", str(tmp_path)).splitlines()[0] == "No games recorded yet."


def test_the_real_command_reads_the_env_var_directory(db: Path) -> None:
    env = {**os.environ, DATA_DIR_ENV: str(db.parent), "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "pyramid_widget.cli", "stats"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1].split()[:3] == ["medium", "3", "2"]


def real_stats(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command as a user runs it, in its own process (warnings and errors as printed)."""
    return subprocess.run(
        [sys.executable, "-m", "pyramid_widget.cli", "stats", *argv],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )


def test_a_hand_edited_value_is_one_warning_line_and_the_rest_is_shown(db: Path) -> None:
    """Audit item 5: text in a number column used to end in a TypeError traceback."""
    conn = sqlite3.connect(db)
    conn.execute("UPDATE games SET score = 'abc' WHERE id = 2")
    conn.commit()
    conn.close()
    for argv in ([], ["--json"]):
        result = real_stats("--db", str(db), *argv)
        assert result.returncode == 0, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith(f"pyramid-widget: warning: 1 game in the records file {db} ")
        assert "(id 2; edited by hand?)" in line
    assert json.loads(result.stdout)["stats"][0]["played"] == 2
    table = real_stats("--db", str(db)).stdout.splitlines()
    assert table[1].split()[:3] == ["medium", "2", "2"]


def test_a_file_with_a_dropped_column_is_one_error_line_and_exit_2(db: Path) -> None:
    """Audit item 6: such a file is not a records file this version can read."""
    conn = sqlite3.connect(db)
    conn.execute("ALTER TABLE games DROP COLUMN assisted")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    result = real_stats("--db", str(db))
    assert (result.returncode, result.stdout) == (2, "")
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"pyramid-widget: error: the records file {db} cannot be read: ")
    assert "no column assisted in games" in line
    assert db.read_bytes() == before
