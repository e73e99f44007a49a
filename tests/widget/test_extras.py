"""The widget's records (stats panel) and solver help, with a real SQLite file and the real
solver; and the one-way link between the widget and its extras."""

from __future__ import annotations

import ast
import inspect
import time
from pathlib import Path
from typing import Any

import pytest

from pyramid_widget import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.errors import UndecidedError
from pyramid_widget.records.store import Records
from pyramid_widget.solver import solve
from pyramid_widget.solver.lines import WinningLine, replay_wins
from pyramid_widget.widget import PyramidWidget, extras
from tests.support.browser import SHORT_DEAL


def send(w: PyramidWidget, **content: Any) -> dict[str, Any]:
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    return dict(w.last_event)


def settle(w: PyramidWidget, timeout: float = 90.0) -> None:
    """Wait until the widget's background work (the page's solve, hint, winnable search,
    post-mortem) is done."""
    deadline = time.monotonic() + timeout
    while w.busy and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not w.busy, f"still busy after {timeout} s: {w.busy}"


@pytest.fixture()
def records(tmp_path: Path) -> Records:
    return Records(tmp_path / "records.sqlite3")


def test_default_records_use_the_data_dir_env_var(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYRAMID_WIDGET_DATA_DIR", str(tmp_path))
    w = PyramidWidget("medium", deal=7)
    assert w.features["records"] is True
    store = w._extras.records
    assert isinstance(store, Records) and store.path == tmp_path / "records.sqlite3"
    assert w.stats["rules"] == "medium" and w.stats["played"] == 0
    w.draw()
    w.new_game()  # the abandoned game lands in the file under the env var's directory
    assert Records(tmp_path / "records.sqlite3").stats("medium").played == 1


def test_records_off_and_bad_records_argument() -> None:
    w = PyramidWidget("medium", deal=7, records=False)
    assert w.features["records"] is False and w.stats == {}
    with pytest.raises(TypeError, match="records must be"):
        PyramidWidget(records="yes please")


def test_a_lost_game_is_recorded_and_shown(records: Records) -> None:
    w = PyramidWidget("hard", deal=7, records=records)
    assert w.stats["played"] == 0
    while w.status == "playing":
        w.draw() if w.board["can_draw"] else w.play(next(iter(w.game.legal_moves)))
    assert w.status == "lost"
    assert w.stats["played"] == 1 and w.stats["won"] == 0
    assert records.stats("hard").played == 1
    send(w, kind="restart")  # a finished game is not recorded twice
    assert records.stats("hard").played == 1


def test_an_abandoned_game_counts_when_a_new_deal_starts(records: Records) -> None:
    w = PyramidWidget("medium", deal=7, records=records)
    send(w, kind="new")  # no move made: not recorded
    assert records.stats("medium").played == 0
    w.draw()
    send(w, kind="new", rules="easy")
    assert records.stats("medium").played == 1
    assert w.stats["rules"] == "easy"
    send(w, kind="stats")
    assert w.stats["played"] == 0


def test_hand_made_positions_are_not_recorded(records: Records) -> None:
    w = PyramidWidget("medium", records=records)
    w.load(Game.from_position("medium", pyramid=[None] * 27 + ["KS"]))
    w.play("KS")
    assert w.status == "won" and records.stats("medium").played == 0


def test_features_say_whether_records_are_on(records: Records) -> None:
    assert PyramidWidget("easy", deal=1, records=records).features == {
        "records": True,
        "assist": True,
    }
    assert PyramidWidget("easy", deal=1, records=False).features["records"] is False


def test_the_extras_know_nothing_of_the_widget(records: Records) -> None:
    """One-way links: the extras hold no widget, import no widget module and load nothing by
    name; the widget applies what they return."""
    w = PyramidWidget("easy", deal=1, records=records)
    assert not any(value is w for value in vars(w._extras).values())
    tree = ast.parse(inspect.getsource(extras))
    imported = [
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    ]
    assert "importlib" not in imported and "pyramid_widget.records.store" in imported
    assert not [m for m in imported if m and m.startswith("pyramid_widget.widget")]
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert not names & {"import_module", "__import__", "PyramidWidget"}


def test_solve_plays_a_winning_line_step_by_step() -> None:
    w = PyramidWidget("medium", deal=SHORT_DEAL, records=False)
    send(w, kind="solve")
    assert w.busy["kind"] == "solve"  # the page's solve thinks off the kernel's main thread
    settle(w)
    queued = list(w.autoplay)
    assert queued and w.message.startswith("Solving")
    for _ in queued:
        assert send(w, kind="solve-step")["ok"]
    assert w.status == "won" and w.autoplay == []


def test_a_player_move_stops_the_solver() -> None:
    w = PyramidWidget("medium", deal=SHORT_DEAL, records=False)
    w.solve()
    assert w.autoplay and w.highlight
    w.draw()
    assert w.autoplay == []


def test_solve_all_at_once_and_an_unwinnable_position() -> None:
    w = PyramidWidget("medium", deal=SHORT_DEAL, records=False)
    line = w.solve(step_by_step=False)
    assert line and w.status == "won" and w.moves == len(line)
    w.load(Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=[]))
    assert w.status == "lost"
    assert w.solve() is None


