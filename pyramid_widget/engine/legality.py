"""The rules applied to a position: which moves are legal, why others are not, and when
the game is won or lost. Every function here takes a rule set and a
:class:`~pyramid_widget.engine.position.Position` (never a game), reads the rule set's fields
and nothing else; :class:`~pyramid_widget.engine.game.Game` calls them.

A refused move gets one :class:`~pyramid_widget.errors.Refusal`: a ``kind`` from
:data:`KINDS`, the cards it is about, and a short sentence naming cards and values, with card
codes (``text``) and spelled out (``words``). The widget, the lessons and
:class:`~pyramid_widget.errors.IllegalMoveError` all read this one value:

>>> from pyramid_widget.engine.game import Game
>>> g = Game.from_position("medium", pyramid=[None] * 26 + ["5H", "9C"], stock=["4D"])
>>> g.refusal("5H+9C")  # doctest: +ELLIPSIS
Refusal(kind='no-match', cards=(...), text='5 + 9 = 14, not 13', words='5 + 9 = 14, not 13')
>>> g = Game("medium", deal=7)
>>> r = g.refusal("5C+8D")
>>> r.kind, r.text
('covered', '5C is covered by 2C and TC')
>>> r.words
'the 5 of clubs is covered by the 2 of clubs and the 10 of clubs'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

from pyramid_widget.engine.cards import (
    KING,
    Card,
    card_long_name,
    card_problem,
    card_str,
    rank,
    rank_name,
)
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Position, Status, Zone
from pyramid_widget.engine.quoting import shown
from pyramid_widget.engine.rules import RuleSet
from pyramid_widget.errors import Refusal

__all__ = [
    "KINDS",
    "Refusal",
    "can_redeal",
    "candidate_moves",
    "covering",
    "judge",
    "refusal",
    "unavailable",
]

#: Every kind of :class:`~pyramid_widget.errors.Refusal` the engine gives, with its meaning.
KINDS: dict[str, str] = {
    "not-a-move": "the value given is not a Move",
    "game-over": "the game (or the round) is already won or lost",
    "no-rounds": "a next-round move under a rule set without rounds",
    "round-unfinished": "a next-round move before the round is won",
    "empty-stock": "a draw from an empty stock (the text says whether a redeal is possible)",
    "no-redeal": "a redeal that is not allowed now (stock not empty, no pass left, no waste)",
    "discarded": "a card that is already discarded",
    "not-in-game": "a card the game does not hold (a second-deck card in a one-deck game)",
    "covered": "a pyramid card still covered (cards: the card, then the cards covering it)",
    "buried": "a waste card under the top of its pile (cards: the card, then the top)",
    "stock": "a stock card under the top of the stock",
    "stock-top": "the top stock card, where the rules do not make it available",
    "king-alone": "a King removed alone where Kings need a partner",
    "needs-partner": "a card other than a King removed alone",
    "no-cell": "a cell move under a rule set without cells",
    "cell-full": "a cell move while every cell is taken (cards: the cards held)",
    "cell-source": "a cell move of a card that is neither a pyramid card nor a waste top",
    "no-match": "two cards whose values or ranks do not pair",
    "zones": "two cards in places that cannot pair under the rule set",
    "nothing-to-undo": "an undo with no move to take back",
    "undo-limit": "an undo beyond the rule set's undo depth",
    "nothing-to-redo": "a redo with no undone move",
    "refused": "refused by a caller's own rule (a widget's move filter), not by the engine",
}

Namer = Callable[[Card], str]


def _refuse(kind: str, cards: Iterable[Card], say: Callable[[Namer], str]) -> Refusal:
    """Build a refusal whose sentence ``say(name)`` names cards with ``name``: once with
    codes (``5C``), once spelled out (``the 5 of clubs``)."""
    assert kind in KINDS, kind
    return Refusal(kind, tuple(cards), say(card_str), say(_spelled))


def _spelled(card: Card) -> str:
    return "the " + card_long_name(card)


def _plain(kind: str, text: str) -> Refusal:
    return Refusal(kind, (), text)


def covering(position: Position, card: Card) -> tuple[Card, ...]:
    """The cards still covering ``card`` when it is in the pyramid (else ``()``)."""
    if card not in position.pyramid:
        return ()
    index = position.pyramid.index(card)
    covered_by = position.layout.covered_by[index]
    return tuple(c for q in covered_by if (c := position.pyramid[q]) is not None)


def overlap_partner(position: Position, card: Card) -> Card | None:
    """The card that alone still covers tableau ``card`` while being available itself, if
    there is one: the partner the ``overlap_discards`` rule lets it pair with."""
    cover = covering(position, card)
    if len(cover) != 1:
        return None
    (top,) = cover
    return top if position.uncovered(position.pyramid.index(top)) else None


def beneath_top(position: Position, card: Card) -> Card | None:
    """When ``card`` is the top of a waste pile, the card directly beneath it (the partner
    the ``waste_pair`` rule allows), else ``None``."""
    for pile in position.wastes:
        if len(pile) >= 2 and pile[-1] == card:
            return pile[-2]
    return None


def _special_pair(rules: RuleSet, position: Position, a: Card, b: Card) -> bool:
    """Whether ``a`` and ``b`` are placed for an overlap discard or a waste pair (values
    aside): one is available and the other is the card it alone covers, or the top waste
    card and the card just beneath it."""
    overlap = overlap_partner(position, a) == b or overlap_partner(position, b) == a
    beneath = beneath_top(position, a) == b or beneath_top(position, b) == a
    return (rules.overlap_discards and overlap) or (rules.waste_pair and beneath)


def candidate_moves(rules: RuleSet, position: Position) -> Iterator[Move]:
    """Yield every legal move of a position in play: Kings, pairs, cell moves, draw, redeal."""
    pos = position
    available = list(pos.available(rules.stock_top_available))
    if rules.kings_alone:
        for card, _ in available:
            if rank(card) == KING:
                yield Move.king(card)
    for (a, za), (b, zb) in combinations(available, 2):
        if rules.pairs(a, b) and rules.zones_pair(za.value, zb.value):
            yield Move.pair(a, b)
    if rules.overlap_discards:
        for slot in pos.pyramid:
            if slot is not None:
                top = overlap_partner(pos, slot)
                if top is not None and rules.pairs(slot, top):
                    yield Move.pair(slot, top)
    if rules.waste_pair:
        for pile in pos.wastes:
            if len(pile) >= 2 and rules.pairs(pile[-1], pile[-2]):
                yield Move.pair(pile[-1], pile[-2])
    if None in pos.cells:
        for card, zone in available:
            if zone in (Zone.PYRAMID, Zone.WASTE):
                yield Move.to_cell(card)
    if pos.stock:  # always: judge counts on it
        yield Move.draw()
    elif can_redeal(rules, pos):
        yield Move.redeal()


def _passes_left(rules: RuleSet, position: Position) -> bool:
    return rules.passes is None or position.pass_number < rules.passes


def can_redeal(rules: RuleSet, position: Position) -> bool:
    """Whether a redeal is allowed: the stock is empty, a pass is left and a waste has cards."""
    return not position.stock and _passes_left(rules, position) and any(position.wastes)


def refusal(
    rules: RuleSet,
    position: Position,
    move: Move,
    status: tuple[Status, str] | None = None,
) -> Refusal | None:
    """Return why ``move`` is illegal in ``position`` now, or ``None`` if it is legal.

    ``status`` is the position's ``(status, reason)`` when the caller knows it (a game keeps
    it); otherwise it is worked out with :func:`judge`.
    """
    if not isinstance(move, Move):
        return _plain("not-a-move", f"{shown(move)} is not a move")
    state, why = judge(rules, position) if status is None else status
    if move.kind is MoveKind.NEXT_ROUND:
        return _next_round_refusal(rules, state)
    if state is not Status.PLAYING:
        return _plain("game-over", f"the game is over ({state.value}: {why})")
    if move.kind is MoveKind.DRAW:
        return _draw_refusal(rules, position)
    if move.kind is MoveKind.REDEAL:
        return _redeal_refusal(rules, position)
    if move.kind is MoveKind.PAIR and _special_pair(rules, position, *move.cards):
        a, b = move.cards
        return None if rules.pairs(a, b) else _no_match(rules, a, b)
    for card in move.cards:
        problem = unavailable(rules, position, card)
        if problem:
            return problem
    if move.kind is MoveKind.KING:
        return _king_refusal(rules, move.cards[0])
    if move.kind is MoveKind.CELL:
        return _cell_refusal(rules, position, move.cards[0])
    return _pair_refusal(rules, position, *move.cards)


def _next_round_refusal(rules: RuleSet, state: Status) -> Refusal | None:
    if not rules.rounds:
        return _plain("no-rounds", f"{rules.name} has no rounds")
    if state is not Status.WON:
        return _plain("round-unfinished", "the round is not finished: clear the pyramid first")
    return None


def _draw_refusal(rules: RuleSet, pos: Position) -> Refusal | None:
    if pos.stock:
        return None
    if can_redeal(rules, pos):
        return _plain("empty-stock", "the stock is empty: redeal to turn the waste over")
    if not _passes_left(rules, pos):
        return _plain("empty-stock", "the stock is empty and no redeal is left")
    return _plain(
        "empty-stock", "the stock and the waste are empty: there is nothing to draw or redeal"
    )


def _redeal_refusal(rules: RuleSet, pos: Position) -> Refusal | None:
    passes = rules.passes
    if pos.stock:
        return _plain(
            "no-redeal",
            f"the stock still has {len(pos.stock)} card(s): redeal only when it is empty",
        )
    if passes is not None and pos.pass_number >= passes:
        return _plain(
            "no-redeal",
            f"no redeal left: {rules.name} allows {passes} pass(es) through the stock",
        )
    if not any(pos.wastes):
        return _plain("no-redeal", "the waste is empty: there is nothing to redeal")
    return None


def unavailable(rules: RuleSet, position: Position, card: Card) -> Refusal | None:
    """Why ``card`` cannot be played now (``None`` when it is available).

    >>> from pyramid_widget.engine.game import Game
    >>> from pyramid_widget.engine.cards import parse_card
    >>> g = Game("medium", deal=7)
    >>> unavailable(g.rules, g.position, parse_card("5C")).kind
    'covered'
    """
    pos = position
    if card >= pos.deck_size:  # the only cards that are nowhere: locate would fail
        problem = card_problem(card, pos.deck_size // 52)
        return Refusal("not-in-game", (card,), problem or f"{card_str(card)} is not in the game")
    where = pos.locate(card)
    if where.zone is Zone.DISCARD:
        return _refuse("discarded", [card], lambda n: f"{n(card)} is already discarded")
    if where.zone is Zone.PYRAMID and not pos.uncovered(where.index):
        # a face-down card covering it is never named: the player has not seen it
        hidden = {pos.pyramid[p] for p in pos.hidden()}
        cover = covering(pos, card)
        seen = [c for c in cover if c not in hidden]
        unseen = len(cover) - len(seen)

        def covered(n: Namer) -> str:
            names = [n(c) for c in seen]
            if unseen:
                names.append("a face-down card" if unseen == 1 else f"{unseen} face-down cards")
            return f"{n(card)} is covered by {' and '.join(names)}"

        return _refuse("covered", [card, *seen], covered)
    if where.zone is Zone.RESERVE and pos.reserves[where.index][-1] != card:
        top = pos.reserves[where.index][-1]
        return _refuse(
            "buried",
            [card, top],
            lambda n: f"{n(card)} is not on top of its reserve pile ({n(top)} is on it)",
        )
    if where.zone is Zone.WASTE and pos.wastes[where.index][-1] != card:
        top = pos.wastes[where.index][-1]
        return _refuse(
            "buried",
            [card, top],
            lambda n: f"{n(card)} is not on top of its waste pile ({n(top)} is on it)",
        )
    if where.zone is Zone.STOCK:
        if where.index:
            return _refuse(
                "stock", [card], lambda n: f"{n(card)} is in the stock, not on top of it"
            )
        if not rules.stock_top_available:
            return _refuse(
                "stock-top",
                [card],
                lambda n: (
                    f"{n(card)} is the top stock card, which is not available under {rules.name}"
                ),
            )
    return None


def _king_refusal(rules: RuleSet, card: Card) -> Refusal | None:
    if rank(card) != KING:
        # Say "only a King" only where a King does go alone (cheops, the dozen, the triangle:
        # no card does).
        alone = "only a King is removed alone" if rules.kings_alone else "no card is removed alone"
        where = "" if rules.kings_alone else f" under {rules.name}"
        return _refuse(
            "needs-partner",
            [card],
            lambda n: f"{alone}{where}; {n(card)} needs a partner",
        )
    if not rules.kings_alone:
        partners = " or ".join(f"a {rank_name(v)}" for v in rules.pairing_table.partners(KING))
        return _refuse(
            "king-alone",
            [card],
            lambda _: f"Kings are not removed alone under {rules.name}: pair it with {partners}",
        )
    return None


def _cell_refusal(rules: RuleSet, pos: Position, card: Card) -> Refusal | None:
    if not pos.cells:
        return _plain("no-cell", f"{rules.name} has no free cell")
    if None not in pos.cells:
        held = [c for c in pos.cells if c is not None]
        return _refuse(
            "cell-full",
            held,
            lambda n: (
                f"the cell is full ({', '.join(n(c) for c in held)}); "
                "a card leaves it only by being removed"
            ),
        )
    zone = pos.locate(card).zone
    if zone not in (Zone.PYRAMID, Zone.WASTE):
        return _refuse(
            "cell-source",
            [card],
            lambda _: (
                f"only a pyramid card or a waste top may go to the cell, not a {zone.value} card"
            ),
        )
    return None


def _no_match(rules: RuleSet, a: Card, b: Card) -> Refusal:
    """The refusal of two cards whose values do not pair, worded for the pairing table."""
    name = rules.pairing if isinstance(rules.pairing, str) else ""
    total = rank(a) + rank(b)
    if name in ("sum13", "sum11", "sum12"):
        target = int(name[3:])
        text = f"{_value(a)} + {_value(b)} = {total}, not {target}"
        pairs = sorted(rules.pairing_table.pairs)
        extra = [f"{rank_name(x)}+{rank_name(y)}" for x, y in pairs if x + y != target]
        if extra:
            text += f" (nor {' or '.join(extra)})"
    elif name == "adjacent":
        text = (
            f"{rank_name(rank(a))} and {rank_name(rank(b))} are not the same or adjacent "
            "ranks (ranks do not wrap)"
        )
    else:
        table = rules.pairing_table
        text = f"{rank_name(rank(a))} and {rank_name(rank(b))} do not pair under {table.name}"
    return _refuse("no-match", [a, b], lambda _: text)


def _pair_refusal(rules: RuleSet, pos: Position, a: Card, b: Card) -> Refusal | None:
    if not rules.pairs(a, b):
        return _no_match(rules, a, b)
    za, zb = pos.locate(a).zone.value, pos.locate(b).zone.value
    if not rules.zones_pair(za, zb):
        zones = "two waste cards" if za == zb == "waste" else f"a {za} card and a {zb} card"
        return _refuse("zones", [a, b], lambda _: f"{zones} cannot pair under {rules.name}")
    return None


def _value(card: Card) -> str:
    value = rank(card)
    return str(value) if 1 < value < 11 else f"{rank_name(value)} ({value})"


def judge(rules: RuleSet, position: Position) -> tuple[Status, str]:
    """Return the status of a position and the reason, in words."""
    pos = position
    if rules.win == "all" and pos.all_gone():
        return Status.WON, f"all {pos.deck_size} cards are cleared"
    if rules.win == "pyramid" and pos.pyramid_empty():
        what = "round" if rules.rounds else "pyramid"
        return Status.WON, f"the {what} is cleared" + (" (round complete)" if rules.rounds else "")
    moves = candidate_moves(rules, pos)
    if rules.stall_rule and not pos.stock and not pos.pass_removed:
        if not any(m.is_removal for m in moves):
            return Status.LOST, "a whole pass removed nothing and no removal is left (stall rule)"
        return Status.PLAYING, "the game is on"
    # a draw is legal whenever the stock has cards (see candidate_moves), so only a position
    # with an empty stock needs its moves listed
    if not pos.stock and not any(True for _ in moves):
        left = pos.cards_in_play()
        remain = "1 card remains" if left == 1 else f"{left} cards remain"
        return Status.LOST, f"no move is left ({remain})"
    return Status.PLAYING, "the game is on"
