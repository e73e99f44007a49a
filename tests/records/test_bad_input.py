"""Records under bad input (issue 14, items 3-5): every deal number stored exactly, a bad
record refused without losing the file, and a file that is not ours never moved or replaced."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pyramid_widget import Game
from pyramid_widget.engine.deals import MAX_DEAL_NUMBER
from pyramid_widget.records.schema import APPLICATION_ID, CURRENT_VERSION
from pyramid_widget.records.store import Records, RecordsError, RecordsWarning

BIG_DEALS = [0, 2**63 - 1, 2**63, 2**63 + 12345, MAX_DEAL_NUMBER]


def won() -> Game:
    game = Game.from_position("medium", pyramid=[None] * 27 + ["KH"])
    game.play("KH")
    return game


def on_disk(path: Path) -> list[tuple[Any, ...]]:
    """The ``games`` rows as a fresh connection sees them (no store in between)."""
    with sqlite3.connect(path) as conn:
        found = conn.execute("SELECT id, deal_number, result FROM games ORDER BY id").fetchall()
    conn.close()
    return found


# -- item 3: deal numbers from 2**63 to 2**64 - 1 ---------------------------------------------


def test_every_deal_number_up_to_2_64_minus_1_is_stored_exactly(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    with Records(path) as records:
        ids = [records.record_game(Game("medium", deal=n)) for n in BIG_DEALS]
        saved = records.save_game(Game("hard", deal=MAX_DEAL_NUMBER), name="the last deal")
    with Records(path) as records:  # read back by a new store, as a new process would
        assert records.warning is None
        assert [g.deal_number for g in reversed(records.games())] == BIG_DEALS
        for record_id, number in zip(ids, BIG_DEALS, strict=True):
            assert Game.from_json(records.game_json(record_id)).deal_number == number
        assert records.load_game(saved).deal_number == MAX_DEAL_NUMBER
        assert records.stats("medium").played == len(BIG_DEALS)
    assert [row[1] for row in on_disk(path)] == [str(n) for n in BIG_DEALS]


V2_GAMES = """CREATE TABLE games (id INTEGER PRIMARY KEY, rules TEXT NOT NULL,
    rules_json TEXT NOT NULL DEFAULT '{}', deal TEXT NOT NULL, deal_number INTEGER,
    result TEXT NOT NULL, score INTEGER NOT NULL, seconds REAL NOT NULL, moves INTEGER NOT NULL,
    rounds INTEGER NOT NULL DEFAULT 0, finished_at TEXT NOT NULL, game_json TEXT)"""
V2_SAVED = """CREATE TABLE saved_games (name TEXT PRIMARY KEY, rules TEXT NOT NULL,
    saved_at TEXT NOT NULL, moves INTEGER NOT NULL, score INTEGER NOT NULL,
    game_json TEXT NOT NULL)"""


def make_v2(path: Path) -> None:
    """A version 2 file as the previous release wrote it (no application id)."""
    with sqlite3.connect(path) as conn:
        conn.execute(V2_GAMES)
        conn.execute("CREATE INDEX games_by_rules ON games (rules, id)")
        conn.execute(V2_SAVED)
        for number in (7, 2**63 - 1, None):
            conn.execute(
                "INSERT INTO games (rules, deal, deal_number, result, score, seconds, moves,"
                " finished_at) VALUES ('medium', '', ?, 'won', 100, 9.5, 30, '2026-01-01')",
                (number,),
            )
        conn.execute("PRAGMA user_version = 2")
    conn.close()


def test_a_version_2_file_migrates_and_then_takes_big_deal_numbers(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    make_v2(path)
    with Records(path) as records:
        assert records.warning is None and not records.in_memory
        assert [g.deal_number for g in records.games()] == [None, 2**63 - 1, 7]
        records.record_game(Game("medium", deal=MAX_DEAL_NUMBER))
        assert records.games(limit=1)[0].deal_number == MAX_DEAL_NUMBER
        assert records.stats("medium").played == 4
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        indexes = conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'").fetchall()
    conn.close()
    assert (version, app, CURRENT_VERSION) == (5, APPLICATION_ID, 5)
    assert ("games_by_rules",) in indexes


# -- item 5: a bad record is refused; the file stays in use -----------------------------------


class Tampered(Game):
    """A game as an edited save could leave it: one field holds what no game would."""

    _field: str = ""
    _value: Any = None

    def __init__(self, field: str, value: Any) -> None:
        super().__init__("medium", deal=11)
        self.play("draw")
        self._field, self._value = field, value
        if field in ("deal_number", "rules"):
            setattr(self, field, value)

    @property
    def elapsed(self) -> float:
        return self._value if self._field == "elapsed" else super().elapsed

    @property
    def score(self) -> int:
        return self._value if self._field == "score" else super().score


class Renamed:
    """A rule set whose name is not storable text (a lone surrogate from a bad file name)."""

    def __init__(self, name: str) -> None:
        from pyramid_widget import get_rules

        self._real = get_rules("medium")
        self.name = name

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._real, attr)


BAD_RECORDS = [
    ("deal_number", [1, 2], "deal number must be a whole number"),
    ("deal_number", -1, "deal number must be a whole number"),
    ("deal_number", MAX_DEAL_NUMBER + 1, "deal number must be a whole number"),
    ("deal_number", "7", "deal number must be a whole number"),
    ("deal_number", True, "deal number must be a whole number"),
    ("elapsed", float("nan"), "time must be a finite number"),
    ("elapsed", float("inf"), "time must be a finite number"),
    ("elapsed", -3.0, "time must be a finite number"),
    ("elapsed", "soon", "time must be a number"),
    ("score", 10**30, "score must be a whole number"),
    ("score", 1.5, "score must be a whole number"),
    ("rules", Renamed("bad\udc80name"), "rule set name is not valid Unicode"),
    ("rules", Renamed(["not", "text"]), "rule set name must be text"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("field", "value", "message"), BAD_RECORDS)
def test_a_bad_record_is_refused_and_later_games_still_reach_the_file(
    tmp_path: Path, field: str, value: Any, message: str
) -> None:
    path = tmp_path / "records.sqlite3"
    records = Records(path)
    records.record_game(won())
    with pytest.raises(RecordsError, match=message) as caught:
        records.record_game(Tampered(field, value))
    assert str(caught.value).startswith("cannot record this game: ")
    assert "\n" not in str(caught.value)
    assert not records.in_memory and records.warning is None and records.path == path
    records.record_game(Game("medium", deal=MAX_DEAL_NUMBER))
    records.record_game(won())
    records.close()
    assert [(row[1], row[2]) for row in on_disk(path)] == [
        (None, "won"),
        (str(MAX_DEAL_NUMBER), "abandoned"),
        (None, "won"),
    ]


def test_a_bad_when_is_refused_too(tmp_path: Path) -> None:
    with Records(tmp_path) as records:
        with pytest.raises(RecordsError, match="finishing time must be ISO 8601"):
            records.record_game(won(), when="last Tuesday")
        with pytest.raises(RecordsError, match="finishing time must be text"):
            records.record_game(won(), when=12)  # type: ignore[arg-type]
        assert records.games() == [] and not records.in_memory


def test_a_bad_save_is_refused_and_the_file_stays_in_use(tmp_path: Path) -> None:
    with Records(tmp_path) as records:
        with pytest.raises(RecordsError, match="cannot save this game: its score"):
            records.save_game(Tampered("score", 10**40), name="huge")
        with pytest.raises(RecordsError, match="valid Unicode"):
            records.save_game(Game("easy", deal=1), name="odd \udc80 name")
        records.save_game(Game("easy", deal=1), name="fine")
        assert [s.name for s in records.saved_games()] == ["fine"]
        assert not records.in_memory


BAD_LOOKUPS = [
    ("load_game", (["a list"],), "saved game name must be str"),
    ("delete_saved", (None,), "saved game name must be str"),
    ("load_game", ("\udc80",), "valid Unicode"),
    ("game_json", ("1",), "record id must be int"),
    ("game_json", (2**70,), "no stored game with id"),
    ("stats", (3,), "rule set name must be str"),
    ("games", ({"x": 1},), "rule set name must be str"),
]


@pytest.mark.parametrize(("method", "args", "message"), BAD_LOOKUPS)
def test_a_bad_lookup_is_a_records_error_and_loses_nothing(
    tmp_path: Path, method: str, args: tuple[Any, ...], message: str
) -> None:
    path = tmp_path / "records.sqlite3"
    records = Records(path)
    records.record_game(won())
    with pytest.raises(RecordsError, match=message):
        getattr(records, method)(*args)
    with pytest.raises(RecordsError, match="limit must be a whole number"):
        records.games(limit=-5)
    assert not records.in_memory and records.warning is None
    records.record_game(won())
    records.close()
    assert len(on_disk(path)) == 2


# -- item 4: a file that is not ours is never moved or replaced -------------------------------


def test_a_text_file_opened_for_writing_is_left_byte_for_byte(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    with pytest.warns(RecordsWarning, match="not a pyramid-widget records file"):
        records = Records(notes)
    assert records.in_memory
    records.record_game(won())
    records.close()
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_damaged_file_of_ours_from_before_application_ids_is_still_moved_aside(
    tmp_path: Path,
) -> None:
    """A version 2 file (no application id) is known by its version and its games table."""
    path = tmp_path / "records.sqlite3"
    make_v2(path)
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (rules, deal, result, score, seconds, moves, finished_at)"
            " VALUES ('medium', ?, 'won', 1, 1.0, 1, 'x')",
            [("x" * 500,)] * 200,
        )
    conn.close()
    data = bytearray(path.read_bytes())
    data[4096:-100] = b"\xa5" * (len(data) - 4196)
    path.write_bytes(bytes(data))
    with pytest.warns(RecordsWarning, match="moved to .*corrupt-"):
        records = Records(path)
    assert not records.in_memory
    records.close()
    assert len(list(tmp_path.glob("records.sqlite3.corrupt-*"))) == 1


def _damaged_foreign(path: Path) -> bytes:
    """Another program's database, damaged past its first page: not ours to move."""
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.executemany("INSERT INTO notes VALUES (?)", [("y" * 500,)] * 200)
        conn.execute("PRAGMA user_version = 2")
    conn.close()
    data = bytearray(path.read_bytes())
    data[4096:-100] = b"\xa5" * (len(data) - 4196)
    path.write_bytes(bytes(data))
    return bytes(data)


