"""Pyramid Solitaire inside Jupyter: a faithful engine, an exact solver, lessons and labs.

>>> from pyramid_widget import Game
>>> game = Game("medium", deal=7)
>>> game.play("draw")
Move.parse('draw')
>>> [str(m) for m in game.legal_moves][:3]
['AH+QS', 'AC+QS', 'AH+QC']
"""

from __future__ import annotations

from pyramid_widget.cards import (
    RANKS,
    SUITS,
    Card,
    card_long_name,
    card_str,
    parse_card,
    rank,
    suit,
)
from pyramid_widget.deals import deal_from_number, format_deal, parse_deal
from pyramid_widget.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidDealError,
    InvalidMoveError,
    InvalidRulesError,
    PyramidError,
)
from pyramid_widget.game import Game, LegalMoves
from pyramid_widget.moves import Move, MoveKind
from pyramid_widget.position import Location, Status, Zone
from pyramid_widget.rules import PRESETS, RuleSet, Scoring, get_rules

__version__ = "0.1.0"

_LAZY = {
    "PyramidWidget": "pyramid_widget.widget",
    "LessonWidget": "pyramid_widget.lesson_widget",
    "solve": "pyramid_widget.solver",
    "Records": "pyramid_widget.records",
    "run_experiment": "pyramid_widget.experiments",
}


def __getattr__(name: str) -> object:
    """Import the widget, solver, records and experiments only when first asked for, so the
    engine stays free of widget (and other heavy) imports."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'pyramid_widget' has no attribute {name!r}")


__all__ = [
    "PRESETS",
    "RANKS",
    "SUITS",
    "Card",
    "Game",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidRulesError",
    "LegalMoves",
    "LessonWidget",
    "Location",
    "Move",
    "MoveKind",
    "PyramidError",
    "PyramidWidget",
    "Records",
    "RuleSet",
    "Scoring",
    "Status",
    "Zone",
    "__version__",
    "card_long_name",
    "card_str",
    "deal_from_number",
    "format_deal",
    "get_rules",
    "parse_card",
    "parse_deal",
    "rank",
    "run_experiment",
    "solve",
    "suit",
]
