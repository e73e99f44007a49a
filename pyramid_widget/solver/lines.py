"""Winning lines from any position, checked by replay: the solver's answers as the game uses them.

Everything here asks :func:`pyramid_widget.solver.solve` and never guesses: a line is
returned only when the solver found it and it wins when replayed on a copy of the game;
"no line" only when the solver proved there is none; and :class:`UndecidedError` when it
ran out of its time or node budget.

:func:`winning_line` (what the widget's Solve plays) asks for a line with the fewest moves
and returns it when the solver proves one within the budget, else the line the decision
search found; the :class:`WinningLine` it returns says which (:meth:`WinningLine.describe`:
"a shortest line, 41 moves" or "a winning line, 52 moves").

>>> from pyramid_widget import Game
>>> game = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "8S"], stock=["KD"])
>>> line = winning_line(game)
>>> [str(move) for move in line], line.describe()
(['5H+8S'], 'a shortest line, 1 move')
>>> replay_wins(game, line)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pyramid_widget import solver
from pyramid_widget.engine.describe import counted
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Status
from pyramid_widget.errors import IllegalMoveError, InvalidMoveError, UndecidedError

__all__ = [
    "INTERACTIVE_SECONDS",
    "Answer",
    "SolverDisagreementError",
    "UndecidedError",
    "Verdict",
    "WinningLine",
    "checked_solve",
    "first_position",
    "next_winning_move",
    "replay_wins",
    "undecided_text",
    "winning_line",
]

Verdict = Literal["winnable", "unwinnable", "unknown"]
INTERACTIVE_SECONDS = 10.0
"""Default time budget of one solve started by the player (hint, solve button, indicator)."""

_VERDICTS: dict[str, Verdict] = {
    "winnable": "winnable",
    "unwinnable": "unwinnable",
    "unknown": "unknown",
}


class SolverDisagreementError(RuntimeError):
    """The solver's winning line does not win when replayed: a solver bug, never a user error."""


def replay_wins(game: Game, moves: Sequence[Move]) -> bool:
    """True if playing ``moves`` on a copy of ``game`` wins it (the game itself is untouched).

    >>> from pyramid_widget import Game
    >>> replay_wins(Game("medium", deal=1), [])
    False
    """
    trial = game.copy()
    try:
        for move in moves:
            trial.play(move)
    except (IllegalMoveError, InvalidMoveError):
        return False
    return trial.status is Status.WON


def first_position(game: Game) -> Game:
    """A copy of ``game`` back at its very first position (first round); ``game`` is untouched.

    >>> from pyramid_widget import Game
    >>> game = Game("medium", deal=3)
    >>> _ = game.play("draw")
    >>> first_position(game).moves, game.moves
    (0, 1)
    """
    start = game.copy()
    start.restart()
    return start


@dataclass(frozen=True)
class Answer:
    """The solver's verdict on one position and, when winnable, a line checked by replay;
    ``shortest`` says the line is proved to have the fewest moves."""

    verdict: Verdict
    moves: tuple[Move, ...]
    shortest: bool = False


class WinningLine(list[Move]):
    """A winning line (a list of moves, so it is used like one) that knows whether it is
    proved shortest.

    >>> from pyramid_widget.engine.moves import Move
    >>> line = WinningLine([Move.draw()] * 52, shortest=False)
    >>> line.describe(), line == [Move.draw()] * 52
    ('a winning line, 52 moves', True)
    >>> WinningLine([Move.draw()] * 41, shortest=True).describe()
    'a shortest line, 41 moves'
    """

    def __init__(self, moves: Sequence[Move] = (), *, shortest: bool) -> None:
        super().__init__(moves)
        self.shortest = shortest
        """True when the solver proved that no line wins in fewer moves."""

    def describe(self) -> str:
        """Which line this is and its length, as the board says it."""
        kind = "a shortest line" if self.shortest else "a winning line"
        return f"{kind}, {counted(len(self), 'move')}"


