"""The solver's own compact encoding of a Pyramid position (the move generators are
:mod:`pyramid_widget.solver.moves` and :mod:`pyramid_widget.solver.macro`).

Every card in play gets a *slot*, a bit number: pyramid position ``p`` is slot ``p``
(0..27) and the ``i``-th card of the *deck order* is slot ``28 + i``. The deck order is the
order in which the stock and waste cards come out of the stock: the waste cards in the order
they were drawn, then the stock, next card first. That order never changes during a game
(a redeal hands the waste back in the order it was first drawn, and removals only delete
cards from it), so a whole position is a handful of integers:

======== ==================================================================================
field    meaning
======== ==================================================================================
board    bit mask of the slots still on the board (pyramid cards and stock/waste cards)
lo       the first stock slot: deck slots ``>= lo`` on the board are the stock, deck slots
         ``< lo`` on the board are in the waste; normalised so that slot ``lo`` is on the
         board (or ``lo`` is one past the deck), so equal positions have equal keys
piles    for several waste piles, a tuple of one slot mask per pile (bottom to top is low
         bit to high bit, the top card is the highest bit); ``0`` for one pile (the waste is
         simply every deck slot below ``lo``)
cells    bit mask of the slots whose cards sit in a free cell
pno      pass number (``0`` when passes are unlimited: the number then changes nothing)
flag     1 when this pass removed something (kept only under the stall rule, else ``0``)
======== ==================================================================================

The tuple ``(board, lo, piles, cells, pno, flag)`` is the canonical key of a position:
two positions with the same key have the same future. Uncovered pyramid cards come from
precomputed covering masks (cached per pyramid mask; only 1430 pyramid masks are reachable).

>>> from pyramid_widget.engine.game import Game
>>> model = Model.from_game(Game("medium", deal=7))
>>> board, lo, piles, cells, pno, flag = model.root
>>> bin(board).count("1"), lo, pno
(52, 28, 1)
>>> model.macro, model.flags.pyramid_waste, model.flags.stock_waste
(True, True, False)
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import KING, Card, make_card, rank
from pyramid_widget.engine.layout import COVERED_BY, SIZE
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Position
from pyramid_widget.engine.rules import RuleSet

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game

State = tuple[int, int, Any, int, int, int]
"""``(board, lo, piles, cells, pno, flag)``; ``piles`` is a tuple of masks typed as int for
one pile (see the module docstring)."""

PAIR, KING_ALONE, DRAW, REDEAL, CELL = range(5)
"""Move kinds of the compact moves ``(kind, slot_a, slot_b)``."""

CompactMove = tuple[int, int, int]
StepMove = tuple[int, ...]
"""One or more compact moves flattened into one tuple, three numbers a move (a move and the
follow-ups fused with it)."""
Successors = list[tuple[StepMove, State]]
"""``(move, next position)`` pairs from a move generator."""

PYRAMID_ALL = (1 << SIZE) - 1


def covering_chains(pyramid: int) -> list[int]:
    """Per pyramid slot ``p`` of the mask ``pyramid``, the slots of ``pyramid`` that cover
    ``p`` through a chain of cards all in ``pyramid``: ``q`` covers ``p`` directly, or
    covers a card of ``pyramid`` that does, and so on (``0`` for a slot not in ``pyramid``).

    This, not the full geometry (:data:`~pyramid_widget.engine.layout.BLOCKERS_MASK`), is
    what keeps two cards apart: while the lowest card of such a chain is on the board, the
    card it covers directly cannot be removed or moved, and so on up, so ``p`` stays covered.
    With an empty slot on every line between them, a card and one below it may both be
    available (issue 14). For a deal, and any position reached from one without a free
    cell, the pyramid has no such gaps and this is ``BLOCKERS_MASK[p]`` among the cards left.

    >>> chains = covering_chains(1 << 0 | 1 << 27)  # the apex and the bottom right corner
    >>> chains[0], chains[27]
    (0, 0)
    >>> chains = covering_chains(1 << 0 | 1 << 2 | 1 << 5)  # apex, 2 below it, 5 below 2
    >>> bin(chains[0]), bin(chains[2])
    ('0b100100', '0b100000')
    """
    out = [0] * SIZE
    for p in range(SIZE - 1, -1, -1):
        if pyramid >> p & 1:
            mask = 0
            for q in COVERED_BY[p]:
                if pyramid >> q & 1:
                    mask |= 1 << q | out[q]
            out[p] = mask
    return out


def related_slots(chains: Sequence[int]) -> list[int]:
    """Per slot, the slots that cover it or that it covers in :func:`covering_chains`."""
    out = list(chains)
    for q, mask in enumerate(chains):
        for p in slots_of(mask):
            out[p] |= 1 << q
    return out


@dataclass
class Model:
    """A position compiled for search: slot tables, masks and the rule set's switches.

    Build it with :meth:`from_game` or :meth:`from_position`; :attr:`root` is the start.
    The model only encodes: the searches pick their own move generators
    (:mod:`pyramid_widget.solver.moves` move by move, :mod:`pyramid_widget.solver.macro`
    removal to removal).
    """

    rules: RuleSet
    cards: list[Card]
    """``cards[slot]``: the card in each slot (``-1`` for an empty pyramid position)."""
    deck_lo: int
    """The first deck slot (28)."""
    deck_hi: int
    """One past the last deck slot."""
    root: State
    """The position compiled."""
    flags: Switches = field(init=False)
    """The rule set's switches, as plain attributes for the hot loops."""
    macro: bool = field(init=False)
    """Whether removal-to-removal macro moves apply: one waste pile, one card a draw, no
    cell, a pyramid-only win (:mod:`pyramid_widget.solver.macro`)."""
    rank_masks: list[int] = field(init=False)
    """``rank_masks[r]``: the slots of the cards of rank ``r``."""
    ranks: list[int] = field(init=False)
    """``ranks[slot]``: the rank of the slot's card (0 for an empty slot)."""
    partners: list[int] = field(init=False)
    """``partners[slot]``: slots whose cards pair with this slot's card."""
    chains: list[int] = field(init=False)
    """``chains[slot]``: the pyramid cards of the root that cover the slot's card through
    cards of the root (:func:`covering_chains`): while one of them is in the pyramid, the
    slot's card is not available. Empty slots and cards in a cell cover nothing."""
    related: list[int] = field(init=False)
    """``related[slot]``: the pyramid cards of the root that cover the slot's card or that it
    covers, in the sense of :attr:`chains` (:func:`related_slots`)."""
    kings: int = field(init=False)
    """The slots of the Kings."""
    required: int = field(init=False)
    """The slots of the cards that must still go (rule ``reach``; nothing with a cell)."""
    needs: list[int] = field(init=False)
    """``needs[slot]``: the partner slots that could ever meet this card (rule ``reach``)."""
    affects: list[int] = field(init=False)
    """``affects[slot]``: required slots whose ``needs`` contain ``slot``."""
    class_masks: list[int] = field(init=False)
    """``class_masks[slot]``: every slot of the rank class {r, 13 - r} of the slot's card."""
    class_list: list[int] = field(init=False)
    """The slot masks of the rank classes {r, 13 - r} (sum-13 pairing) with cards in play."""
    dig_cache: dict[int, int] = field(init=False, default_factory=dict)
    """Answers of :func:`pyramid_widget.solver.prune.dig.dig_dead` per rank class."""
    inert_cache: dict[int, int] = field(init=False, default_factory=dict)
    """Deck cards with no partner left, per rank class (:mod:`pyramid_widget.solver.prune.dig`)."""
    deck_walks: dict[int, list[tuple[int, int]]] = field(init=False, default_factory=dict)
    """The removals of deck cards alone per deck where the stock top pairs with the waste
    top (:func:`pyramid_widget.solver.macro._deck_walk`)."""
    dead_cache: dict[int, bool] = field(init=False, default_factory=dict)
    """Answers of :func:`pyramid_widget.solver.moves.dead_after` under sum-13 pairing, per
    rank class remainder (the cards left of one class {r, 13 - r})."""

    def __post_init__(self) -> None:
        self._tables()
        rules = self.rules
        self.flags = Switches(rules, self.kings)
        self.macro = (
            rules.waste_piles == 1 and rules.draw_count == 1 and not rules.cells
        ) and rules.win == "pyramid"

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_game(cls, game: Game) -> Model:
        """Compile the current position of an engine ``Game``."""
        return cls.from_position(game.rules, game.position)

    @classmethod
    def from_position(cls, rules: RuleSet, pos: Position) -> Model:
        """Compile an engine :class:`~pyramid_widget.engine.position.Position` under ``rules``."""
        waste = sorted((c for pile in pos.wastes for c in pile), key=pos.drawn_at.__getitem__)
        deck = waste + list(reversed(pos.stock))
        cards = [-1 if c is None else c for c in pos.pyramid] + deck
        slot_of = {c: s for s, c in enumerate(cards) if c >= 0}
        deck_lo, deck_hi = SIZE, SIZE + len(deck)
        board = sum(1 << s for s, c in enumerate(cards) if c >= 0)
        cells = 0
        empty = [p for p in range(SIZE) if cards[p] < 0]
        for c in (c for c in pos.cells if c is not None):
            if c in pos.pyramid_cards:  # still a pyramid card: it keeps a pyramid slot
                slot = empty.pop(0)
                cards[slot] = c
            else:
                slot = len(cards)
                cards.append(c)
            cells |= 1 << slot
        piles: Any = 0
        if rules.waste_piles > 1:
            piles = tuple(sum(1 << slot_of[c] for c in pile) for pile in pos.wastes)
        lo = normalise(board, deck_lo + len(waste), deck_hi)
        pno = pos.pass_number if rules.passes is not None else 0
        flag = int(pos.pass_removed) if rules.stall_rule else 0
        return cls(rules, cards, deck_lo, deck_hi, (board, lo, piles, cells, pno, flag))

    def _tables(self) -> None:
        """Precompute partner, requirement and rank masks (see :func:`needs_mask`)."""
        rules, cards = self.rules, self.cards
        n = len(cards)
        self.ranks = [rank(c) if c >= 0 else 0 for c in cards]
        self.rank_masks = [0] * 14
        for s, r in enumerate(self.ranks):
            if r:
                self.rank_masks[r] |= 1 << s
        # pairing depends on ranks only: two cards of ranks r and r2 (not the same card)
        pair_ranks = [0] + [
            sum(
                m
                for r2, m in enumerate(self.rank_masks)
                if r2 and rules.pairs(make_card(r, 0), make_card(r2, 1))
            )
            for r in range(1, 14)
        ]
        self.partners = [
            pair_ranks[rank(c)] & ~(1 << s) if c >= 0 else 0 for s, c in enumerate(cards)
        ]
        self.chains = covering_chains(self.root[0] & PYRAMID_ALL)
        self.related = related_slots(self.chains)
        self.kings = self.rank_masks[KING]
        lone = self.kings if rules.kings_alone else 0
        must = PYRAMID_ALL if rules.win == "pyramid" else (1 << n) - 1
        if rules.cells and rules.win == "pyramid":
            must = 0  # prunings below assume no cell; with one, requiring nothing stays sound
        self.required = must & ~lone & sum(1 << s for s in range(n) if cards[s] >= 0)
        self.needs = [needs_mask(self, s) for s in range(n)]
        self.affects = [0] * n
        for q in slots_of(self.required):
            for s in slots_of(self.needs[q]):
                self.affects[s] |= 1 << q
        self.class_masks = [
            self.rank_masks[rank(c)] | self.rank_masks[13 - rank(c)] if c >= 0 else 0 for c in cards
        ]
        masks = (self.rank_masks[r] | self.rank_masks[13 - r] for r in range(1, 7))
        self.class_list = [m for m in masks if m]

    # -- queries ------------------------------------------------------------------------

    def is_win(self, state: State) -> bool:
        """Whether the engine would call this position won."""
        if self.rules.win == "pyramid":  # a pyramid card parked in a cell is not cleared
            return not (state[0] | state[3]) & PYRAMID_ALL
        return not state[0] and not state[3]

    def is_dead(self, state: State) -> bool:
        """Whether a required card can no longer meet a partner (full check, for the root)."""
        alive = state[0] | state[3]
        return starved_in(alive & self.required, self.needs, alive) or not self.counts_ok(alive, -1)

    def pyramid_left(self, state: State) -> int:
        """How many pyramid cards are left (in the pyramid or parked in a cell)."""
        return ((state[0] | state[3]) & PYRAMID_ALL).bit_count()

    def to_move(self, move: tuple[int, ...]) -> Move:
        """Turn a compact move into an engine :class:`~pyramid_widget.engine.moves.Move`."""
        kind, a, b = move[:3]
        if kind == PAIR:
            return Move.pair(self.cards[a], self.cards[b])
        if kind == KING_ALONE:
            return Move.king(self.cards[a])
        if kind == CELL:
            return Move.to_cell(self.cards[a])
        return Move.draw() if kind == DRAW else Move.redeal()

    def describe(self, move: tuple[int, ...]) -> str:
        """The engine text of a compact move (``"5H+8C"``, ``"draw"``...)."""
        return str(self.to_move(move))

    def counts_ok(self, alive: int, r: int) -> bool:
        """Hall's condition per rank class for sum-13 pairing: the cards of rank ``x`` that
        must still go each need their *own* partner of rank ``13 - x`` that they could meet
        (a matching, checked by augmenting paths on at most four cards a side);
        ``r = -1`` checks every class. Under other pairings (``r`` is then ignored) every
        card that must go needs its own partner among the cards in play: see
        :func:`own_partners`."""
        if self.rules.pairing != "sum13":
            return own_partners(self, alive)
        rm, req, needs = self.rank_masks, self.required & alive, self.needs
        for x in range(1, 13) if r < 0 else (r, 13 - r):
            if x in (0, 13):
                continue
            want = req & rm[x]
            if not want:
                continue
            if want.bit_count() > (alive & rm[13 - x]).bit_count():
                return False
            if not matching(want, needs, alive):
                return False
        return True

    def for_shortest(self) -> Model:
        """A copy whose move generator keeps every line of fewest moves (see
        :attr:`Switches.forced_kings_out`)."""
        twin = copy.copy(self)
        twin.flags = Switches(self.rules, self.kings, shortest=True)
        return twin


