"""Where every card is: the :class:`Position` of a game, without history or clock.

A position holds the pyramid (28 slots, ``None`` once a card is gone), the stock (the card
drawn next is *last* in the list, so a draw is ``list.pop()``), the waste piles (bottom to
top), the free cells and the discard pile, plus what the rules need to remember: when each
waste card was drawn (a redeal gives the cards back in the order they were first drawn),
the pass number and whether this pass removed anything (the ``easy`` stall rule).
Every one of the 52 cards is in exactly one of these places.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from pyramid_widget.engine.cards import Card, card_str
from pyramid_widget.engine.layout import COVERED_BY, SIZE


class Zone(str, enum.Enum):
    """The places a card can be."""

    PYRAMID = "pyramid"
    STOCK = "stock"
    WASTE = "waste"
    CELL = "cell"
    DISCARD = "discard"


class Status(str, enum.Enum):
    """Whether a game goes on, is won or is lost."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True)
class Location:
    """A card's place: a zone and an index in it (pyramid position, waste pile number, cell
    number, depth in the stock with 0 the next card to draw, or order in the discard)."""

    zone: Zone
    index: int


@dataclass
class Position:
    """The cards of a game in their places (mutable; the game copies it for undo)."""

    pyramid: list[Card | None]
    stock: list[Card]
    wastes: list[list[Card]]
    cells: list[Card | None]
    discard: list[Card] = field(default_factory=list)
    drawn_at: dict[Card, int] = field(default_factory=dict)
    draws: int = 0
    pass_number: int = 1
    pass_removed: bool = False
    pyramid_cards: frozenset[Card] = frozenset()
    """The cards dealt to the pyramid: one of them parked in a free cell is not cleared yet."""

    def __post_init__(self) -> None:
        if not self.pyramid_cards:
            self.pyramid_cards = frozenset(c for c in self.pyramid if c is not None)

    @classmethod
    def from_deal(cls, deal: Sequence[Card], waste_piles: int, cells: int) -> Position:
        """Lay out a 52-card deal: 28 pyramid cards, then the stock (first drawn first)."""
        return cls(
            pyramid=list(deal[:SIZE]),
            stock=list(reversed(deal[SIZE:])),
            wastes=[[] for _ in range(waste_piles)],
            cells=[None] * cells,
        )

    def copy(self) -> Position:
        """Return an independent copy."""
        return Position(
            pyramid=self.pyramid.copy(),
            stock=self.stock.copy(),
            wastes=[w.copy() for w in self.wastes],
            cells=self.cells.copy(),
            discard=self.discard.copy(),
            drawn_at=self.drawn_at.copy(),
            draws=self.draws,
            pass_number=self.pass_number,
            pass_removed=self.pass_removed,
            pyramid_cards=self.pyramid_cards,
        )

    def uncovered(self, pos: int) -> bool:
        """Whether pyramid position ``pos`` holds a card with both covering cards gone."""
        return self.pyramid[pos] is not None and all(
            self.pyramid[q] is None for q in COVERED_BY[pos]
        )

    def available(self, stock_top: bool) -> Iterator[tuple[Card, Zone]]:
        """Yield each available card with its zone: uncovered pyramid cards, waste tops,
        cell cards and (when ``stock_top``) the top stock card."""
        for pos, card in enumerate(self.pyramid):
            if card is not None and self.uncovered(pos):
                yield card, Zone.PYRAMID
        for pile in self.wastes:
            if pile:
                yield pile[-1], Zone.WASTE
        for card in self.cells:
            if card is not None:
                yield card, Zone.CELL
        if stock_top and self.stock:
            yield self.stock[-1], Zone.STOCK

    def locate(self, card: Card) -> Location:
        """Return where ``card`` is (every card is somewhere)."""
        if card in self.pyramid:
            return Location(Zone.PYRAMID, self.pyramid.index(card))
        for index, pile in enumerate(self.wastes):
            if card in pile:
                return Location(Zone.WASTE, index)
        if card in self.cells:
            return Location(Zone.CELL, self.cells.index(card))
        if card in self.stock:
            return Location(Zone.STOCK, len(self.stock) - 1 - self.stock.index(card))
        return Location(Zone.DISCARD, self.discard.index(card))

    def take(self, card: Card) -> None:
        """Lift an available ``card`` out of its place (the caller puts it somewhere)."""
        where = self.locate(card)
        if where.zone is Zone.PYRAMID:
            self.pyramid[where.index] = None
        elif where.zone is Zone.WASTE:
            self.wastes[where.index].pop()
        elif where.zone is Zone.CELL:
            self.cells[where.index] = None
        elif where.zone is Zone.STOCK:
            self.stock.pop()
        else:  # pragma: no cover - the game never takes a discarded card
            raise AssertionError(f"{card_str(card)} is already discarded")
        self.drawn_at.pop(card, None)

    def draw(self, count: int) -> None:
        """Deal up to ``count`` stock cards, one waste pile after another."""
        for i in range(count):
            if not self.stock:
                break
            card = self.stock.pop()
            self.wastes[i % len(self.wastes)].append(card)
            self.drawn_at[card] = self.draws
            self.draws += 1

    def redeal(self) -> None:
        """Turn the waste into the stock so cards come out in the order first drawn."""
        cards = sorted((c for pile in self.wastes for c in pile), key=self.drawn_at.__getitem__)
        self.stock = list(reversed(cards))
        for pile in self.wastes:
            pile.clear()
        self.drawn_at.clear()
        self.pass_number += 1
        self.pass_removed = False

    def pyramid_empty(self) -> bool:
        """Whether every pyramid card is discarded. A pyramid card parked in a free cell still
        has to be removed: moving the last one into the cell does not clear the pyramid."""
        return all(c is None for c in self.pyramid) and not any(
            c in self.pyramid_cards for c in self.cells if c is not None
        )

    def all_gone(self) -> bool:
        """Whether all 52 cards are discarded."""
        return len(self.discard) == 52

    def cards_in_play(self) -> int:
        """How many cards are not yet discarded."""
        return 52 - len(self.discard)
