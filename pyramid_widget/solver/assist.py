"""The exact solver inside the game: winnable deals, winning lines, a truth indicator, post-mortems.

Everything here asks :func:`pyramid_widget.solver.solve` and never guesses: a position is
"winnable" only when the solver found a line that wins (and this module replayed it to be
sure), "unwinnable" only when the solver proved it, and "unknown" when it ran out of its time
or node budget. Nothing here touches a widget; the widget calls these functions.

Winnability along a game is monotone: a position that cannot be won has no winnable successor,
and a move of a winning line leads to a position the rest of the line still wins. The
:class:`TruthWatcher` and :func:`post_mortem` use both facts to solve less.

>>> from pyramid_widget import Game
>>> game = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "8S"], stock=["KD"])
>>> line = winning_line(game)
>>> [str(move) for move in line]
['5H+8S']
>>> replay_wins(game, line)
True
"""

from __future__ import annotations

import json
import random
import threading
import time
import warnings
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pyramid_widget.errors import NoWinnableDealError, UndecidedError

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game
    from pyramid_widget.engine.moves import Move
    from pyramid_widget.engine.rules import RuleSet

__all__ = [
    "NoWinnableDealError",
    "PostMortem",
    "SolverDisagreementError",
    "TruthReport",
    "TruthWatcher",
    "UndecidedError",
    "next_winning_move",
    "post_mortem",
    "replay_wins",
    "winnable_deal",
    "winning_line",
]

TruthState = Literal["winnable", "unwinnable", "thinking", "unknown"]
Verdict = Literal["winnable", "unwinnable", "unknown"]
INTERACTIVE_SECONDS = 10.0
"""Default time budget of one solve started by the player (hint, solve button, indicator)."""
DEAL_SECONDS = 2.0
"""Default time budget per deal tried by :func:`winnable_deal`."""
_RANDOM_START_LIMIT = 10**9
_SLICES = (0.25, 1.0, 4.0)


class SolverDisagreementError(RuntimeError):
    """The solver's winning line does not win when replayed: a solver bug, never a user error."""


def replay_wins(game: Game, moves: Sequence[Move]) -> bool:
    """True if playing ``moves`` on a copy of ``game`` wins it (the game itself is untouched).

    >>> from pyramid_widget import Game
    >>> replay_wins(Game("medium", deal=1), [])
    False
    """
    from pyramid_widget.errors import IllegalMoveError, InvalidMoveError

    trial = game.copy()
    try:
        for move in moves:
            trial.play(move)
    except (IllegalMoveError, InvalidMoveError):
        return False
    return _won(trial)


def _won(game: Game) -> bool:
    return game.status.value == "won"


@dataclass(frozen=True)
class _Answer:
    verdict: Verdict
    moves: tuple[Move, ...]


def _solve(game: Game, max_seconds: float | None, max_nodes: int | None) -> _Answer:
    """Run the exact solver on a copy of ``game``; a winning line is checked by replay."""
    from pyramid_widget import solver

    solution = solver.solve(game.copy(), max_seconds=max_seconds, max_nodes=max_nodes)
    verdict = str(getattr(solution.verdict, "value", solution.verdict))
    if verdict not in ("winnable", "unwinnable", "unknown"):
        raise SolverDisagreementError(f"the solver answered {verdict!r}")
    moves = tuple(solution.moves)
    if verdict == "winnable" and not replay_wins(game, moves):
        text = " ".join(str(m) for m in moves)
        raise SolverDisagreementError(
            f"the solver's winning line does not win when replayed ({game.rules.name}, "
            f"{len(game.history)} moves in): {text}"
        )
    return _Answer(verdict, moves)  # type: ignore[arg-type]


