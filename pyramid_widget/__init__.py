"""Pyramid Solitaire inside Jupyter: a faithful engine, an exact solver, lessons and labs.

>>> from pyramid_widget import Game
>>> game = Game("medium", deal=7)
>>> game.play("draw")
Move.parse('draw')
>>> [str(m) for m in game.legal_moves][:3]
['AH+QS', 'AC+QS', 'AH+QC']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import (
    RANKS,
    SUITS,
    Card,
    card_long_name,
    card_str,
    parse_card,
    rank,
    suit,
)
from pyramid_widget.engine.deals import deal_from_number, format_deal, parse_deal
from pyramid_widget.engine.game import Game, LegalMoves
from pyramid_widget.engine.layout import Layout
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Location, Status, Zone
from pyramid_widget.engine.record import GameRecord, StartPosition
from pyramid_widget.engine.rules import (
    CLASSIC_PRESETS,
    FAMILY_PRESETS,
    PAIRINGS,
    PRESETS,
    Pairing,
    RuleSet,
    Scoring,
    get_rules,
)
from pyramid_widget.errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidDealError,
    InvalidMoveError,
    InvalidRulesError,
    PyramidError,
    Refusal,
)

__version__ = "0.1.0"

if TYPE_CHECKING:  # the real types for type checkers; at run time they load on first use
    from pyramid_widget.lab.experiments import run_experiment
    from pyramid_widget.lessons.widget import LessonWidget
    from pyramid_widget.records.store import Records
    from pyramid_widget.solver import solve
    from pyramid_widget.widget import PyramidWidget

#: Names that pull in a heavier room (ipywidgets, the solver, SQLite, the lab) on first use,
#: so ``from pyramid_widget import Game`` needs only the standard library.
_LAZY = {
    "PyramidWidget": "pyramid_widget.widget",
    "LessonWidget": "pyramid_widget.lessons.widget",
    "solve": "pyramid_widget.solver",
    "Records": "pyramid_widget.records.store",
    "run_experiment": "pyramid_widget.lab.experiments",
}


def __getattr__(name: str) -> Any:
    """Import the widget, lessons, solver, records and lab only when first asked for."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'pyramid_widget' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names, the lazy ones included (for tab completion)."""
    return sorted(__all__)


__all__ = [
    "CLASSIC_PRESETS",
    "FAMILY_PRESETS",
    "PAIRINGS",
    "PRESETS",
    "RANKS",
    "SUITS",
    "Card",
    "Game",
    "GameRecord",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidRulesError",
    "Layout",
    "LegalMoves",
    "LessonWidget",
    "Location",
    "Move",
    "MoveKind",
    "Pairing",
    "PyramidError",
    "PyramidWidget",
    "Records",
    "Refusal",
    "RuleSet",
    "Scoring",
    "StartPosition",
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
