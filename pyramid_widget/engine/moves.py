"""Moves: what a player can do, with a text form that parses back.

========== =============== =====================================================
kind       text            meaning
========== =============== =====================================================
pair       ``5H+8C``       remove two available cards that match
king       ``KD``          remove a lone available King
draw       ``draw``        deal the next stock card(s) onto the waste pile(s)
redeal     ``redeal``      turn the waste back into the stock (a new pass)
cell       ``cell 7S``     move an available card into the empty free cell
next-round ``next-round``  after a won ``egypt`` round, deal the next round
========== =============== =====================================================

Moves name cards, not places: every card is unique, so ``5H+8C`` says all there is to say (a
two-deck game's second copy carries a prime, ``5H+8C'``).
A pair is stored with the lower card first, so ``8C+5H`` and ``5H+8C`` are the same move.

>>> m = Move.parse("8c+5h")
>>> m, str(m)
(Move.parse('5H+8C'), '5H+8C')
>>> Move.parse("cell 7S").kind
<MoveKind.CELL: 'cell'>
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from pyramid_widget.engine.cards import KING, Card, card_problem, card_str, parse_card, rank
from pyramid_widget.engine.quoting import shown
from pyramid_widget.errors import InvalidCardError, InvalidMoveError


class MoveKind(str, enum.Enum):
    """The kinds of move (the value is the word used in text and messages)."""

    PAIR = "pair"
    KING = "king"
    DRAW = "draw"
    REDEAL = "redeal"
    CELL = "cell"
    NEXT_ROUND = "next-round"


_ARITY = {
    MoveKind.PAIR: 2,
    MoveKind.KING: 1,
    MoveKind.DRAW: 0,
    MoveKind.REDEAL: 0,
    MoveKind.CELL: 1,
    MoveKind.NEXT_ROUND: 0,
}
_WORDS = {"draw": MoveKind.DRAW, "redeal": MoveKind.REDEAL, "next-round": MoveKind.NEXT_ROUND}


@dataclass(frozen=True, order=True)
class Move:
    """One move. Build it with :meth:`parse` or the named constructors; its cards are
    numbers from 0 to 103 (whether the game holds them is the game's business).

    >>> Move.pair(0, 200)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidMoveError: 200 is not a card: cards are numbered 0 to 103
    """

    kind: MoveKind
    cards: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        for card in self.cards:
            # the plain test first: the engine builds a move for every legal move it lists
            if type(card) is not int or not 0 <= card < 104:
                problem = card_problem(card)
                if problem is not None:
                    raise InvalidMoveError(problem)
        if len(self.cards) != _ARITY[self.kind]:
            raise InvalidMoveError(
                f"a {self.kind.value} move names {_ARITY[self.kind]} card(s), got {len(self.cards)}"
            )
        if self.kind is MoveKind.PAIR:
            a, b = self.cards
            if a == b:
                raise InvalidMoveError(f"a card cannot pair with itself ({card_str(a)})")
            object.__setattr__(self, "cards", (min(a, b), max(a, b)))

    @classmethod
    def pair(cls, a: Card, b: Card) -> Move:
        """Remove ``a`` and ``b`` together."""
        return cls(MoveKind.PAIR, (a, b))

    @classmethod
    def king(cls, card: Card) -> Move:
        """Remove the King ``card`` alone."""
        return cls(MoveKind.KING, (card,))

    @classmethod
    def draw(cls) -> Move:
        """Deal from the stock."""
        return cls(MoveKind.DRAW)

    @classmethod
    def redeal(cls) -> Move:
        """Turn the waste back into the stock."""
        return cls(MoveKind.REDEAL)

    @classmethod
    def to_cell(cls, card: Card) -> Move:
        """Move ``card`` into the free cell."""
        return cls(MoveKind.CELL, (card,))

    @classmethod
    def next_round(cls) -> Move:
        """Start the next round of an ``egypt`` run."""
        return cls(MoveKind.NEXT_ROUND)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse a move's text form (case and spaces do not matter).

        Raises :class:`~pyramid_widget.errors.InvalidMoveError` saying what was wrong.

        >>> Move.parse("kd"), Move.parse(" Draw ")
        (Move.parse('KD'), Move.parse('draw'))
        >>> Move.parse("5H+")
        Traceback (most recent call last):
        ...
        pyramid_widget.errors.InvalidMoveError: '5H+' is not a move: '' is not a card: use rank A23456789TJQK then suit CDHS, like 'TD'
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is text like '5H+8C', got {type(text).__name__}")
        cleaned = " ".join(text.strip().lower().split())
        if cleaned in _WORDS:
            return cls(_WORDS[cleaned])
        try:
            if cleaned.startswith("cell"):
                return cls.to_cell(parse_card(cleaned[4:].strip()))
            if "+" in text:
                left, _, right = cleaned.partition("+")
                if "+" in right:
                    raise InvalidMoveError(
                        f"{shown(text)} is not a move: only two cards pair at a time, never three"
                    )
                return cls.pair(parse_card(left.strip()), parse_card(right.strip()))
            card = parse_card(cleaned)
        except InvalidCardError as exc:
            raise InvalidMoveError(f"{shown(text)} is not a move: {exc}") from None
        if rank(card) != KING:
            raise InvalidMoveError(
                f"{shown(text)} is not a move: a card named alone must be a King; "
                "name a pair like '5H+8C', or 'draw', 'redeal', 'cell 7S'"
            )
        return cls.king(card)

    def __str__(self) -> str:
        if self.kind is MoveKind.PAIR:
            return "+".join(card_str(c) for c in self.cards)
        if self.kind is MoveKind.KING:
            return card_str(self.cards[0])
        if self.kind is MoveKind.CELL:
            return f"cell {card_str(self.cards[0])}"
        return str(self.kind.value)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @property
    def is_removal(self) -> bool:
        """True for pairs and Kings: the moves that discard cards."""
        return self.kind in (MoveKind.PAIR, MoveKind.KING)
