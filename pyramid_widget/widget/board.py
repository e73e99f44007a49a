"""What the widget's page draws, as plain JSON-ready data built from an engine :class:`Game`.

:func:`board_state` is the value of the widget's ``board`` trait: the tableau's layout (each
position's place and the positions covering it, from the rule set's
:class:`~pyramid_widget.engine.layout.Layout`: the page hard-codes no shape), every card a
player may see with its place, whether it is available and what covers it, the reserve and
waste piles, the pile counts and what the toolbar may offer. A face-down card is sent as a
back: its entry has no rank, suit or name (id ``"down12"`` for position 12), and no label or
message names it. :func:`why_unavailable` puts into words why a card the player touched cannot
be played. Nothing here changes a game.

>>> from pyramid_widget import Game
>>> board = board_state(Game("medium", deal=7))
>>> sum(1 for c in board["cards"] if c["zone"] == "pyramid"), board["stock_count"]
(28, 24)
>>> apex = board["cards"][0]
>>> apex["id"], apex["available"], apex["label"]
('5C', False, '5 of clubs, covered by 2 of clubs and 10 of clubs')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pyramid_widget.engine.cards import Card, card_long_name, card_str, copy_of, rank
from pyramid_widget.engine.moves import Move
from pyramid_widget.errors import InvalidRulesError

if TYPE_CHECKING:
    from pyramid_widget.engine.game import Game
    from pyramid_widget.engine.rules import RuleSet

#: How many cards of each waste pile the page shows (the top one and a few beneath it).
WASTE_SHOWN = 3
#: How many cards of each reserve pile the page shows, fanned (the top one plays).
RESERVE_SHOWN = 6
#: What a face-down card is called, on the page and to a screen reader (nothing of its face).
FACE_DOWN = "face-down card"

CardEntry = dict[str, Any]


def down_id(pos: int) -> str:
    """The page's id of the face-down card at tableau position ``pos`` (it names no card).

    >>> down_id(12)
    'down12'
    """
    return f"down{pos}"


class _View:
    """What a player may see of ``game``: the names of cards, with face-down ones as backs."""

    def __init__(self, game: Game) -> None:
        self.hidden = game.hidden
        self.pos_of = {c: p for p, c in enumerate(game.pyramid) if c is not None}

    def is_hidden(self, card: Card) -> bool:
        return self.pos_of.get(card, -1) in self.hidden

    def id(self, card: Card) -> str:
        return down_id(self.pos_of[card]) if self.is_hidden(card) else card_str(card)

    def names(self, cards: tuple[Card, ...] | list[Card], *, article: str = "") -> str:
        """``cards`` in words, each after ``article`` (``"the "`` in a sentence, nothing in a
        label), the face-down ones as "a face-down card" (counted when several)."""
        shown = [article + card_long_name(c) for c in cards if not self.is_hidden(c)]
        down = sum(1 for c in cards if self.is_hidden(c))
        if down:
            shown.append("a face-down card" if down == 1 else f"{down} face-down cards")
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def _names(cards: Sequence[Card]) -> str:
    words = [card_long_name(c) for c in cards]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _entry(card: Card, zone: str, index: int, available: bool, label: str) -> CardEntry:
    return {
        "id": card_str(card),
        "rank": rank(card),
        "suit": card_str(card)[1],
        "name": card_long_name(card),
        "deck": copy_of(card) + 1,
        "label": label,
        "zone": zone,
        "index": index,
        "available": available,
        "playable": available,
        "covered_by": [],
        "depth": 0,
    }


def _rows_cols(game: Game) -> list[tuple[int, int]]:
    """Each position's (row, column): its place's row, and its rank left to right in it."""
    places = game.rules.layout.places
    rows = [round(y) for _, y in places]
    out = []
    for p, (x, _) in enumerate(places):
        out.append(
            (rows[p], sum(1 for q, (qx, _) in enumerate(places) if rows[q] == rows[p] and qx < x))
        )
    return out


def _pyramid_cards(game: Game, available: set[Card], view: _View) -> list[CardEntry]:
    out: list[CardEntry] = []
    layout = game.rules.layout
    rows_cols = _rows_cols(game)
    for pos, card in enumerate(game.pyramid):
        if card is None:
            continue
        cover = game.covering(card)
        x, y = layout.places[pos]
        if pos in view.hidden:
            entry: CardEntry = {
                "id": down_id(pos),
                "face_down": True,
                "label": FACE_DOWN,
                "zone": "pyramid",
                "index": pos,
                "available": False,
                "playable": False,
                "depth": 0,
            }
        else:
            state = "covered by " + view.names(cover) if cover else "available"
            label = f"{card_long_name(card)}, {state}"
            entry = _entry(card, "pyramid", pos, card in available, label)
        entry["pos"] = pos
        entry["x"], entry["y"] = x, y
        entry["row"], entry["col"] = rows_cols[pos]
        entry["group"] = layout.groups[pos]
        entry["covered_by"] = [view.id(c) for c in cover]
        out.append(entry)
    return out


def _pile_cards(
    piles: Sequence[Sequence[Card]],
    zone: str,
    wheres: Sequence[str],
    shown: int,
    available: set[Card],
) -> list[CardEntry]:
    """The top ``shown`` cards of each pile (reserve or waste), top first, with their names."""
    out = []
    for i, pile in enumerate(piles):
        where = wheres[i]
        for depth, card in enumerate(reversed(pile[-shown:])):
            if depth == 0:
                state = "available" if card in available else "not available"
                label = f"{card_long_name(card)}, top of {where}, {state}"
            else:
                label = f"{card_long_name(card)}, in {where} under {_names(pile[-depth:][::-1])}"
            entry = _entry(card, zone, i, depth == 0 and card in available, label)
            entry["depth"] = depth
            if depth:
                entry["covered_by"] = [card_str(c) for c in pile[-depth:]]
            out.append(entry)
    return out


def _reserve_cards(game: Game, available: set[Card]) -> list[CardEntry]:
    wheres = [f"reserve pile {i + 1}" for i in range(len(game.reserves))]
    return _pile_cards(game.reserves, "reserve", wheres, RESERVE_SHOWN, available)


def _waste_cards(game: Game, available: set[Card]) -> list[CardEntry]:
    several = len(game.wastes) > 1
    wheres = [f"waste {i + 1}" if several else "the waste" for i in range(len(game.wastes))]
    return _pile_cards(game.wastes, "waste", wheres, WASTE_SHOWN, available)


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


def _pairing_text(rules: RuleSet) -> str:
    """What pairs and what goes alone, from the rule set's pairing table and ``kings_alone``."""
    if rules.pairing == "sum13":
        text = "Pair two available cards whose values add up to 13 (A = 1, J = 11, Q = 12)"
        return text + ("; a King (13) goes alone" if rules.kings_alone else "")
    if rules.pairing == "adjacent":
        text = "Pair two available cards of the same or adjacent rank (A-2, ..., Q-K, no wrap)"
        return text + ("; a King goes alone" if rules.kings_alone else "")
    table = rules.pairing_table
    words = table.text or ", ".join(f"{a}+{b}" for a, b in sorted(table.pairs))
    text = f"Pair two available cards: {words} (A = 1, J = 11, Q = 12, K = 13)"
    return text + ("; a King goes alone" if rules.kings_alone else "; a King never goes alone")


