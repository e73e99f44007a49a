"""The solver for every rule set the classic model cannot take (issue 18): any layout, one
or two decks, reserve piles, overlap discards, the waste pair, any pairing table.

The seven original presets (and the rule sets of their shape, ``RuleSet.classic_shape``,
but for one waste pile where every card must go or a draw takes three: King Tut and
Traditional) keep the tuned searches of :mod:`pyramid_widget.solver.model` and friends,
untouched; the others come here (:func:`fits_classic` decides). The encoding is the classic
model's idea, read from the rule set's data instead of the classic geometry:

- every card gets a *slot*: tableau position ``p`` is slot ``p``; then the reserve piles,
  pile by pile, bottom card first; then the *deck order* (the waste in the order drawn, then
  the stock, next card first), which a ``first-drawn`` redeal never changes; then cards of a
  free cell that are not tableau cards;
- a position is ``(board, lo, piles, cells, pno, flag)`` exactly as in the classic model:
  board mask, first stock slot, waste piles' masks (several piles), cells, pass, stall flag.
  A reserve pile needs no field: only its top leaves, so its cards on the board are always a
  bottom run of its slots, the top the highest.

The search is a depth-first search with a transposition table (rule ``transposition``, an
earlier pass dominating a later one), move by move, with only the pruning rules whose
argument holds for every rule set here (rules ``g-reach``, ``g-hall``, ``g-lone-first``,
``g-forced-pair`` of :data:`pyramid_widget.solver.prune.PRUNING_RULES`), the relaxations
``g-free-pool``, on the last pass ``g-waste-stack``, and at the root and wherever the waste
is empty ``g-deck-order`` (the deck keeps its order, the tableau is free), and with unlimited
passes the
removals a board's redeal cycle reaches as one position's moves (``g-cycle``, with
shuffled short searches first that share what they proved lost, ``g-cycle-lost``); for
two decks, beam searches for a win on the clock of draws (:func:`_beam`, which can report
only a win) alternate with shuffled short searches (which can prove a loss); shortest
mode is A* with the bound "every move removes at most two cards, a lone King one" (the
classic model's A* for King Tut and Traditional). A ``by-pile`` redeal reorders the deck, which this encoding cannot follow: such rule sets
are searched on engine positions (:func:`engine_search`), slowly but exactly.

>>> from pyramid_widget.engine.game import Game
>>> model = GeneralModel.from_game(Game("giza", deal=1))
>>> model.tableau, len(model.reserve_piles), model.deck_lo, model.deck_hi
(28, 8, 52, 52)
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import KING, Card, make_card, rank
from pyramid_widget.engine.moves import Move
from pyramid_widget.engine.position import Position
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.solver.model import _place  # the augmenting-path step of a matching
from pyramid_widget.solver.search import CHECK_EVERY, Budget, OutOfBudget, Result

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game

State = tuple[int, int, Any, int, int, int]
"""``(board, lo, piles, cells, pno, flag)`` (see the module docstring)."""

PAIR, LONE, DRAW, REDEAL, CELL = range(5)
"""Kinds of compact moves ``(kind, slot_a, slot_b)``."""

Step = tuple[int, int, int]
Successors = list[tuple[Step, State, int]]
"""``(move, next position, cards removed)``: the dead-end tests of a removal are left to the
search, which runs them only on a position it has not seen (:meth:`Generator.dead`)."""

DECK_ORDER = 4
"""Where removals of deck cards alone come among the moves: after the draw (4; 1, with
the removals of one tableau card, was tried and found no more wins)."""

T, R, D, C = range(4)
"""Slot classes: tableau, reserve, deck (stock and waste), cell-only card."""


CLASSIC_PAIRS = ("sum13", "adjacent")
"""The pairings the classic model knows by name."""


def fits_classic(rules: RuleSet) -> bool:
    """Whether the classic model (:mod:`pyramid_widget.solver.model`) takes the rule set:
    the engine's ``classic_shape`` (the classic pyramid, face-down flags aside, one deck, no
    reserve, no overlap discards, no waste pair, first-drawn redeals, sum-13 or adjacent
    pairing given by name), but not one waste pile without a cell where every card must go
    or a draw takes several cards (King Tut, Traditional and rule sets like them): the
    general search, with rules ``g-waste-stack`` and ``g-cycle``, decides those much
    faster (Traditional's slowest deal of 0-199 from 8.5 s to under 2 s, King Tut's from
    19 s to 2 s). The seven original presets all stay (a golden test pins their answers).

    >>> from pyramid_widget.engine.rules import get_rules
    >>> fits_classic(get_rules("hard")), fits_classic(get_rules("dark_pyramid"))
    (True, True)
    >>> fits_classic(get_rules("triangle")), fits_classic(get_rules("anubis"))
    (False, False)
    >>> fits_classic(get_rules("king_tut")), fits_classic(get_rules("traditional"))
    (False, False)
    """
    if not rules.classic_shape or rules.pairing not in CLASSIC_PAIRS:
        return False
    one_pile = rules.waste_piles == 1 and not rules.cells
    return not (one_pile and (rules.win == "all" or rules.draw_count > 1))


def _mask(slots: Sequence[int]) -> int:
    out = 0
    for s in slots:
        out |= 1 << s
    return out


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass
class GeneralModel:
    """A position compiled for the general search (see the module docstring)."""

    rules: RuleSet
    cards: list[Card]
    """``cards[slot]`` (``-1`` for an empty tableau position)."""
    tableau: int
    """How many tableau positions (slots ``0 .. tableau - 1``)."""
    reserve_piles: list[int]
    """Slot mask of each reserve pile."""
    deck_lo: int
    deck_hi: int
    root: State
    position: Position | None = None
    """The engine position compiled (for :func:`fewest` on the classic shape)."""

    def __post_init__(self) -> None:
        rules = self.rules
        n = self.tableau
        layout = rules.layout
        self.tab_all = (1 << n) - 1
        self.res_all = _mask([s for m in self.reserve_piles for s in _bits(m)])
        self.deck_all = ((1 << self.deck_hi) - 1) & ~((1 << self.deck_lo) - 1)
        self.cover_mask = [_mask(layout.covered_by[p]) for p in range(n)]
        self.covers_mask = [0] * n
        for p in range(n):
            for q in layout.covered_by[p]:
                self.covers_mask[q] |= 1 << p
        self.piles_n = rules.waste_piles
        self.draw_n = rules.draw_count
        self.passes = rules.passes
        self.stall = rules.stall_rule
        self.stall_armed = rules.stall_rule and rules.passes is None and not rules.cells
        """The stall rule as a root-pass condition only (rule ``g-stall-root``): ``flag`` is
        then 1 while the pass the search started in has removed nothing."""
        self.cells_n = rules.cells
        self.stock_top = rules.stock_top_available
        self.overlap = rules.overlap_discards
        self.waste_pair = rules.waste_pair
        self.uncovered_cache: dict[int, int] = {}
        zone_names = ("pyramid", "reserve", "waste", "stock", "cell")
        #: zmask[i][j]: whether zone i may pair with zone j (indices of ``zone_names``)
        self.zok = [[rules.zones_pair(a, b) for b in zone_names] for a in zone_names]
        self._tables()

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_game(cls, game: Game) -> GeneralModel:
        """Compile the current position of an engine ``Game``."""
        return cls.from_position(game.rules, game.position)

    @classmethod
    def from_position(cls, rules: RuleSet, pos: Position) -> GeneralModel:
        """Compile an engine position under ``rules``."""
        n = len(pos.pyramid)
        cards: list[Card] = [-1 if c is None else c for c in pos.pyramid]
        piles: list[int] = []
        for pile in getattr(pos, "reserves", []):
            start = len(cards)
            cards.extend(pile)
            piles.append(((1 << len(cards)) - 1) & ~((1 << start) - 1))
        deck_lo = len(cards)
        waste = sorted((c for pile in pos.wastes for c in pile), key=pos.drawn_at.__getitem__)
        cards.extend(waste)
        cards.extend(reversed(pos.stock))
        deck_hi = len(cards)
        slot_of = {c: s for s, c in enumerate(cards) if c >= 0}
        board = _mask([s for s, c in enumerate(cards) if c >= 0])
        cells = 0
        empty = [p for p in range(n) if cards[p] < 0]
        for c in (c for c in pos.cells if c is not None):
            if c in pos.pyramid_cards and empty:  # a tableau card keeps a tableau slot
                slot = empty.pop(0)
                cards[slot] = c
            else:
                slot = len(cards)
                cards.append(c)
            cells |= 1 << slot
        wastes: Any = 0
        if rules.waste_piles > 1:
            wastes = tuple(_mask([slot_of[c] for c in pile]) for pile in pos.wastes)
        lo = _normalise(board, deck_lo + len(waste), deck_hi)
        pno = pos.pass_number if rules.passes is not None else 0
        flag = int(pos.pass_removed) if rules.stall_rule else 0
        if rules.stall_rule and rules.passes is None and not rules.cells:
            flag = 1 - flag
        root = (board, lo, wastes, cells, pno, flag)
        return cls(rules, cards, n, piles, deck_lo, deck_hi, root, pos)

    def slot_class(self, s: int) -> int:
        """``T``, ``R``, ``D`` or ``C`` for slot ``s``."""
        if s < self.tableau:
            return T
        if s < self.deck_lo:
            return R
        if s < self.deck_hi:
            return D
        return C

    def _tables(self) -> None:
        """Partners, the cards that must go, what each could ever meet (rule ``g-reach``) and
        the pairing components (rule ``g-hall``)."""
        rules, cards = self.rules, self.cards
        size = len(cards)
        table = [[False] * 14 for _ in range(14)]
        for r1 in range(1, 14):
            for r2 in range(1, 14):
                table[r1][r2] = rules.pairs(make_card(r1, 0), make_card(r2, 1))
        by_rank = [0] * 14
        for s, c in enumerate(cards):
            if c >= 0:
                by_rank[rank(c)] |= 1 << s
        rank_partners = [
            _mask([]) | sum(by_rank[r2] for r2 in range(1, 14) if table[r][r2]) if r else 0
            for r in range(14)
        ]
        self.partners = [
            rank_partners[rank(c)] & ~(1 << s) if c >= 0 else 0 for s, c in enumerate(cards)
        ]
        self.lone = by_rank[KING] if rules.kings_alone else 0
        present = _mask([s for s, c in enumerate(cards) if c >= 0])
        must = self.tab_all if rules.win == "pyramid" else (1 << size) - 1
        self.required = must & present & ~self.lone
        # pairing components of values: values linked by the table
        comp = list(range(14))

        def find(v: int) -> int:
            while comp[v] != v:
                v = comp[v]
            return v

        for r1 in range(1, 14):
            for r2 in range(1, 14):
                if table[r1][r2]:
                    comp[find(r1)] = find(r2)
        groups: dict[int, int] = {}
        for r in range(1, 14):
            groups[find(r)] = groups.get(find(r), 0) | by_rank[r]
        self.component = [groups[find(rank(c))] if c >= 0 else 0 for c in cards]
        values = {find(r) for r in range(1, 14)}
        #: run Hall's condition on a component after each removal only when it is small
        self.small_components = all(
            sum(1 for r in range(1, 14) if find(r) == v) <= 3 for v in values
        )
        self.needs = [self._needs(s) for s in range(size)]
        self.kings_pair = any(self.partners[s] for s in _bits(self.lone))
        """Whether a King that may go alone may also pair (:func:`lower_bound`)."""
        self.affects = [0] * size
        for q in _bits(self.required):
            for s in _bits(self.needs[q]):
                self.affects[s] |= 1 << q

    def _needs(self, s: int) -> int:
        """The slots whose cards could ever be removed together with slot ``s``'s card.

        Soundness (rule ``g-reach``): with no free cell a card leaves only by being removed,
        and only when available. Two tableau cards linked by a chain of covering cards
        present at the root never are both available (the card of the chain just above the
        lower one is covered while that one stays, and so on up), except, under overlap
        discards, a card and one that covers it *directly*: the only card still covering
        it may go with it. Two cards of one reserve pile are never both tops. Two deck
        cards meet only where two deck places are available at once (two waste tops, the
        stock top with the waste top) or under the waste pair. Zones that never pair are no
        use. With a free cell a card can step out of the layout, so every partner counts.
        """
        cards = self.cards
        partners = self.partners[s]
        if cards[s] < 0 or self.cells_n:
            return partners
        z = self.zok
        deck_zones = (2, 3) if self.stock_top else (2,)
        cls = self.slot_class(s)
        keep = 0
        if cls == T:
            if z[0][0]:
                chains = self._chains()
                keep |= self.tab_all & ~(chains[s] | self._covered_chain(s, chains))
            if self.overlap:  # not gated by the zones, as in the engine
                keep |= self.cover_mask[s] | self.covers_mask[s]
            if z[0][1]:
                keep |= self.res_all
            if any(z[0][d] for d in deck_zones):
                keep |= self.deck_all
        elif cls == R:
            if z[1][0]:
                keep |= self.tab_all
            if z[1][1]:
                own = next(m for m in self.reserve_piles if m >> s & 1)
                keep |= self.res_all & ~own
            if any(z[1][d] for d in deck_zones):
                keep |= self.deck_all
        else:
            if any(z[d][0] for d in deck_zones):
                keep |= self.tab_all
            if any(z[d][1] for d in deck_zones):
                keep |= self.res_all
            two_tops = (self.piles_n > 1 and z[2][2]) or (self.stock_top and z[2][3])
            if two_tops or self.waste_pair:
                keep |= self.deck_all
        return partners & keep

    def _chains(self) -> list[int]:
        """Per tableau slot, the root's tableau cards covering it through chains of cards."""
        cached = getattr(self, "_chain_cache", None)
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        board = self.root[0] & self.tab_all
        cover = self.rules.layout.covered_by
        out = [0] * self.tableau
        for p in sorted(range(self.tableau), key=lambda p: -_depth(cover, p)):
            if board >> p & 1:
                mask = 0
                for q in cover[p]:
                    if board >> q & 1:
                        mask |= 1 << q | out[q]
                out[p] = mask
        self._chain_cache = out
        return out

    def _covered_chain(self, s: int, chains: list[int]) -> int:
        """The tableau cards that ``s`` covers through a chain (inverse of ``chains``)."""
        return _mask([p for p in range(self.tableau) if chains[p] >> s & 1])

    # -- queries ------------------------------------------------------------------------

    def is_win(self, state: State) -> bool:
        """Whether the engine would call this position won."""
        if self.rules.win == "pyramid":
            return not (state[0] | state[3]) & self.tab_all
        return not state[0] and not state[3]

    def is_dead(self, state: State) -> bool:
        """Whether some card that must go can no longer be given a partner of its own that
        it could meet (full check, rules ``g-reach`` and ``g-hall``)."""
        alive = state[0] | state[3]
        req = alive & self.required
        for s in _bits(req):
            if not self.needs[s] & alive:
                return True
        return not _matching(req, self.needs, alive)

    def to_move(self, step: Step) -> Move:
        """The engine move of a compact move."""
        kind, a, b = step
        if kind == PAIR:
            return Move.pair(self.cards[a], self.cards[b])
        if kind == LONE:
            return Move.king(self.cards[a])
        if kind == CELL:
            return Move.to_cell(self.cards[a])
        return Move.draw() if kind == DRAW else Move.redeal()

    def uncovered(self, tab: int) -> int:
        """The uncovered tableau slots of the tableau mask ``tab`` (cached)."""
        hit = self.uncovered_cache.get(tab)
        if hit is not None:
            return hit
        out = 0
        cover = self.cover_mask
        for p in _bits(tab):
            if not tab & cover[p]:
                out |= 1 << p
        self.uncovered_cache[tab] = out
        return out


