"""What a player may see of a game, as a tensor and as text: the observations of the research
faces (:mod:`pyramid_widget.lab.openspiel`, :mod:`pyramid_widget.lab.gym_env`).

Face-down cards never reach an observation. Under every preset the stock lies face down
(``apophis``, ``relaxed`` and ``cheops`` show its top card only), so while the first pass is
on, the order of the stock is unknown: an observation says *which* cards are in the stock
(that follows from the cards in sight) and *how many*, never their order. From the second
pass on the player has seen every stock card, in the order the redeal brings them back
(first drawn, first again), so the *knowledge* view (``remember=True``: OpenSpiel's
information state, the Gymnasium observation) also gives each stock card's depth; the plain
view (``remember=False``: OpenSpiel's observation) never does.

The tensor holds, for each card 0..51 (``card = (rank - 1) * 4 + suit``), the features
:attr:`Layout.card_features` names, then the :attr:`Layout.global_features`:

>>> from pyramid_widget.engine.deals import deal_from_number
>>> from pyramid_widget.engine.rules import get_rules
>>> from pyramid_widget.lab.fastplay import FastGame
>>> layout = Layout(get_rules("medium"))
>>> layout.size, layout.card_features[:2], layout.global_features[0]
(1828, ('pyramid 0', 'pyramid 1'), 'stock count / 24')
>>> tensor = layout.encode(FastGame(get_rules("medium"), deal_from_number(7)), remember=True)
>>> int(sum(tensor[layout.feature(c, "stock")] for c in range(52)))
24
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from pyramid_widget.engine.cards import card_str
from pyramid_widget.engine.layout import ROWS, position
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.lab.fastplay import FastGame

STOCK_SIZE = 24
PASS_SLOTS = 4
_STEPS = np.arange(1, 53, dtype=np.float32) / STOCK_SIZE
_ALL = frozenset(range(52))
"""Passes left are one-hot over 0, 1, 2 and "3 or more" (plus a flag for unlimited)."""


class Layout:
    """The observation layout of one rule set (the number of waste piles and cells vary)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        names = [f"pyramid {p}" for p in range(28)]
        names += ["available"]
        names += [f"waste {i}" for i in range(rules.waste_piles)]
        names += ["waste draw order"]
        names += [f"cell {i}" for i in range(rules.cells)]
        names += ["discard", "stock", "stock top shown", "stock depth"]
        self.card_features: tuple[str, ...] = tuple(names)
        self.global_features: tuple[str, ...] = (
            "stock count / 24",
            *(f"passes left {i}" for i in ("0", "1", "2", "3+")),
            "passes unlimited",
            "this pass removed a card",
            "stock order known",
        )
        self._index = {name: i for i, name in enumerate(self.card_features)}
        self.per_card = len(self.card_features)
        self.size = 52 * self.per_card + len(self.global_features)

    def feature(self, card: int, name: str) -> int:
        """The tensor index of feature ``name`` of ``card``."""
        return card * self.per_card + self._index[name]

    def encode(self, fg: FastGame, *, remember: bool, out: Any = None) -> Any:
        """Write what the player sees of ``fg`` into ``out`` (a float32 array of
        :attr:`size`, made when not given) and return it. ``remember`` adds the stock order
        once it has been seen (from the second pass on)."""
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        idx, grid = self._index, out[: 52 * self.per_card].reshape(52, self.per_card)
        places = [p for p, card in enumerate(fg.pyr) if card >= 0]
        grid[[fg.pyr[p] for p in places], places] = 1.0
        grid[[card for card, _ in fg.available()], idx["available"]] = 1.0
        for i, pile in enumerate(fg.wastes):
            grid[pile, idx[f"waste {i}"]] = 1.0
        for i, card in enumerate(fg.cells):
            if card >= 0:
                grid[card, idx[f"cell {i}"]] = 1.0
        grid[fg.stock, idx["stock"]] = 1.0
        if fg.stock and self.rules.stock_face_up:
            grid[fg.stock[-1], idx["stock top shown"]] = 1.0
        order = sorted((c for pile in fg.wastes for c in pile), key=fg.drawn_at.__getitem__)
        grid[order, idx["waste draw order"]] = _STEPS[: len(order)]
        grid[list(_ALL.difference(fg.pyr, fg.stock, order, fg.cells)), idx["discard"]] = 1.0
        known = remember and fg.pass_number > 1
        if known:
            grid[fg.stock[::-1], idx["stock depth"]] = _STEPS[: len(fg.stock)]
        self._encode_globals(fg, out, known)
        return out

    def _encode_globals(self, fg: FastGame, out: Any, known: bool) -> None:
        base = 52 * self.per_card
        out[base] = len(fg.stock) / STOCK_SIZE
        passes = self.rules.passes
        if passes is None:
            out[base + 1 + PASS_SLOTS] = 1.0
        else:
            left = min(max(passes - fg.pass_number, 0), PASS_SLOTS - 1)
            out[base + 1 + left] = 1.0
        out[base + 2 + PASS_SLOTS] = float(fg.pass_removed)
        out[base + 3 + PASS_SLOTS] = float(known)

    def describe(self, fg: FastGame, *, remember: bool, moves: int) -> str:
        """The same view as text: a header (rules, pass, ``moves`` played), the pyramid
        (available cards in brackets, ``..`` for gone), then the stock, the waste piles, the
        cells and the discard count."""
        rules = self.rules
        passes = "unlimited passes" if rules.passes is None else f"of {rules.passes}"
        lines = [f"{rules.name} | pass {fg.pass_number} {passes} | moves {moves}"]
        available = {card for card, _ in fg.available()}
        for row in range(ROWS):
            cells = [_cell(fg.pyr[position(row, col)], available) for col in range(row + 1)]
            lines.append(" " * (2 * (ROWS - 1 - row)) + "".join(cells).rstrip())
        lines.append(" | ".join(self._piles(fg, remember)))
        return "\n".join(lines)

    def _piles(self, fg: FastGame, remember: bool) -> list[str]:
        stock = f"stock {len(fg.stock)}"
        if remember and fg.pass_number > 1 and fg.stock:
            stock += " (next first: " + _cards(reversed(fg.stock)) + ")"
        elif fg.stock and self.rules.stock_face_up:
            stock += f" (top {card_str(fg.stock[-1])})"
        parts = [stock]
        for i, pile in enumerate(fg.wastes):
            label = "waste" if len(fg.wastes) == 1 else f"waste {i + 1}"
            parts.append(f"{label} {_cards(pile) if pile else '-'}")
        if fg.cells:
            parts.append("cell " + " ".join("-" if c < 0 else card_str(c) for c in fg.cells))
        parts.append(f"discard {fg.discarded}")
        return parts


def _cell(card: int, available: set[int]) -> str:
    if card < 0:
        return " .. "
    return f"[{card_str(card)}]" if card in available else f" {card_str(card)} "


def _cards(cards: Sequence[int] | Any) -> str:
    return " ".join(card_str(c) for c in cards)
