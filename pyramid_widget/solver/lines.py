"""Winning lines from any position, checked by replay: the solver's answers as the game uses them.

Everything here asks :func:`pyramid_widget.solver.solve` and never guesses: a line is
returned only when the solver found it and it wins when replayed on a copy of the game;
"no line" only when the solver proved there is none; and :class:`UndecidedError` when it
ran out of its time or node budget.

>>> from pyramid_widget import Game
>>> game = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "8S"], stock=["KD"])
>>> line = winning_line(game)
>>> [str(move) for move in line]
['5H+8S']
>>> replay_wins(game, line)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pyramid_widget import solver
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
    """The solver's verdict on one position and, when winnable, a line checked by replay."""

    verdict: Verdict
    moves: tuple[Move, ...]


def checked_solve(game: Game, max_seconds: float | None, max_nodes: int | None) -> Answer:
    """Run the exact solver on a copy of ``game``; a winning line is checked by replay
    (:class:`SolverDisagreementError` when it does not win)."""
    solution = solver.solve(game.copy(), max_seconds=max_seconds, max_nodes=max_nodes)
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
    return Answer(verdict, moves)


def winning_line(
    game: Game, *, max_seconds: float | None = INTERACTIVE_SECONDS, max_nodes: int | None = None
) -> list[Move] | None:
    """A winning line from the current position (``[]`` if already won), or ``None`` if the
    solver proved there is none. Raises :class:`UndecidedError` if it could not decide within
    ``max_seconds`` / ``max_nodes``.

    >>> from pyramid_widget import Game
    >>> lone_queen = Game.from_position("hard", pyramid=[None] * 27 + ["QH"], stock=["2C"])
    >>> winning_line(lone_queen) is None
    True
    """
    if game.status is Status.WON:
        return []
    if game.is_over:
        return None
    answer = checked_solve(game, max_seconds, max_nodes)
    if answer.verdict == "unknown":
        raise UndecidedError(undecided_text(max_seconds, max_nodes))
    return list(answer.moves) if answer.verdict == "winnable" else None


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
    line = winning_line(game, max_seconds=max_seconds, max_nodes=max_nodes)
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
        limits.append(f"{max_nodes} positions")
    within = " within " + " and ".join(limits) if limits else ""
    return f"the solver could not decide whether this position can be won{within}"
