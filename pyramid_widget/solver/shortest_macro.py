"""Shortest mode for one waste pile, draw one, no cell: A* over macro moves with a bound that
counts the removals still needed and the moves a line must spend besides.

The rule sets here (easy, medium, hard, relaxed, cheops and compositions like them) use the
removal-to-removal *macro moves* of :mod:`pyramid_widget.solver.macro`; a macro move costs
the draws and redeal it stands for plus one for its removal. The search is A* with the
bound of :func:`extra_bound` (the argument is there), re-opening a position when a cheaper
way to it turns up, so the bound need only be admissible.

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> from pyramid_widget.solver.search import Budget
>>> g = Game.from_position("relaxed", pyramid=[None] * 26 + ["5H", "9C"], stock=["2D", "8D", "4S"])
>>> [str(m) for m in macro_a_star(Model.from_game(g), Budget(None, None)).line]
['draw', '5H+8D', '4S+9C']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations
from operator import itemgetter
from typing import Any

from pyramid_widget.engine.cards import rank
from pyramid_widget.engine.moves import Move
from pyramid_widget.solver.bounds import (
    PairedBound,
    PairTable,
    PassReach,
    last_card,
    lonely_cards,
    under_lonely,
)
from pyramid_widget.solver.macro import (
    MacroMove,
    _macro_move,
    buried,
    candidates,
    macro_line,
)
from pyramid_widget.solver.model import (
    PYRAMID_ALL,
    UNCOVERED,
    Model,
    State,
    normalise,
    own_partners,
    slots_of,
    uncovered,
)
from pyramid_widget.solver.moves import dead_after
from pyramid_widget.solver.prune.relax import FreeStock, applies
from pyramid_widget.solver.search import (
    CHECK_EVERY,
    BucketQueue,
    Budget,
    OutOfBudget,
    Result,
    lower_bound,
)

LOST = 1 << 20
"""What :func:`extra_bound` returns when some pyramid card can never get a partner."""

SPREAD = 2
"""Partial expansion in :func:`macro_a_star`: a child whose estimate is more than this above
the level being expanded is not queued yet; its parent goes back in the queue at that
child's level instead (see the function)."""
AGAIN = 1 << 21
"""Added to a queued bound (always below :data:`LOST`) to mark a parent queued again for
the children it held back."""

Key = tuple[int, int, int]
Link = tuple[Key | None, int, int, int, int]
"""How a position was reached, most cheaply so far: the position before (``None`` for the
root), the removal (a candidate) and the cost so far."""
Groups = tuple[list[tuple[int, int]], list[tuple[int, Callable[[list[int]], tuple[int, ...]]]]]
"""The requirements of :meth:`Tables.extra`: pairs of slots, then the others (see
:meth:`Tables.groups`)."""
Covered = list[tuple[int, tuple[int, ...]]]
"""Per lonely pyramid card that lonely cards cover: its deck partners and theirs (see
:meth:`Tables.covered`)."""
Info = tuple[int, list[int], Groups | None, tuple[int, ...], int, int, Covered, int, int]
"""What :meth:`Tables.pyramid` keeps per pyramid mask."""


