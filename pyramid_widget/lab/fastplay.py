"""A compact playout engine for experiments: the engine's rules on ints, lists and bit masks.

:class:`~pyramid_widget.engine.game.Game` checks and explains every move, keeps undo snapshots and a
clock; that is what a player needs and it costs about 100 µs a move. Monte Carlo experiments
play millions of moves, so the built-in strategies run on :class:`FastGame`, which applies the
*same* rules (read from the same :class:`~pyramid_widget.engine.rules.RuleSet` fields) without the
bookkeeping. The test suite plays many deals of every preset both ways and checks that the
games are identical move for move (``tests/lab/test_strategies.py``).

Moves are plain tuples ``(kind, cards)`` with the engine's kind words and the cards of a pair
in increasing order, so they sort exactly like :class:`~pyramid_widget.engine.moves.Move`:

>>> from pyramid_widget.engine.rules import get_rules
>>> fg = FastGame(get_rules("hard"), deal_from_number(7))
>>> sorted(fg.legal())[:2]
[('draw', ()), ('pair', (0, 44))]
>>> fg.play(DRAW)
>>> to_move(("pair", (0, 47)))
Move.parse('AC+QS')

Bit layout: ``mask`` has bit ``p`` set while pyramid position ``p`` holds a card; ``free``
has bit ``p`` set while that card is uncovered (both covering positions empty).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeAlias, TypeVar

from pyramid_widget.engine.deals import deal_from_number
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.layout import COVERED_BY, COVERED_BY_MASK, COVERS
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet

__all__ = [
    "DRAW",
    "LOST",
    "PLAYING",
    "REDEAL",
    "WON",
    "FamilyGame",
    "FastGame",
    "FastMove",
    "classic_shape",
    "deal_from_number",
    "from_move",
    "to_move",
]

FastMove: TypeAlias = tuple[str, tuple[int, ...]]
"""A move as ``(kind, cards)``: ``("pair", (a, b))`` with ``a < b``, ``("king", (k,))``,
``("cell", (c,))``, ``("draw", ())`` or ``("redeal", ())``."""

PLAYING, WON, LOST = 0, 1, 2
DRAW: FastMove = ("draw", ())
REDEAL: FastMove = ("redeal", ())
RANK = tuple(c // 4 + 1 for c in range(52))
FULL = (1 << 28) - 1
BOTTOM_ROW = sum(1 << p for p in range(21, 28))


def to_move(move: FastMove) -> Move:
    """Return the engine :class:`~pyramid_widget.engine.moves.Move` for a fast move."""
    return Move(MoveKind(move[0]), move[1])


def from_move(move: Move) -> FastMove:
    """Return the fast form of an engine move.

    >>> from_move(Move.parse("8C+5H"))
    ('pair', (18, 28))
    """
    return (move.kind.value, move.cards)


def partner_ranks(rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """``partner_ranks(rules)[r]``: the ranks a card of rank ``r`` pairs with.

    >>> from pyramid_widget.engine.rules import get_rules
    >>> partner_ranks(get_rules("medium"))[5], partner_ranks(get_rules("cheops"))[13]
    ((8,), (12, 13))
    """
    table: list[tuple[int, ...]] = [()]
    pairing = getattr(rules, "pairing_table", None)
    for r in range(1, 14):
        if pairing is not None:
            table.append(tuple(pairing.partners(r)))
        elif rules.pairing == "sum13":
            table.append((13 - r,) if r != 13 else ())
        else:
            table.append(tuple(q for q in (r - 1, r, r + 1) if 1 <= q <= 13))
    return tuple(table)


def classic_shape(rules: RuleSet) -> bool:
    """Whether ``rules`` has the shape :class:`FastGame`'s bit tricks were written for: the
    classic 28-card pyramid (face-down flags aside: they change nothing a move can do), one
    deck, no reserve, no overlap discards, no waste pair, first-drawn redeals and the
    ``sum13`` or ``adjacent`` pairing. ``rules.classic_shape`` where the engine has it.

    >>> from pyramid_widget.engine.rules import get_rules
    >>> classic_shape(get_rules("egypt")), classic_shape(get_rules("giza"))
    (True, False)
    """
    known = getattr(rules, "classic_shape", None)
    if isinstance(known, bool):
        return known
    layout = getattr(rules, "layout", None)
    return (
        (layout is None or tuple(layout.covered_by) == COVERED_BY)
        and getattr(rules, "decks", 1) == 1
        and not getattr(rules, "reserve_piles", 0)
        and not getattr(rules, "overlap_discards", False)
        and not getattr(rules, "waste_pair", False)
        and getattr(rules, "redeal_order", "first-drawn") == "first-drawn"
        and rules.pairing in ("sum13", "adjacent")
    )


_Game = TypeVar("_Game", bound="FastGame")


class FastGame:
    """One game under ``rules`` from a 52-card ``deal``, played with :meth:`play`.

    No move is checked: callers play moves from :meth:`legal` (the strategies do).
    """

    _rank_of: ClassVar[tuple[int, ...]] = RANK
    """The rank of each card number (one deck here; two in :class:`FamilyGame`)."""

    __slots__ = (
        "_partners",
        "_zones",
        "cells",
        "discarded",
        "drawn_at",
        "draws",
        "free",
        "history",
        "mask",
        "origin",
        "pass_number",
        "pass_removed",
        "pos_of",
        "prank",
        "pyr",
        "rules",
        "status",
        "stock",
        "wastes",
    )
    #: The cards of the deck(s); :class:`FamilyGame` keeps its own (104 with two decks).
    _deck = 52

    def __new__(cls, rules: RuleSet | None = None, deal: Sequence[int] = ()) -> FastGame:
        """A rule set of the classic shape plays on this class; any other (a new layout,
        two decks, reserves, overlap discards, the waste pair, by-pile redeals, another
        pairing table) on :class:`FamilyGame`, which reads those rules from the rule set.
        (Without arguments, as pickle calls it, an empty instance of ``cls``.)"""
        if cls is FastGame and rules is not None and not classic_shape(rules):
            return object.__new__(FamilyGame)
        return object.__new__(cls)

    def __init__(self, rules: RuleSet, deal: Sequence[int]) -> None:
        self.rules = rules
        self.pyr = list(deal[:28])
        self.origin = sum(1 << c for c in self.pyr)  # pyramid cards: one in a cell is not cleared
        self.mask = FULL
        self.free = BOTTOM_ROW
        self.pos_of = [-1] * 52
        for p, card in enumerate(self.pyr):
            self.pos_of[card] = p
        self.prank = [0] * 14
        for p in range(21, 28):
            self.prank[RANK[self.pyr[p]]] += 1
        self.stock = list(reversed(deal[28:]))
        self.wastes: list[list[int]] = [[] for _ in range(rules.waste_piles)]
        self.cells = [-1] * rules.cells
        self.drawn_at = [0] * 52
        self.draws = 0
        self.pass_number = 1
        self.pass_removed = False
        self.discarded = 0
        self.status = PLAYING
        self.history: list[FastMove] = []
        self._partners = partner_ranks(rules)
        zones: set[tuple[str, str]] = set()
        for pair in rules.pair_zones:
            first, second = pair.split("+")
            zones.update(((first, second), (second, first)))
        self._zones = frozenset(zones)
        self._judge()

    @classmethod
    def from_game(cls, game: Game) -> FastGame:
        """Return the fast twin of an engine game's current position (status included).

        >>> from pyramid_widget.engine.game import Game
        >>> g = Game("medium", deal=3)
        >>> _ = g.play("draw")
        >>> FastGame.from_game(g).wastes == [list(w) for w in g.wastes]
        True
        """
        if not classic_shape(game.rules):
            return FamilyGame.from_game(game)
        pos = game.position
        fg = cls(game.rules, list(range(52)))
        fg.pyr = [-1 if c is None else c for c in pos.pyramid]
        fg.origin = sum(1 << c for c in pos.pyramid_cards)
        fg.pos_of = [-1] * 52
        fg.mask = fg.free = 0
        fg.prank = [0] * 14
        for p, card in enumerate(fg.pyr):
            if card >= 0:
                fg.pos_of[card] = p
                fg.mask |= 1 << p
        for p, card in enumerate(fg.pyr):
            if card >= 0 and not fg.mask & COVERED_BY_MASK[p]:
                fg.free |= 1 << p
                fg.prank[RANK[card]] += 1
        fg.stock = list(pos.stock)
        fg.wastes = [list(pile) for pile in pos.wastes]
        fg.cells = [-1 if c is None else c for c in pos.cells]
        fg.drawn_at = [pos.drawn_at.get(c, 0) for c in range(52)]
        fg.draws, fg.pass_number = pos.draws, pos.pass_number
        fg.pass_removed, fg.discarded = pos.pass_removed, len(pos.discard)
        fg.history = [from_move(m) for m in game.history]
        fg.status = {Status.PLAYING: PLAYING, Status.WON: WON, Status.LOST: LOST}[game.status]
        return fg

    def copy(self: _Game) -> _Game:
        """Return an independent copy (with an empty history)."""
        twin = object.__new__(type(self))
        self._copy_into(twin)
        return twin

    def _copy_into(self, twin: FastGame) -> None:
        """Fill the bare instance ``twin`` with copies of this game's state."""
        twin.rules, twin._partners, twin._zones = self.rules, self._partners, self._zones
        twin.pyr, twin.pos_of, twin.prank = self.pyr.copy(), self.pos_of.copy(), self.prank.copy()
        twin.mask, twin.free, twin.stock = self.mask, self.free, self.stock.copy()
        twin.origin = self.origin
        twin.wastes = [pile.copy() for pile in self.wastes]
        twin.cells, twin.drawn_at = self.cells.copy(), self.drawn_at.copy()
        twin.draws, twin.pass_number, twin.pass_removed = (
            self.draws,
            self.pass_number,
            self.pass_removed,
        )
        twin.discarded, twin.status, twin.history = self.discarded, self.status, []

    # -- what is available --------------------------------------------------------------

    def available(self) -> list[tuple[int, str]]:
        """Available cards with their zones, in the engine's order."""
        out = []
        free, pyr = self.free, self.pyr
        while free:
            low = free & -free
            out.append((pyr[low.bit_length() - 1], "pyramid"))
            free ^= low
        self._reserve_tops(out)
        for pile in self.wastes:
            if pile:
                out.append((pile[-1], "waste"))
        for card in self.cells:
            if card >= 0:
                out.append((card, "cell"))
        if self.rules.stock_top_available and self.stock:
            out.append((self.stock[-1], "stock"))
        return out

    def _reserve_tops(self, out: list[tuple[int, str]]) -> None:
        """Add the reserve piles' tops to ``out`` (the classic shape has no reserve)."""

    def removals(self) -> list[FastMove]:
        """The legal removals (Kings alone and pairs), in no particular order.

        A hot loop (most of a playout's time), so it is written out flat.
        """
        avail = self.available()
        out: list[FastMove] = []
        rank_of = self._rank_of
        ranks = [rank_of[c] for c, _ in avail]
        n = len(avail)
        if self.rules.kings_alone and 13 in ranks:
            out.extend(("king", (avail[i][0],)) for i in range(n) if ranks[i] == 13)
        partners, zones = self._partners, self._zones
        for i in range(n - 1):
            wanted = partners[ranks[i]]
            if not wanted:
                continue
            a, za = avail[i]
            for j in range(i + 1, n):
                if ranks[j] in wanted and (za, avail[j][1]) in zones:
                    b = avail[j][0]
                    out.append(("pair", (a, b) if a < b else (b, a)))
        return out

    def can_redeal(self) -> bool:
        """Whether a redeal is legal now."""
        passes = self.rules.passes
        return not self.stock and (passes is None or self.pass_number < passes) and any(self.wastes)

    def legal(self) -> list[FastMove]:
        """Every legal move (the same set as ``Game.legal_moves``)."""
        if self.status != PLAYING:
            return []
        out = self.removals()
        if -1 in self.cells:
            out.extend(("cell", (c,)) for c, z in self.available() if z in ("pyramid", "waste"))
        if self.stock:
            out.append(DRAW)
        elif self.can_redeal():
            out.append(REDEAL)
        return out

    def cards_left(self) -> int:
        """Cards not yet discarded."""
        return 52 - self.discarded

    def hidden(self) -> list[int]:
        """The tableau positions whose cards are face down now (dealt face down and still
        covered), in order: what a fair strategy or an observation must not read.

        >>> from pyramid_widget.engine.rules import get_rules
        >>> len(FastGame(get_rules("dark_pyramid"), deal_from_number(1)).hidden())
        21
        """
        layout = getattr(self.rules, "layout", None)
        if layout is None or not layout.face_down:
            return []
        masks, mask, pyr = self._cover_masks(), self.mask, self.pyr
        return [p for p in sorted(layout.face_down) if pyr[p] >= 0 and mask & masks[p]]

    def _cover_masks(self) -> Sequence[int]:
        return COVERED_BY_MASK

    # -- playing ------------------------------------------------------------------------

    def play(self, move: FastMove) -> None:
        """Play a legal move and update the status."""
        kind, cards = move
        if kind == "draw":
            self._draw()
        elif kind == "redeal":
            self._redeal()
        elif kind == "cell":
            self._take(cards[0])
            self.cells[self.cells.index(-1)] = cards[0]
        else:
            for card in cards:
                self._take(card)
            self.discarded += len(cards)
            self.pass_removed = True
        self.history.append(move)
        self._judge()

    def _draw(self) -> None:
        stock, wastes, n = self.stock, self.wastes, len(self.wastes)
        for i in range(self.rules.draw_count):
            if not stock:
                break
            card = stock.pop()
            wastes[i % n].append(card)
            self.drawn_at[card] = self.draws
            self.draws += 1

    def _redeal(self) -> None:
        if self.rules.redeal_order == "by-pile":  # waste 1, then 2, ... each turned over
            cards = [c for pile in reversed(self.wastes) for c in pile]
        else:
            cards = sorted((c for pile in self.wastes for c in pile), key=self.drawn_at.__getitem__)
        self.stock = cards[::-1]
        for pile in self.wastes:
            pile.clear()
        self.pass_number += 1
        self.pass_removed = False

    def _take(self, card: int) -> None:
        p = self.pos_of[card]
        if p >= 0:
            self._take_pyramid(p)
            return
        for pile in self.wastes:
            if pile and pile[-1] == card:
                pile.pop()
                return
        if card in self.cells:
            self.cells[self.cells.index(card)] = -1
            return
        self.stock.pop()

    def _take_pyramid(self, p: int) -> None:
        pyr, prank = self.pyr, self.prank
        prank[RANK[pyr[p]]] -= 1
        self.pos_of[pyr[p]] = -1
        pyr[p] = -1
        bit = 1 << p
        self.mask ^= bit
        self.free ^= bit
        mask = self.mask
        for q in COVERS[p]:
            if not mask & COVERED_BY_MASK[q] and not self.free >> q & 1:
                self.free |= 1 << q
                prank[RANK[pyr[q]]] += 1

    def _judge(self) -> None:
        rules = self.rules
        if rules.win == "all":
            if self.discarded == self._deck:
                self.status = WON
                return
        elif not self.mask and not any(c >= 0 and self.origin >> c & 1 for c in self.cells):
            self.status = WON
            return
        if self.stock:
            return
        stalled = rules.stall_rule and not self.pass_removed
        stuck = stalled or not (self.can_redeal() or self._cell_move_exists())
        if stuck and not self.removals():
            self.status = LOST

    def _cell_move_exists(self) -> bool:
        return -1 in self.cells and (bool(self.free) or any(self.wastes))

    def __repr__(self) -> str:
        state = ("playing", "won", "lost")[self.status]
        return f"<FastGame {self.rules.name} moves={len(self.history)} {state}>"


