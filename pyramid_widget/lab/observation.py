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

Under ``dark_pyramid`` and ``thirteen`` rows 1-6 of the pyramid are dealt face down. A
face-down position then shows as a back (``##`` in the text, its ``face down p`` flag in the
tensor) and never its card: the cards the player has not seen (face down, and on the first
pass the stock) carry the one feature ``unseen``, so which of them is where is not in the
observation. Rule sets without face-down cards have the same tensor as ever.

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
from pyramid_widget.errors import InvalidRulesError
from pyramid_widget.lab.fastplay import FastGame

STOCK_SIZE = 24
PASS_SLOTS = 4
_ALL = frozenset(range(52))
"""Passes left are one-hot over 0, 1, 2 and "3 or more" (plus a flag for unlimited)."""


class Layout:
    """The observation layout of one rule set (the number of waste piles, cells, reserve
    piles and tableau positions vary; face-down positions get a flag each).

    The research faces number their actions over the 52 cards of one deck, so a two-deck
    rule set is refused with :class:`~pyramid_widget.errors.InvalidRulesError`.
    """

    def __init__(self, rules: RuleSet) -> None:
        check_research_rules(rules)
        self.rules = rules
        size = getattr(rules, "tableau_size", 28)
        self._stock_size = max(getattr(rules, "stock_size", STOCK_SIZE), 1)
        self._steps = np.arange(1, 53, dtype=np.float32) / self._stock_size
        reserves = getattr(rules, "reserve_piles", 0)
        self._face_down: tuple[int, ...] = tuple(sorted(getattr(rules, "layout", _NO).face_down))
        names = [f"pyramid {p}" for p in range(size)]
        names += ["available"]
        names += [f"waste {i}" for i in range(rules.waste_piles)]
        names += ["waste draw order"]
        names += [f"cell {i}" for i in range(rules.cells)]
        names += ["discard", "stock", "stock top shown", "stock depth"]
        if reserves:
            names += [f"reserve {i}" for i in range(reserves)] + ["reserve height"]
        if self._face_down:
            names += ["unseen"]
        self.card_features: tuple[str, ...] = tuple(names)
        self.global_features: tuple[str, ...] = (
            f"stock count / {self._stock_size}",
            *(f"passes left {i}" for i in ("0", "1", "2", "3+")),
            "passes unlimited",
            "this pass removed a card",
            "stock order known",
            *(f"face down {p}" for p in self._face_down),
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
        hidden = fg.hidden() if self._face_down else []
        face_down = set(hidden)
        places = [p for p, card in enumerate(fg.pyr) if card >= 0 and p not in face_down]
        grid[[fg.pyr[p] for p in places], places] = 1.0
        grid[[card for card, _ in fg.available()], idx["available"]] = 1.0
        for i, pile in enumerate(fg.wastes):
            grid[pile, idx[f"waste {i}"]] = 1.0
        for i, card in enumerate(fg.cells):
            if card >= 0:
                grid[card, idx[f"cell {i}"]] = 1.0
        reserves: list[list[int]] = getattr(fg, "reserves", [])
        if reserves:
            depth = self.rules.reserve_depth
            for i, pile in enumerate(reserves):
                grid[pile, idx[f"reserve {i}"]] = 1.0
                grid[pile, idx["reserve height"]] = np.arange(1, len(pile) + 1) / depth
        stock_seen = not self._face_down or fg.pass_number > 1
        if stock_seen:  # the cards in the stock follow from the cards in sight
            grid[fg.stock, idx["stock"]] = 1.0
        if fg.stock and self.rules.stock_face_up:
            grid[fg.stock[-1], idx["stock"]] = 1.0
            grid[fg.stock[-1], idx["stock top shown"]] = 1.0
        if self._face_down:  # face-down pyramid cards, and the unseen stock: which is where?
            unseen = [fg.pyr[p] for p in hidden]
            if not stock_seen:
                shown = 1 if fg.stock and self.rules.stock_face_up else 0
                unseen += fg.stock[: len(fg.stock) - shown]
            grid[unseen, idx["unseen"]] = 1.0
        order = sorted((c for pile in fg.wastes for c in pile), key=fg.drawn_at.__getitem__)
        grid[order, idx["waste draw order"]] = self._steps[: len(order)]
        gone = _ALL.difference(fg.pyr, fg.stock, order, fg.cells, *reserves)
        grid[list(gone), idx["discard"]] = 1.0
        known = remember and fg.pass_number > 1
        if known:
            grid[fg.stock[::-1], idx["stock depth"]] = self._steps[: len(fg.stock)]
        self._encode_globals(fg, out, known, face_down)
        return out

    def _encode_globals(self, fg: FastGame, out: Any, known: bool, face_down: set[int]) -> None:
        base = 52 * self.per_card
        out[base] = len(fg.stock) / self._stock_size
        passes = self.rules.passes
        if passes is None:
            out[base + 1 + PASS_SLOTS] = 1.0
        else:
            left = min(max(passes - fg.pass_number, 0), PASS_SLOTS - 1)
            out[base + 1 + left] = 1.0
        out[base + 2 + PASS_SLOTS] = float(fg.pass_removed)
        out[base + 3 + PASS_SLOTS] = float(known)
        for i, p in enumerate(self._face_down):
            out[base + 4 + PASS_SLOTS + i] = float(p in face_down)

    def describe(self, fg: FastGame, *, remember: bool, moves: int) -> str:
        """The same view as text: a header (rules, pass, ``moves`` played), the pyramid
        (available cards in brackets, ``..`` for gone, ``##`` for a face-down card), then
        the reserve piles, the stock, the waste piles, the cells and the discard count."""
        rules = self.rules
        passes = "unlimited passes" if rules.passes is None else f"of {rules.passes}"
        lines = [f"{rules.name} | pass {fg.pass_number} {passes} | moves {moves}"]
        available = {card for card, _ in fg.available()}
        face_down = set(fg.hidden()) if self._face_down else set()
        for row in _rows(rules):
            line = ""
            for x, p in row:
                text = " ## " if p in face_down else _cell(fg.pyr[p], available)
                line = line.ljust(round(2 * x)) + text
            lines.append(line.rstrip())
        lines.append(" | ".join(self._piles(fg, remember)))
        return "\n".join(lines)

    def _piles(self, fg: FastGame, remember: bool) -> list[str]:
        stock = f"stock {len(fg.stock)}"
        if remember and fg.pass_number > 1 and fg.stock:
            stock += " (next first: " + _cards(reversed(fg.stock)) + ")"
        elif fg.stock and self.rules.stock_face_up:
            stock += f" (top {card_str(fg.stock[-1])})"
        parts = [
            f"reserve {i + 1} {_cards(pile) if pile else '-'}"
            for i, pile in enumerate(getattr(fg, "reserves", []))
        ]
        parts.append(stock)
        for i, pile in enumerate(fg.wastes):
            label = "waste" if len(fg.wastes) == 1 else f"waste {i + 1}"
            parts.append(f"{label} {_cards(pile) if pile else '-'}")
        if fg.cells:
            parts.append("cell " + " ".join("-" if c < 0 else card_str(c) for c in fg.cells))
        parts.append(f"discard {fg.discarded}")
        return parts


def check_research_rules(rules: RuleSet) -> None:
    """Refuse a rule set the research faces cannot take: their actions and observations
    name the 52 cards of one deck, so two-deck games are refused with one sentence.

    >>> from pyramid_widget.engine.rules import get_rules
    >>> check_research_rules(get_rules("giza"))
    >>> check_research_rules(get_rules("anubis"))
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidRulesError: the research faces (OpenSpiel, Gymnasium, spiel) number actions and observe cards over the 52 cards of one deck, and 'anubis' is played with two decks; play it through Game or run_experiment instead
    """
    if getattr(rules, "decks", 1) != 1:
        raise InvalidRulesError(
            "the research faces (OpenSpiel, Gymnasium, spiel) number actions and observe "
            f"cards over the 52 cards of one deck, and {rules.name!r} is played with two "
            "decks; play it through Game or run_experiment instead"
        )


def _rows(rules: RuleSet) -> list[list[tuple[float, int]]]:
    """The tableau's positions row by row (top row first), each as ``(x, position)`` from
    left to right, ``x`` in half card widths (the layout's places)."""
    layout = getattr(rules, "layout", None)
    if layout is None:
        return [[(ROWS - 1 - r + 2 * c, position(r, c)) for c in range(r + 1)] for r in range(ROWS)]
    by_row: dict[float, list[tuple[float, int]]] = {}
    for p, (x, y) in enumerate(layout.places):
        by_row.setdefault(y, []).append((x, p))
    return [sorted(by_row[y]) for y in sorted(by_row)]


class _NoLayout:
    face_down: frozenset[int] = frozenset()


_NO = _NoLayout()


def _cell(card: int, available: set[int]) -> str:
    if card < 0:
        return " .. "
    return f"[{card_str(card)}]" if card in available else f" {card_str(card)} "


def _cards(cards: Sequence[int] | Any) -> str:
    return " ".join(card_str(c) for c in cards)
