"""Lesson progress in the records file (schema v5): per learner, done beats shown, an old
file migrates, bad keys are one RecordsError sentence."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pyramid_widget.errors import RecordsError
from pyramid_widget.records import Records
from pyramid_widget.records.schema import CURRENT_VERSION, MIGRATIONS


def test_marks_are_per_learner_and_done_stays_done(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    with Records(path) as records:
        records.mark_lesson_step("ada", "Pairs to 13", 0, "shown")
        records.mark_lesson_step("ada", "Pairs to 13", 1, "done")
        records.mark_lesson_step("ada", "Pairs to 13", 1, "shown")
        records.mark_lesson_step("ada", "Pairs to 13", 0, "done")
        records.mark_lesson_step("bob", "Pairs to 13", 3, "shown")
    with Records(path) as again:  # a new kernel reads the same file
        assert again.lesson_marks("ada") == {("Pairs to 13", 0): "done", ("Pairs to 13", 1): "done"}
        assert again.lesson_marks("bob") == {("Pairs to 13", 3): "shown"}
        assert again.lesson_marks("cy") == {}


def test_a_version_4_file_gets_the_table(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    with Records(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE lesson_progress")
        conn.execute("PRAGMA user_version = 4")
    conn.close()
    assert CURRENT_VERSION == 5 and 4 in MIGRATIONS
    with Records(path) as records:
        records.mark_lesson_step("ada", "Kings clear alone", 2, "done")
        assert records.lesson_marks("ada") == {("Kings clear alone", 2): "done"}
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 5
    conn.close()


@pytest.mark.parametrize(
    ("learner", "lesson", "step", "how", "words"),
    [
        ("", "L", 0, "done", "learner's name"),
        (3, "L", 0, "done", "learner's name"),
        ("ada", "", 0, "done", "lesson title"),
        ("ada", "L", -1, "done", "0..9999"),
        ("ada", "L", True, "done", "0..9999"),
        ("ada", "L", 0, "mastered", "'done' or 'shown'"),
    ],
)
def test_bad_marks_are_refused(
    learner: object, lesson: object, step: object, how: object, words: str
) -> None:
    with Records(":memory:") as records:
        with pytest.raises(RecordsError, match=words):
            records.mark_lesson_step(learner, lesson, step, how)  # type: ignore[arg-type]
        assert records._read("SELECT count(*) FROM lesson_progress") == [(0,)]
