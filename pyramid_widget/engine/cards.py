"""Cards as small integers.

A card is an ``int`` from 0 to 51: ``card = (rank - 1) * 4 + suit``, with ranks 1 (Ace) to 13
(King) and suits in the order clubs, diamonds, hearts, spades. Suits never matter for play;
they only make each card unique.

Two-deck games add the second deck's copies as 52 to 103 (``card + 52``): the face is
``card % 52`` and the copy ``card // 52``. The second copy's name carries a prime mark
(``"AS'"``), so a move names either copy and parses back; one-deck games never see it.

>>> c = parse_card("TD")
>>> c, rank(c), suit(c), card_str(c)
(37, 10, 1, 'TD')
>>> card_long_name(parse_card("QH"))
'Queen of hearts'
>>> twin = parse_card("TD'")
>>> twin, rank(twin), copy_of(twin), card_str(twin), card_long_name(twin)
(89, 10, 1, "TD'", '10 of diamonds (second deck)')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from pyramid_widget.engine.quoting import shown
from pyramid_widget.errors import InvalidCardError

Card: TypeAlias = int

RANKS = "A23456789TJQK"
SUITS = "CDHS"
RANK_NAMES = (
    "Ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "Jack",
    "Queen",
    "King",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")
DECK: tuple[Card, ...] = tuple(range(52))
KING = 13
#: The mark of a second-deck copy in a card's name (``"AS'"``).
COPY_MARK = "'"


def deck(decks: int = 1) -> tuple[Card, ...]:
    """Return every card of ``decks`` decks (1 or 2), in card order.

    >>> len(deck(2)), deck(2)[52] == 52
    (104, True)
    """
    return tuple(range(52 * decks))


def make_card(rank_value: int, suit_index: int) -> Card:
    """Return the card of ``rank_value`` (1..13) and ``suit_index`` (0..3).

    >>> card_str(make_card(13, 3))
    'KS'
    """
    if not 1 <= rank_value <= 13 or not 0 <= suit_index <= 3:
        raise InvalidCardError(f"no card has rank {shown(rank_value)} and suit {shown(suit_index)}")
    return (rank_value - 1) * 4 + suit_index


def rank(card: Card) -> int:
    """Return the rank value of ``card``: Ace 1, 2-10 face value, Jack 11, Queen 12, King 13."""
    return card % 52 // 4 + 1


def copy_of(card: Card) -> int:
    """Return which deck ``card`` comes from: 0 for the first, 1 for the second."""
    return card // 52


def suit(card: Card) -> int:
    """Return the suit index of ``card``: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card % 4


def parse_card(text: str) -> Card:
    """Parse a two-character card such as ``"AS"`` or ``"td"`` (case does not matter).

    ``"10"`` is accepted for ten as a courtesy (``"10H"``); a trailing prime (``"AS'"``)
    names the second deck's copy.

    Raises :class:`~pyramid_widget.errors.InvalidCardError` (a ``ValueError``) naming the text.

    >>> parse_card("AS"), parse_card("10h")
    (3, 38)
    >>> parse_card("ZZ")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidCardError: 'ZZ' is not a card: use rank A23456789TJQK then suit CDHS, like 'TD'
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"{shown(text)} is not a card: expected a string like 'TD'")
    cleaned = text.strip().upper()
    second = cleaned.endswith(COPY_MARK)
    if second:
        cleaned = cleaned[:-1]
    if cleaned.startswith("10") and len(cleaned) == 3:
        cleaned = "T" + cleaned[2]
    if len(cleaned) != 2 or cleaned[0] not in RANKS or cleaned[1] not in SUITS:
        raise InvalidCardError(
            f"{shown(text)} is not a card: use rank {RANKS} then suit {SUITS}, like 'TD'"
        )
    return RANKS.index(cleaned[0]) * 4 + SUITS.index(cleaned[1]) + (52 if second else 0)


def is_card(value: object) -> bool:
    """Whether ``value`` is text :func:`parse_card` reads as a card.

    >>> is_card("td"), is_card("10H"), is_card("-5"), is_card(7)
    (True, True, False, False)
    """
    try:
        parse_card(value)  # type: ignore[arg-type]
    except InvalidCardError:
        return False
    return True


def card_problem(value: object, decks: int = 2) -> str | None:
    """Why ``value`` is no card of a game of ``decks`` decks, in one sentence, or ``None``
    when it is one. Every part of the engine that takes a card says it with these words.

    >>> card_problem(parse_card("AH'"), decks=1)
    "AH' is a second-deck card, but the game has one deck"
    >>> card_problem(200)
    '200 is not a card: cards are numbered 0 to 103'
    >>> card_problem(parse_card("AH'")) is None
    True
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 104:
        return f"{shown(value)} is not a card: cards are numbered 0 to 103"
    if value >= 52 * decks:
        return f"{card_str(value)} is a second-deck card, but the game has one deck"
    return None


def card_str(card: Card) -> str:
    """Return the two-character name of ``card``, rank then suit: ``"TD"`` (``"TD'"`` for
    the second deck's copy)."""
    face = card % 52
    return RANKS[face // 4] + SUITS[face % 4] + (COPY_MARK if card >= 52 else "")


def card_long_name(card: Card) -> str:
    """Return the spoken name of ``card``, e.g. ``"10 of diamonds"`` or ``"Queen of hearts"`` (for screen readers)."""
    face = card % 52
    name = f"{RANK_NAMES[face // 4]} of {SUIT_NAMES[face % 4]}"
    return name + (" (second deck)" if card >= 52 else "")


def rank_name(value: int) -> str:
    """Return a rank's name as a player says it: ``rank_name(12) == "Queen"``."""
    return RANK_NAMES[value - 1]


def cards_str(cards: Iterable[Card]) -> str:
    """Join cards with spaces: ``cards_str([0, 51]) == "AC KS"``."""
    return " ".join(card_str(c) for c in cards)