def _depth(cover: Sequence[Sequence[int]], p: int) -> int:
    """How many covering steps lie above ``p`` at most (to order the chain computation)."""
    seen: dict[int, int] = {}

    def go(x: int) -> int:
        if x not in seen:
            seen[x] = 1 + max((go(q) for q in cover[x]), default=0)
        return seen[x]

    return go(p)


def _normalise(board: int, lo: int, hi: int) -> int:
    rest = board >> lo
    if not rest:
        return hi
    return lo + (rest & -rest).bit_length() - 1


def _matching(want: int, needs: list[int], alive: int) -> bool:
    """Whether every slot of ``want`` gets a distinct partner from ``needs[slot] & alive``."""
    owner: dict[int, int] = {}
    taken = 0
    while want:
        low = want & -want
        want ^= low
        q = low.bit_length() - 1
        options = needs[q] & alive
        free = options & ~taken
        if free:  # an augmenting path of one step
            free &= -free
            owner[free] = q
            taken |= free
            continue
        if not options or _place(q, 0, needs, alive, owner) < 0:
            return False
        taken = sum(owner)
    return True


# -- the move generator ------------------------------------------------------------------


class Generator:
    """The moves of a :class:`GeneralModel`, with the sound reductions of the module doc.

    Forced moves (rules ``g-lone-first`` and ``g-forced-pair``): an available King that goes
    alone and pairs with no card left, or a pair ``x + y`` where ``x`` must go and ``y`` is
    the one card left that could ever meet it (``needs``, on the last pass the limited
    partners of rule ``g-last-pass-burial``), is the only move generated. Soundness: take a
    winning line; it removes that King, or ``x`` with ``y``, at some later step. Remove
    them now and then play the line without that step (and without any cell move of those
    cards): every card is in the same place as in the line or already gone, so each
    available card is still available (a card under a card gone early comes up early; a
    cover gone early leaves an overlap discard's cover the only one; a waste pile loses a
    card, so the top and the card beneath it are the line's or come up early), and each
    move stays legal. The draws are the same unless a deck card goes early: with one card a
    draw onto one pile a draw only skips it; otherwise a deck card would change how later
    draws group the stock, so it is forced only as a waste top on the last pass. The line
    is no longer, so shortest mode keeps these (but for a King outside the tableau under a
    pyramid-only win, which a shortest line may leave). Under the stall rule with limited
    passes an early removal could leave a later pass with none, so nothing is forced.

    Stall rule with unlimited passes (rule ``g-stall-root``): ``flag`` is 1 while the pass
    the search started in has removed nothing, and only then does the stall end a line.
    Soundness: after a redeal, a pass that removes nothing ends where it began (same cards,
    the deck handed back in the same order), so a line through such a pass repeats a
    position and can be shortened; the search never repeats one. So a win without the
    stall rule after the first pass is a win with it.

    ``shortest`` keeps every line of fewest moves: a lone King outside the tableau is then
    not forced under a pyramid-only win (a line may leave it and save a move)."""

    def __init__(self, model: GeneralModel, *, shortest: bool = False) -> None:
        self.m = model
        self.shortest = shortest
        rules = model.rules
        # early removals are safe for deck cards only when they change no later draw
        self.deck_early_ok = model.draw_n == 1 and model.piles_n == 1
        self.force = not model.stall or model.stall_armed
        self.deck_order = DECK_ORDER
        self.pyramid_win = rules.win == "pyramid"
        self.burial = model.passes is not None and not model.cells_n and bool(model.required)
        self.overlap_cache: dict[int, list[tuple[int, Step, int]]] = {}
        self.cycles = (
            model.passes is None and model.piles_n == 1 and not model.cells_n and not shortest
        )
        """Whether :meth:`cycle` applies (rule ``g-cycle``)."""
        self.light = (
            self.cycles
            and model.draw_n > 1
            and not model.stock_top
            and not model.waste_pair
            and not model.reserve_piles
        )

    def on_cycle(self, state: State) -> bool:
        """Whether ``state`` lies on the cycle of its board's redeal (rule ``g-cycle``): the
        redeal position itself, or a draw of whole groups of cards from it (as many cards in
        the waste as a number of draws puts there), or the stock empty; never with the stall
        rule still armed."""
        m = self.m
        board, lo, _piles, _cells, _pno, flag = state
        if not self.cycles or flag:
            return False
        if lo >= m.deck_hi:
            return True
        return not (board & m.deck_all & ((1 << lo) - 1)).bit_count() % m.draw_n

    def cycle(self, state: State) -> list[tuple[Any, State, int]]:
        """The removals reachable from ``state`` by draws and redeals alone (rule
        ``g-cycle``), each as ``(steps, next position, cards removed)`` with the draws and
        the redeal before it; :meth:`expand` where the rule does not apply.

        Unlimited passes, one waste pile, no free cell, the stall rule not armed: drawing on
        from ``state`` to the end of the stock, redealing and drawing again visits every
        position of the board's cycle (:meth:`on_cycle`), and back. A removal of tableau
        cards alone is taken only at the first of these positions: the same removal at a
        later one gives the same cards with the stock further on, which the first reaches by
        draws. The walk stops at a position whose moves are only a forced one (rules
        ``g-lone-first``, ``g-forced-pair``: that one is kept) or none, and where it comes
        back to a position it has visited.

        Soundness: a winning line from ``state`` is draws and redeals, then a removal from
        one of the positions visited (or from one the walk stopped at, where the forced move
        keeps a win, or from a later one, reached from that forced move's position by draws
        as well, so covered by the same argument), and so on; every pass of the line found
        removes a card (the walk redeals at most once, and it starts just after a removal
        or at the root). With the transposition table keyed by the board alone for the
        positions on the cycle (:meth:`key`), a board's cycle is walked once."""
        if not self.cycles or state[5]:
            return self.expand(state)
        m = self.m
        deck_all = m.deck_all
        out: list[tuple[Any, State, int]] = []
        prefix: list[Step] = []
        visited = {state[1]}
        entry_on_cycle = self.on_cycle(state)
        if self.light:
            return self._light_cycle(state, entry_on_cycle)
        succ = self.expand(state)
        first = True
        while succ:
            if len(succ) == 1 and succ[0][0][0] in (PAIR, LONE) and not succ[0][2]:
                move, nxt, bits = succ[0]  # forced
                out.append(((*prefix, move), nxt, bits))
                break
            onward: tuple[Step, State] | None = None
            for move, nxt, bits in succ:
                if move[0] in (DRAW, REDEAL):
                    onward = (move, nxt)
                elif first or bits & deck_all:
                    out.append(((*prefix, move), nxt, bits))
            if onward is None or onward[1][1] in visited:
                break
            move, nxt = onward
            if move[0] == REDEAL and not entry_on_cycle:  # the cycle is a position of its own
                out.append(((*prefix, move), nxt, 0))
                break
            visited.add(nxt[1])
            prefix.append(move)
            succ = self.expand(nxt)
            first = False
        return out

    def _light_cycle(self, state: State, entry_on_cycle: bool) -> list[tuple[Any, State, int]]:
        """:meth:`cycle` where only the waste top plays and only with the tableau or alone
        (no stock top, no waste pair, no reserve) and a draw takes several cards (so no
        deck card's removal is ever forced): past the first position only the waste top's
        removals are new, found without generating every move again."""
        m = self.m
        first = self.expand(state)
        out: list[tuple[Any, State, int]] = []
        onward: tuple[Step, State] | None = None
        for move, nxt, bits in first:
            if move[0] in (DRAW, REDEAL):
                onward = (move, nxt)
            else:
                out.append((move, nxt, bits))
        if len(first) == 1 and onward is None and not first[0][2]:
            return out  # a forced move
        board = state[0]
        unc = m.uncovered(board & m.tab_all) if m.zok[2][0] else 0
        partners, lone, deck_all = m.partners, m.lone, m.deck_all
        visited = {state[1]}
        prefix: list[Step] = []
        while onward is not None and onward[1][1] not in visited:
            move, nxt = onward
            prefix.append(move)
            if move[0] == REDEAL and not entry_on_cycle:  # the cycle is a position of its own
                out.append((tuple(prefix), nxt, 0))
                break
            lo = nxt[1]
            visited.add(lo)
            waste = board & deck_all & ((1 << lo) - 1)
            if waste:
                top = 1 << (waste.bit_length() - 1)
                a = top.bit_length() - 1
                run = tuple(prefix)
                if top & lone:
                    out.append(((*run, (LONE, a, -1)), self._remove(nxt, top, 0), top))
                mates = partners[a] & unc
                while mates:
                    low = mates & -mates
                    mates ^= low
                    b = low.bit_length() - 1
                    step = (PAIR, min(a, b), max(a, b))
                    out.append(((*run, step), self._remove(nxt, top | low, 0), top | low))
            if lo < m.deck_hi:
                onward = ((DRAW, -1, -1), self._draw(nxt))
            elif board & deck_all:
                npiles = (0,) * m.piles_n if m.piles_n > 1 else 0
                onward = (
                    (REDEAL, -1, -1),
                    (board, _normalise(board, m.deck_lo, m.deck_hi), npiles, nxt[3], nxt[4], 0),
                )
            else:
                onward = None
        return out

    def key(self, state: State) -> tuple[object, ...]:
        """The transposition key of ``state`` (the pass number aside): positions on their
        board's cycle share one (rule ``g-cycle``)."""
        board, lo, piles, cells, _pno, flag = state
        if self.on_cycle(state):
            return (board, -1, piles, cells, flag)
        return (board, lo, piles, cells, flag)

    def last_needs(self, state: State) -> list[int] | None:
        """On the last pass, the partners each card could still meet (``needs`` with the
        waste cards' limited as below), or ``None`` when a card that must go has none left or
        Hall's condition fails in its component (rule ``g-last-pass-burial``).

        Soundness: with no redeal left (and no free cell) a waste card leaves only as the top
        of its pile, so it never meets a card of its own pile: the cards beneath it come up
        only once it is gone, the cards above it must go first. Under the waste pair (one
        pile) the top may also go with the card directly beneath it, so a waste card can
        still meet its two neighbours in the pile as it is now, and no other waste card:
        a card between two others leaves only as the top or with the top, so two cards of
        the pile with one between never become neighbours while both stay. Cards of the
        stock, the tableau, the reserve and other piles are kept (``needs`` says which).
        """
        m = self.m
        board, lo, piles, _cells, pno, _flag = state
        needs, required = m.needs, m.required
        if pno < m.passes:  # type: ignore[operator]
            return needs
        limited: dict[int, int] = {}
        if m.piles_n == 1:
            waste = board & ((1 << lo) - 1) & m.deck_all
            if not waste & required:
                return needs
            outside = board & ~waste
            if not m.waste_pair:
                for w in _bits(waste & required):
                    limited[w] = needs[w] & outside
            else:
                order = list(_bits(waste))
                for i, w in enumerate(order):
                    near = 1 << order[i - 1] if i else 0
                    if i + 1 < len(order):
                        near |= 1 << order[i + 1]
                    limited[w] = needs[w] & (outside | near)
        else:
            for pile in piles:
                outside = board & ~pile
                for w in _bits(pile):
                    limited[w] = needs[w] & outside
        touched = 0
        for w, mask in limited.items():
            if required >> w & 1:
                if not mask:
                    return None
                touched |= m.component[w]
        dyn = list(needs)
        for w, mask in limited.items():
            dyn[w] = mask
        if not m.small_components:
            return dyn
        alive = board | _cells
        while touched:
            low = touched & -touched
            comp = m.component[low.bit_length() - 1]
            touched &= ~comp
            if not _matching(comp & alive & required, dyn, alive):
                return None
        return dyn

    def tops(self, state: State) -> tuple[int, int, int, int, int]:
        """Available slots: (tableau, reserve tops, waste tops, stock top, second cards of
        the waste piles for the waste pair)."""
        m = self.m
        board, lo, piles, _cells, _pno, _flag = state
        unc = m.uncovered(board & m.tab_all)
        rtops = 0
        for pile in m.reserve_piles:
            left = board & pile
            if left:
                rtops |= 1 << (left.bit_length() - 1)
        wtops = under = 0
        if m.piles_n == 1:
            waste = board & ((1 << lo) - 1) & m.deck_all
            if waste:
                top = 1 << (waste.bit_length() - 1)
                wtops = top
                rest = waste ^ top
                if rest:
                    under = 1 << (rest.bit_length() - 1)
        else:
            for pile in piles:
                if pile:
                    top = 1 << (pile.bit_length() - 1)
                    wtops |= top
                    rest = pile ^ top
                    if rest:
                        under |= 1 << (rest.bit_length() - 1)
        stop = 0
        if m.stock_top:
            stock = board >> lo << lo
            stop = stock & -stock
        return unc, rtops, wtops, stop, under

    def expand(self, state: State) -> Successors:
        """``(move, next position)`` pairs, the forced one alone when there is one."""
        m = self.m
        board, lo, piles, cells, pno, flag = state
        needs_now = m.needs
        if self.burial:
            limited = self.last_needs(state)
            if limited is None:
                return []
            needs_now = limited
        unc, rtops, wtops, stop, under = self.tops(state)
        avail = unc | rtops | wtops | stop | cells
        alive = board | cells
        last_pass = m.passes is not None and pno >= m.passes
        zmasks = (unc, rtops, wtops, stop, cells)
        partners = m.partners
        zok = m.zok
        removed_flag = 1 if m.stall and not m.stall_armed else 0

        def zone(bit: int) -> int:
            if bit & unc:
                return 0
            if bit & rtops:
                return 1
            if bit & wtops:
                return 2
            if bit & stop:
                return 3
            return 4

        def early_ok(bits: int) -> bool:
            """Whether removing these cards now, before a later removal would, is safe."""
            deck = bits & m.deck_all & ~cells
            if not deck:
                return True
            if self.deck_early_ok:
                return True
            return last_pass and not deck & stop

        # forced: a lone King that pairs with nothing left (rule g-lone-first)
        if self.force:
            lone = avail & m.lone
            while lone:
                low = lone & -lone
                lone ^= low
                s = low.bit_length() - 1
                if partners[s] & alive:
                    continue
                if self.shortest and self.pyramid_win and not (low & m.tab_all):
                    continue
                if not early_ok(low):
                    continue
                nxt = self._remove(state, low, removed_flag)
                return [] if self.dead(nxt, low) else [((LONE, s, -1), nxt, 0)]
        top_zone_allow = []
        for zi in range(5):
            allow = 0
            for zj in range(5):
                if zok[zi][zj]:
                    allow |= zmasks[zj]
            top_zone_allow.append(allow)
        moves: list[tuple[int, Step, int]] = []  # (order, move, bits)
        legal = False
        lone = avail & m.lone
        while lone:
            low = lone & -lone
            lone ^= low
            legal = True
            moves.append(
                (
                    1 if low & (m.tab_all | m.res_all) else self.deck_order,
                    (LONE, low.bit_length() - 1, -1),
                    low,
                )
            )
        rest = avail
        while rest:
            low = rest & -rest
            rest ^= low
            a = low.bit_length() - 1
            mates = partners[a] & top_zone_allow[zone(low)] & ~((low << 1) - 1)
            while mates:
                mlow = mates & -mates
                mates ^= mlow
                legal = True
                bits = low | mlow
                inner = (bits & (m.tab_all | m.res_all)).bit_count()
                moves.append(
                    (
                        0 if inner == 2 else 1 if inner else self.deck_order,
                        (PAIR, a, mlow.bit_length() - 1),
                        bits,
                    )
                )
        if m.overlap:
            overlaps = self.overlaps(board & m.tab_all, unc)
            if overlaps:
                legal = True
                moves.extend(overlaps)
        if m.waste_pair and under:
            tops_left = wtops
            while tops_left:
                top = tops_left & -tops_left
                tops_left ^= top
                if m.piles_n == 1:
                    below = under
                else:
                    pile = next(p for p in piles if p & top)
                    below = under & pile
                if below and partners[top.bit_length() - 1] & below:
                    legal = True
                    a, b = below.bit_length() - 1, top.bit_length() - 1
                    moves.append((self.deck_order, (PAIR, a, b), top | below))
        # forced: a card that must go whose one partner left is removable with it now
        # (rule g-forced-pair)
        if self.force:
            for _order, move, bits in moves:
                if move[0] != PAIR or not early_ok(bits):
                    continue
                a, b = move[1], move[2]
                na, nb = needs_now[a] & alive, needs_now[b] & alive
                if (m.required >> a & 1 and na == 1 << b) or (m.required >> b & 1 and nb == 1 << a):
                    nxt = self._remove(state, bits, removed_flag)
                    return [] if self.dead(nxt, bits) else [(move, nxt, 0)]
        stock = board >> lo << lo
        if m.stall and not stock and flag == m.stall_armed and not legal:
            return []
        out: list[tuple[int, Step, State, int]] = [
            (order, move, self._remove(state, bits, removed_flag), bits)
            for order, move, bits in moves
        ]
        if m.cells_n and cells.bit_count() < m.cells_n:
            for low_slot in _bits(unc | wtops):
                low = 1 << low_slot
                npiles = tuple(p & ~low for p in piles) if m.piles_n > 1 else piles
                out.append(
                    (3, (CELL, low_slot, -1), (board & ~low, lo, npiles, cells | low, pno, flag), 0)
                )
        if stock:
            out.append((2, (DRAW, -1, -1), self._draw(state), 0))
        elif (m.passes is None or pno < m.passes) and board & m.deck_all:
            npiles = (0,) * m.piles_n if m.piles_n > 1 else 0
            nlo = _normalise(board, m.deck_lo, m.deck_hi)
            npno = pno + 1 if m.passes is not None else 0
            out.append((2, (REDEAL, -1, -1), (board, nlo, npiles, cells, npno, 0), 0))
        out.sort(key=lambda item: item[0])
        return [(move, nxt, bits) for _, move, nxt, bits in out]

    def overlaps(self, tab: int, unc: int) -> list[tuple[int, Step, int]]:
        """The overlap discards of the tableau mask ``tab`` (``unc``: its uncovered slots),
        as ``(order, move, cards removed)``: a covered card with one card left covering it,
        that one available, the two a pair (cached by ``tab``)."""
        hit = self.overlap_cache.get(tab)
        if hit is not None:
            return hit
        m = self.m
        out: list[tuple[int, Step, int]] = []
        for p in _bits(tab & ~unc):
            covering = tab & m.cover_mask[p]
            if covering & (covering - 1) or not covering & unc:
                continue
            if m.partners[p] & covering:
                q = covering.bit_length() - 1
                out.append((0, (PAIR, min(p, q), max(p, q)), 1 << p | covering))
        self.overlap_cache[tab] = out
        return out

    def _remove(self, state: State, bits: int, flag: int) -> State:
        """The position after removing ``bits``."""
        m = self.m
        board, lo, piles, cells, pno, _ = state
        nboard, ncells = board & ~bits, cells & ~bits
        if bits >> lo & 1:
            lo = _normalise(nboard, lo, m.deck_hi)
        if m.piles_n > 1 and bits & m.deck_all:
            piles = tuple(p & ~bits for p in piles)
        return (nboard, lo, piles, ncells, pno, flag)

    def dead(self, state: State, bits: int) -> bool:
        """Whether removing ``bits`` (giving ``state``) left a card that must go with no
        partner it could meet, or broke Hall's condition in the component of the cards
        removed (rules ``g-reach``, ``g-hall``)."""
        m = self.m
        alive = state[0] | state[3]
        check = 0
        for s in _bits(bits):
            check |= m.affects[s]
        check &= alive
        needs = m.needs
        for s in _bits(check):
            if not needs[s] & alive:
                return True
        if m.small_components:
            comp = m.component[(bits & -bits).bit_length() - 1]
            return not _matching(comp & alive & m.required, needs, alive)
        return False

    def _draw(self, state: State) -> State:
        """The position after one draw."""
        m = self.m
        board, lo, piles, cells, pno, flag = state
        stock = board >> lo << lo
        if m.piles_n == 1:
            for _ in range(m.draw_n - 1):
                stock &= stock - 1
            nlo = (
                _normalise(board, (stock & -stock).bit_length(), m.deck_hi) if stock else m.deck_hi
            )
            return (board, nlo, piles, cells, pno, flag)
        new = list(piles)
        last = lo
        for i in range(m.draw_n):
            if not stock:
                break
            low = stock & -stock
            stock ^= low
            new[i % m.piles_n] |= low
            last = low.bit_length()
        return (board, _normalise(board, last, m.deck_hi), tuple(new), cells, pno, flag)