def macro_a_star(model: Model, budget: Budget, ceiling: int | None = None) -> Result:
    """The fewest engine moves to a win (draws and redeals count), or ``found=False``.

    A* over macro moves (cost: the draws and redeal a move stands for plus one for the
    removal) with an admissible bound: removals still needed plus :func:`extra_bound`
    (under sum-13 pairing; else :func:`~pyramid_widget.solver.search.lower_bound` plus
    :func:`draws_bound`). The bound is admissible but not always consistent, so a position
    reached again more cheaply is searched again; the first win taken off the queue is then
    a shortest one. The full bound is taken lazily: a position is queued with
    ``max(removals, parent's bound - step)`` (admissible: the parent's bound is at most
    ``step`` plus the child's distance) and gets the full bound when it comes off the
    queue, going back in if that raises it; under sum-13 pairing in two parts
    (:meth:`Tables.first`, then the late partners of :meth:`Tables.later`, which a position
    sent back by the first part gets only if it comes off the queue again: on ``relaxed``
    deals 24, 81, 102, 159, 75, 83 and 52, 98,017 first parts and 60,877 second ones for
    45,712 positions expanded).
    Positions that another queued one reaches by
    draws at no greater cost are skipped (:class:`_Dominance`). The open list is a
    :class:`~pyramid_widget.solver.search.BucketQueue` (lowest ``f``, then highest ``g``,
    then last in): on ``medium`` deal 115, 9.8 s against 10.5 s with a binary heap keyed
    ``(f, -g)``, whose 700,000 pops on a large heap were about a tenth of the time.
    Under sum-13 pairing the dead-end tests
    (:func:`~pyramid_widget.solver.moves.dead_after` unless its cache already knows the
    answer, and :func:`~pyramid_widget.solver.macro.buried` in the last pass) are also put
    off until a position comes off the queue, with the removal that led to it (most
    children never do: on ``cheops`` deal 3, 416,881 pushed for 56,772 taken off). A dead
    position left in the tables meanwhile only skips positions it reaches by draws, which
    are lost as well. Under other pairings they are not run: on ``cheops`` deals 0-199 the
    search expands as many positions on every deal without them as with them (2,812,080 in
    all; what they catch, the bound, which prices a card without a partner left at
    :data:`LOST`, and rule ``hall`` catch as well), and they cost 8% of deal 156.
    Skipping a dead-end test prunes less and nothing else, so the search stays exact.
    The search keeps one table of positions: per position, its best cost so far and the
    removal that reached it that cheaply (``parent``); a position reached again at no
    greater cost is caught by :class:`_Dominance`, which sees every position but the root
    (no move leads back to the root's board: every move removes a card).
    Removals are only tried at their earliest stop, which is also the cheapest. Where the
    stock top is available, a King there is removed, never drawn (:func:`_king_barriers`);
    with such a King ahead in the stock, the removals past it and in the next pass are not
    even listed.
    The dead-end test is cached per rank class (``Model.dead_cache``), and a position whose
    pyramid cannot be cleared even with a free stock (:mod:`.prune.relax`; under sum-13
    pairing, where that test is cheap: under adjacent ranks, measured on ``cheops``, it cost
    about a second a deal and dropped nothing) is never expanded: it has no winning line, so
    no shortest one goes through it (about 17% fewer positions over ``relaxed`` deals
    0-199, the same lengths); under other pairings a position whose cards that must go
    cannot each have a partner of their own is never expanded either (rule ``hall``,
    :class:`_OwnPartners`: ``cheops`` deals 5 and 39 expand 45,332 and 117,433 positions
    instead of 650,260 and 655,213). The test runs once per board, on a position about to be
    expanded (after its full bound, which sends most positions back to the queue first and
    many for good): run on every child instead, it cost more than it saved, and run before
    the full bound it was asked of about twice as many boards for the same positions
    expanded.
    Positions that differ only in which card of a rank lies where are one position (rule
    ``rank-order``, :class:`RankOrder`): each is keyed by its canonical form and the line
    found is renamed onto the real cards (``relaxed`` deals 0-199: 27% fewer positions).
    Partial expansion: a child whose estimate lies more than :data:`SPREAD` above the level
    being expanded is not stored or queued; the parent goes back in the queue at the
    lowest such estimate and, taken off again, queues those up to :data:`SPREAD` above that
    level. The children it held back are kept with it, as they were made, so it need not
    make them again (``waiting``; ``medium`` deals 2 and 3: 23% fewer instructions, the
    same positions; where the listing below leaves some children out, the parent makes
    its children again instead, and the ones already queued are skipped as reached
    before). Every child is so queued before the search takes off anything above its
    estimate, so the first win taken off the queue is still a shortest one. Most children
    lie several levels above their parent and are never needed (the search ends first):
    on ``cheops``, where a position has about 19 children, deals 174, 175 and 99 took 9.2,
    7.9 and 13.3 s against 15.8, 11.9 and 22.0 s with every child queued; elsewhere no
    measurable change. The children that must lie above the cap are not even listed: a
    child costs at least its step plus :func:`_floor` of the parent's pyramid, so the
    stops that pass more stock cards than that allows are left out of
    :func:`~pyramid_widget.solver.macro.candidates` (and the next pass when even the
    redeal costs too much), and the parent comes back one level above the cap, the least
    any of them can be (``cheops`` 174, 175 and 3: 7.8, 6.9 and 0.55 s against 9.4, 8.0
    and 0.75 s). That is done under other pairings than sum 13 only: there the bound's
    per-pyramid entries for the extra pyramids :func:`_floor` asks about cost more than
    the listing saves (``relaxed``, nine deals: 2.29-2.35 s against 2.15 s without it).
    A parent taken off again is not counted again in ``nodes``.
    ``ceiling``: the length of a known winning line (nodes that cannot beat it are dropped).
    """
    if budget.node_limit < 1:
        return Result(None, [], 0)
    root = model.root
    if model.is_dead(root):
        return Result(False, [], 1)
    hi = model.deck_hi
    limited = model.rules.passes is not None
    passes = model.rules.passes if model.rules.passes is not None else 1 << 30
    fl = 1 if model.rules.stall_rule else 0
    limit = ceiling if ceiling is not None else LOST - 1
    bound, cheap, known, split = _bound_functions(model)
    first, later = split if split is not None else (bound, None)
    order = RankOrder(model)
    settle, deck_bits = order.after, ((1 << hi) - 1) & ~PYRAMID_ALL
    twins = order.twins
    rboard, rlo = order.of(root[0], root[1])
    rkey: Key = (rboard, rlo, root[4])
    parent: dict[Key, Link] = {rkey: (None, 0, 0, 0, 0)}
    h0 = bound(rboard, rlo, root[4])
    if h0 > limit:
        return Result(False, [], 1)
    queue: BucketQueue[tuple[Key, int]] = BucketQueue()  # (position, its bound or -1)
    queue.push(h0, 0, (rkey, h0))
    dominance = _Dominance(model)
    dominated, wrap = dominance.dominated, dominance.wrap
    sum13 = model.rules.pairing == "sum13"
    # the dead-end tests (rules reach and hall per rank class, and last-pass-burial) run under
    # sum-13 pairing only: under adjacent ranks they cost 8% of cheops deal 156 and, over
    # cheops deals 0-199, the search expands as many positions on every deal without them.
    # Their answers per rank class remainder are read first in the hot loop.
    dead_cache = model.dead_cache if sum13 else {}
    # the free-stock test: cheap under sum-13 pairing; adjacent ranks make it slow, for nothing
    free = FreeStock(model) if applies(model) and sum13 else None
    freed: dict[int, bool] = {}  # free-stock answers by board
    # under other pairings: the matching of every card that must go to a partner of its own
    # (sum-13 pairing checks it per rank class, in the dead-end test)
    owned = None if sum13 else _OwnPartners(model)
    classes = model.class_masks
    flags = model.flags
    stop_kings = flags.forced_kings & ~PYRAMID_ALL if flags.stock_top and not flags.stall else 0
    seen: dict[int, list[tuple[int, int, int]]] = {}
    if not model.rules.stall_rule:  # under the stall rule the root may not redeal freely
        seen[rboard] = [(root[4], rlo, 0)]
    floors: dict[int, int] = {}  # _floor per pyramid
    # where the removal count is PairedBound's (cheap enough on the extra pyramids _floor asks
    # about; under sum-13 pairing Tables' full entries cost more than the listing saves)
    listing = model.rules.pairing != "sum13" and model.rules.win == "pyramid"
    # a parent queued again for the children it held back: those children, as made
    # (where some are not even listed, it makes them again instead)
    waiting: dict[Key, list[tuple[int, int, int, int, int, int, int]]] = {}
    nodes = 0
    node_limit = budget.node_limit
    try:
        while queue:
            f, g, (key, h) = queue.pop()
            link = parent[key]
            if link[4] < g:
                continue
            board, lo, pno = key
            again = h >= AGAIN  # back for the children it held back
            if again:
                h -= AGAIN
            elif h < 0:  # queued with the cheap bound: the dead-end tests and the full bound
                if h == -1:
                    if sum13:  # (the root is never lazy: it has no removal)
                        bits = link[1]
                        hit = dead_cache.get(board & classes[(bits & -bits).bit_length() - 1])
                        if hit or (hit is None and dead_after(model, board, bits)):
                            continue
                        if pno >= passes and buried(model, board, lo):
                            continue
                    h = first(board, lo, pno)
                    if g + h > f:
                        if g + h <= limit:  # the second part waits till it comes back
                            queue.push(g + h, g, (key, h if later is None else -2 - h))
                        continue
                else:
                    h = -2 - h
                if later is not None:
                    h2 = later(board, lo, pno, h)
                    if h2 > h:
                        h = h2
                        if g + h > f:
                            if g + h <= limit:
                                queue.push(g + h, g, (key, h))
                            continue
            if not again:
                if free is not None:  # only for a position about to be expanded
                    clears = freed.get(board)
                    if clears is None:
                        clears = freed[board] = free.wins(board)
                    if not clears:
                        continue
                elif owned is not None and owned.due() and not owned.paired(board):
                    continue  # rule hall over every card (see _OwnPartners)
                if nodes >= node_limit:
                    raise OutOfBudget
                nodes += 1
                if not board & PYRAMID_ALL:
                    return Result(True, order.line(parent, key), nodes)
                if not nodes % CHECK_EVERY:
                    budget.check_time()
            cap = f + SPREAD  # children above it wait (partial expansion)
            held = limit + 1  # the lowest estimate of a child held back
            if again and not listing:  # the children it held back, as they were made
                kids = waiting.pop(key)
            else:
                kids = []
                state = (board, lo, 0, 0, pno, fl if key != rkey else root[5])
                # a child costs at least its step plus _floor of this pyramid: the moves dear
                # enough to lie above the cap that way are not even listed
                last, cross = None, True
                if listing:
                    pyr = board & PYRAMID_ALL
                    least = floors.get(pyr)
                    if least is None:
                        least = floors[pyr] = _floor(pyr, cheap)
                    last, cross = _reach(board, lo, cap - g - least)
                    if last is not None or (not cross and pno < passes):
                        held = cap + 1  # the cheapest a child left out can be
                deck = board & ~PYRAMID_ALL
                # a move stopping at ``at`` costs the deck cards it passes plus one: in this
                # pass the stock cards before ``at``, ``here - (deck >> at).bit_count()``;
                # in the next one every stock card, the redeal and the deck cards before
                # ``at``, ``there - (deck >> at).bit_count()`` (one count a candidate)
                here = (deck >> lo).bit_count() + 1
                there = here + 1 + deck.bit_count()
                gh = g + h  # pathmax: h - step is admissible for a child (see below)
                kings = deck & stop_kings  # never drawn: see _king_barriers
                near, far = hi, hi  # the last stop allowed in this pass and in the next
                if kings:
                    near, far = _king_barriers(kings, lo, hi)
                    if far < 0 and last is None:  # (stop_kings is 0 where listing is on)
                        # a King ahead: nothing past it, nothing in the next pass, so those
                        # removals are not even listed (they would be dropped below)
                        last, cross = near, False
                for bits, at, crossed in candidates(model, state, last, cross):
                    if crossed:
                        if at > far:
                            continue
                        step = there - (deck >> at).bit_count()
                    else:
                        if at > near:
                            continue
                        step = here - (deck >> at).bit_count()
                    nboard = board & ~bits
                    nlo = at
                    if bits >> at & 1:
                        rest = nboard >> at
                        nlo = at + (rest & -rest).bit_length() - 1 if rest else hi
                    # pathmax: h - step is admissible for the child since h is for the
                    # parent, so its estimate is at least g + h (the removal count needs
                    # only the pyramid, which rule rank-order leaves alone)
                    info = known.get(nboard & PYRAMID_ALL)
                    nf = g + step + (info[0] if info is not None else cheap(nboard))
                    if nf < gh:
                        nf = gh
                    if nf <= limit:
                        kids.append((nf, step, bits, at, crossed, nboard, nlo))
            keep = []  # the children held back again (kept only where nothing is unlisted)
            for kid in kids:
                nf, step, bits, at, crossed, nboard, nlo = kid
                if nf > cap:
                    if nf < held:
                        held = nf
                    keep.append(kid)
                    continue
                ng = g + step
                npno = pno + crossed if limited else 0
                # rule ``rank-order``: a removed deck card's gap moves a card only if the card
                # right above it has a twin in the gap (the first test of RankOrder.after,
                # here without the call), so the full step runs only then (on
                # ``cheops`` and ``relaxed`` about one child in eight, one in thirty); every
                # stop of ``candidates`` is a card's slot or the end, so ``nlo`` needs no
                # normalising
                removed = bits & deck_bits
                while removed:
                    d = removed & -removed
                    removed ^= d
                    above = nboard & -(d << 1)
                    if (
                        above
                        and twins[(above & -above).bit_length() - 1]
                        >> (nboard & (d - 1) & deck_bits).bit_length()
                    ):
                        nboard, nlo = settle(nboard, nlo, bits & deck_bits)
                        break
                # (a position reached before at no greater cost is dominated: every position
                # but the root is in ``seen``, and no move leads back to the root's board)
                entries = seen.get(nboard)
                if entries is not None:
                    # the usual case, one entry in the same pass: _Dominance.dominated's first
                    # test, inline (a call per child was 1% of the instructions on cheops)
                    if len(entries) == 1 and entries[0][0] == npno:
                        _, at0, cost0 = entries[0]
                        if at0 <= nlo:  # reached from there by the draws up to nlo
                            if cost0 + (nboard >> at0 & ((1 << (nlo - at0)) - 1)).bit_count() <= ng:
                                continue
                        elif wrap and dominated(entries, nboard, nlo, npno, ng):
                            continue
                    elif dominated(entries, nboard, nlo, npno, ng):
                        continue
                if dead_cache and dead_cache.get(nboard & classes[(bits & -bits).bit_length() - 1]):
                    continue  # known dead; the other tests wait till it comes off the queue
                if entries is None:
                    seen[nboard] = [(npno, nlo, ng)]
                else:
                    entries.append((npno, nlo, ng))
                nkey = (nboard, nlo, npno)
                parent[nkey] = (key, bits, at, crossed, ng)
                queue.push(nf, ng, (nkey, -1))
            if held <= limit:
                if not listing:
                    waiting[key] = keep
                queue.push(held, g, (key, h + AGAIN))
    except OutOfBudget:
        return Result(None, [], nodes)
    return Result(False, [], nodes)


