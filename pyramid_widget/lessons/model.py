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

import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from pyramid_widget.engine.cards import Card, card_long_name, card_str, parse_card
from pyramid_widget.engine.describe import sentence
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.layout import position, row_col
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet, get_rules
from pyramid_widget.errors import IllegalMoveError, InvalidCardError, InvalidMoveError, LessonError

__all__ = [
    "MISTAKE_KINDS",
    "Goal",
    "Lesson",
    "LessonError",
    "Step",
    "at",
    "both",
    "game_lost",
    "on_pass",
    "on_top",
    "pyramid_cleared",
    "removed",
    "undone",
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


def undone(move: str | None = None) -> Goal:
    """Success once a move (``move``, when given: text like ``"5H+8C"``) has been taken back
    and the board is back at the step's start (for a step that teaches Undo; the runner tests
    goals after an undo too).

    >>> game = Game.from_position("medium", pyramid=[None] * 25 + ["KS", "5H", "8C"])
    >>> _ = game.play("KS"); _ = game.undo()
    >>> undone()(game), undone("8C+5H")(game)
    (True, False)
    >>> _ = game.play("5H+8C"); before = undone("8C+5H")(game); _ = game.undo()
    >>> before, undone("8C+5H")(game)
    (False, True)
    """
    if move is None:
        return Goal(lambda g: g.moves == 0 and g.can_redo, "the move is taken back")
    wanted = _same_move(Move.parse(move))

    def taken_back(g: Game) -> bool:
        redo = g.record().redo
        return g.moves == 0 and bool(redo) and _same_move(redo[-1][0]) == wanted

    return Goal(taken_back, f"{move} is taken back")


def _same_move(move: Move) -> tuple[str, tuple[Card, ...]]:
    """A move's kind and cards, in either order (5H+8C is 8C+5H)."""
    return move.kind.value, tuple(sorted(move.cards))


def both(first: Goal, second: Goal) -> Goal:
    """Success once both goals hold.

    >>> both(removed("6C"), on_pass(3))
    Goal('6C are removed, and pass 3 has begun')
    """
    return Goal(lambda g: first(g) and second(g), f"{first.text}, and {second.text}")


def _cards(names: Sequence[str]) -> list[Card]:
    return [parse_card(n) for n in names]


def lesson_error(text: str, kind: type[LessonError] = LessonError) -> LessonError:
    """A :class:`LessonError` (or the subclass ``kind``) with ``text`` that a notebook shows
    as that one line, without the library's traceback frames (IPython shows
    ``_render_traceback_()`` instead)."""
    error = kind(text)
    name = kind.__name__
    setattr(error, "_render_traceback_", lambda: [f"{name}: {text}"])  # noqa: B010
    return error


#: What ``demo`` may hold besides move texts: ``"undo"`` takes the last move back.
DEMO_WORDS = ("undo",)


def _move_text(text: str, what: str) -> str:
    if not isinstance(text, str):
        raise lesson_error(f"{what} must be move text like '5H+8C', 'KD' or 'draw', got {text!r}")
    try:
        return str(Move.parse(text))
    except InvalidMoveError as exc:
        raise lesson_error(f"{what}: {exc}") from None


def _shown(value: object) -> str:
    """``value`` as a message quotes it: its repr, cut short when long (reprlib)."""
    return reprlib.repr(value)


def _listed(value: object, where: str, name: str, example: str) -> tuple[Any, ...]:
    """The entries of a step's list field ``name``, as a tuple.

    A text, a dict, ``None`` or a number is refused with one :class:`LessonError` naming
    the field (iterating it failed deep inside, or split ``"9D"`` into ``"9"`` and ``"D"``).

    >>> _listed(["9D"], "step 'Go.'", "stock", "['9D', '4S']")
    ('9D',)
    >>> _listed(None, "step 'Go.'", "stock", "['9D', '4S']")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.LessonError: step 'Go.': stock must be a list like ['9D', '4S'], got None
    """
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise lesson_error(f"{where}: {name} must be a list like {example}, got {_shown(value)}")
    return tuple(value)


def _slots(pyramid: Mapping[int, str] | Sequence[str | None], where: str) -> tuple[str | None, ...]:
    if isinstance(pyramid, Mapping):
        slots: list[str | None] = [None] * 28
        for pos, card in pyramid.items():
            if not isinstance(pos, int) or not 0 <= pos < 28:
                raise lesson_error(
                    f"{where}: pyramid positions are 0..27 (use at(row, col)), got {_shown(pos)}"
                )
            slots[pos] = card
        return tuple(slots)
    if isinstance(pyramid, str) or not isinstance(pyramid, Sequence) or len(pyramid) != 28:
        raise lesson_error(
            f"{where}: pyramid must be a dict {{position: card}} or a list of 28 slots, "
            f"got {_shown(pyramid)}"
        )
    return tuple(pyramid)


def _mistake_keys(mistakes: Mapping[str, str], where: str) -> Mapping[str, str]:
    if not isinstance(mistakes, Mapping):  # mistakes=None once failed on None.items()
        raise lesson_error(
            f"{where}: mistakes must be a dict {{move or kind: explanation}}, "
            f"got {_shown(mistakes)}"
        )
    out: dict[str, str] = {}
    for key, text in mistakes.items():
        if not isinstance(text, str) or not text.strip():
            raise lesson_error(f"the explanation for mistake {key!r} must be a non-empty text")
        if key in MISTAKE_KINDS:
            out[key] = text
            continue
        try:
            out[str(Move.parse(key))] = text
        except InvalidMoveError:
            kinds = ", ".join(MISTAKE_KINDS)
            raise lesson_error(
                f"mistake key {key!r} is neither a move like 'QH+AS' nor one of: {kinds}"
            ) from None
    return MappingProxyType(out)


def _allowed(words: Sequence[str]) -> tuple[str, ...]:
    return tuple(
        w if w in MOVE_KIND_WORDS else _move_text(w, "allow entries (or a kind: any, pair, ...)")
        for w in words
    )


def _where(zone: str, index: int) -> str:
    if zone == "pyramid":
        row, col = row_col(index)
        return f"row {row + 1} column {col + 1}"
    return {"stock": "the stock", "waste": f"waste pile {index + 1}", "cell": "the cell"}[zone]


def _placed(
    pyramid: Sequence[str | None],
    stock: Sequence[str],
    wastes: Sequence[Sequence[str]],
    cells: Sequence[str | None],
) -> dict[Card, str]:
    """Where each card of a hand-made position lies; a card placed twice or a name that is
    no card raises one :class:`LessonError` naming it and its places."""
    places: list[tuple[object, str]] = [
        (c, _where("pyramid", i)) for i, c in enumerate(pyramid) if c is not None
    ]
    places += [(c, _where("stock", 0)) for c in stock]
    places += [(c, _where("waste", i)) for i, pile in enumerate(wastes) for c in pile]
    places += [(c, _where("cell", 0)) for c in cells if c is not None]
    seen: dict[Card, str] = {}
    for name, where in places:
        try:
            card = parse_card(name) if isinstance(name, str) else None
        except InvalidCardError as exc:
            raise lesson_error(f"{where} holds {name!r}: {exc}") from None
        if card is None:
            raise lesson_error(f"{where} holds {name!r}: cards are texts like '5H'")
        if card in seen:
            raise lesson_error(
                f"the {card_long_name(card)} ({card_str(card)}) is placed twice: at "
                f"{seen[card]} and at {where}"
            )
        seen[card] = where
    return seen


@dataclass(frozen=True, eq=False)
class Step:
    """One step of a lesson: a position, a prompt, what counts as success, explanations.

    ``pyramid``: ``{position: card}`` (positions from :func:`at`) or a list of 28 slots.
    ``stock`` is listed first-drawn first and each waste pile bottom to top, as in
    :meth:`Game.from_position <pyramid_widget.engine.game.Game.from_position>`.
    The step is done after a move in ``accept``, or after any move once ``goal(game)`` is
    true. Moves in ``allow`` (texts, or kinds such as ``"draw"``/``"pair"``/``"any"``) may be
    made along the way; every other move is refused and explained, leaving the position as
    it was. ``demo`` (default: the only accepted move; ``"undo"`` takes a move back) is what
    "Show me" plays. ``controls``: board buttons the step teaches besides Help (``"undo"``).
    ``solver_checks``: after each of the learner's moves the exact solver checks that the
    win is still in hand, and the first move that throws it away is explained.
    Raises :class:`LessonError` (a ``ValueError``) for anything that cannot be taught,
    naming the move, the card and why.
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
    controls: Sequence[str] = ()
    solver_checks: bool = False

    def __post_init__(self) -> None:
        __tracebackhide__ = True
        if not isinstance(self.prompt, str) or not self.prompt.strip():
            raise lesson_error("a step needs a prompt (one sentence saying what to do)")
        where = f"step {self.prompt!r}"
        moves = "['5H+8C']"
        accept = tuple(
            _move_text(m, "accept entries") for m in _listed(self.accept, where, "accept", moves)
        )
        if not accept and self.goal is None:
            raise lesson_error(f"step {self.prompt!r} needs accept=[moves] or a goal")
        demo = tuple(
            m if m in DEMO_WORDS else _move_text(m, "demo entries")
            for m in _listed(self.demo, where, "demo", moves)
        )
        if not demo and len(accept) == 1:
            demo = accept
        if not demo:
            raise lesson_error(f"step {self.prompt!r} needs demo=[moves] for 'Show me'")
        controls = self.controls
        if isinstance(controls, (str, bytes, Mapping)) or not isinstance(controls, Iterable):
            controls = [controls]  # one control named alone, or None: refused just below
        controls = tuple(controls)
        if any(c not in STEP_CONTROLS for c in controls):
            raise lesson_error(
                f"{where}: controls are a list of {list(STEP_CONTROLS)}, got {_shown(self.controls)}"
            )
        pass_number = self.pass_number
        if isinstance(pass_number, bool) or not isinstance(pass_number, int) or pass_number < 1:
            raise lesson_error(
                f"{where}: pass_number must be a whole number of at least 1, "
                f"got {_shown(pass_number)}"
            )
        piles = _listed(self.wastes, where, "wastes", "[['9D', '4S']]")
        setattr_ = object.__setattr__
        setattr_(self, "rules", get_rules(self.rules))
        setattr_(self, "pyramid", _slots(self.pyramid, where))
        setattr_(self, "accept", accept)
        setattr_(self, "demo", demo)
        setattr_(self, "allow", _allowed(_listed(self.allow, where, "allow", "['draw', 'pair']")))
        setattr_(self, "mistakes", _mistake_keys(self.mistakes, where))
        setattr_(self, "stock", _listed(self.stock, where, "stock", "['9D', '4S']"))
        setattr_(
            self,
            "wastes",
            tuple(_listed(p, where, "each waste pile", "['9D', '4S']") for p in piles),
        )
        setattr_(self, "cells", _listed(self.cells, where, "cells", "['9D']"))
        setattr_(self, "controls", controls)
        _placed(self.pyramid, self.stock, self.wastes, self.cells)  # type: ignore[arg-type]
        try:
            game = self.new_game()
        except ValueError as exc:
            raise lesson_error(f"step {self.prompt!r}: bad position: {exc}") from None
        if game.is_over:
            raise lesson_error(f"step {self.prompt!r}: {_over_text(game)}")

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

    def permits(self, move: Move) -> bool:
        """Whether the step lets ``move`` be played (accepted, or allowed and not a mistake)."""
        return self.accepts(move) or (str(move) not in self.mistakes and self.allows(move))

    def is_done(self, game: Game, move: Move | None) -> bool:
        """Whether the step is complete after ``move`` was played (``None``: a move was taken
        back), leaving ``game``."""
        accepted = move is not None and self.accepts(move)
        return accepted or (self.goal is not None and bool(self.goal(game)))

    @property
    def first_row(self) -> int:
        """The top row (1..7) of the pyramid cards this step uses (cards only ever leave).

        >>> Step("Pair them.", {at(7, 1): "5H", at(7, 2): "8C"}, accept=["5H+8C"]).first_row
        7
        """
        rows = [row_col(i)[0] + 1 for i, c in enumerate(self.pyramid) if c is not None]
        return min(rows, default=7)

    @property
    def uses_piles(self) -> bool:
        """Whether the step has a stock or waste to show (else the board shows neither)."""
        rules = get_rules(self.rules)
        return bool(self.stock or any(self.wastes) or rules.cells)

    @property
    def uses_redeals(self) -> bool:
        """Whether the step is about redeals (else the board hides "Redeals left")."""
        if get_rules(self.rules).passes == 1:
            return False  # one pass: no redeal to count ("Redeals left 0" teaches nothing)
        words = (*self.accept, *self.allow, *self.demo, *self.mistakes)
        return self.pass_number > 1 or any(w in ("redeal", "no-redeal", "any") for w in words)


#: Board buttons a step may teach (see :attr:`Step.controls`); Help is always there.
STEP_CONTROLS = ("undo", "redo", "hint")


def _over_text(game: Game) -> str:
    if game.status is Status.WON:
        return "the position is already won (there is nothing left to do)"
    return f"the position has no legal move, so the game is lost before it starts ({game.status_reason})"


def _short(prompt: str) -> str:
    return prompt if len(prompt) <= 40 else prompt[:37].rstrip() + "..."


def _check_step(step: Step, where: str) -> None:
    """Check one step of a lesson: every move it names is about cards in its position and
    can be played at some point of its demo, and its demo completes it. Raises one
    :class:`LessonError` line naming the step, the move, the card and why."""
    game = step.new_game()
    placed = set(_placed(step.pyramid, step.stock, step.wastes, step.cells))  # type: ignore[arg-type]
    named = [("accept move", m) for m in step.accept]
    named += [("demo move", m) for m in step.demo if m not in DEMO_WORDS]
    named += [("mistake", m) for m in step.mistakes if m not in MISTAKE_KINDS]
    named += [("allow entry", m) for m in step.allow if m not in MOVE_KIND_WORDS]
    for what, text in named:
        for card in Move.parse(text).cards:
            if card not in placed:
                raise lesson_error(
                    f"{where}: {what} {text!r} names the {card_long_name(card)} "
                    f"({card_str(card)}), which is not in the step's position"
                )
    for text in step.accept:
        if text in step.mistakes:
            raise lesson_error(
                f"{where}: {text!r} is both accepted and explained as a mistake; an accepted "
                "move is never explained, so remove it from mistakes"
            )
    seen = [game.copy()]
    for index, text in enumerate(step.demo):
        if text == "undo":
            if not game.can_undo:
                raise lesson_error(f"{where}: demo step {index + 1} undoes, but no move was made")
            game.undo()
            seen.append(game.copy())
            continue
        move = Move.parse(text)
        refusal = game.refusal(move)
        if refusal is not None:
            raise lesson_error(
                f"{where}: demo move {index + 1} ({text!r}) is refused: {sentence(refusal.words)}"
            )
        if not step.permits(move):
            raise lesson_error(
                f"{where}: demo move {index + 1} ({text!r}) is neither accepted nor allowed "
                "by the step (add it to accept or allow)"
            )
        try:
            game.play(move)
        except IllegalMoveError as exc:  # the rules agree above; kept for safety
            raise lesson_error(f"{where}: demo move {text!r} is refused: {exc.reason}") from None
        seen.append(game.copy())
        done = step.is_done(game, move)
        if done and index < len(step.demo) - 1:
            raise lesson_error(
                f"{where}: the step is done after demo move {index + 1} ({text!r}), before "
                "the end of its demo"
            )
    last = step.demo[-1]
    if not step.is_done(game, None if last == "undo" else Move.parse(last)):
        raise lesson_error(f"{where}: the demo {list(step.demo)} does not complete the step")
    for text in step.accept:
        move = Move.parse(text)
        if all(g.refusal(move) is not None for g in seen):
            refusal = step.new_game().refusal(move)
            why = sentence(refusal.words) if refusal is not None else ""
            raise lesson_error(
                f"{where}: accept move {text!r} can never be played (not at the start nor at any "
                f"point of the demo); at the start: {why}"
            )


@dataclass(frozen=True, eq=False)
class Lesson:
    """A titled sequence of :class:`Step`\\ s, with an optional intro and closing summary.

    Checked when made: every step's demo completes it, every move a step names can be
    played, every card it names is in its position; a :class:`LessonError` otherwise, in one
    line naming the step, the move, the card and why:

    >>> Lesson("Fives", [Step("Pair the Five.", {at(7, 1): "5H", at(7, 2): "8C"},
    ...                       accept=["5H+9C"])])
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.LessonError: lesson 'Fives', step 1 ('Pair the Five.'): accept move '5H+9C' names the 9 of clubs (9C), which is not in the step's position
    """

    title: str
    steps: Sequence[Step]
    intro: str = ""
    summary: str = ""

    def __post_init__(self) -> None:
        __tracebackhide__ = True
        if not isinstance(self.title, str) or not self.title.strip():
            raise lesson_error("a lesson needs a title")
        listed = not isinstance(self.steps, (str, bytes)) and isinstance(self.steps, Iterable)
        steps = tuple(self.steps) if listed else ()  # None or 5: refused just below
        if not steps or not all(isinstance(s, Step) for s in steps):
            raise lesson_error(f"lesson {self.title!r} needs a non-empty list of Step objects")
        object.__setattr__(self, "steps", steps)
        for index, step in enumerate(steps):
            _check_step(step, f"lesson {self.title!r}, step {index + 1} ({_short(step.prompt)!r})")

    def __len__(self) -> int:
        return len(self.steps)

    def __repr__(self) -> str:
        return f"<Lesson {self.title!r}: {len(self.steps)} steps>"
