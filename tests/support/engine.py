"""Small builders for hand-made positions used by the engine tests."""

from __future__ import annotations

import random
from typing import Any

from pyramid_widget import Game
from pyramid_widget.engine.layout import position

BOTTOM = [position(6, c) for c in range(7)]


def pyramid(**cards_at: str) -> list[str | None]:
    """28 slots with cards placed by name: ``pyramid(p27="5H")`` puts 5H at position 27."""
    slots: list[str | None] = [None] * 28
    for key, card in cards_at.items():
        slots[int(key[1:])] = card
    return slots


def bottom(*cards: str) -> list[str | None]:
    """28 slots with ``cards`` on the bottom row from the left."""
    slots: list[str | None] = [None] * 28
    for pos, card in zip(BOTTOM, cards, strict=False):
        slots[pos] = card
    return slots


def slots(size: int, **cards_at: str) -> list[str | None]:
    """``size`` tableau slots with cards placed by name: ``slots(45, p44="5H")``."""
    tableau: list[str | None] = [None] * size
    for key, card in cards_at.items():
        tableau[int(key[1:])] = card
    return tableau


def game(rules: str, pyr: list[str | None], **kwargs: object) -> Game:
    """A hand-made position under ``rules`` with a frozen clock."""
    return Game.from_position(rules, pyramid=pyr, clock=lambda: 0.0, **kwargs)  # type: ignore[arg-type]


def names(moves: object) -> set[str]:
    """The text forms of some moves."""
    return {str(m) for m in moves}  # type: ignore[attr-defined]


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a player can observe about a position (the clock aside; the score too
    where undo keeps it, since undo then does not restore it)."""
    return (
        game.pyramid,
        game.stock,
        game.wastes,
        game.cells,
        game.discard,
        game.pass_number,
        game.status,
        game.round,
        game.moves,
        game.score if not game.rules.scoring.undo_keeps_score else None,
        getattr(game, "reserves", ()),
        getattr(game, "hidden", ()),
    )


def shuffled_corner(rng: random.Random) -> tuple[list[int], list[int | None]]:
    """A shuffled deck, and 28 slots holding its last two to four cards in the bottom row's
    right-hand corner (the rest of the deck is what is left).

    >>> deck, slots = shuffled_corner(random.Random(1))
    >>> len(deck) + sum(card is not None for card in slots)
    52
    """
    deck = list(range(52))
    rng.shuffle(deck)
    slots: list[int | None] = [None] * 28
    for pos in range(rng.choice([24, 25, 26]), 28):
        slots[pos] = deck.pop()
    return deck, slots
