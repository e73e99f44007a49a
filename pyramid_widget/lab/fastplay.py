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
from typing import TypeAlias

from pyramid_widget.engine.deals import deal_from_number
from pyramid_widget.engine.game import Game
from pyramid_widget.engine.layout import COVERED_BY_MASK, COVERS
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import RuleSet

__all__ = [
    "DRAW",
    "LOST",
    "PLAYING",
    "REDEAL",
    "WON",
    "FastGame",
    "FastMove",
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
    """``partner_ranks(rules)[r]``: the ranks a card of rank ``r`` pairs with."""
    table: list[tuple[int, ...]] = [()]
    for r in range(1, 14):
        if rules.pairing == "sum13":
            table.append((13 - r,) if r != 13 else ())
        else:
            table.append(tuple(q for q in (r - 1, r, r + 1) if 1 <= q <= 13))
    return tuple(table)


class FastGame:
    """One game under ``rules`` from a 52-card ``deal``, played with :meth:`play`.

    No move is checked: callers play moves from :meth:`legal` (the strategies do).
    """

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

    def copy(self) -> FastGame:
        """Return an independent copy (with an empty history)."""
        twin = FastGame.__new__(FastGame)
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
        return twin

    # -- what is available --------------------------------------------------------------

    def available(self) -> list[tuple[int, str]]:
        """Available cards with their zones, in the engine's order."""
        out = []
        free, pyr = self.free, self.pyr
        while free:
            low = free & -free
            out.append((pyr[low.bit_length() - 1], "pyramid"))
            free ^= low
        for pile in self.wastes:
            if pile:
                out.append((pile[-1], "waste"))
        for card in self.cells:
            if card >= 0:
                out.append((card, "cell"))
        if self.rules.stock_top_available and self.stock:
            out.append((self.stock[-1], "stock"))
        return out

    def removals(self) -> list[FastMove]:
        """The legal removals (Kings alone and pairs), in no particular order.

        A hot loop (most of a playout's time), so it is written out flat.
        """
        avail = self.available()
        out: list[FastMove] = []
        if self.rules.kings_alone:
            out.extend(("king", (c,)) for c, _ in avail if c >= 48)
        partners, zones = self._partners, self._zones
        ranks = [RANK[c] for c, _ in avail]
        n = len(avail)
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
            if self.discarded == 52:
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
