"""Two writers and bad records at once: every good row reaches the file, no bad one does.

Two real processes write to one real SQLite file in a temporary directory. Each plays a seeded
random sequence of records: good games (deal numbers of every size, 2**63 and up included) and
bad ones as an edited save could leave them (a list or an out-of-range deal number, a negative
or infinite time, a huge score). Every bad record must be refused with a ``RecordsError`` and
every good one must be on disk afterwards, read back by a fresh connection.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORDS_PER_WRITER = 200

WRITER = textwrap.dedent(
    """
    import json, random, sys, time
    from pathlib import Path
    from pyramid_widget import Game
    from pyramid_widget.errors import RecordsError
    from pyramid_widget.records.store import Records

    path, writer, count, go = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rng = random.Random(1400 + writer)

    class Tampered(Game):
        def __init__(self, number, field, value):
            super().__init__("medium", deal=number)
            self.bad = (field, value)
            if field == "deal_number":
                self.deal_number = value
        @property
        def elapsed(self):
            return self.bad[1] if self.bad[0] == "elapsed" else super().elapsed
        @property
        def score(self):
            return self.bad[1] if self.bad[0] == "score" else super().score

    BAD = [("deal_number", [1, 2]), ("deal_number", -1), ("deal_number", 2**64),
           ("deal_number", "12"), ("elapsed", float("nan")), ("elapsed", -5.0),
           ("elapsed", float("inf")), ("score", 10**25)]
    while not Path(go).exists():  # start together, so the writes really interleave
        time.sleep(0.001)
    records = Records(path)
    good, refused, wrong = [], 0, []
    for i in range(count):
        number = rng.choice([rng.randrange(2**63), rng.randrange(2**63, 2**64)])
        if rng.random() < 0.3:
            field, value = rng.choice(BAD)
            try:
                records.record_game(Tampered(number, field, value))
                wrong.append(f"accepted {field}={value!r}")
            except RecordsError as exc:
                refused += 1
                if "\\n" in str(exc) or not str(exc).startswith("cannot record this game"):
                    wrong.append(str(exc))
            except BaseException as exc:
                wrong.append(f"{type(exc).__name__}: {exc}")
        else:
            game = Game("medium", deal=number)
            game.play("draw")
            good.append([records.record_game(game), str(number)])
    print(json.dumps({"good": good, "refused": refused, "wrong": wrong,
                      "in_memory": records.in_memory, "warning": records.warning}))
    records.close()
    """
)


def test_two_writers_with_bad_records_keep_every_good_row_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "records.sqlite3"
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(n), str(RECORDS_PER_WRITER), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for n in (1, 2)
    ]
    time.sleep(0.3)
    go.touch()
    reports = []
    for writer in writers:
        out, err = writer.communicate(timeout=180)
        assert writer.returncode == 0, err
        reports.append(json.loads(out))
    for report in reports:
        assert report["wrong"] == []
        assert report["in_memory"] is False and report["warning"] is None
    good = sorted(tuple(row) for report in reports for row in report["good"])
    refused = sum(report["refused"] for report in reports)
    assert refused > 0 and len(good) + refused == 2 * RECORDS_PER_WRITER
    with sqlite3.connect(path) as conn:
        stored = sorted(conn.execute("SELECT id, deal_number FROM games").fetchall())
    conn.close()
    assert stored == good  # every good row, with its exact deal number; nothing else
    assert any(int(number) >= 2**63 for _, number in stored)
    print(f"records under two writers: {2 * RECORDS_PER_WRITER} cases ({refused} bad), 0 failures")
