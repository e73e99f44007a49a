"""The action numbering of the research faces, and a light OpenSpiel-style face on the engine.

:class:`PyramidGame` / :class:`PyramidState` mirror OpenSpiel's state methods on a full
:class:`~pyramid_widget.engine.game.Game` and need no extra package. For OpenSpiel's own
algorithms (``MCTSBot``, ``ISMCTSBot``, ``random_sim_test``) import
:mod:`pyramid_widget.lab.openspiel`, which registers the real ``pyramid_solitaire`` game;
for Gymnasium agents :mod:`pyramid_widget.lab.gym_env` (both need the ``research`` extra).
All three number actions alike:

================  ==========================================
``a * 52 + b``    remove the pair ``a < b`` (0 .. 2703)
``2704 + c``      remove King ``c`` alone
``2756``          draw
``2757``          redeal
``2758 + c``      move card ``c`` to the cell
``2810``          next round (``egypt``)
================  ==========================================

>>> game = PyramidGame("medium")
>>> state = game.new_initial_state(deal=7)
>>> actions = state.legal_actions()
>>> actions == sorted(actions), state.action_to_string(actions[-1])
(True, 'draw')
>>> state.apply_action(actions[-1]); state.is_terminal(), state.returns()
(False, [0.0])
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramid_widget.engine.cards import Card
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet, get_rules
from pyramid_widget.errors import InvalidMoveError
from pyramid_widget.lab.fastplay import FastMove, from_move

KING_BASE = 52 * 52
DRAW_ACTION = KING_BASE + 52
REDEAL_ACTION = DRAW_ACTION + 1
CELL_BASE = REDEAL_ACTION + 1
NEXT_ROUND_ACTION = CELL_BASE + 52
NUM_ACTIONS = NEXT_ROUND_ACTION + 1


def move_to_action(move: Move) -> int:
    """Return the action number of ``move``."""
    if move.kind is MoveKind.PAIR:
        a, b = move.cards
        return a * 52 + b
    if move.kind is MoveKind.KING:
        return KING_BASE + move.cards[0]
    if move.kind is MoveKind.CELL:
        return CELL_BASE + move.cards[0]
    return {
        MoveKind.DRAW: DRAW_ACTION,
        MoveKind.REDEAL: REDEAL_ACTION,
        MoveKind.NEXT_ROUND: NEXT_ROUND_ACTION,
    }[move.kind]


def action_to_move(action: int) -> Move:
    """Return the move of an action number.

    Raises :class:`~pyramid_widget.errors.InvalidMoveError` (a ``ValueError``) when the
    number names no move.

    >>> action_to_move(2755), action_to_move(1)
    (Move.parse('KS'), Move.parse('AC+AD'))
    >>> action_to_move(52)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidMoveError: action 52 names no pair (cards 1 and 0)
    """
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise InvalidMoveError(f"action must be an integer in 0..{NUM_ACTIONS - 1}, got {action!r}")
    if action < KING_BASE:
        a, b = divmod(action, 52)
        if a >= b:
            raise InvalidMoveError(f"action {action} names no pair (cards {a} and {b})")
        return Move.pair(a, b)
    if action < DRAW_ACTION:
        return Move.king(action - KING_BASE)
    if action == DRAW_ACTION:
        return Move.draw()
    if action == REDEAL_ACTION:
        return Move.redeal()
    if action < NEXT_ROUND_ACTION:
        return Move.to_cell(action - CELL_BASE)
    return Move.next_round()


def fast_move_to_action(move: FastMove) -> int:
    """Return the action number of a :mod:`~pyramid_widget.lab.fastplay` move (same table).

    >>> fast_move_to_action(("pair", (18, 28))), fast_move_to_action(("draw", ()))
    (964, 2756)
    """
    kind, cards = move
    if kind == "pair":
        return cards[0] * 52 + cards[1]
    if kind == "king":
        return KING_BASE + cards[0]
    if kind == "cell":
        return CELL_BASE + cards[0]
    return {"draw": DRAW_ACTION, "redeal": REDEAL_ACTION, "next-round": NEXT_ROUND_ACTION}[kind]


def action_to_fast_move(action: int) -> FastMove:
    """Return the fast move of an action number (from a table: playouts call this often).

    Raises :class:`~pyramid_widget.errors.InvalidMoveError` as :func:`action_to_move` does.

    >>> action_to_fast_move(964), action_to_fast_move(2757)
    (('pair', (18, 28)), ('redeal', ()))
    """
    try:
        found = _FAST_MOVES[action] if action >= 0 else None
    except (TypeError, IndexError):
        found = None
    if found is None or isinstance(action, bool):
        return from_move(action_to_move(action))  # raises the error that says why
    return found


def _fast_table() -> list[FastMove | None]:
    table: list[FastMove | None] = []
    for action in range(NUM_ACTIONS):
        try:
            table.append(from_move(action_to_move(action)))
        except InvalidMoveError:
            table.append(None)
    return table


def max_game_length(rules: RuleSet) -> int | None:
    """An upper bound on the moves of one game (one ``egypt`` round), or ``None`` when the
    rules allow games of any length (unlimited passes: ``easy``).

    Every removal discards at least one of the cards; a card goes to a free cell at most
    once (it leaves only by being removed); a pass draws at most
    ``ceil(stock size / draw_count)`` times, as the stock never grows beyond the cards first
    dealt to it (24 in classic Pyramid); and there are ``passes - 1`` redeals.

    >>> max_game_length(get_rules("medium")), max_game_length(get_rules("egypt"))
    (126, 112)
    >>> max_game_length(get_rules("easy")) is None, max_game_length(get_rules("giza"))
    (True, 52)
    """
    if rules.passes is None:
        return None
    deck = getattr(rules, "deck_size", 52)
    stock = getattr(rules, "stock_size", 24)
    draws_per_pass = -(-stock // rules.draw_count)
    cell_moves = deck if rules.cells else 0
    redeals = rules.passes - 1 if stock else 0
    return deck + cell_moves + rules.passes * draws_per_pass + redeals


_FAST_MOVES = _fast_table()


class PyramidState:
    """A game position with the OpenSpiel state methods."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def current_player(self) -> int:
        """0 while playing; -4 (OpenSpiel's terminal id) when the game is over."""
        return -4 if self.is_terminal() else 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions, sorted (none once terminal)."""
        if self.is_terminal():
            return []
        return sorted(move_to_action(m) for m in self.game.legal_moves)

    def apply_action(self, action: int) -> None:
        """Play ``action``; raises ``ValueError`` if it is not legal."""
        self.game.play(action_to_move(action))

    def action_to_string(self, player: int | int, action: int | None = None) -> str:
        """Text of an action (called as ``(action)`` or ``(player, action)``)."""
        return str(action_to_move(player if action is None else action))

    def string_to_action(self, text: str) -> int:
        """The action of a move's text form."""
        return move_to_action(Move.parse(text))

    def is_terminal(self) -> bool:
        """Whether the game is won or lost (a won ``egypt`` round is terminal too)."""
        return self.game.status is not Status.PLAYING

    def returns(self) -> list[float]:
        """``[1.0]`` for a win, ``[0.0]`` otherwise."""
        return [1.0 if self.game.status is Status.WON else 0.0]

    def rewards(self) -> list[float]:
        """Reward of the last action: 1.0 on the winning move."""
        return self.returns() if self.is_terminal() else [0.0]

    def clone(self) -> PyramidState:
        """An independent copy."""
        return PyramidState(self.game.copy())

    def is_chance_node(self) -> bool:
        """Never: the deal is fixed at creation."""
        return False

    def __str__(self) -> str:
        return str(self.game)


class PyramidGame:
    """The game object: holds the rules and creates states."""

    def __init__(self, rules: str | RuleSet = "medium") -> None:
        from pyramid_widget.lab.observation import check_research_rules

        self.rules = get_rules(rules)
        check_research_rules(self.rules)

    def num_distinct_actions(self) -> int:
        """Size of the action space."""
        return NUM_ACTIONS

    def num_players(self) -> int:
        """One player."""
        return 1

    def new_initial_state(self, deal: int | str | Sequence[Card] | None = None) -> PyramidState:
        """A fresh state for ``deal`` (a number, a deal string, 52 cards, or random)."""
        return PyramidState(Game(self.rules, deal))
