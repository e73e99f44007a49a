"""``00_play``: after Run All (which leaves the reader at the bottom) the notebook says where
the board is, and the board is the first thing it shows (issue 15, "Also")."""

from __future__ import annotations

from pathlib import Path

import nbformat

PLAY = Path(__file__).resolve().parents[2] / "notebooks" / "00_play.ipynb"


def test_the_board_comes_first_and_the_end_points_back_to_it() -> None:
    cells = nbformat.read(PLAY, as_version=4).cells
    assert cells[0].cell_type == "markdown" and "right below this text" in cells[0].source
    assert cells[1].cell_type == "code" and "PyramidWidget(" in cells[1].source
    assert not any("PyramidWidget(" in c.source for c in cells[:1])
    assert "The board is at the top of this notebook" in cells[-1].source