def test_hint_level_two_and_truth_indicator() -> None:
    w = PyramidWidget("medium", deal=SHORT_DEAL, records=False)
    send(w, kind="hint", level=2)
    settle(w)
    ev = dict(w.last_event)
    assert ev["kind"] == "hint" and ev["ok"] and ev["move"] and w.assisted
    send(w, kind="truth", on=True)
    assert w.truth["on"] is True
    watcher = w._extras._watcher
    assert watcher is not None and watcher.wait(60)
    assert w.truth["state"] == "winnable"
    send(w, kind="truth", on=False)
    assert w.truth == {"on": False}


def test_winnable_deal_option() -> None:
    w = PyramidWidget("easy", deal=1, records=False)
    send(w, kind="new", rules="easy", winnable=True)
    settle(w)
    ev = dict(w.last_event)
    assert ev["kind"] == "new" and ev["ok"] and w.board["deal_number"] not in (None, 1)


def test_a_loss_with_the_indicator_on_gets_a_post_mortem() -> None:
    w = PyramidWidget("hard", deal=7, records=False)
    send(w, kind="truth", on=True)
    while w.status == "playing":
        w.draw() if w.board["can_draw"] else w.play(next(iter(w.game.legal_moves)))
    assert w.status == "lost"
    deadline = time.monotonic() + 60
    while not w.truth.get("post_mortem") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "won" in w.truth["post_mortem"]
    assert w.post_mortem().detail == w.truth["post_mortem"]
    w.close()


# -- Solve plays a fewest-move line and says which (issue 20) -------------------------------

LONG_WAY = ("medium", 3)
"""A deal whose decision line (59 moves) is much longer than its shortest line (37)."""


def test_solve_plays_a_shortest_line_and_says_so() -> None:
    rules, number = LONG_WAY
    decision = solve(Game(rules, deal=number))
    fewest = solve(Game(rules, deal=number), shortest=True)
    assert fewest.shortest and len(fewest.moves) < len(decision.moves)
    w = PyramidWidget(rules, deal=number, records=False)
    line = w.solve(step_by_step=False)
    assert isinstance(line, WinningLine) and line.shortest
    assert len(line) == len(fewest.moves) and w.status == "won" and w.moves == len(line)
    assert line.describe() == f"a shortest line, {len(fewest.moves)} moves"


def test_solve_plays_the_decision_line_when_the_budget_runs_out() -> None:
    """With a budget that ends right after the decision search, Solve plays its line and
    says it is a winning line, not a shortest one."""
    rules, number = LONG_WAY
    decision = solve(Game(rules, deal=number))
    ext = extras.Extras(False, on_truth=lambda value: None)
    ext.solve_limits = (None, decision.nodes + 1)
    line = ext.winning_line(Game(rules, deal=number))
    assert line is not None and not line.shortest
    assert line == decision.moves and replay_wins(Game(rules, deal=number), line)
    assert line.describe() == f"a winning line, {len(decision.moves)} moves"


def test_solve_uses_what_the_truth_watcher_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """A position the watcher proved lost is answered at once; when the solver cannot decide
    within Solve's budget, the watcher's line is played as a winning line."""
    game = Game(*LONG_WAY)
    ext = extras.Extras(False, on_truth=lambda value: None)
    known: tuple[bool, list[Move] | None] = (True, None)
    monkeypatch.setattr(ext, "_known", lambda g: known)

    def no_solver(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver ran on a position already proved lost")

    monkeypatch.setattr(extras, "winning_line", no_solver)
    assert ext.winning_line(game) is None
    monkeypatch.undo()
    watcher_line = list(solve(game).moves)
    known = (True, watcher_line)
    monkeypatch.setattr(ext, "_known", lambda g: known)
    ext.solve_limits = (None, 1)
    line = ext.winning_line(game)
    assert line == watcher_line and line is not None and not line.shortest
    known = (False, None)
    with pytest.raises(UndecidedError):
        ext.winning_line(game)


def test_hints_keep_the_fast_decision_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second-level hint needs one move, not a proof of the fewest: it asks the solver
    in decision mode only, and Solve asks for the fewest moves."""
    from pyramid_widget import solver

    real = solver.solve
    asked: list[bool] = []

    def spy(game: Game, **kwargs: Any) -> Any:
        asked.append(bool(kwargs.get("shortest")))
        return real(game, **kwargs)

    monkeypatch.setattr(solver, "solve", spy)
    ext = extras.Extras(False, on_truth=lambda value: None)
    game = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "4S"])
    assert ext.winning_move(game) is not None and asked == [False]
    assert ext.winning_line(game) is not None and asked == [False, True]


def test_the_board_says_which_line_solve_plays() -> None:
    """Step by step, the board's first words name the line: shortest, or merely winning."""
    rules, number = LONG_WAY
    w = PyramidWidget(rules, deal=number, records=False)
    line = w.solve()
    assert line is not None and w.autoplay == [str(m) for m in line]
    assert w.message == f"Solving: a shortest line, {len(line)} moves."
    w = PyramidWidget(rules, deal=number, records=False)
    w._extras.solve_limits = (None, solve(Game(rules, deal=number)).nodes + 1)
    line = w.solve()
    assert line is not None and w.message == f"Solving: a winning line, {len(line)} moves."
