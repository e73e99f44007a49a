"""Strategies that play a whole game: ``random``, ``greedy``, ``lookahead`` and ``perfect``.

A strategy is any callable ``(game, rng) -> move``: it is handed a
:class:`~pyramid_widget.game.Game` that is still being played and a :class:`random.Random`,
and returns a :class:`~pyramid_widget.moves.Move` (or its text, like ``"5H+8C"``). That is all
a student needs to write one in a notebook cell:

>>> import random
>>> from pyramid_widget import Game
>>> def first_removal(game, rng):
...     moves = sorted(game.legal_moves)
...     removals = [m for m in moves if m.is_removal]
...     return removals[0] if removals else moves[0]
>>> outcome = play_game(first_removal, "hard", deal=7, rng=random.Random(0))
>>> outcome.result, outcome.cards_left, outcome.moves
('lost', 22, 41)

The built-in strategies (:data:`STRATEGIES`) decide from the position the player sees and
play the engine's rules exactly. For speed they also run on the compact
:class:`~pyramid_widget.fastplay.FastGame`; the suite checks that both paths play the same
games move for move.

- ``random``: a uniformly random legal move (``rng.choice`` of the sorted legal moves).
- ``greedy``: the beginner's rule of thumb. Remove a King first; then the pair that takes the
  most pyramid cards (pyramid before waste) and uncovers the most; move a card to the free
  cell only when that uncovers a pyramid card; draw only when nothing else can be done; redeal
  last. Ties go to the first move in sorted order.
- ``lookahead``: like ``greedy`` but, when there are removals, it searches every sequence of
  removals possible with the cards it can see (the whole pyramid, the waste piles, the cell and
  a face-up stock top) and plays the first move of a sequence that clears the most pyramid
  cards before the next draw.
- ``perfect``: the exact solver; a deal counts as won when it is winnable.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pyramid_widget.deals import coerce_deal
from pyramid_widget.errors import IllegalMoveError
from pyramid_widget.fastplay import DRAW, PLAYING, RANK, WON, FastGame, FastMove, from_move, to_move
from pyramid_widget.game import Game
from pyramid_widget.layout import COVERED_BY_MASK, COVERS
from pyramid_widget.moves import Move
from pyramid_widget.position import Status
from pyramid_widget.rules import RuleSet, get_rules

Strategy = Callable[[Game, random.Random], "Move | str"]
"""The strategy protocol: ``strategy(game, rng) -> Move`` (or the move's text)."""

Result = Literal["won", "lost", "unknown"]
DEFAULT_MAX_MOVES = 5000
"""A game still running after this many moves is stopped and reported as ``unknown``."""


@dataclass(frozen=True)
class Outcome:
    """How one game ended: ``result`` ("won", "lost" or "unknown": the solver ran out of time
    or the game hit the move limit), ``cards_left`` (``None`` when not played out),
    ``moves`` played and wall-clock ``seconds``; ``history`` holds the moves when asked for."""

    result: Result
    cards_left: int | None
    moves: int
    seconds: float
    history: tuple[Move, ...] = ()

    @property
    def won(self) -> bool:
        """Whether the game was won (``False`` for lost and unknown)."""
        return self.result == "won"


class FastStrategy(Protocol):
    """A built-in strategy: callable on a Game, and able to play a whole game fast."""

    name: str

    def __call__(self, game: Game, rng: random.Random) -> Move: ...

    def playout(self, fg: FastGame, rng: random.Random, max_moves: int) -> None: ...


# -- shared decision rules (the same code decides on both paths) ------------------------


def uncovers(mask: int, positions: Sequence[int]) -> int:
    """How many pyramid cards become uncovered when ``positions`` leave ``mask``.

    >>> uncovers((1 << 28) - 1 - (1 << 27), [26])  # the right end of the bottom row
    1
    """
    after = mask
    for p in positions:
        after &= ~(1 << p)
    count = 0
    for p in positions:
        for q in COVERS[p]:
            if after >> q & 1 and not after & COVERED_BY_MASK[q]:
                count += 1
    return count


def greedy_key(view: FastGame, move: FastMove) -> tuple[int, ...]:
    """The greedy preference for ``move`` in ``view`` (bigger is better)."""
    kind, cards = move
    if kind in ("pair", "king"):
        positions = [view.pos_of[c] for c in cards if view.pos_of[c] >= 0]
        king = int(any(c >= 48 for c in cards))
        return (3, king, len(positions), uncovers(view.mask, positions))
    if kind == "cell":
        p = view.pos_of[cards[0]]
        gain = uncovers(view.mask, [p]) if p >= 0 else 0
        return (2 if gain else 0, gain)
    return (1, 1) if kind == "draw" else (1, 0)


def greedy_pick(view: FastGame, moves: Sequence[FastMove]) -> FastMove:
    """The greedy move among ``moves``: best :func:`greedy_key`, then first in sorted order."""
    best = moves[0]
    best_key = greedy_key(view, best)
    for move in moves[1:]:
        key = greedy_key(view, move)
        if key > best_key or (key == best_key and move < best):
            best, best_key = move, key
    return best


def _plain_view(game: Game) -> tuple[FastGame, list[FastMove]]:
    return FastGame.from_game(game), [from_move(m) for m in game.legal_moves]


class Random:
    """Uniformly random legal moves: ``rng.choice`` of the sorted legal moves."""

    name = "random"

    def __call__(self, game: Game, rng: random.Random) -> Move:
        return rng.choice(sorted(game.legal_moves))

    def playout(self, fg: FastGame, rng: random.Random, max_moves: int) -> None:
        """Play ``fg`` to the end (or ``max_moves``) on the fast path."""
        while fg.status == PLAYING and len(fg.history) < max_moves:
            fg.play(rng.choice(sorted(fg.legal())))

    def __repr__(self) -> str:
        return "<strategy random>"


class Greedy:
    """The beginner's rule of thumb (see the module docstring)."""

    name = "greedy"

    def pick(self, view: FastGame, moves: Sequence[FastMove]) -> FastMove:
        """Choose among the legal ``moves`` of ``view``."""
        return greedy_pick(view, moves)

    def __call__(self, game: Game, rng: random.Random) -> Move:
        return to_move(self.pick(*_plain_view(game)))

    def playout(self, fg: FastGame, rng: random.Random, max_moves: int) -> None:
        """Play ``fg`` to the end (or ``max_moves``) on the fast path.

        After a draw chosen because nothing else was worth doing, only the newly drawn
        cards can change that, so the loop keeps drawing while they pair with nothing.
        """
        history = fg.history
        while fg.status == PLAYING and len(history) < max_moves:
            move = self.pick(fg, fg.legal())
            fg.play(move)
            if move is not DRAW and move != DRAW:
                continue
            while fg.stock and len(history) < max_moves and not _draw_opened(fg):
                fg.play(DRAW)

    def __repr__(self) -> str:
        return f"<strategy {self.name}>"


def _draw_opened(fg: FastGame) -> bool:
    """Whether the last draw made a removal possible (nothing was possible before it)."""
    rules = fg.rules
    if rules.waste_piles == 1 and not rules.stock_top_available and not rules.cells:
        top = RANK[fg.wastes[0][-1]]
        if top == 13 and rules.kings_alone:
            return True
        if ("pyramid", "waste") not in fg._zones:
            return False
        prank = fg.prank
        return any(prank[r] for r in fg._partners[top])
    return bool(fg.removals())


class Lookahead(Greedy):
    """Greedy, but removals are chosen by searching the visible removal sequences."""

    name = "lookahead"

    def __init__(self, budget: int = 400) -> None:
        self.budget = budget

    def pick(self, view: FastGame, moves: Sequence[FastMove]) -> FastMove:
        """Choose among the legal ``moves``: the start of the best visible removal sequence."""
        removals = [m for m in moves if m[0] in ("pair", "king")]
        if len(removals) < 2:
            return greedy_pick(view, moves)
        search = _Search(view, self.budget)
        best = removals[0]
        best_key: tuple[int, ...] = (-1,)
        for move in sorted(removals):
            key = (*search.after(move), *greedy_key(view, move))
            if key > best_key:
                best, best_key = move, key
        return best


class _Search:
    """Depth-first search over removals among the visible cards, memoised, with a budget."""

    def __init__(self, view: FastGame, budget: int) -> None:
        self.view = view
        self.budget = budget
        self.memo: dict[tuple[Any, ...], tuple[int, int]] = {}
        self.stock_top = view.stock[-1] if view.rules.stock_top_available and view.stock else -1

    def after(self, move: FastMove) -> tuple[int, int]:
        """(pyramid cards, all cards) removed by ``move`` and the best sequence after it."""
        v = self.view
        state = (v.mask, tuple(len(p) for p in v.wastes), tuple(v.cells), self.stock_top)
        nxt = self._apply(state, move)
        pyr = sum(1 for c in move[1] if v.pos_of[c] >= 0)
        more = self._best(nxt)
        return pyr + more[0], len(move[1]) + more[1]

    def _available(self, state: tuple[Any, ...]) -> list[tuple[int, str]]:
        mask, heights, cells, top = state
        v = self.view
        out = [
            (v.pyr[p], "pyramid")
            for p in range(28)
            if mask >> p & 1 and not mask & COVERED_BY_MASK[p]
        ]
        out += [(pile[h - 1], "waste") for pile, h in zip(v.wastes, heights, strict=True) if h]
        out += [(c, "cell") for c in cells if c >= 0]
        if top >= 0:
            out.append((top, "stock"))
        return out

    def _moves(self, state: tuple[Any, ...]) -> list[FastMove]:
        avail = self._available(state)
        v = self.view
        out: list[FastMove] = []
        if v.rules.kings_alone:
            out.extend(("king", (c,)) for c, _ in avail if c >= 48)
        for i, (a, za) in enumerate(avail):
            for b, zb in avail[i + 1 :]:
                if RANK[b] in v._partners[RANK[a]] and (za, zb) in v._zones:
                    out.append(("pair", (min(a, b), max(a, b))))
        return out

    def _apply(self, state: tuple[Any, ...], move: FastMove) -> tuple[Any, ...]:
        mask, heights, cells, top = state
        heights, cells = list(heights), list(cells)
        v = self.view
        for c in move[1]:
            if v.pos_of[c] >= 0 and mask >> v.pos_of[c] & 1:
                mask &= ~(1 << v.pos_of[c])
            elif c == top:
                top = -1
            elif c in cells:
                cells[cells.index(c)] = -1
            else:
                i = next(i for i, p in enumerate(v.wastes) if heights[i] and p[heights[i] - 1] == c)
                heights[i] -= 1
        return (mask, tuple(heights), tuple(cells), top)

    def _best(self, state: tuple[Any, ...]) -> tuple[int, int]:
        if state in self.memo:
            return self.memo[state]
        best = (0, 0)
        if self.budget > 0:
            self.budget -= 1
            for move in self._moves(state):
                pyr = sum(1 for c in move[1] if self.view.pos_of[c] >= 0)
                sub = self._best(self._apply(state, move))
                best = max(best, (pyr + sub[0], len(move[1]) + sub[1]))
        self.memo[state] = best
        return best


class Perfect:
    """The exact solver as a strategy: a deal counts as won when it is winnable.

    As a callable it plays the first move of a winning line (or the greedy move when the
    position cannot be won or the solver runs out of time). Experiments ask it once per
    deal through :meth:`classify`; a deal the solver cannot decide within ``max_seconds``
    is reported as ``"unknown"``, never as lost.
    """

    name = "perfect"

    def __init__(self, max_seconds: float = 10.0, *, verify: bool = False) -> None:
        if not max_seconds > 0:
            raise ValueError(f"max_seconds must be positive, got {max_seconds!r}")
        self.max_seconds = max_seconds
        self.verify = verify

    def __call__(self, game: Game, rng: random.Random) -> Move:
        from pyramid_widget.solver import solve

        solution = solve(game, max_seconds=self.max_seconds)
        if solution.verdict == "winnable" and solution.moves:
            return solution.moves[0]
        return GREEDY(game, rng)

    def classify(self, rules: RuleSet, deal: int | str | Sequence[int]) -> Outcome:
        """Solve ``deal`` under ``rules``; with ``verify`` replay the winning line."""
        from pyramid_widget.solver import solve

        start = time.perf_counter()
        game = Game(rules, deal, clock=_frozen)
        solution = solve(game, max_seconds=self.max_seconds)
        seconds = time.perf_counter() - start
        if solution.verdict == "winnable":
            moves = tuple(solution.moves)
            if self.verify:
                _replay_win(game, moves)
            return Outcome("won", 0, len(moves), seconds, moves)
        if solution.verdict == "unwinnable":
            return Outcome("lost", None, 0, seconds)
        return Outcome("unknown", None, 0, seconds)

    def __repr__(self) -> str:
        return f"<strategy perfect max_seconds={self.max_seconds}>"


def _replay_win(game: Game, moves: Sequence[Move]) -> None:
    for move in moves:
        game.play(move)
    if game.status is not Status.WON:
        raise AssertionError(f"the solver's line does not win deal {game.deal_number}")


def _frozen() -> float:
    return 0.0


RANDOM = Random()
GREEDY = Greedy()
LOOKAHEAD = Lookahead()
PERFECT = Perfect()
STRATEGIES: dict[str, Any] = {s.name: s for s in (RANDOM, GREEDY, LOOKAHEAD, PERFECT)}
"""The built-in strategies by name."""


def get_strategy(strategy: str | Strategy) -> Strategy:
    """Return a strategy from its name, or the callable itself.

    >>> get_strategy("greedy")
    <strategy greedy>
    >>> get_strategy("clever")
    Traceback (most recent call last):
    ...
    ValueError: unknown strategy 'clever'; choose one of random, greedy, lookahead, perfect, or pass a callable (game, rng) -> move
    """
    if isinstance(strategy, str):
        try:
            found: Strategy = STRATEGIES[strategy.strip().lower()]
        except KeyError:
            raise ValueError(
                f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}, "
                "or pass a callable (game, rng) -> move"
            ) from None
        return found
    if not callable(strategy):
        raise ValueError(
            f"a strategy is a name or a callable (game, rng) -> move, got {strategy!r}"
        )
    return strategy


