"""Where every card is: the :class:`Position` of a game, without history or clock.

A position holds the pyramid (the tableau: one slot per position of the rule set's layout,
28 for the classic pyramid, ``None`` once a card is gone), the reserve piles (bottom to top;
only their tops play), the stock (the card drawn next is *last* in the list, so a draw is
``list.pop()``), the waste piles (bottom to top), the free cells and the discard pile, plus
what the rules need to remember: when each waste card was drawn (a redeal gives the cards
back in the order they were first drawn), the pass number and whether this pass removed
anything (the ``easy`` stall rule). Every card of the deck(s) is in exactly one of these
places.

A face-down tableau card (a position in ``layout.face_down``) turns face up once nothing
covers it and stays up, so what is hidden needs no state of its own: :meth:`Position.hidden`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pyramid_widget.engine.cards import Card, card_problem, card_str
from pyramid_widget.engine.layout import CLASSIC, Layout
from pyramid_widget.errors import InvalidCardError

if TYPE_CHECKING:
    from pyramid_widget.engine.rules import RuleSet


class Zone(str, enum.Enum):
    """The places a card can be."""

    PYRAMID = "pyramid"
    STOCK = "stock"
    WASTE = "waste"
    CELL = "cell"
    DISCARD = "discard"
    RESERVE = "reserve"


class Status(str, enum.Enum):
    """Whether a game goes on, is won or is lost."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


@dataclass(frozen=True)
class Location:
    """A card's place: a zone and an index in it (pyramid position, waste or reserve pile
    number, cell number, depth in the stock with 0 the next card to draw, or order in the
    discard)."""

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
    # Not in the repr: an egypt round's next deal is seeded from the repr of a hand-made
    # start position, which must read as it always has.
    reserves: list[list[Card]] = field(default_factory=list, repr=False)
    layout: Layout = field(default=CLASSIC, repr=False)
    deck_size: int = field(default=52, repr=False)

    def __post_init__(self) -> None:
        if not self.pyramid_cards:
            self.pyramid_cards = frozenset(c for c in self.pyramid if c is not None)

    @classmethod
    def from_deal(cls, deal: Sequence[Card], rules: RuleSet) -> Position:
        """Lay out a deal under ``rules``: the tableau (one card a layout position), the
        reserve piles (pile after pile, bottom card first), then the stock (first drawn first).
        """
        size, depth = rules.tableau_size, rules.reserve_depth
        reserve = deal[size : size + rules.reserve_size]
        return cls(
            pyramid=list(deal[:size]),
            stock=list(reversed(deal[size + rules.reserve_size :])),
            wastes=[[] for _ in range(rules.waste_piles)],
            cells=[None] * rules.cells,
            reserves=[
                list(reserve[i * depth : (i + 1) * depth]) for i in range(rules.reserve_piles)
            ],
            layout=rules.layout,
            deck_size=rules.deck_size,
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
            reserves=[r.copy() for r in self.reserves],
            layout=self.layout,
            deck_size=self.deck_size,
        )

    def uncovered(self, pos: int) -> bool:
        """Whether pyramid position ``pos`` holds a card with every covering card gone."""
        return self.pyramid[pos] is not None and all(
            self.pyramid[q] is None for q in self.layout.covered_by[pos]
        )

    def hidden(self) -> frozenset[int]:
        """The tableau positions whose cards are face down now: dealt face down and still
        covered (a card turns up once nothing covers it)."""
        return frozenset(
            p
            for p in self.layout.face_down
            if self.pyramid[p] is not None and not self.uncovered(p)
        )

    def available(self, stock_top: bool) -> Iterator[tuple[Card, Zone]]:
        """Yield each available card with its zone: uncovered pyramid cards, reserve tops,
        waste tops, cell cards and (when ``stock_top``) the top stock card."""
        pyramid, covered_by = self.pyramid, self.layout.covered_by
        for pos, card in enumerate(pyramid):  # uncovered(), inline: the engine's hot spot
            if card is not None and all(pyramid[q] is None for q in covered_by[pos]):
                yield card, Zone.PYRAMID
        for pile in self.reserves:
            if pile:
                yield pile[-1], Zone.RESERVE
        for pile in self.wastes:
            if pile:
                yield pile[-1], Zone.WASTE
        for card in self.cells:
            if card is not None:
                yield card, Zone.CELL
        if stock_top and self.stock:
            yield self.stock[-1], Zone.STOCK

    def locate(self, card: Card) -> Location:
        """Return where ``card`` is (every card of the game is somewhere).

        Raises :class:`~pyramid_widget.errors.InvalidCardError` for a card the game does not
        hold (a second-deck card in a one-deck game)."""
        if card in self.pyramid:
            return Location(Zone.PYRAMID, self.pyramid.index(card))
        for index, pile in enumerate(self.wastes):
            if card in pile:
                return Location(Zone.WASTE, index)
        if card in self.cells:
            return Location(Zone.CELL, self.cells.index(card))
        for index, pile in enumerate(self.reserves):
            if card in pile:
                return Location(Zone.RESERVE, index)
        if card in self.stock:
            return Location(Zone.STOCK, len(self.stock) - 1 - self.stock.index(card))
        try:
            return Location(Zone.DISCARD, self.discard.index(card))
        except ValueError:  # checked last, so the common cases pay nothing
            problem = card_problem(card, self.deck_size // 52)
            raise InvalidCardError(problem or f"{card_str(card)} is not in the game") from None

    def take(self, card: Card) -> None:
        """Lift an available ``card`` out of its place (the caller puts it somewhere); a waste
        card may also be the one just beneath the top (the ``waste_pair`` rule)."""
        where = self.locate(card)
        if where.zone is Zone.PYRAMID:
            self.pyramid[where.index] = None
        elif where.zone is Zone.WASTE:
            self.wastes[where.index].remove(card)
        elif where.zone is Zone.CELL:
            self.cells[where.index] = None
        elif where.zone is Zone.RESERVE:
            self.reserves[where.index].pop()
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

    def redeal(self, order: str = "first-drawn") -> None:
        """Turn the waste into the stock so cards come out in the order first drawn; with
        ``order="by-pile"`` (PySolFC's multi-waste redeal) the piles are gathered waste 1,
        then 2, then 3 onto the stock, each turned over, so the next pass deals the last pile
        first, each pile's bottom card first."""
        if order == "by-pile":
            cards = [c for pile in reversed(self.wastes) for c in pile]
        else:
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
        """Whether every card (52 a deck) is discarded."""
        return len(self.discard) == self.deck_size

    def cards_in_play(self) -> int:
        """How many cards are not yet discarded."""
        return self.deck_size - len(self.discard)
