"""``08_the_family``: the family's notebook runs top to bottom in a fresh kernel (nbclient),
shows the board on the inverted triangle, lists all fourteen presets with their sources, and
the solver's answers name the face-down games as answered knowing every card."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest

from pyramid_widget import FAMILY_PRESETS

from tests.support.kernels import execute

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "08_the_family.ipynb"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def output_text(cell: nbformat.NotebookNode) -> str:
    parts = []
    for o in cell.outputs:
        parts.append(o.get("text", "") or o.get("data", {}).get("text/plain", ""))
    return "".join(parts)


def test_the_family_notebook_runs_top_to_bottom(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pythonpath = [str(REPO), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in pythonpath if p))
    monkeypatch.setenv("PYRAMID_WIDGET_DATA_DIR", str(tmp_path / "records"))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    execute(nb, timeout=180, path=tmp_path)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    errors = [o for cell in code for o in cell.outputs if o.output_type == "error"]
    assert not errors, errors
    board = code[0]
    assert 'PyramidWidget(rules="triangle"' in board.source
    assert any(WIDGET_MIME in o.get("data", {}) for o in board.outputs)
    listing = output_text(code[1])
    for rules in FAMILY_PRESETS:
        assert rules.name in listing and rules.source in listing
    assert "##" in output_text(code[3]) and "dark_pyramid" in output_text(code[3])
    answers = output_text(next(c for c in code if "solve_deal" in c.source))
    assert "dark_pyramid   deal 3: winnable (knowing every face-down card)" in answers
    assert "giza           deal 3: winnable" in answers
