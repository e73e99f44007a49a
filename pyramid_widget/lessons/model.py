"""The lesson data model: a :class:`Lesson` is a title and a list of :class:`Step`\\ s.

A step is one small teaching moment on the real board: a hand-made position (only the cards
that matter), a one-sentence prompt, what counts as success (moves in ``accept`` and/or a
``goal`` tested after each move), an explanation for each anticipated mistake, a "why it
worked" text and the demo move(s) that "Show me" plays. Nothing here knows about widgets: a
teacher writes a lesson in a notebook cell and hands it to
:class:`~pyramid_widget.lessons.widget.LessonWidget` (or drives it in plain Python with
:class:`~pyramid_widget.lessons.runner.LessonRunner`).

>>> step = Step(
...     prompt="Which card pairs with this Five?",
...     pyramid={at(7, 1): "5H", at(7, 3): "8C", at(7, 5): "9D"},
...     accept=["5H+8C"],
...     mistakes={"5H+9D": "5 + 9 = 14: one too many."},
...     why="5 + 8 = 13.",
... )
>>> step.demo, step.accept, step.mistakes["5H+9D"]
(('5H+8C',), ('5H+8C',), '5 + 9 = 14: one too many.')
>>> lesson = Lesson("Fives", [step])
>>> game = lesson.steps[0].new_game()
>>> len(lesson), [str(m) for m in game.legal_moves]
(1, ['5H+8C'])

Mistakes are keyed by a move's text (``"QH+AS"``, ``"draw"``) or by a *kind* of mistake
(see :data:`MISTAKE_KINDS`); an explanation may say ``{reason}`` (the engine's reason, as a
sentence) and ``{cards}`` (the cards of the move, in words).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from pyramid_widget.engine.cards import Card, parse_card
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.layout import position
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet, get_rules
from pyramid_widget.errors import InvalidMoveError, LessonError

__all__ = [
    "MISTAKE_KINDS",
    "Goal",
    "Lesson",
    "LessonError",
    "Step",
    "at",
    "game_lost",
    "on_pass",
    "on_top",
    "pyramid_cleared",
    "removed",
]

#: Kinds of mistake a step may explain, besides exact move texts. ``illegal`` catches every
#: move the engine refuses and ``legal`` every allowed move that is not what the step asks.
MISTAKE_KINDS: dict[str, str] = {
    "covered": "a pyramid card that is still covered",
    "buried": "a waste card that is not on top of its pile",
    "stock": "a stock card that is not available",
    "discarded": "a card that is already gone",
    "no-match": "two cards whose values do not pair",
    "zones": "two cards in places that cannot pair under these rules",
    "king-alone": "a King removed alone where Kings need a partner",
    "needs-partner": "a card other than a King removed alone",
    "empty-stock": "a draw from an empty stock",
    "no-redeal": "a redeal that is not allowed now",
    "game-over": "any move after the game on the board has ended",
    "illegal": "any move the rules refuse (the fallback)",
    "legal": "an allowed move that is not what the step asks",
}

#: Words ``allow`` may hold besides move texts: any legal move of that kind is fine.
MOVE_KIND_WORDS = ("any", "pair", "king", "draw", "redeal", "cell")


def at(row: int, col: int) -> int:
    """The pyramid position of the card in ``row`` 1..7 (top to bottom) and ``col`` 1..row.

    >>> at(1, 1), at(7, 1), at(6, 1)
    (0, 21, 15)
    >>> at(3, 4)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.LessonError: row 3 has columns 1..3, got column 4
    """
    if not isinstance(row, int) or not 1 <= row <= 7:
        raise LessonError(f"rows are 1..7 (1 is the top), got {row!r}")
    if not isinstance(col, int) or not 1 <= col <= row:
        raise LessonError(f"row {row} has columns 1..{row}, got column {col!r}")
    return position(row - 1, col - 1)


@dataclass(frozen=True)
class Goal:
    """A test of the game after a move (``test(game) -> bool``) with words for it.

    >>> goal = pyramid_cleared()
    >>> goal, goal(Game.from_position("medium", pyramid=[None] * 28, stock=["5H"]))
    (Goal('the pyramid is empty'), True)
    """

    test: Callable[[Game], bool]
    text: str

    def __call__(self, game: Game) -> bool:
        return bool(self.test(game))

    def __repr__(self) -> str:
        return f"Goal({self.text!r})"


def pyramid_cleared() -> Goal:
    """Success once every pyramid card is gone."""
    return Goal(lambda g: all(c is None for c in g.pyramid), "the pyramid is empty")


def removed(*cards: str) -> Goal:
    """Success once all of ``cards`` (text like ``"KD"``) are discarded.

    >>> removed("KD", "QH")
    Goal('KD and QH are removed')
    """
    if not cards:
        raise LessonError("removed() needs at least one card")
    wanted = _cards(cards)
    return Goal(lambda g: all(c in g.discard for c in wanted), " and ".join(cards) + " are removed")


def on_top(card: str) -> Goal:
    """Success once ``card`` is the top card of a waste pile.

    >>> on_top("2C")
    Goal('2C is on top of the waste')
    """
    wanted = parse_card(card)
    return Goal(
        lambda g: any(pile and pile[-1] == wanted for pile in g.wastes),
        f"{card} is on top of the waste",
    )


def on_pass(number: int) -> Goal:
    """Success once the game has reached pass ``number`` (that is, after a redeal)."""
    return Goal(lambda g: g.pass_number >= number, f"pass {number} has begun")


def game_lost() -> Goal:
    """Success once the game on the board is lost (for steps that show how a game ends)."""
    return Goal(lambda g: g.status is Status.LOST, "the game is over")


def _cards(names: Sequence[str]) -> list[Card]:
    return [parse_card(n) for n in names]


def _move_text(text: str, what: str) -> str:
    if not isinstance(text, str):
        raise LessonError(f"{what} must be move text like '5H+8C', 'KD' or 'draw', got {text!r}")
    try:
        return str(Move.parse(text))
    except InvalidMoveError as exc:
        raise LessonError(f"{what}: {exc}") from None


def _slots(pyramid: Mapping[int, str] | Sequence[str | None]) -> tuple[str | None, ...]:
    if isinstance(pyramid, Mapping):
        slots: list[str | None] = [None] * 28
        for pos, card in pyramid.items():
            if not isinstance(pos, int) or not 0 <= pos < 28:
                raise LessonError(f"pyramid positions are 0..27 (use at(row, col)), got {pos!r}")
            slots[pos] = card
        return tuple(slots)
    if isinstance(pyramid, str) or len(pyramid) != 28:
        raise LessonError("pyramid must be a dict {position: card} or a list of 28 slots")
    return tuple(pyramid)


def _mistake_keys(mistakes: Mapping[str, str]) -> Mapping[str, str]:
    out: dict[str, str] = {}
    for key, text in mistakes.items():
        if not isinstance(text, str) or not text.strip():
            raise LessonError(f"the explanation for mistake {key!r} must be a non-empty text")
        if key in MISTAKE_KINDS:
            out[key] = text
            continue
        try:
            out[str(Move.parse(key))] = text
        except InvalidMoveError:
            kinds = ", ".join(MISTAKE_KINDS)
            raise LessonError(
                f"mistake key {key!r} is neither a move like 'QH+AS' nor one of: {kinds}"
            ) from None
    return MappingProxyType(out)


def _allowed(words: Sequence[str]) -> tuple[str, ...]:
    return tuple(
        w if w in MOVE_KIND_WORDS else _move_text(w, "allow entries (or a kind: any, pair, ...)")
        for w in words
    )


@dataclass(frozen=True, eq=False)
class Step:
    """One step of a lesson: a position, a prompt, what counts as success, explanations.

    ``pyramid``: ``{position: card}`` (positions from :func:`at`) or a list of 28 slots.
    ``stock`` is listed first-drawn first and each waste pile bottom to top, as in
    :meth:`Game.from_position <pyramid_widget.engine.game.Game.from_position>`.
    The step is done after a move in ``accept``, or after any move once ``goal(game)`` is
    true. Moves in ``allow`` (texts, or kinds such as ``"draw"``/``"pair"``/``"any"``) may be
    made along the way; every other move is refused and explained, leaving the position as
    it was. ``demo`` (default: the only accepted move) is what "Show me" plays.
    Raises :class:`LessonError` (a ``ValueError``) for anything that cannot be taught.
    """

    prompt: str
    pyramid: Mapping[int, str] | Sequence[str | None]
    accept: Sequence[str] = ()
    goal: Callable[[Game], bool] | None = None
    why: str = ""
    mistakes: Mapping[str, str] = field(default_factory=dict)
    demo: Sequence[str] = ()
    allow: Sequence[str] = ()
    rules: str | RuleSet = "medium"
    stock: Sequence[str] = ()
    wastes: Sequence[Sequence[str]] = ()
    cells: Sequence[str | None] = ()
    pass_number: int = 1
    progress: str = "Good. Keep going."

    def __post_init__(self) -> None:
        if not isinstance(self.prompt, str) or not self.prompt.strip():
            raise LessonError("a step needs a prompt (one sentence saying what to do)")
        accept = tuple(_move_text(m, "accept entries") for m in self.accept)
        if not accept and self.goal is None:
            raise LessonError(f"step {self.prompt!r} needs accept=[moves] or a goal")
        demo = tuple(_move_text(m, "demo entries") for m in self.demo)
        if not demo and len(accept) == 1:
            demo = accept
        if not demo:
            raise LessonError(f"step {self.prompt!r} needs demo=[moves] for 'Show me'")
        setattr_ = object.__setattr__
        setattr_(self, "rules", get_rules(self.rules))
        setattr_(self, "pyramid", _slots(self.pyramid))
        setattr_(self, "accept", accept)
        setattr_(self, "demo", demo)
        setattr_(self, "allow", _allowed(self.allow))
        setattr_(self, "mistakes", _mistake_keys(self.mistakes))
        setattr_(self, "stock", tuple(self.stock))
        setattr_(self, "wastes", tuple(tuple(p) for p in self.wastes))
        setattr_(self, "cells", tuple(self.cells))
        try:
            game = self.new_game()
        except ValueError as exc:
            raise LessonError(f"step {self.prompt!r}: bad position: {exc}") from None
        if game.is_over:
            raise LessonError(f"step {self.prompt!r}: the position is over ({game.status_reason})")

    def new_game(self) -> Game:
        """A fresh :class:`~pyramid_widget.engine.game.Game` on this step's position."""
        return Game.from_position(
            self.rules,
            pyramid=list(self.pyramid),
            stock=list(self.stock),
            wastes=[list(p) for p in self.wastes],
            cells=list(self.cells),
            pass_number=self.pass_number,
        )

    def accepts(self, move: Move) -> bool:
        """Whether ``move`` is one of the accepted (success) moves."""
        return str(move) in self.accept

    def allows(self, move: Move) -> bool:
        """Whether ``move`` may be made on the way to the goal."""
        kind = "pair" if move.kind is MoveKind.PAIR else move.kind.value
        return any(w in ("any", kind, str(move)) for w in self.allow)

    def is_done(self, game: Game, move: Move) -> bool:
        """Whether the step is complete after ``move`` was played, leaving ``game``."""
        return self.accepts(move) or (self.goal is not None and bool(self.goal(game)))


@dataclass(frozen=True, eq=False)
class Lesson:
    """A titled sequence of :class:`Step`\\ s, with an optional intro and closing summary."""

    title: str
    steps: Sequence[Step]
    intro: str = ""
    summary: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.title, str) or not self.title.strip():
            raise LessonError("a lesson needs a title")
        steps = tuple(self.steps)
        if not steps or not all(isinstance(s, Step) for s in steps):
            raise LessonError(f"lesson {self.title!r} needs a non-empty list of Step objects")
        object.__setattr__(self, "steps", steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __repr__(self) -> str:
        return f"<Lesson {self.title!r}: {len(self.steps)} steps>"
