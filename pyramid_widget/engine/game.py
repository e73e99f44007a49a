"""The game: a position, the rules, legal moves, undo/redo, status, clock and score.

>>> game = Game("medium", deal=7)
>>> game.status, game.passes_left, game.stock[0] == game.deal[28]
(<Status.PLAYING: 'playing'>, 2, True)
>>> game.play("draw")
Move.parse('draw')
>>> game.undo()
Move.parse('draw')
>>> game.play("5C+8D")
Traceback (most recent call last):
...
pyramid_widget.errors.IllegalMoveError: cannot play '5C+8D': 5C is covered by 2C and TC
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pyramid_widget.engine import legality as _explain
from pyramid_widget.engine.cards import Card, card_problem, card_str, parse_card
from pyramid_widget.engine.clock import Clock, TimeSource
from pyramid_widget.engine.deals import Deal, coerce_deal, deal_from_number, format_deal
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Location, Position, Status
from pyramid_widget.engine.quoting import shown
from pyramid_widget.engine.record import GameRecord, StartPosition
from pyramid_widget.engine.rules import MAX_PASSES, RuleSet, Scoring, get_rules
from pyramid_widget.errors import (
    GameFileError,
    IllegalMoveError,
    InvalidCardError,
    InvalidDealError,
    InvalidRulesError,
    Refusal,
)


@dataclass(frozen=True)
class _Saved:
    """What undo restores: the position, and the score unless the scoring keeps it."""

    move: Move
    position: Position
    score: int
    scored: frozenset[Card]


class LegalMoves:
    """A lazy view of the legal moves: iterate it, test ``in`` it, ``count()`` it.

    >>> game = Game("hard", deal=0)
    >>> Move.draw() in game.legal_moves, "redeal" in game.legal_moves
    (True, False)
    """

    def __init__(self, game: Game) -> None:
        self._game = game
        self._listed: tuple[Position, Status, tuple[Move, ...]] | None = None
        """The moves last listed, with the position and status they are of."""

    def _moves(self) -> tuple[Move, ...]:
        """The legal moves now, listed once per position: ``list()`` and ``sorted()`` ask
        a view for its length as well as iterating it. A move, undo or redo replaces the
        game's position object (never changes it in place), so the object tells whether
        the list is still the game's."""
        listed, game = self._listed, self._game
        if listed is not None and listed[0] is game._pos and listed[1] is game._status:
            return listed[2]
        moves = tuple(game._generate())
        self._listed = (game._pos, game._status, moves)
        return moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves())

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except ValueError:
                return False
        return isinstance(move, Move) and self._game.explain(move) is None

    def count(self) -> int:
        """Return how many legal moves there are."""
        return len(self._moves())

    __len__ = count

    def __bool__(self) -> bool:
        return bool(self._moves())

    def __repr__(self) -> str:
        return f"<LegalMoves ({self.count()}): {', '.join(str(m) for m in self)}>"