class Switches:
    """The rule set's switches as plain attributes, read once per model for the hot loop
    (``Model.flags``). The zone pairs say which zones' cards may pair
    (``rules.pair_zones``)."""

    def __init__(self, rules: RuleSet, kings: int, shortest: bool = False) -> None:
        z = rules.pair_zones
        self.pyramid_pyramid = "pyramid+pyramid" in z
        self.pyramid_waste = "pyramid+waste" in z
        self.pyramid_stock = "pyramid+stock" in z
        self.stock_waste = "stock+waste" in z
        self.waste_waste = "waste+waste" in z
        self.cell_pyramid = "cell+pyramid" in z
        self.cell_waste = "cell+waste" in z
        self.cell_stock = "cell+stock" in z
        self.cell_cell = "cell+cell" in z
        self.lone_kings = kings if rules.kings_alone else 0
        """Kings that may go alone."""
        self.forced_kings = self.lone_kings if rules.pairing == "sum13" else 0
        """Kings whose removal is forced when available in the pyramid (they pair with
        nothing; rule ``kings-first``)."""
        self.forced_kings_out = 0 if shortest and rules.win == "pyramid" else self.forced_kings
        """Kings forced when available outside the pyramid: not when counting moves under a
        pyramid-only win, where a line may leave a waste King alone and save a move."""
        self.stock_top = rules.stock_top_available
        self.piles = rules.waste_piles
        self.draw = rules.draw_count
        self.passes = rules.passes
        self.stall = rules.stall_rule
        self.cells = rules.cells
        self.sum13 = rules.pairing == "sum13"
        self.plain_last = (
            self.sum13
            and rules.kings_alone
            and self.forced_kings_out == self.lone_kings
            and not (self.pyramid_stock or self.stock_waste or self.waste_waste or self.stock_top)
            and self.pyramid_waste
            and self.pyramid_pyramid
        )
        """Whether :func:`pyramid_widget.solver.macro.candidates` may take its last-pass
        shortcut (pyramid and waste pairs only, every King removed at once)."""