class _OwnPartners:
    """Rule ``hall`` over every card for the positions :func:`macro_a_star` is about to
    expand, under pairings other than sum 13 (where the dead-end test checks it per rank
    class): a position where the cards that must go cannot each have a partner of their own
    (:func:`~pyramid_widget.solver.model.own_partners`) has no winning line, so no shortest
    one goes through it. Answers are kept by board.

    The matching costs about as much as expanding a position, and how often it fires
    depends on the deal: under ``cheops`` on deal 5, on 18,747 of 61,925 positions (the
    search then expands 45,332 positions instead of 650,260), on deal 156 on 5,326 of
    757,656 (a quarter more time for 1% fewer positions). So it runs on every position
    while it fires on at least one in :data:`RATE`; below that rate it runs on one position
    in :data:`SAMPLE` only, until the samples fire often enough again. Skipping the test
    prunes less and nothing else, so the search stays exact, and the choice depends only on
    counts, so a search expands the same positions every time.
    """

    WINDOW = 2048
    """Positions tested before the rate is first judged, and between judgements."""
    RATE = 50
    """Keep testing every position while at least one test in this many fires."""
    SAMPLE = 16
    """Below that rate, test one position in this many."""

    __slots__ = ("_answers", "_fired", "_model", "_seen", "_skip", "_tested")

    def __init__(self, model: Model) -> None:
        self._model = model
        self._answers: dict[int, bool] = {}
        self._tested = self._fired = 0  # in the current window
        self._seen = 0  # positions asked about
        self._skip = 1  # test one position in this many

    def due(self) -> bool:
        """Whether the next position to expand is to be tested."""
        self._seen += 1
        return self._seen % self._skip == 0

    def paired(self, board: int) -> bool:
        """Whether the cards of ``board`` that must go can each have a partner of their own."""
        answer = self._answers.get(board)
        if answer is None:
            answer = self._answers[board] = own_partners(self._model, board)
        self._tested += 1
        self._fired += not answer
        if self._tested >= self.WINDOW // self._skip:
            self._skip = 1 if self._fired * self.RATE >= self._tested else self.SAMPLE
            self._tested = self._fired = 0
        return answer


def _floor(pyr: int, removals: Callable[[int], int]) -> int:
    """The fewest removals still needed (``removals`` of a pyramid mask) over ``pyr`` and
    every pyramid one macro move can leave: ``pyr`` less one or two uncovered cards (a
    macro move removes one pair or one King; its draws and redeal leave the pyramid as
    it is). So a child of a position with pyramid ``pyr`` reached at cost ``g + step`` has
    an estimate of at least ``g + step + _floor(pyr)``.

    >>> _floor(0b11 << 26, lambda pyr: pyr.bit_count())  # two bottom cards, one each
    0
    """
    unc = slots_of(uncovered(pyr, UNCOVERED))
    best = removals(pyr)
    for a in unc:
        best = min(best, removals(pyr & ~(1 << a)))
    for a, b in combinations(unc, 2):
        best = min(best, removals(pyr & ~(1 << a | 1 << b)))
    return best


def _reach(board: int, lo: int, most: int) -> tuple[int | None, bool]:
    """What :func:`~pyramid_widget.solver.macro.candidates` must list for the macro moves
    of at most ``most`` engine moves from a position: the last stop in this pass (``None``:
    every stop) and whether stops in the next pass (a move there passes the whole stock
    and redeals: at least the stock cards plus two).

    A move stopping at a slot costs the stock cards before that slot plus one, so the stop
    may be at most the slot of the ``most``-th stock card.

    >>> _reach(0b1011 << 28, 28, 2)  # stock cards in slots 28, 29 and 31
    (29, False)
    >>> _reach(0b1011 << 28, 28, 5)
    (None, True)
    """
    stock = board >> lo << lo
    for _ in range(most - 1):  # the stock cards a dearer stop passes first
        stock &= stock - 1
    last = (stock & -stock).bit_length() - 1 if stock else None
    return last, (board >> lo).bit_count() + 2 <= most


def _king_barriers(kings: int, lo: int, hi: int) -> tuple[int, int]:
    """The last stops a macro move may use, in this pass and in the next, when the stock top
    is available and the deck ``kings`` (Kings that go alone and pair with nothing) must
    never be drawn: no crossing while a King is in the stock; else no stop past the first
    King of the next pass. (``-1``: nothing allowed.)

    Soundness: a line that draws such a King ``K`` can remove it instead at that moment,
    from the stock top (one move either way) and then play on unchanged, dropping its later
    moves with ``K`` (draws in later passes, its removal): ``K`` pairs with nothing, so no
    move of the line needed it, and with it gone the waste shows the card under it, which
    only adds moves. That line is no longer and draws one King fewer; repeating, some
    shortest line never draws a King. So while a King is the stock top only the removals
    at this stop are tried (the King's among them): a line that wins without drawing it
    needs no King removal at all, and removing a King that is the stock top at once is not
    the only move, as it once was (a pyramid-only win may leave it in the stock; issue 14).
    Not used under the stall rule, where moving a King's removal to an earlier pass could
    leave a later pass without a removal.

    >>> _king_barriers(1 << 40 | 1 << 30, 35, 52)  # a King ahead at 40, one in the waste
    (40, -1)
    >>> _king_barriers(1 << 30, 35, 52)
    (52, 30)
    """
    ahead = kings >> lo << lo
    if ahead:
        return (ahead & -ahead).bit_length() - 1, -1
    return hi, (kings & -kings).bit_length() - 1