class Game:
    """One game of Pyramid under a rule set, from a deal or a hand-made position.

    ``rules`` is a preset name or a :class:`~pyramid_widget.engine.rules.RuleSet`; ``deal`` a deal
    number, a deal string, a sequence of 52 cards (104 with two decks) or ``None`` for a random numbered deal.
    ``clock`` is the time source (``time.monotonic`` by default).
    Raises :class:`~pyramid_widget.errors.InvalidDealError` or
    :class:`~pyramid_widget.errors.InvalidRulesError` for bad arguments.
    """

    def __init__(
        self,
        rules: str | RuleSet = "medium",
        deal: int | str | Sequence[Card] | None = None,
        *,
        clock: TimeSource | None = None,
    ) -> None:
        self.rules = get_rules(rules)
        if deal is None:
            import secrets

            deal = secrets.randbelow(2**32)
        cards, number = coerce_deal(deal, self.rules.decks)
        self._time_source = clock
        self._setup(Position.from_deal(cards, self.rules))
        self.deal: Deal | None = cards
        self.deal_number: int | None = number
        self._first_deal: Deal | None = cards
        self._first_number: int | None = number

    # -- construction -------------------------------------------------------------------

    def _setup(self, origin: Position) -> None:
        """Start from ``origin``, kept as the game's first position (never changed in
        place; the game plays on a copy)."""
        self._origin = origin
        self._pos = origin.copy()
        self.round = 1
        self._score = 0
        self._scored: set[Card] = set()
        self._undo: deque[_Saved] = deque(maxlen=self.rules.undo_depth)  # 0: no undo at all
        self._redo: list[tuple[Move, float]] = []
        self._record: list[tuple[Move, float]] = []
        self._round_moves = 0
        self._round_started = 0.0
        self._clock = Clock(self._time_source)
        self._status, self._reason = Status.PLAYING, "the game is on"
        self._set_status(*_explain.judge(self.rules, self._pos))

    @classmethod
    def from_position(
        cls,
        rules: str | RuleSet = "medium",
        *,
        pyramid: Sequence[Card | str | None],
        stock: Sequence[Card | str] = (),
        wastes: Sequence[Sequence[Card | str]] = (),
        cells: Sequence[Card | str | None] = (),
        pass_number: int = 1,
        clock: TimeSource | None = None,
        reserves: Sequence[Sequence[Card | str]] = (),
    ) -> Game:
        """Build a game from a hand-made position; cards not placed count as discarded.

        ``pyramid`` has one entry a layout position (28 for the classic pyramid; ``None`` for
        an empty slot), ``stock`` is listed first drawn first, each waste and reserve pile
        bottom to top. Cards may be given as text. ``pass_number`` is from 1 to the rules'
        passes (to :data:`~pyramid_widget.engine.rules.MAX_PASSES` when they are unlimited).

        Raises :class:`~pyramid_widget.errors.InvalidDealError` for a position that does not
        fit the rules (a list of the wrong length or type, a card placed twice, a card the
        game does not hold) and :class:`~pyramid_widget.errors.InvalidCardError` for a name
        that is no card: a game built here can always be saved (:meth:`to_json`).

        >>> g = Game.from_position("medium", pyramid=[None] * 27 + ["5H"], stock=["8C"])
        >>> g.play("draw"), g.play("5H+8C"), g.status
        (Move.parse('draw'), Move.parse('5H+8C'), <Status.WON: 'won'>)
        """
        game = cls.__new__(cls)
        game.rules = get_rules(rules)
        game._time_source = clock
        position = _build_position(game.rules, pyramid, stock, wastes, cells, pass_number, reserves)
        game._setup(position)
        game.deal, game.deal_number = None, None
        game._first_deal, game._first_number = None, None
        return game

    # -- what a player sees -----------------------------------------------------------

    @property
    def pyramid(self) -> tuple[Card | None, ...]:
        """The pyramid's slots (the tableau: 28 for the classic layout), ``None`` where the
        card is gone. Face-down cards are here too: this is the truth, not what a player
        sees (:attr:`hidden` says which are face down; ``print(game)`` hides them)."""
        return tuple(self._pos.pyramid)

    @property
    def reserves(self) -> tuple[tuple[Card, ...], ...]:
        """The reserve piles, each bottom to top (only the tops play)."""
        return tuple(tuple(p) for p in self._pos.reserves)

    @property
    def hidden(self) -> frozenset[int]:
        """The pyramid positions whose cards are face down now (dealt face down and still
        covered).

        >>> g = Game("dark_pyramid", deal=7)
        >>> len(g.hidden), 21 in g.hidden, 20 in g.hidden
        (21, False, True)
        """
        return self._pos.hidden()

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, the card drawn next first."""
        return tuple(reversed(self._pos.stock))

    @property
    def wastes(self) -> tuple[tuple[Card, ...], ...]:
        """The waste piles, each bottom to top."""
        return tuple(tuple(p) for p in self._pos.wastes)

    @property
    def cells(self) -> tuple[Card | None, ...]:
        """The free cells (``None`` when empty)."""
        return tuple(self._pos.cells)

    @property
    def discard(self) -> tuple[Card, ...]:
        """Discarded cards, in the order they went."""
        return tuple(self._pos.discard)

    @property
    def position(self) -> Position:
        """A copy of the current :class:`~pyramid_widget.engine.position.Position`."""
        return self._pos.copy()

    def available(self) -> list[Card]:
        """The cards that may be played now."""
        return [c for c, _ in self._pos.available(self.rules.stock_top_available)]

    def is_available(self, card: Card) -> bool:
        """Whether ``card`` may be played now."""
        return card in self.available()

    def where(self, card: Card | str) -> Location:
        """Return the :class:`~pyramid_widget.engine.position.Location` of a card.

        Raises :class:`~pyramid_widget.errors.InvalidCardError` for a card the game does not
        hold.

        >>> Game("medium", deal=7).where("AS'")
        Traceback (most recent call last):
        ...
        pyramid_widget.errors.InvalidCardError: AS' is a second-deck card, but the game has one deck
        """
        return self._pos.locate(_card(card))

    def covering(self, card: Card | str) -> tuple[Card, ...]:
        """The cards still covering a pyramid card (empty if it is uncovered or elsewhere)."""
        return _explain.covering(self._pos, _card(card))

    @property
    def pass_number(self) -> int:
        """The current pass through the stock, from 1."""
        return self._pos.pass_number

    @property
    def passes_left(self) -> int | None:
        """Redeals still allowed (``None`` when unlimited)."""
        if self.rules.passes is None:
            return None
        return max(0, self.rules.passes - self._pos.pass_number)

    @property
    def status(self) -> Status:
        """:class:`~pyramid_widget.engine.position.Status`: playing, won or lost."""
        return self._status

    @property
    def status_reason(self) -> str:
        """Why the game has its status, in words."""
        return self._reason

    @property
    def is_over(self) -> bool:
        """Whether the game (or the ``egypt`` round) is won or lost."""
        return self._status is not Status.PLAYING

    @property
    def score(self) -> int:
        """Points so far (see :class:`~pyramid_widget.engine.rules.Scoring`)."""
        return self._score

    @property
    def moves(self) -> int:
        """Moves in effect, draws and redeals included (undo takes one back)."""
        return len(self._record)

    @property
    def history(self) -> list[Move]:
        """The moves in effect since the start of the game, oldest first."""
        return [m for m, _ in self._record]

    @property
    def elapsed(self) -> float:
        """Seconds of play (pauses excluded)."""
        return self._clock.elapsed

    @property
    def paused(self) -> bool:
        """Whether the clock is paused by the player."""
        return not self._clock.running and not self.is_over

    def pause(self) -> None:
        """Stop the clock."""
        self._clock.pause()

    def resume(self) -> None:
        """Start the clock again (not while the game is over)."""
        if not self.is_over:
            self._clock.resume()

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves, as a lazy :class:`LegalMoves` view."""
        return LegalMoves(self)

    # -- moves ----------------------------------------------------------------------

    def refusal(self, move: Move | str) -> Refusal | None:
        """Return why ``move`` is not legal now as a :class:`~pyramid_widget.errors.Refusal`
        (kind, cards, text), or ``None`` when it is legal.

        Raises :class:`~pyramid_widget.errors.InvalidMoveError` for unparsable text.

        >>> Game("medium", deal=7).refusal("redeal").kind
        'no-redeal'
        """
        return _explain.refusal(self.rules, self._pos, _move(move), (self._status, self._reason))

    def explain(self, move: Move | str) -> str | None:
        """Return why ``move`` is not legal now, in words, or ``None`` when it is.

        Raises :class:`~pyramid_widget.errors.InvalidMoveError` for unparsable text.
        """
        problem = self.refusal(move)
        return None if problem is None else problem.text

    def unavailable(self, card: Card | str) -> Refusal | None:
        """Why ``card`` cannot be played now, as a :class:`~pyramid_widget.errors.Refusal`
        (``None`` when it is available; kind ``"not-in-game"`` for a card the game does not
        hold, as :meth:`play` refuses it).

        >>> Game("medium", deal=7).unavailable("AS'").text
        "AS' is a second-deck card, but the game has one deck"
        """
        return _explain.unavailable(self.rules, self._pos, _card(card))

    def play(self, move: Move | str) -> Move:
        """Play ``move`` (a :class:`~pyramid_widget.engine.moves.Move` or its text) and return it.

        Raises :class:`~pyramid_widget.errors.InvalidMoveError` for text that is no move and
        :class:`~pyramid_widget.errors.IllegalMoveError` (saying why) for a move the rules do
        not allow; the game is unchanged after either.
        """
        parsed = _move(move)
        problem = self.refusal(parsed)
        if problem is not None:
            raise IllegalMoveError(parsed, problem)
        self._do(parsed, self._clock.elapsed)
        self._redo.clear()
        return parsed

    def undo(self) -> Move:
        """Take back the last move (up to the rule set's undo depth) and return it.

        Raises :class:`~pyramid_widget.errors.IllegalMoveError` when there is nothing to undo.
        """
        if not self._undo:
            if not self._round_moves:
                raise IllegalMoveError("undo", Refusal("nothing-to-undo", (), "nothing to undo"))
            limit = "the undo limit is reached"
            if not self.rules.undo_depth:
                limit = f"{self.rules.name} allows no undo"
            raise IllegalMoveError("undo", Refusal("undo-limit", (), limit))
        saved = self._undo[-1]
        position = saved.position.copy()
        status = _explain.judge(self.rules, position)
        # Commit: nothing below can fail.
        self._undo.pop()
        move, at = self._record.pop()
        self._round_moves -= 1
        self._redo.append((move, at))
        self._pos = position
        if not self.rules.scoring.undo_keeps_score:
            self._score, self._scored = saved.score, set(saved.scored)
        self._set_status(*status)
        return move

    def redo(self) -> Move:
        """Play again the last undone move and return it.

        Raises :class:`~pyramid_widget.errors.IllegalMoveError` when there is nothing to redo.
        """
        if not self._redo:
            raise IllegalMoveError("redo", Refusal("nothing-to-redo", (), "nothing to redo"))
        move, _ = self._redo[-1]
        self._do(move, self._clock.elapsed)
        self._redo.pop()
        return move

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` would succeed."""
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        """Whether :meth:`redo` would succeed."""
        return bool(self._redo)

    def restart(self) -> None:
        """Start the same game again from its first position (score and clock reset)."""
        self._setup(self._origin)
        self.deal, self.deal_number = self._first_deal, self._first_number

    def next_round(self) -> Move:
        """After a won round of a rule set with rounds (``egypt``), deal the next round."""
        return self.play(Move.next_round())

    def copy(self) -> Game:
        """Return an independent copy: nothing either game does later shows in the other.

        The positions a game keeps as history (its first position and the undo snapshots)
        are never changed in place, so the copy shares them.
        """
        twin = Game.__new__(Game)
        twin.__dict__.update(self.__dict__)
        twin._pos = self._pos.copy()
        twin._scored = set(self._scored)
        twin._undo = deque(self._undo, maxlen=self._undo.maxlen)
        twin._redo = list(self._redo)
        twin._record = list(self._record)
        twin._clock = Clock(self._time_source, self._clock.elapsed)
        if not self._clock.running:
            twin._clock.pause()
        return twin

    # -- internals --------------------------------------------------------------------

    def _generate(self) -> Iterator[Move]:
        if self._status is Status.WON:
            if self.rules.rounds:
                yield Move.next_round()
            return
        if self._status is Status.LOST:
            return
        yield from _explain.candidate_moves(self.rules, self._pos)

    def _do(self, move: Move, at: float) -> None:
        """Apply a legal ``move`` played at ``at`` seconds, wholly or not at all: everything
        is computed first (a fault there leaves the game as it was), then committed."""
        if move.kind is MoveKind.NEXT_ROUND:
            self._start_next_round(at)
            return
        pos = self._pos.copy()
        score, scored = self._score, self._scored
        if move.is_removal:
            for card in move.cards:
                pos.take(card)
                pos.discard.append(card)
            pos.pass_removed = True
            score, scored = _removal_points(self.rules.scoring, move, score, scored)
        elif move.kind is MoveKind.DRAW:
            pos.draw(self.rules.draw_count)
        elif move.kind is MoveKind.REDEAL:
            pos.redeal(self.rules.redeal_order)
        else:
            card = move.cards[0]
            pos.take(card)
            pos.cells[pos.cells.index(None)] = card
        status = _explain.judge(self.rules, pos)
        if status[0] is Status.WON and not self.is_over:
            score += self._win_points(pos, at)
        if not isinstance(score, int):
            raise TypeError(f"the score must be an integer, got {score!r}")
        # Commit: nothing below can fail.
        self._undo.append(_Saved(move, self._pos, self._score, frozenset(self._scored)))
        self._record.append((move, at))
        self._round_moves += 1
        self._pos, self._score, self._scored = pos, score, scored
        self._set_status(*status)

    def _win_points(self, pos: Position, at: float) -> int:
        """The points a win at ``at`` seconds earns (win bonus, time, round, clear-all)."""
        scoring = self.rules.scoring
        points = scoring.win_bonus + scoring.time_bonus(at - self._round_started)
        points += scoring.round_number_bonus * self.round
        if self.rules.win == "pyramid" and pos.all_gone():
            points += scoring.clear_all_bonus
        return points

    def _start_next_round(self, at: float) -> None:
        seed = hashlib.sha256(f"{self._run_seed()}#{self.round + 1}".encode()).digest()
        cards = deal_from_number(int.from_bytes(seed[:8], "big"), self.rules.decks)
        pos = Position.from_deal(cards, self.rules)
        status = _explain.judge(self.rules, pos)
        # Commit: nothing below can fail.
        self._record.append((Move.next_round(), at))
        self.round += 1
        self.deal, self.deal_number = cards, None
        self._pos = pos
        self._undo.clear()
        self._scored = set()  # a new round's removals earn again (undo never crosses a round)
        self._round_moves = 0
        self._round_started = at
        self._status, self._reason = Status.PLAYING, "the game is on"
        self._clock.resume()
        self._set_status(*status)

    def _run_seed(self) -> str:
        if self._first_deal is not None:
            return format_deal(self._first_deal)
        return repr(self._origin)

    def _set_status(self, status: Status, reason: str) -> None:
        """Take on a new status; the clock stops when the game ends, runs again if undone."""
        was_over = self.is_over
        self._status, self._reason = status, reason
        if self.is_over:
            self._clock.pause()
        elif was_over:
            self._clock.resume()

    # -- text and records -------------------------------------------------------------

    def __str__(self) -> str:
        from pyramid_widget.engine.textview import render

        return render(self)

    def __repr__(self) -> str:
        where = f"deal={self.deal_number}" if self.deal_number is not None else "position"
        return (
            f"<Game {self.rules.name} {where} round={self.round} moves={self.moves} "
            f"status={self._status.value}>"
        )

    def svg(self, *, width: int | None = None, theme: str = "light") -> str:
        """This position as a standalone SVG picture (text), drawn in Python from the page's
        card faces: see :func:`pyramid_widget.engine.svg.game_svg` (``width`` in pixels,
        ``theme`` ``"light"`` or ``"dark"``; another theme raises ``ValueError``).

        >>> Game("medium", deal=7).svg().startswith('<svg xmlns="http://www.w3.org/2000/svg"')
        True
        """
        from pyramid_widget.engine.svg import game_svg

        return game_svg(self, width=width, theme=theme)

    def _repr_svg_(self) -> str:
        """Show the position as a picture in notebooks, exports and viewers."""
        return self.svg()

    def record(self) -> GameRecord:
        """Return the public :class:`~pyramid_widget.engine.record.GameRecord` of this game:
        rules, first deal or position, moves in effect with times, redo list, time, score.
        :meth:`replay` rebuilds the same game from it."""
        start = None
        if self._first_deal is None:
            origin = self._origin
            start = StartPosition(
                pyramid=tuple(origin.pyramid),
                stock=tuple(reversed(origin.stock)),
                wastes=tuple(tuple(p) for p in origin.wastes),
                cells=tuple(origin.cells),
                pass_number=origin.pass_number,
                reserves=tuple(tuple(p) for p in origin.reserves),
            )
        return GameRecord(
            rules=self.rules,
            deal=self._first_deal,
            deal_number=self._first_number,
            start=start,
            moves=tuple(self._record),
            redo=tuple(self._redo),
            elapsed=self.elapsed,
            score=self._score,
            scored=frozenset(self._scored),
            undos_left=self._undos_left(),
        )

    def _undos_left(self) -> int | None:
        """How many undos are left, when fewer than a replay of the moves would give back
        (``None`` otherwise): the undo depth drops the oldest snapshots as moves are played
        and each undo takes one away, so replaying the moves in effect may rebuild more than
        the game had (egypt: two draws and an undo leave none, one draw replayed gives one)."""
        rebuilt = min(self._round_moves, self.rules.undo_depth)
        return len(self._undo) if len(self._undo) < rebuilt else None

    @classmethod
    def replay(cls, record: GameRecord, *, clock: TimeSource | None = None) -> Game:
        """Rebuild a game from a :class:`~pyramid_widget.engine.record.GameRecord` by playing
        its moves through the rules.

        The position, the status and the score follow from the moves: a record whose moves
        are illegal, whose redo list does not replay or whose score contradicts its moves is
        refused with :class:`~pyramid_widget.errors.GameFileError`. Where undo keeps the score
        (``egypt``) the points of moves since undone are not in the moves, so the record's
        score is kept when it is at least what the moves in effect earn and its scored cards
        include every card they removed. The undo history is rebuilt from the moves, then cut
        to the record's ``undos_left`` when it has one (more than the moves allow is refused).

        >>> g = Game("medium", deal=7)
        >>> _ = g.play("draw")
        >>> from dataclasses import replace
        >>> Game.replay(replace(g.record(), score=5000))
        Traceback (most recent call last):
        ...
        pyramid_widget.errors.GameFileError: the saved game's score 5000 contradicts its moves, which earn 0
        """
        if not isinstance(record, GameRecord):
            raise GameFileError(f"a game record must be a GameRecord, got {type(record).__name__}")
        rules = record.rules
        try:
            if record.start is not None:
                start = record.start
                game = cls.from_position(
                    rules,
                    pyramid=start.pyramid,
                    stock=start.stock,
                    wastes=start.wastes,
                    cells=start.cells,
                    pass_number=start.pass_number,
                    clock=clock,
                    reserves=start.reserves,
                )
            else:
                assert record.deal is not None  # a record has a deal or a start
                game = cls(rules, record.deal, clock=clock)
                game.deal_number = game._first_number = record.deal_number
        except GameFileError:
            raise
        except (InvalidDealError, InvalidRulesError) as exc:
            raise GameFileError(f"the saved game's start does not fit its rules: {exc}") from None
        wins = 0
        for number, (move, at) in enumerate(record.moves, start=1):
            problem = game.refusal(move)
            if problem is not None:
                raise GameFileError(
                    f"move {number} of the saved game ({move}) is illegal: {problem.text}"
                )
            was_won = game.status is Status.WON
            game._do(move, at)
            wins += game.status is Status.WON and not was_won
        game._keep_undos(record.undos_left)
        probe = game.copy()
        for move, at in reversed(record.redo):
            problem = probe.refusal(move)
            if problem is not None:
                raise GameFileError(f"the saved redo move {move} does not replay: {problem.text}")
            probe._do(move, at)
        game._redo = list(record.redo)
        latest = max((at for _, at in record.moves + record.redo), default=0.0)
        elapsed = latest if record.elapsed is None else record.elapsed
        if elapsed < latest:
            raise GameFileError(
                f"the saved game's elapsed time ({elapsed:g} s) is shorter than its moves "
                f"({latest:g} s)"
            )
        game._check_score(record, wins)
        game._clock.reset(elapsed)
        if game.is_over:
            game._clock.pause()
        return game

    def _keep_undos(self, left: int | None) -> None:
        """Keep only the ``left`` newest undo snapshots of a replayed game (the ones the
        saved game still had: the undo depth dropped the oldest); ``None`` keeps all."""
        if left is None:
            return
        if left > len(self._undo):
            raise GameFileError(
                f"the saved game's undos_left ({left}) is more than its moves allow "
                f"({len(self._undo)})"
            )
        while len(self._undo) > left:
            self._undo.popleft()

    def _check_score(self, record: GameRecord, wins: int) -> None:
        """Check the record's score against the replayed one (see :meth:`replay`). Times in
        a file are rounded to milliseconds, which may move a time bonus by one point a win."""
        earned, slack = self._score, wins
        if record.score is None:
            return
        if not self.rules.scoring.undo_keeps_score:
            if abs(record.score - earned) > slack:
                raise GameFileError(
                    f"the saved game's score {record.score} contradicts its moves, "
                    f"which earn {earned}"
                )
            return
        if record.score < earned - slack:
            raise GameFileError(
                f"the saved game's score {record.score} is less than its moves earn ({earned})"
            )
        scored = record.scored if record.scored is not None else frozenset(self._scored)
        missing = self._scored - scored
        if missing:
            names = ", ".join(card_str(c) for c in sorted(missing))
            raise GameFileError(
                f"the saved game's scored cards lack {names}, which its moves removed"
            )
        self._score, self._scored = max(record.score, earned), set(scored)

    def to_json(self) -> str:
        """Return the whole game as JSON (its :meth:`record`): rules, start, moves with times,
        redo list."""
        from pyramid_widget.engine.gamefile import dump

        return dump(self)

    @classmethod
    def from_json(cls, text: str | bytes | Mapping[str, Any]) -> Game:
        """Rebuild a game from :meth:`to_json` output by replaying its moves.

        Raises :class:`~pyramid_widget.errors.PyramidError` (a ``ValueError``) saying what is
        wrong with a malformed or inconsistent record.
        """
        from pyramid_widget.engine.gamefile import load

        return load(text)


def _removal_points(
    scoring: Scoring, move: Move, score: int, scored: set[Card]
) -> tuple[int, set[Card]]:
    """The score and the set of scored cards after the removal ``move`` (new values; the
    arguments are not changed). With ``undo_keeps_score`` a removal of cards all scored
    before (then undone) earns nothing."""
    fresh = [c for c in move.cards if c not in scored]
    if scoring.undo_keeps_score:
        if not fresh:
            return score, scored
        scored = scored | set(fresh)
    return score + scoring.per_card * len(move.cards) + scoring.per_removal, scored


def _move(move: Move | str) -> Move:
    if isinstance(move, Move):
        return move
    return Move.parse(move)  # raises InvalidMoveError for anything that is not a move


def _card(card: Card | str) -> Card:
    """A card asked about by name or number, of either deck: the game then says whether it
    holds it. Raises :class:`~pyramid_widget.errors.InvalidCardError` for what is no card."""
    if isinstance(card, str):
        return parse_card(card)
    problem = card_problem(card)
    if problem is not None:
        raise InvalidCardError(problem)
    return card


def _listed(value: object, what: str) -> Sequence[Any]:
    """``value`` when it is a list (or tuple) of entries, else one InvalidDealError."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidDealError(f"the {what} must be a list, got {shown(value)}")
    return value


def _build_position(
    rules: RuleSet,
    pyramid: Sequence[Card | str | None],
    stock: Sequence[Card | str],
    wastes: Sequence[Sequence[Card | str]],
    cells: Sequence[Card | str | None],
    pass_number: int,
    reserves: Sequence[Sequence[Card | str]] = (),
) -> Position:
    """Check and lay out a hand-made position (see :meth:`Game.from_position`): every
    argument by type, count and range, with the limits a :class:`GameRecord` of the game
    applies, so that the game can always be saved."""
    size, decks = rules.tableau_size, rules.decks

    def card(c: Card | str, what: str) -> Card:
        value = parse_card(c) if isinstance(c, str) else c
        problem = card_problem(value, decks)
        if problem is not None:
            raise InvalidDealError(f"the {what}: {problem}")
        return value

    def cards_of(value: object, what: str) -> list[Card]:
        return [card(c, what) for c in _listed(value, what)]

    if len(_listed(pyramid, "pyramid")) != size:
        raise InvalidDealError(
            f"the {rules.layout.name} has {size} slots (None for empty), got {len(pyramid)}"
        )
    if len(_listed(reserves, "reserves")) > rules.reserve_piles:
        raise InvalidDealError(
            f"{rules.name} has {rules.reserve_piles} reserve pile(s), got {len(reserves)}"
        )
    reserve_piles = [cards_of(p, "reserve pile") for p in reserves]
    reserve_piles += [[] for _ in range(rules.reserve_piles - len(reserve_piles))]
    piles = [cards_of(p, "waste pile") for p in _listed(wastes, "wastes")] or [[]]
    piles += [[] for _ in range(rules.waste_piles - len(piles))]
    if len(piles) != rules.waste_piles:
        raise InvalidDealError(
            f"{rules.name} has {rules.waste_piles} waste pile(s), got {len(piles)}"
        )
    cell_cards = [None if c is None else card(c, "cells") for c in _listed(cells, "cells")]
    if len(cell_cards) > rules.cells:
        raise InvalidDealError(f"{rules.name} has {rules.cells} cell(s), got {len(cell_cards)}")
    cell_cards += [None] * (rules.cells - len(cell_cards))
    # unlimited passes still stop where a saved game's pass number does
    limit = rules.passes or MAX_PASSES
    if isinstance(pass_number, bool) or not isinstance(pass_number, int):
        raise InvalidDealError(f"pass_number must be a whole number, got {shown(pass_number)}")
    if not 1 <= pass_number <= limit:
        raise InvalidDealError(f"pass_number must be 1..{limit}, got {shown(pass_number)}")
    position = Position(
        pyramid=[None if c is None else card(c, "pyramid") for c in pyramid],
        stock=cards_of(stock, "stock")[::-1],
        wastes=piles,
        cells=cell_cards,
        pass_number=pass_number,
        reserves=reserve_piles,
        layout=rules.layout,
        deck_size=rules.deck_size,
    )
    placed = [c for c in position.pyramid if c is not None] + position.stock
    placed += [c for pile in piles for c in pile] + [c for c in cell_cards if c is not None]
    placed += [c for pile in reserve_piles for c in pile]
    if len(set(placed)) != len(placed):
        raise InvalidDealError("a card is placed twice in the position")
    position.discard = sorted(set(range(rules.deck_size)) - set(placed))
    height = max((len(p) for p in piles), default=0)
    for h in range(height):
        for pile in piles:
            if h < len(pile):
                position.drawn_at[pile[h]] = position.draws
                position.draws += 1
    return position
