"""Deals: the 52-card order of a game, as text and as numbered deals.

A deal lists the 28 pyramid cards (positions 0..27, row by row, left to right) and then the
24 stock cards, **the first of which is drawn first**. As text it is 52 two-character cards
separated by single spaces (``"AS 2H TD ..."``).

Two-deck games deal 104 cards: the same card appears twice, and which copy is which is decided
by order of appearance (the first AS of a deal is ``AS``, the second ``AS'``), so a deal string
needs no marks and reads back to the same cards. Where the layout has a reserve, its piles come
between the tableau and the stock (pile 0 first, each pile bottom card first).

Numbered deals come from our own generator (SplitMix64 feeding a Fisher-Yates shuffle of the
deck in card order), written out here so that a number gives the same deal on every platform,
every Python version and every release of this project. Golden tests pin deals 0, 1, 2 and
a large number.

>>> format_deal(deal_from_number(7))[:23]
'5C 2C TC JD 8D 9S KS 5H'
>>> parse_deal(format_deal(deal_from_number(7))) == deal_from_number(7)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pyramid_widget.engine.cards import (
    DECK,
    Card,
    card_problem,
    card_str,
    deck,
    is_card,
    parse_card,
)
from pyramid_widget.engine.quoting import shown
from pyramid_widget.errors import InvalidCardError, InvalidDealError

PYRAMID_SIZE = 28
STOCK_SIZE = 24
MAX_DEAL_NUMBER = 2**64 - 1
_MASK64 = 2**64 - 1

Deal = tuple[Card, ...]


_LIMITS = tuple((2**64 // b) * b if b else 0 for b in range(105))
"""``_LIMITS[b]``: draws at or above it are rejected so that ``draw % b`` is unbiased."""


def deal_from_number(number: int, decks: int = 1) -> Deal:
    """Return the deal numbered ``number`` (0 to 2**64 - 1) of ``decks`` decks; it never
    changes. Two decks shuffle all 104 cards with the same generator, then name the copies
    by order of appearance.

    Raises :class:`InvalidDealError` for negative, too large or non-integer numbers.

    >>> len(deal_from_number(0)), sorted(deal_from_number(0)) == list(range(52))
    (52, True)
    >>> two = deal_from_number(0, decks=2)
    >>> len(two), sorted(c % 52 for c in two) == sorted(list(range(52)) * 2)
    (104, True)
    >>> deal_from_number(-1)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidDealError: deal number must be an integer from 0 to 18446744073709551615, got -1
    """
    if (
        isinstance(number, bool)
        or not isinstance(number, int)
        or not 0 <= number <= MAX_DEAL_NUMBER
    ):
        raise InvalidDealError(
            f"deal number must be an integer from 0 to {MAX_DEAL_NUMBER}, got {shown(number)}"
        )
    # SplitMix64 (Steele, Lea and Flood, 2014) feeding a Fisher-Yates shuffle with rejection
    # sampling, written as one flat loop: experiments deal thousands of games a second.
    if decks not in (1, 2):
        raise InvalidDealError(f"a game has one or two decks, got {shown(decks)}")
    cards = list(deck(decks))
    state = number
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        limit = _LIMITS[bound]
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            z ^= z >> 31
            if z < limit:
                break
        j = z % bound
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards) if decks == 1 else by_appearance(cards)


def by_appearance(cards: Sequence[Card]) -> Deal:
    """Name the two copies of each card by order of appearance: the first becomes the first
    deck's copy (``AS``), the second the second deck's (``AS'``).

    >>> cards_of = lambda deal: [card_str(c) for c in deal]
    >>> cards_of(by_appearance([55, 3, 0, 52]))
    ['AS', "AS'", 'AC', "AC'"]
    """
    seen: set[Card] = set()
    named = []
    for card in cards:
        face = card % 52
        named.append(face + 52 if face in seen else face)
        seen.add(face)
    return tuple(named)


def parse_deal(text: str, decks: int = 1) -> Deal:
    """Parse a deal string of 52 distinct cards (104 for two decks: each card twice; copy
    marks are optional and the copies are named by order of appearance).

    Raises :class:`InvalidDealError` saying what is wrong (count, duplicates, unknown cards).

    >>> parse_deal("AS 2H")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidDealError: a deal needs 52 cards separated by spaces, got 2
    >>> parse_deal("-5")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidDealError: '-5' is not a deal: give a deal number (a whole number like 7) or 52 cards separated by spaces
    """
    size = 52 * decks if decks in (1, 2) else 52
    if not isinstance(text, str):
        raise InvalidDealError(
            f"a deal must be a string of {size} cards, got {type(text).__name__}"
        )
    words = text.split()
    if len(words) == 1 and not is_card(words[0]):
        # One word that is no card ("-5", "abc", "1.5", "1e3" typed in a deal box) was meant
        # as a deal number: say what a deal number is, not that 51 cards are missing.
        raise InvalidDealError(
            f"{shown(words[0])} is not a deal: give a deal number (a whole number like 7) "
            f"or {size} cards separated by spaces"
        )
    if len(words) != size:
        raise InvalidDealError(
            f"a deal needs {size} cards separated by spaces, got {_count(len(words))}"
        )
    cards: list[Card] = []
    for index, word in enumerate(words):
        try:
            cards.append(parse_card(word))
        except InvalidCardError as exc:
            raise InvalidDealError(f"card {index + 1} of the deal: {exc}") from None
        problem = card_problem(cards[-1], decks)
        if problem is not None:
            raise InvalidDealError(f"card {index + 1} of the deal: {problem}")
    if decks == 2:
        cards = [c % 52 for c in cards]
        counts = [cards.count(face) for face in DECK]
        if any(n != 2 for n in counts):
            return validate_deal(cards, decks)
        return validate_deal(by_appearance(cards), decks)
    return validate_deal(cards, decks)


def _count(n: int) -> str:
    return str(n) if n < 10**6 else "more than a million"


def validate_deal(cards: Sequence[Card], decks: int = 1) -> Deal:
    """Check that ``cards`` holds each of the 52 cards exactly once (each of the 104 cards
    of two decks, ``0..103``, once); return it as a tuple.

    >>> validate_deal([0] * 52)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidDealError: the deal repeats AC (52 times) and lacks 51 cards: AD ... KS
    """
    if decks not in (1, 2):
        raise InvalidDealError(f"a game has one or two decks, got {shown(decks)}")
    size = 52 * decks
    deal = tuple(cards)
    if len(deal) != size:
        raise InvalidDealError(f"a deal needs {size} cards, got {_count(len(deal))}")
    if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < size for c in deal):
        raise InvalidDealError(f"a deal's cards must be integers from 0 to {size - 1}")
    if len(set(deal)) != size:
        if decks == 2:
            faces = [c % 52 for c in deal]
            wrong = sorted({f for f in faces if faces.count(f) != 2})
            parts = ", ".join(f"{card_str(f)} ({faces.count(f)} times)" for f in wrong[:3])
            raise InvalidDealError(
                f"a two-deck deal holds every card exactly twice, but it has {parts}"
            )
        repeated = sorted({c for c in deal if deal.count(c) > 1})
        missing = sorted(set(DECK) - set(deal))
        ends = " ... ".join(card_str(c) for c in (missing[0], missing[-1]))
        parts = ", ".join(f"{card_str(c)} ({deal.count(c)} times)" for c in repeated[:3])
        raise InvalidDealError(f"the deal repeats {parts} and lacks {len(missing)} cards: {ends}")
    return deal


def format_deal(deal: Sequence[Card]) -> str:
    """Return the deal as text: its cards separated by single spaces (a two-deck deal is
    written without copy marks: the order of appearance names the copies)."""
    return " ".join(card_str(c % 52) for c in deal)


def coerce_deal(deal: int | str | Sequence[Card], decks: int = 1) -> tuple[Deal, int | None]:
    """Turn a deal number, deal string or card sequence into ``(deal, number_or_None)``."""
    if isinstance(deal, int) and not isinstance(deal, bool):
        return deal_from_number(deal, decks), deal
    if isinstance(deal, str):
        return parse_deal(deal, decks), None
    if isinstance(deal, (list, tuple)):
        cards = validate_deal(deal, decks)
        if decks == 2 and by_appearance(cards) != cards:
            raise InvalidDealError(
                "a two-deck deal names the first copy of each card before the second "
                "(AS before AS'); pass the deal string instead, without marks"
            )
        return cards, None
    raise InvalidDealError(
        f"a deal is a number, a deal string or {52 * decks} cards, got {type(deal).__name__}"
    )