def strategy_name(strategy: str | Strategy) -> str:
    """The name a strategy goes by in tables: ``.name``, else the function's name.

    >>> strategy_name("greedy"), strategy_name(lambda game, rng: None)
    ('greedy', '<lambda>')
    """
    if isinstance(strategy, str):
        return strategy.strip().lower()
    name = getattr(strategy, "name", None) or getattr(strategy, "__name__", None)
    return str(name) if name else repr(strategy)


class StrategyError(ValueError):
    """A strategy returned something that is not a legal move."""


def play_game(
    strategy: str | Strategy,
    rules: str | RuleSet,
    deal: int | str | Sequence[int],
    rng: random.Random | None = None,
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
    fast: bool = True,
    record: bool = False,
) -> Outcome:
    """Play one whole game of ``deal`` under ``rules`` with ``strategy``.

    Built-in strategies run on the fast engine unless ``fast=False``; any other callable
    plays through :class:`~pyramid_widget.game.Game`. ``record`` keeps the moves in
    ``Outcome.history``. Raises :class:`StrategyError` (naming the strategy) when the
    strategy returns an illegal move.

    >>> play_game("greedy", "medium", deal=7).result
    'lost'
    """
    rules = get_rules(rules)
    strat = get_strategy(strategy)
    rng = rng if rng is not None else random.Random(0)
    if isinstance(strat, Perfect):
        return strat.classify(rules, deal)
    start = time.perf_counter()
    if fast and hasattr(strat, "playout"):
        fg = FastGame(rules, coerce_deal(deal)[0])
        strat.playout(fg, rng, max_moves)
        result: Result = (
            "won" if fg.status == WON else "lost" if fg.status != PLAYING else "unknown"
        )
        history = tuple(to_move(m) for m in fg.history) if record else ()
        return Outcome(
            result, fg.cards_left(), len(fg.history), time.perf_counter() - start, history
        )
    game = Game(rules, deal, clock=_frozen)
    while not game.is_over and game.moves < max_moves:
        _play_checked(game, strat, rng)
    status = game.status
    result = "won" if status is Status.WON else "lost" if status is Status.LOST else "unknown"
    history = tuple(game.history) if record else ()
    left = 52 - len(game.discard)
    return Outcome(result, left, game.moves, time.perf_counter() - start, history)


def _play_checked(game: Game, strategy: Strategy, rng: random.Random) -> None:
    move = strategy(game, rng)
    try:
        game.play(move)
    except (IllegalMoveError, ValueError) as exc:
        raise StrategyError(
            f"strategy {strategy_name(strategy)!r} played {move!r} in deal "
            f"{game.deal_number} under {game.rules.name} after {game.moves} moves: {exc}"
        ) from None
