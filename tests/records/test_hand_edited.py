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


# -- item 5: a value of the wrong type in a row is left out, in one warning -------------------

WRONG_VALUES = [
    ("games", "score = 'abc'", "id 2"),
    ("games", "seconds = 'fast'", "id 2"),
    ("games", "seconds = 9e999", "id 2"),  # infinity: no time can be shown for it
    ("games", "seconds = -5.0", "id 2"),
    ("games", "result = 'draw'", "id 2"),
    ("games", "result = x'776f6e'", "id 2"),  # the bytes of 'won', as a blob
    ("games", "moves = 'many'", "id 2"),
    ("games", "rounds = 1.5", "id 2"),
    ("games", "assisted = 'yes'", "id 2"),
    ("games", "assisted = 2", "id 2"),
    ("games", "rules = x'00'", "id 2"),
    ("games", "deal = x'00'", "id 2"),
    ("games", "deal_number = x'07'", "id 2"),
    ("games", "finished_at = x'00'", "id 2"),
    ("saved_games", "moves = 'none'", "row 1"),
    ("saved_games", "score = 2.5", "row 1"),
    ("saved_games", "rules = x'00'", "row 1"),
    ("saved_games", "saved_at = x'00'", "row 1"),
    ("saved_games", "name = x'00'", "row 1"),
    ("lesson_progress", "step = 'two'", "row 1"),
    ("lesson_progress", "lesson = x'00'", "row 1"),
]
NOUNS = {"games": "1 game", "saved_games": "1 saved game", "lesson_progress": "1 lesson mark"}


def _check_types(records: Records) -> None:
    """What the readers return holds values of the declared kinds only."""
    for game in records.games():
        assert isinstance(game.rules, str) and isinstance(game.deal, str)
        assert game.result in ("won", "lost", "abandoned")
        assert all(type(v) is int for v in (game.id, game.score, game.moves, game.rounds))
        assert isinstance(game.seconds, float) and 0 <= game.seconds < float("inf")
        assert isinstance(game.finished_at, str)
    for saved in records.saved_games():
        assert all(isinstance(v, str) for v in (saved.name, saved.rules, saved.saved_at))
        assert type(saved.moves) is int and type(saved.score) is int
    for (lesson, step), how in records.lesson_marks("ada").items():
        assert isinstance(lesson, str) and type(step) is int and how in ("done", "shown")


@pytest.mark.parametrize(("table", "change", "row"), WRONG_VALUES)
def test_a_value_of_the_wrong_type_is_left_out_in_one_warning(
    tmp_path: Path, table: str, change: str, row: str
) -> None:
    path = tmp_path / "records.sqlite3"
    a_file_with_games(path)  # games 1 (won) and 2 (abandoned), one save, one lesson mark
    key = "id = 2" if table == "games" else "rowid = 1"
    edit(path, f"UPDATE {table} SET {change} WHERE {key}")
    before = path.read_bytes()

    with pytest.warns(RecordsWarning) as caught:
        records = Records(path)
    (warning,) = [str(w.message) for w in caught]
    assert warning == records.warning and "\n" not in warning
    assert warning.startswith(f"pyramid-widget: {NOUNS[table]} in the records file {path} holds")
    assert f"({row}; edited by hand?)" in warning and "nothing in the file was changed" in warning
    assert not records.in_memory

    stats = records.stats("medium")  # no TypeError: the bad row is simply not counted
    expected = (1, 1) if table == "games" else (2, 1)
    assert (stats.played, stats.won) == expected
    assert [s.rules for s in records.all_stats()] == ["medium"]
    assert len(records.games()) == expected[0]
    assert len(records.saved_games()) == (0 if table == "saved_games" else 1)
    assert len(records.lesson_marks("ada")) == (0 if table == "lesson_progress" else 1)
    _check_types(records)

    records.record_game(won())  # the file stays in use for the next games
    assert records.stats("medium").played == expected[0] + 1
    records.close()
    with pytest.warns(RecordsWarning, match=row):  # the bad row is still there, untouched
        again = Records(path, read_only=True)
    assert again.stats("medium").played == expected[0] + 1
    again.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute(f"SELECT count(*) FROM {table} WHERE {key}").fetchone()[0] == 1
    conn.close()
    assert before != path.read_bytes()  # the new game was written


def test_many_bad_rows_are_counted_and_the_first_few_named(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    with Records(path) as records:
        for _ in range(9):
            records.record_game(won())
    edit(path, "UPDATE games SET score = 'abc' WHERE id > 1")
    with pytest.warns(
        RecordsWarning,
        match=r"8 games in .* hold a value of the wrong type "
        r"\(ids 2, 3, 4, 5, 6 and 3 more; edited by hand\?\) and are left out",
    ):
        records = Records(path)
    assert records.stats("medium").played == 1
    records.close()


def test_a_stored_game_that_is_not_text_is_a_records_error(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    a_file_with_games(path)
    edit(path, "UPDATE games SET game_json = x'7b7d' WHERE id = 2")  # '{}' as a blob
    with Records(path) as records:
        with pytest.raises(RecordsError, match="the stored game with id 2 is not text"):
            records.game_json(2)
        assert '"format"' in records.game_json(1)


def test_a_saved_game_that_is_not_text_is_a_records_error(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    a_file_with_games(path)
    edit(path, "UPDATE saved_games SET game_json = x'00'")
    with Records(path) as records:
        with pytest.raises(RecordsError, match="the saved game 'tonight' cannot be read back"):
            records.load_game("tonight")
        assert [s.name for s in records.saved_games()] == ["tonight"]
