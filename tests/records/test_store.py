"""Records: games written and read back, statistics aggregated, saved games resumed exactly."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pyramid_widget import Game, format_deal, get_rules
from pyramid_widget.records.store import (
    DATA_DIR_ENV,
    FILE_NAME,
    Records,
    RecordsError,
    UnknownSavedGameError,
    default_path,
)


def won(rules: str = "medium", seconds: float = 10.0) -> Game:
    """A game won by removing a lone King after ``seconds`` of play (a fake clock)."""
    now = [0.0]
    game = Game.from_position(rules, pyramid=[None] * 27 + ["KH"], clock=lambda: now[0])
    now[0] = seconds
    game.play("KH")
    return game


def lost(rules: str = "medium") -> Game:
    """A game lost at once: a lone Queen, nothing to pair it with."""
    return Game.from_position(rules, pyramid=[None] * 27 + ["QH"])


def test_a_game_is_written_and_read_back(tmp_path: Path) -> None:
    game = Game("hard", deal=123)
    game.play("draw")
    with Records(tmp_path / "r.sqlite3") as records:
        record_id = records.record_game(game, when="2026-01-02T03:04:05+00:00")
        (record,) = records.games()
        stored = records.game_json(record_id)
    assert record.id == record_id
    assert (record.rules, record.deal_number, record.result) == ("hard", 123, "abandoned")
    assert record.deal == format_deal(game.deal or ())
    assert (record.moves, record.score, record.rounds) == (1, game.score, 0)
    assert record.seconds == pytest.approx(game.elapsed, abs=1.0)
    assert record.finished_at == "2026-01-02T03:04:05+00:00"
    assert Game.from_json(stored).history == game.history


def test_the_rule_set_itself_is_stored_for_user_built_sets(tmp_path: Path) -> None:
    mine = get_rules("medium").replace(name="two-waste", waste_piles=2, draw_count=2, passes=5)
    path = tmp_path / "r.sqlite3"
    with Records(path) as records:
        records.record_game(Game(mine, deal=5))
        assert [s.rules for s in records.all_stats()] == ["two-waste"]
    with sqlite3.connect(path) as conn:
        (text,) = conn.execute("SELECT rules_json FROM games").fetchone()
    assert get_rules(json.loads(text)) == mine


def test_results_follow_the_game_status() -> None:
    records = Records(":memory:")
    records.record_game(won())
    records.record_game(lost())
    records.record_game(Game("medium", deal=1))
    assert [r.result for r in records.games()] == ["abandoned", "lost", "won"]
    assert [r.result for r in records.games(result="lost")] == ["lost"]
    assert len(records.games(limit=2)) == 2
    with pytest.raises(RecordsError, match="unknown result 'tie'"):
        records.games(result="tie")


def test_stats_count_wins_streaks_and_bests() -> None:
    records = Records(":memory:")
    sequence = [won(seconds=50), won(seconds=30), lost(), won(seconds=40), won(seconds=90)]
    sequence += [won(seconds=70), Game("medium", deal=2), won(seconds=60)]
    for game in sequence:
        records.record_game(game)
    stats = records.stats("medium")
    assert (stats.played, stats.won, stats.win_pct) == (8, 6, 75.0)
    assert (stats.current_streak, stats.best_streak) == (1, 3)
    assert stats.best_time == pytest.approx(30.0)
    assert stats.best_score == max(g.score for g in sequence)
    assert stats.best_score == won(seconds=30).score  # a faster win earns a bigger time bonus
    assert stats.best_rounds == 0


def test_stats_keep_rule_sets_apart_and_list_presets_first() -> None:
    records = Records(":memory:")
    custom = get_rules("medium").replace(name="aardvark")
    for game in [won("hard"), lost("easy"), won("easy"), Game(custom, deal=3)]:
        records.record_game(game)
    assert [s.rules for s in records.all_stats()] == ["easy", "hard", "aardvark"]
    assert records.stats("hard").won == 1
    assert records.stats(get_rules("easy")).played == 2
    empty = records.stats("cheops")
    assert (empty.played, empty.win_pct, empty.best_score, empty.best_time) == (0, 0.0, None, None)
    assert records.stats("easy").to_dict()["current_streak"] == 1


def test_egypt_keeps_its_best_run_of_rounds() -> None:
    records = Records(":memory:")
    one_round = won("egypt")  # round 1 cleared, next round not dealt: a run of 1
    two_rounds_abandoned = won("egypt")
    two_rounds_abandoned.next_round()  # round 2 dealt, then the player leaves
    assert two_rounds_abandoned.round == 2
    records.record_game(one_round)
    records.record_game(lost("egypt"))
    records.record_game(two_rounds_abandoned)
    assert [r.rounds for r in records.games()] == [1, 0, 1]
    assert records.stats("egypt").best_rounds == 1


def test_a_saved_game_resumes_exactly_with_undo_and_redo(tmp_path: Path) -> None:
    game = Game("medium", deal=42)
    for _ in range(5):
        game.play("draw")
    game.undo()
    path = tmp_path / "r.sqlite3"
    with Records(path) as records:
        name = records.save_game(game, name="  before dinner ")
    assert name == "before dinner"
    with Records(path) as records:  # a new process would do just this (kernel restart)
        back = records.load_game(name)
        (listed,) = records.saved_games()
    assert back.history == game.history
    assert back.can_redo and back.can_undo
    assert (back.stock, back.wastes, back.deal_number) == (game.stock, game.wastes, 42)
    back.redo()
    back.undo()
    assert (listed.name, listed.rules, listed.moves) == ("before dinner", "medium", 4)


def test_saving_again_under_a_name_replaces_and_default_names_are_unique() -> None:
    records = Records(":memory:")
    game = Game("easy", deal=9)
    first = records.save_game(game)
    second = records.save_game(game)
    assert first != second and first.startswith("easy ")
    game.play("draw")
    records.save_game(game, name=first)
    assert records.load_game(first).moves == 1
    assert len(records.saved_games()) == 2


def test_unknown_or_bad_saves_give_clear_errors_and_lose_nothing() -> None:
    records = Records(":memory:")
    records.save_game(Game("easy", deal=1), name="keep")
    with pytest.raises(UnknownSavedGameError, match="no saved game named 'gone'; there are 'keep'"):
        records.load_game("gone")
    with pytest.raises(UnknownSavedGameError):
        records.delete_saved("gone")
    with pytest.raises(RecordsError, match="non-empty name"):
        records.save_game(Game("easy", deal=1), name="   ")
    with pytest.raises(RecordsError, match="at most 200"):
        records.save_game(Game("easy", deal=1), name="x" * 201)
    records._conn.execute("INSERT INTO saved_games VALUES ('broken', 'easy', 'now', 0, 0, '{')")
    with pytest.raises(RecordsError, match="the saved game 'broken' cannot be read back"):
        records.load_game("broken")
    assert {s.name for s in records.saved_games()} == {"keep", "broken"}
    records.delete_saved("keep")
    assert [s.name for s in records.saved_games()] == ["broken"]


def test_the_file_is_found_by_argument_then_env_var_then_user_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "env"))
    assert default_path() == tmp_path / "env" / FILE_NAME
    with Records() as records:
        assert records.path == tmp_path / "env" / FILE_NAME
        assert records.path.exists() and not records.in_memory
    with Records(tmp_path / "env") as records:  # a directory means the file inside it
        assert records.path == tmp_path / "env" / FILE_NAME
    with Records(tmp_path / "mine.db") as records:
        assert records.path == tmp_path / "mine.db"
    monkeypatch.delenv(DATA_DIR_ENV)
    assert default_path().parts[-2:] == ("pyramid-widget", FILE_NAME)


def test_the_file_is_in_wal_mode(tmp_path: Path) -> None:
    with Records(tmp_path / "r.sqlite3") as records:
        mode = records._conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


SAVER = """
import sys, time
from pyramid_widget import Game
from pyramid_widget.records.store import Records
game = Game("relaxed", deal=2024)
for move in ["draw"] * 6:
    game.play(move)
game.undo()
game.undo()
game.redo()
time.sleep(0.3)
game.pause()
with Records(sys.argv[1]) as records:
    records.save_game(game, name="yesterday")
print(game.to_json())
"""


def test_a_game_saved_by_one_process_resumes_in_another(tmp_path: Path) -> None:
    """A kernel restart, for real: the game is saved by a child process that then exits."""
    root = Path(__file__).resolve().parents[2]
    path = tmp_path / "records.sqlite3"
    done = subprocess.run(
        [sys.executable, "-c", SAVER, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(root)},
        check=True,
    )
    saved = json.loads(done.stdout)
    started = time.monotonic()
    with Records(path) as records:
        back = records.load_game("yesterday")
    resumed = json.loads(back.to_json())
    waited = time.monotonic() - started
    # a loaded game's clock runs on from the saved time (on a busy machine, for longer than
    # the 50 ms this test once allowed): no less than saved, no more than the time since
    at, was = resumed.pop("elapsed"), saved.pop("elapsed")
    assert was - 0.001 <= at <= was + waited + 0.001, (at, was, waited)
    assert resumed == saved  # moves with their times, the redo list, score, deal: all of it
    assert back.can_undo and back.can_redo and back.moves == 5