def winnable_deal(
    rules: str | RuleSet = "medium",
    *,
    start: int | None = None,
    bound: int = 50,
    max_seconds: float | None = DEAL_SECONDS,
    max_nodes: int | None = None,
) -> int:
    """The first deal number from ``start`` on that the solver proves winnable under ``rules``.

    Tries at most ``bound`` consecutive deal numbers, giving the solver ``max_seconds`` (and
    ``max_nodes``) for each; ``start=None`` picks a random start. Raises
    :class:`NoWinnableDealError` (a ``ValueError``) saying how many deals were unwinnable and
    how many undecided when none is found, and ``ValueError`` for a bound below 1.

    >>> from pyramid_widget import Game
    >>> n = winnable_deal("easy", start=0)
    >>> winning_line(Game("easy", deal=n)) is not None
    True
    """
    from pyramid_widget import Game, get_rules
    from pyramid_widget.engine.deals import MAX_DEAL_NUMBER

    rule_set = get_rules(rules)
    if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
        raise ValueError(f"bound must be a whole number of deals, at least 1; got {bound!r}")
    first = random.randrange(_RANDOM_START_LIMIT) if start is None else start
    last = min(first + bound - 1, MAX_DEAL_NUMBER)
    verdicts: Counter[str] = Counter()
    for number in range(first, last + 1):
        game = Game(rule_set, deal=number)
        verdict = _solve(game, max_seconds, max_nodes).verdict
        if verdict == "winnable":
            return number
        verdicts[verdict] += 1
    budget = f"{max_seconds:g} s" if max_seconds is not None else "no time limit"
    raise NoWinnableDealError(
        f"no winnable deal found for rule set {rule_set.name!r} among deals {first}..{last} "
        f"({verdicts['unwinnable']} proved unwinnable, {verdicts['unknown']} undecided within "
        f"{budget} each); try a larger bound or more time per deal"
    )


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
    if _won(game):
        return []
    if game.is_over:
        return None
    solution = _solve(game, max_seconds, max_nodes)
    if solution.verdict == "unknown":
        raise UndecidedError(_undecided_text(max_seconds, max_nodes))
    return list(solution.moves) if solution.verdict == "winnable" else None


def next_winning_move(
    game: Game, *, max_seconds: float | None = INTERACTIVE_SECONDS, max_nodes: int | None = None
) -> Move | None:
    """The next move of a winning line (the second-level hint), or ``None`` when the game is
    over or the solver proved the position cannot be won. Raises :class:`UndecidedError`
    like :func:`winning_line`.
    """
    line = winning_line(game, max_seconds=max_seconds, max_nodes=max_nodes)
    return line[0] if line else None


def _undecided_text(max_seconds: float | None, max_nodes: int | None) -> str:
    limits = []
    if max_seconds is not None:
        limits.append(f"{max_seconds:g} s")
    if max_nodes is not None:
        limits.append(f"{max_nodes} positions")
    within = " within " + " and ".join(limits) if limits else ""
    return f"the solver could not decide whether this position can be won{within}"


# -- knowing which positions were decided ----------------------------------------------------

Key = tuple[str, str, tuple[str, ...]]


def _origin(game: Game) -> Game:
    """A copy of ``game`` back at its very first position (first round)."""
    start = game.copy()
    start.restart()
    return start


def position_key(game: Game) -> Key:
    """What fixes a position: the rule set, the game's first position and the moves in
    effect since then (later ``egypt`` rounds follow from the first deal)."""
    rules = json.dumps(game.rules.to_dict(), sort_keys=True)
    start = _origin(game)
    first = repr((start.pyramid, start.stock, start.wastes, start.cells, start.pass_number))
    return (rules, first, tuple(str(move) for move in game.history))