def _shape_text(rules: RuleSet) -> list[str]:
    """What the tableau, reserve and decks are, when they are not the classic ones."""
    parts = []
    if rules.decks > 1:
        parts.append(
            f"{rules.decks} decks ({rules.deck_size} cards): each card is there twice, "
            "the second deck's copy marked ' (AS')."
        )
    layout = rules.layout
    if layout.face_down:
        parts.append("Face-down cards turn over once nothing covers them.")
    if len(set(layout.groups)) > 1:
        parts.append(
            f"{len(set(layout.groups))} pyramids side by side; a card is covered only within its own."
        )
    if rules.reserve_piles:
        parts.append(
            f"{rules.reserve_piles} reserve piles of {rules.reserve_depth}: only their top cards play."
        )
    if rules.overlap_discards:
        parts.append("A card may also pair with the only card still covering it.")
    if rules.waste_pair:
        parts.append("The top waste card may pair with the card beneath it.")
    return parts


def how_to_play(rules: RuleSet) -> str:
    """A short "what pairs / how to win" text for ``rules``, built from the rule set's data
    (its pairing table, Kings, goal and deck size, layout, reserve, passes, stock and cells):
    what the board's Keys panel says.

    >>> from pyramid_widget.engine.rules import get_rules
    >>> how_to_play(get_rules("medium"))
    'Pair two available cards whose values add up to 13 (A = 1, J = 11, Q = 12); a King (13) goes alone. Win by clearing the pyramid. 3 passes through the stock (2 redeals).'
    >>> how_to_play(get_rules("cheops"))
    'Pair two available cards of the same or adjacent rank (A-2, ..., Q-K, no wrap). Win by clearing the pyramid. One pass through the stock, no redeal. The top stock card lies face up beside the deck and can be played.'
    >>> how_to_play(get_rules("pyramid_dozen"))
    'Pair two available cards: two cards whose values total 12, or a Queen and a King (A = 1, J = 11, Q = 12, K = 13); a King never goes alone. Win by removing all 52 cards. 6 reserve piles of 4: only their top cards play. No stock.'
    """
    goal = (
        "clearing the pyramid"
        if rules.win == "pyramid"
        else f"removing all {rules.deck_size} cards"
    )
    parts = [_pairing_text(rules) + ".", f"Win by {goal}.", *_shape_text(rules)]
    if not rules.stock_size:
        parts.append("No stock.")
        return " ".join(parts)
    parts.append(_passes_text(rules.passes).capitalize() + ".")
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
        "source": r.source,
        "pairing_text": r.pairing_table.text,
        "decks": r.decks,
        "deck_size": r.deck_size,
        "has_stock": r.stock_size > 0,
        "reserve_piles": r.reserve_piles,
        "overlap_discards": r.overlap_discards,
        "waste_pair": r.waste_pair,
        "face_down": len(r.layout.face_down),
    }


