"""Strategies that play a whole game: ``random``, ``greedy``, ``lookahead`` and ``perfect``.

A strategy is any callable ``(game, rng) -> move``: it is handed a
:class:`~pyramid_widget.engine.game.Game` that is still being played and a :class:`random.Random`,
and returns a :class:`~pyramid_widget.engine.moves.Move` (or its text, like ``"5H+8C"``). That is all
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

The built-in strategies (:data:`STRATEGIES`) but ``perfect`` decide from the position the
player sees (never a face-down card: the suite changes the hidden cards of Dark Pyramid and
Thirteen positions and checks that no move changes) and play the engine's rules exactly, for
every preset of the family. For speed they also run on the compact
:class:`~pyramid_widget.lab.fastplay.FastGame`; the suite checks that both paths play the same
games move for move.

- ``random``: a uniformly random legal move (``rng.choice`` of the sorted legal moves).
- ``greedy``: the beginner's rule of thumb, :mod:`pyramid_widget.engine.hints` itself (so the
  widget's first-level hint is always greedy's move). Remove a King first; then the pair that
  takes the most pyramid cards (pyramid before waste) and uncovers the most; move a card to
  the free cell only when that uncovers a pyramid card; draw only when nothing else can be
  done; redeal last. Ties go to the first move in sorted order.
- ``lookahead``: Monte Carlo look-ahead. It tries every legal move, finishes the game with
  ``greedy`` on a few guesses of the face-down stock, and plays the move that did best. It
  knows only what a player knows: the stock order only once it has been seen (after the
  first pass), and never the face-down tableau cards (each guess deals the unseen cards,
  taken in card order and shuffled, back to the unseen places).
- ``perfect``: the exact solver; a deal counts as won when it is winnable. It reads every
  card, face-down ones included: an upper bound, not a fair player.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pyramid_widget.engine.deals import coerce_deal
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.hints import choose, preference, uncovers
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import CLASSIC_ZONES, RuleSet, get_rules
from pyramid_widget.errors import ArgumentError, IllegalMoveError, StrategyError
from pyramid_widget.lab.fastplay import (
    DRAW,
    PLAYING,
    RANK,
    REDEAL,
    WON,
    FamilyGame,
    FastGame,
    FastMove,
    classic_shape,
    from_move,
    to_move,
)

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


# -- shared decision rules (the same code decides on both paths) ------------------------


def greedy_key(view: FastGame, move: FastMove) -> tuple[int, ...]:
    """The greedy preference for ``move`` in ``view`` (bigger is better): the engine's
    :func:`~pyramid_widget.engine.hints.preference`, read from the fast game's bits (over
    the rule set's layout on the family path)."""
    if isinstance(view, FamilyGame):
        return preference(move, view.pos_of, view.mask, view.rules.layout)
    return preference(move, view.pos_of, view.mask)


def greedy_pick(view: FastGame, moves: Sequence[FastMove]) -> FastMove:
    """The greedy move among ``moves`` (not empty): the engine's rule of thumb,
    :func:`~pyramid_widget.engine.hints.choose` (best preference, then first in sorted
    order), the same move the widget's hint gives."""
    if isinstance(view, FamilyGame):
        best = choose(moves, view.pos_of, view.mask, view.rules.layout)
    else:
        best = choose(moves, view.pos_of, view.mask)
    if best is None:
        raise StrategyError("greedy was asked to choose among no moves")
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

    def pick(self, view: FastGame, moves: Sequence[FastMove], rng: random.Random) -> FastMove:
        """Choose among the legal ``moves`` of ``view``."""
        return greedy_pick(view, moves)

    def __call__(self, game: Game, rng: random.Random) -> Move:
        view, moves = _plain_view(game)
        return to_move(self.pick(view, moves, rng))

    def playout(self, fg: FastGame, rng: random.Random, max_moves: int) -> None:
        """Play ``fg`` to the end (or ``max_moves``) on the fast path.

        After a draw chosen because nothing else was worth doing, only the newly drawn
        cards can change that, so the loop keeps drawing while they pair with nothing.
        """
        if type(self) is Greedy and _is_classic(fg.rules):
            _classic_greedy_playout(fg, max_moves)
            return
        history = fg.history
        while fg.status == PLAYING and len(history) < max_moves:
            move = self.pick(fg, fg.legal(), rng)
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
    if isinstance(fg, FamilyGame):
        return bool(fg.removals())
    if rules.waste_piles == 1 and not rules.stock_top_available and not rules.cells:
        top = RANK[fg.wastes[0][-1]]
        if top == 13 and rules.kings_alone:
            return True
        if ("pyramid", "waste") not in fg._zones:
            return False
        prank = fg.prank
        return any(prank[r] for r in fg._partners[top])
    return bool(fg.removals())


