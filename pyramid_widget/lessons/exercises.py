"""Small exercises for the lesson notebooks: a question, an answer the learner types into a
cell, and a check that says right or wrong (and what is wrong).

>>> ex = exercise(1)
>>> ex.check([(6, 7), (5, 8)])
✘ Not yet: you have 2 of the 6 pairs; 4 missing (one of them has an Ace).
>>> ex.check([(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (7, 6)])
✔ Right! These are all six: A+Q, 2+J, 3+10, 4+9, 5+8 and 6+7.
>>> bool(ex.check([(5, 9)]))
False
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pyramid_widget.engine.cards import Card, card_str, parse_card, rank
from pyramid_widget.engine.describe import counted
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.rules import PRESETS
from pyramid_widget.errors import ArgumentError, UnknownExerciseError
from pyramid_widget.lessons.model import at, lesson_error

__all__ = ["EXERCISES", "Check", "Exercise", "exercise"]

_LETTERS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}


@dataclass(frozen=True)
class Check:
    """The verdict on an answer: ``ok`` and a message; shows itself as ✔/✘ and the message."""

    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return ("✔ " if self.ok else "✘ ") + self.message


@dataclass(frozen=True)
class Exercise:
    """A question and the function that checks an answer to it."""

    question: str
    checker: Callable[[Any], Check]
    picture: str = ""

    def check(self, answer: Any) -> Check:
        """Check ``answer``; a malformed answer gets a ✘ saying what form is expected."""
        try:
            return self.checker(answer)
        except (TypeError, ValueError) as exc:
            return Check(False, f"I could not read that answer: {exc}")

    def __repr__(self) -> str:
        return self.question + (f"\n\n{self.picture}" if self.picture else "")


def _value(item: Any) -> int:
    if isinstance(item, bool):
        raise TypeError(f"{item!r} is not a card value")
    if isinstance(item, int) and 1 <= item <= 13:
        return item
    if isinstance(item, str):
        text = item.strip().upper()
        if text in _LETTERS:
            return _LETTERS[text]
        # ASCII digits only: "²".isdigit() is true and int() raises on it, and "٣" would
        # be read as 3 (a learner's answer is refused in words, not in Python's).
        if text.isascii() and text.isdigit() and 1 <= int(text) <= 13:
            return int(text)
    raise ArgumentError(f"{item!r} is not a card value (1..13, or A, J, Q, K)")


def _check_pairs(answer: Iterable[Any]) -> Check:
    pairs = {tuple(sorted(_value(v) for v in pair)) for pair in answer}
    wrong = sorted(p for p in pairs if len(p) != 2 or sum(p) != 13)
    if wrong:
        shown = ", ".join(f"{p[0]} + {p[1]} = {sum(p)}" if len(p) == 2 else str(p) for p in wrong)
        return Check(False, f"Not yet: {shown}; a pair must total exactly 13.")
    right = {(v, 13 - v) for v in range(1, 7)}
    if pairs != right:
        missing = sorted(right - pairs)
        first = {1: "an Ace", 2: "a Two", 3: "a Three", 4: "a Four", 5: "a Five", 6: "a Six"}
        return Check(
            False,
            f"Not yet: you have {len(pairs)} of the 6 pairs; {len(missing)} missing (one of "
            f"them has {first[missing[0][0]]}).",
        )
    return Check(True, "Right! These are all six: A+Q, 2+J, 3+10, 4+9, 5+8 and 6+7.")


def _cards(answer: Iterable[Any]) -> set[Card]:
    if isinstance(answer, str):
        answer = answer.replace(",", " ").split()
    return {parse_card(str(c)) for c in answer}


def _check_cards(expected: set[Card], explain: Callable[[Card], str]) -> Callable[[Any], Check]:
    def check(answer: Any) -> Check:
        given = _cards(answer)
        wrong = sorted(given - expected)
        if wrong:
            return Check(False, "Not yet: " + "; ".join(explain(c) for c in wrong) + ".")
        missing = expected - given
        if missing:
            return Check(False, f"Not yet: {len(missing)} card(s) missing.")
        names = ", ".join(card_str(c) for c in sorted(expected, key=card_str))
        return Check(True, f"Right! {names}.")

    return check


_KINGS_SHOWN = ["KH", "QS", "KD", "AC", "7S"]


def _not_alone(card: Card) -> str:
    if card not in _cards(_KINGS_SHOWN):
        return f"{card_str(card)} is not one of the cards shown"
    return f"{card_str(card)} is worth {rank(card)} and needs a partner to make 13"


_COVERED = Game.from_position(
    "medium",
    pyramid=[
        {at(6, 1): "QH", at(6, 2): "4C", at(7, 1): "5C", at(7, 2): "8D", at(7, 4): "AS"}.get(p)
        for p in range(28)
    ],
)


def _why_covered(card: Card) -> str:
    reason = _COVERED.explain(Move.king(card)) if card in _COVERED.pyramid else None
    return reason or f"{card_str(card)} is not in this pyramid"


_WASTE = Game.from_position(
    "medium",
    pyramid=[
        {at(7, 2): "5D", at(7, 4): "TS", at(7, 5): "9H", at(7, 6): "JC"}.get(p) for p in range(28)
    ],
    wastes=[["8C", "4S"]],
)


def _check_removals(answer: Iterable[Any]) -> Check:
    moves = set()
    for item in [answer] if isinstance(answer, str) else answer:
        text = item if isinstance(item, str) else "+".join(str(c) for c in item)
        moves.add(Move.parse(text))
    expected = {m for m in _WASTE.legal_moves if m.is_removal}
    wrong = sorted(str(m) for m in moves - expected)
    if wrong:
        reasons = "; ".join(f"{w}: {_WASTE.explain(w)}" for w in wrong)
        return Check(False, f"Not yet: {reasons}.")
    if moves != expected:
        return Check(False, f"Not yet: {len(expected - moves)} pair(s) missing.")
    return Check(True, "Right! Only " + ", ".join(sorted(str(m) for m in expected)) + ".")


def _redeals(name: str) -> int | str:
    passes = PRESETS[name].passes
    return "unlimited" if passes is None else passes - 1


_REDEAL_SETS = ("hard", "medium", "easy", "apophis", "cheops")


def _check_redeals(answer: dict[str, Any]) -> Check:
    if not isinstance(answer, dict):
        raise TypeError("give a dict like {'hard': 0, ...}")
    wrong = []
    for name in _REDEAL_SETS:
        given = answer.get(name)
        given = given.lower() if isinstance(given, str) else given
        if given != _redeals(name):
            wrong.append(f"{name} allows {_redeals(name)}, not {given!r}")
    if wrong:
        return Check(False, "Not yet: " + "; ".join(wrong) + ".")
    return Check(True, "Right! Passes minus one: the first pass is not a redeal.")


_ENDGAME = Game.from_position(
    "hard",
    pyramid=[
        {at(6, 1): "QH", at(7, 1): "5C", at(7, 2): "8D", at(7, 4): "9S"}.get(p) for p in range(28)
    ],
    stock=["4D", "AS", "2C"],
)


def _check_line(answer: Iterable[Any]) -> Check:
    if isinstance(answer, str):
        answer = answer.replace(",", " ").split()
    game = _ENDGAME.copy()
    for number, text in enumerate(answer, 1):
        move = Move.parse(str(text))
        refusal = game.refusal(move)
        if refusal is not None:
            return Check(
                False, f"Not yet: move {number} ({move}) cannot be played: {refusal.words}."
            )
        game.play(move)
        if game.is_over and game.status.value != "won":
            return Check(False, f"Not yet: after move {number} ({move}) no move is left.")
    if game.status.value != "won":
        left = sum(1 for c in game.pyramid if c is not None)
        return Check(False, f"Not yet: {left} pyramid card(s) are still there.")
    return Check(True, f"Right! {counted(len(game.history), 'move')}, and the pyramid is empty.")


#: The exercise of each lesson notebook, by lesson number (1..6).
EXERCISES: dict[int, Exercise] = {
    1: Exercise(
        "List every pair of values that totals 13, as pairs like (6, 7). Use 1 for an Ace, "
        "11 for a Jack and 12 for a Queen (or the letters A, J, Q).",
        _check_pairs,
    ),
    2: Exercise(
        f"Which of these cards can be removed alone under medium: {', '.join(_KINGS_SHOWN)}? "
        "Answer with a list of card names like ['KH'].",
        _check_cards(_cards(["KH", "KD"]), _not_alone),
    ),
    3: Exercise(
        "Which pyramid cards are available (uncovered) in the position below? Answer with a "
        "list of card names.",
        _check_cards(set(_COVERED.available()), _why_covered),
        # The text picture brackets available cards: that is the answer, so leave them out.
        str(_COVERED).replace("[", " ").replace("]", " "),
    ),
    4: Exercise(
        "List every pair you may remove right now in the position below (the waste is 8C "
        "under 4S), as texts like '5D+8C'.",
        _check_removals,
        str(_WASTE),
    ),
    5: Exercise(
        "How many redeals does each rule set allow? Fill in a dict like {'hard': ..., "
        "'medium': ..., 'easy': ..., 'apophis': ..., 'cheops': ...} (a number or 'unlimited').",
        _check_redeals,
    ),
    6: Exercise(
        "Win the position below under hard (one pass, so a buried card may never come back): "
        "give the moves in order, as a list like ['draw', '5C+8D'].",
        _check_line,
        str(_ENDGAME),
    ),
}


def exercise(number: int) -> Exercise:
    """The exercise of lesson ``number`` (1..6); otherwise an
    :class:`~pyramid_widget.errors.UnknownExerciseError` (a ``LessonError`` and a
    ``KeyError``) naming the choices.

    >>> exercise(6).check(["draw", "4D+9S", "5C+8D", "draw", "AS+QH"])
    ✔ Right! 5 moves, and the pyramid is empty.
    >>> exercise(6).check(["5C+8D", "draw", "draw"])
    ✘ Not yet: 2 pyramid card(s) are still there.
    """
    # Checked as a number first: [] is unhashable (a TypeError from the dict), True == 1.
    if isinstance(number, bool) or not isinstance(number, int) or number not in EXERCISES:
        raise lesson_error(
            f"lessons are numbered 1..{len(EXERCISES)}, got {reprlib.repr(number)}",
            UnknownExerciseError,
        )
    return EXERCISES[number]
