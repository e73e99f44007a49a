"""``PyramidWidget``: play Pyramid Solitaire inline in JupyterLab (an anywidget).

The Python engine is the source of truth. The page (``pyramid_widget/widget/static/widget.js``) draws the traits below
and sends *intents* (``{"kind": "pair", "cards": ["5H", "8C"]}``); one dispatcher checks every
intent (see :mod:`pyramid_widget.widget.intents`) and then the move against the engine, and
only then changes the traits. A refused intent changes nothing and says why in ``message``.
The same board is driven from Python with :meth:`PyramidWidget.play`, :meth:`~PyramidWidget.draw`,
:meth:`~PyramidWidget.undo`, ... and shown live on every view of the widget.

>>> from pyramid_widget.widget import PyramidWidget
>>> w = PyramidWidget("medium", deal=7, records=False)
>>> w.play("draw"); w.play("AH", "QS")
Move.parse('draw')
Move.parse('AH+QS')
>>> w.moves, w.last_event["move"], w.status
(2, 'AH+QS', 'playing')
>>> w.play("5C", "8D")
Traceback (most recent call last):
...
pyramid_widget.errors.IllegalMoveError: cannot play '5C+8D': 5C is covered by 2C and TC
>>> w.message
'The 5 of clubs is covered by the 2 of clubs and the 10 of clubs.'
"""

from __future__ import annotations

import contextlib
import logging
import pathlib
import random
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import anywidget
import traitlets as t

from pyramid_widget.engine.cards import card_str, parse_card
from pyramid_widget.engine.describe import describe_move
from pyramid_widget.engine.describe import sentence as _sentence
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.hints import hint as rule_of_thumb
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import CLASSIC_PRESETS, FAMILY_PRESETS, PRESETS, RuleSet, get_rules
from pyramid_widget.engine.svg import FACES
from pyramid_widget.errors import (
    ArgumentError,
    IllegalMoveError,
    IntentError,
    InvalidMoveError,
    RecordsError,
    Refusal,
)
from pyramid_widget.solver.lines import WinningLine
from pyramid_widget.solver.post_mortem import PostMortem
from pyramid_widget.widget.board import board_state, check_drawable, how_to_play, why_unavailable
from pyramid_widget.widget.extras import Extras, RecordsUpdate
from pyramid_widget.widget.intents import SOLVE_SPEEDS, FloodGuard, check_intent, clip, quote

__all__ = [
    "CONTROLS",
    "PANEL_FIELDS",
    "MoveFilter",
    "PanelHandler",
    "PyramidWidget",
    "describe_move",
]

_log = logging.getLogger(__name__)

#: Every toolbar button the page knows, in toolbar order.
CONTROLS = ("new", "restart", "undo", "redo", "hint", "pause", "solve", "truth", "stats", "help")
MESSAGE_KINDS = ("info", "error", "success", "hint")

#: ``(game, move) -> str | None``: called before a legal move is applied; a text refuses it.
MoveFilter = Callable[[Game, Move], "str | None"]
#: ``(action, index) -> None``: what a press in the :attr:`PyramidWidget.panel` does (the
#: board has checked that the panel offers the action now; ``index`` only for ``"pick"``).
PanelHandler = Callable[[str, "int | None"], None]

#: The fields of the ``panel`` trait the page reads (every text is shown as text):
#: ``classes`` (list of CSS class names for the board's root), ``header`` (``title``,
#: ``progress``, ``dots``, ``dots_title``, ``state``, ``course``), ``picker`` (``label``,
#: ``options``: a list of texts, ``selected``: an index), ``prompt`` (a list of
#: ``{"text", "style": "intro" | "task"}``), ``feedback`` (``text``, ``kind``: info, success
#: or mistake, ``summary``) and ``buttons`` (a list of ``{"action", "label", "disabled",
#: "primary"}``).
PANEL_FIELDS = ("classes", "header", "picker", "prompt", "feedback", "buttons")
_CLASS_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,60}")


#: The page's ES module and styles, shipped beside this module (no build step).
STATIC = pathlib.Path(__file__).resolve().parent / "static"


#: Random deals the board picks are numbered below this (short labels: "deal #48213").
RANDOM_DEALS = 1_000_000


def _random_deal() -> int:
    return random.randrange(1, RANDOM_DEALS)


def _moves_text(n: int) -> str:
    return f"{n} move" if n == 1 else f"{n} moves"


#: The New-deal panel's groups of presets, in order: (group, title, preset names).
PRESET_GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("classic", "Classic", tuple(r.name for r in CLASSIC_PRESETS[:4])),
    ("seeds", "Variants of the seeds", tuple(r.name for r in CLASSIC_PRESETS[4:])),
    ("family", "The Pyramid family", tuple(r.name for r in FAMILY_PRESETS)),
)


def _preset_group(name: str) -> tuple[str, str]:
    for key, title, names in PRESET_GROUPS:
        if name in names:
            return key, title
    return "other", "Other"


