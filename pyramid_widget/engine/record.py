"""The public record of a game: what :meth:`Game.record() <pyramid_widget.engine.game.Game.record>`
returns and :meth:`Game.replay() <pyramid_widget.engine.game.Game.replay>` plays back.

A record holds the rule set, where the game started (a deal, with its number when it has
one, or a hand-made :class:`StartPosition`), every move in effect with the clock time it was
played at, the redo list, the time played and the score. It holds nothing else: the position,
the status and the undo history follow from it by replaying the moves (the record says how
many undos are left only where the undo depth has already cut that history short). Building a record
checks every field by type and range and raises
:class:`~pyramid_widget.errors.GameFileError` saying which one is wrong; replaying it checks
that the moves are legal and that what the record says agrees with them.

>>> from pyramid_widget.engine.game import Game
>>> g = Game("medium", deal=7)
>>> _ = g.play("draw")
>>> rec = g.record()
>>> rec.deal_number, [str(m) for m, _ in rec.moves]
(7, ['draw'])
>>> Game.replay(rec).history == g.history
True
>>> GameRecord(rules=g.rules, deal_number=-1)
Traceback (most recent call last):
...
pyramid_widget.errors.GameFileError: the saved game's deal_number must be an integer from 0 to 18446744073709551615, got -1
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pyramid_widget.engine.cards import Card, card_problem, card_str
from pyramid_widget.engine.deals import (
    MAX_DEAL_NUMBER,
    Deal,
    deal_from_number,
    format_deal,
    validate_deal,
)
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.quoting import shown
from pyramid_widget.engine.rules import MAX_PASSES, RuleSet
from pyramid_widget.errors import GameFileError, PyramidError

__all__ = ["MAX_MOVES", "MAX_SCORE", "MAX_SECONDS", "GameRecord", "StartPosition", "TimedMove"]

#: The most moves (and, separately, redo moves) a record may hold.
MAX_MOVES = 100_000
#: The longest time a record may state, in seconds (about 31 years).
MAX_SECONDS = 1e9
#: The largest score (in absolute value) a record may state.
MAX_SCORE = 10**12

TimedMove = tuple[Move, float]


def _fail(what: str, problem: str) -> GameFileError:
    return GameFileError(f"the saved game's {what} {problem}")


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(what, f"must be an integer from {low} to {high}, got {shown(value)}")
    return value


def _seconds(value: object, what: str) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        finite = math.isfinite(value) if isinstance(value, float) else True
        if finite and 0 <= value <= MAX_SECONDS:
            return float(value)
    raise _fail(what, f"must be seconds from 0 to {MAX_SECONDS:g}, got {shown(value)}")


def _card(value: object, what: str, decks: int = 2) -> Card:
    """A card of a game of ``decks`` decks (two where the rules are not known: a
    :class:`StartPosition` alone; the :class:`GameRecord` then checks against its rules)."""
    problem = card_problem(value, decks)
    if problem is None and isinstance(value, int):  # card_problem has checked the type
        return value
    raise GameFileError(f"the saved game's {what}: {problem}")


def _cards(value: object, what: str, *, gaps: bool = False, decks: int = 2) -> tuple[Any, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise _fail(what, f"must be a list of cards, got {shown(value)}")
    if len(value) > 104:
        raise _fail(what, f"holds {len(value)} cards, more than two decks")
    return tuple(None if gaps and c is None else _card(c, what, decks) for c in value)


@dataclass(frozen=True)
class StartPosition:
    """A hand-made first position, as :meth:`Game.from_position
    <pyramid_widget.engine.game.Game.from_position>` takes it: the pyramid's slots (28 for
    the classic layout; ``None`` empty), the stock first drawn first, each waste pile bottom
    to top, the cells, the pass, and each reserve pile bottom to top. Its cards may be of
    either deck (0 to 103): the :class:`GameRecord` holding it checks them against its rules.
    """

    pyramid: tuple[Card | None, ...]
    stock: tuple[Card, ...] = ()
    wastes: tuple[tuple[Card, ...], ...] = ()
    cells: tuple[Card | None, ...] = ()
    pass_number: int = 1
    reserves: tuple[tuple[Card, ...], ...] = ()

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "pyramid", _cards(self.pyramid, "pyramid", gaps=True))
        if not self.pyramid:
            raise _fail("pyramid", "must have at least one slot")
        if isinstance(self.reserves, (str, bytes)) or not isinstance(self.reserves, Sequence):
            raise _fail("reserves", f"must be a list of piles, got {shown(self.reserves)}")
        if len(self.reserves) > 12:
            raise _fail("reserves", f"has {len(self.reserves)} piles, more than a rule set allows")
        setattr_(self, "reserves", tuple(_cards(p, "reserve pile") for p in self.reserves))
        setattr_(self, "stock", _cards(self.stock, "stock"))
        if isinstance(self.wastes, (str, bytes)) or not isinstance(self.wastes, Sequence):
            raise _fail("wastes", f"must be a list of piles, got {shown(self.wastes)}")
        if len(self.wastes) > 8:
            raise _fail("wastes", f"has {len(self.wastes)} piles, more than a rule set allows")
        setattr_(self, "wastes", tuple(_cards(p, "waste pile") for p in self.wastes))
        setattr_(self, "cells", _cards(self.cells, "cells", gaps=True))
        _int(self.pass_number, "pass_number", 1, MAX_PASSES)


def _timed(value: object, what: str) -> tuple[TimedMove, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise _fail(what, f"must be a list of [move, seconds], got {shown(value)}")
    if len(value) > MAX_MOVES:
        raise _fail(what, f"holds {len(value)} moves, more than {MAX_MOVES}")
    out = []
    for number, item in enumerate(value, start=1):
        if isinstance(item, (str, bytes)) or not isinstance(item, Sequence) or len(item) != 2:
            raise _fail(what, f"entry {number} must be a [move, seconds] pair, got {shown(item)}")
        move, at = item
        if not isinstance(move, Move):
            raise _fail(what, f"entry {number} must hold a Move, got {shown(move)}")
        out.append((move, _seconds(at, f"{what} entry {number} time")))
    return tuple(out)


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to rebuild a game, and nothing private (see the module docstring).

    ``deal`` and ``deal_number``: the first deal and its number (give either; when both are
    given they must agree); ``start``: the first position of a game without a deal;
    ``moves``: the moves in effect, oldest first, each with the clock time it was played at
    (never decreasing); ``redo``: the redo list, the move redone next last; ``elapsed``: the
    seconds played (at least the time of every move, checked on replay); ``score``: the points (checked against
    the moves on replay; ``None`` to recompute them); ``scored``: the cards that earned points
    in the current round (only used where undo keeps the score, ``egypt``); ``undos_left``:
    how many moves :meth:`Game.undo <pyramid_widget.engine.game.Game.undo>` can take back
    now, where the rules' undo depth has cut that short (``None``, as in records from before
    it was kept: every move of the round in effect, up to the undo depth).
    """

    rules: RuleSet
    deal: Deal | None = None
    deal_number: int | None = None
    start: StartPosition | None = None
    moves: tuple[TimedMove, ...] = ()
    redo: tuple[TimedMove, ...] = ()
    elapsed: float | None = None
    score: int | None = None
    scored: frozenset[Card] | None = None
    undos_left: int | None = None

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        if not isinstance(self.rules, RuleSet):
            raise _fail("rules", f"must be a RuleSet, got {shown(self.rules)}")
        self._check_start()
        moves = _timed(self.moves, "move list")
        redo = _timed(self.redo, "redo list")
        setattr_(self, "moves", moves)
        setattr_(self, "redo", redo)
        for what, timed in (("move list", moves), ("redo list", tuple(reversed(redo)))):
            for (_, before), (move, after) in pairwise(timed):
                if after < before:
                    raise _fail(
                        what, f"goes back in time at {move} ({after:g} s after {before:g} s)"
                    )
        latest = max((at for _, at in moves + redo), default=0.0)
        if self.elapsed is None:
            setattr_(self, "elapsed", latest)
        setattr_(self, "elapsed", _seconds(self.elapsed, "elapsed time"))
        if self.score is not None:
            _int(self.score, "score", -MAX_SCORE, MAX_SCORE)
        if self.undos_left is not None:
            _int(self.undos_left, "undos_left", 0, MAX_MOVES)
        if self.scored is not None:
            if isinstance(self.scored, (str, bytes)) or not isinstance(
                self.scored, (Sequence, set, frozenset)
            ):
                raise _fail("scored cards", f"must be a list of cards, got {shown(self.scored)}")
            cards = _cards(list(self.scored), "scored cards", decks=self.rules.decks)
            if len(set(cards)) != len(cards):
                raise _fail("scored cards", "repeat a card")
            setattr_(self, "scored", frozenset(cards))

    def _check_start(self) -> None:
        setattr_ = object.__setattr__
        if self.start is not None:
            if not isinstance(self.start, StartPosition):
                raise _fail("position", f"must be a StartPosition, got {shown(self.start)}")
            if self.deal is not None or self.deal_number is not None:
                raise _fail("start", "gives both a deal and a position")
            start, decks = self.start, self.rules.decks
            places = [("pyramid", start.pyramid), ("stock", start.stock), ("cells", start.cells)]
            places += [("waste pile", pile) for pile in start.wastes]
            places += [("reserve pile", pile) for pile in start.reserves]
            for what, cards in places:
                for card in cards:
                    if card is not None:
                        _card(card, what, decks)
            return
        if self.deal_number is not None:
            number = _int(self.deal_number, "deal_number", 0, MAX_DEAL_NUMBER)
            numbered = deal_from_number(number, self.rules.decks)
            if self.deal is None:
                setattr_(self, "deal", numbered)
        if self.deal is None:
            raise _fail("start", "gives neither a deal, a deal number nor a position")
        if isinstance(self.deal, (str, bytes)) or not isinstance(self.deal, Sequence):
            raise _fail("deal", f"must be {self.rules.deck_size} cards, got {shown(self.deal)}")
        try:
            deal = validate_deal(self.deal, self.rules.decks)
        except PyramidError as exc:
            raise _fail("deal", f"is not a deal: {exc}") from None
        setattr_(self, "deal", deal)
        decks = self.rules.decks
        if self.deal_number is not None and deal != deal_from_number(self.deal_number, decks):
            raise _fail(
                "deal_number",
                f"{self.deal_number} does not match its deal (deal {self.deal_number} begins "
                f"{format_deal(deal_from_number(self.deal_number, decks))[:11]}, the saved deal "
                f"{card_str(deal[0])} {card_str(deal[1])})",
            )