# -- the free-pool relaxation -------------------------------------------------------------

FREE_POOL_LIMIT = 200_000
"""Relaxed positions :func:`free_pool_wins` may search before it gives up (then it proves
nothing)."""


class _GiveUp(Exception):
    pass


def _overlap_pairs(tab: int, cover: Sequence[int]) -> Iterator[tuple[int, int]]:
    """The pairs an overlap discard may take from the tableau mask ``tab``: ``(p, q)`` where
    ``q`` is the only card left covering ``p`` and nothing covers ``q`` (``cover[p]``: the
    mask of the places covering ``p``).

    >>> list(_overlap_pairs(0b111, [0b110, 0b100, 0]))  # 2 covers 1, 1 and 2 cover 0
    [(1, 2)]
    """
    for p in _bits(tab):
        covering = tab & cover[p]
        if covering and not covering & (covering - 1):
            q = covering.bit_length() - 1
            if not tab & cover[q]:
                yield p, q


def _pairs_off(
    cnt: Sequence[int], mates: Sequence[Sequence[int]], lone_king: bool, pairable: bool
) -> bool:
    """Whether cards with the value counts ``cnt`` (index 1-13) pair off among themselves,
    each value with its ``mates``; Kings go alone when ``lone_king``. ``pairable`` says
    whether two such cards may pair at all (a pool, or the waste, that can pair with
    itself). Raises ``_GiveUp`` for a pairing table this count cannot settle (a value with
    several mates), so the caller answers "not proved lost".

    >>> mates = [[]] + [[13 - v] for v in range(1, 13)] + [[]]
    >>> _pairs_off([0, 1] + [0] * 10 + [1, 0], mates, True, True)  # an Ace and a Queen
    True
    >>> _pairs_off([0, 2] + [0] * 10 + [1, 0], mates, True, True)
    False
    """
    for v in range(1, 14):
        c = cnt[v]
        if not c or (v == KING and lone_king):
            continue
        if not pairable:
            return False
        ms = mates[v]
        if len(ms) == 1 and ms[0] == v:
            if c % 2:
                return False
        elif len(ms) == 1 and list(mates[ms[0]]) == [v] and not (lone_king and KING in (v, ms[0])):
            if cnt[ms[0]] != c:
                return False
        else:
            raise _GiveUp
    return True


