"""The solver's move generator on the compact encoding of :mod:`pyramid_widget.solver.model`.

:func:`expand` is the hot loop of every search, so it is one long function working on plain
integers (bit masks of slots); the rules it applies are exactly those of
:mod:`pyramid_widget.engine.legality`, and the tests replay every line it finds through the engine.

Two sound reductions happen here (ids of :data:`pyramid_widget.solver.prune.PRUNING_RULES`):

- ``kings-first``: when a King that goes alone and pairs with nothing is available,
  removing it is the only move generated (outside the pyramid only where that changes no
  later draw: one card a draw, or a waste King on the last pass).
- ``reach`` and ``hall``: a removal after which some card that must still go (a pyramid card,
  or every card when all 52 must go) has no partner left that it could ever meet, or after
  which a rank class fails Hall's counting condition, is not generated.

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> g = Game.from_position("medium", pyramid=[None] * 25 + ["5H", "KS", "8C"], stock=["2D"])
>>> model = Model.from_game(g)
>>> [model.describe(m) for m, _ in expand(model, model.root)]
['KS']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramid_widget.solver.model import (
    CELL,
    DRAW,
    KING_ALONE,
    PAIR,
    PYRAMID_ALL,
    REDEAL,
    UNCOVERED,
    State,
    Successors,
    Switches,
    normalise,
    starved_in,
    uncovered,
    union_of,
)

if TYPE_CHECKING:
    from pyramid_widget.solver.model import Model


def expand(model: Model, state: State, focus: int = -1, deals: bool = True) -> Successors:
    """Return ``(move, next_state)`` pairs for ``state``, best first (see the module doc).

    ``focus`` and ``deals`` keep only the moves that take or park a card of ``focus`` and,
    if ``deals``, the draw or redeal: the same moves in the same order as the whole list
    filtered so, without making the others (a cell move's follow-ups, rule
    ``cell-follow-up``)."""
    flags = model.flags
    board, lo, piles, cells, pno, flag = state
    hi = model.deck_hi
    unc = uncovered(board & PYRAMID_ALL, UNCOVERED)
    if flags.piles == 1:
        waste = board & ((1 << lo) - 1) & ~PYRAMID_ALL
        wtops = 1 << (waste.bit_length() - 1) if waste else 0
    else:
        wtops = 0
        for pile in piles:
            if pile:
                wtops |= 1 << (pile.bit_length() - 1)
    stock = board >> lo << lo
    stop = stock & -stock if flags.stock_top else 0
    avail = unc | wtops | stop | cells
    removed_flag = 1 if flags.stall else 0

    king = (unc & flags.forced_kings) | (avail & ~unc & flags.forced_kings_out)
    if king & ~unc & ~cells and flags.draw > 1:
        # dealing several cards a draw: taking a waste or stock King away early would change
        # how later draws group the cards (after a redeal, or from the stock now), so a
        # waste King is forced only on the last pass and a stock King never (kings-first)
        king &= unc | cells | (wtops if flags.passes is not None and pno >= flags.passes else 0)
    if king:
        low = king & -king
        if not low & focus:
            return []
        nxt = _remove(model, flags, state, low, removed_flag)
        return [] if nxt is None else [((KING_ALONE, low.bit_length() - 1, -1), nxt)]

    allow_p = (
        (unc if flags.pyramid_pyramid else 0)
        | (wtops if flags.pyramid_waste else 0)
        | (stop if flags.pyramid_stock else 0)
    )
    allow_p |= cells if flags.cell_pyramid else 0
    allow_w = (
        (unc if flags.pyramid_waste else 0)
        | (wtops if flags.waste_waste else 0)
        | (stop if flags.stock_waste else 0)
    )
    allow_w |= cells if flags.cell_waste else 0
    allow_s = (
        (unc if flags.pyramid_stock else 0)
        | (wtops if flags.stock_waste else 0)
        | (cells if flags.cell_stock else 0)
    )
    allow_c = (
        (unc if flags.cell_pyramid else 0)
        | (wtops if flags.cell_waste else 0)
        | (stop if flags.cell_stock else 0)
    )
    allow_c |= cells if flags.cell_cell else 0

    partners = model.partners
    both: Successors = []
    one: Successors = []
    none: Successors = []
    legal = False
    lone = avail & flags.lone_kings  # Kings alone that pair with others too (not forced)
    while lone:
        low = lone & -lone
        lone ^= low
        legal = True
        if not low & focus:
            continue
        nxt = _remove(model, flags, state, low, removed_flag)
        if nxt is not None:
            (one if low & unc else none).append(((KING_ALONE, low.bit_length() - 1, -1), nxt))
    rest = avail
    while rest:
        low = rest & -rest
        rest ^= low
        a = low.bit_length() - 1
        if low & unc:
            allow = allow_p
        elif low & wtops:
            allow = allow_w
        elif low & stop:
            allow = allow_s
        else:
            allow = allow_c
        mates = partners[a] & allow & rest  # the partners after ``a`` (``allow`` is in ``avail``)
        if mates and not low & focus:
            legal = True
            mates &= focus
        while mates:
            mlow = mates & -mates
            mates ^= mlow
            legal = True
            nxt = _remove(model, flags, state, low | mlow, removed_flag)
            if nxt is None:
                continue
            move = (PAIR, a, mlow.bit_length() - 1)
            in_pyramid = ((low | mlow) & PYRAMID_ALL).bit_count()
            (both if in_pyramid == 2 else one if in_pyramid else none).append((move, nxt))
    if flags.stall and not stock and not flag and not legal:
        return []  # the engine calls this position lost (stall rule)
    cellm: Successors = []
    later: Successors = []
    if flags.cells and cells.bit_count() < flags.cells:
        rest = (unc | wtops) & focus
        while rest:
            low = rest & -rest
            rest ^= low
            nboard = board & ~low
            npiles = piles  # (a pyramid card's park leaves the piles as they are)
            if low & unc:
                fresh = uncovered(nboard & PYRAMID_ALL, UNCOVERED) & ~unc
            else:  # a waste top: the card under it in its pile is next
                if flags.piles > 1:
                    npiles = tuple([p & ~low for p in piles])
                    pile = next(p for p in piles if p & low) & ~low
                else:
                    pile = board & ~PYRAMID_ALL & ((1 << lo) - 1) & ~low
                fresh = 1 << (pile.bit_length() - 1) if pile else 0
            useful = False
            while fresh:
                f = fresh & -fresh
                fresh ^= f
                if partners[f.bit_length() - 1] & (avail | low):
                    useful = True
                    break
            (cellm if useful else later).append(
                (
                    (CELL, low.bit_length() - 1, -1),
                    (nboard, lo, npiles, cells | low, pno, flag),
                )
            )
    drawm: Successors = []
    if deals and stock:
        drawm.append(((DRAW, -1, -1), _draw(flags, state, hi)))
    elif deals and (flags.passes is None or pno < flags.passes) and board & ~PYRAMID_ALL:
        npiles = (0,) * flags.piles if flags.piles > 1 else 0
        nlo = normalise(board, model.deck_lo, hi)
        npno = pno + 1 if flags.passes is not None else 0
        drawm.append(((REDEAL, -1, -1), (board, nlo, npiles, cells, npno, 0)))
    # Cell moves that uncover a card with a partner available come early, the rest last.
    return both + cellm + one + drawm + none + later


def dead_after(model: Model, alive: int, bits: int) -> bool:
    """Whether removing ``bits`` (leaving ``alive``) starves a card that must still go of
    every partner it could meet, or breaks Hall's condition in the rank class removed.

    Under sum-13 pairing partners and needs stay inside a rank class {r, 13 - r}, so the
    answer depends only on the cards left of the removed cards' class: it is cached per
    class remainder (``Model.dead_cache``, at most 2^8 entries a class), and every card of
    the class that must go is checked, not only those the removal touched (a card with no
    partner left that it could meet makes any position lost).

    >>> from pyramid_widget.engine.cards import parse_card
    >>> from pyramid_widget.engine.game import Game
    >>> from pyramid_widget.solver.model import Model
    >>> def after_5h_8d(stock):  # remove the pyramid's 5H with the stock's 8D
    ...     model = Model.from_game(Game.from_position(
    ...         "medium", pyramid=[None] * 26 + ["5H", "8C"], stock=stock))
    ...     bits = 1 << 26 | 1 << model.cards.index(parse_card("8D"))
    ...     return dead_after(model, model.root[0] & ~bits, bits)
    >>> after_5h_8d(["8D", "5S"])  # the 8C still has the 5S
    False
    >>> after_5h_8d(["8D", "9S"])  # no Five left for the 8C
    True
    """
    if model.rules.pairing != "sum13":
        check = union_of(model.affects, bits)
        return starved_in(check & alive, model.needs, alive)
    slot = (bits & -bits).bit_length() - 1
    left = alive & model.class_masks[slot]
    cache = model.dead_cache
    hit = cache.get(left)
    if hit is None:
        r = model.ranks[slot]
        hit = starved_in(left & model.required, model.needs, left) or (
            r != 13 and not model.counts_ok(left, r)
        )
        cache[left] = hit
    return hit


def _remove(model: Model, flags: Switches, state: State, bits: int, flag: int) -> State | None:
    """The state after removing the cards of ``bits``, or ``None`` if it is a dead end."""
    board, lo, piles, cells, pno, _ = state
    keep = ~bits
    nboard, ncells = board & keep, cells & keep
    if dead_after(model, nboard | ncells, bits):
        return None
    if bits >> lo & 1:
        lo = normalise(nboard, lo, model.deck_hi)
    if flags.piles > 1 and bits & ~PYRAMID_ALL:
        piles = tuple([p & keep for p in piles])  # (a list is built quicker than a generator)
    return (nboard, lo, piles, ncells, pno, flag)


def _draw(flags: Switches, state: State, hi: int) -> State:
    """The state after one draw: up to ``draw_count`` stock cards onto the waste pile(s)."""
    board, lo, piles, cells, pno, flag = state
    stock = board >> lo << lo
    if flags.piles == 1:
        for _ in range(flags.draw - 1):
            stock &= stock - 1
        nlo = normalise(board, (stock & -stock).bit_length(), hi) if stock else hi
        return (board, nlo, piles, cells, pno, flag)
    new = list(piles)
    last = lo
    for i in range(flags.draw):
        if not stock:
            break
        low = stock & -stock
        stock ^= low
        new[i % flags.piles] |= low
        last = low.bit_length()
    return (board, normalise(board, last, hi), tuple(new), cells, pno, flag)
