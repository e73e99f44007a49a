"""Records files of ours changed by hand or by another tool (audit items 5 and 6), on real
SQLite files: the store says so in one sentence, loses nothing and keeps recording."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pyramid_widget import Game
from pyramid_widget.records.store import Records, RecordsError, RecordsWarning


def won() -> Game:
    game = Game.from_position("medium", pyramid=[None] * 27 + ["KH"])
    game.play("KH")
    return game


def edit(path: Path, *statements: str) -> None:
    """Change the file as a user with the ``sqlite3`` shell would, then let it settle."""
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    conn.commit()
    conn.close()


def a_file_with_games(path: Path) -> None:
    with Records(path) as records:
        records.record_game(won())
        records.record_game(Game("medium", deal=2))
        records.save_game(Game("hard", deal=3), name="tonight")
        records.mark_lesson_step("ada", "Kings clear alone", 1, "done")


def _with_extra_required_column(path: Path) -> None:
    """``games`` rebuilt with one more NOT NULL column and no default (ALTER TABLE cannot
    add one): every INSERT the store makes would then fail."""
    conn = sqlite3.connect(path)
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()
    conn.execute("ALTER TABLE games RENAME TO games_old")
    conn.execute(sql.rstrip().removesuffix(")") + ", note TEXT NOT NULL)")
    conn.execute("INSERT INTO games SELECT *, 'hand-made' FROM games_old")
    conn.execute("DROP TABLE games_old")
    conn.commit()
    conn.close()


# -- item 6: a drifted schema is found when the file is opened --------------------------------

DRIFTS = {
    "dropped column": (["ALTER TABLE games DROP COLUMN assisted"], "no column assisted in games"),
    "dropped games": (["DROP TABLE games"], "no table games"),
    "dropped saves": (["DROP TABLE saved_games"], "no table saved_games"),
    "dropped lessons": (["DROP TABLE lesson_progress"], "no table lesson_progress"),
    "renamed column": (
        ["ALTER TABLE games RENAME COLUMN score TO points"],
        "no column score in games",
    ),
    "extra required column": ([], "an extra column note in games that every new row"),
}


@pytest.mark.parametrize("drift", list(DRIFTS))
def test_a_drifted_file_is_left_alone_and_the_session_records_in_a_fresh_store(
    tmp_path: Path, drift: str
) -> None:
    path = tmp_path / "records.sqlite3"
    a_file_with_games(path)
    statements, problem = DRIFTS[drift]
    if statements:
        edit(path, *statements)
    else:
        _with_extra_required_column(path)
    before = path.read_bytes()

    with pytest.warns(RecordsWarning) as caught:
        records = Records(path)
    (warning,) = [str(w.message) for w in caught]
    assert warning == records.warning
    assert f"the records file {path} cannot be used" in warning and problem in warning
    assert "left as it is" in warning and "kept in memory" in warning
    assert "\n" not in warning
    assert records.in_memory

    # every game of the session is kept, in a store with the whole current schema
    ids = [records.record_game(won()) for _ in range(3)]
    assert ids == [1, 2, 3]
    stats = records.stats("medium")
    assert (stats.played, stats.won) == (3, 3)
    assert records.save_game(Game("easy", deal=4), name="later") == "later"
    records.mark_lesson_step("ada", "Kings clear alone", 2, "done")
    assert records.lesson_marks("ada") == {("Kings clear alone", 2): "done"}
    records.close()

    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["records.sqlite3"]


def test_reading_only_a_drifted_file_is_one_records_error(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    a_file_with_games(path)
    edit(path, "ALTER TABLE games DROP COLUMN assisted")
    with pytest.raises(RecordsError, match="no column assisted in games") as caught:
        Records(path, read_only=True)
    assert str(caught.value).startswith(f"the records file {path} cannot be read: ")


def test_a_file_that_drifts_during_play_is_not_copied_into_the_fallback(tmp_path: Path) -> None:
    """The column goes while the store has the file open: the next game falls back to
    memory, and that store must be a fresh one (a copy would refuse every game as well)."""
    path = tmp_path / "records.sqlite3"
    records = Records(path)
    records.record_game(won())
    edit(path, "ALTER TABLE games DROP COLUMN assisted")
    with pytest.warns(RecordsWarning, match=f"cannot write the records file {path}"):
        assert records.record_game(won()) == 1
    assert records.in_memory
    assert records.record_game(won()) == 2
    assert records.stats("medium").won == 2
    records.close()
