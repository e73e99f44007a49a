"""Post-mortems: could this game have been won, and which move lost it?

Winnability never comes back once lost, so the move that lost a game is found by bisection
along the moves played: about ``2 + log2(moves)`` solves.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Status
from pyramid_widget.solver import check_game
from pyramid_widget.solver.lines import INTERACTIVE_SECONDS, Verdict, checked_solve, first_position

__all__ = ["PostMortem", "post_mortem"]


@dataclass(frozen=True)
class PostMortem:
    """What the solver says about a finished (or abandoned) game, for its current round.

    ``from_start``: the verdict on the deal before any move. ``losing_move_number`` (1-based)
    and ``losing_move``: the move after which the game could no longer be won (``None`` when
    it never was winnable, was never lost, or could not be pinned down). ``winnable_before_
    last_move``: whether the position before the game's final move could still be won.
    ``better_line``: a winning line from the position before the losing move. ``detail``:
    all of it in sentences.
    """

    from_start: Verdict
    losing_move_number: int | None
    losing_move: Move | None
    winnable_before_last_move: bool | None
    better_line: tuple[Move, ...] | None
    detail: str
    solves: int

    @property
    def winnable_from_start(self) -> bool | None:
        """True / False when decided, None when the solver could not tell."""
        return None if self.from_start == "unknown" else self.from_start == "winnable"


class _Probe:
    """Solves positions along the current round of a game, each at most once."""

    def __init__(self, game: Game, max_seconds: float | None, max_nodes: int | None) -> None:
        history = list(game.history)
        rounds = [i for i, move in enumerate(history) if move.kind is MoveKind.NEXT_ROUND]
        begins = rounds[-1] + 1 if rounds else 0
        self.moves = history[begins:]
        self.start = first_position(game)
        for move in history[:begins]:
            self.start.play(move)
        self.final = game
        self.limits = (max_seconds, max_nodes)
        self.found: dict[int, tuple[Verdict, tuple[Move, ...]]] = {}
        self.solves = 0

    def position(self, index: int) -> Game:
        if index == len(self.moves):
            return self.final.copy()
        game = self.start.copy()
        for move in self.moves[:index]:
            game.play(move)
        return game

    def verdict(self, index: int) -> Verdict:
        """The verdict on the position after ``index`` moves of the round."""
        if index not in self.found:
            game = self.position(index)
            if game.is_over:
                self.found[index] = ("winnable" if game.status is Status.WON else "unwinnable", ())
            else:
                self.solves += 1
                solution = checked_solve(game, *self.limits)
                self._learn(index, solution.verdict, tuple(solution.moves))
        return self.found[index][0]

    def _learn(self, index: int, verdict: Verdict, line: tuple[Move, ...]) -> None:
        self.found[index] = (verdict, line)
        if verdict != "winnable":
            return
        for step, move in enumerate(line):  # the player followed the line this far
            if index + step >= len(self.moves) or self.moves[index + step] != move:
                break
            self.found.setdefault(index + step + 1, ("winnable", line[step + 1 :]))

    def last_winnable_below(self, limit: int) -> int:
        return max(i for i, (v, _) in self.found.items() if v == "winnable" and i < limit)

    def boundary(self) -> tuple[int, int]:
        """(last winnable, first unwinnable) positions found by bisection: adjacent unless
        the solver left every position in between undecided. Needs position 0 winnable and
        the final position unwinnable."""
        low, high = 0, len(self.moves)
        while high - low > 1:
            middle = (low + high) // 2
            order = sorted(range(low + 1, high), key=lambda i: abs(i - middle))[:3]
            for index in order:
                verdict = self.verdict(index)
                if verdict == "unwinnable":
                    high = index
                    break
                if verdict == "winnable":
                    low = self.last_winnable_below(high)
                    break
            else:
                break
        return low, high


def post_mortem(
    game: Game, *, max_seconds: float | None = INTERACTIVE_SECONDS, max_nodes: int | None = None
) -> PostMortem:
    """Could this game have been won, and which move lost it? (For ``egypt``: this round.)

    Solves the starting position, the final one and, by bisection along the moves played
    (winnability never comes back once lost), the position just before the move that lost
    the game: about ``2 + log2(moves)`` solves of at most ``max_seconds`` each.

    >>> from pyramid_widget import Game
    >>> game = Game.from_position("hard", pyramid=[None] * 27 + ["QH"], stock=["AC", "2C"])
    >>> for move in ["draw", "draw"]:
    ...     _ = game.play(move)
    >>> report = post_mortem(game)
    >>> report.from_start, report.losing_move_number, str(report.losing_move)
    ('winnable', 2, 'draw')
    >>> print(report.detail)  # doctest: +NORMALIZE_WHITESPACE
    This deal was winnable from the start. It was still winnable before move 2 (draw);
    after that move it could not be won any more. Playing AC+QH there would have kept a win
    in hand.
    """
    check_game(game, "post_mortem()")
    probe = _Probe(game, max_seconds, max_nodes)
    start = probe.verdict(0)
    end = probe.verdict(len(probe.moves)) if start == "winnable" else start
    bounds = probe.boundary() if (start, end) == ("winnable", "unwinnable") else None
    return _mortem(probe, start, end, bounds)


def _mortem(
    probe: _Probe, start: Verdict, end: Verdict, bounds: tuple[int, int] | None
) -> PostMortem:
    n = len(probe.moves)
    last_good = bounds[0] if bounds and bounds[1] == bounds[0] + 1 else None
    before_last: bool | None = None
    if last_good is not None:
        before_last = last_good == n - 1
    elif end == "winnable" and n:
        before_last = True
    elif start == "unwinnable" and n:
        before_last = False
    move = probe.moves[last_good] if last_good is not None else None
    line = probe.found[last_good][1] if last_good is not None else None
    detail = _mortem_text(probe, start, end, bounds)
    number = None if last_good is None else last_good + 1
    return PostMortem(start, number, move, before_last, line, detail, probe.solves)


def _mortem_text(
    probe: _Probe, start: Verdict, end: Verdict, bounds: tuple[int, int] | None
) -> str:
    if start == "unknown":
        return "The solver could not decide whether this deal was winnable."
    if start == "unwinnable":
        return "This deal could not be won from the start, whatever the play."
    if end == "winnable":
        if probe.final.status is Status.WON:
            return "This deal was winnable from the start, and you won it."
        return "This deal was winnable from the start, and it still is."
    if end == "unknown" or bounds is None:
        return "This deal was winnable from the start; the solver could not decide the end."
    low, high = bounds
    if high != low + 1:
        return (
            f"This deal was winnable from the start. It was still winnable after move {low} "
            f"and could not be won any more after move {high}; the solver could not decide "
            f"the positions in between in the time it had."
        )
    move, better = probe.moves[low], probe.found[low][1]
    text = (
        f"This deal was winnable from the start. It was still winnable before move "
        f"{low + 1} ({move}); after that move it could not be won any more."
    )
    if better:
        text += f" Playing {better[0]} there would have kept a win in hand."
    return text
