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

How it works (details in :mod:`pyramid_widget.solver.model`, ``solver_moves`` and
``solver_search``): the position is compiled into a few integers (bit masks of card
*slots*, a stock index, the pass number), whose tuple is the canonical key of the position
in a transposition table. Decision mode is a depth-first search that expands each key once;
shortest mode first decides (so an unwinnable deal is proved by the fast search) and then
runs A* with an admissible bound, capped by the length of the line already found.

Sound prunings, with the argument for each (the tests check them against a plain search):

1. **A King is removed at once.** Where Kings go alone, a King pairs with nothing (no value
   adds to 13 with 13), so taking it away never removes a partner another card needs; it only
   makes cards available earlier (the card under it in the pyramid or waste). Any winning line
   stays playable after the King is gone sooner, with its own King removal dropped (and, if
   the King was the stock top, its draw dropped), so it is no longer either. Hence the
   generator offers only the King removal, and shortest lines stay shortest.
2. **Cards that can never meet a partner.** Without a free cell, a pyramid card and a card
   it covers (directly or through others) are never available together: the lower card must
   leave the board, and only removal takes a pyramid card away, before the upper one is
   uncovered. Zones the rule set never pairs are ignored too. If a card that must still be
   removed (every pyramid card; every card when all 52 must go; Kings that go alone aside) has
   no partner left in play that it could meet, the position is lost. With a free cell a card
   can step out of the pyramid, so every partner counts.
