"""Pyramid Solitaire as a real OpenSpiel game (``pip install pyramid-widget[research]``).

Importing this module registers the game with ``pyspiel.register_game`` under the short name
``pyramid_solitaire``, so that OpenSpiel's own tools load and play it unchanged:

>>> import pyspiel
>>> import pyramid_widget.lab.openspiel
>>> game = pyspiel.load_game("pyramid_solitaire(rules=hard,deal=7)")
>>> game.num_players(), game.num_distinct_actions(), game.max_game_length()
(1, 2811, 76)
>>> state = game.new_initial_state()
>>> state.current_player(), state.action_to_string(0, state.legal_actions()[-1])
(0, 'draw')

Parameters: ``rules`` (a preset name of one deck: the seven of docs/RULES.md and the
one-deck games of the family; a two-deck preset is refused with a clear
:class:`~pyramid_widget.errors.InvalidRulesError`, as actions name the 52 cards of one deck),
``deal`` (a deal number from 0 to 2**31 - 1, or -1, the default, to let chance deal) and
``max_moves`` (-1, the default, for the rules' own bound; see below).

Design decisions, for the record:

- **Chance.** With ``deal=-1`` the game starts with 52 chance nodes that deal the cards one
  by one, each uniform over the cards not dealt yet (pyramid positions 0..27, then the stock,
  first drawn first), so every deal is equally likely; chance mode ``EXPLICIT_STOCHASTIC``.
  With ``deal=N`` the state starts dealt (deal number ``N`` of
  :func:`~pyramid_widget.engine.deals.deal_from_number`, the same deal the widget, the solver
  and the experiments call ``N``) and the game is ``DETERMINISTIC``. After the deal nothing is
  random. OpenSpiel's evaluate loops sample the deal; its ``MCTSBot`` is only ever asked to
  move after it, so its tree holds no chance node.
- **Information.** ``IMPERFECT_INFORMATION`` under every preset: the stock is face down (some
  presets show its top card), so its order is hidden during the first pass, and under
  ``dark_pyramid`` and ``thirteen`` rows 1-6 of the pyramid are dealt face down. The
  observation and the information state (see :mod:`pyramid_widget.lab.observation`) hold
  only what the player sees or has seen: a face-down position shows as a back (``##``). A tree search that clones the state, such as ``MCTSBot``, plays on
  the true state and so knows the stock order, like the exact solver; for a search that knows
  only what the player knows use OpenSpiel's ``ISMCTSBot`` with
  :meth:`PyramidSolitaireState.resample_from_infostate`.
- **Length.** ``max_game_length`` is :func:`~pyramid_widget.lab.spiel.max_game_length` of the
  rules (every removal discards a card, a card enters the free cell at most once, a pass
  draws at most 24 times, ``passes - 1`` redeals: 126 moves for ``medium``). ``easy`` allows
  unlimited passes, so a game can go on for ever; there the game stops after
  :data:`~pyramid_widget.lab.strategies.DEFAULT_MAX_MOVES` moves (the experiments' limit), a
  stopped game counting as not won. ``max_moves`` sets another limit for any rule set.
- **Utility.** Terminal reward only: 1 for a win, 0 otherwise.
- **egypt.** One round is one episode: the state is terminal when the round is won (the
  ``next-round`` action, number 2810, is never legal) or lost.
- Actions are those of :mod:`pyramid_widget.lab.spiel`: ``a * 52 + b`` for the pair
  ``a < b``, ``2704 + c`` for King ``c``, 2756 draw, 2757 redeal, ``2758 + c`` card ``c`` to
  the cell. The state runs on :class:`~pyramid_widget.lab.fastplay.FastGame`, which the suite
  checks plays the engine's rules move for move.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.algorithms import mcts  # type: ignore[import-not-found, import-untyped, unused-ignore]

from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.deals import deal_from_number
from pyramid_widget.engine.rules import RuleSet, get_rules
from pyramid_widget.errors import IllegalMoveError, InvalidDealError, InvalidRulesError
from pyramid_widget.lab.fastplay import PLAYING, WON, FastGame
from pyramid_widget.lab.observation import Layout
from pyramid_widget.lab.spiel import (
    NUM_ACTIONS,
    action_to_fast_move,
    action_to_move,
    fast_move_to_action,
    max_game_length,
)
from pyramid_widget.lab.strategies import DEFAULT_MAX_MOVES, GREEDY

SHORT_NAME = "pyramid_solitaire"
MAX_DEAL = 2**31 - 1
"""OpenSpiel's integer parameters are 32-bit: deals 0 .. 2**31 - 1 can be named."""
DEFAULT_PARAMS: dict[str, Any] = {"rules": "medium", "deal": -1, "max_moves": -1}
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def game_type(chance: bool = True) -> Any:
    """The ``pyspiel.GameType``: with chance for the deal, or deterministic (a fixed deal)."""
    mode = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Pyramid Solitaire (pyramid-widget)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if chance else mode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=1,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMS,
    )


