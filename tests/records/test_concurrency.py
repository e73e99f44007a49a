"""Several writers at once lose nothing: two real processes, one real SQLite file."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from pyramid_widget.records.store import Records

ROOT = Path(__file__).resolve().parents[2]
GAMES_PER_WRITER = 300

WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from pyramid_widget import Game
    from pyramid_widget.records.store import Records

    path, writer, count, go = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    while not Path(go).exists():  # start together, so the writes really interleave
        time.sleep(0.001)
    records = Records(path)  # both open a file that does not exist yet
    assert records.warning is None, records.warning
    for i in range(count):
        game = Game("medium", deal=writer * 100_000 + i)
        game.play("draw")
        records.record_game(game)
        if i % 50 == 0:
            records.save_game(game, name=f"writer {writer} at {i}")
            records.stats("medium")
    records.close()
    print("done", writer)
    """
)


def test_two_processes_writing_hundreds_of_games_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "shared" / "records.sqlite3"
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(n), str(GAMES_PER_WRITER), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for n in (1, 2)
    ]
    time.sleep(0.3)  # let both interpreters start and wait at the line
    go.touch()
    for n, writer in enumerate(writers, start=1):
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        assert out.strip() == f"done {n}"
    with Records(path) as records:
        stored = records.games()
        saves = records.saved_games()
        stats = records.stats("medium")
    numbers = sorted(g.deal_number for g in stored if g.deal_number is not None)
    expected = sorted(w * 100_000 + i for w in (1, 2) for i in range(GAMES_PER_WRITER))
    assert numbers == expected
    assert stats.played == 2 * GAMES_PER_WRITER
    assert len(saves) == 2 * len(range(0, GAMES_PER_WRITER, 50))
    ids = [g.id for g in stored]
    assert len(set(ids)) == len(ids)
    # the writes interleaved: neither writer's games form one block of ids
    first = [g.id for g in stored if (g.deal_number or 0) // 100_000 == 1]
    assert max(first) - min(first) + 1 > GAMES_PER_WRITER


def test_threads_sharing_a_store_and_a_second_store_lose_nothing(tmp_path: Path) -> None:
    """A widget's threads share one store while another widget has its own on the same file."""
    import threading

    from pyramid_widget import Game

    path = tmp_path / "records.sqlite3"
    shared, other = Records(path), Records(path)
    errors: list[BaseException] = []

    def write(store: Records, first: int) -> None:
        try:
            for number in range(first, first + 50):
                store.record_game(Game("easy", deal=number))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=write, args=(store, first))
        for store, first in [(shared, 0), (shared, 1000), (other, 2000), (other, 3000)]
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    numbers = sorted(g.deal_number or 0 for g in shared.games())
    assert numbers == sorted(n for first in (0, 1000, 2000, 3000) for n in range(first, first + 50))
    assert other.stats("easy").played == 200
    shared.close()
    other.close()