def test_a_damaged_database_that_is_not_ours_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    before = _damaged_foreign(path)
    with pytest.warns(RecordsWarning, match="not a pyramid-widget records file"):
        records = Records(path)
    assert records.in_memory
    records.close()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["other.db"]


# -- reading only: nothing is ever created, migrated, moved or written ------------------------


def test_reading_only_refuses_what_is_not_ours_and_changes_nothing(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    foreign = tmp_path / "accounts.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE ledger (amount REAL)")
    conn.close()
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        conn.execute(f"PRAGMA user_version = {CURRENT_VERSION + 1}")
    conn.close()
    damaged = tmp_path / "damaged.sqlite3"
    with Records(damaged) as records:
        for _ in range(200):
            records.record_game(won())
    with sqlite3.connect(damaged) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(damaged.read_bytes())
    data[4096:-100] = b"\xa5" * (len(data) - 4196)
    damaged.write_bytes(bytes(data))
    cases = [
        (notes, "is not a pyramid-widget records file \\(it is not an SQLite database\\)"),
        (foreign, "is not a pyramid-widget records file \\(it is an SQLite database of"),
        (newer, "written by a newer pyramid-widget"),
        (damaged, "is damaged"),
        (tmp_path / "missing.sqlite3", "there is no records file at"),
    ]
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    for path, message in cases:
        with pytest.raises(RecordsError, match=message) as caught:
            Records(path, read_only=True)
        assert "\n" not in str(caught.value)
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert {name: after[name] for name in before} == before
    # the only new files: SQLite's own side files, made by opening a WAL file to read it
    assert set(after) - set(before) <= {"damaged.sqlite3-wal", "damaged.sqlite3-shm"}