def _is_classic(rules: RuleSet) -> bool:
    """Classic Pyramid: sum-13 pairs, lone Kings, one waste pile, draw one, no cells (on the
    classic pyramid, one deck, no reserve: :func:`~pyramid_widget.lab.fastplay.classic_shape`)."""
    return (
        classic_shape(rules)
        and rules.pairing == "sum13"
        and rules.kings_alone
        and rules.waste_piles == 1
        and rules.draw_count == 1
        and not rules.cells
        and not rules.stock_top_available
        and rules.pair_zones == CLASSIC_ZONES
    )


def _classic_pick(fg: FastGame) -> FastMove:
    """:func:`greedy_pick` over the legal moves, computed directly for classic rules.

    The hot loop of the benchmarks; the parity tests check it against the engine path and
    against the engine's hint (``tests/engine/test_hints_are_greedy.py``). It ranks as
    :func:`~pyramid_widget.engine.hints.preference` does: Kings outrank pairs, pyramid pairs
    outrank pyramid+waste pairs, then the most cards uncovered, ties to the smallest move.
    """
    pyr, pos_of, mask, free = fg.pyr, fg.pos_of, fg.mask, fg.free
    cards = []
    while free:
        low = free & -free
        cards.append(pyr[low.bit_length() - 1])
        free ^= low
    waste = fg.wastes[0]
    top = waste[-1] if waste else -1
    found: list[tuple[tuple[int, ...], FastMove]] = [
        ((1, uncovers(mask, [pos_of[c]])), ("king", (c,))) for c in cards if c >= 48
    ]
    if top >= 48:
        found.append(((0, 0), ("king", (top,))))
    if not found:
        for i, a in enumerate(cards):
            wanted = 13 - RANK[a]
            for b in cards[i + 1 :]:
                if RANK[b] == wanted:
                    unc = uncovers(mask, [pos_of[a], pos_of[b]])
                    found.append(((2, unc), ("pair", (a, b) if a < b else (b, a))))
    if not found and top >= 0:
        wanted = 13 - RANK[top]
        for a in cards:
            if RANK[a] == wanted:
                move = ("pair", (a, top) if a < top else (top, a))
                found.append(((1, uncovers(mask, [pos_of[a]])), move))
    if found:
        best = max(key for key, _ in found)
        return min(move for key, move in found if key == best)
    return DRAW if fg.stock else REDEAL


def _classic_greedy_playout(fg: FastGame, max_moves: int) -> None:
    """Greedy playout for classic rules, with the draws that change nothing done inline."""
    history, stock, waste, prank, drawn_at = (
        fg.history,
        fg.stock,
        fg.wastes[0],
        fg.prank,
        fg.drawn_at,
    )
    while fg.status == PLAYING and len(history) < max_moves:
        move = _classic_pick(fg)
        if move is not DRAW:
            fg.play(move)
            stock = fg.stock  # a redeal makes a new stock list
            continue
        while True:  # draw until the new waste top pairs or is a King
            card = stock.pop()
            waste.append(card)
            drawn_at[card] = fg.draws
            fg.draws += 1
            history.append(DRAW)
            if not stock:
                fg._judge()
                break
            rank = RANK[card]
            if rank == 13 or prank[13 - rank] or len(history) >= max_moves:
                break


class Lookahead(Greedy):
    """Monte Carlo look-ahead: try every legal move, finish the game greedily on a few guesses
    of the face-down stock, and play the move that did best.

    Only what a player knows is used: the face-up pyramid and waste, and, from the second
    pass on, the stock order (the player saw every card come out in the first pass). On the
    first pass the unseen stock cards are shuffled by ``rng`` for each of ``samples``
    guesses; every move is judged on the same guesses. A won rollout scores 100, a lost one
    minus the cards left; ties go to the greedy move. Kings are removed at once (that is
    never wrong where Kings go alone).
    """

    name = "lookahead"

    def __init__(self, samples: int = 3) -> None:
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ArgumentError(f"samples must be a whole number of at least 1, got {samples!r}")
        self.samples = samples

    def pick(self, view: FastGame, moves: Sequence[FastMove], rng: random.Random) -> FastMove:
        """Choose among the legal ``moves`` of ``view`` by greedy rollouts."""
        if len(moves) == 1:
            return moves[0]
        greedy = greedy_pick(view, moves)
        if greedy[0] == "king":
            return greedy
        if view.hidden():
            guesses = [self._guess_hidden(view, rng) for _ in range(self.samples)]
        else:
            guesses = [(self._guess(view, rng), {}) for _ in range(self.samples)]
        best, best_key = greedy, (-(10**9), False)
        for move in sorted(moves):
            score = sum(_rollout(view, stock, move, rng, placed) for stock, placed in guesses)
            key = (score, move == greedy)
            if key > best_key:
                best, best_key = move, key
        return best

    @staticmethod
    def _guess(view: FastGame, rng: random.Random) -> list[int]:
        stock = view.stock.copy()
        if view.pass_number > 1:
            return stock
        seen = 1 if view.rules.stock_face_up and stock else 0
        hidden = stock[: len(stock) - seen]
        rng.shuffle(hidden)
        return hidden + stock[len(stock) - seen :]

    @staticmethod
    def _guess_hidden(view: FastGame, rng: random.Random) -> tuple[list[int], dict[int, int]]:
        """A guess where some tableau cards are face down: the cards the player has not
        seen (the face-down ones, and on the first pass the unseen stock) are taken in
        card order, shuffled by ``rng`` and dealt back to those places, so the guess depends
        on which cards are unseen, never on where they really are."""
        stock = view.stock.copy()
        places = view.hidden()
        unseen_stock = 0
        if view.pass_number == 1:
            seen = 1 if view.rules.stock_face_up and stock else 0
            unseen_stock = len(stock) - seen
        pool = sorted([view.pyr[p] for p in places] + stock[:unseen_stock])
        rng.shuffle(pool)
        stock[:unseen_stock] = pool[len(places) :]
        return stock, dict(zip(places, pool[: len(places)], strict=True))

    def playout(self, fg: FastGame, rng: random.Random, max_moves: int) -> None:
        """Play ``fg`` to the end (or ``max_moves``) on the fast path."""
        while fg.status == PLAYING and len(fg.history) < max_moves:
            fg.play(self.pick(fg, fg.legal(), rng))

    def __repr__(self) -> str:
        return f"<strategy lookahead samples={self.samples}>"


