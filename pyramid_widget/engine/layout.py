"""Geometry of the pyramid: 28 positions in 7 rows, numbered row by row.

Position ``p`` at (row ``r``, column ``c``), both 0-based, is covered by the two positions
(r+1, c) and (r+1, c+1). The bottom row (row 6) is covered by nothing.

>>> row_col(0), row_col(27), position(6, 6)
((0, 0), (6, 6), 27)
>>> COVERED_BY[0], COVERED_BY[21]
((1, 2), ())
>>> COVERS[4]
(1, 2)
"""

from __future__ import annotations

ROWS = 7
SIZE = ROWS * (ROWS + 1) // 2


def position(row: int, col: int) -> int:
    """Return the position number of (``row``, ``col``), both 0-based."""
    if not 0 <= col <= row < ROWS:
        raise ValueError(f"no pyramid position at row {row}, column {col}")
    return row * (row + 1) // 2 + col


def row_col(pos: int) -> tuple[int, int]:
    """Return the 0-based (row, column) of position ``pos``."""
    if not 0 <= pos < SIZE:
        raise ValueError(f"pyramid positions are 0..{SIZE - 1}, got {pos}")
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