3. **Counting (Hall's condition).** The pairs of a winning line are disjoint, so the cards
   that must go each need a partner of their own that they could meet (a matching). Under
   sum-13 pairing this is checked per rank class {r, 13 - r}; under adjacent ranks
   (``cheops``) over all cards at once (:func:`pyramid_widget.solver.model.own_partners`).
4. **Free stock.** If the pyramid cannot be cleared even when every stock and waste card
   may be played at any time, it cannot be cleared at all
   (:mod:`pyramid_widget.solver.prune.relax`, with the argument for taking a card of a saturated
   rank class at once); checked before the search under sum-13 pairing, and at every
   position where the stock comes round again or there are several piles or a cell.
5. **Last pass burial.** With no redeal left, a waste card with no partner left stays for
   good, so the cards under it are inert: the search forgets them, and a pyramid card whose
   only partners lie there is lost (:func:`pyramid_widget.solver.macro.buried_under`).
6. **Repeated positions** are searched once (transposition table), so unlimited passes
   cannot loop, and a pass that removed nothing leads back to a position already searched.
7. **No drawing past a removal that must come** (one pile): a King that goes alone, or a
   card whose one partner left is available with it, is removed as soon as both are there;
   a line that draws past it can remove it earlier instead and stays legal and no longer
   (:func:`pyramid_widget.solver.macro.candidates`).
8. **Digging** (one pile, last pass, sum 13): the waste cards a winning line removes are a
   prefix of today's waste from the top, so for some depth the pyramid cards and that prefix
   must all be matched, class by class (:mod:`pyramid_widget.solver.prune.dig`).
9. **Several piles and the cell** have their own tests: burial per pile, a stuck cell, the
   free stock with a cell, a forced order when all 52 must go, forced pairs, and a cell
   move taken only with a next move that uses what it freed
   (:mod:`pyramid_widget.solver.prune.piles`).
10. **Shortest mode keeps a shortest line**: besides the rules above that never lengthen a
    line (1, 7, the forced pairs and cell moves of 9), a King on the stock top is removed,
    never drawn, where the stock top is available and there is no stall rule (drawing it
    costs the same move and only covers the waste; :mod:`pyramid_widget.solver.shortest_macro`).
    Both A* searches re-open a position reached again more cheaply, so their bounds need
    only be admissible (:mod:`pyramid_widget.solver.shortest_macro`,
    :mod:`pyramid_widget.solver.shortest_moves`).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pyramid_widget.engine.cards import Card
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.solver.model import Model
from pyramid_widget.solver.search import Budget, Result, collector_paused, depth_first
from pyramid_widget.solver.shortest_moves import a_star


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

    @property
    def winnable(self) -> bool | None:
        """True or False when decided, None when the budget ran out."""
        if self.verdict is Verdict.UNKNOWN:
            return None
        return self.verdict is Verdict.WINNABLE


def solve(
    game: object,
    *,
    shortest: bool = False,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> Solution:
    """Solve the current position of an engine ``Game`` (the game is not changed).

    ``shortest`` asks for a line with the fewest moves; ``max_nodes`` / ``max_seconds`` bound
    the search (the verdict is then ``unknown`` if it was not finished). Raises
    ``TypeError`` when ``game`` is not a Game and ``ValueError`` for negative limits.
    Python's cyclic garbage collector is paused while it searches and turned back on after
    (:func:`~pyramid_widget.solver.search.collector_paused`).

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["4D"])
    >>> solve(g).verdict.value
    'unwinnable'
    >>> g = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "4S"])
    >>> s = solve(g, shortest=True)
    >>> len(s.moves), s.shortest
    (4, True)
    """
    from pyramid_widget.engine.game import Game

    if not isinstance(game, Game):
        raise TypeError(f"solve() needs a pyramid_widget Game, got {type(game).__name__}")
    _check_limits(max_nodes, max_seconds)
    started = time.perf_counter()
    if game.status is Status.WON:
        return Solution(Verdict.WINNABLE, [], 0, time.perf_counter() - started, True)
    if game.status is Status.LOST:
        return Solution(Verdict.UNWINNABLE, [], 0, time.perf_counter() - started, shortest)
    model = Model.from_game(game)
    budget = Budget(max_nodes, max_seconds, started)
    with collector_paused():
        result = _decide(model, budget)
        nodes = result.nodes
        if shortest and result.found:
            remaining = None if max_nodes is None else max(0, max_nodes - nodes)
            budget = Budget(remaining, max_seconds, started)
            best = _fewest(model.for_shortest(), budget, len(result.line))
            nodes += best.nodes
            result = best if best.found else Result(None, [], nodes)
    seconds = time.perf_counter() - started
    verdict = {True: Verdict.WINNABLE, False: Verdict.UNWINNABLE, None: Verdict.UNKNOWN}
    return Solution(
        verdict[result.found], result.line, nodes, seconds, shortest and result.found is not None
    )


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
    from pyramid_widget.engine.game import Game

    return solve(Game(rules, deal), shortest=shortest, max_nodes=max_nodes, max_seconds=max_seconds)


def _decide(model: Model, budget: Budget) -> Result:
    """Decide: first the cheap dead-end tests, then the free-stock relaxation
    (:mod:`pyramid_widget.solver.prune.relax`; under sum-13 pairing only: with adjacent ranks its
    game is large and, on deals 0-199 of ``cheops``, it never proved a deal lost), then
    depth-first search (on macro moves when the rule set allows them)."""
    from pyramid_widget.solver.prune.relax import applies, free_stock_wins

    if model.is_win(model.root):
        return Result(True, [], 1)
    if model.is_dead(model.root):
        return Result(False, [], 1)
    if model.rules.pairing == "sum13" and applies(model) and not free_stock_wins(model):
        return Result(False, [], 1)
    if model.macro:
        from pyramid_widget.solver.decide_macro import macro_dive

        return macro_dive(model, budget)
    return depth_first(model, budget)


def _fewest(model: Model, budget: Budget, ceiling: int) -> Result:
    """Find a shortest line, knowing one of ``ceiling`` moves exists."""
    if model.macro:
        from pyramid_widget.solver.shortest_macro import macro_a_star

        return macro_a_star(model, budget, ceiling)
    return a_star(model, budget, ceiling)


def _check_limits(max_nodes: int | None, max_seconds: float | None) -> None:
    if max_nodes is not None and (
        isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 0
    ):
        raise ValueError(f"max_nodes must be a whole number of at least 0, got {max_nodes!r}")
    if max_seconds is not None and (
        isinstance(max_seconds, bool)
        or not isinstance(max_seconds, (int, float))
        or max_seconds < 0
    ):
        raise ValueError(f"max_seconds must be a number of at least 0, got {max_seconds!r}")
