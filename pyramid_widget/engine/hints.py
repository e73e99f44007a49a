"""The rule of thumb: a legal, useful move chosen from what the player can see.

This one rule is both the widget's first-level hint and the lab's ``greedy`` strategy
(:mod:`pyramid_widget.lab.strategies`): the hint *is* greedy's move, in every position (the
suite checks it on thousands of random positions of every preset). It never looks at
face-down cards or searches ahead. It prefers, in order:

1. a removal with a King in it (where Kings go alone, the King itself);
2. then the removal that takes the most pyramid cards (a pyramid pair before a pyramid +
   waste pair), then the one that uncovers the most pyramid cards;
3. moving a card to the free cell, only when that uncovers a pyramid card (the more the
   better);
4. drawing; then redealing (and dealing the next ``egypt`` round);
5. a cell move that uncovers nothing, last of all.

Ties go to the first move in sorted order (:class:`~pyramid_widget.engine.moves.Move` sorts by
kind word, then cards). For the truth about a position (can it still be won?) see the solver.

>>> from pyramid_widget.engine.game import Game
>>> g = Game.from_position("medium", pyramid=[None] * 25 + ["5H", "KS", "8C"], stock=["2D"])
>>> str(hint(g))
'KS'

The rule works on plain data, ``(kind word, cards)`` pairs and a pyramid given as bits
(:func:`pyramid_bits`) of a :class:`~pyramid_widget.engine.layout.Layout` (the classic pyramid
unless one is given), so the lab's compact playout engine uses the very same functions. It
reads only which positions are occupied and the legal moves' cards, all face up, so it never
learns a face-down card:

>>> pos_of, mask = pyramid_bits(g)
>>> choose([("draw", ()), ("pair", (16, 29))], pos_of, mask)
('pair', (16, 29))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, TypeAlias

from pyramid_widget.engine.cards import KING
from pyramid_widget.engine.layout import CLASSIC, Layout
from pyramid_widget.engine.moves import Move, MoveKind

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game

__all__ = ["MoveParts", "choose", "hint", "preference", "pyramid_bits", "uncovers"]

MoveParts: TypeAlias = tuple[str, tuple[int, ...]]
"""A move as ``(kind word, cards)``, e.g. ``("pair", (16, 29))``: an engine move's
``(move.kind.value, move.cards)``, and exactly the lab's ``FastMove``."""

#: The lowest card number of rank King (cards are numbered ``4 * (rank - 1) + suit``, plus 52
#: for a second deck's copy).
_FIRST_KING = 4 * (KING - 1)


def uncovers(mask: int, positions: Iterable[int], layout: Layout = CLASSIC) -> int:
    """How many pyramid cards become uncovered when the cards at ``positions`` leave the
    pyramid (of ``layout``) whose occupied positions are the bits of ``mask``.

    >>> uncovers((1 << 28) - 1 - (1 << 27), [26])  # the right end of the bottom row
    1
    """
    gone = list(positions)
    after = mask
    for p in gone:
        after &= ~(1 << p)
    covers, covered_by = layout.covers, layout.covered_by_mask
    count = 0
    for p in gone:
        for q in covers[p]:
            if after >> q & 1 and not after & covered_by[q]:
                count += 1
    return count


def preference(
    move: MoveParts, pos_of: Sequence[int], mask: int, layout: Layout = CLASSIC
) -> tuple[int, ...]:
    """How much the rule of thumb likes ``move`` (bigger is better); ``pos_of[card]`` is the
    card's pyramid position or -1, ``mask`` the occupied pyramid positions as bits.

    >>> pos_of = [-1] * 52
    >>> pos_of[16], pos_of[51] = 27, 26
    >>> preference(("king", (51,)), pos_of, 3 << 26) > preference(("pair", (16, 29)), pos_of, 3 << 26)
    True
    """
    kind, cards = move
    if kind == "pair" or kind == "king":
        positions = [pos_of[c] for c in cards if pos_of[c] >= 0]
        king = int(any(c % 52 >= _FIRST_KING for c in cards))
        return (3, king, len(positions), uncovers(mask, positions, layout))
    if kind == "cell":
        p = pos_of[cards[0]]
        gain = uncovers(mask, (p,), layout) if p >= 0 else 0
        return (2 if gain else 0, gain)
    return (1, 1) if kind == "draw" else (1, 0)


def choose(
    moves: Iterable[MoveParts], pos_of: Sequence[int], mask: int, layout: Layout = CLASSIC
) -> MoveParts | None:
    """The rule of thumb's move among ``moves``: the best :func:`preference`, ties to the
    first in sorted order; ``None`` when there are no moves.

    >>> choose([], [-1] * 52, 0) is None
    True
    """
    best: MoveParts | None = None
    best_key: tuple[int, ...] = ()
    for move in moves:
        key = preference(move, pos_of, mask, layout)
        if best is None or key > best_key or (key == best_key and move < best):
            best, best_key = move, key
    return best


def pyramid_bits(game: Game) -> tuple[list[int], int]:
    """``(pos_of, mask)`` of ``game``'s pyramid: each card's position (-1 when not in the
    pyramid) and the occupied positions as bits, as :func:`preference` reads them."""
    pos_of = [-1] * game.rules.deck_size
    mask = 0
    for p, card in enumerate(game.pyramid):
        if card is not None:
            pos_of[card] = p
            mask |= 1 << p
    return pos_of, mask


def hint(game: Game) -> Move | None:
    """The rule of thumb's legal move in ``game`` (``greedy``'s move), or ``None`` when there
    is none."""
    pos_of, mask = pyramid_bits(game)
    moves = ((m.kind.value, m.cards) for m in game.legal_moves)
    parts = choose(moves, pos_of, mask, game.rules.layout)
    return None if parts is None else Move(MoveKind(parts[0]), parts[1])
