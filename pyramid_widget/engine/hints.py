"""Hints from what the player can see: a legal, useful move, chosen by a rule of thumb.

The hint never looks at face-down cards or searches ahead. It prefers, in order: removing a
King; a removal that takes the most pyramid cards and uncovers the most new ones; any other
removal; moving a card to the free cell when that uncovers a pyramid card; drawing; redealing.
For the truth about a position (can it still be won?) see the solver.

>>> from pyramid_widget.engine.game import Game
>>> g = Game.from_position("medium", pyramid=[None] * 25 + ["5H", "KS", "8C"], stock=["2D"])
>>> str(hint(g))
'KS'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramid_widget.engine.cards import KING, rank
from pyramid_widget.engine.layout import COVERED_BY, COVERS
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Zone

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game


def _uncovers(game: Game, cards: tuple[int, ...]) -> int:
    """How many pyramid cards become uncovered when ``cards`` leave the pyramid."""
    pyramid = list(game.pyramid)
    gone = [pyramid.index(c) for c in cards if c in pyramid]
    for pos in gone:
        pyramid[pos] = None
    above = {q for pos in gone for q in COVERS[pos]}
    return sum(
        1
        for q in above
        if pyramid[q] is not None and all(pyramid[p] is None for p in COVERED_BY[q])
    )


def _value(game: Game, move: Move) -> tuple[int, ...]:
    """Sort key: bigger is better."""
    if move.is_removal:
        from_pyramid = sum(1 for c in move.cards if game.where(c).zone is Zone.PYRAMID)
        king = int(move.kind is MoveKind.KING or any(rank(c) == KING for c in move.cards))
        return (3, king, from_pyramid, _uncovers(game, move.cards))
    if move.kind is MoveKind.CELL:
        gain = _uncovers(game, move.cards)
        return (2 if gain else 0, gain)
    if move.kind is MoveKind.DRAW:
        return (1, 1)
    return (1, 0)


def hint(game: Game) -> Move | None:
    """Return a useful legal move, or ``None`` when there is none."""
    best: tuple[tuple[int, ...], Move] | None = None
    for move in game.legal_moves:
        key = _value(game, move)
        if best is None or key > best[0]:
            best = (key, move)
    return None if best is None else best[1]