def _value_pairs(rules: RuleSet) -> tuple[list[list[bool]], list[list[int]]]:
    """Which values pair under ``rules`` (``table[a][b]`` for values 1-13; row and column 0
    for "no card") and each value's partners.

    >>> from pyramid_widget.engine.rules import get_rules
    >>> table, mates = _value_pairs(get_rules("medium"))
    >>> table[6][7], table[6][6], mates[1], mates[13]
    (True, False, [12], [])
    """
    table = [
        [rules.pairs(make_card(a, 0), make_card(b, 1)) if a and b else False for b in range(14)]
        for a in range(14)
    ]
    return table, [[b for b in range(1, 14) if table[a][b]] for a in range(14)]


TableauMoves = tuple[int, list[tuple[int, int, list[int]]], list[int]]
"""What :func:`_tableau_moves` gives for one tableau mask."""


def _tableau_moves(
    model: GeneralModel, value: Sequence[int], table: Sequence[Sequence[bool]], lone: bool
) -> Callable[[int], TableauMoves]:
    """The moves of a tableau mask in the relaxed games (:func:`free_pool`,
    :func:`waste_stack`), cached per mask (a tableau recurs under many pools and wastes):

    - the board after a lone King that pairs with nothing (the first uncovered one, when
      ``lone``), or ``-1``;
    - per uncovered card, in slot order: its value, the board without it, and the boards
      after pairing it with each later uncovered card it pairs with (none where the
      tableau does not pair with itself);
    - the boards after each overlap discard (none without overlap discards).

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("king_tut", pyramid=[None] * 25 + ["KS", "5H", "8C"],
    ...     stock=["2D"])
    >>> model = GeneralModel.from_game(g)
    >>> table, _ = _value_pairs(model.rules)
    >>> value = [rank(c) if c >= 0 else 0 for c in model.cards]
    >>> moves = _tableau_moves(model, value, table, True)
    >>> king, cards, overlaps = moves(model.root[0] & model.tab_all)
    >>> list(_bits(king)), overlaps  # the King of slot 25 goes alone
    ([26, 27], [])
    >>> [(v, list(_bits(rest)), [list(_bits(b)) for b in pairs]) for v, rest, pairs in cards]
    [(13, [26, 27], []), (5, [25, 27], [[25]]), (8, [25, 26], [])]
    """
    cache: dict[int, TableauMoves] = {}
    tab_tab = model.zok[0][0]
    overlap, cover = model.overlap, model.cover_mask

    def moves(tab: int) -> TableauMoves:
        hit = cache.get(tab)
        if hit is not None:
            return hit
        unc = list(_bits(model.uncovered(tab)))
        king = next((tab & ~(1 << p) for p in unc if value[p] == KING), -1) if lone else -1
        cards = [
            (
                value[p],
                tab & ~(1 << p),
                [tab & ~(1 << p | 1 << q) for q in unc[i + 1 :] if table[value[p]][value[q]]]
                if tab_tab
                else [],
            )
            for i, p in enumerate(unc)
        ]
        overlaps = (
            [
                tab & ~(1 << p | 1 << q)
                for p, q in _overlap_pairs(tab, cover)
                if table[value[p]][value[q]]
            ]
            if overlap
            else []
        )
        out = cache[tab] = (king, cards, overlaps)
        return out

    return moves


