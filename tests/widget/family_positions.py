"""Small hand-made positions of the family's shapes (issue 19), each won in a few moves, for
the browser tests that play them by clicks and keys: the shape is the rule set's own layout,
only most of its cards are gone. :func:`position` builds one; the winning line is the
solver's (:func:`winning_line`), never written by hand.

>>> game = position("pharaohs")
>>> game.rules.layout.size, sum(c is not None for c in game.pyramid), game.status.value
(52, 5, 'playing')
>>> [str(m) for m in winning_line(game)]
['5H+8C', 'KS', '6D+7C']
"""

from __future__ import annotations

from typing import Any

from pyramid_widget import Game
from pyramid_widget.engine.moves import Move
from pyramid_widget.solver import solve

#: Per preset: the cards by tableau position, and the other piles (stock, wastes, reserves).
POSITIONS: dict[str, tuple[dict[int, str], dict[str, Any]]] = {
    # the inverted triangle: the bottom card goes first, then the two it covers
    "triangle": ({25: "5H", 26: "8C", 27: "KS"}, {"stock": ["6D", "7C"]}),
    # three pyramids (2, 7 and 6 rows): a pair across the small one, a King, a pair across two
    "pharaohs": ({0: "KS", 1: "5H", 2: "8C", 24: "6D", 46: "7C"}, {}),
    # the 5H at position 15 is face down until the KS and the 8C covering it are gone
    "dark_pyramid": ({15: "5H", 21: "KS", 22: "8C"}, {"stock": ["5D", "8D"]}),
    # two decks on the 9-row pyramid: each 5H pairs with an 8C of the other deck
    "double_pyramid": ({28: "KS'", 36: "5H", 37: "8C'", 38: "8C", 39: "5H'"}, {}),
    # the waste pair: the top waste card (8C) goes with the card beneath it (5H)
    "thirteen": ({27: "KS"}, {"wastes": [["5H", "8C"]]}),
    # an overlap discard: 5H is covered only by 8C, and the two go together
    "tuts_tomb": ({15: "5H", 21: "8C", 27: "KH"}, {"stock": ["AS", "QD"]}),
    # one upright and one inverted pyramid, two decks: a pair across them
    "up_and_down": ({27: "5H", 28: "8C'", 55: "KD'"}, {}),
    # a reserve pile's top pairs with the pyramid
    "giza": ({27: "5H"}, {"reserves": [["KS", "8C"]] + [[] for _ in range(7)]}),
}


def position(preset: str) -> Game:
    """The small position of ``preset`` as a game."""
    cells, piles = POSITIONS[preset]
    game = Game(preset, deal=1)
    pyramid: list[str | None] = [None] * game.rules.layout.size
    for pos, card in cells.items():
        pyramid[pos] = card
    return Game.from_position(preset, pyramid=pyramid, **piles)


def python_text(preset: str) -> str:
    """Python that builds the same position (for a notebook kernel): ``Game.from_position``."""
    cells, piles = POSITIONS[preset]
    size = Game(preset, deal=1).rules.layout.size
    pyramid = [cells.get(p) for p in range(size)]
    args = ", ".join(f"{k}={v!r}" for k, v in piles.items())
    return f"Game.from_position({preset!r}, pyramid={pyramid!r}{', ' if args else ''}{args})"


def winning_line(game: Game) -> list[Move]:
    """The solver's winning line from ``game`` (it must have one)."""
    answer = solve(game)
    assert answer.moves, f"{game.rules.name}: the small position is not winnable"
    return list(answer.moves)