def needs_mask(model: Model, slot: int, *, cell: bool | None = None) -> int:
    """The partner slots that could ever be removed together with ``slot``'s card.

    Soundness: without a free cell a pyramid card and a card it covers through a chain of
    cards in the pyramid (:attr:`Model.chains`, taken at the root) can never both be
    available: the card of the chain just above the lower one is covered while that one is
    in the pyramid, so it stays (a pyramid card leaves only by being removed, and only when
    uncovered), and so on up the chain. So such partners are no use. The chain must be made
    of cards: with an empty slot on every line between two cards both may be available
    (issue 14, where the full geometry was used and a winnable position was called lost). Zones the rule set never pairs are no use either. With a free cell
    a card can step out of the pyramid, so every partner counts.
    """
    rules, cards = model.rules, model.cards
    partners = model.partners[slot]
    if (rules.cells if cell is None else cell) or cards[slot] < 0:
        return partners
    zones = rules.pair_zones
    deck = ((1 << model.deck_hi) - 1) & ~PYRAMID_ALL
    if slot < SIZE:
        keep = deck if {"pyramid+stock", "pyramid+waste"} & zones else 0
        if "pyramid+pyramid" in zones:
            keep |= PYRAMID_ALL & ~model.related[slot]
        return partners & keep
    keep = PYRAMID_ALL if {"pyramid+stock", "pyramid+waste"} & zones else 0
    if {"stock+waste", "waste+waste"} & zones:
        keep |= deck
    return partners & keep


