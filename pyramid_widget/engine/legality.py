"""The rules applied to a position: which moves are legal, why others are not, and when
the game is won or lost. :class:`~pyramid_widget.engine.game.Game` calls these; they read the
rule set's fields and nothing else.

Reasons are short sentences for the player, naming cards and values:

>>> from pyramid_widget.engine.game import Game
>>> g = Game.from_position("medium", pyramid=[None] * 26 + ["5H", "9C"], stock=["4D"])
>>> g.explain("5H+9C")
'5 + 9 = 14, not 13'
>>> g = Game.from_position("cheops", pyramid=[None] * 26 + ["AH", "KC"], stock=["4D"])
>>> g.explain("AH+KC")
'Ace and King are not the same or adjacent ranks (ranks do not wrap)'
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING

from pyramid_widget.engine.cards import KING, Card, card_str, rank, rank_name
from pyramid_widget.engine.moves import Move, MoveKind
from pyramid_widget.engine.position import Status, Zone

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game


def candidate_moves(game: Game) -> Iterator[Move]:
    """Yield every legal move of a game in play: Kings, pairs, cell moves, draw, redeal."""
    rules, pos = game.rules, game._pos
    available = list(pos.available(rules.stock_top_available))
    if rules.kings_alone:
        for card, _ in available:
            if rank(card) == KING:
                yield Move.king(card)
    for (a, za), (b, zb) in combinations(available, 2):
        if rules.pairs(a, b) and rules.zones_pair(za.value, zb.value):
            yield Move.pair(a, b)
    if None in pos.cells:
        for card, zone in available:
            if zone in (Zone.PYRAMID, Zone.WASTE):
                yield Move.to_cell(card)
    if pos.stock:
        yield Move.draw()
    elif _can_redeal(game):
        yield Move.redeal()


def _can_redeal(game: Game) -> bool:
    pos = game._pos
    passes_left = game.rules.passes is None or pos.pass_number < game.rules.passes
    return not pos.stock and passes_left and any(pos.wastes)


def reason(game: Game, move: Move) -> str | None:
    """Return why ``move`` is illegal in ``game`` now, or ``None`` if it is legal."""
    if not isinstance(move, Move):
        return f"{move!r} is not a move"
    if move.kind is MoveKind.NEXT_ROUND:
        return _next_round_reason(game)
    if game.status is not Status.PLAYING:
        return f"the game is over ({game.status.value}: {game.status_reason})"
    if move.kind is MoveKind.DRAW:
        return _draw_reason(game)
    if move.kind is MoveKind.REDEAL:
        return _redeal_reason(game)
    for card in move.cards:
        problem = _availability(game, card)
        if problem:
            return problem
    if move.kind is MoveKind.KING:
        return _king_reason(game, move.cards[0])
    if move.kind is MoveKind.CELL:
        return _cell_reason(game, move.cards[0])
    return _pair_reason(game, *move.cards)


def _next_round_reason(game: Game) -> str | None:
    if not game.rules.rounds:
        return f"{game.rules.name} has no rounds"
    if game.status is not Status.WON:
        return "the round is not finished: clear the pyramid first"
    return None


def _draw_reason(game: Game) -> str | None:
    if game._pos.stock:
        return None
    if _can_redeal(game):
        return "the stock is empty: redeal to turn the waste over"
    return "the stock is empty and no redeal is left"


def _redeal_reason(game: Game) -> str | None:
    pos, passes = game._pos, game.rules.passes
    if pos.stock:
        return f"the stock still has {len(pos.stock)} card(s): redeal only when it is empty"
    if passes is not None and pos.pass_number >= passes:
        return f"no redeal left: {game.rules.name} allows {passes} pass(es) through the stock"
    if not any(pos.wastes):
        return "the waste is empty: there is nothing to redeal"
    return None


def _availability(game: Game, card: Card) -> str | None:
    pos, name = game._pos, card_str(card)
    where = pos.locate(card)
    if where.zone is Zone.DISCARD:
        return f"{name} is already discarded"
    if where.zone is Zone.PYRAMID and not pos.uncovered(where.index):
        covering = [card_str(c) for c in game.covering(card)]
        return f"{name} is covered by {' and '.join(covering)}"
    if where.zone is Zone.WASTE and pos.wastes[where.index][-1] != card:
        top = card_str(pos.wastes[where.index][-1])
        return f"{name} is not on top of its waste pile ({top} is on it)"
    if where.zone is Zone.STOCK:
        if where.index:
            return f"{name} is in the stock, not on top of it"
        if not game.rules.stock_top_available:
            return f"{name} is the top stock card, which is not available under {game.rules.name}"
    return None


def _king_reason(game: Game, card: Card) -> str | None:
    if rank(card) != KING:
        return f"only a King is removed alone; {card_str(card)} needs a partner"
    if not game.rules.kings_alone:
        return (
            f"Kings are not removed alone under {game.rules.name}: pair it with a Queen or a King"
        )
    return None


def _cell_reason(game: Game, card: Card) -> str | None:
    pos = game._pos
    if not pos.cells:
        return f"{game.rules.name} has no free cell"
    if None not in pos.cells:
        held = ", ".join(card_str(c) for c in pos.cells if c is not None)
        return f"the cell is full ({held}); a card leaves it only by being removed"
    zone = pos.locate(card).zone
    if zone not in (Zone.PYRAMID, Zone.WASTE):
        return f"only a pyramid card or a waste top may go to the cell, not a {zone.value} card"
    return None


def _pair_reason(game: Game, a: Card, b: Card) -> str | None:
    rules, pos = game.rules, game._pos
    if not rules.pairs(a, b):
        if rules.pairing == "sum13":
            return f"{_value(a)} + {_value(b)} = {rank(a) + rank(b)}, not 13"
        return (
            f"{rank_name(rank(a))} and {rank_name(rank(b))} are not the same or adjacent "
            "ranks (ranks do not wrap)"
        )
    za, zb = pos.locate(a).zone.value, pos.locate(b).zone.value
    if not rules.zones_pair(za, zb):
        zones = "two waste cards" if za == zb == "waste" else f"a {za} card and a {zb} card"
        return f"{zones} cannot pair under {rules.name}"
    return None


def _value(card: Card) -> str:
    value = rank(card)
    return str(value) if 1 < value < 11 else f"{rank_name(value)} ({value})"


def judge(game: Game) -> tuple[Status, str]:
    """Return the status of a game and the reason, in words."""
    rules, pos = game.rules, game._pos
    if rules.win == "all" and pos.all_gone():
        return Status.WON, "all 52 cards are cleared"
    if rules.win == "pyramid" and pos.pyramid_empty():
        what = "round" if rules.rounds else "pyramid"
        return Status.WON, f"the {what} is cleared" + (" (round complete)" if rules.rounds else "")
    if rules.stall_rule and not pos.stock and not pos.pass_removed and not _removal_left(game):
        return Status.LOST, "a whole pass removed nothing and no removal is left (stall rule)"
    if not any(True for _ in candidate_moves(game)):
        left = pos.cards_in_play()
        return Status.LOST, f"no move is left ({left} cards remain)"
    return Status.PLAYING, "the game is on"


def _removal_left(game: Game) -> bool:
    return any(m.is_removal for m in candidate_moves(game))
