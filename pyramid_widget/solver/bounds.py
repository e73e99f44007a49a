"""Bounds for shortest mode that look at the *order* in which the pyramid can be cleared.

A pyramid card leaves in a move of its own unless it goes with another pyramid card, and
two pyramid cards can only go together when both are uncovered at the same moment. The
plain removal bound (:func:`~pyramid_widget.solver.search.lower_bound`, and the matching of
:meth:`~pyramid_widget.solver.shortest_macro.Tables.pyramid`) lets any two cards that
neither cover the other pair; but pairs that are each possible alone may exclude one
another: if ``p1`` covers ``q2`` and ``p2`` covers ``q1``, the pair ``p1 + q1`` must come
after ``p2`` is gone and the pair ``p2 + q2`` after ``p1`` is gone. :class:`PairTable`
counts the most pyramid pairs an actual clearing order can make.

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> # 5H (position 1) covers 8C (3), and 5S (2) covers 8S (5): 5H+8S and 5S+8C each work
>>> # alone, but not both (5H+8S needs 5S gone, 5S+8C needs 5H gone)
>>> g = Game.from_position("relaxed", pyramid=[None, "5H", "5S", "8C", "AD", "8S"] + [None] * 22,
...                        stock=["8D", "8H"])
>>> model = Model.from_game(g)
>>> PairTable(model).pairs(model.root[0] & PYRAMID_ALL)
1
"""

from __future__ import annotations

from pyramid_widget.engine.cards import rank
from pyramid_widget.solver.model import (
    PYRAMID_ALL,
    UNCOVERED,
    Model,
    slots_of,
    uncovered,
    union_of,
)

LOST = 1 << 20
"""What :meth:`PairedBound.bound` adds when a pyramid card can never get a partner."""

NONE: tuple[int, int, tuple[int, int, int]] = (0, 0, (0, 0, 0))
"""What :meth:`PassReach.late` answers when no card is late."""

WIDE = 1 << 15
"""How many positions :meth:`PairTable.pairs` may remember before it gives up on exactness
and answers with an upper bound instead (pyramids of a deal have at most 1430 shapes; a
hand-made pyramid full of gaps can have millions)."""