def _rollout(
    view: FastGame,
    stock: list[int],
    move: FastMove,
    rng: random.Random,
    placed: dict[int, int] | None = None,
) -> int:
    fg = view.copy()
    fg.stock = stock.copy()
    if placed:  # a guess of the face-down cards
        for p in placed:
            fg.pos_of[fg.pyr[p]] = -1
            fg.origin &= ~(1 << fg.pyr[p])
        for p, card in placed.items():
            fg.pyr[p] = card
            fg.pos_of[card] = p
            fg.origin |= 1 << card
    fg.play(move)
    GREEDY.playout(fg, rng, 2000)
    return 100 if fg.status == WON else -fg.cards_left()


def solver_seconds(value: object) -> float:
    """The solver's time limit a deal for ``perfect``: a finite number of seconds above 0.

    NaN and infinity are refused: neither is a limit, and a deal the solver cannot decide
    would then hold the experiment up for ever (the solver itself refuses them too).

    >>> solver_seconds(2.5)
    2.5
    >>> solver_seconds(float("nan"))
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.ArgumentError: max_seconds must be a finite number of seconds above 0, like 10, got nan
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and not math.isfinite(value))  # an int is finite
        or value <= 0
    ):
        raise ArgumentError(
            f"max_seconds must be a finite number of seconds above 0, like 10, got {value!r}"
        )
    return value


class Perfect:
    """The exact solver as a strategy: a deal counts as won when it is winnable.

    It is not a fair player: the solver reads every card, the face-down stock and (in Dark
    Pyramid, Thirteen) the face-down tableau cards too. Its win rate is what a player who
    knew every card could reach, an upper bound for every fair strategy.

    As a callable it plays the first move of a winning line (or the greedy move when the
    position cannot be won or the solver runs out of time). Experiments ask it once per
    deal through :meth:`classify`; a deal the solver cannot decide within ``max_seconds``
    is reported as ``"unknown"``, never as lost.
    """

    name = "perfect"

    def __init__(self, max_seconds: float = 10.0, *, verify: bool = False) -> None:
        self.max_seconds = solver_seconds(max_seconds)
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
    pyramid_widget.errors.ArgumentError: unknown strategy 'clever'; choose one of random, greedy, lookahead, perfect, or pass a callable (game, rng) -> move
    """
    if isinstance(strategy, str):
        try:
            found: Strategy = STRATEGIES[strategy.strip().lower()]
        except KeyError:
            raise ArgumentError(
                f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}, "
                "or pass a callable (game, rng) -> move"
            ) from None
        return found
    if not callable(strategy):
        raise ArgumentError(
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
    plays through :class:`~pyramid_widget.engine.game.Game`. ``record`` keeps the moves in
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
        cards = _deal_cards(rules, deal)
        fg = FastGame(rules, cards)
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
    left = 52 * getattr(rules, "decks", 1) - len(game.discard)
    return Outcome(result, left, game.moves, time.perf_counter() - start, history)


def _deal_cards(rules: RuleSet, deal: int | str | Sequence[int]) -> list[int]:
    """The cards of ``deal`` for ``rules`` (104 for a two-deck game)."""
    decks = getattr(rules, "decks", 1)
    if decks == 1:
        return list(coerce_deal(deal)[0])
    return list(coerce_deal(deal, decks=decks)[0])  # type: ignore[call-arg, unused-ignore]


def _play_checked(game: Game, strategy: Strategy, rng: random.Random) -> None:
    move = strategy(game, rng)
    try:
        game.play(move)
    except (IllegalMoveError, ValueError) as exc:
        error = StrategyError(
            f"strategy {strategy_name(strategy)!r} played {move!r} in deal "
            f"{game.deal_number} under {game.rules.name} after {game.moves} moves: {exc}"
        )
        raise error from None
