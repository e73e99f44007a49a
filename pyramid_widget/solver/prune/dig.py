"""A counting test for the last pass with one waste pile: how deep can the waste be dug?

In the last pass a waste card leaves only from the top, and new cards only land on top, so
the waste cards that will ever be removed are a *prefix* of today's waste, counted from the
top: to remove a card every card above it must go first. For each depth ``D`` the player
might dig to, the cards that must go are then every pyramid card still to clear and the top
``D`` waste cards; the cards that may help are those, the pyramid cards that may stay (Kings
aside, none under a pyramid-only win) and every stock card. Under sum-13 pairing each
removal takes one card of rank ``r`` and one of rank ``13 - r``, so every rank class
``{r, 13 - r}`` is a bipartite graph (edges: the pairs that could ever meet, ``Model.needs``)
in which the cards that must go need a matching that covers them all. By the
Mendelsohn-Dulmage theorem such a matching exists exactly when one covers the must-go cards
of rank ``r`` and another covers those of rank ``13 - r`` (Hall's condition, side by side).

Soundness: a winning line removes some prefix of the waste and pairs every card it removes
with one partner it could meet, so its pairs, class by class, are a matching covering the
must-go cards of that depth. If no depth passes in every class at once, there is no winning
line: :func:`dig_dead` returns True and the search drops the position.

Per class the answer depends only on that class's cards on the board and which of them are
in the stock, so each class's answer is cached as a bit mask of the *thresholds* ``t`` (deck
slots) at which it holds: the prefix for ``t`` is every waste card in a slot ``>= t``.

>>> from pyramid_widget.engine.game import Game
>>> from pyramid_widget.solver.model import Model
>>> g = Game.from_position("hard", pyramid=[None] * 26 + ["5H", "9C"], stock=["8D", "2S", "4S"])
>>> model = Model.from_game(g)
>>> dig_dead(model, model.root[0], model.deck_lo)  # nothing drawn yet: no verdict
False
>>> dig_dead(model, model.root[0], model.deck_hi)  # all drawn: 2S buries 8D for good
True
"""

from __future__ import annotations

from pyramid_widget.solver.model import PYRAMID_ALL, Model, matching

ALL_THRESHOLDS = (1 << 64) - 1
"""Threshold masks reach past every deck slot (52 cards, 64 leaves room)."""


def dig_dead(model: Model, board: int, lo: int) -> bool:
    """Last pass, one waste pile, sum-13 pairing: whether no digging depth can work (see the
    module docstring). ``lo`` is the first stock slot; deck slots below it on ``board`` are
    the waste, bottom card lowest."""
    stock = board >> lo << lo
    cache = model.dig_cache
    # thresholds from the bottom of the deck to lo (t = lo: dig nothing)
    alive = ((1 << (lo + 1)) - 1) & ~((1 << model.deck_lo) - 1)
    for mask in model.class_list:
        cards = board & mask
        if not cards:
            continue
        key = cards | (stock & mask) << 64
        ok = cache.get(key)
        if ok is None:
            ok = cache[key] = _class_thresholds(model, cards, stock & mask)
        alive &= ok
        if not alive:
            return True
    return False


def _class_thresholds(model: Model, cards: int, stock: int) -> int:
    """Bit mask of the thresholds at which one rank class can be covered (module docs)."""
    waste = cards & ~PYRAMID_ALL & ~stock
    pyramid = cards & PYRAMID_ALL
    must = pyramid & model.required
    needs, ranks = model.needs, model.rank_masks
    low_rank = model.ranks[(cards & -cards).bit_length() - 1]
    sides = (ranks[low_rank], ranks[13 - low_rank])
    result = 0
    upper = ALL_THRESHOLDS  # thresholds above the k-th waste card of the class, from the top
    prefix = 0
    rest = waste
    while True:
        top = 1 << (rest.bit_length() - 1) if rest else 0
        floor = (top << 1) - 1 if top else 0  # thresholds <= the next card's slot
        want = must | prefix
        allowed = pyramid | prefix | stock
        if all(not want & side or matching(want & side, needs, allowed) for side in sides):
            result |= upper & ~floor
        if not top:
            return result
        prefix |= top
        rest ^= top
        upper = floor


def buried_in_class(model: Model, board: int, lo: int) -> int:
    """What :func:`~pyramid_widget.solver.macro.buried_under` returns, found faster under
    sum-13 pairing (see :func:`inert_cards`).

    >>> from pyramid_widget.engine.game import Game
    >>> from pyramid_widget.solver.model import Model
    >>> g = Game.from_position("hard", pyramid=[None] * 27 + ["5H"], stock=["8D", "2S", "4S"])
    >>> model = Model.from_game(g)
    >>> buried_in_class(model, model.root[0], model.deck_hi) == 0b11 << model.deck_lo  # 8D, 2S
    True
    """
    return buried_by(inert_cards(model, board), board, lo)


def buried_by(inert: int, board: int, lo: int) -> int:
    """The waste cards of ``board`` under its highest card in ``inert``."""
    dead = inert & board & ~PYRAMID_ALL & ((1 << lo) - 1)
    if not dead:
        return 0
    return board & ~PYRAMID_ALL & ((1 << (dead.bit_length() - 1)) - 1)


def inert_cards(model: Model, board: int) -> int:
    """The deck cards of ``board`` with no partner left they could meet (Kings that go alone
    aside). Under sum-13 pairing a card's partners all lie in its own rank class, so this
    depends class by class only on that class's cards, and is cached per class."""
    inert = 0
    for mask in model.class_list:
        inert |= class_inert(model, board & mask)
    return inert


def class_inert(model: Model, cards: int) -> int:
    """The deck cards among ``cards`` (one rank class) with no partner among them (cached)."""
    inert = model.inert_cache.get(cards)
    if inert is None:
        needs = model.needs
        inert, rest = 0, cards & ~PYRAMID_ALL
        while rest:
            low = rest & -rest
            rest ^= low
            if not needs[low.bit_length() - 1] & cards:
                inert |= low
        model.inert_cache[cards] = inert
    return inert
