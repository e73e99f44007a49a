"""Every error the package raises on bad input, in one place.

Each one derives from :class:`PyramidError`, itself a ``ValueError``, and says in one sentence
what was asked and why it cannot be done, so a player, a learner or a notebook user can read
it. Catch ``PyramidError`` to catch them all:

>>> from pyramid_widget import Game, PyramidError
>>> try:
...     Game("medium", deal=7).play("5C+8D")
... except PyramidError as error:
...     print(error)
cannot play '5C+8D': 5C is covered by 2C and TC
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class PyramidError(ValueError):
    """The root of every error the package raises on bad input."""


# -- the engine --------------------------------------------------------------------------------


class InvalidCardError(PyramidError):
    """A card name that does not name a card (``"ZZ"``, ``"1S"``)."""


class InvalidDealError(PyramidError):
    """A deal string or deal number that does not describe a deal."""


class InvalidRulesError(PyramidError):
    """A rule set whose fields do not make a playable game (for example 0 waste piles)."""


class InvalidMoveError(PyramidError):
    """A move whose text cannot be parsed (``"5H+"``, ``"shuffle"``)."""


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse a move (or why a card cannot be played), as data.

    ``kind`` is one of a small fixed set (:data:`pyramid_widget.engine.legality.KINDS` lists
    them with their meaning: ``"covered"``, ``"no-match"``, ``"empty-stock"`` ...), ``cards``
    the cards the refusal is about (for ``"covered"``: the card, then the cards covering it),
    ``text`` the sentence for the player with card codes (``"5C is covered by 2C and TC"``)
    and ``words`` the same sentence with the cards spelled out (``"the 5 of clubs is covered
    by the 2 of clubs and the 10 of clubs"``). Callers look up ``kind``, never parse ``text``.

    >>> Refusal("refused", (), "not now").words
    'not now'
    """

    kind: str
    cards: tuple[int, ...]
    text: str
    words: str = ""

    def __post_init__(self) -> None:
        if not self.words:
            object.__setattr__(self, "words", self.text)

    def __str__(self) -> str:
        return self.text


class IllegalMoveError(PyramidError):
    """A well-formed move that the rules do not allow in the current position.

    ``move`` is the move that was asked for, ``refusal`` the :class:`Refusal` saying why and
    ``reason`` its text, a short sentence for the player (``"QH is covered by 5C and 8D"``).
    A plain text given instead of a refusal (a widget's move filter) becomes a refusal of
    kind ``"refused"``.

    >>> IllegalMoveError("undo", "nothing to undo").refusal.kind
    'refused'
    """

    def __init__(self, move: Any, reason: str | Refusal) -> None:
        refusal = reason if isinstance(reason, Refusal) else Refusal("refused", (), str(reason))
        self.move = move
        self.refusal = refusal
        self.reason = refusal.text
        super().__init__(f"cannot play {str(move)!r}: {refusal.text}")


class GameFileError(PyramidError):
    """A saved game that cannot be read or does not replay."""


# -- the solver inside the game ----------------------------------------------------------------


class NoWinnableDealError(PyramidError):
    """``winnable_deal`` found no deal it could prove winnable within its bound."""


class UndecidedError(PyramidError):
    """The solver could not decide the position within its time or node budget."""


# -- the lab, the records, the widget, the lessons ---------------------------------------------


class StrategyError(PyramidError):
    """A strategy returned something that is not a legal move."""

    def _render_traceback_(self) -> list[str]:
        """One line in a notebook: the mistake is the strategy's, not in the library's frames
        (IPython shows this instead of the traceback)."""
        return [f"StrategyError: {self}"]


class ArgumentError(PyramidError):
    """A value a function of the lab, the solver, the widget or the lessons cannot take (out of
    range, empty, two names the same); the sentence says what it can take. Wrong *types* stay
    ``TypeError``, as in Python itself."""


class RecordsError(PyramidError):
    """Bad input to the records store (an unknown result, an empty name, an unreadable save)."""


class UnknownSavedGameError(RecordsError, KeyError):
    """No saved game has that name; the message lists the names there are."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class IntentError(PyramidError):
    """A message from the page that cannot be acted on (bad kind, field, card or rate)."""


class LessonError(PyramidError):
    """A lesson or step that cannot be taught as written (the message says what is wrong)."""


class UnknownLessonError(LessonError, IndexError):
    """No lesson or step has that number; the message names the numbers there are (an
    ``IndexError`` too, as it was before it was a ``LessonError``)."""


class UnknownExerciseError(LessonError, KeyError):
    """No exercise has that number; the message names the numbers there are (a ``KeyError``
    too, as it was before it was a ``LessonError``)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])