class _Known:
    """Verdicts already found, reused through monotonicity (bounded, most recent kept)."""

    def __init__(self, size: int = 512) -> None:
        self._entries: OrderedDict[Key, tuple[Verdict, tuple[str, ...]]] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()

    def add(self, key: Key, verdict: Verdict, line: Sequence[Move]) -> None:
        if verdict == "unknown":
            return
        with self._lock:
            self._entries[key] = (verdict, tuple(str(move) for move in line))
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)

    def lookup(self, key: Key) -> tuple[Verdict, tuple[str, ...]] | None:
        """The verdict for ``key`` (and the rest of a winning line), if already implied."""
        rules, deal, history = key
        with self._lock:
            entries = list(self._entries.items())
        for (k_rules, k_deal, k_history), (verdict, line) in reversed(entries):
            if (k_rules, k_deal) != (rules, deal) or history[: len(k_history)] != k_history:
                continue
            done = history[len(k_history) :]
            if verdict == "unwinnable":
                return verdict, ()
            if line[: len(done)] == done:
                return verdict, line[len(done) :]
        return None


# -- the "can this still be won?" indicator ---------------------------------------------------


@dataclass(frozen=True)
class TruthReport:
    """What the indicator shows for one position.

    ``state``: "winnable", "unwinnable", "thinking" or "unknown"; ``detail``: a sentence for
    the player; ``moves``: the game's move count when submitted (the position this is about);
    ``token``: the submission number (a later token supersedes); ``line``: a winning line from
    that position when known (the solve button and the second-level hint can reuse it).
    """

    state: TruthState
    detail: str
    moves: int
    token: int
    line: tuple[Move, ...] | None = None


def _report(game: Game, token: int, verdict: str, line: Sequence[Move]) -> TruthReport:
    moves = int(game.moves)
    if _won(game):
        return TruthReport("winnable", "Won.", moves, token, ())
    if verdict == "winnable":
        text = f"Still winnable: a winning line of {len(line)} moves exists from here."
        return TruthReport("winnable", text, moves, token, tuple(line))
    if verdict == "unwinnable":
        if game.is_over:
            text = "The game is lost."
        elif not game.history:
            text = "This deal cannot be won, whatever you play."
        else:
            text = "Not winnable any more: no sequence of moves wins from here."
        return TruthReport("unwinnable", text, moves, token)
    return TruthReport("unknown", f"Can't tell: {verdict}.", moves, token)


