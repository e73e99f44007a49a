"""Errors raised by the engine. Every one is a ``ValueError`` and says what was asked and why
it cannot be done, so a notebook user or a player can read it."""

from __future__ import annotations

from typing import Any


class PyramidError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidCardError(PyramidError):
    """A card name that does not name a card (``"ZZ"``, ``"1S"``)."""


class InvalidDealError(PyramidError):
    """A deal string or deal number that does not describe a deal."""


class InvalidRulesError(PyramidError):
    """A rule set whose fields do not make a playable game (for example 0 waste piles)."""


class InvalidMoveError(PyramidError):
    """A move whose text cannot be parsed (``"5H+"``, ``"shuffle"``)."""


class IllegalMoveError(PyramidError):
    """A well-formed move that the rules do not allow in the current position.

    ``move`` is the move that was asked for and ``reason`` a short sentence for the player
    (``"QH is covered by 5C and 8D"``).
    """

    def __init__(self, move: Any, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"cannot play {str(move)!r}: {reason}")
