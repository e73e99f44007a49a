"""The widget is never stuck by a records store that fails (issue 14 item 3)."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from pyramid_widget.errors import RecordsError
from pyramid_widget.records.store import Stats
from pyramid_widget.widget import PyramidWidget
from tests.support.browser import SHORT_DEAL, SHORT_WIN


def send(w: PyramidWidget, **content: Any) -> dict[str, Any]:
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    return dict(w.last_event)


class FailingRecords:
    """A records store whose writes (and, if asked, reads) raise ``exc``."""

    warning = None

    def __init__(self, exc: Exception, *, reads_fail: bool = False) -> None:
        self.exc = exc
        self.reads_fail = reads_fail
        self.attempts = 0

    def record_game(self, game: object) -> int:
        self.attempts += 1
        raise self.exc

    def stats(self, rules: str) -> Stats:
        if self.reads_fail:
            raise self.exc
        return Stats.empty(rules)


FAILURES = [
    RecordsError("the records file is locked"),
    OverflowError("Python int too large to convert to SQLite INTEGER"),
    sqlite3.OperationalError("disk I/O error"),
    RuntimeError("something unexpected"),
]


@pytest.mark.parametrize("exc", FAILURES, ids=lambda e: type(e).__name__)
def test_a_failing_store_never_leaves_the_widget_stuck(exc: Exception) -> None:
    store = FailingRecords(exc)
    w = PyramidWidget("medium", deal=SHORT_DEAL, records=store)
    moves = SHORT_WIN.split()
    for move in moves[:-1]:
        assert send(w, **_intent(move))["ok"]
    ev = send(w, **_intent(moves[-1]))  # the finishing move
    assert ev["ok"] and w.status == "won" and store.attempts == 1
    assert "could not be recorded" in w.message and str(exc) in w.message
    assert w.message.startswith("You won!")
    for content in ({"kind": "new"}, {"kind": "restart"}, {"kind": "new", "rules": "easy"}):
        ev = send(w, **content)
        assert ev["ok"] and ev["kind"] == "new", (content, w.message)
        assert w.moves == 0 and w.status == "playing"
    assert w.game.rules.name == "easy"
    w.draw()  # a started game is recorded when abandoned: that fails too, and says so
    ev = send(w, kind="restart")
    assert ev["ok"] and w.moves == 0 and store.attempts == 2
    assert w.message.startswith("Restarted") and "could not be recorded" in w.message


def test_a_store_whose_reads_fail_still_lets_the_game_be_played() -> None:
    store = FailingRecords(RecordsError("the records file is damaged"), reads_fail=True)
    w = PyramidWidget("medium", deal=7, records=store)
    assert w.stats == {} and "damaged" in w.message
    assert send(w, kind="draw")["ok"]
    ev = send(w, kind="stats")
    assert not ev["ok"] and "damaged" in w.message and w.moves == 1
    assert send(w, kind="new", rules="hard")["ok"] and w.game.rules.name == "hard"


def _intent(move: str) -> dict[str, Any]:
    if "+" in move:
        return {"kind": "pair", "cards": move.split("+")}
    return {"kind": "king", "card": move}