def own_partners(model: Model, alive: int) -> bool:
    """Whether every card of ``alive`` that must still go can be given a partner of its own
    among ``alive`` that it could meet (``Model.needs``).

    Soundness: the pairs of a winning line are disjoint, so sending each card that must go to
    the card it leaves with gives every such card a different partner (two cards that must go
    and leave together are each other's). Under sum-13 pairing this is Hall's condition per
    rank class (:meth:`Model.counts_ok`); under adjacent ranks (``cheops``), where a card
    has many partners, it is what catches a group of ranks that cannot all be paired, which
    no single card's test sees: deal 111 has all four Aces and all four 3s in the pyramid,
    and the Aces' partners are too few once covering rules some out.

    >>> from pyramid_widget.engine.game import Game
    >>> ace_over_ace = [None] * 15 + ["AH"] + [None] * 5 + ["AS"] + [None] * 6
    >>> g = Game.from_position("cheops", pyramid=ace_over_ace, stock=["2C", "2D"])
    >>> own_partners(Model.from_game(g), Model.from_game(g).root[0])
    True
    >>> g = Game.from_position("cheops", pyramid=ace_over_ace, stock=["2C", "KD"])
    >>> own_partners(Model.from_game(g), Model.from_game(g).root[0])  # one 2 for two Aces
    False
    """
    return matching(alive & model.required, model.needs, alive)