def _pool_counter(value: Sequence[int], tableau: int) -> Callable[[int], int]:
    """``pool_of(board)``: the relaxed games' pool counts (4 bits a value, as in
    :func:`free_pool`) of the cards of ``board`` off the tableau (slots from ``tableau``
    on), counted a value at a time by masks rather than card by card.

    >>> pool_of = _pool_counter([0, 5, 5, 8, 13], 1)
    >>> pool_of(0b11110) == 2 << 4 * 5 | 1 << 4 * 8 | 1 << 4 * 13
    True
    """
    masks = [
        (4 * v, _mask([s for s in range(tableau, len(value)) if value[s] == v]))
        for v in range(1, 14)
    ]

    def pool_of(board: int) -> int:
        pool = 0
        for shift, mask in masks:
            pool += (board & mask).bit_count() << shift
        return pool

    return pool_of


def free_pool_wins(model: GeneralModel) -> bool:
    """Whether the root can be won in the free-pool game (see :func:`free_pool`).

    >>> from pyramid_widget.engine.game import Game
    >>> [free_pool_wins(GeneralModel.from_game(Game("triangle", deal=n))) for n in (0, 3)]
    [True, False]
    """
    return free_pool(model)(model.root)


def free_pool(model: GeneralModel) -> Callable[[State], bool]:
    """A test of positions: whether the game can be won when every deck and reserve card may be played at any
    time (rule ``g-free-pool``): only the tableau keeps its covering, the *pool* of other
    cards is a count per value.

    Soundness: a winning line's removals stay legal in the relaxed game (a pool card is
    always available there; pool cards pair with tableau cards where a deck or reserve zone
    pairs with the tableau, and with each other where any two of them could ever meet), in
    the same order; so no relaxed win means no win. With every card to go, the pool cards
    the tableau leaves must pair among themselves: per pairing component of two values,
    as many of one as of the other; one value pairing with itself, an even count (Kings
    that go alone aside). The relaxation is used only where every component is of that
    kind (not under adjacent ranks), with no free cell, and it gives up (proving nothing)
    past :data:`FREE_POOL_LIMIT` positions.
    """
    rules, cards = model.rules, model.cards
    n = model.tableau
    table, mates = _value_pairs(rules)
    #: per value, the pool counts' unit of each partner value (4 bits a value: two decks hold
    #: 8 cards of a value at most)
    units = [[1 << 4 * b for b in mates[a]] for a in range(14)]
    z = model.zok
    deck_zones = [2, 3] if model.stock_top else [2]
    pool_zones = ([1] if model.reserve_piles else []) + (
        deck_zones if model.deck_hi > model.deck_lo else []
    )
    pool_tab = any(z[0][q] for q in pool_zones)
    two_tops = (model.piles_n > 1 and z[2][2]) or (model.stock_top and z[2][3]) or model.waste_pair
    pool_pool = (
        any(z[a][b] for a in pool_zones for b in pool_zones if not (a == b == 2)) or two_tops
    )
    lone_king = rules.kings_alone
    lone = lone_king and not mates[KING]
    win_all = rules.win == "all"
    value = [rank(c) if c >= 0 else 0 for c in cards]
    tab_all = model.tab_all
    moves_of = _tableau_moves(model, value, table, lone)
    pool_of = _pool_counter(value, n)
    seen: set[int] = set()
    won: set[int] = set()
    spent = [0]

    def pool_clears(pool: int) -> bool:
        """Whether the pool cards (counts, 4 bits a value) can pair among themselves."""
        return _pairs_off([pool >> 4 * v & 15 for v in range(14)], mates, lone_king, pool_pool)

    def wins(tab: int, pool: int) -> bool:
        if not tab:
            return not win_all or pool_clears(pool)
        key = tab | pool << n
        if key in seen:
            return False
        if key in won:
            return True
        spent[0] += 1
        if spent[0] > FREE_POOL_LIMIT:
            raise _GiveUp
        king, tab_cards, overlaps = moves_of(tab)
        if king >= 0:  # a lone King goes at once (it pairs with nothing it needs)
            return wins(king, pool)
        for v, rest, pairs in tab_cards:
            if lone_king and v == KING and wins(rest, pool):
                return True
            for after in pairs:
                if wins(after, pool):
                    return True
            if pool_tab:
                for unit in units[v]:
                    if pool & 15 * unit and wins(rest, pool - unit):
                        return True
        for after in overlaps:
            if wins(after, pool):
                return True
        seen.add(key)
        return False

    if model.cells_n or model.root[3]:
        return lambda state: True

    def check(state: State) -> bool:
        if spent[0] > FREE_POOL_LIMIT:
            return True  # given up: proves nothing
        board = state[0]
        pool = pool_of(board)
        tab = board & tab_all
        try:
            ok = wins(tab, pool)
        except (_GiveUp, RecursionError):
            spent[0] = FREE_POOL_LIMIT + 1
            return True
        if ok:
            won.add(tab | pool << n)
        return ok

    return check


# -- the waste-stack relaxation (last pass) ------------------------------------------------

WASTE_STACK_STEPS = 1000
"""Relaxed positions one question to :func:`waste_stack` may search before it gives up
(then it proves nothing for that position)."""

WASTE_STACK_MEMO = 1_000_000
"""The most relaxed positions :func:`waste_stack` remembers between questions; past it the
memory is cleared before the next question. Unbounded, it held 87 million positions (7.6
GB) after 3.4 million positions of a beam of 6,400 on Double Pyramid's deal 62, whose last
pass asks the question at every position; a 10 s solve stays under half a million."""


def waste_stack(model: GeneralModel) -> Callable[[State], bool] | None:
    """A test of positions on the last pass: whether the game can be won when the *stock*
    cards may be played at any time (a count per value) but the tableau keeps its covering
    and the waste its order (rule ``g-waste-stack``); ``None`` when the rule does not apply.

    The relaxed game: the waste as it is now is a stack (only its top plays; under the
    waste pair the top may also go with the card beneath it); a *pool* card (one of the
    stock) pairs with an uncovered tableau card where the waste or the stock top pairs with
    the tableau, with the waste top where a drawn card could meet it (the waste pair, or
    the stock top with the waste top), and with another pool card likewise (settled at the
    end by counts, as in :func:`free_pool`); Kings that go alone go alone.

    Soundness (no redeal left, one waste pile, no reserve, no free cell): take a winning
    line. A card drawn from the stock from now on lands on the waste *above* every card
    there now, so a card of today's waste leaves only once every card of today's waste
    above it is gone (or with the one above it, under the waste pair), which is the relaxed
    stack's order; a drawn card, while it plays, is a pool card: it meets an uncovered
    tableau card, today's waste top (lying directly on it or as stock top against waste
    top), or another drawn card, each allowed for pool cards just where the real game
    allows it. The tableau's covering is the real one. So the line's removals, in the same
    order, are a relaxed win (pool pairs left to the end), and no relaxed win means no win.
    The relaxation gives up (proving nothing) past :data:`WASTE_STACK_STEPS` positions a
    question, and where pool cards would have to pair in a component of more than two
    values.

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("thirteen", pyramid=[None] * 26 + ["5H", "8C"], stock=[],
    ...     wastes=[["8D", "5S", "9S"]])
    >>> check = waste_stack(GeneralModel.from_game(g))
    >>> check is not None and check(GeneralModel.from_game(g).root)
    False
    """
    rules, cards = model.rules, model.cards
    if (
        model.passes is None
        or model.cells_n
        or model.reserve_piles
        or model.piles_n != 1
        or model.deck_hi == model.deck_lo
        or model.root[3]
    ):
        return None
    n = model.tableau
    table, mates = _value_pairs(rules)
    #: per value, the pool counts' unit of each partner value (4 bits a value: two decks hold
    #: 8 cards of a value at most)
    units = [[1 << 4 * b for b in mates[a]] for a in range(14)]
    z = model.zok
    stock_top = model.stock_top
    tab_waste = z[0][2]
    pool_tab = z[0][2] or (stock_top and z[0][3])
    pool_waste = model.waste_pair or (stock_top and z[2][3])
    waste_pair = model.waste_pair
    lone_king = rules.kings_alone
    lone = lone_king and not mates[KING]
    win_all = rules.win == "all"
    value = [rank(c) if c >= 0 else 0 for c in cards]
    deck_all = model.deck_all
    pool_of = _pool_counter(value, n)
    shift = len(cards)
    memo: dict[int, bool] = {}
    spent = [0]

    def pool_clears(pool: int) -> bool:
        """Whether the pool cards (counts, 4 bits a value) can pair among themselves."""
        return _pairs_off([pool >> 4 * v & 15 for v in range(14)], mates, lone_king, pool_waste)

    def wins(tab: int, waste: int, pool: int) -> bool:
        if not tab and (not win_all or (not waste and pool_clears(pool))):
            return True
        key = tab | waste | pool << shift
        hit = memo.get(key)
        if hit is not None:
            return hit
        spent[0] += 1
        if spent[0] > WASTE_STACK_STEPS:
            raise _GiveUp
        ok = _moves(tab, waste, pool)
        memo[key] = ok
        return ok

    moves_of = _tableau_moves(model, value, table, lone)

    def _moves(tab: int, waste: int, pool: int) -> bool:
        """Whether some relaxed move leads to a relaxed win (in a fixed order: a lone King
        at once; tableau pairs, which the search generates first, so that its first child
        finds its answer here; each uncovered card with the waste top or the pool; the
        waste top; overlap discards)."""
        top = 1 << (waste.bit_length() - 1) if waste else 0
        below = waste ^ top
        tv = value[top.bit_length() - 1] if top else 0
        king, tab_cards, overlaps = moves_of(tab)
        if lone:  # a King that goes alone goes at once (it pairs with nothing)
            if king >= 0:
                return wins(king, waste, pool)
            if tv == KING:
                return wins(tab, below, pool)
        for _, _, pairs in tab_cards:
            for after in pairs:
                if wins(after, waste, pool):
                    return True
        with_top = tab_waste and top
        for v, rest, _ in tab_cards:
            if lone_king and v == KING and wins(rest, waste, pool):
                return True
            if with_top and table[v][tv] and wins(rest, below, pool):
                return True
            if pool_tab:
                for unit in units[v]:
                    if pool & 15 * unit and wins(rest, waste, pool - unit):
                        return True
        if top:
            if lone_king and tv == KING and wins(tab, below, pool):
                return True
            under = 1 << (below.bit_length() - 1) if below else 0
            pair_below = waste_pair and under and table[tv][value[under.bit_length() - 1]]
            if pair_below and wins(tab, below ^ under, pool):
                return True
            if pool_waste:
                for unit in units[tv]:
                    if pool & 15 * unit and wins(tab, below, pool - unit):
                        return True
        return any(wins(after, waste, pool) for after in overlaps)

    def check(state: State) -> bool:
        board, lo, _piles, _cells, pno, _flag = state
        if pno < model.passes:  # type: ignore[operator]
            return True
        waste = board & deck_all & ((1 << lo) - 1)
        if not waste:
            return True
        pool = pool_of(board >> lo << lo)
        spent[0] = 0
        if len(memo) > WASTE_STACK_MEMO:
            memo.clear()
        try:
            return wins(board & ((1 << n) - 1), waste, pool)
        except (_GiveUp, RecursionError):
            return True

    return check


