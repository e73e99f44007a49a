"""How fast the records store is: writes, statistics over many games, save and resume.

Run: ``.venv/bin/python benchmarks/bench_records.py [GAMES]`` (default 5,000). It writes into
a temporary directory and prints one line per measurement.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from pyramid_widget import Game
from pyramid_widget.records.store import Records


def finished_games(count: int) -> list[Game]:
    """``count`` games a few moves in (abandoned), built before the clock starts; every other
    one has a deal number from 2**63 up (stored as text since schema version 3)."""
    games = []
    for number in range(count):
        game = Game("medium", deal=number + (2**63 if number % 2 else 0))
        for _ in range(number % 5):
            game.play("draw")
        games.append(game)
    return games


def main(count: int) -> None:
    games = finished_games(count)
    with tempfile.TemporaryDirectory() as place, Records(Path(place)) as records:
        started = time.perf_counter()
        for game in games:
            records.record_game(game)
        writing = time.perf_counter() - started
        print(f"record_game: {count} games in {writing:.2f} s ({count / writing:,.0f}/s)")
        started = time.perf_counter()
        stats = records.stats("medium")
        print(f"stats over {stats.played} games: {1000 * (time.perf_counter() - started):.1f} ms")
        started = time.perf_counter()
        with Records(records.path, read_only=True) as reader:  # what `pyramid-widget stats` does
            reader.stats("medium")
        elapsed = 1000 * (time.perf_counter() - started)
        print(f"open read-only + stats over {stats.played} games: {elapsed:.1f} ms")
        long_game = Game("easy", deal=1)
        while long_game.moves < 300 and not long_game.is_over:
            long_game.play(next(iter(long_game.legal_moves)))
        started = time.perf_counter()
        records.save_game(long_game, name="long")
        back = records.load_game("long")
        elapsed = 1000 * (time.perf_counter() - started)
        print(f"save + load a {back.moves}-move game: {elapsed:.1f} ms")
        size = records.path.stat().st_size if records.path else 0
        print(f"file size: {size / 1024:,.0f} KiB ({size / count:,.0f} bytes a game)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