def starved_in(check: int, needs: list[int], alive: int) -> bool:
    """Whether some slot in ``check`` has no partner in ``alive`` among ``needs[slot]``."""
    while check:
        low = check & -check
        if not needs[low.bit_length() - 1] & alive:
            return True
        check ^= low
    return False


def matching(want: int, needs: list[int], alive: int) -> bool:
    """Whether every slot of ``want`` can get a distinct partner from ``needs[slot] & alive``."""
    return matched(want, needs, alive, give_up=True) == want.bit_count()


def matched(want: int, needs: list[int], alive: int, *, give_up: bool = False) -> int:
    """How many slots of ``want`` can get distinct partners from ``needs[slot] & alive`` at
    once (a maximum matching, by augmenting paths); with ``give_up``, the count so far as
    soon as one slot cannot be placed.

    >>> matched(0b11, [0b100, 0b100, 0], 0b100)  # two slots, one partner between them
    1
    """
    owner: dict[int, int] = {}
    taken = 0  # the partners given so far (owner's keys, as one mask)
    count = 0
    while want:
        low = want & -want
        want ^= low
        q = low.bit_length() - 1
        free = needs[q] & alive & ~taken
        if free:  # a partner nobody has: taken at once (most slots; no augmenting path)
            free &= -free
            taken |= free
            owner[free] = q
            count += 1
            continue
        tried = _place(q, 0, needs, alive, owner)
        if tried >= 0:
            taken |= tried  # (the one partner it took was free; the others it tried were not)
            count += 1
        elif give_up:
            break
    return count


