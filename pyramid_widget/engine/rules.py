"""Rule sets as data: a frozen :class:`RuleSet` and the named presets of docs/RULES.md.

A rule set says how cards pair, which cards are available, how the stock is dealt and
recycled, when the game is won or lost, how deep undo goes and how a game is scored. The
engine, the solver, the widget and the experiments all read these fields and nothing else,
so a user can compose a new rule set and every part of the project plays it:

>>> two_waste = get_rules("medium").replace(name="two-waste", waste_piles=2, draw_count=2,
...                                         passes=5)
>>> two_waste.passes, two_waste.waste_piles
(5, 2)
>>> RuleSet(name="broken", waste_piles=0)
Traceback (most recent call last):
...
pyramid_widget.errors.InvalidRulesError: rule set 'broken': waste_piles must be at least 1, got 0

Decisions where docs/RULES.md is silent (also in the README's rules section):

- A draw deals ``draw_count`` cards, the i-th onto waste pile ``i % waste_piles`` (so the
  three-pile presets deal one card onto each pile, and a one-pile "draw three" set stacks
  three cards with the last one on top).
- ``redeal`` is an explicit move, allowed when the stock is empty, some waste pile holds
  cards and a pass is left; it is never automatic, so the player sees the stock run out.
- Two waste tops pair only where ``"waste+waste"`` is in ``pair_zones`` (the three-pile
  presets); a lone available King is removed wherever ``kings_alone`` is set, whatever its
  zone (pyramid, waste top, stock top or cell).
- A pyramid card moved into a free cell still has to be removed before the pyramid counts
  as cleared.
- In ``egypt`` a finished round is followed by the ``next-round`` move, which deals the next
  deal of the run (see :func:`pyramid_widget.engine.deals.deal_from_number`); undo never crosses a
  round.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pyramid_widget.engine.cards import Card, rank
from pyramid_widget.engine.layout import CLASSIC, Layout
from pyramid_widget.engine.quoting import listed, shown
from pyramid_widget.errors import InvalidRulesError

ZONES = ("cell", "pyramid", "reserve", "stock", "waste")
#: The longest rule set name and description, in characters.
MAX_NAME = 80
MAX_DESCRIPTION = 1000
#: The most pairs a pairing table may list (there are 91 different ones).
MAX_PAIRS = 200
#: The largest number (in absolute value) a scoring field may hold.
MAX_POINTS = 10**9
WinCondition = Literal["pyramid", "all"]
RedealOrder = Literal["first-drawn", "by-pile"]
REDEAL_ORDERS = ("first-drawn", "by-pile")


_CONTROL = {"Cc", "Cs", "Zl", "Zp"}


def _text_problem(value: object, limit: int, *, empty: bool) -> str | None:
    """What is wrong with a name or description: not a string, empty, too long, or holding
    control characters (markup is fine: the page shows it as text)."""
    if not isinstance(value, str):
        return f"must be a string, got {shown(value)}"
    if not value and not empty:
        return "must be a non-empty string"
    if len(value) > limit:
        return f"must be at most {limit} characters, got {len(value)}"
    if any(unicodedata.category(ch) in _CONTROL for ch in value):
        return "must not hold control characters (line breaks, tabs, escapes)"
    return None


@dataclass(frozen=True)
class Pairing:
    """Which two rank values pair, as data: ``pairs`` holds ``(a, b)`` with ``a <= b``.

    A value paired with itself (``(11, 11)``: J+J) pairs two cards of the same rank. Which
    single cards go alone is the rule set's ``kings_alone``. The named tables are in
    :data:`PAIRINGS`; ``RuleSet.pairing`` takes a name or a table. ``pairs`` may be given as
    any collection of pairs, each a tuple or a list; anything else raises
    :class:`~pyramid_widget.errors.InvalidRulesError`.

    >>> PAIRINGS["sum13"].matches(5, 8), PAIRINGS["adjacent"].matches(1, 13)
    (True, False)
    >>> PAIRINGS["sum11"].matches(12, 12), PAIRINGS["sum12"].matches(12, 13)
    (True, True)
    >>> PAIRINGS["sum13"].partners(6)
    (7,)
    >>> Pairing("mine", [[5, 8], (6, 7)]).pairs == {(5, 8), (6, 7)}
    True
    >>> Pairing("broken", [[1, [12]]])
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidRulesError: pairing 'broken': pairs are two rank values from 1 (Ace) to 13 (King), got a list
    """

    name: str
    pairs: frozenset[tuple[int, int]]
    text: str = ""
    either: frozenset[tuple[int, int]] = field(init=False, repr=False, compare=False)
    """``pairs`` in both orders, for :meth:`matches`."""

    def __post_init__(self) -> None:
        problem = _text_problem(self.name, MAX_NAME, empty=False)
        if problem:
            raise InvalidRulesError(f"a pairing's name {problem}")
        table = f"pairing {self.name!r}"
        problem = _text_problem(self.text, MAX_DESCRIPTION, empty=True)
        if problem:
            raise InvalidRulesError(f"{table}: its text {problem}")
        items = self.pairs
        # a table is data from a file as often as from code: any collection of pairs, each
        # a tuple or a list, but never a text, a mapping or a huge or endless iterable
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
            raise InvalidRulesError(
                f"{table}: pairs must be a collection of [value, value] pairs, got {shown(items)}"
            )
        listed = list(itertools.islice(items, MAX_PAIRS + 1))
        if len(listed) > MAX_PAIRS:
            raise InvalidRulesError(f"{table}: a pairing table holds at most {MAX_PAIRS} pairs")
        pairs = set()
        for item in listed:
            ok = isinstance(item, (tuple, list)) and len(item) == 2
            ok = ok and all(isinstance(v, int) and not isinstance(v, bool) for v in item)
            if not ok or not all(1 <= v <= 13 for v in item):
                raise InvalidRulesError(
                    f"{table}: pairs are two rank values from 1 (Ace) to 13 (King), "
                    f"got {shown(item)}"
                )
            pairs.add((min(item), max(item)))
        object.__setattr__(self, "pairs", frozenset(pairs))
        object.__setattr__(self, "either", frozenset(pairs | {(b, a) for a, b in pairs}))

    def matches(self, a: int, b: int) -> bool:
        """Whether rank values ``a`` and ``b`` pair."""
        return (a, b) in self.either

    def partners(self, value: int) -> tuple[int, ...]:
        """The values that pair with ``value``, smallest first."""
        return tuple(v for v in range(1, 14) if self.matches(value, v))


def _sum_pairs(total: int, *extra: tuple[int, int]) -> frozenset[tuple[int, int]]:
    return frozenset(
        {(a, total - a) for a in range(1, total // 2 + 1) if total - a <= 13} | set(extra)
    )


PAIRINGS: dict[str, Pairing] = {
    "sum13": Pairing("sum13", _sum_pairs(13), "two cards whose values total 13"),
    "adjacent": Pairing(
        "adjacent",
        frozenset({(v, v) for v in range(1, 14)} | {(v, v + 1) for v in range(1, 13)}),
        "two cards of the same or adjacent rank (ranks do not wrap: never A with K)",
    ),
    "sum11": Pairing(
        "sum11",
        _sum_pairs(11, (11, 11), (12, 12), (13, 13)),
        "two cards whose values total 11, or two Jacks, two Queens or two Kings",
    ),
    "sum12": Pairing(
        "sum12", _sum_pairs(12, (12, 13)), "two cards whose values total 12, or a Queen and a King"
    ),
}
"""The named pairing tables: today's ``sum13`` and ``adjacent`` and the family's ``sum11``
(Eleven Triangle) and ``sum12`` (Pyramid Dozen)."""


def zone_pair(a: str, b: str) -> str:
    """Return the canonical name of a pair of zones: ``zone_pair("waste", "pyramid")``
    is ``"pyramid+waste"``."""
    first, second = sorted((a, b))
    return f"{first}+{second}"


def _zones(*pairs: tuple[str, str]) -> frozenset[str]:
    return frozenset(zone_pair(a, b) for a, b in pairs)


CLASSIC_ZONES = _zones(("pyramid", "pyramid"), ("pyramid", "waste"))
STOCK_TOP_ZONES = CLASSIC_ZONES | _zones(("pyramid", "stock"), ("stock", "waste"))
MULTI_WASTE_ZONES = CLASSIC_ZONES | _zones(("waste", "waste"))
CELL_ZONES = MULTI_WASTE_ZONES | _zones(("cell", "pyramid"), ("cell", "waste"))


def _int_at_least(value: object, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


#: Integer fields of a rule set and their ranges.
_INT_RANGES = {
    "waste_piles": (1, 8),
    "draw_count": (1, 52),
    "cells": (0, 4),
    "undo_depth": (0, 1_000_000),
    "decks": (1, 2),
    "reserve_piles": (0, 12),
    "reserve_depth": (0, 13),
}
_BOOL_FIELDS = (
    "kings_alone",
    "stock_top_available",
    "stock_face_up",
    "stall_rule",
    "rounds",
    "overlap_discards",
    "waste_pair",
)
#: The most passes a rule set may allow (and the highest pass a saved game may be in).
MAX_PASSES = 1_000_000


def _range_problem(name: str, value: object, low: int, high: int) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{name} must be an integer from {low} to {high}, got {shown(value)}"
    if value < low:
        return f"{name} must be at least {low}, got {shown(value)}"
    if value > high:
        return f"{name} must be at most {high}, got {shown(value)}"
    return None


def _scoring_problems(scoring: Scoring) -> Iterable[str]:
    for f in dataclasses.fields(scoring):
        value = getattr(scoring, f.name)
        if f.name == "undo_keeps_score":
            if type(value) is not bool:
                yield f"undo_keeps_score must be true or false, got {shown(value)}"
        elif f.name == "time_bonus_per_second":
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            if not number or not 0 <= value <= MAX_POINTS or not math.isfinite(value):
                yield (
                    f"time_bonus_per_second must be a number from 0 to {MAX_POINTS}, "
                    f"got {shown(value)}"
                )
        else:
            problem = _range_problem(f.name, value, -MAX_POINTS, MAX_POINTS)
            if problem:
                yield problem


@dataclass(frozen=True)
class Scoring:
    """How a game is scored. Two schemes ship: :data:`CLASSIC_SCORING` and
    :data:`EGYPT_SCORING`.

    Points are earned by removals (``per_card`` for each card discarded plus ``per_removal``
    for each pair or King), by winning (``win_bonus``; a round in ``egypt``), by clearing all
    52 cards when the win needs only the pyramid (``clear_all_bonus``), by the time bonus
    (``time_bonus_start`` minus ``time_bonus_per_second`` for each second played, not below 0,
    paid on a win) and by ``round_number_bonus`` times the round number on a win.
    With ``undo_keeps_score`` an undo never takes points back and a card re-removed after an
    undo earns nothing twice.
    """

    per_card: int = 5
    per_removal: int = 0
    win_bonus: int = 500
    clear_all_bonus: int = 0
    time_bonus_start: int = 600
    time_bonus_per_second: float = 1.0
    round_number_bonus: int = 0
    undo_keeps_score: bool = False

    def __post_init__(self) -> None:
        for problem in _scoring_problems(self):
            raise InvalidRulesError(f"bad scoring: {problem}")

    def time_bonus(self, seconds: float) -> int:
        """Return the time bonus for a win after ``seconds`` of play.

        >>> EGYPT_SCORING.time_bonus(0), EGYPT_SCORING.time_bonus(100), EGYPT_SCORING.time_bonus(5000)
        (20000, 18000, 0)
        """
        return max(0, int(self.time_bonus_start - self.time_bonus_per_second * seconds))


CLASSIC_SCORING = Scoring()
"""Every rule set but ``egypt``: 5 points a card discarded, 500 for a win, and a time bonus
of 600 minus one point a second (nothing after ten minutes) paid on a win. Undo takes back
the points of the undone move."""

EGYPT_SCORING = Scoring(
    per_card=0,
    per_removal=500,
    win_bonus=10_000,
    clear_all_bonus=15_000,
    time_bonus_start=20_000,
    time_bonus_per_second=20.0,
    round_number_bonus=1_000,
    undo_keeps_score=True,
)
"""``egypt``: 500 a pair or King, 10,000 a round, 15,000 more when all 52 cards of the round
are gone, a time bonus from 20,000 down by 20 a second (zero after 16 min 40 s of the round)
and round number x 1,000, paid when the round is completed. Undo does not change the score."""


@dataclass(frozen=True)
class RuleSet:
    """A complete set of Pyramid rules. Presets are instances; build others freely.

    Fields: ``pairing`` ("sum13": values total 13; "adjacent": same or adjacent rank, no
    wrap; "sum11" and "sum12" for the family; or a :class:`Pairing` table), ``kings_alone`` (a lone available King is removed), ``waste_piles``, ``draw_count``
    (cards dealt by one draw, one pile after another), ``passes`` (traversals of the stock;
    ``None`` = unlimited), ``stock_top_available`` (the top stock card may be played),
    ``stock_face_up`` (the stock's top card is shown), ``pair_zones`` (which zones may pair
    with which, as ``"pyramid+waste"`` names), ``cells`` (free cells, ``egypt``),
    ``win`` ("pyramid" empty or "all" cards gone: 52, or 104 with two decks), ``undo_depth``
    (how many moves undo takes back in a row: 100, or 1 in ``egypt``; 0 for no undo at all),
    ``stall_rule`` (the ``easy`` rule: a whole pass with no removal and no removal left ends
    the game), ``rounds`` (winning a round deals the next one, ``egypt``) and ``scoring``.

    >>> from pyramid_widget.engine.game import Game
    >>> no_undo = Game(get_rules("medium").replace(name="no-undo", undo_depth=0), deal=7)
    >>> _ = no_undo.play("draw")
    >>> no_undo.can_undo, no_undo.refusal("draw") is None
    (False, True)
    """

    name: str = "custom"
    pairing: str | Pairing = "sum13"
    kings_alone: bool = True
    waste_piles: int = 1
    draw_count: int = 1
    passes: int | None = 3
    stock_top_available: bool = False
    stock_face_up: bool = False
    pair_zones: frozenset[str] = field(default=CLASSIC_ZONES)
    cells: int = 0
    win: WinCondition = "pyramid"
    undo_depth: int = 100
    stall_rule: bool = False
    rounds: bool = False
    scoring: Scoring = field(default=CLASSIC_SCORING)
    description: str = ""
    layout: Layout = field(default=CLASSIC)
    decks: int = 1
    reserve_piles: int = 0
    reserve_depth: int = 0
    overlap_discards: bool = False
    waste_pair: bool = False
    redeal_order: RedealOrder = "first-drawn"
    source: str = ""

    def __post_init__(self) -> None:
        name = self.name if _text_problem(self.name, MAX_NAME, empty=False) is None else "custom"
        object.__setattr__(self, "pair_zones", _normalise_zones(name, self.pair_zones))
        for problem in _problems(self):
            raise InvalidRulesError(f"rule set {name!r}: {problem}")

    @property
    def pairing_table(self) -> Pairing:
        """The pairing as a :class:`Pairing` table (a name is looked up in :data:`PAIRINGS`)."""
        if isinstance(self.pairing, Pairing):
            return self.pairing
        return PAIRINGS[self.pairing]

    @property
    def deck_size(self) -> int:
        """How many cards the game holds: 52 a deck."""
        return 52 * self.decks

    @property
    def tableau_size(self) -> int:
        """How many positions the tableau (``layout``) has."""
        return self.layout.size

    @property
    def reserve_size(self) -> int:
        """How many cards the reserve piles hold at the deal."""
        return self.reserve_piles * self.reserve_depth

    @property
    def stock_size(self) -> int:
        """How many cards the stock holds at the deal."""
        return self.deck_size - self.tableau_size - self.reserve_size

    @property
    def has_hidden(self) -> bool:
        """Whether some tableau cards are dealt face down."""
        return bool(self.layout.face_down)

    @property
    def classic_shape(self) -> bool:
        """Whether the rule set has the shape the seven presets share: the classic 28-card
        pyramid, one deck, no reserve, no overlap discards, no waste pair, first-drawn
        redeals and the ``sum13`` or ``adjacent`` pairing (face-down flags aside).

        >>> get_rules("apophis").classic_shape, get_rules("giza").classic_shape
        (True, False)
        """
        return (
            self.layout.covered_by == CLASSIC.covered_by
            and self.decks == 1
            and not self.reserve_piles
            and not self.overlap_discards
            and not self.waste_pair
            and self.redeal_order == "first-drawn"
            and self.pairing in ("sum13", "adjacent")
        )

    def pairs(self, a: Card, b: Card) -> bool:
        """Return whether cards ``a`` and ``b`` match under the pairing rule (zones aside).

        >>> from pyramid_widget.engine.cards import parse_card as c
        >>> get_rules("medium").pairs(c("5H"), c("8C")), get_rules("cheops").pairs(c("AS"), c("KS"))
        (True, False)
        """
        if a == b:
            return False
        return self.pairing_table.matches(rank(a), rank(b))

    def zones_pair(self, zone_a: str, zone_b: str) -> bool:
        """Return whether a card in ``zone_a`` may pair with one in ``zone_b``."""
        return zone_pair(zone_a, zone_b) in self.pair_zones

    def replace(self, **changes: Any) -> RuleSet:
        """Return a copy with ``changes`` applied (validated like a new rule set)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise InvalidRulesError(f"rule sets have no field(s) {listed(unknown)}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the rule set as JSON-ready data (``RuleSet.from_dict`` reads it back)."""
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        data["scoring"] = dataclasses.asdict(self.scoring)
        data["pair_zones"] = sorted(self.pair_zones)
        # the family's fields are written only where they differ from the classic defaults,
        # so the seven presets (and the records and saved games that hold them) read as before
        for name, default in _FAMILY_DEFAULTS.items():
            if data[name] == default:
                del data[name]
        if "layout" in data:
            data["layout"] = self.layout.to_dict()
        if isinstance(self.pairing, Pairing):
            data["pairing"] = {"name": self.pairing.name, "pairs": sorted(self.pairing.pairs)}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from :meth:`to_dict` output, with clear errors for bad data."""
        if not isinstance(data, Mapping):
            raise InvalidRulesError(f"rules must be a mapping, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidRulesError(f"rule sets have no field(s) {listed(unknown)}")
        values = dict(data)
        if "scoring" in values and isinstance(values["scoring"], Mapping):
            scoring = values["scoring"]
            fields = {f.name for f in dataclasses.fields(Scoring)}
            if set(scoring) - fields:
                raise InvalidRulesError(
                    f"bad scoring: scoring has no field(s) {listed(set(scoring) - fields)}"
                )
            values["scoring"] = Scoring(**scoring)
        elif "scoring" in values and not isinstance(values["scoring"], Scoring):
            raise InvalidRulesError(
                f"bad scoring: scoring must be a mapping of its fields, got {shown(values['scoring'])}"
            )
        if "layout" in values and not isinstance(values["layout"], Layout):
            values["layout"] = Layout.from_dict(values["layout"])
        if isinstance(values.get("pairing"), Mapping):
            table = values["pairing"]
            pairs = table.get("pairs")
            if not isinstance(pairs, (list, tuple)):
                raise InvalidRulesError("a pairing table needs a list of [value, value] pairs")
            # the pairs go to Pairing as they are: it checks each one before hashing it, and
            # makes the frozenset the field holds
            name = str(table.get("name", "custom"))[:MAX_NAME]
            values["pairing"] = Pairing(name, pairs)  # type: ignore[arg-type]
        if "pair_zones" in values:
            zones = values["pair_zones"]
            if not isinstance(zones, (list, tuple, set, frozenset)) or not all(
                isinstance(z, str) for z in zones
            ):
                raise InvalidRulesError(
                    "pair_zones must be a list of 'zone+zone' names, like 'pyramid+waste'"
                )
            values["pair_zones"] = frozenset(zones)
        return cls(**values)


def _normalise_zones(name: str, zones: Iterable[str]) -> frozenset[str]:
    if isinstance(zones, str) or not isinstance(zones, Iterable):
        raise InvalidRulesError(f"rule set {name!r}: pair_zones must be a set of 'zone+zone' names")
    result = set()
    for item in zones:
        parts = item.split("+") if isinstance(item, str) else []
        if len(parts) != 2 or not all(p in ZONES for p in parts):
            raise InvalidRulesError(
                f"rule set {name!r}: {shown(item)} is not a zone pair; use two of "
                f"{', '.join(ZONES)} joined by '+', like 'pyramid+waste'"
            )
        result.add(zone_pair(*parts))
    return frozenset(result)


def _pairing_problems(rules: RuleSet) -> Iterable[str]:
    """A value that pairs with nothing and cannot go alone could never leave the game."""
    if type(rules.kings_alone) is not bool:
        return  # reported with the flags
    table = rules.pairing_table
    stuck = [
        v for v in range(1, 14) if not table.partners(v) and not (v == 13 and rules.kings_alone)
    ]
    if stuck:
        from pyramid_widget.engine.cards import rank_name

        names = ", ".join(rank_name(v) for v in stuck)
        yield (
            f"the pairing {shown(table.name)} pairs {names} with nothing and the rules do not remove "
            "it alone, so such a card could never leave the game"
        )


def _shape_problems(rules: RuleSet) -> Iterable[str]:
    """The layout, the decks and the reserve must fit together."""
    if not isinstance(rules.layout, Layout):
        yield "layout must be a Layout (see pyramid_widget.engine.layout)"
        return
    if any(_range_problem("", getattr(rules, n), 0, 99) for n in _SHAPE_INTS):
        return  # reported with the integer fields
    if rules.decks not in (1, 2):
        return
    if bool(rules.reserve_piles) != bool(rules.reserve_depth):
        yield "a reserve needs both reserve_piles and reserve_depth (or neither)"
    dealt = rules.tableau_size + rules.reserve_size
    if dealt > rules.deck_size:
        yield (
            f"the tableau ({rules.tableau_size}) and the reserve ({rules.reserve_size}) need "
            f"{dealt} cards but {rules.decks} deck(s) hold {rules.deck_size}"
        )
    if rules.decks == 2 and rules.tableau_size <= 28:
        yield (
            f"a two-deck game needs a tableau of more than 28 cards (this one has "
            f"{rules.tableau_size}); the rest of 104 cards would all be stock"
        )
    if rules.stock_size == 0 and (rules.stock_top_available or rules.stall_rule):
        yield "the deal leaves no stock, so stock_top_available and stall_rule make no sense"
    if rules.waste_pair and rules.waste_piles != 1:
        yield "waste_pair (the top waste card pairs with the one beneath it) needs one waste pile"
    if rules.reserve_piles and not any("reserve" in z for z in rules.pair_zones):
        yield "the rule set has reserve piles but pair_zones never pairs a reserve card"
    if not rules.reserve_piles and any("reserve" in z.split("+") for z in rules.pair_zones):
        yield "pair_zones pairs the reserve but the rule set has no reserve piles"


_SHAPE_INTS = ("decks", "reserve_piles", "reserve_depth")
_FAMILY_DEFAULTS: dict[str, object] = {
    "layout": CLASSIC,
    "decks": 1,
    "reserve_piles": 0,
    "reserve_depth": 0,
    "overlap_discards": False,
    "waste_pair": False,
    "redeal_order": "first-drawn",
    "source": "",
}


def _problems(rules: RuleSet) -> Iterable[str]:
    """Yield what is wrong with ``rules`` (nothing for a playable rule set)."""
    problem = _text_problem(rules.name, MAX_NAME, empty=False)
    if problem:
        yield f"name {problem}"
    problem = _text_problem(rules.description, MAX_DESCRIPTION, empty=True)
    if problem:
        yield f"description {problem}"
    if not isinstance(rules.pairing, Pairing) and (
        not isinstance(rules.pairing, str) or rules.pairing not in PAIRINGS
    ):
        yield f"pairing must be one of {', '.join(PAIRINGS)} or a Pairing, got {shown(rules.pairing)}"
    else:
        yield from _pairing_problems(rules)
    problem = _text_problem(rules.source, MAX_DESCRIPTION, empty=True)
    if problem:
        yield f"source {problem}"
    if not isinstance(rules.redeal_order, str) or rules.redeal_order not in REDEAL_ORDERS:
        yield f"redeal_order must be 'first-drawn' or 'by-pile', got {shown(rules.redeal_order)}"
    yield from _shape_problems(rules)
    if not isinstance(rules.win, str) or rules.win not in ("pyramid", "all"):
        yield f"win must be 'pyramid' or 'all', got {shown(rules.win)}"
    for name in _BOOL_FIELDS:
        value = getattr(rules, name)
        if type(value) is not bool:
            yield f"{name} must be true or false, got {shown(value)}"
    for name, (low, high) in _INT_RANGES.items():
        problem = _range_problem(name, getattr(rules, name), low, high)
        if problem:
            yield problem
    if rules.passes is not None:
        problem = _range_problem("passes", rules.passes, 1, MAX_PASSES)
        if problem:
            yield problem + " (or None for unlimited)"
    if not isinstance(rules.scoring, Scoring):
        yield "scoring must be a Scoring"
    if rules.stock_top_available and not rules.stock_face_up:
        yield "a stock top that is available must be face up (set stock_face_up=True)"
    uses = {zone for pair in rules.pair_zones for zone in pair.split("+")}
    if "stock" in uses and not rules.stock_top_available:
        yield "pair_zones pairs the stock but stock_top_available is False"
    if "cell" in uses and not rules.cells:
        yield "pair_zones pairs the cell but the rule set has no cells"
    if not rules.pair_zones:
        yield "pair_zones is empty: no pair could ever be removed"


EASY = RuleSet(
    name="easy",
    passes=None,
    stall_rule=True,
    description="Classic Pyramid with unlimited redeals; a pass that removes nothing and "
    "leaves no removal ends the game (the stall rule).",
)
MEDIUM = RuleSet(
    name="medium",
    passes=3,
    description="Classic Pyramid: draw one, three passes (two redeals), undo 100.",
)
HARD = RuleSet(name="hard", passes=1, description="Classic Pyramid with a single pass.")
RELAXED = RuleSet(
    name="relaxed",
    passes=3,
    stock_top_available=True,
    stock_face_up=True,
    pair_zones=STOCK_TOP_ZONES,
    description="Three passes and the top stock card is available too (desktop collections).",
)
APOPHIS = RuleSet(
    name="apophis",
    waste_piles=3,
    draw_count=3,
    passes=2,
    stock_face_up=True,
    pair_zones=MULTI_WASTE_ZONES,
    win="all",
    description="Three waste piles, two passes, waste tops pair with each other; all 52 "
    "cards must go.",
)
CHEOPS = RuleSet(
    name="cheops",
    pairing="adjacent",
    kings_alone=False,
    passes=1,
    stock_top_available=True,
    stock_face_up=True,
    pair_zones=STOCK_TOP_ZONES,
    description="Pairs of the same or adjacent rank (no wrap), one pass, stock top available.",
)
EGYPT = RuleSet(
    name="egypt",
    waste_piles=3,
    draw_count=3,
    passes=1,
    pair_zones=CELL_ZONES,
    cells=1,
    undo_depth=1,
    rounds=True,
    scoring=EGYPT_SCORING,
    description="Ancient Egypt: three waste piles, one pass, a free cell, one-step undo, "
    "rounds and scoring.",
)

RESERVE_ZONES = _zones(("pyramid", "pyramid"), ("pyramid", "reserve"), ("reserve", "reserve"))
DARK = CLASSIC.with_face_down(range(21))
"""The classic pyramid with rows 1-6 dealt face down (Dark Pyramid, Thirteen)."""
TRIANGLE_LAYOUT = Layout.inverted(7)
NINE_ROWS = Layout.pyramid(9)

KING_TUT = RuleSet(
    name="king_tut",
    waste_piles=1,
    draw_count=3,
    passes=None,
    stall_rule=True,
    description="Draw three onto one waste (only its top plays), unlimited redeals with the "
    "stall rule; clear the pyramid.",
    source="PySolFC King Tut; solitaire.gg; named in seed 002",
)
TUTS_TOMB = KING_TUT.replace(
    name="tuts_tomb",
    overlap_discards=True,
    description="King Tut with overlap discards: a card may pair with the only card still "
    "covering it; unlimited redeals as PySolFC's King Tut (the sources do not say).",
    source="Keller's account of the 1990 Microsoft game",
)
TRADITIONAL = RuleSet(
    name="traditional",
    passes=1,
    stock_top_available=True,
    stock_face_up=True,
    pair_zones=STOCK_TOP_ZONES,
    win="all",
    description="The book game: draw one, one pass, the stock top plays; all 52 cards must go.",
    source="Morehead & Mott-Smith; Keller & Masten",
)
DARK_PYRAMID = RuleSet(
    name="dark_pyramid",
    layout=DARK,
    passes=3,
    description="Classic Pyramid with rows 1-6 face down: a card turns up when uncovered; "
    "three passes.",
    source="named in seed 000; solitaire.gg DarkPyramid",
)
THIRTEEN = RuleSet(
    name="thirteen",
    layout=DARK,
    passes=1,
    waste_pair=True,
    win="all",
    description="Rows 1-6 face down, one pass; the top waste card may pair with the card "
    "beneath it; all 52 cards must go.",
    source="GNOME AisleRiot Thirteen",
)
GIZA = RuleSet(
    name="giza",
    reserve_piles=8,
    reserve_depth=3,
    passes=1,
    pair_zones=RESERVE_ZONES,
    win="all",
    description="No stock: eight face-up reserve piles of three, any two available cards "
    "pair; all 52 cards must go.",
    source="PySolFC Giza; Pretty Good Solitaire; named in seed 002",
)
PYRAMID_DOZEN = GIZA.replace(
    name="pyramid_dozen",
    reserve_piles=6,
    reserve_depth=4,
    pairing="sum12",
    kings_alone=False,
    description="Pairs total 12, or a Queen and a King; Kings never go alone; six reserve "
    "piles of four, no stock; all 52 cards must go.",
    source="PySolFC Pyramid Dozen",
)
TRIANGLE = RuleSet(
    name="triangle",
    layout=TRIANGLE_LAYOUT,
    passes=3,
    stock_top_available=True,
    stock_face_up=True,
    pair_zones=STOCK_TOP_ZONES,
    win="all",
    description="An inverted triangle (seven cards on top down to one); draw one, three "
    "passes, the stock top plays; all 52 cards must go.",
    source="PySolFC Triangle",
)
ELEVEN_TRIANGLE = RuleSet(
    name="eleven_triangle",
    layout=TRIANGLE_LAYOUT,
    pairing="sum11",
    kings_alone=False,
    waste_piles=3,
    draw_count=3,
    passes=1,
    stock_face_up=True,
    pair_zones=MULTI_WASTE_ZONES,
    win="all",
    description="An inverted triangle; pairs total 11, or two Jacks, Queens or Kings; one "
    "card onto each of three wastes a draw, one pass; all 52 cards must go.",
    source="PySolFC Eleven Triangle",
)
PHARAOHS = RuleSet(
    name="pharaohs",
    layout=Layout.side_by_side(Layout.pyramid(2), Layout.pyramid(7), Layout.pyramid(6)),
    passes=1,
    pair_zones=_zones(("pyramid", "pyramid")),
    win="all",
    description="Three pyramids of 2, 7 and 6 rows hold the whole deck; no stock; each card "
    "is covered only within its own pyramid.",
    source="PySolFC Pharaohs",
)
ANUBIS = RuleSet(
    name="anubis",
    layout=NINE_ROWS,
    decks=2,
    waste_piles=3,
    draw_count=3,
    passes=2,
    stock_face_up=True,
    pair_zones=MULTI_WASTE_ZONES,
    win="all",
    description="Two decks: a 9-row pyramid and one card onto each of three wastes a draw, "
    "two passes as Apophis (solitaire.gg); all 104 cards must go.",
    source="seed 000 (a two-deck Apophis with a bigger pyramid); solitaire.gg Anubis",
)
_TWO_DECK_CLASSIC = RuleSet(
    name="double_pyramid",
    layout=NINE_ROWS,
    decks=2,
    passes=3,
    stock_top_available=True,
    stock_face_up=True,
    pair_zones=STOCK_TOP_ZONES,
    win="all",
    description="Two decks: a 9-row pyramid; draw one, three passes, the stock top plays; "
    "all 104 cards must go.",
    source="PySolFC Double Pyramid",
)
DOUBLE_PYRAMID = _TWO_DECK_CLASSIC
TWO_PYRAMIDS = _TWO_DECK_CLASSIC.replace(
    name="two_pyramids",
    layout=Layout.side_by_side(Layout.pyramid(7), Layout.pyramid(7)),
    description="Two decks: two 7-row pyramids side by side; draw one, three passes, the "
    "stock top plays; all 104 cards must go.",
    source="PySolFC Two Pyramids",
)
UP_AND_DOWN = _TWO_DECK_CLASSIC.replace(
    name="up_and_down",
    layout=Layout.side_by_side(Layout.pyramid(7), Layout.inverted(7)),
    description="Two decks: an upright and an inverted 7-row pyramid side by side; draw one, "
    "three passes, the stock top plays; all 104 cards must go.",
    source="PySolFC Up and Down",
)

CLASSIC_PRESETS: tuple[RuleSet, ...] = (EASY, MEDIUM, HARD, RELAXED, APOPHIS, CHEOPS, EGYPT)
"""The seven rule sets of docs/RULES.md."""
FAMILY_PRESETS: tuple[RuleSet, ...] = (
    KING_TUT,
    TUTS_TOMB,
    TRADITIONAL,
    DARK_PYRAMID,
    THIRTEEN,
    GIZA,
    PYRAMID_DOZEN,
    TRIANGLE,
    ELEVEN_TRIANGLE,
    PHARAOHS,
    ANUBIS,
    DOUBLE_PYRAMID,
    TWO_PYRAMIDS,
    UP_AND_DOWN,
)
"""The relatives of docs/RULES.md's section 6 (the family)."""

PRESETS: dict[str, RuleSet] = {r.name: r for r in CLASSIC_PRESETS + FAMILY_PRESETS}
"""The named rule sets of docs/RULES.md, by name: the seven classic ones first, then the family."""


def get_rules(rules: str | RuleSet | Mapping[str, Any]) -> RuleSet:
    """Return a rule set from a preset name, a :class:`RuleSet` or a :meth:`RuleSet.to_dict`.

    >>> get_rules("cheops").pairing
    'adjacent'
    >>> get_rules("klondike")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidRulesError: unknown rule set 'klondike'; choose one of easy, medium, hard, relaxed, apophis, cheops, egypt, king_tut, tuts_tomb, traditional, dark_pyramid, thirteen, giza, pyramid_dozen, triangle, eleven_triangle, pharaohs, anubis, double_pyramid, two_pyramids, up_and_down
    """
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        try:
            return PRESETS[rules.strip().lower()]
        except KeyError:
            raise InvalidRulesError(
                f"unknown rule set {shown(rules)}; choose one of {', '.join(PRESETS)}"
            ) from None
    if isinstance(rules, Mapping):
        return RuleSet.from_dict(rules)
    raise InvalidRulesError(f"rules must be a preset name or a RuleSet, got {type(rules).__name__}")
