"""The solver inside the game: winnable deals, winning lines, the truth indicator, post-mortems.

The constructed game used throughout (``trap``), under ``hard`` rules (one pass):

    bottom row of the pyramid: 5H 5D 8S        stock: 8C, then 2D

It is won by drawing 8C and using it at once (5D+8C, 5H+8S). Drawing twice buries 8C under 2D
for good; from then on one Five can never be paired: the game can no longer be won.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from typing import Any

import pytest

from pyramid_widget import Game, Move
from pyramid_widget.errors import InvalidDealError, NoWinnableDealError, UndecidedError
from pyramid_widget.solver import assist
from pyramid_widget.solver.lines import (
    SolverDisagreementError,
    checked_solve,
    next_winning_move,
    replay_wins,
    winning_line,
)
from pyramid_widget.solver.post_mortem import post_mortem
from pyramid_widget.solver.truth import TruthReport, TruthWatcher
from pyramid_widget.solver.winnable import winnable_deal


def trap() -> Game:
    pyramid: list[str | None] = [None] * 28
    pyramid[21:24] = ["5H", "5D", "8S"]
    return Game.from_position("hard", pyramid=pyramid, stock=["8C", "2D"])


def play(game: Game, *moves: str) -> Game:
    for move in moves:
        game.play(move)
    return game


def replay_on_fresh_deal(rules: str, number: int, line: list[Move]) -> Game:
    """Play ``line`` move by move on a brand-new game of deal ``number`` (no copies)."""
    game = Game(rules, deal=number)
    for move in line:
        game.play(move)
    return game


# -- winnable deals ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["easy", "medium", "relaxed"])
def test_winnable_only_deals_are_winnable_checked_by_replay(rules: str) -> None:
    number = winnable_deal(rules, start=1000, bound=40, max_seconds=5)
    line = winning_line(Game(rules, deal=number), max_seconds=30, shortest=False)
    assert line is not None
    assert replay_on_fresh_deal(rules, number, line).status.value == "won"


def test_winnable_deal_without_a_start_picks_a_random_one() -> None:
    number = winnable_deal("easy", bound=40, max_seconds=5)
    assert isinstance(number, int) and number >= 0


def test_no_winnable_deal_within_the_bound_is_a_clear_error() -> None:
    with pytest.raises(NoWinnableDealError) as caught:
        winnable_deal("hard", start=500, bound=3, max_seconds=None, max_nodes=1)
    text = str(caught.value)
    assert "no winnable deal found for rule set 'hard' among deals 500..502" in text
    assert "try a larger bound or more time" in text
    assert isinstance(caught.value, ValueError)
    with pytest.raises(ValueError, match="at least 1"):
        winnable_deal("easy", bound=0)
    with pytest.raises(ValueError, match=r"unknown|choices|nonsense"):
        winnable_deal("nonsense")


@pytest.mark.parametrize("start", ["0", 1.5, True, -1, 2**64, [0]])
def test_a_start_that_is_no_deal_number_is_a_clear_error(start: Any) -> None:
    """``start="0"`` raised "can only concatenate str (not "int") to str"; ``2**64`` (past
    the last deal) tried no deal and blamed the bound."""
    for find in (winnable_deal, assist_search_winnable):
        with pytest.raises(InvalidDealError, match=r"^start must be a deal number from 0 to "):
            find("easy", start=start, max_seconds=1)


def assist_search_winnable(rules: str, **options: Any) -> object:
    from pyramid_widget.solver.winnable import search_winnable

    return search_winnable(rules, **options)


@pytest.mark.parametrize("game", [None, "x", '{"rules": "medium", "deal": 7}', 7])
def test_what_is_not_a_game_is_refused_by_name(game: Any) -> None:
    """``post_mortem(None)`` and ``winning_line("x")`` raised AttributeError from inside;
    every entry point that takes a game now says what it needs, as ``solve()`` does."""
    calls: dict[str, Any] = {
        "winning_line()": winning_line,
        "next_winning_move()": next_winning_move,
        "post_mortem()": post_mortem,
        "checked_solve()": lambda g: checked_solve(g, 1.0, None),
        "TruthWatcher.submit()": lambda g: TruthWatcher(lambda report: None).submit(g),
        "TruthWatcher.known()": lambda g: TruthWatcher(lambda report: None).known(g),
    }
    for name, call in calls.items():
        with pytest.raises(TypeError, match=rf"^{re.escape(name)} needs a pyramid_widget Game, "):
            call(game)


# -- winning lines and the second-level hint ---------------------------------------------------


def test_a_winning_line_wins_and_leaves_the_game_alone() -> None:
    game = trap()
    line = winning_line(game)
    assert line is not None and replay_wins(game, line)
    assert game.moves == 0 and game.stock == trap().stock
    move = next_winning_move(game)
    assert move is not None and move in game.legal_moves
    assert winning_line(play(game, str(move))) is not None


def test_lost_won_and_hopeless_positions() -> None:
    assert winning_line(play(trap(), "draw", "draw")) is None
    assert next_winning_move(play(trap(), "draw", "draw")) is None
    won = play(trap(), "draw", "5D+8C", "5H+8S")
    assert won.status.value == "won"
    assert winning_line(won) == [] and next_winning_move(won) is None
    assert winning_line(Game.from_position("hard", pyramid=[None] * 27 + ["QH"])) is None


def test_an_undecided_position_says_so_instead_of_guessing() -> None:
    with pytest.raises(UndecidedError, match=r"could not decide .* within 1 position$"):
        winning_line(Game("hard", deal=115), max_seconds=None, max_nodes=1)  # 44k nodes


def test_a_line_that_does_not_win_on_replay_is_reported_as_a_solver_bug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pyramid_widget import solver

    real = solver.solve

    def lying(game: Game, **limits: object) -> object:
        return dataclasses.replace(real(game, **limits), moves=[Move.draw()])  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "solve", lying)
    with pytest.raises(SolverDisagreementError, match="does not win when replayed"):
        winning_line(trap())


# -- the "can this still be won?" indicator ----------------------------------------------------


class Collector:
    def __init__(self) -> None:
        self.reports: list[TruthReport] = []
        self.lock = threading.Lock()

    def __call__(self, report: TruthReport) -> None:
        with self.lock:
            self.reports.append(report)

    def final(self) -> list[TruthReport]:
        return [r for r in self.reports if r.state != "thinking"]


def test_the_indicator_flips_exactly_at_the_losing_move() -> None:
    seen = Collector()
    game = trap()
    states = []
    with TruthWatcher(seen, max_seconds=30) as watcher:
        for move in [None, "draw", "draw", "5H+8S"]:
            if move:
                game.play(move)
            watcher.submit(game)
            assert watcher.wait(60)
            assert watcher.latest is not None and watcher.latest.moves == game.moves
            states.append(watcher.latest.state)
    assert states == ["winnable", "winnable", "unwinnable", "unwinnable"]
    details = [r.detail for r in seen.final()]
    assert details[1].startswith("Still winnable")
    assert details[2] == "Not winnable any more: no sequence of moves wins from here."
    assert details[3] == "The game is lost."
    assert game.status.value == "lost"


def test_submit_never_waits_for_the_solver_and_stale_answers_are_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first solve is held (a gate around the real solver) until a second position has
    been submitted: submitting must not wait for it, and its answer, now stale, is dropped."""
    from pyramid_widget import solver

    real, gate, calls = solver.solve, threading.Event(), []

    def held(game: Game, **limits: object) -> object:
        calls.append(game.moves)
        if len(calls) == 1:
            assert gate.wait(30)
        return real(game, **limits)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "solve", held)
    seen = Collector()
    with TruthWatcher(seen, max_seconds=30) as watcher:
        started = time.perf_counter()
        first = watcher.submit(play(trap(), "draw", "draw"))
        while not calls:  # the watcher thread has started the first solve
            time.sleep(0.001)
        second = watcher.submit(trap())
        elapsed = time.perf_counter() - started
        gate.set()
        assert watcher.wait(60)
    assert elapsed < 0.5
    assert first.state == "thinking" and second.token == first.token + 1
    answered = seen.final()
    assert [(r.token, r.state) for r in answered] == [(second.token, "winnable")]
    assert calls == [2, 0]
    assert watcher.latest == answered[0]


