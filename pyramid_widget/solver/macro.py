"""Removal-to-removal moves for one waste pile and draw one (the classic rule sets).

With one waste pile, one card a draw and no free cell, drawing and redealing never change a
card: between two removals a player only chooses *where* in the stock cycle to stop. So a
*macro move* here is "draw (and redeal, where allowed) up to some point, then remove": the
search sees one edge per removal instead of one per draw, and a position stands for every
position that draws and redeals lead to from it (its *draw closure*).

That makes positions comparable: with the same cards left, a position in an earlier pass, or
in the same pass no further into the stock, has a draw closure that contains the other's, so
it has every macro move the other has (rule ``transposition``, see ``_dominated`` in
:mod:`pyramid_widget.solver.decide_moves`). The closure from stock index ``lo`` in pass ``p`` is
every stop from ``lo`` to the end of pass ``p`` and, when a redeal is left, the stops of
pass ``p + 1`` before ``lo`` (the later ones are dominated by the same stops in pass ``p``).

A removal is tried only at the earliest stop where it is possible (rule ``earliest-stop``): a pair of pyramid cards
right away, a waste card where it is on top, a stock card where it is the top stock card.

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> g = Game.from_position("medium", pyramid=[None] * 27 + ["5H"], stock=["2D", "8C"])
>>> model = Model.from_game(g)
>>> [(model.describe(m[:3]), m[3] - 28) for m, _ in expand_macro(model, model.root)]
[('5H+8C', 2)]
>>> [str(m) for m in macro_line(model, [(model.root, expand_macro(model, model.root)[0][0])])]
['draw', 'draw', '5H+8C']
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from pyramid_widget.engine.moves import Move
from pyramid_widget.solver.model import (
    KING_ALONE,
    PAIR,
    PYRAMID_ALL,
    UNCOVERED,
    Model,
    State,
    normalise,
    uncovered,
)
from pyramid_widget.solver.moves import dead_after

MacroMove = tuple[int, int, int, int, int]
"""``(kind, slot_a, slot_b, stop, crossed)``: remove at stock index ``stop``, in the next
pass when ``crossed`` is 1."""

MacroSuccessors = list[tuple[MacroMove, State]]
Candidate = tuple[int, int, int]
"""``(cards removed as a slot mask, stop, crossed)``."""


def candidates(
    model: Model, state: State, last: int | None = None, cross: bool = True
) -> list[Candidate]:
    """The removals in the draw closure of ``state``, each at its earliest stop, most
    promising first (removals right here, then later stops, then the next pass).

    ``last`` and ``cross`` serve the shortest-mode A* (its partial expansion, and its King
    barriers, :func:`~pyramid_widget.solver.shortest_macro._king_barriers`): with ``last``
    only the removals at stops up to that slot in this pass are listed, with
    ``cross=False`` none in the next pass (the deck cards whose stops lie beyond are left
    out of the walks, not only of the answer)."""
    flags = model.flags
    board, lo = state[0], state[1]
    hi, partners, needs, required = model.deck_hi, model.partners, model.needs, model.required
    pyr = board & PYRAMID_ALL
    unc = UNCOVERED.get(pyr)  # uncovered()'s cache read inline: one call less per node
    if unc is None:
        unc = uncovered(pyr, UNCOVERED)
    deck = board ^ pyr
    below = deck & ((1 << lo) - 1)
    wtop = 1 << (below.bit_length() - 1) if below else 0
    above = deck ^ below
    stock_top = flags.stock_top
    stop = above & -above if stock_top else 0
    king = (flags.forced_kings & unc) | (flags.forced_kings_out & (wtop | stop))
    if king:
        return [(king & -king, lo, 0)]
    if flags.passes is not None and state[4] >= flags.passes:
        if flags.plain_last:
            return _last_pass(model, board, lo, unc, wtop, above)
        deck = wtop | above  # last pass: no other waste card can come to the top unburied
    pp, pw, ps, kings = (
        flags.pyramid_pyramid,
        flags.pyramid_waste,
        flags.pyramid_stock,
        flags.lone_kings,
    )
    here: list[Candidate] = []
    lone = unc & kings  # Kings alone that pair with others too (not forced)
    while lone:
        here.append((lone & -lone, lo, 0))
        lone &= lone - 1
    found: list[tuple[int, int]] = []  # removals with a deck card: (cards, stop)
    barrier, must = hi + 1, 0  # the first stop where a removal that must come is possible
    ahead = above & flags.forced_kings_out
    if ahead:
        must = ahead & -ahead
        d = must.bit_length() - 1
        barrier = d if stock_top else normalise(board, d + 1, hi)
    now = (unc if pp else 0) | (wtop if pw else 0) | (stop if ps else 0)
    pdeck = deck  # the deck cards whose stops may be wanted
    if last is not None:
        pdeck &= (2 << last) - 1
        if not cross:
            pdeck &= ~(below ^ wtop)
    rest = unc
    while rest:
        low = rest & -rest
        rest ^= low  # leaves the uncovered cards after ``low``: its pyramid mates to pair
        a = low.bit_length() - 1
        mine = partners[a]
        only = needs[a] & board
        if only and not only & (only - 1) and low & required:  # its one partner left
            if only & now:
                return [(low | only, lo, 0)]  # forced: they can only go together
            if only & above and (pw or ps):
                d = only.bit_length() - 1
                at = d if ps else normalise(board, d + 1, hi)
                if at < barrier:
                    barrier, must = at, low | only
        if pp:
            mates = mine & rest
            while mates:
                mlow = mates & -mates
                mates ^= mlow
                here.append((low | mlow, lo, 0))
        mates = mine & pdeck
        while mates:
            mlow = mates & -mates
            mates ^= mlow
            bits = low | mlow
            slot1 = mlow.bit_length()  # its slot + 1
            if pw:  # as the waste top: at the next deck card left (normalise, inlined)
                after_it = board >> slot1
                found.append(
                    (bits, slot1 + (after_it & -after_it).bit_length() - 1 if after_it else hi)
                )
            if ps:  # as the stock top: at its own slot
                found.append((bits, slot1 - 1))
    # Deck cards alone: Kings (as the waste top or the stock top) and, where the stock top
    # pairs with the waste top, a card with the next deck card left.
    if flags.stock_waste:  # (they depend on the deck alone: cached per deck)
        walked = model.deck_walks.get(pdeck)
        if walked is None:
            walked = model.deck_walks[pdeck] = _deck_walk(model, pdeck)
        found += walked
    else:
        rest = deck & kings
        while rest:
            low = rest & -rest
            rest ^= low
            after_it = board & -(low << 1)  # the board cards after ``low`` (deck cards)
            found.append((low, (after_it & -after_it).bit_length() - 1 if after_it else hi))
            if stock_top:
                found.append((low, low.bit_length() - 1))
    # Sorted into three lists: at this stop, later in this pass, in the next pass (only the
    # last two need sorting by stop).
    at_lo: list[Candidate] = []
    later: list[Candidate] = []
    crossed: list[Candidate] = []
    limit = last if last is not None else hi + 1  # the last stop wanted (none: every stop)
    for bits, at in found:
        if at > limit:
            continue
        if at > lo:
            later.append((bits, at, 0))
        elif at == lo:
            at_lo.append((bits, at, 0))
        else:
            crossed.append((bits, at, 1))
    if must:  # no drawing past a removal that must come (see the docstring)
        if lo >= barrier:
            at_lo = [c for c in at_lo if c[0] == must and lo == barrier]
        later = [c for c in later if c[1] < barrier or (c[0] == must and c[1] == barrier)]
        crossed = []
    here += at_lo
    if later:
        later.sort(key=_BY_STOP)
        here += later
    if crossed and cross and _can_cross(model, state, unc, deck):
        crossed.sort(key=_BY_STOP)
        here += crossed
    return here


def _deck_walk(model: Model, deck: int) -> list[tuple[int, int]]:
    """The removals of deck cards alone among the deck cards ``deck`` where the stock top
    pairs with the waste top: ``(cards, stop)`` for each King (as the waste top, and as the
    stock top where that is available) and each card with the next deck card left. They
    depend on ``deck`` only, so :func:`candidates` caches them per deck
    (``Model.deck_walks``).

    Every deck card is walked in order: the next one left after ``low`` is ``nxt`` (in the
    last pass too: no waste card lies between the waste top and the stock), so no
    normalise call per card. Most cards do not pair with it, so the pair is tested first and
    the stop worked out only for a pair. The walk shifts the deck down to bit 0: masks of up
    to 30 bits are one machine digit for CPython, and operations on them are about twice as
    fast as on the full 52-bit board.

    >>> from pyramid_widget.engine.cards import card_str
    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("relaxed", pyramid=[None] * 27 + ["5H"], stock=["KD", "8C", "2D", "JS"])
    >>> model = Model.from_game(g)
    >>> deck = model.root[0] & ~PYRAMID_ALL
    >>> [([card_str(model.cards[s]) for s in range(model.deck_lo, model.deck_hi) if cards >> s & 1],
    ...   stop - model.deck_lo) for cards, stop in _deck_walk(model, deck)]
    [(['KD'], 1), (['KD'], 0), (['2D', 'JS'], 3)]
    """
    hi, partners, base = model.deck_hi, model.partners, model.deck_lo
    low_slot = base - 1
    stock_top = model.flags.stock_top
    sdeck = deck >> base
    skings = model.flags.lone_kings >> base
    found: list[tuple[int, int]] = []
    low = sdeck & -sdeck
    while low:
        deck_after = sdeck & -(low << 1)
        nxt = deck_after & -deck_after
        if low & skings:
            found.append((low << base, nxt.bit_length() + low_slot if nxt else hi))
            if stock_top:
                found.append((low << base, low.bit_length() + low_slot))
        elif partners[low.bit_length() + low_slot] >> base & nxt:
            found.append(((low | nxt) << base, nxt.bit_length() + low_slot))
        low = nxt
    return found


_BY_STOP = itemgetter(1, 0)
"""Sort key for candidates: stop, then cards (the order :func:`candidates` promises)."""


def _last_pass(
    model: Model, board: int, lo: int, unc: int, wtop: int, above: int
) -> list[Candidate]:
    """:func:`candidates` in the last pass when only pyramid and waste cards pair and
    Kings go alone (no King available now): the same list, built in stock order. Every stock
    card stays on the board till it is drawn (none can leave the stock), so the stop after
    drawing a stock card is the next stock card (the stock has gaps after a redeal)."""
    needs, partners, required = model.needs, model.partners, model.required
    here: list[Candidate] = []
    waste_pairs: list[Candidate] = []
    barrier, must = model.deck_hi + 1, 0
    kings = above & model.flags.forced_kings_out
    if kings:
        must = kings & -kings
        barrier = must.bit_length()
    rest = unc
    while rest:
        low = rest & -rest
        rest ^= low
        a = low.bit_length() - 1
        only = needs[a] & board
        if only and not only & (only - 1) and low & required:  # its one partner left
            if only & (unc | wtop):
                return [(low | only, lo, 0)]  # forced: they can only go together
            if only & above and only.bit_length() < barrier:
                barrier, must = only.bit_length(), low | only
        mine = partners[a]
        mates = mine & unc & ~((low << 1) - 1)
        while mates:
            mlow = mates & -mates
            mates ^= mlow
            here.append((low | mlow, lo, 0))
        if mine & wtop:
            waste_pairs.append((low | wtop, lo, 0))
    here += waste_pairs
    hi = model.deck_hi
    rest = above & ((1 << (barrier - 1)) - 1)
    while rest:
        low = rest & -rest
        rest ^= low
        d = low.bit_length()  # the slot after the card drawn
        mates = partners[d - 1] & unc
        if mates:
            d = normalise(board, d, hi)  # the stop: the next stock card
            while mates:
                mlow = mates & -mates
                mates ^= mlow
                here.append((low | mlow, d, 0))
    if must:
        here.append((must, normalise(board, barrier, hi), 0))
    return here


def after(model: Model, state: State, cand: Candidate) -> tuple[int, int, int]:
    """``(board, stock index, pass)`` after the removal ``cand`` (no dead-end check)."""
    bits, at, crossed = cand
    board, _, _, _, pno, _ = state
    nboard = board & ~bits
    if bits >> at & 1:
        at = normalise(nboard, at, model.deck_hi)
    if crossed and model.rules.passes is not None:
        pno += 1
    return nboard, at, pno


def dead(model: Model, nboard: int, bits: int, lo: int, pno: int) -> bool:
    """Whether the position after removing ``bits`` is a dead end (see the solver docs)."""
    if dead_after(model, nboard, bits):
        return True
    passes = model.rules.passes
    return passes is not None and pno >= passes and buried(model, nboard, lo)


def expand_macro(model: Model, state: State) -> MacroSuccessors:
    """Return ``(macro_move, next_state)`` pairs, most promising first, dead ends left out."""
    fl = 1 if model.rules.stall_rule else 0
    out: MacroSuccessors = []
    for cand in candidates(model, state):
        nboard, nlo, npno = after(model, state, cand)
        if dead(model, nboard, cand[0], nlo, npno):
            continue
        out.append((_macro_move(cand), (nboard, nlo, 0, 0, npno, fl)))
    return out


def _macro_move(cand: Candidate) -> MacroMove:
    bits, at, crossed = cand
    kind = PAIR if bits & (bits - 1) else KING_ALONE
    first = (bits & -bits).bit_length() - 1
    second = (bits & ~(bits & -bits)).bit_length() - 1
    return (kind, first, second, at, crossed)


def buried(model: Model, board: int, lo: int) -> bool:
    """Last pass only: whether a pyramid card's every partner lies buried in the waste under a
    card that can never be removed (see :func:`buried_under`)."""
    gone = buried_under(model, board, lo)
    return bool(gone) and starved(model, board & ~gone)


def buried_under(model: Model, board: int, lo: int) -> int:
    """Last pass only: the waste cards under the highest waste card that can never go.

    Soundness: with no redeal left the waste only grows on top and loses its top card; a
    waste card that has no partner left it could meet (and is no King that goes alone) stays
    for good, so nothing below it is ever available again. Another waste card is no
    partner: with one pile only one waste card is ever on top. Those cards are inert: the
    search drops them from the position (positions that differ only in them have the same
    future).
    """
    needs, kings = model.needs, model.flags.lone_kings
    waste = board & ~PYRAMID_ALL & ((1 << lo) - 1)
    live = board & ~waste  # two waste cards are never both available: one pile, one top
    while waste:
        top = 1 << (waste.bit_length() - 1)
        waste ^= top
        if not needs[top.bit_length() - 1] & live and not top & kings:
            return waste
    return 0


def starved(model: Model, board: int) -> bool:
    """Whether some pyramid card that must go has no partner in ``board`` it could meet."""
    needs = model.needs
    check = board & model.required & PYRAMID_ALL
    while check:
        low = check & -check
        check ^= low
        if not needs[low.bit_length() - 1] & board:
            return True
    return False


def _can_cross(model: Model, state: State, unc: int, deck: int) -> bool:
    """Whether the draw closure reaches into the next pass (a redeal is left and, under the
    stall rule, the pass may end without being lost)."""
    flags = model.flags
    _, _, _, _, pno, flag = state
    if not deck or (flags.passes is not None and pno >= flags.passes):
        return False
    if not flags.stall or flag:
        return True
    top = 1 << (deck.bit_length() - 1)
    if (unc | top) & flags.lone_kings:
        return True
    rest = unc
    while rest:
        low = rest & -rest
        rest ^= low
        allow = (unc if flags.pyramid_pyramid else 0) | (top if flags.pyramid_waste else 0)
        if model.partners[low.bit_length() - 1] & allow:
            return True
    return False


def macro_line(model: Model, steps: Sequence[tuple[State, MacroMove]]) -> list[Move]:
    """Engine moves for macro moves, each given with the position it is played from."""
    moves: list[Move] = []
    hi, start = model.deck_hi, model.deck_lo
    for state, (kind, a, b, at, crossed) in steps:
        board, lo = state[0], state[1]
        deck = board & ~PYRAMID_ALL
        if crossed:
            moves += [Move.draw()] * _count(deck, lo, hi)
            moves.append(Move.redeal())
            moves += [Move.draw()] * _count(deck, start, at)
        else:
            moves += [Move.draw()] * _count(deck, lo, at)
        moves.append(model.to_move((kind, a, b)))
    return moves


def _count(deck: int, first: int, last: int) -> int:
    """How many deck slots in ``[first, last)`` are on the board."""
    if last <= first:
        return 0
    return (deck >> first & ((1 << (last - first)) - 1)).bit_count()