def test_reading_only_an_old_file_migrates_in_memory_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    make_v2(path)
    before = path.read_bytes()
    with Records(path, read_only=True) as records:
        assert records.path == path and records.read_only
        assert records.stats("medium").played == 3
        with pytest.raises(RecordsError, match="opened read-only"):
            records.record_game(won())
    assert path.read_bytes() == before


def test_reading_only_a_current_file_sees_what_a_writer_wrote(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    writer = Records(path)
    writer.record_game(won())
    reader = Records(path, read_only=True)
    writer.record_game(won())  # written while the reader is open: WAL shows it to the reader
    assert reader.stats("medium").played == 2
    reader.close()
    writer.close()
    assert json.loads(Records(path).game_json(1))["format"] == "pyramid-widget/game"


# -- a two-deck hand-made position (bad-input audit, item 2) ----------------------------------


def test_a_two_deck_position_is_saved_and_recorded() -> None:
    game = Game.from_position("anubis", pyramid=[None] * 44 + ["5H'"], stock=["8C'"])
    with Records(":memory:") as records:
        records.save_game(game, name="two decks")
        assert records.load_game("two decks").pyramid == game.pyramid
        records.record_game(game)


# -- audit item 11: a wrong-typed path, and hostile text quoted short -------------------------


@pytest.mark.parametrize("path", [5, b"records.sqlite3", ["records.sqlite3"], 2.5])
def test_a_path_that_is_not_one_is_a_records_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RecordsError, match="a records path must be a file or directory name"):
        Records(path)
    assert list(tmp_path.iterdir()) == []  # nothing created anywhere