class PairTable:
    """The most pyramid pairs (two pyramid cards removed in one move) that any line can
    still make from a pyramid, by a memoised search over the orders the pyramid can be
    cleared in.

    The search plays a relaxed game on the pyramid cards alone: take away one uncovered
    card (as if a deck card took it), or two uncovered cards that pair and could ever meet
    (``Model.needs``), until the pyramid is empty; it returns the most pairs of any such
    game. Every line of the real game clears the pyramid by exactly such steps (a pyramid
    card leaves only uncovered, alone, with a deck card, or with another uncovered pyramid
    card), so the number of pyramid pairs in any line is at most this; and so a line
    removes at least ``n - pairs`` times to clear ``n`` pyramid cards.

    Uncovered means no card of the pyramid covers it through a chain of cards
    (``Model.chains``, taken at the model's root): while both ends of such a chain are in
    the pyramid, every card of the chain is too (a card covering another must go first), so
    the root's chains stay right for every position reached from it, gaps included.

    Two shortcuts keep it small. A card with no mate left in the pyramid can never be in a
    pair: it is dropped (taking it as early as possible only frees cards sooner; chains
    are transitive, so dropping it keeps every other order). And when the memo passes
    :data:`WIDE` entries, a pyramid not yet remembered gets the plain upper bound (its
    cards with a mate, halved), still at least the true answer.

    ``classes``: count pairs within each rank class {r, 13 - r} separately (sum-13
    pairing: a pair never mixes classes), which is at least the joint answer and much
    cheaper; else over the whole pyramid.
    """

    def __init__(self, model: Model, *, classes: bool | None = None) -> None:
        self.before = model.chains
        """``before[slot]``: the pyramid cards that must go before the slot's card."""
        self.mates = [m & PYRAMID_ALL for m in model.needs[: len(model.chains)]]
        """``mates[slot]``: the pyramid cards it could ever be removed with."""
        sum13 = model.rules.pairing == "sum13"
        self.split = sum13 if classes is None else classes and sum13
        self.class_list = [m & PYRAMID_ALL for m in model.class_list]
        self.memo: dict[int, int] = {0: 0}

    def pairs(self, pyr: int) -> int:
        """The most pyramid pairs a line can still make from the pyramid mask ``pyr``."""
        if self.split:
            return sum(self.best(pyr & m) for m in self.class_list if pyr & m)
        return self.best(pyr)

    def best(self, present: int) -> int:
        """:meth:`pairs` over the cards ``present`` (a pyramid mask, or part of one that
        is closed under covering chains among its own cards)."""
        memo = self.memo
        hit = memo.get(present)  # (a remembered mask has no card to drop)
        if hit is not None:
            return hit
        mates = self.mates
        rest = present
        while rest:  # drop the cards without a mate among ``present``
            low = rest & -rest
            rest ^= low
            if not mates[low.bit_length() - 1] & present:
                present ^= low
        hit = memo.get(present)
        if hit is not None:
            return hit
        if len(memo) >= WIDE:
            return present.bit_count() // 2
        before = self.before
        free = 0  # the uncovered cards of ``present``
        rest = present
        while rest:
            low = rest & -rest
            rest ^= low
            if not before[low.bit_length() - 1] & present:
                free |= low
        top = present.bit_count() // 2
        result = 0
        rest = free
        while rest and result < top:
            low = rest & -rest
            rest ^= low
            mine = mates[low.bit_length() - 1] & rest  # each pair once: mates after it
            while mine and result < top:
                mlow = mine & -mine
                mine ^= mlow
                got = 1 + self.best(present & ~(low | mlow))
                if got > result:
                    result = got
        rest = free
        while rest and result < top:
            low = rest & -rest
            rest ^= low
            got = self.best(present & ~low)
            if got > result:
                result = got
        memo[present] = result
        return result


Lonely = list[tuple[int, tuple[int, ...]]]
"""Per lonely pyramid card (see :func:`lonely_cards`): its deck partners, and those of each
lonely card covering it (:func:`under_lonely`)."""


def lonely_cards(model: Model, pyr: int) -> int:
    """The *lonely* cards of the pyramid mask ``pyr``: those that must go and that no
    pyramid card left could meet (``Model.needs``), so each leaves with a deck card.

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game.from_position("relaxed", pyramid=[None] * 26 + ["5H", "8D"], stock=["8C"])
    >>> model = Model.from_game(g)
    >>> lonely_cards(model, model.root[0] & PYRAMID_ALL)  # 5H and 8D can meet
    0
    """
    needs = model.needs
    lonely = 0
    check = pyr & model.required
    while check:
        low = check & -check
        check ^= low
        if not needs[low.bit_length() - 1] & pyr:
            lonely |= low
    return lonely


def under_lonely(model: Model, lonely: int, *, covered: bool = False) -> Lonely:
    """Per card of the mask ``lonely`` (lonely cards, in slot order): its deck partners, and
    those of each of them covering it (``Model.chains``); with ``covered``, only the cards
    some of them cover.

    >>> from pyramid_widget.engine.game import Game
    >>> # the 5H (slot 20) lies under the QH (26); their partners: the 8C and the AD
    >>> g = Game.from_position("relaxed", pyramid=[None] * 20 + ["5H"] + [None] * 5 + ["QH", None],
    ...                        stock=["8C", "AD"])
    >>> model = Model.from_game(g)
    >>> def show(lonely: Lonely) -> list[tuple[str, list[str]]]:
    ...     return [(bin(mine >> 28), [bin(theirs >> 28) for theirs in above])
    ...             for mine, above in lonely]
    >>> show(under_lonely(model, 1 << 20 | 1 << 26))
    [('0b1', ['0b10']), ('0b10', [])]
    >>> show(under_lonely(model, 1 << 20 | 1 << 26, covered=True))
    [('0b1', ['0b10'])]
    """
    needs, chains = model.needs, model.chains
    return [
        (needs[p] & ~PYRAMID_ALL, tuple(needs[c] & ~PYRAMID_ALL for c in slots_of(over)))
        for p in slots_of(lonely)
        if (over := chains[p] & lonely) or not covered
    ]


