"""An OpenSpiel-style face for researchers (duck-typed; pyspiel is not needed).

One player, perfect information once dealt; chance is only in the deal, which is fixed when
the state is created. Actions are integers:

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
    """Return the move of an action number; ``ValueError`` if there is none."""
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action must be an integer in 0..{NUM_ACTIONS - 1}, got {action!r}")
    if action < KING_BASE:
        a, b = divmod(action, 52)
        if a >= b:
            raise ValueError(f"action {action} names no pair (cards {a} and {b})")
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
        self.rules = get_rules(rules)

    def num_distinct_actions(self) -> int:
        """Size of the action space."""
        return NUM_ACTIONS

    def num_players(self) -> int:
        """One player."""
        return 1

    def new_initial_state(self, deal: int | str | Sequence[Card] | None = None) -> PyramidState:
        """A fresh state for ``deal`` (a number, a deal string, 52 cards, or random)."""
        return PyramidState(Game(self.rules, deal))