#: The widest tableau the board draws, in card widths (a card and its gap is 1.1): in a
#: 500 px column its cards are still 24 px wide. Pharaohs' three pyramids are 17.8 wide.
MAX_BOARD_WIDTH = 20.0


def board_width(rules: RuleSet) -> float:
    """How wide the board of ``rules`` is, in card widths: the tableau (its places) or the
    row of piles below it, whichever is wider, and a margin; as the page sizes it.

    >>> from pyramid_widget.engine.rules import get_rules
    >>> board_width(get_rules("medium")), board_width(get_rules("two_pyramids"))
    (7.9, 16.15)
    """
    cols = (rules.layout.width - 2) / 2 * 1.1 + 1
    piles = rules.reserve_piles + rules.cells + 1  # the discard
    if rules.stock_size:
        piles += 1 + rules.waste_piles + int(rules.stock_face_up or rules.stock_top_available)
    return round(max(cols, piles * 1.1 - 0.1) + 0.3, 3)


def check_drawable(rules: RuleSet) -> None:
    """Refuse (:class:`~pyramid_widget.errors.InvalidRulesError`) a rule set whose board is
    too wide to play in a notebook column; every preset is drawn.

    >>> from pyramid_widget.engine.layout import Layout
    >>> from pyramid_widget.engine.rules import get_rules
    >>> wide = Layout.side_by_side(*[Layout.pyramid(7)] * 3)
    >>> check_drawable(get_rules("double_pyramid").replace(name="three", layout=wide))
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidRulesError: rule set 'three': the board draws a tableau and piles up to 20 card widths wide (so that its cards stay 24 px wide in a 500 px column); this one is 24.4 wide
    """
    width = board_width(rules)
    if width > MAX_BOARD_WIDTH:
        raise InvalidRulesError(
            f"rule set {rules.name!r}: the board draws a tableau and piles up to "
            f"{MAX_BOARD_WIDTH:g} card widths wide (so that its cards stay 24 px wide in a "
            f"500 px column); this one is {width:g} wide"
        )


