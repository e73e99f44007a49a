"""The exact solver: can this deal (or this position) be won, and how?

:func:`solve` takes an engine :class:`~pyramid_widget.engine.game.Game` at any point of play (a
fresh deal, a game in progress, a hand-made position) and answers for every rule set the
engine accepts: ``winnable`` with a line of engine moves that wins when played from that
position, ``unwinnable`` (proved: every reachable position was searched), or ``unknown``
when the caller's node or time budget ran out first. ``shortest=True`` returns a line
with the fewest moves (draws and redeals count as moves) and says so.

>>> from pyramid_widget.engine.game import Game
>>> solution = solve(Game("medium", deal=7))
>>> solution.verdict, solution.winnable, len(solution.moves) > 0
(<Verdict.WINNABLE: 'winnable'>, True, True)
>>> game = Game("medium", deal=7)
>>> for move in solution.moves:
...     _ = game.play(move)
>>> game.status.value
'won'

How it works: the position is compiled into a few integers (bit masks of card *slots*, a
stock index, the pass number; :mod:`pyramid_widget.solver.model`), whose tuple is the
canonical key of the position in a transposition table. The design is two by two
(:mod:`pyramid_widget.solver.search` has what the four share):

- decide, move by move: :mod:`pyramid_widget.solver.decide_moves`
- decide, removal to removal: :mod:`pyramid_widget.solver.decide_macro`
- shortest, move by move: :mod:`pyramid_widget.solver.shortest_moves`
- shortest, removal to removal: :mod:`pyramid_widget.solver.shortest_macro`

The move-by-move searches use the generator of :mod:`pyramid_widget.solver.moves`, the
removal-to-removal ones the macro moves of :mod:`pyramid_widget.solver.macro` (draw up to
a point, then remove), which apply with one waste pile, one card a draw, no cell and a
pyramid-only win. Decision mode is a depth-first search that expands each key
once; shortest mode first decides (so an unwinnable deal is proved by the fast search) and
then runs A* with an admissible bound, capped by the length of the line already found.

Those four searches are the classic model's: they decide the rule sets of the classic shape
(the seven original presets and Dark Pyramid; see
:func:`~pyramid_widget.solver.general.fits_classic`), whose answers are pinned by a golden
test. Every other rule set of the family (another layout, two decks, reserve piles, overlap
discards, the waste pair, sum-11 or sum-12 pairing, and one waste pile where every card must
go or the stock is dealt three at a time, as in Traditional and King Tut) is decided by
:mod:`pyramid_widget.solver.general`, which reads the layout and the rest from the rule set.
A shortest line for King Tut and Traditional still comes from the classic model's A*.
Face-down cards are known to the solver: ``Solution.knows_hidden`` says so when some were
hidden in the position solved (the line is what a player who knew every card could play).

Every pruning rule, with its stable id, statement, precondition and functions, is in one
table: :data:`pyramid_widget.solver.prune.PRUNING_RULES`; docstrings cite the ids ("rule
``reach``"). Every rule is sound for any position :meth:`Game.from_position
<pyramid_widget.engine.game.Game.from_position>` accepts (gaps anywhere in the pyramid,
cards in cells), which a test checks against a plain exhaustive search.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pyramid_widget.engine.cards import Card
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.errors import ArgumentError
from pyramid_widget.solver.decide_macro import macro_dive
from pyramid_widget.solver.decide_moves import depth_first
from pyramid_widget.solver.general import GeneralModel, engine_search, fits_classic
from pyramid_widget.solver.general import decide as general_decide
from pyramid_widget.solver.general import fewest as general_fewest
from pyramid_widget.solver.model import Model
from pyramid_widget.solver.prune.relax import applies, free_stock_wins
from pyramid_widget.solver.search import Budget, Result, collector_paused
from pyramid_widget.solver.shortest_macro import macro_a_star
from pyramid_widget.solver.shortest_moves import a_star

__all__ = ["FEWEST_NODE_CAP", "Solution", "Verdict", "solve", "solve_deal"]

FEWEST_NODE_CAP = 1_200_000
"""The positions the fewest-moves search may expand when :func:`solve` is given neither
``max_nodes`` nor ``max_seconds``. Its tables grow with every position (``egypt`` deal 26:
1.87 GB when stopped here, after 117 s), so a search that cannot prove a deal's shortest
line soon would otherwise fill a laptop's memory and take the notebook's kernel down with
it. Past the cap the decision line is returned with ``shortest=False``, as when a limit
runs out. Every deal 0-199 of every preset that is proved within 60 s needs fewer (the
most: ``cheops`` 156, 764,258 since rule ``bound-early-partner``, its process at 1.2 GB
then; ``egypt`` 146, 228,228 since rule ``empty-stock``, 114 having needed 837,365 before
it). Of ``egypt``'s six deals unproved within 60 s, five fit (the most: deal 19, 1,016,197
positions in 111 s) and deal 26 does not. A caller who gives either limit gets exactly
that limit."""


class Verdict(str, enum.Enum):
    """The solver's answer."""

    WINNABLE = "winnable"
    UNWINNABLE = "unwinnable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` found.

    ``moves`` are engine moves that win when played from the position given (empty unless
    the verdict is winnable, or when the position is already won); ``nodes`` counts the
    positions searched; ``shortest`` says the line has the fewest moves possible.
    """

    verdict: Verdict
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    shortest: bool = False
    knows_hidden: bool = False

    @property
    def winnable(self) -> bool | None:
        """True or False when decided, None when the budget ran out."""
        if self.verdict is Verdict.UNKNOWN:
            return None
        return self.verdict is Verdict.WINNABLE


def solve(
    game: Game,
    *,
    shortest: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> Solution:
    """Solve the current position of an engine ``Game`` (the game is not changed).

    ``shortest`` asks for a line with the fewest moves; ``max_nodes`` / ``max_seconds`` bound
    the search (the verdict is then ``unknown`` if it was not finished; no more than
    ``max_nodes`` positions are ever searched). In shortest mode a budget that runs out
    after a winning line was found still returns that line, with ``shortest=False``; with
    neither limit given, the fewest-moves search stops after :data:`FEWEST_NODE_CAP`
    positions the same way, so that it cannot fill the memory.
    Raises ``TypeError`` when ``game`` is not a Game and ``ArgumentError`` (a ``ValueError``) for a negative limit
    or a ``max_seconds`` that is not a finite number (``None``, not infinity, means no limit).
    Python's cyclic garbage collector is paused while it searches and turned back on after
    (:func:`~pyramid_widget.solver.search.collector_paused`).

    >>> g = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["4D"])
    >>> solve(g).verdict.value
    'unwinnable'
    >>> g = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "4S"])
    >>> s = solve(g, shortest=True)
    >>> len(s.moves), s.shortest
    (4, True)
    >>> solve(g, max_nodes=1).nodes <= 1
    True
    """
    check_game(game, "solve()")
    _check_limits(max_nodes, max_seconds)
    started = time.perf_counter()
    if game.status is Status.WON:
        solution = Solution(Verdict.WINNABLE, [], 0, time.perf_counter() - started, True)
    elif game.status is Status.LOST:
        solution = Solution(Verdict.UNWINNABLE, [], 0, time.perf_counter() - started, shortest)
    elif max_nodes == 0:
        solution = Solution(Verdict.UNKNOWN, [], 0, time.perf_counter() - started)
    elif not fits_classic(game.rules):
        solution = _solve_general(game, shortest, max_nodes, max_seconds)
    else:
        solution = _solve_classic(game, shortest, max_nodes, max_seconds)
    if getattr(game, "hidden", None):
        return dataclasses.replace(solution, knows_hidden=True)
    return solution


def check_game(game: object, caller: str) -> None:
    """Refuse anything but an engine ``Game`` with one sentence naming ``caller`` (a
    ``TypeError``, as for every entry point of the solver that takes a game), before any
    attribute of it is read.

    >>> check_game("medium", "winning_line()")
    Traceback (most recent call last):
    ...
    TypeError: winning_line() needs a pyramid_widget Game, got str
    """
    if not isinstance(game, Game):
        raise TypeError(f"{caller} needs a pyramid_widget Game, got {type(game).__name__}")


def _solve_classic(
    game: Game, shortest: bool, max_nodes: int | None, max_seconds: float | None
) -> Solution:
    """:func:`solve` for the rule sets of the classic shape (the seven presets' searches),
    from a position in play."""
    started = time.perf_counter()
    model = Model.from_game(game)
    budget = Budget(max_nodes, max_seconds, started)
    with collector_paused():
        result = _decide(model, budget)
        nodes = result.nodes
        if not (shortest and result.found):
            verdict = {True: Verdict.WINNABLE, False: Verdict.UNWINNABLE, None: Verdict.UNKNOWN}
            seconds = time.perf_counter() - started
            return Solution(
                verdict[result.found],
                result.line,
                nodes,
                seconds,
                shortest and result.found is False,
            )
        remaining = _fewest_nodes(max_nodes, max_seconds, nodes)
        best = Result(None, [], 0)
        if remaining is None or remaining > 0:
            best = _fewest(
                model.for_shortest(), Budget(remaining, max_seconds, started), len(result.line)
            )
    seconds = time.perf_counter() - started
    if best.found:
        return Solution(Verdict.WINNABLE, best.line, nodes + best.nodes, seconds, True)
    # the budget ran out before the shortest line was proved: the line found still wins
    return Solution(Verdict.WINNABLE, result.line, nodes + best.nodes, seconds, False)


def _solve_general(
    game: Game, shortest: bool, max_nodes: int | None, max_seconds: float | None
) -> Solution:
    """:func:`solve` for the rest of the family (:mod:`pyramid_widget.solver.general`), from
    a position in play."""
    started = time.perf_counter()
    budget = Budget(max_nodes, max_seconds, started)
    verdict = {True: Verdict.WINNABLE, False: Verdict.UNWINNABLE, None: Verdict.UNKNOWN}
    with collector_paused():
        if game.rules.redeal_order != "first-drawn" and game.rules.waste_piles > 1:
            result = engine_search(game, budget, shortest=shortest)
            found = verdict[result.found]
            seconds = time.perf_counter() - started
            done = shortest and result.found is not None
            return Solution(found, result.line, result.nodes, seconds, done)
        model = GeneralModel.from_game(game)
        result = general_decide(model, budget)
        if not (shortest and result.found):
            seconds = time.perf_counter() - started
            done = shortest and result.found is False
            return Solution(verdict[result.found], result.line, result.nodes, seconds, done)
        remaining = _fewest_nodes(max_nodes, max_seconds, result.nodes)
        best = Result(None, [], 0)
        if remaining is None or remaining > 0:
            again = Budget(remaining, max_seconds, started)
            best = general_fewest(model, again, len(result.line))
    seconds = time.perf_counter() - started
    nodes = result.nodes + best.nodes
    if best.found:
        return Solution(Verdict.WINNABLE, best.line, nodes, seconds, True)
    return Solution(Verdict.WINNABLE, result.line, nodes, seconds, False)


def solve_deal(
    rules: str | RuleSet,
    deal: int | str | Sequence[Card],
    *,
    shortest: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> Solution:
    """Solve a fresh deal (a number, a deal string or 52 cards) under ``rules``.

    Raises :class:`~pyramid_widget.errors.InvalidDealError` or
    :class:`~pyramid_widget.errors.InvalidRulesError` for bad input.

    >>> solve_deal("hard", 7).verdict.value
    'unwinnable'
    """
    return solve(Game(rules, deal), shortest=shortest, max_nodes=max_nodes, max_seconds=max_seconds)


def _decide(model: Model, budget: Budget) -> Result:
    """Decide: first the cheap dead-end tests (rules ``reach`` and ``hall``), then the
    free-stock relaxation (rule ``free-stock``; under sum-13 pairing only: with adjacent
    ranks its game is large and, on deals 0-199 of ``cheops``, it never proved a deal
    lost), then the depth-first search on macro moves where they apply, else move by move."""
    if model.is_win(model.root):
        return Result(True, [], 1)
    if model.is_dead(model.root):
        return Result(False, [], 1)
    if model.rules.pairing == "sum13" and applies(model) and not free_stock_wins(model):
        return Result(False, [], 1)
    if model.macro:
        return macro_dive(model, budget)
    return depth_first(model, budget)


def _fewest_nodes(max_nodes: int | None, max_seconds: float | None, spent: int) -> int | None:
    """The node limit of the fewest-moves search after a decision that searched ``spent``:
    what is left of ``max_nodes``, else :data:`FEWEST_NODE_CAP` when no time limit was
    given either, else none.

    >>> _fewest_nodes(100, None, 30), _fewest_nodes(None, None, 30), _fewest_nodes(None, 5.0, 30)
    (70, 1200000, None)
    """
    if max_nodes is not None:
        return max_nodes - spent
    return FEWEST_NODE_CAP if max_seconds is None else None


def _fewest(model: Model, budget: Budget, ceiling: int) -> Result:
    """Find a shortest line, knowing one of ``ceiling`` moves exists."""
    if model.macro:
        return macro_a_star(model, budget, ceiling)
    return a_star(model, budget, ceiling)


def _check_limits(max_nodes: int | None, max_seconds: float | None) -> None:
    if max_nodes is not None and (
        isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 0
    ):
        raise ArgumentError(f"max_nodes must be a whole number of at least 0, got {max_nodes!r}")
    # NaN passes "< 0" and never compares greater than the clock: a search with no limit at
    # all. Infinity is no limit either (and would lift FEWEST_NODE_CAP): None says that.
    if max_seconds is not None and (
        isinstance(max_seconds, bool)
        or not isinstance(max_seconds, (int, float))
        or (isinstance(max_seconds, float) and not math.isfinite(max_seconds))
        or max_seconds < 0
    ):
        raise ArgumentError(
            "max_seconds must be a finite number of seconds, at least 0 (or None for no "
            f"limit), got {max_seconds!r}"
        )
