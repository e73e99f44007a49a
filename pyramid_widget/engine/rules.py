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
import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pyramid_widget.engine.cards import Card, rank
from pyramid_widget.errors import InvalidRulesError

ZONES = ("cell", "pyramid", "stock", "waste")
#: The longest rule set name and description, in characters.
MAX_NAME = 80
MAX_DESCRIPTION = 1000
#: The largest number (in absolute value) a scoring field may hold.
MAX_POINTS = 10**9
Pairing = Literal["sum13", "adjacent"]
WinCondition = Literal["pyramid", "all"]


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


def _shown(value: object) -> str:
    """A short text for a bad value (never the whole of a huge one)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**30:
        return "an integer of more than 30 digits"
    if isinstance(value, (str, int, float, bool, type(None))):
        text = repr(value)
        return text if len(text) <= 60 else text[:57] + "..."
    return f"a {type(value).__name__}"


def _listed(keys: Iterable[object]) -> str:
    shown = sorted(_shown(k) if not isinstance(k, str) else k[:40] for k in keys)
    return ", ".join(shown[:6]) + (" ..." if len(shown) > 6 else "")


_CONTROL = {"Cc", "Cs", "Zl", "Zp"}


def _text_problem(value: object, limit: int, *, empty: bool) -> str | None:
    """What is wrong with a name or description: not a string, empty, too long, or holding
    control characters (markup is fine: the page shows it as text)."""
    if not isinstance(value, str):
        return f"must be a string, got {_shown(value)}"
    if not value and not empty:
        return "must be a non-empty string"
    if len(value) > limit:
        return f"must be at most {limit} characters, got {len(value)}"
    if any(unicodedata.category(ch) in _CONTROL for ch in value):
        return "must not hold control characters (line breaks, tabs, escapes)"
    return None


#: Integer fields of a rule set and their ranges.
_INT_RANGES = {
    "waste_piles": (1, 8),
    "draw_count": (1, 52),
    "cells": (0, 4),
    "undo_depth": (0, 1_000_000),
}
_BOOL_FIELDS = ("kings_alone", "stock_top_available", "stock_face_up", "stall_rule", "rounds")
_MAX_PASSES = 1_000_000


def _range_problem(name: str, value: object, low: int, high: int) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{name} must be an integer from {low} to {high}, got {_shown(value)}"
    if value < low:
        return f"{name} must be at least {low}, got {value}"
    if value > high:
        return f"{name} must be at most {high}, got {_shown(value)}"
    return None


def _scoring_problems(scoring: Scoring) -> Iterable[str]:
    for f in dataclasses.fields(scoring):
        value = getattr(scoring, f.name)
        if f.name == "undo_keeps_score":
            if type(value) is not bool:
                yield f"undo_keeps_score must be true or false, got {_shown(value)}"
        elif f.name == "time_bonus_per_second":
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            if not number or not 0 <= value <= MAX_POINTS or not math.isfinite(value):
                yield (
                    f"time_bonus_per_second must be a number from 0 to {MAX_POINTS}, "
                    f"got {_shown(value)}"
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
    wrap), ``kings_alone`` (a lone available King is removed), ``waste_piles``, ``draw_count``
    (cards dealt by one draw, one pile after another), ``passes`` (traversals of the stock;
    ``None`` = unlimited), ``stock_top_available`` (the top stock card may be played),
    ``stock_face_up`` (the stock's top card is shown), ``pair_zones`` (which zones may pair
    with which, as ``"pyramid+waste"`` names), ``cells`` (free cells, ``egypt``),
    ``win`` ("pyramid" empty or "all" 52 cards gone), ``undo_depth``, ``stall_rule`` (the
    ``easy`` rule: a whole pass with no removal and no removal left ends the game),
    ``rounds`` (winning a round deals the next one, ``egypt``) and ``scoring``.
    """

    name: str = "custom"
    pairing: Pairing = "sum13"
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

    def __post_init__(self) -> None:
        name = self.name if _text_problem(self.name, MAX_NAME, empty=False) is None else "custom"
        object.__setattr__(self, "pair_zones", _normalise_zones(name, self.pair_zones))
        for problem in _problems(self):
            raise InvalidRulesError(f"rule set {name!r}: {problem}")

    def pairs(self, a: Card, b: Card) -> bool:
        """Return whether cards ``a`` and ``b`` match under the pairing rule (zones aside).

        >>> from pyramid_widget.engine.cards import parse_card as c
        >>> get_rules("medium").pairs(c("5H"), c("8C")), get_rules("cheops").pairs(c("AS"), c("KS"))
        (True, False)
        """
        if a == b:
            return False
        if self.pairing == "sum13":
            return rank(a) + rank(b) == 13
        return abs(rank(a) - rank(b)) <= 1

    def zones_pair(self, zone_a: str, zone_b: str) -> bool:
        """Return whether a card in ``zone_a`` may pair with one in ``zone_b``."""
        return zone_pair(zone_a, zone_b) in self.pair_zones

    def replace(self, **changes: Any) -> RuleSet:
        """Return a copy with ``changes`` applied (validated like a new rule set)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise InvalidRulesError(f"rule sets have no field(s) {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Return the rule set as JSON-ready data (``RuleSet.from_dict`` reads it back)."""
        data = dataclasses.asdict(self)
        data["pair_zones"] = sorted(self.pair_zones)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from :meth:`to_dict` output, with clear errors for bad data."""
        if not isinstance(data, Mapping):
            raise InvalidRulesError(f"rules must be a mapping, got {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidRulesError(f"rule sets have no field(s) {_listed(unknown)}")
        values = dict(data)
        if "scoring" in values and isinstance(values["scoring"], Mapping):
            scoring = values["scoring"]
            fields = {f.name for f in dataclasses.fields(Scoring)}
            if set(scoring) - fields:
                raise InvalidRulesError(
                    f"bad scoring: scoring has no field(s) {_listed(set(scoring) - fields)}"
                )
            values["scoring"] = Scoring(**scoring)
        elif "scoring" in values and not isinstance(values["scoring"], Scoring):
            raise InvalidRulesError(
                f"bad scoring: scoring must be a mapping of its fields, got {_shown(values['scoring'])}"
            )
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
                f"rule set {name!r}: {_shown(item)} is not a zone pair; use two of "
                f"{', '.join(ZONES)} joined by '+', like 'pyramid+waste'"
            )
        result.add(zone_pair(*parts))
    return frozenset(result)


def _problems(rules: RuleSet) -> Iterable[str]:
    """Yield what is wrong with ``rules`` (nothing for a playable rule set)."""
    problem = _text_problem(rules.name, MAX_NAME, empty=False)
    if problem:
        yield f"name {problem}"
    problem = _text_problem(rules.description, MAX_DESCRIPTION, empty=True)
    if problem:
        yield f"description {problem}"
    if not isinstance(rules.pairing, str) or rules.pairing not in ("sum13", "adjacent"):
        yield f"pairing must be 'sum13' or 'adjacent', got {_shown(rules.pairing)}"
    if not isinstance(rules.win, str) or rules.win not in ("pyramid", "all"):
        yield f"win must be 'pyramid' or 'all', got {_shown(rules.win)}"
    for name in _BOOL_FIELDS:
        value = getattr(rules, name)
        if type(value) is not bool:
            yield f"{name} must be true or false, got {_shown(value)}"
    for name, (low, high) in _INT_RANGES.items():
        problem = _range_problem(name, getattr(rules, name), low, high)
        if problem:
            yield problem
    if rules.passes is not None:
        problem = _range_problem("passes", rules.passes, 1, _MAX_PASSES)
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

PRESETS: dict[str, RuleSet] = {
    r.name: r for r in (EASY, MEDIUM, HARD, RELAXED, APOPHIS, CHEOPS, EGYPT)
}
"""The named rule sets of docs/RULES.md, by name."""


def get_rules(rules: str | RuleSet | Mapping[str, Any]) -> RuleSet:
    """Return a rule set from a preset name, a :class:`RuleSet` or a :meth:`RuleSet.to_dict`.

    >>> get_rules("cheops").pairing
    'adjacent'
    >>> get_rules("klondike")
    Traceback (most recent call last):
    ...
    pyramid_widget.errors.InvalidRulesError: unknown rule set 'klondike'; choose one of easy, medium, hard, relaxed, apophis, cheops, egypt
    """
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str):
        try:
            return PRESETS[rules.strip().lower()]
        except KeyError:
            raise InvalidRulesError(
                f"unknown rule set {rules!r}; choose one of {', '.join(PRESETS)}"
            ) from None
    if isinstance(rules, Mapping):
        return RuleSet.from_dict(rules)
    raise InvalidRulesError(f"rules must be a preset name or a RuleSet, got {type(rules).__name__}")
