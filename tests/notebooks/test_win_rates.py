"""The win-rate lab notebook runs top to bottom in a fresh kernel (nbclient) and shows its
tables and plots. The default run shrinks the sizes (one line: ``GAMES``); the slow test runs
the notebook exactly as shipped."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "06_win_rates.ipynb"
SIZE_LINE = "GAMES = 400"


def _run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, games: int | None
) -> list[nbformat.NotebookNode]:
    pythonpath = [str(REPO), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in pythonpath if p))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    if games is not None:
        (cell,) = [c for c in nb.cells if SIZE_LINE in c.source]
        cell.source = cell.source.replace(SIZE_LINE, f"GAMES = {games}")
    resources = {"metadata": {"path": str(tmp_path)}}
    NotebookClient(nb, timeout=600, kernel_name="python3", resources=resources).execute()
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    errors = [o for cell in code for o in cell.outputs if o.output_type == "error"]
    assert not errors, errors
    return code


def _outputs(cell: nbformat.NotebookNode, mime: str) -> list[str]:
    return [o["data"][mime] for o in cell.outputs if mime in o.get("data", {})]


def _check(code: list[nbformat.NotebookNode]) -> None:
    plots = [c for c in code if c.source.startswith("plot_") or "\nplot_" in c.source]
    assert len(plots) == 4
    assert all(_outputs(c, "image/png") for c in plots), "every plot cell shows an image"
    tables = [t for c in code for t in _outputs(c, "text/plain") if t.startswith("<Results")]
    assert len(tables) == 4
    assert all("95% CI" in t for t in tables)
    first = next(c for c in code if c.source.startswith("results = run_experiment"))
    assert any("widget-view" in m for o in first.outputs for m in o.get("data", {})), "tqdm bar"
    prediction = next(c for c in code if "my_prediction[cell.rules]" in c.source)
    assert "you guessed" in "".join(o.get("text", "") for o in prediction.outputs)


def test_the_lab_runs_headless_with_small_sizes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _check(_run(tmp_path, monkeypatch, games=60))


@pytest.mark.slow
def test_the_lab_runs_as_shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _check(_run(tmp_path, monkeypatch, games=None))


def test_the_lab_holds_no_game_logic() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "from pyramid_widget" in code
    for engine_detail in ("COVERED_BY", "FastGame", "._pos", "deal_from_number"):
        assert engine_detail not in code