DECK_ORDER_STEPS = 200_000
"""The most positions one question of rule ``g-deck-order`` may count at the root before it
gives up (proving nothing). Deals 115 and 128 of Double Pyramid are proved lost in 54,000
and 96,000 (0.1-0.3 s); a winnable deck order is usually answered in under a hundred."""

DECK_ORDER_SEARCH_STEPS = 2_000
"""The same in the search, where :class:`Search` asks it of every new board with an empty
waste: with the root's 200,000 one question of Double Pyramid's deal 93 took 25 s. Raised to
10,000, it won 1 of the 14 deals of Double Pyramid's 0-199 unknown at 10 s against 3 (deal 3
searched 71,680 positions in 10 s against 230,975: the longer questions took the time), so it
stays."""

DECK_ORDER_MEMO = 1_000_000
"""The most boards :class:`Search` remembers the rule's answer for; past it the memory is
cleared before the next question (as :data:`WASTE_STACK_MEMO`)."""


def deck_order(
    model: GeneralModel, steps: int = DECK_ORDER_STEPS
) -> Callable[[State], bool] | None:
    """A test of positions: whether the game can be won when the tableau and reserve cards
    may be played at any time (a count per value, the *pool*) but the deck keeps its order
    (rule ``g-deck-order``); ``None`` where the rule does not apply.

    Where every card must go, one waste pile, no free cell: two deck cards leave together
    only as the waste top and the stock top, or the two top waste cards (the waste pair),
    and either way no deck card lies between them in the deck order at that moment (a
    ``first-drawn`` redeal never changes the order). So the deck pairs of a winning line
    never cross: of pairs ``(a, b)`` and ``(c, d)`` with ``a < c < b`` in the deck order,
    ``c`` is gone before ``(a, b)`` leave, so ``(c, d)`` left before, when ``b``, alive and
    between ``c`` and ``d``, kept them apart. Every other deck card goes alone (a King) or
    with a pool card. Hence a win needs a *non-crossing* matching of the deck cards whose
    unmatched cards the pool can take, each pool card once, and the pool left over pairing
    off; with a redeal left that is also enough in the relaxed game (draw to the end,
    redeal, then in one pass: a card of the pool goes as it comes, a first card of a pair
    waits on the waste, a second card finds it on top, every card between being gone), so
    the passes beyond one do not matter. On the last pass without the waste pair the waste
    is a stack already: its cards leave from the top only, with the pool, alone or with an
    arriving stock card.

    The search walks the deck cards in order with the stack of cards waiting for a
    partner: each card pairs with the top, goes with the pool, or waits. It is exact, with
    two sound cuts: the waiting cards (bar the waste's, which the pool may take) need
    partners still to come, top first, as a subsequence; and a question that failed with a
    pool fails with any pool of no more cards of any value (each value pairs with exactly
    one other, so the leftover pool pairs off whatever was used: the counts of the two
    values of a pair, deck and pool together, differ by the same amount all game, and must
    be equal). Kings that go alone are left out: they only ever keep cards apart. It needs
    each value to pair with one other value (or a King to go alone) and gives up
    (proving nothing) past ``steps`` positions.

    >>> from pyramid_widget.engine.game import Game
    >>> lost, won = (GeneralModel.from_game(Game("two_pyramids", deal=d)) for d in (115, 0))
    >>> [deck_order(model)(model.root) for model in (lost, won)]  # type: ignore[misc]
    [False, True]
    """
    rules = model.rules
    if (
        rules.win != "all"
        or model.piles_n != 1
        or model.cells_n
        or model.deck_hi == model.deck_lo
        or model.root[3]
    ):
        return None
    _, mates = _value_pairs(rules)
    lone_king = rules.kings_alone
    partner = [0] * 14
    for v in range(1, 14):
        ms = mates[v]
        if v == KING and lone_king and not ms:
            continue
        if len(ms) != 1 or ms[0] == v or mates[ms[0]] != [v] or (lone_king and KING in ms):
            return None
        partner[v] = ms[0]
    value = [rank(c) if c >= 0 else 0 for c in model.cards]
    deck_all = model.deck_all
    last_stack = model.passes is not None and not model.waste_pair
    goes_alone = [v == KING and lone_king for v in range(14)]

    def check(state: State) -> bool:
        board, lo, _piles, _cells, pno, _flag = state
        cnt = [0] * 14
        pool = [0] * 14
        for s in _bits(board & ~deck_all):
            pool[value[s]] += 1
            cnt[value[s]] += 1
        waste: list[int] = []
        seq: list[int] = []
        last = last_stack and pno >= model.passes  # type: ignore[operator]
        for s in _bits(board & deck_all):
            v = value[s]
            cnt[v] += 1
            if not goes_alone[v]:
                (waste if last and s < lo else seq).append(v)
        if any(cnt[v] != cnt[partner[v]] for v in range(1, 14) if partner[v]):
            return True  # the leftover pool could not pair off: other rules say so
        try:
            return _deck_matching(seq, tuple(waste), tuple(pool), partner, steps)
        except _GiveUp:
            return True

    return check


def emptied_order(model: GeneralModel) -> Callable[[State], bool] | None:
    """Rule ``g-deck-order`` as the search asks it (see :class:`Search`): of a position whose
    waste is empty only (the start of a pass, or a waste cleared), at most
    :data:`DECK_ORDER_SEARCH_STEPS` steps a question, the answer remembered by board. With
    the waste empty the answer depends on the board alone: every deck card left is then in
    the stock, in the deck's order, whatever the pass. ``None`` where the rule does not apply.

    Asked only there, it is cheap (boards with an empty waste are few) and strong: on
    Double Pyramid's deal 62, nearly every board with an empty waste a search met (over two
    million) was proved lost by it; a plain depth-first search there found 675 of 435,901
    questions stopped by the cap, most proved lost in 2,300 steps, which let it into pass 2.
    Measured at 3 s a deal, Double Pyramid's deals 0-99 and 100-199: 82 and 81 won against
    78 and 73 without it, the losses the same; Triangle's deals 0-99 in 1.2 s against 7.7 s.
    Asked of every new board instead, the beams slowed so much that 52 of deals 0-99 were
    won.

    >>> from pyramid_widget.engine.game import Game
    >>> model = GeneralModel.from_game(Game("triangle", deal=279))
    >>> ask = emptied_order(model)
    >>> ask(model.root)  # type: ignore[misc]  # the deck's order loses it
    False
    >>> ask(Generator(model)._draw(model.root))  # type: ignore[misc]  # a card drawn: not asked
    True
    """
    check = deck_order(model, DECK_ORDER_SEARCH_STEPS)
    if check is None:
        return None
    deck_all = model.deck_all
    memo: dict[int, bool] = {}

    def ask(state: State) -> bool:
        board, lo = state[0], state[1]
        if board & deck_all & ((1 << lo) - 1):
            return True  # the waste holds cards: not asked
        known = memo.get(board)
        if known is None:
            if len(memo) > DECK_ORDER_MEMO:
                memo.clear()
            known = memo[board] = check(state)
        return known

    return ask


def _deck_matching(
    seq: Sequence[int],
    waste: tuple[int, ...],
    pool: tuple[int, ...],
    partner: Sequence[int],
    limit: int = DECK_ORDER_STEPS,
) -> bool:
    """Whether the deck values ``seq`` (in order), after a waste stack ``waste`` (bottom
    first), can all go in one pass: a card pairs with the top of the stack, goes with a pool
    card of its partner value (``pool``: counts per value), or waits on the stack; a waste
    card on top may also go with the pool (see :func:`deck_order`); past ``limit`` steps it
    raises ``_GiveUp``.

    >>> partner = [0] + [13 - v for v in range(1, 13)] + [0]
    >>> none = (0,) * 14
    >>> _deck_matching([5, 4, 9, 8], (), none, partner)  # (5 (4 9) 8): nested
    True
    >>> _deck_matching([5, 4, 8, 9], (), none, partner)  # 5-8 and 4-9 cross
    False
    >>> four_nine = tuple(int(v in (4, 9)) for v in range(14))  # a 4 and a 9 in the pool
    >>> _deck_matching([5, 4, 8, 9], (), four_nine, partner)  # (5 8), 4 and 9 with the pool
    True
    >>> _deck_matching([9, 5, 8], (4,), none, partner)  # the waste 4 meets the 9 first
    True
    >>> _deck_matching([5, 9, 8], (4,), none, partner)  # the 5 covers the waste 4
    False
    """
    return _Matching(seq, partner, limit).go(0, tuple(waste), len(waste), pool)