RANK_OF = tuple((c % 52) // 4 + 1 for c in range(104))
"""The rank of every card of two decks (``rank(c)``: a second-deck card is ``c + 52``)."""


class FamilyGame(FastGame):
    """The playout engine for every rule set that is not of the classic shape: the tableau,
    the reserve piles, one or two decks, the pairing table, overlap discards, the waste pair
    and by-pile redeals are all read from the rule set (``rules.layout.covered_by`` and so
    on). ``FastGame(rules, deal)`` makes one when the rules need it:

    >>> from pyramid_widget.engine.rules import get_rules
    >>> fg = FastGame(get_rules("giza"), deal_from_number(7))
    >>> type(fg).__name__, len(fg.reserves), fg.cards_left()
    ('FamilyGame', 8, 52)

    The bits are those of :class:`FastGame`, over the layout's positions: ``mask`` has bit
    ``p`` set while tableau position ``p`` holds a card, ``free`` while that card is
    available. ``pos_of`` has one entry per card of the deck(s).
    """

    _rank_of = RANK_OF

    __slots__ = ("_covered_mask", "_covers", "_deck", "_pair_pp", "reserves")

    def __init__(self, rules: RuleSet, deal: Sequence[int]) -> None:
        layout = rules.layout
        size = layout.size
        reserve = rules.reserve_piles * rules.reserve_depth
        self.rules = rules
        self._deck = 52 * rules.decks
        self._covers = layout.covers
        self._covered_mask = layout.covered_by_mask
        self.pyr = list(deal[:size])
        self.origin = sum(1 << c for c in self.pyr)
        self.mask = (1 << size) - 1
        self.free = sum(1 << p for p in range(size) if not layout.covered_by[p])
        self.pos_of = [-1] * self._deck
        for p, card in enumerate(self.pyr):
            self.pos_of[card] = p
        self.prank = [0] * 14
        free = self.free
        for p in range(size):
            if free >> p & 1:
                self.prank[RANK_OF[self.pyr[p]]] += 1
        depth = rules.reserve_depth
        self.reserves = [
            list(deal[size + i * depth : size + (i + 1) * depth])
            for i in range(rules.reserve_piles)
        ]
        self.stock = list(reversed(deal[size + reserve :]))
        self.wastes = [[] for _ in range(rules.waste_piles)]
        self.cells = [-1] * rules.cells
        self.drawn_at = [0] * self._deck
        self.draws = 0
        self.pass_number = 1
        self.pass_removed = False
        self.discarded = 0
        self.status = PLAYING
        self.history = []
        self._partners = partner_ranks(rules)
        self._pair_pp = ("pyramid", "pyramid")
        zones: set[tuple[str, str]] = set()
        for pair in rules.pair_zones:
            first, second = pair.split("+")
            zones.update(((first, second), (second, first)))
        self._zones = frozenset(zones)
        self._judge()

    @classmethod
    def from_game(cls, game: Game) -> FamilyGame:
        """The fast twin of an engine game's current position (status included)."""
        rules = game.rules
        pos = game.position
        fg = cls(rules, _filler(rules))
        fg.pyr = [-1 if c is None else c for c in pos.pyramid]
        fg.origin = sum(1 << c for c in pos.pyramid if c is not None)
        fg.pos_of = [-1] * fg._deck
        fg.mask = fg.free = 0
        fg.prank = [0] * 14
        for p, card in enumerate(fg.pyr):
            if card >= 0:
                fg.pos_of[card] = p
                fg.mask |= 1 << p
        for p, card in enumerate(fg.pyr):
            if card >= 0 and not fg.mask & fg._covered_mask[p]:
                fg.free |= 1 << p
                fg.prank[RANK_OF[card]] += 1
        fg.reserves = [list(pile) for pile in getattr(pos, "reserves", ())]
        fg.stock = list(pos.stock)
        fg.wastes = [list(pile) for pile in pos.wastes]
        fg.cells = [-1 if c is None else c for c in pos.cells]
        fg.drawn_at = [pos.drawn_at.get(c, 0) for c in range(fg._deck)]
        fg.draws, fg.pass_number = pos.draws, pos.pass_number
        fg.pass_removed, fg.discarded = pos.pass_removed, len(pos.discard)
        fg.history = [from_move(m) for m in game.history]
        fg.status = {Status.PLAYING: PLAYING, Status.WON: WON, Status.LOST: LOST}[game.status]
        return fg

    def _copy_into(self, twin: FastGame) -> None:
        super()._copy_into(twin)
        assert isinstance(twin, FamilyGame)
        twin._deck, twin._covers, twin._covered_mask = self._deck, self._covers, self._covered_mask
        twin._pair_pp = self._pair_pp
        twin.reserves = [pile.copy() for pile in self.reserves]

    def _reserve_tops(self, out: list[tuple[int, str]]) -> None:
        for pile in self.reserves:
            if pile:
                out.append((pile[-1], "reserve"))

    def removals(self) -> list[FastMove]:
        """The legal removals: Kings alone, pairs of available cards in pairing zones, and
        (where the rules allow them) overlap pairs and the waste pair."""
        out = super().removals()
        rules, partners, zones = self.rules, self._partners, self._zones
        if rules.overlap_discards and self._pair_pp in zones:
            out.extend(self._overlaps())
        if rules.waste_pair:
            for pile in self.wastes:
                if len(pile) >= 2:
                    a, b = pile[-1], pile[-2]
                    if RANK_OF[b] in partners[RANK_OF[a]]:
                        out.append(("pair", (a, b) if a < b else (b, a)))
        return out

    def _overlaps(self) -> list[FastMove]:
        """Pairs of an available tableau card and the card it alone still covers."""
        out: list[FastMove] = []
        pyr, mask, free, covered = self.pyr, self.mask, self.free, self._covered_mask
        partners = self._partners
        bits = free
        while bits:
            low = bits & -bits
            q = low.bit_length() - 1
            bits ^= low
            b = pyr[q]
            for p in self._covers[q]:
                if mask >> p & 1 and mask & covered[p] == low:
                    a = pyr[p]
                    if RANK_OF[a] in partners[RANK_OF[b]]:
                        out.append(("pair", (a, b) if a < b else (b, a)))
        return out

    def cards_left(self) -> int:
        """Cards not yet discarded."""
        return self._deck - self.discarded

    def _cover_masks(self) -> Sequence[int]:
        return self._covered_mask

    def _take(self, card: int) -> None:
        p = self.pos_of[card]
        if p >= 0:
            self._take_pyramid(p)
            return
        for pile in self.reserves:
            if pile and pile[-1] == card:
                pile.pop()
                return
        for pile in self.wastes:
            if pile and pile[-1] == card:
                pile.pop()
                return
        for pile in self.wastes:  # the waste pair: the card beneath the top
            if len(pile) >= 2 and pile[-2] == card:
                del pile[-2]
                return
        if card in self.cells:
            self.cells[self.cells.index(card)] = -1
            return
        self.stock.pop()

    def _take_pyramid(self, p: int) -> None:
        pyr, prank = self.pyr, self.prank
        bit = 1 << p
        if self.free & bit:
            prank[RANK_OF[pyr[p]]] -= 1
            self.free ^= bit
        self.pos_of[pyr[p]] = -1
        pyr[p] = -1
        self.mask ^= bit
        mask, covered = self.mask, self._covered_mask
        for q in self._covers[p]:
            if mask >> q & 1 and not mask & covered[q] and not self.free >> q & 1:
                self.free |= 1 << q
                prank[RANK_OF[pyr[q]]] += 1

    def __repr__(self) -> str:
        state = ("playing", "won", "lost")[self.status]
        return f"<FamilyGame {self.rules.name} moves={len(self.history)} {state}>"


def _filler(rules: RuleSet) -> list[int]:
    """Some deal of the right length for ``rules`` (overwritten by ``from_game``)."""
    return list(range(52 * rules.decks))