def layout_state(rules: RuleSet) -> dict[str, Any]:
    """The tableau's shape for the page: each position's place (``x`` in half card widths,
    ``y`` in rows) and the positions covering it, the pyramid it belongs to, the whole width
    and height. The same for every game of a rule set (it says nothing about the cards).

    >>> from pyramid_widget.engine.rules import get_rules
    >>> shape = layout_state(get_rules("triangle"))
    >>> shape["size"], shape["width"], shape["height"], shape["places"][27], shape["covered_by"][0]
    (28, 14.0, 7.0, [6.0, 6.0], [7])
    """
    layout = rules.layout
    return {
        "name": layout.name,
        "size": layout.size,
        "width": layout.width,
        "height": layout.height,
        "places": [[x, y] for x, y in layout.places],
        "covered_by": [list(qs) for qs in layout.covered_by],
        "groups": list(layout.groups),
    }


def _playable(game: Game) -> set[Card]:
    """Cards a tap may select: the available ones and any card a legal pair names (an overlap
    discard's covered card, the waste pair's card beneath the top)."""
    out = set(game.available())
    for move in game.legal_moves:
        if move.is_removal:
            out.update(move.cards)
    return out


def board_state(game: Game) -> dict[str, Any]:
    """The ``board`` trait for ``game``: cards, piles, counters and what can be done now."""
    available = set(game.available())
    legal = game.legal_moves
    view = _View(game)
    cards = (
        _pyramid_cards(game, available, view)
        + _reserve_cards(game, available)
        + _waste_cards(game, available)
        + _other_cards(game, available)
    )
    playable = {card_str(c) for c in _playable(game) if not view.is_hidden(c)}
    for entry in cards:
        if entry["id"] in playable and entry["zone"] != "discard":
            entry["playable"] = True
    return {
        "rules": _rules_summary(game),
        "layout": layout_state(game.rules),
        "cards": cards,
        "stock_count": len(game.stock),
        "waste_counts": [len(p) for p in game.wastes],
        "reserve_counts": [len(p) for p in game.reserves],
        "face_down_count": len(view.hidden),
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


#: A buried card of a reserve pile (the engine's kind is ``"buried"`` for any pile).
BURIED_IN_RESERVE = "The {name} is not on top of its reserve pile: only the top card can be played."


def why_unavailable(game: Game, card: Card) -> str | None:
    """Why ``card`` cannot be played now, in words (``None`` when it is available): the
    engine's refusal for the card, looked up in :data:`WHY_UNAVAILABLE`.

    >>> from pyramid_widget import Game, parse_card
    >>> why_unavailable(Game("medium", deal=7), parse_card("5C"))
    'The 5 of clubs is still covered by the 2 of clubs and the 10 of clubs.'
    """
    refusal = game.unavailable(card)
    if refusal is None:
        return None
    kind = refusal.kind
    if kind == "stock-top" and not game.rules.stock_face_up:
        kind = "stock"  # a face-down top card is just a card in the stock to the player
    text = WHY_UNAVAILABLE.get(kind, "The {name} cannot be played now.")
    if kind == "buried" and game.where(card).zone.value == "reserve":
        text = BURIED_IN_RESERVE
    view = _View(game)
    if view.is_hidden(card):
        return "That card is face down: it turns over once nothing covers it."
    cover = view.names(refusal.cards[1:], article="the ") if kind == "covered" else ""
    return text.format(name=card_long_name(card), cover=cover)