class _Dominance:
    """Skip a position that another one already queued reaches by draws and a redeal at no
    greater cost.

    Soundness: if position ``A`` (cost so far ``g_A``) turns into ``B`` by drawing (and
    redealing) ``c`` times and ``g_A + c <= g_B``, every line from ``B`` can be played from
    ``A`` with those draws in front, at no greater total; and the macro moves of ``A`` cover
    those of ``B`` (its draw closure contains ``B``'s, and a removal that ``B`` makes in the
    next pass ``A`` makes at the same stop a pass earlier, more cheaply, into a position
    that dominates in turn). So a shortest line through ``B`` is matched by one through
    ``A``. Across a redeal with a limited number of passes this is used only without the
    stall rule (there, ``A`` could only redeal if its pass removed something, and a line
    after the redeal would start a pass that has removed nothing, unlike ``B``'s).

    Under unlimited passes the pass is not part of the key, so ``A`` and ``B`` may stand
    anywhere in their passes: ``A`` further into the stock reaches ``B`` by drawing to the
    end, redealing and drawing up to ``B``'s stop (``wrap``). With the stall rule too
    (``easy``): every queued position but the root was reached by a removal in its own
    pass, so ``A`` may redeal. A line from ``B`` is then played from ``A`` after those
    moves, except where it reaches the end of the stock with no removal since ``B``: there
    ``A``'s new pass would have removed nothing and could be stopped by the rule, so
    ``A`` instead draws to the end and redeals at once, reaching the position that line
    reaches after its redeal (the same cards, a new pass with nothing removed) for fewer
    moves than ``B`` spent before it. So some shortest line is still matched from ``A``.
    On ``easy``'s winnable deals 0-59: 8% fewer positions, the same lengths.
    """

    def __init__(self, model: Model) -> None:
        self.cross = model.rules.passes is not None and not model.rules.stall_rule
        self.wrap = model.rules.passes is None

    def dominated(
        self, entries: list[tuple[int, int, int]], board: int, lo: int, pno: int, g: int
    ) -> bool:
        """Whether an entry ``(pass, stock index, cost)`` for ``board`` dominates."""
        deck = board & ~PYRAMID_ALL  # (the deck has no slots below start or from hi on)
        for p, at, cost in entries:
            if p == pno and at <= lo:  # the draws from at to lo
                if cost + (deck >> at & ((1 << (lo - at)) - 1)).bit_count() <= g:
                    return True
            elif (  # the draws to the end, the redeal and the draws up to lo
                (p == pno and self.wrap) or (p == pno - 1 and self.cross)
            ) and cost + (deck >> at).bit_count() + 1 + (deck & ((1 << lo) - 1)).bit_count() <= g:
                return True
        return False


def _bound_functions(
    model: Model,
) -> tuple[
    Callable[[int, int, int], int],
    Callable[[int], int],
    Mapping[int, tuple[Any, ...]],
    tuple[Callable[[int, int, int], int], Callable[[int, int, int, int], int]] | None,
]:
    """``bound(board, lo, pno)``: removals still needed plus :func:`extra_bound`;
    ``cheap(board)``: a quicker admissible bound (removals only); the per-pyramid cache
    whose entries start with ``cheap``'s answer (looked up inline in the hot loop); and,
    where the bound comes in two parts, ``(first, later)``: ``first(board, lo, pno)`` and
    ``later(board, lo, pno, first's answer)``, which is ``bound``."""
    if model.rules.pairing == "sum13" and model.rules.win == "pyramid":
        tables = Tables(model)
        return tables.bound, tables.removals, tables.cache, (tables.first, tables.later)
    if model.rules.win == "pyramid":
        paired = PairedBound(model)
        return paired.bound, paired.removals, paired.cache, None

    def plain(board: int, lo: int, pno: int) -> int:
        state = (board, lo, 0, 0, pno, 0)
        return lower_bound(model, state) + draws_bound(model, board, lo)

    def cheap(board: int) -> int:
        return lower_bound(model, (board, 0, 0, 0, 0, 0))

    return plain, cheap, {}, None


