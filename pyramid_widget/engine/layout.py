"""Geometry of the tableau: which positions cover which, and where each one is drawn.

The classic tableau is the pyramid of 28 positions in 7 rows, numbered row by row: position
``p`` at (row ``r``, column ``c``), both 0-based, is covered by the two positions (r+1, c) and
(r+1, c+1), and the bottom row (row 6) is covered by nothing. The module-level constants
below describe it, as they always have.

The family's other shapes are :class:`Layout` values built by small constructors (an upright
pyramid of *n* rows, the inverted triangle, several pyramids side by side, face-down flags);
a rule set holds one as data (``RuleSet.layout``).

>>> row_col(0), row_col(27), position(6, 6)
((0, 0), (6, 6), 27)
>>> COVERED_BY[0], COVERED_BY[21]
((1, 2), ())
>>> COVERS[4]
(1, 2)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import TypeVar

from pyramid_widget.engine.quoting import shown
from pyramid_widget.errors import ArgumentError, InvalidRulesError

_T = TypeVar("_T")

ROWS = 7
SIZE = ROWS * (ROWS + 1) // 2


def position(row: int, col: int) -> int:
    """Return the position number of (``row``, ``col``), both 0-based."""
    if not 0 <= col <= row < ROWS:
        raise ArgumentError(f"no pyramid position at row {row}, column {col}")
    return row * (row + 1) // 2 + col


def row_col(pos: int) -> tuple[int, int]:
    """Return the 0-based (row, column) of position ``pos``."""
    if not 0 <= pos < SIZE:
        raise ArgumentError(f"pyramid positions are 0..{SIZE - 1}, got {pos}")
    row = 0
    while (row + 1) * (row + 2) // 2 <= pos:
        row += 1
    return row, pos - row * (row + 1) // 2


def _covered_by(pos: int) -> tuple[int, ...]:
    row, col = row_col(pos)
    if row == ROWS - 1:
        return ()
    return (position(row + 1, col), position(row + 1, col + 1))


COVERED_BY: tuple[tuple[int, ...], ...] = tuple(_covered_by(p) for p in range(SIZE))
"""``COVERED_BY[p]``: the positions that must be empty before ``p`` is available."""

COVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in range(SIZE) if p in COVERED_BY[q]) for p in range(SIZE)
)
"""``COVERS[p]``: the positions that ``p`` covers (the ones just above it)."""

COVERED_BY_MASK: tuple[int, ...] = tuple(sum(1 << q for q in qs) for qs in COVERED_BY)
"""``COVERED_BY_MASK[p]``: bit mask of the two positions covering ``p`` (0 for the bottom row)."""


def _descendants(pos: int) -> int:
    """Bit mask of every position below ``pos`` that covers it directly or indirectly."""
    mask = 0
    for q in COVERED_BY[pos]:
        mask |= (1 << q) | _descendants(q)
    return mask


BLOCKERS_MASK: tuple[int, ...] = tuple(_descendants(p) for p in range(SIZE))
"""``BLOCKERS_MASK[p]``: every position that must be cleared before ``p`` is available."""


#: The most positions a layout may have (two decks hold 104 cards).
MAX_POSITIONS = 104


@dataclass(frozen=True)
class Layout:
    """A tableau as data: the positions, which positions cover each, and where each is drawn.

    ``covered_by[p]`` lists the positions that must all be empty before ``p`` is available;
    ``places[p]`` is ``(x, y)``: ``x`` the card's left edge in half card widths, ``y`` its row
    (the board decides how far rows overlap); ``face_down`` the positions dealt face down (a
    card turns face up once nothing covers it); ``groups[p]`` which pyramid of several ``p``
    belongs to (all 0 for one shape). Build layouts with :meth:`pyramid`, :meth:`inverted`,
    :meth:`side_by_side` and :meth:`with_face_down`:

    >>> Layout.pyramid(7) == CLASSIC, CLASSIC.size, CLASSIC.covered_by == COVERED_BY
    (True, 28, True)
    >>> tri = Layout.inverted(7)
    >>> tri.size, tri.covered_by[0], tri.covered_by[3], tri.bottom
    (28, (7,), (9, 10), (27,))
    >>> Layout.side_by_side(Layout.pyramid(2), Layout.pyramid(7), Layout.pyramid(6)).size
    52
    """

    name: str
    covered_by: tuple[tuple[int, ...], ...]
    places: tuple[tuple[float, float], ...]
    face_down: frozenset[int] = frozenset()
    groups: tuple[int, ...] = ()
    covers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    covered_by_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)
    blockers_mask: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or any(
            unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") for ch in self.name
        ):
            raise InvalidRulesError(
                "a layout's name must be text without control characters (line breaks, escapes)"
            )
        object.__setattr__(self, "name", self.name[:80])
        # The fields are data a user may build by hand or load from a file: each is checked
        # and made canonical here, so every way of building a layout refuses the same things.
        setattr_ = object.__setattr__
        setattr_(self, "covered_by", _field(self.name, "covered_by", _coverers, self.covered_by))
        setattr_(self, "places", _field(self.name, "places", _places, self.places))
        setattr_(self, "face_down", _field(self.name, "face_down", _positions, self.face_down))
        setattr_(self, "groups", _field(self.name, "groups", _indexes, self.groups))
        size = len(self.covered_by)
        if not 1 <= size <= MAX_POSITIONS:
            raise InvalidRulesError(
                f"layout {self.name!r}: a tableau has 1 to {MAX_POSITIONS} positions, got {size}"
            )
        if len(self.places) != size:
            raise InvalidRulesError(
                f"layout {self.name!r}: {size} positions but {len(self.places)} places"
            )
        groups = self.groups or (0,) * size
        if len(groups) != size:
            raise InvalidRulesError(
                f"layout {self.name!r}: {size} positions but {len(groups)} groups"
            )
        object.__setattr__(self, "groups", tuple(groups))
        for p, qs in enumerate(self.covered_by):
            if any(not p < q < size for q in qs):
                raise InvalidRulesError(
                    f"layout {self.name!r}: position {p} must be covered only by later "
                    f"positions of the layout (0..{size - 1}), got {qs}"
                )
        if any(not 0 <= p < size for p in self.face_down):
            raise InvalidRulesError(
                f"layout {self.name!r}: face-down positions must be 0..{size - 1}"
            )
        covers = tuple(
            tuple(q for q in range(size) if p in self.covered_by[q]) for p in range(size)
        )
        object.__setattr__(self, "covers", covers)
        object.__setattr__(
            self, "covered_by_mask", tuple(sum(1 << q for q in qs) for qs in self.covered_by)
        )
        blockers = [0] * size
        for p in range(size - 1, -1, -1):  # coverers come later, so they are done first
            for q in self.covered_by[p]:
                blockers[p] |= (1 << q) | blockers[q]
        object.__setattr__(self, "blockers_mask", tuple(blockers))

    @property
    def size(self) -> int:
        """How many positions the tableau has."""
        return len(self.covered_by)

    @property
    def bottom(self) -> tuple[int, ...]:
        """The positions covered by nothing (available at the deal)."""
        return tuple(p for p, qs in enumerate(self.covered_by) if not qs)

    @property
    def width(self) -> float:
        """The tableau's width in half card widths."""
        return max(x for x, _ in self.places) + 2

    @property
    def height(self) -> float:
        """The tableau's height in rows (the last row's index plus one)."""
        return max(y for _, y in self.places) + 1

    @classmethod
    def pyramid(cls, rows: int) -> Layout:
        """The upright pyramid of ``rows`` rows (row ``r`` holds ``r + 1`` cards); (r, c) is
        covered by (r+1, c) and (r+1, c+1).

        >>> Layout.pyramid(9).size
        45
        """
        _check_rows(rows)
        start = [r * (r + 1) // 2 for r in range(rows)]
        covered: list[tuple[int, ...]] = []
        places: list[tuple[float, float]] = []
        for r in range(rows):
            for c in range(r + 1):
                below = () if r == rows - 1 else (start[r + 1] + c, start[r + 1] + c + 1)
                covered.append(below)
                places.append((float(rows - 1 - r + 2 * c), float(r)))
        name = "pyramid" if rows == ROWS else f"pyramid of {rows} rows"
        return cls(name, tuple(covered), tuple(places))

    @classmethod
    def inverted(cls, rows: int) -> Layout:
        """The inverted triangle: ``rows`` cards on the top row down to one at the bottom,
        numbered row by row from the top. As in PySolFC's Triangle, lower rows cover upper
        ones: (r, c) is covered by (r+1, c-1) and (r+1, c) where they exist, so the end cards
        of a row are covered by one card and the bottom card is available first.

        >>> Layout.inverted(3).covered_by
        ((3,), (3, 4), (4,), (5,), (5,), ())
        """
        _check_rows(rows)
        start = [sum(rows - i for i in range(r)) for r in range(rows)]
        covered: list[tuple[int, ...]] = []
        places: list[tuple[float, float]] = []
        for r in range(rows):
            length = rows - r
            for c in range(length):
                below: tuple[int, ...] = ()
                if r < rows - 1:
                    below = tuple(start[r + 1] + k for k in (c - 1, c) if 0 <= k < length - 1)
                covered.append(below)
                places.append((float(r + 2 * c), float(r)))
        return cls(f"inverted triangle of {rows} rows", tuple(covered), tuple(places))

    @classmethod
    def side_by_side(cls, *layouts: Layout, gap: float = 1.0) -> Layout:
        """Several layouts next to each other, left to right, each card covered only within
        its own one; positions are numbered layout after layout. ``gap`` is the space between
        them in half card widths. Rows are aligned at the top.

        >>> two = Layout.side_by_side(Layout.pyramid(7), Layout.pyramid(7))
        >>> two.size, two.covered_by[28], two.groups[28]
        (56, (29, 30), 1)
        """
        if not layouts:
            raise InvalidRulesError("side_by_side needs at least one layout")
        for layout in layouts:
            if not isinstance(layout, Layout):
                raise InvalidRulesError(f"side_by_side takes layouts, got {shown(layout)}")
        if isinstance(gap, bool) or not isinstance(gap, (int, float)):
            raise InvalidRulesError(f"side_by_side's gap must be a number, got {shown(gap)}")
        covered: list[tuple[int, ...]] = []
        places: list[tuple[float, float]] = []
        groups: list[int] = []
        face_down: set[int] = set()
        offset, left = 0, 0.0
        for index, layout in enumerate(layouts):
            covered.extend(tuple(q + offset for q in qs) for qs in layout.covered_by)
            places.extend((x + left, y) for x, y in layout.places)
            groups.extend([index] * layout.size)
            face_down.update(p + offset for p in layout.face_down)
            offset += layout.size
            left += layout.width + gap
        name = " + ".join(layout.name for layout in layouts)
        return cls(name, tuple(covered), tuple(places), frozenset(face_down), tuple(groups))

    def with_face_down(self, positions: Iterable[int]) -> Layout:
        """The same layout with ``positions`` dealt face down.

        >>> dark = CLASSIC.with_face_down(range(21))
        >>> sorted(dark.face_down)[-1], dark.covered_by == CLASSIC.covered_by
        (20, True)
        """
        face_down = _field(self.name, "face_down", _positions, positions)
        return Layout(self.name, self.covered_by, self.places, face_down, self.groups)

    def covered_positions(self) -> tuple[int, ...]:
        """The positions covered at the deal (every position but the bottom ones)."""
        return tuple(p for p, qs in enumerate(self.covered_by) if qs)

    def to_dict(self) -> dict[str, object]:
        """The layout as JSON-ready data (:meth:`from_dict` reads it back)."""
        return {
            "name": self.name,
            "covered_by": [list(qs) for qs in self.covered_by],
            "places": [list(xy) for xy in self.places],
            "face_down": sorted(self.face_down),
            "groups": list(self.groups),
        }

    @classmethod
    def from_dict(cls, data: object) -> Layout:
        """Build a layout from :meth:`to_dict` output, with a clear error for bad data.

        >>> Layout.from_dict(Layout.inverted(7).to_dict()) == Layout.inverted(7)
        True
        >>> Layout.from_dict({"name": "x"})
        Traceback (most recent call last):
        ...
        pyramid_widget.errors.InvalidRulesError: a layout needs name, covered_by and places (as from Layout.to_dict())
        """
        if not isinstance(data, dict) or not {"name", "covered_by", "places"} <= set(data):
            raise InvalidRulesError(
                "a layout needs name, covered_by and places (as from Layout.to_dict())"
            )
        return cls(
            str(data["name"])[:80],
            data["covered_by"],
            data["places"],
            data.get("face_down", []),
            data.get("groups", []),
        )


def _field(name: str, what: str, convert: Callable[[object], _T], value: object) -> _T:
    """``convert(value)``, or one InvalidRulesError naming the layout and the field."""
    try:
        return convert(value)
    except (TypeError, ValueError) as exc:
        raise InvalidRulesError(f"layout {name!r}: {what} {exc}") from None


def _seq(value: object) -> Sequence[object]:
    if not isinstance(value, (list, tuple)) or len(value) > MAX_POSITIONS:
        raise TypeError(f"must be a list of at most {MAX_POSITIONS} items, got {shown(value)}")
    return value


def _index(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**6:
        raise TypeError(f"must hold whole numbers, got {shown(value)}")
    return value


def _indexes(value: object) -> tuple[int, ...]:
    return tuple(_index(i) for i in _seq(value))


def _coverers(value: object) -> tuple[tuple[int, ...], ...]:
    return tuple(_indexes(qs) for qs in _seq(value))


def _positions(value: object) -> frozenset[int]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"must be a collection of positions, got {shown(value)}")
    items = list(islice(value, MAX_POSITIONS + 1))  # a set, a range, even an endless iterator
    if len(items) > MAX_POSITIONS:
        raise TypeError(f"must hold at most {MAX_POSITIONS} positions")
    return frozenset(_index(p) for p in items)


def _place(value: object) -> tuple[float, float]:
    xy = _seq(value)
    if len(xy) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xy):
        raise TypeError("must hold places of two numbers each, like [0, 1]")
    x, y = float(xy[0]), float(xy[1])  # type: ignore[arg-type]
    if not (-1000 <= x <= 1000 and -1000 <= y <= 1000):  # NaN fails every comparison
        raise ValueError("must hold numbers between -1000 and 1000")
    return x, y


def _places(value: object) -> tuple[tuple[float, float], ...]:
    return tuple(_place(xy) for xy in _seq(value))


def _check_rows(rows: int) -> None:
    if isinstance(rows, bool) or not isinstance(rows, int) or not 1 <= rows <= 13:
        raise InvalidRulesError(f"a pyramid or triangle has 1 to 13 rows, got {shown(rows)}")


CLASSIC = Layout.pyramid(ROWS)
"""The classic 28-card pyramid of 7 rows (every preset of docs/RULES.md)."""
