"""Moves and refusals in words, for the widget's messages, hints and the lessons.

>>> from pyramid_widget.engine.moves import Move
>>> describe_move(Move.parse("5H+8C"))
'pair the 5 of hearts with the 8 of clubs'
>>> sentence("the stock is empty")
'The stock is empty.'
"""

from __future__ import annotations

from pyramid_widget.engine.cards import card_long_name
from pyramid_widget.engine.moves import Move, MoveKind

__all__ = ["counted", "describe_move", "sentence"]


def sentence(text: str) -> str:
    """``text`` as a sentence: spaces collapsed, a capital first, a full stop last unless it
    already ends with one (``.``, ``!``, ``?``, also inside a closing bracket).

    >>> sentence("  8C is on it (4S is on it)"), sentence("done!"), sentence("")
    ('8C is on it (4S is on it).', 'Done!', '')
    """
    text = " ".join(text.split())
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ".)", "!)", "?)")) else text + "."


def counted(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and ``noun``, the plural (``nouns``, else ``noun`` + "s") unless ``n`` is 1.

    >>> counted(1, "move"), counted(0, "move"), counted(2, "position"), counted(3, "match", "matches")
    ('1 move', '0 moves', '2 positions', '3 matches')
    """
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


def describe_move(move: Move) -> str:
    """A move in words, for hints and the solver.

    >>> describe_move(Move.parse("draw")), describe_move(Move.parse("cell KD"))
    ('draw from the stock', 'move the King of diamonds to the cell')
    """
    names = [card_long_name(c) for c in move.cards]
    names = [*names, "", ""]
    words = {
        MoveKind.PAIR: f"pair the {names[0]} with the {names[1]}",
        MoveKind.KING: f"remove the {names[0]}",
        MoveKind.CELL: f"move the {names[0]} to the cell",
        MoveKind.DRAW: "draw from the stock",
        MoveKind.REDEAL: "turn the waste over (redeal)",
        MoveKind.NEXT_ROUND: "deal the next round",
    }
    return words[move.kind]