class PairedBound:
    """Shortest-mode bound for pairings other than sum 13 (``cheops``: same or adjacent
    rank) under a pyramid-only win, one waste pile and one card a draw: the removals still
    needed (:class:`PairTable`) plus the extra moves spent reaching the dearest deck card
    that some pyramid card needs.

    Removals. Clearing ``n`` pyramid cards with at most ``P`` pyramid pairs takes at least
    ``n - P`` removals. If ``k`` pyramid cards go with deck cards, the pairs are
    ``(n - k) / 2`` and the removals ``(n + k) / 2``: each pyramid card played with a deck
    card beyond the first ``n - 2P`` costs half a move more than ``n - P``.

    Extra moves. A pyramid card none of whose partners that could meet it is in the pyramid
    (a *lonely* card) leaves with one of its deck partners ``d``. Before ``d`` is played, the
    ``u`` cards before it leave the stock (if ``d`` is a stock card: each drawn, or taken
    off the stock top alone or with the waste top, a move each, or with a pyramid card; and
    without stock top play all of them drawn, and ``d`` too) or leave the top of the waste
    above it (a waste card: each with a pyramid card or the stock top, a move each
    otherwise). With ``z`` of them played with pyramid cards (at most the ``y`` that have a
    partner in the pyramid), and ``d`` too, the line spends ``u - z`` moves on them and, by
    the count above, ``(z + 1 - (n - 2P)) / 2`` more removals when that is positive: with
    ``A = n - 2P - 1``, ``u - z + ceil((z - A) / 2)``, least at ``z = y``
    (:func:`_passing`). Without stock top play the ``u`` cards and ``d`` are drawn, a move
    each, and ``d`` costs half a removal more when ``A < 0``. A waste card that has no partner left
    in the pyramid or the stock (but the last card, :func:`last_card`) and is no King
    going alone never leaves before a redeal, so the cards under it are reached after one
    only; a waste card reached after a redeal
    costs at least the redeal. The bound takes the dearest lonely card, each at its
    cheapest partner, so it never exceeds what a winning line spends.

    Partners that come too early (rule ``bound-early-partner``, where the stock top is
    available). The price of a stock partner ``d`` of a lonely card ``p`` has ``d`` played
    from the stock top, so ``p`` must be uncovered when ``d`` comes to the top. Let ``p``
    lie under a lonely card ``c`` (through ``Model.chains``) none of whose deck partners is
    in the waste or in the stock before ``d``. Until ``d`` is the stock top only those
    cards can have been played, and ``c`` leaves only with a deck partner (it is lonely, and
    no King going alone), or with ``d`` itself, which ``p`` then lacks; so ``c`` still
    covers ``p`` and ``d`` leaves the stock by a draw (with any other card it would be gone,
    and ``p`` needs it): one move more than its price, which counts the cards before ``d``
    and its removal but no draw of ``d``. A draw moves one card, so no other card's price
    holds it. A lonely card whose cheapest partners all lie in the stock and all come up so
    early costs one more; it is enough to look at the last of them (whatever ``c`` could
    play before an earlier one it could play before that one).
    """

    def __init__(self, model: Model, early: bool = True) -> None:
        self.model = model
        self.table = PairTable(model, classes=False)
        self.top = model.rules.stock_top_available
        self.early = early and self.top
        """Whether partners that come too early cost their draw (off only for the tests
        that measure the rule against the plain search)."""
        self.passes = model.rules.passes
        self.lone = model.flags.lone_kings
        self.live_zones = model.flags.stock_waste
        self.cache: dict[int, tuple[int, int, Lonely, int, int]] = {}
        """Per pyramid mask: removals, ``A``, each lonely card's deck partners with those of
        the lonely cards covering it (for the early partners, else none), the deck cards
        with a partner in the pyramid and :func:`last_card`."""

    def info(self, pyr: int) -> tuple[int, int, Lonely, int, int]:
        """``(removals, A, lonely, playable, last)`` for the pyramid mask ``pyr`` (see the
        class)."""
        hit = self.cache.get(pyr)
        if hit is None:
            model = self.model
            needs = model.needs
            pairs = self.table.pairs(pyr)
            n = pyr.bit_count()
            lonely = under_lonely(model, lonely_cards(model, pyr))
            if not self.early:
                lonely = [(mates, ()) for mates, _ in lonely]
            playable = 0
            for s in range(model.deck_lo, model.deck_hi):
                if needs[s] & pyr:
                    playable |= 1 << s
            last = last_card(model, pyr)
            hit = self.cache[pyr] = (n - pairs, n - 2 * pairs - 1, lonely, playable, last)
        return hit

    def removals(self, board: int) -> int:
        """The removals still needed."""
        return self.info(board & PYRAMID_ALL)[0]

    def bound(self, board: int, lo: int, pno: int) -> int:
        """Removals still needed plus the extra moves (see the class)."""
        pyr = board & PYRAMID_ALL
        removals, allow, lonely, playable, last = self.info(pyr)
        if not lonely:
            return removals
        deck = board ^ pyr
        stock = deck >> lo << lo
        waste = deck ^ stock
        redeal = waste and (self.passes is None or pno < self.passes)
        stuck = 0  # the waste cards under the highest one stuck till a redeal
        if waste:
            needs, live, lone = self.model.needs, (pyr | stock) & ~last, self.lone
            rest = waste
            while rest:
                s = rest.bit_length() - 1
                rest ^= 1 << s
                if not needs[s] & live and not lone >> s & 1:
                    stuck = rest
                    break
        worst = 0
        dearest: Lonely = []  # the dearest lonely cards whose cheapest partners all lie in
        # the stock, under lonely cards: their stock partners, the covering cards' partners
        top = self.top
        for mates, over in lonely:
            mates &= board
            if not mates:
                return LOST
            # the first stock partner is the cheapest (a later one passes more cards), and
            # the highest waste partner not under a stuck card (a lower one has more above it)
            from_stock = from_waste = LOST
            in_stock = mates & stock
            if in_stock:
                passed = stock & ((in_stock & -in_stock) - 1)
                if top:
                    from_stock = _passing(passed, passed & playable, allow)
                else:
                    from_stock = passed.bit_count() + 1 + (1 if allow < 0 else 0)
            in_waste = mates & waste
            if in_waste:
                free = in_waste & ~stuck
                if free:
                    above = waste & -(1 << free.bit_length())
                    from_waste = _passing(above, above & playable, allow)
                    if redeal and from_waste > 1:
                        from_waste = 1
                elif redeal:
                    from_waste = 1
            best = from_stock if from_stock < from_waste else from_waste
            if best > worst:
                worst, dearest = best, []
            if best == worst and over and from_stock < from_waste:
                dearest.append((in_stock, over))
        if worst < LOST:
            for in_stock, over in dearest:  # partners that come too early (see the class)
                last_one = in_stock & -in_stock  # the last stock partner as cheap as the first
                rest = in_stock ^ last_one
                while rest:
                    low = rest & -rest
                    rest ^= low
                    passed = stock & (low - 1)
                    if _passing(passed, passed & playable, allow) > worst:
                        break
                    last_one = low
                reach = waste | stock & (last_one - 1)
                for theirs in over:
                    if not theirs & board & reach:
                        return removals + worst + 1
        return removals + worst