class TruthWatcher:
    """Answers "can this still be won?" after every move, in a background thread.

    ``submit(game)`` returns at once: it copies the game, reports "thinking" (or the answer
    straight away when it is already known, e.g. after a move of the known winning line or
    after any move from a lost position), and the solver runs in the watcher's thread. Only
    the latest submission counts: a result for an older one is dropped. ``callback(report)``
    receives each :class:`TruthReport` — "thinking" in the submitting thread, results in the
    watcher's thread; an exception in the callback is turned into a warning. The solver
    searches in growing time slices (0.25 s, 1 s, 4 s, then ``max_seconds``), so a position
    that has become stale gives way to the newest one at the end of its slice.

    >>> from pyramid_widget import Game
    >>> game = Game.from_position("hard", pyramid=[None] * 26 + ["KD", "QH"], stock=["AC", "2C"])
    >>> seen = []
    >>> with TruthWatcher(seen.append) as watcher:
    ...     _ = watcher.submit(game)
    ...     watcher.wait(60)
    True
    >>> [report.state for report in seen]
    ['thinking', 'winnable']
    >>> _ = game.play("draw"), game.play("draw")  # the Ace is buried under the Two for good
    >>> watcher = TruthWatcher(seen.append)
    >>> watcher.submit(game).state, watcher.wait(60), seen[-1].state
    ('thinking', True, 'unwinnable')
    >>> watcher.close()
    """

    def __init__(
        self,
        callback: Callable[[TruthReport], object],
        *,
        max_seconds: float | None = INTERACTIVE_SECONDS,
        max_nodes: int | None = None,
    ) -> None:
        self._callback = callback
        self._max_seconds = max_seconds
        self._max_nodes = max_nodes
        self._known = _Known()
        self._cond = threading.Condition()
        self._deliver_lock = threading.Lock()
        self._pending: tuple[int, Game] | None = None
        self._token = 0
        self._busy = False
        self._closed = False
        self.latest: TruthReport | None = None
        self._thread = threading.Thread(target=self._run, name="pyramid-truth", daemon=True)
        self._thread.start()

    def submit(self, game: Game) -> TruthReport:
        """Ask about ``game``'s current position; never blocks on the solver. Returns the
        report delivered now ("thinking", or the answer if already known)."""
        snapshot = game.copy()
        with self._cond:
            if self._closed:
                raise RuntimeError("this TruthWatcher is closed")
            self._token += 1
            token = self._token
        answer = self._immediate(snapshot, token)
        if answer is not None:
            self._deliver(answer)
            return answer
        thinking = TruthReport("thinking", "Thinking…", int(snapshot.moves), token)
        self._deliver(thinking)
        with self._cond:
            self._pending = (token, snapshot)
            self._cond.notify_all()
        return thinking

    def _immediate(self, game: Game, token: int) -> TruthReport | None:
        if game.is_over:
            return _report(game, token, "unwinnable", ())
        known = self._known.lookup(position_key(game))
        if known is None:
            return None
        from pyramid_widget.engine.moves import Move

        verdict, rest = known
        return _report(game, token, verdict, [Move.parse(text) for text in rest])

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                assert self._pending is not None
                token, game = self._pending
                self._pending = None
                self._busy = True
            try:
                report = self._work(game, token)
                if report is not None:
                    self._deliver(report)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _slices(self) -> list[float | None]:
        """Growing time budgets for one position: most positions are decided in the first,
        and between slices a newer submission can take over (the solver cannot be stopped
        from outside, so a stale search ends at the end of its slice)."""
        final = self._max_seconds
        steps: list[float | None] = [s for s in _SLICES if final is None or s < final]
        return [*steps, final]

    def _stale(self, token: int) -> bool:
        with self._cond:
            return token != self._token or self._closed

    def _work(self, game: Game, token: int) -> TruthReport | None:
        """Solve ``game`` slice by slice; None when a newer position made it stale."""
        try:
            for budget in self._slices():
                solution = _solve(game, budget, self._max_nodes)
                if solution.verdict != "unknown":
                    break
                if self._stale(token):
                    return None
        except Exception as exc:  # the indicator must never die; say what went wrong
            return TruthReport("unknown", f"The solver failed: {exc}", int(game.moves), token)
        self._known.add(position_key(game), solution.verdict, solution.moves)
        if solution.verdict == "unknown":
            text = _undecided_text(self._max_seconds, self._max_nodes)
            return TruthReport("unknown", text[0].upper() + text[1:] + ".", int(game.moves), token)
        return _report(game, token, solution.verdict, solution.moves)

    def _deliver(self, report: TruthReport) -> None:
        with self._deliver_lock:
            with self._cond:
                if report.token != self._token:
                    return  # a newer position was submitted: this answer is stale
            self.latest = report
            try:
                self._callback(report)
            except Exception as exc:
                warnings.warn(f"TruthWatcher callback failed: {exc!r}", stacklevel=2)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every submission is answered; False if ``timeout`` ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._pending is not None or self._busy:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self) -> None:
        """Stop the thread (after the solve in progress, if any, ends)."""
        with self._cond:
            self._closed = True
            self._pending = None
            self._cond.notify_all()

    def __enter__(self) -> TruthWatcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- "could I have won this?" ---------------------------------------------------------------


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
        rounds = [i for i, move in enumerate(history) if move.kind.value == "next-round"]
        begins = rounds[-1] + 1 if rounds else 0
        self.moves = history[begins:]
        self.start = _origin(game)
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
            if _won(game) or game.is_over:
                self.found[index] = ("winnable" if _won(game) else "unwinnable", ())
            else:
                self.solves += 1
                solution = _solve(game, *self.limits)
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
        if _won(probe.final):
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