HUGE = "x" * 1_000_000
HOSTILE = [
    ("games", (), {"result": HUGE}, "unknown result 'xxx"),
    ("games", (), {"limit": 10**5000}, "limit must be a whole number"),
    ("lesson_marks", (HUGE,), {}, "a learner's name must be text of 1 to 200 characters"),
    ("lesson_marks", ([HUGE] * 1000,), {}, "got a list"),
    ("load_game", (HUGE,), {}, "no saved game named 'xxx"),
    ("game_json", (10**5000,), {}, "no stored game with id an integer of more than 30 digits"),
    ("mark_lesson_step", ("ada", "L", 10**5000, "done"), {}, "a lesson step is a number"),
    ("mark_lesson_step", ("ada", "L", 1, HUGE), {}, "marked 'done' or 'shown'"),
]


@pytest.mark.parametrize(("method", "args", "kwargs", "message"), HOSTILE)
def test_a_huge_hostile_argument_is_quoted_short_and_loses_nothing(
    tmp_path: Path, method: str, args: tuple[Any, ...], kwargs: dict[str, Any], message: str
) -> None:
    path = tmp_path / "records.sqlite3"
    records = Records(path)
    records.record_game(won())
    records.save_game(won(), name="kept")
    with pytest.raises(RecordsError, match=message) as caught:
        getattr(records, method)(*args, **kwargs)
    assert len(str(caught.value)) < 300
    assert not records.in_memory and records.warning is None
    records.close()
    with Records(path) as again:
        assert len(again.games()) == 1 and [s.name for s in again.saved_games()] == ["kept"]


def test_an_unknown_save_names_ten_saves_and_counts_the_rest(tmp_path: Path) -> None:
    with Records(tmp_path) as records:
        for n in range(25):
            records.save_game(Game("easy", deal=n), name=f"save {n:02d}")
        with pytest.raises(RecordsError, match=r"; there are 'save \d\d'.* and 15 more$") as caught:
            records.load_game("nope")
    assert str(caught.value).count("'save ") == 10