def _passing(passed: int, playable: int, allow: int) -> int:
    """The fewest extra moves for the cards ``passed`` before a lonely card's partner, of
    which only ``playable`` have a partner in the pyramid, given ``A = allow`` (see
    :class:`PairedBound`): ``u - z + ceil((z - A) / 2)`` (the last term when positive) is
    least at the most ``z`` can be.

    >>> _passing(0b111, 0b000, 0), _passing(0b111, 0b111, 0), _passing(0b111, 0b011, 5)
    (3, 2, 1)
    """
    z = playable.bit_count()
    return passed.bit_count() - z + ((z - allow + 1) // 2 if z > allow else 0)


def last_card(model: Model, pyr: int) -> int:
    """The card of the pyramid mask ``pyr`` that every other one covers through a chain
    (``Model.chains``), as a one-bit mask, or 0 (the apex of a pyramid with no gaps).

    It leaves last: the move that takes it wins. So a waste card ``u`` whose only partner
    left in the pyramid or the stock is that card leaves, if ever, in the winning move, and
    the cards under ``u`` are of no use before a redeal: the bounds treat ``u`` as stuck
    for them (``u`` itself stays a partner of the last card).

    >>> from pyramid_widget.engine.game import Game
    >>> g = Game("relaxed", deal=1)
    >>> last_card(Model.from_game(g), PYRAMID_ALL)
    1
    >>> last_card(Model.from_game(g), 1 << 27 | 1 << 26)
    0
    """
    chains = model.chains
    rest = pyr
    while rest:
        low = rest & -rest
        rest ^= low
        if not pyr & ~low & ~chains[low.bit_length() - 1]:
            return low
    return 0


class PassReach:
    """Which pyramid cards could be uncovered before the current pass ends, and which deck
    cards could leave the board in it (rule ``bound-late-partner``).

    The answer is a superset, found by a relaxed game in which a card once usable stays
    usable. In it a pyramid card may *go* when nothing covers it but cards that may go
    (``Model.chains``: it is then *exposed*) and it is a King that goes alone, or it has a
    partner that could meet it (``Model.needs``) among the exposed pyramid cards or the
    deck cards this pass can reach. Those are the stock cards (each comes to the top of the
    stock in turn) and the waste cards from the top down as long as each can go: it is a
    King going alone or has a partner among the exposed pyramid cards or, where the stock
    top pairs with the waste top, the stock. Partners are counted too: the waste cards of
    one rank gone so far need a partner each, all different, among the exposed pyramid
    cards and the stock cards that could meet one of them (a waste card leaves with its
    partner, so no partner serves two). The first waste card that cannot go is reachable
    too, but nothing under it.

    Why it is a superset: follow a line through the rest of the pass. A pyramid card it
    removes is uncovered then, so every card of its chains went earlier (by induction,
    they may go in the relaxed game); it leaves alone, with an uncovered pyramid card
    (exposed, by the same induction), or with the stock top or the waste top. A waste card
    reaches the top only when every waste card above it has gone, and one pile has one top,
    so each of those went alone, with a pyramid card or with the stock top, each with a card
    of its own: so many cards of one rank need as many partners among the cards that could
    meet one of them and were uncovered by then (the relaxed game's exposed cards at that
    card, or fewer) or in the stock. The relaxed game reaches it too. A deck card that
    leaves in the pass is reachable and goes alone, with an exposed pyramid card or with
    another reachable deck card (``leaving`` of :meth:`late`).

    A pyramid card's deck partners are every deck card of its partner ranks or none
    (``Model.needs``), so the game depends on the deck cards in reach only through their
    ranks: it is cached per pyramid and set of ranks, and :meth:`add` goes on from one set
    to a larger one (the next pass of :meth:`~.shortest_macro.Tables.late` does so as the
    cards come up).

    >>> from pyramid_widget.engine.game import Game
    >>> # the 5H (slot 20) lies under the QH (26) and the 9C (27); the QH can go with the AD
    >>> # of the stock, but the 9C's partner 4S lies in the waste under a JD that has no
    >>> # partner left, so the 5H cannot be uncovered before a redeal
    >>> g = Game.from_position("relaxed", pyramid=[None] * 20 + ["5H"] + [None] * 5 + ["QH", "9C"],
    ...                        stock=["AD"], wastes=[["8C", "4S", "JD"]])
    >>> model = Model.from_game(g)
    >>> late, leaving, _ = PassReach(model).late(model.root[0], model.root[1], 1 << 20 | 1 << 27)
    >>> late == 1 << 20  # the 9C is uncovered already
    True
    >>> from pyramid_widget.engine.cards import card_str
    >>> [card_str(model.cards[s]) for s in range(model.deck_lo, model.deck_hi) if leaving >> s & 1]
    ['AD']
    """

    def __init__(self, model: Model) -> None:
        self.needs = model.needs
        self.lone = model.flags.lone_kings
        self.shared = model.flags.stock_waste
        size = len(model.chains)
        self.rank_bit = [1 << rank(c) if c >= 0 else 0 for c in model.cards]
        """``rank_bit[slot]``: the rank of the slot's card as a one-bit mask."""
        deck = ((1 << model.deck_hi) - 1) & ~PYRAMID_ALL
        self.by_rank = [0] * 15
        """``by_rank[r]``: the pyramid cards with a deck partner of rank ``r``
        (``Model.needs`` keeps a pyramid card's every deck partner or none, so every deck
        card of that rank could go with them)."""
        for p in range(size):
            deck_ranks = union_of(self.rank_bit, self.needs[p] & deck)
            for r in range(15):
                if deck_ranks >> r & 1:
                    self.by_rank[r] |= 1 << p
        self.cache: dict[int, tuple[int, int]] = {}
        """The relaxed game per pyramid and set of ranks within reach (one number)."""
        self.stock_ranks: dict[int, int] = {}
        """The ranks of the cards of a stock, per stock mask."""
        self.slots: dict[int, tuple[int, ...]] = {}
        """The slots of a deck mask, lowest first (:func:`slots_of`; the walks from the top
        take them ``reversed``), for the walks of :meth:`late` and of
        :class:`~.shortest_macro.Tables`: a ``for`` over a tuple instead of peeling off
        one bit at a time (three operations on ints a card, each making a new int). Masks
        repeat: on ``relaxed`` deals 82, 38, 166, 101 and 2 the waste walks of
        ``Tables.costs`` see a fifth to a quarter as many masks as calls. The price is
        memory: ``medium`` deal 115 (7,378 positions) peaks at 49.6 MB against 44.2 MB
        without them."""
        self.able: dict[int, int] = {}
        """Per set of ranks within reach: the pyramid cards that may go whatever else is
        exposed (Kings that go alone, cards with a deck partner of one of those ranks)."""

    def grow(self, pyr: int, ranks: int, gone: int, exposed: int, todo: int) -> tuple[int, int]:
        """The relaxed game continued: ``gone`` (pyramid cards that may go), ``exposed``
        (those that may be uncovered), given deck cards of the ranks ``ranks`` within reach;
        ``todo``: exposed cards to look at again (the others cannot have changed)."""
        needs = self.needs
        able = self.able.get(ranks)
        if able is None:
            able = self.able[ranks] = self.lone | union_of(self.by_rank, ranks)
        while todo:
            more = todo & able
            rest = todo ^ more  # the others go only with an exposed partner
            while rest:
                low = rest & -rest
                rest ^= low
                if needs[low.bit_length() - 1] & exposed:
                    more |= low
            if not more:
                break
            gone |= more
            fresh = uncovered(pyr & ~gone, UNCOVERED) & ~exposed  # (see start)
            # to look at again: the fresh cards, and the ones waiting for a pyramid
            # partner that has just been exposed
            waiting = exposed & ~gone & ~able
            exposed |= fresh
            todo = fresh | union_of(needs, fresh) & waiting if waiting else fresh
        return gone, exposed

    def start(self, pyr: int, ranks: int) -> tuple[int, int]:
        """The relaxed game from the pyramid ``pyr`` with deck cards of ``ranks`` in
        reach: ``(gone, exposed)`` (cached).

        A card is exposed when no card of ``pyr`` that has not gone covers it directly
        (:func:`~pyramid_widget.solver.model.open_cards`, a few shifts, read through the
        cache of :func:`~pyramid_widget.solver.model.uncovered`: a card goes only exposed,
        so the cards not gone are a shape a pyramid can take in play, at most 1,430 of them,
        the masks that cache holds for the search anyway; on ``relaxed`` deals 82, 38, 166,
        101 and 2, asked 48,378 times, 2.2% fewer instructions than the shifts). That is
        the same as no such card on a covering chain (``Model.chains``): a card that has
        gone was exposed, so by induction its own chains have gone; and a card the
        position no longer holds left uncovered, so every card of its chains had left
        before it (the search asks about positions reached by play from the model's root,
        whose chains run through the root's cards only)."""
        key = pyr | ranks << 28
        hit = self.cache.get(key)
        if hit is None:
            exposed = uncovered(pyr, UNCOVERED)
            hit = self.cache[key] = self.grow(pyr, ranks, 0, exposed, exposed)
        return hit

    def add(self, pyr: int, ranks: int, bit: int, gone: int, exposed: int) -> tuple[int, int]:
        """The relaxed game ``(gone, exposed)`` for ``ranks`` once a card of the rank
        ``bit`` also comes within reach (``ranks`` already holding ``bit``: unchanged)."""
        key = pyr | (ranks | bit) << 28
        hit = self.cache.get(key)
        if hit is None:
            todo = exposed & ~gone & self.by_rank[bit.bit_length() - 1]
            hit = self.grow(pyr, ranks | bit, gone, exposed, todo) if todo else (gone, exposed)
            self.cache[key] = hit
        return hit

    def order(self, mask: int) -> tuple[int, ...]:
        """The slots of the deck mask ``mask``, lowest first, kept in :attr:`slots`.

        >>> from pyramid_widget.engine.game import Game
        >>> reach = PassReach(Model.from_game(Game("relaxed", deal=0)))
        >>> reach.order(0b101 << 28), reach.order(0)
        ((28, 30), ())
        """
        hit = self.slots.get(mask)
        if hit is None:
            hit = self.slots[mask] = tuple(slots_of(mask))
        return hit

    def late(self, board: int, lo: int, cards: int) -> tuple[int, int, tuple[int, int, int]]:
        """``(late, leaving, end)``: the pyramid cards of ``cards`` that cannot be uncovered
        before this pass ends; when there are some, the deck cards that could leave the
        board in it and the relaxed game at the pass's end, ``(gone, exposed, ranks)`` (the
        pyramid cards that may go, those that may be uncovered, the ranks within reach);
        ``(0, 0, NONE)`` when every card of ``cards`` may be uncovered."""
        pyr = board & PYRAMID_ALL
        stock = board >> lo << lo
        ranks = self.stock_ranks.get(stock)
        if ranks is None:
            ranks = self.stock_ranks[stock] = union_of(self.rank_bit, stock)
        gone, exposed = self.start(pyr, ranks)
        if not cards & ~exposed:
            return NONE
        needs, lone = self.needs, self.lone
        shared = stock if self.shared else 0
        waste = board & ~PYRAMID_ALL & ((1 << lo) - 1)
        order = self.order(waste)
        reached = 0  # the lowest waste slot within reach
        dug: dict[int, tuple[int, int]] = {}  # per rank: waste cards gone so far, partners
        for s in reversed(order):  # from the top down, while each card can go
            reached = s
            bit = self.rank_bit[s]
            if not lone >> s & 1:
                count, pool = dug.get(bit, (0, 0))
                count += 1
                pool |= needs[s]
                if count > (pool & (shared | exposed)).bit_count():
                    break  # (none, or fewer than the cards of its rank above it need)
                dug[bit] = (count, pool)
            if not ranks & bit:
                gone, exposed = self.add(pyr, ranks, bit, gone, exposed)
                ranks |= bit
                if not cards & ~exposed:
                    return NONE
        avail = stock | waste >> reached << reached  # (the first card that cannot go too)
        partners = exposed | (avail if self.shared else 0)
        leaving = 0
        for s in self.order(avail):
            if lone >> s & 1 or needs[s] & partners:
                leaving |= 1 << s
        return cards & ~exposed, leaving, (gone, exposed, ranks)