class Tables:
    """Per-model tables for :func:`extra_bound` (ranks of the deck slots and so on)."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.pair_table = PairTable(model)
        """The most pyramid pairs per rank class (:class:`~.bounds.PairTable`)."""
        self.joint = PairTable(model, classes=False)
        """The most pyramid pairs of all classes together (at most their sum)."""
        self.rank = model.ranks
        self.masks = model.rank_masks
        self.top = model.rules.stock_top_available
        self.passes = model.rules.passes
        self.lo, self.hi = model.deck_lo, model.deck_hi
        self.lone = model.flags.lone_kings
        """The Kings that go alone."""
        self.shared = model.flags.stock_waste
        """Whether the stock top pairs with the waste top (one move can then take a card of
        the stock and one of the waste)."""
        self.cache: dict[int, Info] = {}
        self.group_cache: dict[frozenset[tuple[int, int]], Groups | None] = {}
        """:meth:`groups` per set of requirements."""
        self.covered_cache: dict[int, Covered] = {}
        """:meth:`covered` per mask of lonely cards."""
        self.before = [0] * self.hi
        """Scratch for :meth:`costs` (each call writes the slots it reads)."""
        self.stock_cache: dict[int, tuple[list[int], int, list[int]]] = {}
        """:meth:`stock_walk` per pyramid and stock (one mask: their slots never overlap)."""
        self.rest_cache: dict[tuple[int, int], tuple[int, list[int]]] = {}
        """:meth:`rest_walk` per pyramid and stock (one mask) and cards that may be exposed."""
        self.reach = PassReach(model)
        self.late_price = [0] * self.hi
        self.seen = [0] * self.hi
        """Scratch for :meth:`late` (each call writes the slots it reads)."""
        self.order = self.reach.order
        """The slots of a deck mask, lowest first (:meth:`.bounds.PassReach.order`, whose
        cache this shares), for the walks of :meth:`costs`, :meth:`stock_walk` and
        :meth:`late`."""

    def bound(self, board: int, lo: int, pno: int) -> int:
        """Removals still needed plus the extra moves (see :func:`extra_bound`)."""
        return self.later(board, lo, pno, self.first(board, lo, pno))

    def first(self, board: int, lo: int, pno: int) -> int:
        """:meth:`bound` but for the late partners (:meth:`later`)."""
        info = self.info(board & PYRAMID_ALL)
        extra = self.extra(board, lo, pno, info)
        extra = extra if extra > info[4] else info[4]
        if info[6] and extra < LOST:
            extra += self.redrawn(board, lo, info[6])
        return info[0] + extra

    def later(self, board: int, lo: int, pno: int, bound: int) -> int:
        """:meth:`bound`, given :meth:`first`'s answer ``bound``: raised to the removals
        plus the moves :meth:`late` finds, when more (the search takes this part only for
        positions that come off its queue with the first part)."""
        info = self.info(board & PYRAMID_ALL)
        if not info[8] or bound >= LOST:
            return bound
        late = info[0] + self.late(board, lo, pno, info)
        return late if late > bound else bound

    def removals(self, board: int) -> int:
        """The removals still needed (the first entry of :meth:`pyramid`), cached per pyramid."""
        return self.info(board & PYRAMID_ALL)[0]

    def info(self, pyr: int) -> Info:
        """:meth:`pyramid` of the pyramid mask ``pyr``, cached."""
        info = self.cache.get(pyr)
        if info is None:
            info = self.cache[pyr] = self.pyramid(pyr)
        return info

    def pyramid(self, pyr: int) -> Info:
        """``(removals, base, groups, alone, ...)`` for the pyramid mask ``pyr``: the
        removal bound, the offset of each rank into :data:`EXCESS`, the deck cards that
        must be played with pyramid cards and the partners (:attr:`Model.needs`) of each
        pyramid card that must go but meets no pyramid card that could partner it (see
        :meth:`groups`)."""
        masks, needs = self.masks, self.model.needs
        best = self.pair_table.best
        counts = [(pyr & m).bit_count() for m in masks]
        removals = counts[13]
        base = [0] * 14
        base[13] = counts[13] * 625  # Kings: no partner rank, no pairs
        wanted = []
        deck = sum(masks[1:]) & ~PYRAMID_ALL
        together = 0  # the pairs of the classes, each on its own
        for r in range(1, 7):
            m = 13 - r
            pairs = best(pyr & (masks[r] | masks[m]))
            together += pairs
            removals += counts[r] + counts[m] - pairs
            base[r] = ((counts[r] * 5 + counts[m]) * 5 + pairs) * 25
            base[m] = ((counts[m] * 5 + counts[r]) * 5 + pairs) * 25
            if counts[r] > pairs:
                wanted.append((counts[r] - pairs, masks[m] & deck))
            if counts[m] > pairs:
                wanted.append((counts[m] - pairs, masks[r] & deck))
        lonely = lonely_cards(self.model, pyr)
        for slot in slots_of(lonely):
            wanted.append((1, needs[slot] & deck))
        delta = together - self.joint.pairs(pyr) if together > 1 else 0
        last = last_card(self.model, pyr)
        targets = 0  # every deck card some requirement may pick
        for _, slots in wanted:
            targets |= slots
        covered = self.covered(lonely)
        alone = tuple(needs[s] for s in slots_of(lonely))
        needed = frozenset(wanted)  # (many pyramids share their requirements)
        if needed in self.group_cache:
            groups = self.group_cache[needed]
        else:
            groups = self.group_cache[needed] = self.groups(wanted)
        return removals, base, groups, alone, delta, last, covered, targets, lonely

    def covered(self, lonely: int) -> Covered:
        """For :meth:`redrawn`: each lonely pyramid card (see :meth:`pyramid`) that a lonely
        card covers, as its deck partners and the deck partners of each lonely card
        covering it (only where the stock top is available)."""
        if not self.top:
            return []
        hit = self.covered_cache.get(lonely)
        if hit is None:
            hit = self.covered_cache[lonely] = under_lonely(self.model, lonely, covered=True)
        return hit

    @staticmethod
    def redrawn(board: int, lo: int, covered: Covered) -> int:
        """The lonely pyramid cards whose partner must be drawn before it is played: every
        partner of the card and of some lonely card covering it is in the stock, and all
        of the covering card's come after all of the card's (see :func:`extra_bound`,
        "Drawn partners")."""
        off = board & ((1 << lo) - 1)  # the cards out of the stock (the masks are deck cards)
        count = 0
        for mine, above in covered:
            mine &= board
            if not mine or mine & off:
                continue
            last = mine.bit_length()
            for theirs in above:
                theirs &= board
                if theirs and not theirs & off and (theirs & -theirs).bit_length() > last:
                    count += 1
                    break
        return count

    @staticmethod
    def groups(wanted: list[tuple[int, int]]) -> Groups | None:
        """The tests of :meth:`extra` for the requirements ``(e, slots)``: the ``e``-th
        cheapest deck card among ``slots`` must be played (``e = 1`` for a pyramid card
        whose only partners are the deck cards ``slots``): ``(pairs, others)``, a
        requirement ``e = 1`` on one or two slots as those slots in ``pairs`` (most are;
        :meth:`extra` reads those without a call), the others as ``(e, get)`` with ``get``
        picking the costs of ``slots`` from :meth:`costs`' list. ``None`` when some
        requirement can never be met (fewer than ``e`` such deck cards in the whole deck).
        A requirement whose answer is never above another's is left out: the ``e``-th
        cheapest of a set is at most the ``e'``-th cheapest of a subset for ``e' >= e``."""
        kept = Tables.kept(wanted)
        if kept is None:
            return None
        out: Groups = ([], [])
        for e, slots in kept:
            picks = slots_of(slots)
            if len(picks) == 1:
                picks = [picks[0], picks[0]]  # one slot (so e = 1): a pair of it
            if e == 1 and len(picks) == 2:
                out[0].append((picks[0], picks[1]))
            else:
                out[1].append((e, itemgetter(*picks)))
        return out

    @staticmethod
    def kept(wanted: list[tuple[int, int]]) -> list[tuple[int, int]] | None:
        """The requirements ``(e, slots)`` :meth:`groups` keeps, as they are (``None`` when
        one can never be met).

        >>> Tables.kept([(1, 0b110), (1, 0b010), (2, 0b110)])
        [(2, 6), (1, 2)]
        """
        kept: list[tuple[int, int]] = []
        for e, slots in sorted(set(wanted), key=lambda w: (-w[0], w[1].bit_count())):
            if slots.bit_count() < e:
                return None
            if not any(e2 >= e and not s2 & ~slots for e2, s2 in kept):
                kept.append((e, slots))
        return kept

    def extra(self, board: int, lo: int, pno: int, info: Info) -> int:
        """See :func:`extra_bound`; ``info`` is :meth:`pyramid` of the board."""
        # the dearest card that must be played: the allowance's, and a partner of each
        # pyramid card whose every partner that could meet it is a deck card (one with none
        # left makes the position lost: its partners cost LOST)
        drawn = 0 if self.top else self.drawn(board, lo, info[3])
        groups = info[2]
        if groups is None:
            return LOST
        pairs, rest = groups
        if not pairs and not rest:
            return drawn
        costs = self.costs(board, lo, pno, info[1], info[5], info[7])
        worst = drawn
        for a, b in pairs:  # the cheaper of two (most requirements: inline, no calls)
            c = costs[a]
            d = costs[b]
            if d < c:
                c = d
            if c > worst:
                worst = c
        for e, get in rest:
            c = min(get(costs)) if e == 1 else sorted(get(costs))[e - 1]
            if c > worst:
                worst = c
        return worst

    def late(self, board: int, lo: int, pno: int, info: Info) -> int:
        """The extra moves of the lonely pyramid cards (see :meth:`pyramid`) that cannot be
        uncovered before this pass ends (:class:`~.bounds.PassReach`): each goes with a
        deck partner in a later pass, so the line runs out the stock, redeals and, in the
        next pass, reaches that partner (see :func:`extra_bound`, "Late partners");
        :data:`LOST` when no redeal is left, 0 when every lonely card may be uncovered."""
        late, leaving, (gone, exposed, within) = self.reach.late(board, lo, info[8])
        if not late:
            return 0
        if self.passes is not None and pno >= self.passes:
            return LOST
        pyr = board & PYRAMID_ALL
        stock = board >> lo << lo
        if self.top:  # the rest of this pass: a card no pyramid card may go with is a move
            acc, at = self.rest_walk(pyr, stock, info[1], exposed)
        else:  # every stock card costs its draw already
            _, acc, at = self.walked(pyr, stock, info[1])
        at = at[:]
        needs, ranks, price, top = self.model.needs, self.rank, self.late_price, self.top
        lone = self.lone
        lonely = []  # each late card and its deck partners
        wanted = 0
        rest = late
        while rest:
            low = rest & -rest
            rest ^= low
            mates = needs[low.bit_length() - 1] & board  # deck cards only: the card is lonely
            lonely.append((low, mates))
            wanted |= mates
        if not top:
            acc += 1  # the partner's own draw
        deck = board & ~PYRAMID_ALL & ((1 << wanted.bit_length()) - 1)
        reach = self.reach
        rank_bit = reach.rank_bit
        seen = self.seen
        order = self.order(deck)
        for s in order:  # the next pass: every deck card in order, the waste's first
            k = ranks[s]
            i = at[k]
            bit = rank_bit[s]
            if top and not within & bit:  # in the relaxed game, as it comes up
                gone, exposed = reach.add(pyr, within, bit, gone, exposed)
                within |= bit
            if wanted >> s & 1:
                price[s] = acc + 1 + OWN[i]  # + 1: the redeal
                seen[s] = exposed
            if leaving >> s & 1:  # it may be gone by then: it costs nothing here
                continue
            if not top:
                acc += 1  # drawn, whatever it goes with later
            elif (
                (not needs[s] & exposed and not lone >> s & 1)  # nothing to go with yet
                or i // 5 % 5 == 4  # passed four times (stock cards pass twice)
            ):
                acc += 1  # a move, and none of the allowance
            else:
                acc += STEP[i]
                at[k] = i + 5
                at[13 - k] += 1
        worst = 0
        slots_in = self.order
        for card, mates in lonely:
            best = LOST
            for sd in slots_in(mates):
                c = price[sd] + (1 if top and not seen[sd] & card else 0)
                if c < best:
                    best = c
            if best > worst:
                worst = best
        return worst

    def rest_walk(
        self, pyr: int, stock: int, base: list[int], exposed: int
    ) -> tuple[int, list[int]]:
        """For :meth:`late`, where the stock top is available: the moves spent passing the
        whole ``stock`` before the redeal and the excess table indices after it, where a
        stock card none of whose pyramid partners is in ``exposed`` (every pyramid card that
        may be uncovered before this pass ends) costs a move and none of the allowance
        (rule ``bound-rest-of-pass``, see :func:`extra_bound`); cached per pyramid, stock
        and ``exposed``.

        >>> from pyramid_widget.engine.game import Game
        >>> # the 5H (slot 20) cannot be uncovered before the redeal (the 4S its 9C needs
        >>> # lies under a JD with no partner left), so the 8D of the stock, whose only
        >>> # pyramid partner it is, leaves the stock by a move of its own; the AD may go
        >>> # with the QH (the stock walk alone lets both pass within the allowance)
        >>> g = Game.from_position(
        ...     "relaxed", pyramid=[None] * 20 + ["5H"] + [None] * 5 + ["QH", "9C"],
        ...     stock=["AD", "8D"], wastes=[["8C", "4S", "JD"]])
        >>> model = Model.from_game(g).for_shortest()
        >>> tables, board, lo = Tables(model), model.root[0], model.root[1]
        >>> pyr, stock = board & PYRAMID_ALL, board >> lo << lo
        >>> _, _, (_, exposed, _) = tables.reach.late(board, lo, 1 << 20)
        >>> base = tables.info(pyr)[1]
        >>> tables.rest_walk(pyr, stock, base, exposed)[0], tables.walked(pyr, stock, base)[1]
        (1, 0)
        """
        key = (pyr | stock, exposed)
        hit = self.rest_cache.get(key)
        if hit is not None:
            return hit
        ranks, needs, lone = self.rank, self.model.needs, self.lone
        at = base[:]
        acc = 0
        for s in self.order(stock):
            if not needs[s] & exposed and not lone >> s & 1:
                acc += 1  # a draw, or a removal with a deck card: a move either way
                continue
            k = ranks[s]
            i = at[k]
            acc += STEP[i]
            at[k] = i + 5
            at[13 - k] += 1
        hit = self.rest_cache[key] = (acc, at)
        return hit

    @staticmethod
    def drawn(board: int, lo: int, alone: tuple[int, ...]) -> int:
        """Without stock top play: the pyramid cards whose partners are ``alone`` (one mask
        a card) and whose every partner is in the stock each need their own partner drawn
        (see :func:`draws_bound`).

        >>> Tables.drawn(0b1111_0000, 6, (0b1100_0000, 0b0011_0000, 0b1000_0001))
        2
        """
        before = board & ((1 << lo) - 1)  # the cards not in the stock
        count = 0
        for mates in alone:
            if not mates & before:
                count += 1
        return count

    def walked(self, pyr: int, stock: int, base: list[int]) -> tuple[list[int], int, list[int]]:
        """:meth:`stock_walk` of ``stock`` under the pyramid mask ``pyr``, cached per
        ``pyr | stock`` (one mask: pyramid slots < 28 <= the stock's, so they never
        overlap)."""
        hit = self.stock_cache.get(pyr | stock)
        if hit is None:
            hit = self.stock_cache[pyr | stock] = self.stock_walk(stock, base)
        return hit

    def stock_walk(self, stock: int, base: list[int]) -> tuple[list[int], int, list[int]]:
        """The stock part of :meth:`costs` (it depends only on the pyramid and the stock,
        so it is cached per pair): the costs of the stock cards in a list indexed by slot
        (:data:`LOST` elsewhere), the moves spent passing the whole stock and the excess
        table indices after it."""
        ranks = self.rank
        out = [LOST] * self.hi
        at = base[:]
        acc = 0
        order = self.order(stock)
        if self.top:
            for s in order:  # this pass: the stock from its top
                k = ranks[s]
                i = at[k]
                out[s] = acc + OWN[i]
                acc += STEP[i]
                at[k] = i + 5
                at[13 - k] += 1
        else:
            for s in order:  # a stock card is drawn before it is played
                out[s] = acc + 1 + OWN[base[ranks[s]]]
                acc += 1
        return out, acc, at

    def costs(
        self, board: int, lo: int, pno: int, base: list[int], last: int = 0, targets: int = -1
    ) -> list[int]:
        """For each deck card on the board, the fewest extra moves spent before it is
        played with a pyramid card, counting its own (see :func:`extra_bound`); indexed by
        slot, :data:`LOST` for slots not on the board. ``at[k]`` is the index into the
        excess tables for rank ``k`` (:func:`_excess_tables`) with the cards passed so far.

        A waste card is priced both ways, from the top of the waste and after a redeal; the
        walk after the redeal (bottom up) stops where it can no longer win: both walks only
        add (:data:`STEP` is 0 or 1, :data:`OWN` too), so once its total so far is above the
        top-down walk's total before this card, every card from here up is cheaper from the
        top. Without stock top play each card of the next pass before the priced one costs
        its draw (see :func:`extra_bound`). ``last``: the pyramid card every other one covers (:func:`.bounds.last_card`),
        if any: a waste card whose only partner left is that one stays till the redeal
        as far as the cards under it go. ``targets``: the only slots whose costs are read
        (default all); the waste is walked from its top down to the lowest of them only (the
        walk after the redeal then passes the cards under it without the early stop, which
        changes no target's cost), and not at all when none is in the waste."""
        ranks = self.rank
        stock = board >> lo << lo
        pyr = board & PYRAMID_ALL
        pyr_stock = pyr | stock  # pyramid slots < 28 <= lo: no overlap
        first, acc, after = self.walked(pyr, stock, base)
        out = first[:]
        waste = board & ~PYRAMID_ALL & ((1 << lo) - 1)
        wanted = waste & targets
        if not wanted:
            return out
        at = base[:]
        before = self.before  # the top-down walk's total before each waste card
        total = 0
        floor = wanted & -wanted  # the lowest target in the waste
        order = self.order(waste)
        # the waste cards below ``edge`` are not walked from the top (below the lowest
        # target, or under a stuck card): no early stop there
        edge = floor.bit_length() - 1
        needs, lone, live = self.model.needs, self.lone, pyr_stock & ~last
        for s in reversed(order):  # the waste from its top, each card above removed first
            k = ranks[s]
            i = at[k]
            before[s] = total
            out[s] = total + OWN[i]
            if not needs[s] & live and not lone >> s & 1:  # stuck till the redeal
                edge = s  # so the cards under it are reached only after one
                break
            total += STEP[i]
            at[k] = i + 5
            at[13 - k] += 1
            if s == edge:  # the lowest target: done
                break
        if self.passes is not None and pno >= self.passes:
            return out
        top = self.top
        if not top:
            acc += 1  # each card's own draw (the redeal's move is the 1 added in ``here``)
        shared = stock if self.shared else 0
        partners = self.model.partners
        at = after[:]
        for s in order:  # the next pass (after the redeal), up to where this one began
            if s >= edge and acc >= before[s]:  # acc + 1 (the redeal) > the top-down total
                break
            k = ranks[s]
            i = at[k]
            here = acc + 1 + OWN[i]
            if here < out[s]:
                out[s] = here
            if not top:  # drawn, whatever it goes with later: a move of its own
                acc += 1
            elif not partners[s] & shared:  # else it may go with a stock card at once
                acc += STEP[i]
                at[k] = i + 5
                at[13 - k] += 1
        return out


def _excess(pk: int, pm: int, pairs: int, uk: int, um: int, dk: int) -> int:
    """The fewest moves, beyond the removal bound, that passing ``uk`` and ``um`` deck cards
    of ranks ``k`` and ``13 - k`` costs, where the pyramid holds ``pk`` and ``pm`` of them
    and at most ``pairs`` pyramid pairs among them can meet; ``dk`` = 1 when a deck card of
    rank ``k`` is also played with a pyramid card (the target); see :func:`extra_bound`."""
    zk = max(0, min(uk, pm - dk))  # deck cards of rank k pair with pyramid 13 - k
    zm = max(0, min(um, pk))
    return uk - zk + um - zm + max(zk + dk - (pm - pairs), zm - (pk - pairs), 0)


def _excess_tables() -> tuple[list[int], list[int]]:
    """:func:`_excess` at ``(((pk * 5 + pm) * 5 + pairs) * 5 + uk) * 5 + um``: without a
    target, and with a deck card of rank ``k`` as the target. (Kings use ``pm = 0``: each
    costs one.)"""
    plain, target = [], []
    for pk in range(5):
        for pm in range(5):
            for pairs in range(5):
                for uk in range(5):
                    for um in range(5):
                        plain.append(_excess(pk, pm, pairs, uk, um, 0))
                        target.append(_excess(pk, pm, pairs, uk, um, 1))
    return plain, target


EXCESS, TARGET = _excess_tables()
OWN = [t - e for t, e in zip(TARGET, EXCESS, strict=True)]
"""What a deck card played with a pyramid card costs beyond the cards passed before it."""
STEP = [EXCESS[i + 5] - EXCESS[i] if i + 5 < len(EXCESS) else 1 for i in range(len(EXCESS))]
"""What passing one more deck card of the rank costs (never used at the table's end)."""


def extra_bound(model: Model, board: int, lo: int, pno: int) -> int:
    """A lower bound on the moves still needed beyond the removal bound
    (:meth:`Tables.removals`), for sum-13 pairing and a pyramid-only win (0 otherwise).

    The removal bound. A non-King pyramid card leaves in a move of its own unless it goes
    with another pyramid card it can meet (not one covering it, see
    :func:`~pyramid_widget.solver.model.needs_mask`); such pairs stay inside each rank class
    {r, 13 - r}. With ``a`` and ``b`` pyramid cards of ranks ``r`` and ``13 - r`` and ``M``
    the most pairs among them that some clearing order of the pyramid can make
    (:class:`~pyramid_widget.solver.bounds.PairTable`, never more than the largest matching),
    the class takes at least ``a + b - M`` moves; pyramid Kings one each. This is at least
    the class maximum of :func:`~pyramid_widget.solver.search.lower_bound` (``M <= min(a, b)``).

    The extra moves. If a line makes ``x`` pyramid pairs in the class, ``y1 = a - x`` deck
    cards of rank ``13 - r`` and ``y2 = b - x`` of rank ``r`` go with pyramid cards, and the
    class takes ``a + b - x`` moves: ``M - x = y1 - (a - M) = y2 - (b - M)`` more than the
    removal bound. So deck cards played with pyramid cards cost extra moves beyond an
    *allowance* of ``a - M`` of rank ``13 - r`` and ``b - M`` of rank ``r`` (at most ``b`` and
    ``a`` of them can be played so at all), and every other move (a draw, a redeal, a deck
    card removed alone or with another deck card) is extra too.

    Which deck cards must be played: the allowance itself (``a - M`` deck cards of rank
    ``13 - r``, taken at their cheapest), and a partner of each pyramid card whose only
    partners that could meet it are deck cards. Before a deck card ``d`` is played: if ``d``
    is in the stock, every stock card before it was drawn or removed (from the stock top
    where the rule set allows it, else after being drawn), and ``d`` itself drawn unless the
    stock top is available; if ``d`` is in the waste, either every waste card above it was
    removed, or the stock was run out, the waste redealt (one move) and every card before
    ``d`` in the new pass drawn or removed. Each of those cards costs a move of its own (a
    draw; or a removal, which takes at most one card of the stock and one of the waste, so
    a waste card that may leave with a stock card of this pass is not counted in the new
    pass), except the ones played with pyramid cards, which cost only what the allowance
    formula above says (:func:`_excess`, with ``d`` itself counted as played). Without
    stock top play there is no such exception in the new pass: a stock card leaves the
    stock only by a draw, so every card before ``d`` in it costs its draw, whatever it is
    played with later (the allowance then goes to no card passed; leaving it unused only
    lowers the bound). The bound
    is the dearest card that must be played, so it never exceeds what a winning line spends.

    Stuck waste cards. A waste card that is no King going alone and has no partner left in
    the pyramid or the stock (where the stock top pairs with the waste top) stays on the
    waste till the next redeal (waste cards never pair with each other: one pile has one
    top), so the cards under it are reached after a redeal only. The same holds when its
    only partner left is the last card (:func:`~pyramid_widget.solver.bounds.last_card`):
    it can then leave only in the winning move, after which nothing under it is of use.

    Classes together. A pair made in one class can rule out one in another (each needs
    a card of the other gone first), so the most pairs of all classes together ``P``
    (:class:`~pyramid_widget.solver.bounds.PairTable` over the whole pyramid) can be below
    the sum of the class maxima by ``D``; the classes then take at least ``D`` moves beyond
    the removal bound, whatever the deck, and the extra moves are at least ``D``.

    Drawn partners (where the stock top is available). Let a *lonely* pyramid card ``p``
    (one no pyramid card can meet: every partner it can meet is a deck card) lie under a
    lonely card ``c``, with every deck partner of both in the stock and all of ``c``'s after
    all of ``p``'s. ``c`` goes before ``p``, with a partner the stock reaches only after
    every partner of ``p`` has left the stock; the one ``p`` goes with left it by a draw
    (not with ``p``, which was covered; not removed, since ``p`` still needs it), and that
    draw is a move the prices above leave out (they let a card the allowance covers pass
    for free, as if played from the stock top; a draw moves one card, so it is no move
    counted for another card, and no removal). Each such ``p`` needs its own partner, so
    each adds one (:meth:`Tables.redrawn`), on top of the rest and of ``D``.

    Late partners (rule ``bound-late-partner``). A lonely pyramid card ``p`` that cannot be
    uncovered before this pass ends (:class:`~pyramid_widget.solver.bounds.PassReach`: a
    relaxed game that lets every card go that could) goes with a deck partner ``d`` in a
    later pass; with no redeal left the position is lost. Else the line first runs out the
    stock (every stock card leaves it by a draw or a removal: priced as in the stock walk
    above; where the stock top is available, a stock card none of whose pyramid partners
    may be uncovered before this pass ends, by the same relaxed game, and that is no King
    going alone costs a move and none of the allowance (rule ``bound-rest-of-pass``): it
    leaves by a draw, or with the waste top, which is then a card that may leave in this
    pass and so costs nothing in the next pass below; a move takes at most one stock card),
    redeals (one move) and, in the next pass, which deals the deck cards left in
    their order, reaches ``d`` as above: each card before it costs a move unless played with
    a pyramid card within the allowance, and ``d`` its own draw where the stock top is not
    available; played later still, ``d`` costs no less. A card before ``d`` that could
    leave the board in this pass (``PassReach``'s ``leaving``) may be gone by then and is
    counted as free. The cards passed twice, once in each pass, are counted once a pass: each
    passing is a move unless it is the one in which the card is played with a pyramid card,
    and the allowance counts those plays, one pyramid card each. Where the stock top is
    available the relaxed game goes on through the next pass, each card joining it as it
    comes up: a card that comes up while no pyramid card it could go with may be uncovered
    leaves the stock by a draw, or with a deck card or alone, a move either way, and takes
    nothing of the allowance (leaving it out only lowers the rest); and ``d`` costs its own
    draw as well when ``p`` may not be uncovered yet as ``d`` comes up (it is played later,
    from the waste, or in a later pass still). The bound takes the dearest such ``p`` at its
    cheapest partner, if that is more than the rest gives.

    It is not always consistent (a removal can change which cards must be played), so the
    search re-opens positions; see :func:`macro_a_star`.

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("relaxed", pyramid=[None] * 27 + ["5H"], stock=["2D", "3C", "8C"])
    >>> m = Model.from_game(g)
    >>> extra_bound(m, m.root[0], m.root[1], m.root[4])
    2
    """
    if model.rules.pairing != "sum13" or model.rules.win != "pyramid":
        return 0
    tables = Tables(model)
    return tables.bound(board, lo, pno) - tables.removals(board)


def draws_bound(model: Model, board: int, lo: int) -> int:
    """Draws still needed, at least: where stock cards pair only once drawn (no stock top
    play), each pyramid card whose every usable partner is still in the stock needs its own
    partner drawn, one draw a card. Added to the removal bound, it stays admissible."""
    if model.rules.stock_top_available:
        return 0
    needs, stock = model.needs, board >> lo << lo
    count = 0
    check = board & model.required & PYRAMID_ALL
    while check:
        low = check & -check
        check ^= low
        mates = needs[low.bit_length() - 1] & board
        if mates and not mates & ~stock:
            count += 1
    return count


class RankOrder:
    """Positions that differ only in which card of a rank lies where (rule ``rank-order``).

    Soundness. Under every pairing of the classic model (sum 13, sum 11, sum 12, same or
    adjacent rank), whether two cards pair, whether a King goes alone and when the game is
    won depend on ranks alone, never on suits, and the macro moves and their costs on the
    order of the cards left in the waste and the stock. So two positions with the same
    pyramid cards, the same ranks in the same order in the waste and in the stock and the
    same pass are one game up to renaming cards of one rank: each move of one is a move of
    the other, at the same cost, and one is won when the other is. The search keeps one of
    them, the *canonical* one: every deck card lies in the lowest slot of its rank among
    the slots just below it that hold no card (no card lies between, so the order and the
    line between waste and stock stay; the stock's first slot follows its card). A line
    found on canonical positions is renamed onto the real cards by :meth:`line`: the k-th
    deck card left in one position is the k-th in the other.

    A deal leaves no gaps (every deck card is there), so its root is already canonical; the
    positions the search reaches are not: where two cards of a rank lie with only removed
    cards between, either may have gone first. On ``relaxed`` deals 0-199 the search expands
    27% fewer positions for the same lengths.

    >>> from pyramid_widget.engine.game import Game
    >>> from pyramid_widget.solver.model import Model
    >>> g = Game.from_position("relaxed", pyramid=[None] * 26 + ["8H", "8S"], stock=["5C", "5D"])
    >>> model = Model.from_game(g)
    >>> order = RankOrder(model)
    >>> board, lo = model.root[0] & ~(1 << 26 | 1 << 28), 29  # 8H+5C played from the stock
    >>> order.after(board, lo, 1 << 28) == (board ^ (1 << 28 | 1 << 29), 28)  # 5D moves down
    True
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        lo, hi = model.deck_lo, model.deck_hi
        ranks = [rank(c) if c >= 0 else -1 for c in model.cards]
        self.twins = [0] * hi
        """``twins[s]``: the deck slots below ``s`` holding a card of the same rank."""
        for s in range(lo, hi):
            for t in range(lo, s):
                if ranks[t] == ranks[s]:
                    self.twins[s] |= 1 << t

    def of(self, board: int, lo: int) -> tuple[int, int]:
        """The canonical form of any position's ``board`` and stock start ``lo``."""
        twins = self.twins
        lo = normalise(board, lo, self.model.deck_hi)  # the same stock, from its first card
        start = self.model.deck_lo  # the lowest slot of the gap below the next card
        rest = board & ~PYRAMID_ALL
        while rest:
            q = rest & -rest
            rest ^= q
            s = q.bit_length() - 1
            lower = twins[s] >> start << start
            if lower:
                r = lower & -lower
                board ^= q | r
                if lo == s:
                    lo = r.bit_length() - 1
                s = r.bit_length() - 1
            start = s + 1
        return board, lo

    def after(self, board: int, lo: int, removed: int) -> tuple[int, int]:
        """:meth:`of` for the position left when the deck cards ``removed`` go from a
        canonical one: only the cards above a new gap can move, each only if the one below
        it did."""
        twins, deck_lo = self.twins, self.model.deck_lo
        lo = normalise(board, lo, self.model.deck_hi)  # the same stock, from its first card
        while removed:
            d = removed & -removed
            removed ^= d
            above = board >> d.bit_length() << d.bit_length()
            while above:
                q = above & -above
                s = q.bit_length() - 1
                below = board & (q - 1) & ~PYRAMID_ALL
                start = below.bit_length() if below else deck_lo
                lower = twins[s] >> start << start
                if not lower:
                    break
                r = lower & -lower
                board ^= q | r
                if lo == s:
                    lo = r.bit_length() - 1
                above = board >> (s + 1) << (s + 1)
        return board, lo

    def line(self, parent: Mapping[Key, Link], key: Key) -> list[Move]:
        """The engine moves from the model's root to ``key`` along ``parent``, renamed from
        the canonical positions onto the real cards."""
        links: list[tuple[Key, int, int, int]] = []  # (position before, removal)
        step = parent[key]
        before = step[0]
        while before is not None:
            links.append((before, step[1], step[2], step[3]))
            step = parent[before]
            before = step[0]
        model = self.model
        hi = model.deck_hi
        board, lo = model.root[0], model.root[1]
        steps: list[tuple[State, MacroMove]] = []
        for (cboard, _clo, pno), bits, at, crossed in reversed(links):
            # the real slot with as many deck cards below it (a stop may be an empty slot)
            mine, theirs = cboard & ~PYRAMID_ALL, [*slots_of(board & ~PYRAMID_ALL), hi]
            real = bits & PYRAMID_ALL
            for s in slots_of(bits & ~PYRAMID_ALL):
                real |= 1 << theirs[(mine & ((1 << s) - 1)).bit_count()]
            stop = theirs[(mine & ((1 << at) - 1)).bit_count()]
            steps.append(((board, lo, 0, 0, pno, 0), _macro_move((real, stop, crossed))))
            board &= ~real
            lo = normalise(board, stop, hi) if real >> stop & 1 else stop
        return macro_line(model, steps)