def checked_solve(
    game: Game, max_seconds: float | None, max_nodes: int | None, *, shortest: bool = False
) -> Answer:
    """Run the exact solver on a copy of ``game``; a winning line is checked by replay
    (:class:`SolverDisagreementError` when it does not win). With ``shortest`` the solver
    looks for a fewest-move line within the budget, and returns the decision line (with
    ``Answer.shortest`` false) when it could not prove one in time."""
    solver.check_game(game, "checked_solve()")
    solution = solver.solve(
        game.copy(), shortest=shortest, max_seconds=max_seconds, max_nodes=max_nodes
    )
    text = str(getattr(solution.verdict, "value", solution.verdict))
    verdict = _VERDICTS.get(text)
    if verdict is None:
        raise SolverDisagreementError(f"the solver answered {text!r}")
    moves = tuple(solution.moves)
    if verdict == "winnable" and not replay_wins(game, moves):
        line = " ".join(str(m) for m in moves)
        raise SolverDisagreementError(
            f"the solver's winning line does not win when replayed ({game.rules.name}, "
            f"{len(game.history)} moves in): {line}"
        )
    return Answer(verdict, moves, verdict == "winnable" and bool(solution.shortest))


def winning_line(
    game: Game,
    *,
    max_seconds: float | None = INTERACTIVE_SECONDS,
    max_nodes: int | None = None,
    shortest: bool = True,
) -> WinningLine | None:
    """A winning line from the current position (``[]`` if already won), or ``None`` if the
    solver proved there is none. Raises :class:`UndecidedError` if it could not decide within
    ``max_seconds`` / ``max_nodes``.

    With ``shortest`` (the default) the line has the fewest moves when the solver proves
    that within the same budget, else it is the decision search's line; the
    :class:`WinningLine` says which. ``shortest=False`` asks for the decision line alone
    (faster; :func:`next_winning_move` uses it).

    >>> from pyramid_widget import Game
    >>> lone_queen = Game.from_position("hard", pyramid=[None] * 27 + ["QH"], stock=["2C"])
    >>> winning_line(lone_queen) is None
    True
    >>> g = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "4S"])
    >>> winning_line(g).describe(), winning_line(g, max_nodes=3).describe()
    ('a shortest line, 4 moves', 'a winning line, 4 moves')
    """
    solver.check_game(game, "winning_line()")
    if game.status is Status.WON:
        return WinningLine([], shortest=True)
    if game.is_over:
        return None
    answer = checked_solve(game, max_seconds, max_nodes, shortest=shortest)
    if answer.verdict == "unknown":
        raise UndecidedError(undecided_text(max_seconds, max_nodes))
    if answer.verdict != "winnable":
        return None
    return WinningLine(answer.moves, shortest=answer.shortest)


def next_winning_move(
    game: Game, *, max_seconds: float | None = INTERACTIVE_SECONDS, max_nodes: int | None = None
) -> Move | None:
    """The next move of a winning line (the second-level hint), or ``None`` when the game is
    over or the solver proved the position cannot be won. Raises :class:`UndecidedError`
    like :func:`winning_line`.

    >>> from pyramid_widget import Game
    >>> str(next_winning_move(Game.from_position("hard", pyramid=[None] * 27 + ["KD"])))
    'KD'
    """
    solver.check_game(game, "next_winning_move()")
    line = winning_line(game, max_seconds=max_seconds, max_nodes=max_nodes, shortest=False)
    return line[0] if line else None


def undecided_text(max_seconds: float | None, max_nodes: int | None) -> str:
    """The sentence for a solve that ran out of budget.

    >>> undecided_text(2.0, None)
    'the solver could not decide whether this position can be won within 2 s'
    """
    limits = []
    if max_seconds is not None:
        limits.append(f"{max_seconds:g} s")
    if max_nodes is not None:
        limits.append(counted(max_nodes, "position"))
    within = " within " + " and ".join(limits) if limits else ""
    return f"the solver could not decide whether this position can be won{within}"
