"""Pyramid Solitaire as a Gymnasium environment (``pip install pyramid-widget[research]``).

Importing this module registers ``PyramidSolitaire-v0`` (keyword ``rules``, a preset name):

>>> import gymnasium as gym
>>> import pyramid_widget.lab.gym_env
>>> env = gym.make("PyramidSolitaire-v0", rules="hard")
>>> obs, info = env.reset(seed=1)
>>> obs.shape, int(info["action_mask"].sum()) == len(info["legal_actions"])
((1828,), True)
>>> action = int(env.action_space.sample(mask=info["action_mask"]))
>>> obs, reward, terminated, truncated, info = env.step(action)

- **Actions**: ``Discrete(2811)``, the numbering of :mod:`pyramid_widget.lab.spiel` (the
  OpenSpiel face uses the same). ``info["action_mask"]`` (``int8``, 1 = legal) and
  ``info["legal_actions"]`` say which are legal; sample with
  ``env.action_space.sample(mask=info["action_mask"])``. An illegal action changes nothing,
  earns :attr:`PyramidSolitaireEnv.illegal_reward` (-1) and counts as a move, and
  ``info["illegal"]`` is ``True``.
- **Observations**: a ``Box(0, 1, (n,), float32)`` of what the player may see and remember,
  :mod:`pyramid_widget.lab.observation` with ``remember=True``: every card's place (pyramid
  position, waste pile and draw order, cell, discard, or "in the stock"), the stock count, the
  passes left. The order of a face-down stock is never in it during the first pass; from the
  second pass on the player has seen every stock card in the order the redeal returns them,
  and the observation gives it.
- **Rewards**: +1 for each card discarded (a King alone 1, a pair 2), plus
  :attr:`~PyramidSolitaireEnv.win_reward` (+10) on the winning move; 0 for draws, redeals and
  cell moves; nothing is taken away on a loss.
- **Episodes**: ``terminated`` when won or lost (under ``egypt`` one round is one episode),
  ``truncated`` when ``max_moves`` moves have been played (default: the rules' own bound from
  :func:`~pyramid_widget.lab.openspiel.move_limit`, which a game can never reach except under
  ``easy``, whose unlimited passes get the experiments' 5,000-move limit).
- **Deals**: ``reset(seed=s)`` seeds the environment's generator (``self.np_random``);
  every reset then plays deal number ``int(self.np_random.integers(2**63))``, so the same
  seed gives the same sequence of deals. ``reset(options={"deal": n})`` plays deal ``n``
  (any deal number of :func:`~pyramid_widget.engine.deals.deal_from_number`);
  ``info["deal"]`` names the deal either way.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from pyramid_widget.engine.deals import MAX_DEAL_NUMBER, deal_from_number
from pyramid_widget.engine.rules import RuleSet, get_rules
from pyramid_widget.errors import ArgumentError, InvalidDealError, InvalidMoveError
from pyramid_widget.lab.fastplay import LOST, PLAYING, WON, FastGame
from pyramid_widget.lab.observation import Layout
from pyramid_widget.lab.spiel import NUM_ACTIONS, action_to_fast_move, fast_move_to_action
from pyramid_widget.lab.strategies import DEFAULT_MAX_MOVES

ENV_ID = "PyramidSolitaire-v0"
DEAL_SPACE = 2**63
"""Seeded resets draw deal numbers from ``0 .. 2**63 - 1``."""


class PyramidSolitaireEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One game (one ``egypt`` round) of Pyramid Solitaire an episode; see the module text.

    ``rules`` is a preset name or a :class:`~pyramid_widget.engine.rules.RuleSet`;
    ``max_moves`` the truncation limit (``None``: the rules' bound); ``render_mode`` ``"ansi"``
    or ``None``. Raises :class:`~pyramid_widget.errors.InvalidRulesError` for unknown rules.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's API)
    win_reward = 10.0
    card_reward = 1.0
    illegal_reward = -1.0

    def __init__(
        self,
        rules: str | RuleSet = "medium",
        max_moves: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        from pyramid_widget.lab.spiel import max_game_length

        self.rules = get_rules(rules)
        if render_mode not in (None, "ansi"):
            raise ArgumentError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.render_mode = render_mode
        bound = max_game_length(self.rules)
        default = DEFAULT_MAX_MOVES if bound is None else bound
        if max_moves is not None and (
            isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1
        ):
            raise ArgumentError(f"max_moves must be a positive integer or None, got {max_moves!r}")
        self.max_moves = default if max_moves is None else max_moves
        self.layout = Layout(self.rules)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, (self.layout.size,), np.float32)
        self._fg: FastGame | None = None
        self._deal = 0
        self._moves = 0
        self._legal: list[int] = []

    @property
    def fast_game(self) -> FastGame | None:
        """The position being played (``None`` before the first reset). Read-only."""
        return self._fg

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game: ``options={"deal": n}`` or the next deal of the seeded generator."""
        super().reset(seed=seed)
        deal = (options or {}).get("deal")
        if deal is None:
            deal = int(self.np_random.integers(DEAL_SPACE))
        elif isinstance(deal, bool) or not isinstance(deal, (int, np.integer)):
            raise InvalidDealError(f"options['deal'] must be a deal number, got {deal!r}")
        elif not 0 <= int(deal) <= MAX_DEAL_NUMBER:
            raise InvalidDealError(f"deal number must be from 0 to {MAX_DEAL_NUMBER}, got {deal}")
        self._deal = int(deal)
        self._fg = FastGame(self.rules, deal_from_number(self._deal))
        self._moves = 0
        self._legal = self._legal_now()
        return self._observe(), self._info(illegal=False)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action``; see the module text for rewards and episode ends.

        Raises :class:`~pyramid_widget.errors.InvalidMoveError` for a number outside the
        action space and ``RuntimeError`` when called before ``reset`` or after the end.
        """
        fg = self._fg
        if fg is None:
            raise RuntimeError("call reset() before step()")
        if fg.status != PLAYING or self._moves >= self.max_moves:
            raise RuntimeError("the episode is over: call reset()")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise InvalidMoveError(
                f"an action is an integer in 0..{NUM_ACTIONS - 1}, got {action!r}"
            )
        action = int(action)
        if not 0 <= action < NUM_ACTIONS:
            raise InvalidMoveError(f"an action is an integer in 0..{NUM_ACTIONS - 1}, got {action}")
        self._moves += 1
        illegal = action not in self._legal
        reward = self.illegal_reward
        if not illegal:
            before = fg.discarded
            fg.play(action_to_fast_move(action))
            reward = self.card_reward * (fg.discarded - before)
            if fg.status == WON:
                reward += self.win_reward
            self._legal = self._legal_now()
        terminated = fg.status != PLAYING
        truncated = not terminated and self._moves >= self.max_moves
        return self._observe(), float(reward), terminated, truncated, self._info(illegal)

    def render(self) -> str | None:
        """The player's view as text (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi" or self._fg is None:
            return None
        return self.layout.describe(self._fg, remember=True, moves=self._moves)

    def _legal_now(self) -> list[int]:
        assert self._fg is not None
        return sorted(fast_move_to_action(m) for m in self._fg.legal())

    def _observe(self) -> np.ndarray:
        assert self._fg is not None
        out: np.ndarray = self.layout.encode(self._fg, remember=True)
        return out

    def _info(self, illegal: bool) -> dict[str, Any]:
        assert self._fg is not None
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[self._legal] = 1
        status = self._fg.status
        return {
            "action_mask": mask,
            "legal_actions": list(self._legal),
            "deal": self._deal,
            "moves": self._moves,
            "cards_left": self._fg.cards_left(),
            "result": "won" if status == WON else "lost" if status == LOST else "playing",
            "illegal": illegal,
        }


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (done on import; a second call is a no-op)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point=f"{__name__}:PyramidSolitaireEnv")


register()