def test_a_stale_hard_position_gives_way_after_its_first_time_slice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A position the solver needs long for (simulated: every slice runs out) is searched in
    growing slices; once a newer position is submitted it is dropped at the end of its slice
    instead of holding the watcher for the whole budget."""
    from pyramid_widget import solver

    real, budgets = solver.solve, []

    def slow(game: Game, **limits: Any) -> object:
        if game.moves == 1:  # the "hard" position
            budgets.append(limits["max_seconds"])
            time.sleep(limits["max_seconds"])
            return dataclasses.replace(real(game), verdict="unknown", moves=[])
        return real(game, **limits)

    monkeypatch.setattr(solver, "solve", slow)
    seen = Collector()
    with TruthWatcher(seen, max_seconds=60) as watcher:
        watcher.submit(play(trap(), "draw"))
        while not budgets:
            time.sleep(0.001)
        started = time.perf_counter()
        watcher.submit(trap())
        assert watcher.wait(30)
        waited = time.perf_counter() - started
    assert budgets == [0.25] and waited < 2
    assert [r.state for r in seen.final()] == ["winnable"]


def test_known_answers_are_given_at_once() -> None:
    """A move of the known winning line, and any move from a proved-lost position, are
    answered without solving (winnability is monotone along a game)."""
    seen = Collector()
    pyramid: list[str | None] = [None] * 28
    pyramid[21:25] = ["5H", "5D", "8S", "KC"]  # the trap plus a King that is always removable
    game = Game.from_position("hard", pyramid=pyramid, stock=["8C", "2D"])
    with TruthWatcher(seen, max_seconds=30) as watcher:
        watcher.submit(game)
        assert watcher.wait(60) and watcher.latest is not None
        line = watcher.latest.line
        assert line
        game.play(line[0])
        now = watcher.submit(game)
        assert now.state == "winnable" and now.line == line[1:]
        game.undo()
        game.play("draw")
        game.play("draw")
        assert watcher.submit(game).state == "thinking"  # a new position: solved again
        assert watcher.wait(60) and watcher.latest.state == "unwinnable"
        game.play("KC")
        assert not game.is_over
        after = watcher.submit(game)
    assert after.state == "unwinnable" and after.detail.startswith("Not winnable any more")


def test_a_failing_solver_shows_unknown_and_the_watcher_keeps_working(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pyramid_widget import solver

    calls = []

    def broken(game: Game, **limits: object) -> object:
        calls.append(1)
        raise OSError("disk full") if len(calls) == 1 else RuntimeError("boom")

    monkeypatch.setattr(solver, "solve", broken)
    seen = Collector()
    with TruthWatcher(seen) as watcher:
        watcher.submit(trap())
        assert watcher.wait(10)
        watcher.submit(play(trap(), "draw"))
        assert watcher.wait(10)
    assert [r.state for r in seen.final()] == ["unknown", "unknown"]
    assert seen.final()[1].detail == "The solver failed: boom"


def test_a_callback_that_raises_is_a_warning_not_a_dead_thread() -> None:
    def angry(report: TruthReport) -> None:
        if report.state != "thinking":
            raise ValueError("widget closed")

    with TruthWatcher(angry) as watcher, pytest.warns(UserWarning, match="widget closed"):
        watcher.submit(trap())
        assert watcher.wait(30)
    assert watcher.latest is not None and watcher.latest.state == "winnable"


def test_a_closed_watcher_refuses_work() -> None:
    watcher = TruthWatcher(lambda report: None)
    watcher.close()
    with pytest.raises(RuntimeError, match="closed"):
        watcher.submit(trap())


# -- "could I have won this?" --------------------------------------------------------------------


def test_post_mortem_names_the_move_that_lost_the_game() -> None:
    game = play(trap(), "draw", "draw", "5H+8S")
    assert game.status.value == "lost"
    report = post_mortem(game)
    assert report.from_start == "winnable" and report.winnable_from_start is True
    assert (report.losing_move_number, report.losing_move) == (2, Move.draw())
    assert report.winnable_before_last_move is False
    assert report.better_line is not None
    assert replay_wins(play(trap(), "draw"), report.better_line)
    assert "still winnable before move 2 (draw)" in report.detail
    assert f"Playing {report.better_line[0]} there would have kept a win in hand." in report.detail


def test_post_mortem_when_the_last_move_lost_it() -> None:
    game = play(trap(), "5H+8S", "draw", "draw")
    assert game.status.value == "lost"
    report = post_mortem(game)
    assert (report.losing_move_number, report.winnable_before_last_move) == (3, True)


def test_post_mortem_of_hopeless_won_and_abandoned_games() -> None:
    hopeless = Game.from_position("hard", pyramid=[None] * 27 + ["5H"], stock=["2D"])
    hopeless.play("draw")
    report = post_mortem(hopeless)
    assert (report.from_start, report.winnable_from_start) == ("unwinnable", False)
    assert report.losing_move is None and report.winnable_before_last_move is False
    assert report.detail == "This deal could not be won from the start, whatever the play."
    won = post_mortem(play(trap(), "draw", "5D+8C", "5H+8S"))
    assert won.losing_move is None and "you won it" in won.detail
    going = post_mortem(play(trap(), "draw"))
    assert going.detail == "This deal was winnable from the start, and it still is."


def careless(rules: str, number: int) -> Game:
    """A whole game by a careless player who draws whenever possible (deterministic)."""
    game = Game(rules, deal=number)
    while not game.is_over:
        moves = list(game.legal_moves)
        draws = [m for m in moves if m.kind.value in ("draw", "redeal")]
        game.play(draws[0] if draws else moves[0])
    return game


def test_post_mortem_of_a_long_real_game_uses_few_solves() -> None:
    game = careless("medium", 2016)
    assert game.status.value == "lost" and game.moves > 60
    report = post_mortem(game, max_seconds=None)
    assert report.from_start == "winnable" and report.losing_move_number is not None
    before = Game("medium", deal=2016)
    for move in game.history[: report.losing_move_number - 1]:
        before.play(move)
    assert report.better_line is not None and replay_wins(before, report.better_line)
    assert report.losing_move == game.history[report.losing_move_number - 1]
    assert winning_line(play(before, str(report.losing_move)), max_seconds=None) is None
    assert report.solves <= 3 + game.moves.bit_length()


def test_post_mortem_says_how_far_it_got_when_the_solver_gives_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the solver made to give up on every position strictly inside the game, the
    report gives the range it could prove instead of naming a move."""
    from pyramid_widget import solver

    real = solver.solve
    game = play(trap(), "draw", "draw", "5H+8S")  # lost by the second draw

    def shy(position: Game, **limits: object) -> object:
        if 0 < position.moves < game.moves:
            return dataclasses.replace(real(position), verdict="unknown", moves=[])
        return real(position, **limits)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "solve", shy)
    report = post_mortem(game)
    assert report.losing_move is None and report.winnable_before_last_move is None
    assert re.search(
        r"still winnable after move [01] and could not be won any more after "
        r"move 3; the solver could not decide the positions in between",
        report.detail,
    )


def test_assist_is_a_thin_re_export_of_the_job_modules() -> None:
    from pyramid_widget.solver import lines, truth, winnable
    from pyramid_widget.solver import post_mortem as mortem

    homes = {**vars(lines), **vars(truth), **vars(winnable), **vars(mortem)}
    assert set(assist.__all__) >= {"TruthWatcher", "post_mortem", "winnable_deal", "winning_line"}
    for name in assist.__all__:
        assert getattr(assist, name) is homes[name], name
    own = [
        name
        for name, value in vars(assist).items()
        if callable(value) and getattr(value, "__module__", "") == assist.__name__
    ]
    assert own == []  # nothing is defined here any more, only re-exported
