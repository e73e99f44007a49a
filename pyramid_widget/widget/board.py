"""What the widget's page draws, as plain JSON-ready data built from an engine :class:`Game`.

:func:`board_state` is the value of the widget's ``board`` trait: every visible card with its
place, whether it is available and what covers it, plus the pile counts and what the toolbar
may offer. :func:`why_unavailable` puts into words why a card the player touched cannot be
played. Nothing here changes a game.

>>> from pyramid_widget import Game
>>> board = board_state(Game("medium", deal=7))
>>> sum(1 for c in board["cards"] if c["zone"] == "pyramid"), board["stock_count"]
(28, 24)
>>> apex = board["cards"][0]
>>> apex["id"], apex["available"], apex["label"]
('5C', False, '5 of clubs, covered by 2 of clubs and 10 of clubs')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import Card, card_long_name, card_str, rank
from pyramid_widget.engine.layout import row_col
from pyramid_widget.engine.moves import Move

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game
    from pyramid_widget.engine.rules import RuleSet

#: How many cards of each waste pile the page shows (the top one and a few beneath it).
WASTE_SHOWN = 3

CardEntry = dict[str, Any]


def _names(cards: tuple[Card, ...] | list[Card]) -> str:
    words = [card_long_name(c) for c in cards]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _entry(card: Card, zone: str, index: int, available: bool, label: str) -> CardEntry:
    return {
        "id": card_str(card),
        "rank": rank(card),
        "suit": card_str(card)[1],
        "name": card_long_name(card),
        "label": label,
        "zone": zone,
        "index": index,
        "available": available,
        "covered_by": [],
        "depth": 0,
    }


def _pyramid_cards(game: Game, available: set[Card]) -> list[CardEntry]:
    out = []
    for pos, card in enumerate(game.pyramid):
        if card is None:
            continue
        cover = game.covering(card)
        state = "covered by " + _names(cover) if cover else "available"
        entry = _entry(card, "pyramid", pos, card in available, f"{card_long_name(card)}, {state}")
        entry["row"], entry["col"] = row_col(pos)
        entry["covered_by"] = [card_str(c) for c in cover]
        out.append(entry)
    return out


def _waste_cards(game: Game, available: set[Card]) -> list[CardEntry]:
    out = []
    several = len(game.wastes) > 1
    for i, pile in enumerate(game.wastes):
        where = f"waste {i + 1}" if several else "the waste"
        for depth, card in enumerate(reversed(pile[-WASTE_SHOWN:])):
            if depth == 0:
                state = "available" if card in available else "not available"
                label = f"{card_long_name(card)}, top of {where}, {state}"
            else:
                label = f"{card_long_name(card)}, in {where} under {_names(pile[-depth:][::-1])}"
            entry = _entry(card, "waste", i, depth == 0 and card in available, label)
            entry["depth"] = depth
            if depth:
                entry["covered_by"] = [card_str(c) for c in pile[-depth:]]
            out.append(entry)
    return out


def _other_cards(game: Game, available: set[Card]) -> list[CardEntry]:
    out = []
    rules = game.rules
    if game.stock and (rules.stock_face_up or rules.stock_top_available):
        top = game.stock[0]
        state = "available" if top in available else "not available"
        label = f"{card_long_name(top)}, top of the stock, {state}"
        out.append(_entry(top, "stock", 0, top in available, label))
    for i, card in enumerate(game.cells):
        if card is not None:
            label = f"{card_long_name(card)}, in the cell, available"
            out.append(_entry(card, "cell", i, card in available, label))
    if game.discard:
        last = game.discard[-1]
        out.append(_entry(last, "discard", 0, False, f"{card_long_name(last)}, discarded"))
    return out


def _passes_text(passes: int | None) -> str:
    if passes is None:
        return "unlimited redeals"
    if passes == 1:
        return "one pass through the stock, no redeal"
    redeals = "one redeal" if passes == 2 else f"{passes - 1} redeals"
    return f"{passes} passes through the stock ({redeals})"


def how_to_play(rules: RuleSet) -> str:
    """A short "what pairs / how to win" text for ``rules``, built from the rule set's data
    (its pairing, Kings, goal, passes, stock and cells): what the board's Keys panel says.

    >>> from pyramid_widget.engine.rules import get_rules
    >>> how_to_play(get_rules("medium"))
    'Pair two available cards whose values add up to 13 (A = 1, J = 11, Q = 12); a King (13) goes alone. Win by clearing the pyramid. 3 passes through the stock (2 redeals).'
    >>> how_to_play(get_rules("cheops"))
    'Pair two available cards of the same or adjacent rank (A-2, ..., Q-K, no wrap). Win by clearing the pyramid. One pass through the stock, no redeal. The top stock card lies face up beside the deck and can be played.'
    """
    if rules.pairing.startswith("sum"):
        total = int(rules.pairing[3:])
        text = f"Pair two available cards whose values add up to {total} (A = 1, J = 11, Q = 12)"
        if rules.kings_alone:
            text += f"; a King ({total}) goes alone"
    else:
        text = "Pair two available cards of the same or adjacent rank (A-2, ..., Q-K, no wrap)"
        if rules.kings_alone:
            text += "; a King goes alone"
    goal = "clearing the pyramid" if rules.win == "pyramid" else "removing all 52 cards"
    parts = [text + ".", f"Win by {goal}.", _passes_text(rules.passes).capitalize() + "."]
    if rules.stock_top_available:
        parts.append("The top stock card lies face up beside the deck and can be played.")
    elif rules.stock_face_up:
        parts.append("The top stock card lies face up beside the deck (not playable).")
    if rules.waste_piles > 1:
        parts.append(f"The stock deals onto {rules.waste_piles} waste piles; their tops play.")
    if rules.cells:
        parts.append("The free cell holds one card (C, or drag a card onto it).")
    if rules.rounds:
        parts.append("Clear the pyramid to deal the next round.")
    return " ".join(parts)


def _rules_summary(game: Game) -> dict[str, Any]:
    r = game.rules
    return {
        "how": how_to_play(r),
        "name": r.name,
        "pairing": r.pairing,
        "kings_alone": r.kings_alone,
        "waste_piles": r.waste_piles,
        "cells": r.cells,
        "passes": r.passes,
        "stock_face_up": r.stock_face_up,
        "stock_top_available": r.stock_top_available,
        "win": r.win,
        "description": r.description,
    }


def board_state(game: Game) -> dict[str, Any]:
    """The ``board`` trait for ``game``: cards, piles, counters and what can be done now."""
    available = set(game.available())
    legal = game.legal_moves
    return {
        "rules": _rules_summary(game),
        "cards": _pyramid_cards(game, available)
        + _waste_cards(game, available)
        + _other_cards(game, available),
        "stock_count": len(game.stock),
        "waste_counts": [len(p) for p in game.wastes],
        "cells": [None if c is None else card_str(c) for c in game.cells],
        "discard_count": len(game.discard),
        "pyramid_left": sum(1 for c in game.pyramid if c is not None),
        "passes_left": game.passes_left,
        "pass_number": game.pass_number,
        "round": game.round,
        "deal_number": game.deal_number,
        "can_draw": Move.draw() in legal,
        "can_redeal": Move.redeal() in legal,
        "can_next_round": Move.next_round() in legal,
        "can_undo": game.can_undo,
        "can_redo": game.can_redo,
    }


#: What the page says about a card the player touched that cannot be played, by the kind of
#: the engine's :class:`~pyramid_widget.errors.Refusal` (``{name}``: the card; ``{cover}``: the
#: cards covering it).
WHY_UNAVAILABLE = {
    "covered": "The {name} is still covered by {cover}.",
    "buried": "The {name} is not on top of its waste pile: only the top card can be played.",
    "stock": "The {name} is in the stock: draw to bring it into play.",
    "stock-top": "The {name} is on top of the stock but not available under these rules.",
    "discarded": "The {name} is already discarded.",
}


def why_unavailable(game: Game, card: Card) -> str | None:
    """Why ``card`` cannot be played now, in words (``None`` when it is available): the
    engine's refusal for the card, looked up in :data:`WHY_UNAVAILABLE`.

    >>> from pyramid_widget import Game, parse_card
    >>> why_unavailable(Game("medium", deal=7), parse_card("5C"))
    'The 5 of clubs is still covered by 2 of clubs and 10 of clubs.'
    """
    refusal = game.unavailable(card)
    if refusal is None:
        return None
    kind = refusal.kind
    if kind == "stock-top" and not game.rules.stock_face_up:
        kind = "stock"  # a face-down top card is just a card in the stock to the player
    text = WHY_UNAVAILABLE.get(kind, "The {name} cannot be played now.")
    cover = _names(refusal.cards[1:]) if kind == "covered" else ""
    return text.format(name=card_long_name(card), cover=cover)