class _Matching:
    """The search of :func:`_deck_matching`, as methods rather than a closure that calls
    itself: such a closure is a reference cycle, and its tables would wait for the cyclic
    collector, which a search pauses (asked at every pass, that made a 10 s solve of Double
    Pyramid grow to 1.1 GB)."""

    def __init__(self, seq: Sequence[int], partner: Sequence[int], limit: int) -> None:
        n = self.n = len(seq)
        self.seq, self.partner, self.limit, self.steps = seq, partner, limit, 0
        # after[i][v]: the first place from i on holding value v (n if none)
        after = [[n] * 14 for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            row = after[i + 1][:]
            row[seq[i]] = i
            after[i] = row
        self.after = after
        self.failed: dict[tuple[int, tuple[int, ...], int], list[tuple[int, ...]]] = {}

    def go(self, i: int, stack: tuple[int, ...], w: int, pool: tuple[int, ...]) -> bool:
        """Whether the cards from ``i`` on can go, with ``stack`` waiting (its first ``w``
        the waste's) and ``pool`` left."""
        n, after, partner, go = self.n, self.after, self.partner, self.go
        if i == n and not stack:
            return True
        j = i  # the waiting cards above the waste need partners to come, top first
        for v in reversed(stack[w:]):
            j = after[j][partner[v]] + 1
            if j > n:
                return False
        key = (i, stack, w)
        seen = self.failed.get(key)
        if seen is not None and any(all(map(int.__le__, pool, q)) for q in seen):
            return False
        self.steps += 1
        if self.steps > self.limit:
            raise _GiveUp
        top = stack[-1] if stack else 0
        waste_top = w == len(stack) and top and pool[partner[top]]
        if waste_top and go(i, stack[:-1], w - 1, _less(pool, partner[top])):
            return True  # a waste card went with the pool
        if i < n:
            v = self.seq[i]
            if top and partner[v] == top and go(i + 1, stack[:-1], min(w, len(stack) - 1), pool):
                return True
            if pool[partner[v]] and go(i + 1, stack, w, _less(pool, partner[v])):
                return True
            if go(i + 1, (*stack, v), w, pool):
                return True
        self.failed.setdefault(key, []).append(pool)
        return False


def _less(pool: tuple[int, ...], v: int) -> tuple[int, ...]:
    """``pool`` with one card of value ``v`` fewer."""
    out = list(pool)
    out[v] -= 1
    return tuple(out)


# -- the searches ------------------------------------------------------------------------


@dataclass
class Search:
    """What the searches of :func:`decide` share: the model, its move generator and the
    dead-end tests (``relaxed``: rule ``g-free-pool``, asked after a tableau removal;
    ``stacked``: rule ``g-waste-stack`` where it applies, asked at every position;
    ``ordered``: rule ``g-deck-order`` where it applies, asked at the root; ``emptied``:
    the same rule asked of every position with an empty waste, see :func:`emptied_order`.
    Asked instead of every position a beam keeps, at most 300 steps a question, the rule
    won 79 of Double Pyramid's deals 0-99 at 3 s against 78, for 58% more time).

    >>> from pyramid_widget.engine.game import Game
    >>> search = Search.of(GeneralModel.from_game(Game("anubis", deal=0)))
    >>> search.relaxed(search.model.root), search.stacked is None  # three waste piles
    (True, True)
    """

    model: GeneralModel
    gen: Generator
    relaxed: Callable[[State], bool]
    stacked: Callable[[State], bool] | None
    ordered: Callable[[State], bool] | None
    emptied: Callable[[State], bool] | None

    @classmethod
    def of(cls, model: GeneralModel) -> Search:
        """The generator and the tests of ``model``."""
        return cls(
            model,
            Generator(model),
            free_pool(model),
            waste_stack(model),
            deck_order(model),
            emptied_order(model),
        )

    def drops(self, state: State, bits: int, *, pool: bool = True) -> bool:
        """Whether a dead-end test proves ``state`` lost, reached by a move that removed
        the slots ``bits`` (none for a draw, a redeal or a cell move); ``pool=False`` leaves
        out the free-pool test (:func:`_beam` asks it only of the positions it keeps)."""
        if bits and (
            self.gen.dead(state, bits)
            or (pool and bits & self.model.tab_all and not self.relaxed(state))
        ):
            return True
        if self.stacked is not None and not self.stacked(state):
            return True
        return self.emptied is not None and not self.emptied(state)


def decide(model: GeneralModel, budget: Budget) -> Result:
    """Decide whether the root can be won; a winning line if so.

    The dead-end tests at the root first (rules ``g-reach``, ``g-hall``, ``g-free-pool``,
    ``g-waste-stack``, ``g-deck-order``),
    then for two decks beam searches for a win (:func:`_beam`, widths
    :data:`BEAM_WIDTHS`), each followed by as many positions of searches with the moves in
    shuffled orders (fixed seeds, so the
    answer is reproducible), search ``i`` stopped after ``RESTART_UNIT * luby(i + 1)``
    positions (:data:`RESTART_UNIT`; Luby's sequence 1, 1, 2, 1, 1, 2, 4, ...): with 59
    cards to deal three times an early choice can cost a search that never ends where
    another order wins at once, and short searches find those orders. Only a search that
    finishes gives a verdict, so a search cut off proves nothing; the limits grow without
    end, so some search finishes within any finite tree. With unlimited passes (rule
    ``g-cycle``) shuffled searches (:data:`CYCLE_RESTARTS`) come first for one deck too,
    then one in the generator's order to the end of the budget; they share what they
    proved lost (rule ``g-cycle-lost``, see :func:`_dive`), so a lost deal pays for them
    only the positions still open when each was cut off."""
    root = model.root
    if model.is_win(root):
        return Result(True, [], 1)
    if model.is_dead(root):
        return Result(False, [], 1)
    search = Search.of(model)
    relaxed, stacked, ordered, gen = search.relaxed, search.stacked, search.ordered, search.gen
    if (
        not relaxed(root)
        or (stacked is not None and not stacked(root))
        or (ordered is not None and not ordered(root))
    ):
        return Result(False, [], 1)
    if budget.node_limit < 1:
        budget.out = True
        return Result(None, [], 0)
    nodes = 0
    lost: set[object] | None = set() if gen.cycles else None
    caps: Iterator[int] = iter(())  # the shuffled searches' limits, in order
    if model.rules.decks > 1:  # without end: the last search below is never reached
        caps = (RESTART_UNIT * luby(i) for i in itertools.count(1))
    elif gen.cycles:
        caps = itertools.repeat(CYCLE_RESTARTS[1], CYCLE_RESTARTS[0])
    beams = iter(BEAM_WIDTHS if model.rules.decks > 1 else ())
    due = nodes  # the shuffled searches run until ``due``, then the next beam, if any
    for seed, cap in enumerate(caps):
        if nodes >= due:
            width = next(beams, None)
            if width is not None:
                before = nodes
                result = _beam(search, budget, nodes, width)
                nodes = result.nodes
                if result.found is not None or budget.out:
                    return result
                due = nodes + (nodes - before)
        rng = random.Random(seed)
        result = _dive(search, budget, nodes, cap, rng, lost)
        nodes = result.nodes
        if result.found is not None or budget.out:
            return result
    return _dive(search, budget, nodes, None, None, lost)


def _beam(search: Search, budget: Budget, done: int, width: int) -> Result:
    """A beam search for a win, on the clock of draws: ``found`` is True with a winning
    line, or ``None`` (never ``False``: a position the beam drops may be the one that wins).

    Each round takes the positions of the beam, plays every removal reachable from them
    without a draw (each position once), and keeps for the next round, among the positions
    one draw or redeal further on (each position once, the pass number aside, as in rule
    ``transposition``), the ``width`` with the fewest cards that must still go,
    at most one for each tableau board (measured on deals 0-19 of Double Pyramid at a width
    of 300: 13 wins against 7 when one board could fill the beam); where there are fewer
    boards than room, up to :data:`BEAM_FILL` of each. A position the dead-end
    tests prove lost is dropped, as in :func:`_dive`, but the free-pool test (rule
    ``g-free-pool``, which depends only on the cards left) is asked only of a position
    about to be kept for the next round, not after every removal within a round: a
    position it would have dropped there leads only to positions it drops too (removals
    leave the relaxed game no easier), so those are never kept, and the test is asked
    once or twice per kept position instead of on every removal (measured on deals 0-49
    of the four two-deck presets at 10 s: the same or fewer unknown deals, medians 0.22-0.25
    s against 0.26-0.50 s). Nothing here can call a deal lost,
    and a line found is a line of legal moves from the root, so the search only ever finds
    true wins; :func:`decide` alternates it with the searches that can prove a loss.

    >>> from pyramid_widget.engine.game import Game
    >>> model = GeneralModel.from_game(Game("anubis", deal=0))
    >>> result = _beam(Search.of(model), Budget(None, None), 0, 50)
    >>> result.found, len(result.line) > 50
    (True, True)
    """
    model, drops, expand, relaxed = search.model, search.drops, search.gen.expand, search.relaxed
    root, is_win, tab_all = model.root, model.is_win, model.tab_all
    goal = tab_all if model.rules.win == "pyramid" else -1
    limit = budget.node_limit
    nodes = done
    came: dict[object, tuple[object, Step] | None] = {_beam_key(root): None}
    layer: list[tuple[object, State]] = [(_beam_key(root), root)]
    try:
        while layer:
            todo = layer
            later: list[tuple[int, object, State]] = []
            while todo:
                key, state = todo.pop()
                if nodes >= limit:
                    raise OutOfBudget
                nodes += 1
                if is_win(state):
                    return Result(True, _line_back(model, came, key), nodes)
                if not nodes % CHECK_EVERY:
                    budget.check_time()
                for step, nxt, bits in expand(state):
                    nkey = _beam_key(nxt)
                    if nkey in came:
                        continue
                    came[nkey] = (key, step)
                    if drops(nxt, bits, pool=False):
                        continue
                    if step[0] == DRAW or step[0] == REDEAL:
                        later.append((((nxt[0] | nxt[3]) & goal).bit_count(), nkey, nxt))
                    else:
                        todo.append((nkey, nxt))
            later.sort(key=_COUNT)
            layer = []
            kept: set[object] = set()
            boards: dict[int, int] = {}  # tableau board: positions of it kept
            for cap in (1, BEAM_FILL):  # one a board; where boards are fewer than room, more
                for _, nkey, nxt in later:
                    if len(layer) >= width:
                        break
                    tab = nxt[0] & tab_all
                    have = boards.get(tab, 0)
                    if have < cap and nkey not in kept and relaxed(nxt):
                        boards[tab] = have + 1
                        kept.add(nkey)
                        layer.append((nkey, nxt))
    except OutOfBudget:
        budget.out = True
    return Result(None, [], nodes)


def _line_back(
    model: GeneralModel, came: Mapping[Any, tuple[Any, Step] | None], key: Any
) -> list[Move]:
    """The engine moves from the root to ``key``, walking back the ``(key before, move)``
    links of ``came`` to a key it holds as ``None`` or not at all (the root)."""
    steps: list[Step] = []
    back = came.get(key)
    while back is not None:
        key, step = back
        steps.append(step)
        back = came.get(key)
    return [model.to_move(s) for s in reversed(steps)]


_COUNT = itemgetter(0)
"""The sort key of the beam's candidates: the cards still to go."""


def _beam_key(state: State) -> object:
    """The beam's key of a position: :meth:`Generator.key` without the cycle's shared key
    (the beam walks the cycle draw by draw)."""
    board, lo, piles, cells, _pno, flag = state
    return (board, lo, piles, cells, flag)


BEAM_WIDTHS = (100, 400, 1600, 6400, 12800)
"""Two decks: the widths of the beam searches (:func:`_beam`) that :func:`decide` tries in
turn, each followed by shuffled searches of as many positions; after the last, the shuffled
searches alone. The last one was added for Double Pyramid's deals 62 and 65, which 900 s of
the first four and their searches left unknown: one beam of 12,800 wins them, alone, in
179 CPU s (3.1 million positions) and 35 s (1.8 million), and :func:`decide` with it in
942.6 and 112.5 s (8.5 and 5.0 million); one of 25,600 had not finished deal 62 after 30
minutes. A 10 s solve never gets this far."""

BEAM_FILL = 3
"""Two decks: the positions of one tableau board a beam round may keep when there are fewer
boards than the beam's width (late in a deal, when few cards are left in the tableau). Measured
on Double Pyramid deals 0-49, beam alone: at width 100, 29 deals won against 28 with one a
board; at width 400, 39 against 38 (each a superset of the deals won before); 8 a board won
38 at width 400, and 3 a board always, 15 at width 100. Since rule ``g-deck-order`` is asked
where the waste is empty it matters less: deals 0-99 at width 100, 57 won against 58 with one
a board (Double Pyramid), 75 against 74 (Two Pyramids), 68 against 68 (Up and Down); kept."""

RESTART_UNIT = 200
"""Two decks: the shuffled search number ``i`` (from 0) may count ``RESTART_UNIT *
luby(i + 1)`` positions (see :func:`decide`). Measured on deals 0-19 of the four two-deck
presets at 30,000 positions a deal: a win found for 49 of the 80 deals, against 37 with the
24 searches of 2,000 positions and the unbounded one that came before; a unit of 100 found
27 of deals 0-9 (200: 30), one of 400 found 18 of deals 10-19 (200: 19); moves kept nearly in
the generator's order (a little shuffling) found 21 and 34 of the 80."""
CYCLE_RESTARTS = (48, 4000)
"""Shuffled searches and the positions each may count, one deck with unlimited passes
(King Tut's deal 115 from 7.5 s to 3 s against 24 of 2000; with rule ``g-cycle-lost`` a
lost deal pays only the positions left open)."""


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of Luby's restart sequence.

    >>> [luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    while True:
        k = i.bit_length()  # the smallest k with 2**k - 1 >= i
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1  # the sequence so far, once more


def _dive(
    search: Search,
    budget: Budget,
    done: int,
    cap: int | None,
    rng: random.Random | None,
    lost: set[object] | None = None,
) -> Result:
    """One depth-first search with a transposition table (an earlier pass dominates a later
    one: rule ``transposition``); ``found`` is ``None`` when the budget or ``cap`` ran out.
    ``done`` positions were counted before; ``rng`` shuffles the moves. The dead-end tests
    of ``search`` are asked as :class:`Search` says.

    ``lost`` (rule ``g-cycle-lost``, only where rule ``g-cycle`` applies): keys of positions
    proved lost, skipped, and those this search proves lost are added. Soundness: under
    rule ``g-cycle`` every successor removes a card, but the one step from a position off
    its board's cycle onto the cycle (which then removes a card next), so no position comes
    round again; a position whose moves were all searched to their end is then lost (each
    successor was dropped by a sound test or a move choice that keeps a win, already
    proved lost, searched to its end, or met before in this search, which, with no path
    coming round, means searched to its end). Positions still open when a search is cut off
    are not recorded."""
    model, gen, drops = search.model, search.gen, search.drops
    root = model.root
    expand, is_win, key_of = gen.cycle, model.is_win, gen.key
    if rng is not None:
        shuffle = rng.shuffle

        def expand(state: State) -> list[tuple[Any, State, int]]:
            out = gen.cycle(state)
            shuffle(out)
            return out

    best: dict[object, int] = {key_of(root): root[4]}
    limit = budget.node_limit
    if done >= limit:
        budget.out = True
        return Result(None, [], done)
    stack = [expand(root)[::-1]]
    trail = [key_of(root)]
    path: list[Any] = []  # moves, and runs of moves (rule ``g-cycle``)
    nodes = done + 1
    stop = done + cap if cap is not None else 1 << 62
    try:
        while stack:
            frame = stack[-1]
            if not frame:
                stack.pop()
                done_with = trail.pop()
                if lost is not None:
                    lost.add(done_with)
                if path:
                    path.pop()
                continue
            move, nxt, bits = frame.pop()
            pno = nxt[4]
            key = key_of(nxt)
            old = best.get(key)
            if old is not None and old <= pno:
                continue
            best[key] = pno
            if lost is not None and key in lost:
                continue
            if drops(nxt, bits):
                continue
            if nodes >= limit:
                raise OutOfBudget
            nodes += 1
            path.append(move)
            if is_win(nxt):
                steps = [s for mv in path for s in (mv if isinstance(mv[0], tuple) else (mv,))]
                return Result(True, [model.to_move(s) for s in steps], nodes)
            if not nodes % CHECK_EVERY:
                budget.check_time()
            if nodes >= stop:
                return Result(None, [], nodes)
            trail.append(key)
            stack.append(expand(nxt)[::-1])
    except OutOfBudget:
        budget.out = True
        return Result(None, [], nodes)
    return Result(False, [], nodes)


def lower_bound(model: GeneralModel, state: State) -> int:
    """Moves still needed at least: each removes at most two cards that must go, and a lone
    King with no partner left that it could meet (``GeneralModel.needs``) goes in a move of
    its own (rule ``g-bound``). Where a King may also pair (``sum11``'s King + King, adjacent
    ranks with Kings alone) one move can take two Kings, so a King with a partner left
    counts as half a move like any card. Consistent: one move lowers it by at most one (a
    move takes at most two cards that must go, and a King only ever becomes lonely)."""
    alive = state[0] | state[3]
    must = alive & (model.tab_all if model.rules.win == "pyramid" else ~0)
    alone = must & model.lone
    if alone and model.kings_pair:
        rest, alone = alone, 0
        while rest:
            low = rest & -rest
            rest ^= low
            if not model.needs[low.bit_length() - 1] & alive:
                alone |= low
    return alone.bit_count() + ((must & ~alone).bit_count() + 1) // 2


def fewest(model: GeneralModel, budget: Budget, ceiling: int) -> Result:
    """A* for a line of fewest moves, knowing one of ``ceiling`` moves exists. The pass
    number is part of the key (no dominance across passes: a later-pass position reached
    in fewer moves may still be the better one).

    A rule set of the classic shape that the general search decides (King Tut, Traditional:
    see :func:`fits_classic`) gets the classic model's A* instead, which knows that shape
    better (its bounds and macro moves): from King Tut's deal 0 it proves a line of 59
    moves shortest where this one gives up."""
    rules = model.rules
    if model.position is not None and rules.classic_shape and rules.pairing in CLASSIC_PAIRS:
        return _classic_fewest(model.position, rules, budget, ceiling)
    root = model.root
    gen = Generator(model, shortest=True)
    cost: dict[State, int] = {root: 0}
    parent: dict[State, tuple[State, Step]] = {}
    tie = itertools.count()
    queue = [(lower_bound(model, root), 0, next(tie), root)]
    nodes = 0
    limit = budget.node_limit
    try:
        while queue:
            _f, g, _, state = heapq.heappop(queue)
            if g > cost.get(state, g):
                continue
            if model.is_win(state):
                return Result(True, _line_back(model, parent, state), nodes)
            if nodes >= limit:
                raise OutOfBudget
            nodes += 1
            if not nodes % CHECK_EVERY:
                budget.check_time()
            for move, nxt, bits in gen.expand(state):
                ng = g + 1
                if ng >= cost.get(nxt, ng + 1):
                    continue
                if bits and gen.dead(nxt, bits):
                    continue
                nf = ng + lower_bound(model, nxt)
                if nf > ceiling:
                    continue
                cost[nxt] = ng
                parent[nxt] = (state, move)
                heapq.heappush(queue, (nf, ng, next(tie), nxt))
    except OutOfBudget:
        budget.out = True
        return Result(None, [], nodes)
    return Result(False, [], nodes)


def _classic_fewest(position: Position, rules: RuleSet, budget: Budget, ceiling: int) -> Result:
    """The classic model's fewest-moves search (as :func:`pyramid_widget.solver.solve` runs
    it for the rule sets it keeps) on an engine position."""
    from pyramid_widget.solver.model import Model
    from pyramid_widget.solver.shortest_macro import macro_a_star
    from pyramid_widget.solver.shortest_moves import a_star

    classic = Model.from_position(rules, position).for_shortest()
    if classic.macro:
        return macro_a_star(classic, budget, ceiling)
    return a_star(classic, budget, ceiling)


# -- the exact search on engine positions (by-pile redeals) ------------------------------


def engine_key(game: Game) -> tuple[object, ...]:
    """What the engine shows of a position, enough to tell positions apart."""
    pos = game.position
    rules = game.rules
    return (
        tuple(pos.pyramid),
        tuple(tuple(p) for p in getattr(pos, "reserves", [])),
        tuple(pos.stock),
        tuple(tuple(w) for w in pos.wastes),
        tuple(sorted(c for c in pos.cells if c is not None)),
        pos.pass_number if rules.passes is not None else 0,
        pos.pass_removed if rules.stall_rule else False,
    )


def engine_search(game: Game, budget: Budget, *, shortest: bool) -> Result:
    """Search engine positions (breadth first for ``shortest``, else depth first) with a
    table of seen positions: no encoding, no pruning, so exact for any rule set."""
    start = game.copy()
    seen = {engine_key(start)}
    nodes = 0
    limit = budget.node_limit
    frontier: deque[tuple[Game, list[Move]]] = deque([(start, [])])
    pop = frontier.popleft if shortest else frontier.pop
    try:
        while frontier:
            current, line = pop()
            if nodes >= limit:
                raise OutOfBudget
            nodes += 1
            if not nodes % 64:
                budget.check_time()
            moves = list(current.legal_moves)
            for move in moves if shortest else reversed(moves):
                nxt = current.copy()
                nxt.play(move)
                if nxt.status.value == "won":
                    return Result(True, [*line, move], nodes)
                key = engine_key(nxt)
                if key not in seen and not nxt.is_over:
                    seen.add(key)
                    frontier.append((nxt, [*line, move]))
    except OutOfBudget:
        budget.out = True
        return Result(None, [], nodes)
    return Result(False, [], nodes)
