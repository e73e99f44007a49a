"""A text picture of a game, for ``print(game)``.

Available cards are in brackets, covered cards plain, removed cards ``..``, face-down cards
``##`` (their faces never appear: this is what a player sees). Rows follow the rule set's
layout (``places``), so inverted triangles and pyramids side by side print as they lie.

>>> from pyramid_widget.engine.game import Game
>>> print(Game("medium", deal=7))  # doctest: +NORMALIZE_WHITESPACE
medium, deal 7 | pass 1 of 3 | moves 0 | score 0 | playing
                         5C
                       2C  TC
                     JD  8D  9S
                   KS  5H  JH  9C
                 6D  AD  7D  KD  3D
               7S  2H  AS  QD  JC  KC
            [QS][AH][TD][4H][6C][QC][AC]
stock 24 | waste -
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyramid_widget.engine.cards import card_str

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game

INDENT = 12


def _header(game: Game) -> str:
    where = f"deal {game.deal_number}" if game.deal_number is not None else "custom position"
    passes = "unlimited passes" if game.rules.passes is None else f"of {game.rules.passes}"
    parts = [
        f"{game.rules.name}, {where}",
        f"pass {game.pass_number} {passes}",
        f"moves {game.moves}",
        f"score {game.score}",
        game.status.value if not game.is_over else f"{game.status.value}: {game.status_reason}",
    ]
    if game.rules.rounds:
        parts.insert(1, f"round {game.round}")
    return " | ".join(parts)


def _pyramid_rows(game: Game) -> list[str]:
    available = set(game.available())
    hidden = game.hidden
    layout = game.rules.layout
    two_decks = game.rules.decks > 1
    rows: dict[float, list[tuple[float, str]]] = {}
    for pos, card in enumerate(game.pyramid):
        x, y = layout.places[pos]
        name = "" if card is None else card_str(card).ljust(3 if two_decks else 2)
        if card is None:
            cell = " .. " + " " * two_decks
        elif pos in hidden:
            cell = " ## " + " " * two_decks
        elif card in available:
            cell = f"[{name}]"
        else:
            cell = f" {name} "
        rows.setdefault(y, []).append((x, cell))
    width = 6 if two_decks else 4  # characters a card takes (a half width is half that)
    lines = []
    for y in sorted(rows):
        line = ""
        for x, cell in sorted(rows[y]):
            column = INDENT + int(x * width / 2)
            line = line.ljust(column) + cell
        lines.append(line.rstrip())
    return lines


def _piles(game: Game) -> str:
    stock = f"stock {len(game.stock)}"
    if game.stock and game.rules.stock_face_up:
        stock += f" (top {card_str(game.stock[0])})"
    wastes = []
    for index, pile in enumerate(game.wastes):
        shown = "-"
        if pile:
            shown = " ".join([*(card_str(c) for c in pile[-4:-1]), f"[{card_str(pile[-1])}]"])
        if len(pile) > 4:
            shown = "... " + shown
        label = "waste" if len(game.wastes) == 1 else f"waste {index + 1}"
        wastes.append(f"{label} {shown}")
    parts = [stock, *wastes]
    for index, pile in enumerate(game.reserves):
        shown = (
            " ".join([*(card_str(c) for c in pile[:-1]), f"[{card_str(pile[-1])}]"])
            if pile
            else "-"
        )
        parts.append(f"reserve {index + 1} {shown}")
    if game.cells:
        parts.append("cell " + " ".join("-" if c is None else card_str(c) for c in game.cells))
    if game.discard:
        parts.append(f"discard {len(game.discard)}")
    return " | ".join(parts)


def render(game: Game) -> str:
    """Return the text picture of ``game``."""
    return "\n".join([_header(game), *_pyramid_rows(game), _piles(game)])
