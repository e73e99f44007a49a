"""Deals: the 52-card order of a game, as text and as numbered deals.

A deal lists the 28 pyramid cards (positions 0..27, row by row, left to right) and then the
24 stock cards, **the first of which is drawn first**. As text it is 52 two-character cards
separated by single spaces (``"AS 2H TD ..."``).

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

from pyramid_widget.engine.cards import DECK, Card, card_str, parse_card
from pyramid_widget.errors import InvalidCardError, InvalidDealError

PYRAMID_SIZE = 28
STOCK_SIZE = 24
MAX_DEAL_NUMBER = 2**64 - 1
_MASK64 = 2**64 - 1

Deal = tuple[Card, ...]


_LIMITS = tuple((2**64 // b) * b if b else 0 for b in range(53))
"""``_LIMITS[b]``: draws at or above it are rejected so that ``draw % b`` is unbiased."""


def deal_from_number(number: int) -> Deal:
    """Return the deal numbered ``number`` (0 to 2**64 - 1); it never changes.

    Raises :class:`InvalidDealError` for negative, too large or non-integer numbers.

    >>> len(deal_from_number(0)), sorted(deal_from_number(0)) == list(range(52))
    (52, True)
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
            f"deal number must be an integer from 0 to {MAX_DEAL_NUMBER}, got {number!r}"
        )
    # SplitMix64 (Steele, Lea and Flood, 2014) feeding a Fisher-Yates shuffle with rejection
    # sampling, written as one flat loop: experiments deal thousands of games a second.
    cards = list(DECK)
    state = number
    for i in range(51, 0, -1):
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
    return tuple(cards)


def parse_deal(text: str) -> Deal:
    """Parse a deal string of 52 distinct cards.

    Raises :class:`InvalidDealError` saying what is wrong (count, duplicates, unknown cards).

    >>> parse_deal("AS 2H")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidDealError: a deal needs 52 cards separated by spaces, got 2
    """
    if not isinstance(text, str):
        raise InvalidDealError(f"a deal must be a string of 52 cards, got {type(text).__name__}")
    words = text.split()
    if len(words) != 52:
        raise InvalidDealError(f"a deal needs 52 cards separated by spaces, got {len(words)}")
    cards: list[Card] = []
    for index, word in enumerate(words):
        try:
            cards.append(parse_card(word))
        except InvalidCardError as exc:
            raise InvalidDealError(f"card {index + 1} of the deal: {exc}") from None
    return validate_deal(cards)


def validate_deal(cards: Sequence[Card]) -> Deal:
    """Check that ``cards`` holds each of the 52 cards exactly once; return it as a tuple.

    >>> validate_deal([0] * 52)
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidDealError: the deal repeats AC (52 times) and lacks 51 cards: AD ... KS
    """
    deal = tuple(cards)
    if len(deal) != 52:
        raise InvalidDealError(f"a deal needs 52 cards, got {len(deal)}")
    if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52 for c in deal):
        raise InvalidDealError("a deal's cards must be integers from 0 to 51")
    if len(set(deal)) != 52:
        repeated = sorted({c for c in deal if deal.count(c) > 1})
        missing = sorted(set(DECK) - set(deal))
        shown = " ... ".join(card_str(c) for c in (missing[0], missing[-1]))
        parts = ", ".join(f"{card_str(c)} ({deal.count(c)} times)" for c in repeated[:3])
        raise InvalidDealError(f"the deal repeats {parts} and lacks {len(missing)} cards: {shown}")
    return deal


def format_deal(deal: Sequence[Card]) -> str:
    """Return the deal as text: 52 cards separated by single spaces."""
    return " ".join(card_str(c) for c in deal)


def coerce_deal(deal: int | str | Sequence[Card]) -> tuple[Deal, int | None]:
    """Turn a deal number, deal string or card sequence into ``(deal, number_or_None)``."""
    if isinstance(deal, int) and not isinstance(deal, bool):
        return deal_from_number(deal), deal
    if isinstance(deal, str):
        return parse_deal(deal), None
    if isinstance(deal, (list, tuple)):
        return validate_deal(deal), None
    raise InvalidDealError(
        f"a deal is a number, a deal string or 52 cards, got {type(deal).__name__}"
    )