def _place(q: int, tried: int, needs: list[int], alive: int, owner: dict[int, int]) -> int:
    """One augmenting-path step of :func:`matched`: give slot ``q`` a partner not in
    ``tried``, moving earlier owners on as needed; the partners tried, or -1 if none.
    (A function of its own, not a closure: a recursive closure is a reference cycle, left
    for the garbage collector, which :func:`pyramid_widget.solver.search.collector_paused`
    holds off during a search.)"""
    options = needs[q] & alive & ~tried
    while options:
        low = options & -options
        options ^= low
        tried |= low
        holder = owner.get(low)
        if holder is None:
            owner[low] = q
            return tried
        again = _place(holder, tried, needs, alive, owner)
        if again >= 0:
            owner[low] = q
            return again
    return -1


def normalise(board: int, lo: int, hi: int) -> int:
    """Move ``lo`` up to the next deck slot still on the board (``hi`` if none)."""
    rest = board >> lo
    if not rest:
        return hi
    return lo + (rest & -rest).bit_length() - 1


UNCOVERED: dict[int, int] = {}
"""Uncovered-position masks per pyramid mask, shared by every model (the geometry is
fixed): the cache :func:`uncovered` is given by the move generators."""


def covered_cache() -> dict[int, int]:
    """A fresh cache for :func:`uncovered`."""
    return {}


def _covered_rows() -> list[int]:
    """The positions covered by the two positions ``k`` and ``k + 1`` after them, for
    ``k = 1, 2, ...`` (the rows of :data:`~pyramid_widget.engine.layout.COVERED_BY` but the
    last), for :func:`open_cards`."""
    rows: dict[int, int] = {}
    for p, qs in enumerate(COVERED_BY):
        if not qs:
            continue
        first, second = qs
        if second != first + 1:
            raise AssertionError("open_cards needs the two covering positions side by side")
        rows[first - p] = rows.get(first - p, 0) | 1 << p
    return [rows[k] for k in range(1, len(rows) + 1)]


_R1, _R2, _R3, _R4, _R5, _R6 = _covered_rows()  # six covered rows (unrolled in open_cards)


def open_cards(pyr: int) -> int:
    """Bit mask of the positions of the pyramid mask ``pyr`` that no position of ``pyr``
    covers (:data:`~pyramid_widget.engine.layout.COVERED_BY`), by one shift a row instead
    of a test a card: position ``p`` is covered by ``p + k`` and ``p + k + 1`` for the
    ``k`` of its row, and ``pair`` has bit ``j`` set when ``pyr`` has ``j`` or ``j + 1``.

    >>> bin(open_cards(PYRAMID_ALL))
    '0b1111111000000000000000000000'
    >>> open_cards(1 << 0 | 1 << 2 | 1 << 5) == 1 << 5  # the apex under 2, and 2 under 5
    True
    """
    pair = pyr | pyr >> 1
    return pyr & ~(
        pair >> 1 & _R1
        | pair >> 2 & _R2
        | pair >> 3 & _R3
        | pair >> 4 & _R4
        | pair >> 5 & _R5
        | pair >> 6 & _R6
    )


def uncovered(pyr: int, cache: dict[int, int]) -> int:
    """Bit mask of the uncovered positions of the pyramid mask ``pyr`` (cached).

    >>> bin(uncovered(PYRAMID_ALL, {}))
    '0b1111111000000000000000000000'
    """
    hit = cache.get(pyr)
    if hit is None:
        hit = cache[pyr] = open_cards(pyr)
    return hit


def union_of(table: Sequence[int], mask: int) -> int:
    """The union of ``table[slot]`` over the slots set in ``mask``.

    >>> union_of([0b001, 0b010, 0b100, 0b110], 0b1010)
    6
    """
    out = 0
    while mask:
        low = mask & -mask
        mask ^= low
        out |= table[low.bit_length() - 1]
    return out


def slots_of(mask: int) -> Sequence[int]:
    """The slot numbers set in ``mask``, lowest first.

    >>> slots_of(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