def _highlight(move: Move) -> list[str]:
    if move.kind in (MoveKind.DRAW, MoveKind.REDEAL):
        return ["stock"]
    return [card_str(c) for c in move.cards]


class PyramidWidget(anywidget.AnyWidget):
    """A Pyramid Solitaire board that a person plays with mouse or keyboard, and a notebook
    drives from Python.

    ``rules``: a preset name (``"medium"``), a :class:`~pyramid_widget.engine.rules.RuleSet` or a dict
    of rule fields; ``deal``: a deal number, a deal string or ``None`` (random).
    ``records``: ``None`` for the default records file, ``False`` for none, or a
    ``pyramid_widget.records.store.Records``. ``controls``: the toolbar buttons to show (see
    :data:`CONTROLS`); a hidden control's keyboard shortcut and banner button are gone too.
    ``theme``: ``"auto"`` (follow JupyterLab), ``"light"`` or ``"dark"``. ``banner``: show
    the won/lost banner over the board. ``compact``: the compact display for hand-made
    positions (see the trait). ``move_filter``: see :attr:`move_filter`. Unknown keyword
    arguments raise ``TypeError``; bad rules or deals raise the engine's ``ValueError``
    subclasses.
    """

    _esm = STATIC / "widget.js"
    _css = STATIC / "widget.css"

    board = t.Dict(
        help="dict: everything the page draws: the layout (places, covers), the cards a player "
        "may see (face-down ones as backs that name no card), reserve and waste piles, counters."
    ).tag(sync=True)
    status = t.Unicode("playing", help="str: 'playing', 'won' or 'lost'.").tag(sync=True)
    status_reason = t.Unicode("", help="str: why the game has its status.").tag(sync=True)
    score = t.Int(0, help="int: points so far.").tag(sync=True)
    moves = t.Int(0, help="int: moves in effect (draws and redeals count).").tag(sync=True)
    elapsed = t.Float(0.0, help="float: seconds of play at the last change.").tag(sync=True)
    clock_at = t.Float(
        0.0,
        help="float: when ``elapsed`` was measured (seconds since the epoch): every view adds "
        "the time since then while the clock runs, so all views show the true time at once.",
    ).tag(sync=True)
    clock_running = t.Bool(
        False,
        help="bool: whether the page's clock ticks (from the first move on; not while paused, "
        "not while the page is hidden, not after the game ends).",
    ).tag(sync=True)
    assisted = t.Bool(
        False,
        help="bool: the solver played moves (Solve) or gave its winning hint in this game; "
        "it is recorded as assisted and never counts toward wins, streaks or bests.",
    ).tag(sync=True)
    busy = t.Dict(
        help="dict: background work in progress ({'kind': 'solve' | 'hint' | 'winnable' | "
        "'post-mortem', 'text': progress sentence}); empty when idle."
    ).tag(sync=True)
    solve_speed = t.Unicode(
        "normal", help="str: how fast the page plays the solver's line: slow, normal, fast, step."
    ).tag(sync=True)
    post_mortem_text = t.Unicode(
        "", help="str: the post-mortem of the lost game, once asked for and computed."
    ).tag(sync=True)
    rules_info = t.Dict(
        help="dict: for each preset offered, its description and its how-to-play line."
    ).tag(sync=True)
    paused = t.Bool(False, help="bool: the game is paused and the board hidden.").tag(sync=True)
    last_event = t.Dict(
        help="dict: the last thing that happened: kind, move, ok, message, cards, source, "
        "seq (the page's message number) and count (increases every time)."
    ).tag(sync=True)
    message = t.Unicode("", help="str: the text shown on the board.").tag(sync=True)
    message_kind = t.Unicode("info", help="str: info, error, success or hint.").tag(sync=True)
    highlight = t.List(t.Unicode(), help="list[str]: card ids (or 'stock') that glow.").tag(
        sync=True
    )
    controls = t.List(
        t.Unicode(),
        default_value=list(CONTROLS),
        help="list[str]: toolbar buttons to show. A hidden control's keyboard shortcut does "
        "nothing but say briefly on the board that it is not available here, and its button "
        "on the won/lost banner is hidden. This limits the page only, not Python's calls.",
    ).tag(sync=True)
    banner = t.Bool(
        True,
        help="bool: show the won/lost (and 'round complete') banner over the board. False: no "
        "banner; the message line still says how the game ended, and the stock's button deals "
        "the next round.",
    ).tag(sync=True)
    compact = t.Bool(
        False,
        help="bool: the compact display for hand-made positions (lessons): no discard pile, "
        "no deal label, no time or score; moves stay, and 'Redeals left' when the rule set "
        "limits the passes.",
    ).tag(sync=True)
    presets = t.List(t.Unicode(), help="list[str]: rule sets offered for a new deal.").tag(
        sync=True
    )
    theme = t.Unicode("auto", help="str: 'auto' (follow JupyterLab), 'light' or 'dark'.").tag(
        sync=True
    )
    features = t.Dict(
        help="dict: optional parts present ({'records': bool, 'assist': bool}); 'records' is "
        "False with records=False, 'assist' (the solver's buttons) is always True."
    ).tag(sync=True)
    stats = t.Dict(help="dict: records of the current rule set (empty without records).").tag(
        sync=True
    )
    truth = t.Dict(
        help="dict: the 'can this still be won?' indicator: on, state, detail, post_mortem."
    ).tag(sync=True)
    autoplay = t.List(
        t.Unicode(),
        help="list[str]: moves the solver is still to play; a card face down now is '##'.",
    ).tag(sync=True)
    # -- hosts (issue 17): one source of card faces; progress a host like marimo can observe
    faces = t.Dict(
        default_value=FACES,
        help="dict: the card faces the page draws (pyramid_widget/engine/faces.json, the same "
        "data Game.svg() draws from). Set once; not meant to be changed.",
    ).tag(sync=True)
    # -- a panel around the board (issue 17.4): what a lesson shows, in the widget's own model
    panel = t.Dict(
        help="dict: an optional panel the page draws around the board, as plain data (see "
        ":data:`PANEL_FIELDS`): a header (title, progress, dots, state, course line), a "
        "picker, prompt paragraphs, a feedback line and buttons; 'classes' go on the root. "
        "Empty (the default): no panel. A press sends a 'panel' intent to :attr:`on_panel`."
    ).tag(sync=True)
    page_seen = t.Int(
        0,
        help="int: the page writes back last_event['count'] once it has shown that event, so a "
        "host that re-runs code when the page changes a widget (marimo) re-runs after every "
        "move made on the board.",
    ).tag(sync=True)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live board where the host has a widget manager, and beside it a static SVG of
        the position (``image/svg+xml``, as :meth:`Game.svg` draws it) for places without one:
        exported HTML (see :mod:`pyramid_widget.widget.export`), viewers, a closed kernel."""
        bundle = super()._repr_mimebundle_(**kwargs)  # anywidget: (data, metadata) or None
        if bundle is None:
            return None
        data, metadata = bundle
        return {**data, "image/svg+xml": self._game.svg()}, metadata

    def __init__(
        self,
        rules: str | RuleSet | Mapping[str, Any] = "medium",
        deal: int | str | Sequence[int] | None = None,
        *,
        records: Any = None,
        controls: Sequence[str] | None = None,
        theme: str = "auto",
        banner: bool = True,
        compact: bool = False,
        move_filter: MoveFilter | None = None,
    ) -> None:
        super().__init__()
        self._lock = threading.RLock()
        self._job = 0
        self._closed = False
        self._away = False
        rule_set = get_rules(rules)
        check_drawable(rule_set)
        self._game = Game(rule_set, _random_deal() if deal is None else deal)
        self._started = self._game.moves > 0
        #: Where the page's "winnable deals only" search starts (``None``: at random).
        self.winnable_start: int | None = None
        #: ``(game, move) -> str | None``, a plain attribute: called before a legal move is
        #: applied; a returned text refuses the move and is shown as the explanation.
        self.move_filter: MoveFilter | None = move_filter
        #: ``(action, index) -> None``, a plain attribute: what a press in :attr:`panel` does.
        self.on_panel: PanelHandler | None = None
        self._guard = FloodGuard()
        self._count = 0
        self._source: tuple[str, int | None] = ("python", None)
        self._reported: BaseException | None = None
        self.generation = 0
        self.presets = list(PRESETS)
        self._queue: list[str] = []
        self.rules_info = {
            name: {
                "description": rule_set.description,
                "how": how_to_play(rule_set),
                "source": rule_set.source,
                "group": _preset_group(name)[0],
                "group_title": _preset_group(name)[1],
            }
            for name, rule_set in PRESETS.items()
        }
        if controls is not None:
            self.controls = list(controls)
        self.theme = theme
        self.banner = banner
        self.compact = compact
        self._extras = Extras(records, on_truth=self._put_truth)
        self.features = self._extras.features
        problem = self._take_records(self._extras.stats(self._game.rules.name))
        warning = self._extras.warning or problem
        if warning:
            self.show_message(warning, "error")
        self.on_msg(self._on_msg)
        self._sync()

    # -- trait checks ---------------------------------------------------------------------

    @t.validate("controls")
    def _check_controls(self, proposal: Any) -> list[str]:
        value = list(proposal["value"])
        unknown = [c for c in value if c not in CONTROLS]
        if unknown:
            raise t.TraitError(f"unknown control(s) {unknown}; choose from {list(CONTROLS)}")
        return value

    @t.validate("theme")
    def _check_theme(self, proposal: Any) -> str:
        if proposal["value"] not in ("auto", "light", "dark"):
            raise t.TraitError(
                f"theme must be 'auto', 'light' or 'dark', got {proposal['value']!r}"
            )
        return str(proposal["value"])

    @t.validate("panel")
    def _check_panel(self, proposal: Any) -> dict[str, Any]:
        value = dict(proposal["value"])
        unknown = sorted(set(value) - set(PANEL_FIELDS))
        if unknown:
            raise t.TraitError(f"unknown panel field(s) {unknown}; choose from {PANEL_FIELDS}")
        classes = value.get("classes", [])
        if not isinstance(classes, list) or not all(
            isinstance(c, str) and _CLASS_NAME.fullmatch(c) for c in classes
        ):
            raise t.TraitError(
                f"panel classes must be a list of CSS class names, got {quote(classes)}"
            )
        return value

    # -- state ----------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The engine :class:`~pyramid_widget.engine.game.Game` on the board. After changing it
        directly, call :meth:`refresh` so the page shows it."""
        return self._game

    def refresh(self) -> None:
        """Push the game's current state (and clock) to the page."""
        self._sync()

    def _sync(self) -> None:
        g = self._game
        with self.hold_sync():
            self.board = board_state(g)
            self.status = g.status.value
            self.status_reason = g.status_reason
            self.score = g.score
            self.moves = g.moves
            self.elapsed = round(g.elapsed, 2) if self._started else 0.0
            self.clock_at = time.time()
            self.paused = g.paused and not self._away
            self.clock_running = self._started and not g.paused and not g.is_over
        self._extras.after_change(g, self.generation)

    def _put_truth(self, value: dict[str, Any]) -> None:
        """The "can this still be won?" indicator's new value (from the extras, any thread)."""
        self.truth = value

    def _take_records(self, update: RecordsUpdate | None) -> str | None:
        """Show a records step's stats; return its problem sentence, if any."""
        if update is None:
            return None
        self.stats = update.stats
        return update.problem

    @staticmethod
    def _with(text: str, problem: str | None) -> str:
        return text if not problem else f"{text} {problem}".strip()

    def _event(
        self, kind: str, ok: bool, text: str, move: str = "", cards: Sequence[str] = ()
    ) -> None:
        self._count += 1
        source, seq = self._source
        self.last_event = {
            "kind": kind,
            "move": move,
            "ok": ok,
            "message": text,
            "cards": list(cards),
            "source": source,
            "seq": seq,
            "count": self._count,
        }

    def show_message(self, text: str, kind: str = "info") -> None:
        """Show ``text`` on the board; ``kind`` is info, error, success or hint."""
        if kind not in MESSAGE_KINDS:
            raise ArgumentError(f"message kind must be one of {MESSAGE_KINDS}, got {kind!r}")
        with self.hold_sync():
            self.message_kind = kind
            self.message = str(text)

    def _fail(self, exc: Exception, kind: str, move: str = "", cards: Sequence[str] = ()) -> None:
        # A refused move is told in words ("the 5 of clubs is covered by ..."), as a touched
        # card is; the codes ("5C is covered by ...") stay in the exception for code.
        text = _sentence(clip(exc.refusal.words if isinstance(exc, IllegalMoveError) else str(exc)))
        with self.hold_sync():
            self.show_message(text, "error")
            self._event(kind, False, text, move, cards)
        self._reported = exc

    # -- moves ----------------------------------------------------------------------------

    def _problem(self, move: Move) -> str | Refusal | None:
        """Why ``move`` cannot be played now: the engine's own refusal, the pause, or the move
        filter's text (which becomes a refusal of kind ``"refused"``); ``None`` to play it."""
        g = self._game
        if g.paused:
            return "the game is paused: resume it to play"
        why: str | Refusal | None = g.refusal(move)
        if why is None and self.move_filter is not None and move.kind is not MoveKind.NEXT_ROUND:
            why = self.move_filter(g, move)
        return why

    def _back(self) -> None:
        """A move while the page counted as hidden: the player is back, the clock runs."""
        if self._away:
            self._away = False
            self._game.resume()

    def _position_changes(self) -> None:
        """Background work about the old position (solve, hint, post-mortem) is stale."""
        if self.busy.get("kind") in ("solve", "hint", "post-mortem"):
            self._cancel_jobs()

    def _apply(self, move: Move, *, solving: bool = False) -> Move:
        self._back()
        problem = self._problem(move)
        ids = _highlight(move) if move.is_removal or move.kind is MoveKind.CELL else []
        if problem is not None:
            exc = IllegalMoveError(move, problem)
            self._fail(exc, move.kind.value, str(move), ids)
            raise exc
        if not self._started:  # the clock starts at the first move, not when the cell ran
            self._game._clock.reset(0.0)
            self._started = True
        self._game.play(move)
        g = self._game
        with self.hold_sync():
            if solving:
                self.assisted = True
            else:
                self._set_autoplay([])
                self._position_changes()
            self.highlight = []
            text, kind = self._result_text()
            if g.is_over:  # recorded now; a failing store is reported, never an error here
                update = self._extras.game_over(g, self.generation, assisted=self.assisted)
                text = self._with(text, self._take_records(update))
            self.show_message(text, kind)
            self._sync()
            self._event(move.kind.value, True, text, str(move), ids)
        return move

    def _result_text(self) -> tuple[str, str]:
        g = self._game
        if g.status is Status.WON:
            if g.rules.rounds:
                return f"Round {g.round} complete! Deal the next round to go on.", "success"
            # the banner's words: a game the solver played or hinted is no "You won!"
            won = "Won with the solver's help." if self.assisted else "You won!"
            return f"{won} {_sentence(g.status_reason)}", "success"
        if g.status is Status.LOST:
            return f"No more moves: {g.status_reason}.", "error"
        return "", "info"

    @staticmethod
    def _parse(first: str | Move, second: str | None) -> Move:
        if isinstance(first, Move) and second is None:
            return first
        if not isinstance(first, str) or (second is not None and not isinstance(second, str)):
            raise InvalidMoveError(
                f"name cards as text like '5H', got {quote(first)} and {quote(second)}"
            )
        if second is not None:
            return Move.pair(parse_card(first), parse_card(second))
        return Move.parse(first)

    def play(self, first: str | Move, second: str | None = None) -> Move:
        """Play a move: ``play("5H", "8C")``, ``play("5H+8C")``, ``play("KD")``, ``play("draw")``
        or a :class:`~pyramid_widget.engine.moves.Move`. Returns the move played.

        Raises :class:`~pyramid_widget.errors.InvalidMoveError` for text that names no move or
        card, :class:`~pyramid_widget.errors.IllegalMoveError` (with the reason, also shown on
        the board) for a move the rules or :attr:`move_filter` refuse; nothing changes then.
        """
        try:
            move = self._parse(first, second)
        except ValueError as exc:
            self._fail(exc, "play")
            raise
        return self._apply(move)

    def draw(self) -> Move:
        """Draw from the stock (raises ``IllegalMoveError`` when the stock is empty)."""
        return self._apply(Move.draw())

    def redeal(self) -> Move:
        """Turn the waste over into the stock (raises ``IllegalMoveError`` when not allowed)."""
        return self._apply(Move.redeal())

    def to_cell(self, card: str) -> Move:
        """Move an available card into the free cell (``egypt``)."""
        return self._apply(Move.to_cell(parse_card(card)))

    def next_round(self) -> Move:
        """Deal the next round after a completed ``egypt`` round."""
        return self._apply(Move.next_round())

    def _refuse_while_paused(self, kind: str) -> None:
        """Undo, redo, hints and Solve wait for the game to be resumed (the board is hidden,
        the clock stopped): refused in one sentence, nothing changes."""
        if self._game.paused:
            exc = IllegalMoveError(kind, "the game is paused: resume it to play")
            self._fail(exc, kind)
            raise exc

    def _meta(self, kind: str, action: Callable[[], Move]) -> Move:
        self._back()
        self._refuse_while_paused(kind)
        try:
            move = action()
        except IllegalMoveError as exc:
            self._fail(exc, kind)
            raise
        with self.hold_sync():
            self._set_autoplay([])
            self._position_changes()
            self.highlight = []
            verb = "Undid" if kind == "undo" else "Redid"
            text = f"{verb} {describe_move(move)}."
            self.show_message(text, "info")
            self._sync()
            self._event(kind, True, text, str(move), _highlight(move) if move.is_removal else [])
        return move

    def undo(self) -> Move:
        """Take back the last move; returns it. Raises ``IllegalMoveError`` if there is none."""
        return self._meta("undo", self._game.undo)

    def redo(self) -> Move:
        """Play the last undone move again; returns it. Raises ``IllegalMoveError`` if none."""
        return self._meta("redo", self._game.redo)

    def hint(self, level: int = 1) -> Move | None:
        """Highlight a useful move and return it (``None`` if there is none).

        ``level=1``: the rule of thumb of :mod:`pyramid_widget.engine.hints` (the same move the
        lab's ``greedy`` strategy plays); ``level=2``: the next move of a winning line found by
        the solver (raises :class:`~pyramid_widget.errors.UndecidedError` when it cannot decide
        in time).
        """
        if level not in (1, 2):
            raise ArgumentError(f"hint level must be 1 or 2, got {level!r}")
        self._refuse_while_paused("hint")
        try:
            move = (
                self._extras.winning_move(self._game) if level == 2 else rule_of_thumb(self._game)
            )
        except ValueError as exc:
            self._fail(exc, "hint")
            raise
        self._show_hint(move, level)
        return move

    def _show_hint(self, move: Move | None, level: int) -> None:
        with self.hold_sync():
            if level == 2 and move is not None:
                self.assisted = True  # the solver's winning move: an assisted game
            if move is None:
                over = self._game.is_over
                text = (
                    f"The game is over: {self._game.status_reason}."
                    if over
                    else ("No winning move from here." if level == 2 else "No useful move left.")
                )
                self.highlight = []
            else:
                text = f"Hint: {describe_move(move)}."
                self.highlight = _highlight(move)
            self.show_message(text, "hint")
            self._event("hint", move is not None, text, str(move or ""), self.highlight)

    # -- whole games ----------------------------------------------------------------------

    def new_game(
        self,
        rules: str | RuleSet | Mapping[str, Any] | None = None,
        deal: int | str | Sequence[int] | None = None,
        *,
        winnable: bool = False,
    ) -> Game:
        """Start a new game (same rule set when ``rules`` is ``None``; random deal when
        ``deal`` is ``None``; ``winnable=True`` picks a deal the solver proves winnable).
        Returns the new game. Raises the engine's ``ValueError``\\ s for bad rules or deals;
        the board is unchanged then."""
        rule_set = self._game.rules if rules is None else get_rules(rules)
        check_drawable(rule_set)
        if winnable:
            if deal is not None:
                raise ArgumentError("give either a deal or winnable=True, not both")
            deal = self._extras.winnable_deal(rule_set)
        self.load(Game(rule_set, _random_deal() if deal is None else deal))
        return self._game

    def load(self, game: Game) -> None:
        """Show ``game`` (any :class:`~pyramid_widget.engine.game.Game`, including a hand-made
        position from ``Game.from_position``) and play on it from here."""
        if not isinstance(game, Game):
            raise TypeError(f"load() takes a pyramid_widget Game, got {type(game).__name__}")
        check_drawable(game.rules)
        problem = self._take_records(
            self._extras.abandon(self._game, self.generation, assisted=self.assisted)
        )
        self._game = game
        self._started = game.moves > 0
        self._fresh_start("New game: " + self._game_title() + ".", problem)

    def restart(self) -> None:
        """Start this deal again from the beginning (score and clock reset)."""
        problem = self._take_records(
            self._extras.abandon(self._game, self.generation, assisted=self.assisted)
        )
        self._game.restart()
        self._started = False
        self._fresh_start("Restarted " + self._game_title() + ".", problem)

    def _game_title(self) -> str:
        g = self._game
        deal = f"deal #{g.deal_number}" if g.deal_number is not None else "a custom position"
        return f"{g.rules.name}, {deal}"

    def _fresh_start(self, text: str, problem: str | None = None) -> None:
        """A new game or a restart is on the board; ``problem``: the old game's records
        failure, if any (the new game starts all the same)."""
        self.generation += 1
        self._away = False
        with self.hold_sync():
            self._cancel_jobs()
            self._set_autoplay([])
            self.assisted = False
            self.post_mortem_text = ""
            self.highlight = []
            later = self._take_records(self._extras.new_game(self._game, self.generation))
            text = self._with(self._with(text, problem), later)
            self.show_message(text, "error" if problem or later else "info")
            self._sync()
            self._event("new", True, text)

    def pause(self) -> None:
        """Stop the clock and hide the board until :meth:`resume`."""
        self._away = False
        self._game.pause()
        with self.hold_sync():
            # The solver's line (and a solve still thinking) waits: the page asks for no move
            # while paused and _solve_step plays none; Resume goes on with it.
            self._sync()
            self._event("pause", True, "Paused.")

    def resume(self) -> None:
        """Start the clock again and show the board."""
        self._away = False
        self._game.resume()
        with self.hold_sync():
            if "paused" in self.message:
                self.show_message("", "info")  # "the game is paused..." is no longer true
            self._sync()
            self._event("resume", True, "")

    def solve(self, *, step_by_step: bool = True) -> WinningLine | None:
        """Find a winning line from here (:mod:`pyramid_widget.solver.lines`) and play it:
        one move at a time on the page when ``step_by_step``, else all at once. Returns the
        line (a :class:`~pyramid_widget.solver.lines.WinningLine`, which says whether it is
        proved shortest; the board says which), or ``None`` (and says so on the board) when
        the position cannot be won."""
        self._refuse_while_paused("solve")
        try:
            line = self._extras.winning_line(self._game)
        except ValueError as exc:
            self._fail(exc, "solve")
            raise
        if not step_by_step:
            if line is None:
                self.show_message("The solver proved that this position cannot be won.", "error")
            for move in line or []:
                self._apply(move, solving=True)
            return line
        self._queue_line(line)
        return line

    def _queue_line(self, line: WinningLine | None) -> None:
        """Queue the solver's line for the page to play (or say that there is none)."""
        if line is None:
            self.show_message("The solver proved that this position cannot be won.", "error")
            return
        with self.hold_sync():
            self._set_autoplay([str(m) for m in line])
            self.highlight = _highlight(line[0]) if line else []
            self.show_message(f"Solving: {line.describe()}.", "hint")

    def _set_autoplay(self, moves: list[str]) -> None:
        """Queue the solver's ``moves``; the ``autoplay`` trait the page sees names no card
        that is face down now (such a card is ``##``: the solver knows it, the player not)."""
        self._queue = list(moves)
        hidden = {card_str(self._game.pyramid[p] or 0) for p in self._game.hidden}
        if not hidden:
            self.autoplay = list(moves)
            return
        words = {"draw", "redeal", "next-round"}
        public = []
        for text in moves:
            parts = text.split(" ", 1) if text.startswith("cell ") else ["", text]
            if parts[1] in words:
                public.append(text)
                continue
            names = ["##" if n in hidden else n for n in parts[1].split("+")]
            public.append((parts[0] + " " if parts[0] else "") + "+".join(names))
        self.autoplay = public

    def stop_solving(self) -> None:
        """Stop the solver's line (and any solve still thinking); the moves played stay."""
        with self.hold_sync():
            was = bool(self.autoplay) or self.busy.get("kind") == "solve"
            if self.busy.get("kind") == "solve":
                self._cancel_jobs()
            self._set_autoplay([])
            self.highlight = []
            if was:
                self.show_message("Solve stopped.", "info")
            self._event("solve-stop", True, "Solve stopped." if was else "")

    def _solve_step(self) -> None:
        """Play the next queued move of the solver's line (the page asks for each step)."""
        queue = list(self._queue)
        if not queue or self._game.paused:
            return  # paused: the line waits, and goes on after Resume
        try:
            self._apply(Move.parse(queue[0]), solving=True)
        except ValueError:
            self._set_autoplay([])
            raise
        with self.hold_sync():
            self._set_autoplay(queue[1:])
            if queue[1:]:
                self.highlight = _highlight(Move.parse(queue[1]))
                self.show_message(f"Solving: {_moves_text(len(queue) - 1)} to go.", "hint")

    def _refresh_stats(self) -> None:
        problem = self._take_records(self._extras.stats(self._game.rules.name))
        if problem:
            raise RecordsError(problem)

    def post_mortem(self) -> PostMortem:
        """The solver's verdict on this game: could it have been won, which move lost it."""
        return self._extras.post_mortem(self._game)

    # -- background work (the page's Solve, second-level hint, winnable deal, post-mortem) --

    def _where(self) -> tuple[int, int, int]:
        return (self.generation, len(self._game.history), self._game.moves)

    def _cancel_jobs(self) -> None:
        self._job += 1
        self.busy = {}

    def _background(
        self,
        kind: str,
        text: str,
        work: Callable[[Game, Callable[[], bool], Callable[[str], None]], Any],
        done: Callable[[Any], None],
        *,
        same_position: bool = True,
    ) -> None:
        """Run ``work(game copy, stop, progress)`` off the kernel's main thread, then, under
        the widget's lock and only if still current (no newer job; with ``same_position``,
        no move since), ``done(result)``. ``progress(text)`` updates :attr:`busy`."""
        self._job += 1
        token = self._job
        game = self._game.copy()
        where = self._where()

        def current() -> bool:
            return (
                token == self._job
                and not self._closed
                and (not same_position or where == self._where())
            )

        def progress(words: str) -> None:
            with self._lock:
                if current():
                    with self.hold_sync():
                        self.busy = {"kind": kind, "text": words}
                        self.show_message(words, "hint")

        def run() -> None:
            try:
                result = work(game, lambda: not current(), progress)
            except Exception as exc:
                with self._lock:
                    if current():
                        with self.hold_sync():
                            self.busy = {}
                            self._fail(exc, kind)
                        self._reported = None
                    if not isinstance(exc, ValueError):
                        _log.exception("pyramid widget: background %s failed", kind)
                return
            with self._lock:
                if current():
                    with self.hold_sync():
                        self.busy = {}
                        done(result)

        with self.hold_sync():
            self.busy = {"kind": kind, "text": text}
            self.show_message(text, "hint")
        threading.Thread(target=run, name=f"pyramid-{kind}", daemon=True).start()

    def _solve_in_background(self) -> None:
        if self.autoplay or self.busy.get("kind") == "solve":
            self.stop_solving()  # the Solve button toggles
            return
        self._refuse_while_paused("solve")
        self._background(
            "solve",
            "Solving: thinking…",
            lambda game, stop, progress: self._extras.winning_line(game),
            self._queue_line,
        )

    def _hint_in_background(self) -> None:
        self._refuse_while_paused("hint")
        self._background(
            "hint",
            "Hint: the solver is thinking…",
            lambda game, stop, progress: self._extras.winning_move(game),
            lambda move: self._show_hint(move, 2),
        )

    def _winnable_in_background(self, rules: str | None) -> None:
        rule_set = self._game.rules if rules is None else get_rules(rules)
        check_drawable(rule_set)

        def work(game: Game, stop: Callable[[], bool], progress: Callable[[str], None]) -> Any:
            def tell(tried: int, number: int) -> None:
                if tried:
                    progress(
                        f"Looking for a winnable {rule_set.name} deal: {tried} tried, "
                        f"now deal #{number}…"
                    )

            return self._extras.search_winnable(rule_set, stop, tell, self.winnable_start)

        def done(number: int | None) -> None:
            if number is not None:
                self.load(Game(rule_set, number))

        self._background(
            "winnable",
            f"Looking for a winnable {rule_set.name} deal…",
            work,
            done,
            same_position=False,
        )

    def _post_mortem_in_background(self) -> None:
        if not self._game.is_over:
            raise IntentError("the post-mortem is for a game that is over")

        def done(text: str) -> None:
            self.post_mortem_text = text
            self.show_message("", "info")

        self._background(
            "post-mortem",
            "Could you have won? The solver is looking…",
            lambda game, stop, progress: str(self._extras.post_mortem(game).detail),
            done,
        )

    def _visibility(self, hidden: bool) -> None:
        """The page was hidden (another tab, a minimised window) or shown again: the clock
        stops while nobody can see the board (without the pause screen)."""
        g = self._game
        if hidden and not g.paused and not g.is_over and self._started:
            self._away = True
            g.pause()
            self._sync()
        elif not hidden and self._away:
            self._away = False
            g.resume()
            self._sync()

    def _set_speed(self, speed: str) -> None:
        if speed not in SOLVE_SPEEDS:
            raise IntentError(f"unknown solve speed {quote(speed)}")
        self.solve_speed = speed

    def close(self) -> None:
        """Stop background work and close the widget."""
        self._closed = True
        extras: Extras | None = getattr(self, "_extras", None)
        if extras is not None:
            extras.close()
        super().close()

    # -- the page's messages --------------------------------------------------------------

    @contextlib.contextmanager
    def _from_page(self, seq: int | None) -> Iterator[None]:
        self._source = ("page", seq)
        try:
            yield
        finally:
            self._source = ("python", None)

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        seq = content.get("seq") if isinstance(content, dict) else None
        with self._lock, self._from_page(seq if isinstance(seq, int) else None):
            try:
                if not self._guard.allow():
                    raise IntentError(
                        f"too many messages at once (more than {self._guard.limit} a second); "
                        "this one was ignored"
                    )
                self._dispatch(check_intent(content))
            except Exception as exc:  # every failure goes back to the page, never lost
                if exc is not self._reported:
                    if not isinstance(exc, ValueError):
                        _log.exception(
                            "pyramid widget: unexpected error handling %s", quote(content)
                        )
                    kind = content.get("kind") if isinstance(content, dict) else None
                    self._fail(exc, kind if isinstance(kind, str) else "error")
            finally:
                self._reported = None

    def _dispatch(self, intent: dict[str, Any]) -> None:
        kind = intent["kind"]
        simple: dict[str, Callable[[], object]] = {
            "draw": self.draw,
            "redeal": self.redeal,
            "next-round": self.next_round,
            "undo": self.undo,
            "redo": self.redo,
            "restart": self.restart,
            "pause": self.pause,
            "resume": self.resume,
            "solve": self._solve_in_background,
            "solve-step": self._solve_step,
            "solve-stop": self.stop_solving,
            "post-mortem": self._post_mortem_in_background,
            "stats": self._refresh_stats,
        }
        if kind in simple:
            simple[kind]()
        elif kind == "pair":
            self.play(*intent["cards"])
        elif kind == "king":
            self._apply(Move.king(parse_card(intent["card"])))
        elif kind == "cell":
            self.to_cell(intent["card"])
        elif kind == "select":
            self._select(intent["card"])
        elif kind == "hint" and intent.get("level", 1) == 2:
            self._hint_in_background()
        elif kind == "hint":
            self.hint(1)
        elif kind == "visibility":
            self._visibility(intent["hidden"])
        elif kind == "solve-speed":
            self._set_speed(intent["speed"])
        elif kind == "truth":
            self._extras.set_truth(intent["on"], self._game, self.generation)
        elif kind == "new" and intent.get("winnable", False):
            if intent.get("deal") is not None:
                raise IntentError("give either a deal number or 'winnable deals only', not both")
            self._winnable_in_background(intent.get("rules"))
        elif kind == "new":
            self.new_game(intent.get("rules"), intent.get("deal"))
        elif kind == "panel":
            self._press(intent["action"], intent.get("index"))

    def _press(self, action: str, index: int | None) -> None:
        """A press in the panel: only what the panel offers now (an enabled button, an option
        of the picker) goes to :attr:`on_panel`; anything else is refused and changes nothing."""
        panel = self.panel
        if not panel or self.on_panel is None:
            raise IntentError("this board has no panel to press")
        if action == "pick":
            options = (panel.get("picker") or {}).get("options") or []
            if index is None or not 0 <= index < len(options):
                raise IntentError(
                    f"the picker has {len(options)} option(s); there is no option {index}"
                )
        else:
            button = next(
                (b for b in panel.get("buttons") or [] if b.get("action") == action), None
            )
            if button is None:
                raise IntentError(f"the panel has no {quote(action)} button")
            if button.get("disabled"):
                label = str(button.get("label") or action)
                raise IntentError(f"the {quote(label)} button is not available now")
        self.on_panel(action, index)

    def _select(self, name: str) -> None:
        """The player touched a card that cannot be played: say why."""
        card = parse_card(name)
        why = why_unavailable(self._game, card)
        if why is not None:
            with self.hold_sync():
                self.show_message(why, "error")
                where = self._game.where(card)
                down = where.zone.value == "pyramid" and where.index in self._game.hidden
                shown = [] if down else [name]  # a face-down card is never named back
                self._event("select", False, why, "", shown)