def move_limit(rules: RuleSet, max_moves: int = -1) -> int:
    """The move limit of a game: ``max_moves`` if positive, else the rules' own bound
    (:data:`DEFAULT_MAX_MOVES` where the rules set none).

    >>> move_limit(get_rules("medium")), move_limit(get_rules("easy")), move_limit(get_rules("hard"), 10)
    (126, 5000, 10)
    """
    if isinstance(max_moves, bool) or not isinstance(max_moves, int):
        raise InvalidRulesError(f"max_moves must be an integer, got {max_moves!r}")
    if max_moves > 0:
        return max_moves
    if max_moves != -1:
        raise InvalidRulesError(
            f"max_moves must be positive, or -1 for the rules' own bound, got {max_moves}"
        )
    bound = max_game_length(rules)
    return DEFAULT_MAX_MOVES if bound is None else bound


class _Setup:
    """What every state of one game shares (never copied)."""

    def __init__(self, rules: RuleSet, deal: int, limit: int) -> None:
        self.rules = rules
        self.deal = deal
        self.limit = limit
        self.layout = Layout(rules)
        self.start = FastGame(rules, deal_from_number(deal)) if deal >= 0 else None


class _Core:
    """The changing part of a state, in one attribute so that OpenSpiel's ``clone`` (a
    ``deepcopy`` of the Python attributes) costs one fast copy."""

    __slots__ = ("dealt", "fg", "legal", "moves", "over", "setup")

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        self.fg = setup.start.copy() if setup.start is not None else None
        self.dealt: list[int] = []
        self.moves = 0
        self.legal: list[int] | None = None
        self.over = False
        self.update()

    def update(self) -> None:
        """Note whether the game is over (won, lost or at the move limit)."""
        fg = self.fg
        self.over = fg is not None and (fg.status != PLAYING or self.moves >= self.setup.limit)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        twin = _Core.__new__(_Core)
        twin.setup, twin.moves, twin.legal = self.setup, self.moves, self.legal
        twin.over = self.over
        twin.fg = self.fg.copy() if self.fg is not None else None
        twin.dealt = self.dealt.copy()
        return twin

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)


class PyramidSolitaireGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; ``pyspiel.load_game("pyramid_solitaire(rules=medium)")`` makes one.

    Raises :class:`~pyramid_widget.errors.InvalidRulesError` for an unknown preset or a bad
    ``max_moves`` and :class:`~pyramid_widget.errors.InvalidDealError` for a bad ``deal``.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**DEFAULT_PARAMS, **(params or {})}
        rules = get_rules(str(values["rules"]))
        deal = values["deal"]
        if isinstance(deal, bool) or not isinstance(deal, int) or not -1 <= deal <= MAX_DEAL:
            raise InvalidDealError(
                f"deal must be -1 (dealt by chance) or a deal number from 0 to {MAX_DEAL}, "
                f"got {deal!r}"
            )
        limit = move_limit(rules, values["max_moves"])
        self._setup = _Setup(rules, deal, limit)
        chance = deal < 0
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=52 if chance else 0,
            num_players=1,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=limit,
        )
        super().__init__(game_type(chance), info, values)

    @property
    def rules(self) -> RuleSet:
        """The rule set played."""
        return self._setup.rules

    def new_initial_state(self) -> PyramidSolitaireState:
        """A fresh state: a chance node (``deal=-1``) or the dealt deal."""
        return PyramidSolitaireState(self)

    def max_chance_nodes_in_history(self) -> int:
        """52 chance nodes (one a card) when chance deals, none for a fixed deal."""
        return 52 if self._setup.deal < 0 else 0

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer: the player's knowledge with perfect recall (the information state)
        or the plain current view (the observation)."""
        remember = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self._setup.layout, remember, params)


class PyramidSolitaireState(pyspiel.State):  # type: ignore[misc]
    """A state of :class:`PyramidSolitaireGame`."""

    def __init__(self, game: PyramidSolitaireGame) -> None:
        super().__init__(game)
        self._core = _Core(game._setup)

    @property
    def fast_game(self) -> FastGame | None:
        """The position (``None`` while chance is still dealing). Treat it as read-only."""
        return self._core.fg

    @property
    def moves_played(self) -> int:
        """Player moves so far (chance nodes not counted)."""
        return self._core.moves

    def current_player(self) -> int:
        """0 to move, ``PlayerId.CHANCE`` while dealing, ``PlayerId.TERMINAL`` at the end."""
        core = self._core
        if core.fg is None:
            return _CHANCE
        return _TERMINAL if core.over else 0

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if core.legal is None:
            assert core.fg is not None
            core.legal = sorted(fast_move_to_action(m) for m in core.fg.legal())
        return list(core.legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards not dealt yet, each with the same probability."""
        dealt = set(self._core.dealt)
        left = [c for c in range(52) if c not in dealt]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.fg is None:
            self._deal(action)
            return
        legal = self._legal_actions(0)
        if action not in legal:
            move = action_to_move(action)
            raise IllegalMoveError(
                move, f"action {action} is not one of the {len(legal)} legal actions here"
            )
        core.fg.play(action_to_fast_move(action))
        core.moves += 1
        core.legal = None
        core.update()

    def _deal(self, card: int) -> None:
        core = self._core
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
            raise InvalidDealError(f"a chance outcome is a card from 0 to 51, got {card!r}")
        if card in core.dealt:
            raise InvalidDealError(f"{card_str(card)} is already dealt")
        core.dealt.append(card)
        if len(core.dealt) == 52:
            core.fg = FastGame(core.setup.rules, core.dealt)
            core.update()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            slot = len(self._core.dealt)
            return f"deal {card_str(action)} to {_slot_name(self._core.setup.rules, slot)}"
        return str(action_to_move(action))

    def is_terminal(self) -> bool:
        """Won, lost, or stopped at the move limit."""
        return self._core.over

    def returns(self) -> list[float]:
        """``[1.0]`` once won, else ``[0.0]``."""
        fg = self._core.fg
        return [1.0 if fg is not None and fg.status == WON else 0.0]

    def resample_from_infostate(self, player: int, sampler: Any) -> PyramidSolitaireState:
        """A state the player cannot tell from this one: a clone whose unseen stock cards
        (first pass; the shown top card stays) are shuffled with ``sampler`` (OpenSpiel's
        probability sampler, a callable giving numbers in [0, 1)). For ``ISMCTSBot``."""
        twin: PyramidSolitaireState = self.clone()
        fg = twin._core.fg
        if fg is not None and fg.hidden():
            _resample_hidden(fg, sampler)
            return twin
        if fg is None or fg.pass_number > 1:
            return twin
        shown = 1 if fg.stock and twin._core.setup.rules.stock_face_up else 0
        hidden = fg.stock[: len(fg.stock) - shown]
        for i in range(len(hidden) - 1, 0, -1):
            j = min(int(sampler() * (i + 1)), i)
            hidden[i], hidden[j] = hidden[j], hidden[i]
        fg.stock[: len(hidden)] = hidden
        return twin

    def __str__(self) -> str:
        core = self._core
        if core.fg is None:
            return f"dealing: {len(core.dealt)} of 52 cards dealt"
        text = core.setup.layout.describe(core.fg, remember=True, moves=core.moves)
        stock = " ".join(card_str(c) for c in reversed(core.fg.stock))
        text = f"{text}\nstock order (hidden from the player): {stock or '-'}"
        down = core.fg.hidden()
        if down:
            cards = " ".join(f"{p}:{card_str(core.fg.pyr[p])}" for p in down)
            text += f"\nface-down cards (hidden from the player): {cards}"
        return text


class Observer:
    """An OpenSpiel ``PyObserver``: :mod:`pyramid_widget.lab.observation` as ``tensor``,
    ``dict`` and text."""

    def __init__(self, layout: Layout, remember: bool, params: Any = None) -> None:
        if params:
            raise InvalidRulesError(f"the observer takes no parameters, got {params!r}")
        self.layout = layout
        self.remember = remember
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PyramidSolitaireState, player: int) -> None:
        """Write ``state`` as ``player`` sees it into :attr:`tensor`."""
        core = state._core
        if core.fg is not None:
            self.layout.encode(core.fg, remember=self.remember, out=self.tensor)
            return
        self.tensor.fill(0.0)
        for slot in _face_up_slots(self.layout.rules, len(core.dealt)):
            self.tensor[self.layout.feature(core.dealt[slot], f"pyramid {slot}")] = 1.0

    def string_from(self, state: PyramidSolitaireState, player: int) -> str:
        """The same view as text; the information state adds the player's moves so far."""
        core = state._core
        if core.fg is None:
            rules = self.layout.rules
            up = set(_face_up_slots(rules, len(core.dealt)))
            size = min(len(core.dealt), rules.tableau_size)
            shown = " ".join(card_str(core.dealt[i]) if i in up else "##" for i in range(size))
            return f"dealing: {len(core.dealt)} of 52 cards dealt; pyramid {shown or '-'}"
        text = self.layout.describe(core.fg, remember=self.remember, moves=core.moves)
        if not self.remember:
            return text
        moves = [str(action_to_move(a)) for p, a in _player_actions(state)]
        return f"{text}\nmoves: {' '.join(moves) or '-'}"


class RandomPlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """An ``MCTSBot`` evaluator that plays a uniformly random game to the end, as OpenSpiel's
    ``RandomRolloutEvaluator(1)`` does, but on the fast engine without a trip through
    ``pyspiel`` for every move (about four times quicker). Leaf value: 1 won, 0 otherwise.

    >>> import random
    >>> evaluator = RandomPlayoutEvaluator(random.Random(1))
    >>> state = pyspiel.load_game("pyramid_solitaire(rules=medium,deal=7)").new_initial_state()
    >>> [float(v) for v in evaluator.evaluate(state)], len(evaluator.prior(state)) > 1
    ([0.0], True)
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random()

    def evaluate(self, state: PyramidSolitaireState) -> Any:
        """The result of one random playout from ``state``, as ``[value]``."""
        core = state._core
        if core.fg is None:
            raise InvalidDealError("evaluate a dealt state (chance is still dealing)")
        fg, moves, limit, choice = core.fg.copy(), core.moves, core.setup.limit, self.rng.choice
        while fg.status == PLAYING and moves < limit:
            fg.play(choice(fg.legal()))
            moves += 1
        return np.array([1.0 if fg.status == WON else 0.0])

    def prior(self, state: PyramidSolitaireState) -> list[tuple[int, float]]:
        """Equal priors over the legal actions."""
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


class GreedyPlayoutEvaluator(RandomPlayoutEvaluator):
    """An ``MCTSBot`` evaluator that finishes the game with the lab's ``greedy`` strategy
    (heavy playouts: random playouts almost never win a Pyramid game, greedy ones often do).
    Leaf value: 1 won, 0 otherwise.
    """

    def evaluate(self, state: PyramidSolitaireState) -> Any:
        """The result of the greedy playout from ``state``, as ``[value]``."""
        core = state._core
        if core.fg is None:
            raise InvalidDealError("evaluate a dealt state (chance is still dealing)")
        fg = core.fg.copy()
        GREEDY.playout(fg, self.rng, core.setup.limit - core.moves)
        return np.array([1.0 if fg.status == WON else 0.0])


def _slot_name(rules: RuleSet, slot: int) -> str:
    """Where the ``slot``-th card of a deal goes: a tableau position, a reserve pile, the
    stock (``stock 0`` is drawn first)."""
    size, depth = rules.tableau_size, rules.reserve_depth
    reserve = rules.reserve_piles * depth
    if slot < size:
        return f"pyramid {slot}"
    if slot < size + reserve:
        pile, height = divmod(slot - size, depth)
        return f"reserve {pile + 1} card {height + 1}"
    return f"stock {slot - size - reserve}"


def _face_up_slots(rules: RuleSet, dealt: int) -> list[int]:
    """The tableau positions dealt so far whose cards are face up at the deal."""
    face_down = rules.layout.face_down
    return [p for p in range(min(dealt, rules.tableau_size)) if p not in face_down]


def _resample_hidden(fg: FastGame, sampler: Any) -> None:
    """Deal the cards the player has not seen (face-down tableau cards, and on the first
    pass the unseen stock) back to their places in a random order drawn with ``sampler``,
    starting from card order, so the result depends only on which cards are unseen."""
    places = fg.hidden()
    unseen = 0
    if fg.pass_number == 1:
        unseen = len(fg.stock) - (1 if fg.stock and fg.rules.stock_face_up else 0)
    pool = sorted([fg.pyr[p] for p in places] + fg.stock[:unseen])
    for i in range(len(pool) - 1, 0, -1):
        j = min(int(sampler() * (i + 1)), i)
        pool[i], pool[j] = pool[j], pool[i]
    for p in places:
        fg.pos_of[fg.pyr[p]] = -1
        fg.origin &= ~(1 << fg.pyr[p])
    for p, card in zip(places, pool, strict=False):
        fg.pyr[p] = card
        fg.pos_of[card] = p
        fg.origin |= 1 << card
    fg.stock[:unseen] = pool[len(places) :]


def _player_actions(state: PyramidSolitaireState) -> list[tuple[int, int]]:
    return [(int(pa.player), int(pa.action)) for pa in state.full_history() if pa.player == 0]


def register() -> None:
    """Register ``pyramid_solitaire`` with pyspiel (done on import; a second call is a no-op)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(game_type(True), PyramidSolitaireGame)


register()
__all__ = ["SHORT_NAME", "Observer", "PyramidSolitaireGame", "PyramidSolitaireState"]
