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

import functools
from typing import Any

from pyramid_widget import Game
from pyramid_widget.engine.cards import Card, card_str
from pyramid_widget.engine.cards import rank as rank_of
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Zone
from pyramid_widget.solver import solve, solve_deal

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


#: Per family preset, a numbered deal the solver wins with a short line, for the games played
#: whole on the page (``tests/widget/test_play_family_lab.py``). Found once with
#: ``solve_deal(preset, n, max_seconds=8)`` for n = 0, 1, 2, ... until four winnable deals (or
#: 90 s of search): the one with the fewest moves among them (draws count: each is a click).
#: Thirteen and Pharaohs win rarely: their first winnable deals found, by a longer search
#: (``max_seconds=4``; none of deals 0-49 and 0-536 found, some unknown at that cap). Each
#: comment: the line's moves (the draws and redeals among them), for the time budget. The
#: two-deck deals take the solver under a second (Luby's restarts; 2-8 s under load before
#: them), and their lines are the ones those restarts find; :func:`deal_line` gives it 120 s.
FAMILY_DEALS: dict[str, int] = {
    "king_tut": 3,  # 72 (43 draws, 6 redeals)
    "tuts_tomb": 3,  # 79 (48 draws, 7 redeals)
    "traditional": 50,  # 37 (9 draws)
    "dark_pyramid": 4,  # 57 (33 draws, 1 redeal)
    "thirteen": 50,  # 52 (24 draws)
    "giza": 3,  # 28 (no stock)
    "pyramid_dozen": 11,  # 26 (no stock)
    "triangle": 1,  # 59 (29 draws, 2 redeals)
    "eleven_triangle": 2,  # 34 (8 draws)
    "pharaohs": 537,  # 28 (no stock)
    "anubis": 8,  # 87 (30 draws, 1 redeal)
    "double_pyramid": 4,  # 128 (70 draws, 2 redeals)
    "two_pyramids": 0,  # 95 (37 draws, 2 redeals)
    "up_and_down": 4,  # 123 (65 draws, 2 redeals)
}


@functools.cache
def deal_line(preset: str) -> tuple[Move, ...]:
    """The solver's winning line for the preset's deal of :data:`FAMILY_DEALS` (it must win).

    >>> len(deal_line("king_tut")) > 0
    True
    """
    number = FAMILY_DEALS[preset]
    answer = solve_deal(preset, number, max_seconds=120)
    assert answer.moves, f"{preset} deal {number} is not winnable (or the solver ran out of time)"
    return tuple(answer.moves)


def _tops(game: Game) -> list[Card]:
    """The available cards a hand touches directly: the pyramid's, and the tops of the waste
    and reserve piles (not the stock: its top is drawn)."""
    tops = [pile[-1] for pile in (*game.wastes, *game.reserves) if pile]
    return [c for c in game.available() if c in tops or game.where(c).zone is Zone.PYRAMID]


def wrong_pair(preset: str) -> tuple[int, Move]:
    """Where to try a refused pair in the deal's winning line, and the pair: at the first step
    (before move ``step`` of :func:`deal_line`) with two touchable cards that do not pair,
    neither a King that goes alone (a touch would remove it).

    >>> wrong_pair("king_tut")
    (0, Move.parse('AS+9D'))
    >>> wrong_pair("triangle")[0] > 0  # one bottom card only: a draw first
    True
    """
    game = Game(preset, deal=FAMILY_DEALS[preset])
    alone = game.rules.kings_alone
    for step, move in enumerate(deal_line(preset)):
        cards = [c for c in _tops(game) if not (alone and rank_of(c) == 13)]
        for i, first in enumerate(cards):
            for second in cards[i + 1 :]:
                pair = Move.pair(first, second)
                if game.refusal(pair) is not None:
                    return step, pair
        game.play(move)
    raise AssertionError(f"{preset}: no refused pair on the way to the win")


def refusal_text(preset: str, step: int, pair: Move) -> str:
    """The words the board shows when ``pair`` is tried before move ``step`` of the deal's
    line: a board off the page (the same widget code) is asked the same thing.

    >>> refusal_text("king_tut", 0, Move.parse("AS+9D"))
    'Ace (1) + 9 = 10, not 13.'
    """
    from pyramid_widget.widget import PyramidWidget

    w = PyramidWidget(preset, deal=FAMILY_DEALS[preset], records=False)
    for move in deal_line(preset)[:step]:
        w.play(str(move))
    content = {"kind": "pair", "cards": [card_str(c) for c in pair.cards]}
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    assert w.message_kind == "error" and w.moves == step, (preset, pair, w.message)
    return str(w.message)
