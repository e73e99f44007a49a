"""The exact solver inside the game, under one name (kept for the README and old notebooks).

Each job lives in its own module; this one only re-exports them:
:mod:`pyramid_widget.solver.lines` (winning lines checked by replay),
:mod:`pyramid_widget.solver.winnable` (deals proved winnable),
:mod:`pyramid_widget.solver.truth` (the "can this still be won?" watcher) and
:mod:`pyramid_widget.solver.post_mortem` (which move lost the game).

>>> from pyramid_widget import Game
>>> game = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "8S"], stock=["KD"])
>>> [str(move) for move in winning_line(game)]
['5H+8S']
"""

from __future__ import annotations

from pyramid_widget.errors import NoWinnableDealError, UndecidedError
from pyramid_widget.solver.lines import (
    INTERACTIVE_SECONDS,
    SolverDisagreementError,
    next_winning_move,
    replay_wins,
    winning_line,
)
from pyramid_widget.solver.post_mortem import PostMortem, post_mortem
from pyramid_widget.solver.truth import TruthReport, TruthWatcher, position_key
from pyramid_widget.solver.winnable import DEAL_SECONDS, winnable_deal

__all__ = [
    "DEAL_SECONDS",
    "INTERACTIVE_SECONDS",
    "NoWinnableDealError",
    "PostMortem",
    "SolverDisagreementError",
    "TruthReport",
    "TruthWatcher",
    "UndecidedError",
    "next_winning_move",
    "position_key",
    "post_mortem",
    "replay_wins",
    "winnable_deal",
    "winning_line",
]
