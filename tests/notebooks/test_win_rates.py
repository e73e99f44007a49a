"""The win-rate lab notebook and its teacher's key run top to bottom in a fresh kernel
(nbclient) and show their tables, plots and checks.

The student notebook runs with smaller sizes (one line: ``GAMES``); the key runs exactly as
shipped, so every exercise is checked on the default sizes. The key is the notebook with
its answer cells filled in and nothing else (checked cell by cell), so running the key as
shipped runs the student notebook's every cell as shipped too (issue 16.16)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import nbformat
import pytest

from tests.support.kernels import execute

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "06_win_rates.ipynb"
KEY = REPO / "notebooks" / "06_win_rates_key.ipynb"
SIZE_LINE = "GAMES = 400"
EXERCISES = 6


def _run(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, games: int | None
) -> list[nbformat.NotebookNode]:
    pythonpath = [str(REPO), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in pythonpath if p))
    nb = nbformat.read(path, as_version=4)
    if games is not None:
        (cell,) = [c for c in nb.cells if SIZE_LINE in c.source]
        cell.source = cell.source.replace(SIZE_LINE, f"GAMES = {games}")
    start = time.perf_counter()
    execute(nb, timeout=600, path=tmp_path)
    print(f"{path.name} ran in {time.perf_counter() - start:.1f} s (GAMES={games or 400})")
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    errors = [
        o
        for cell in code
        if "raises-exception" not in cell.metadata.get("tags", [])
        for o in cell.outputs
        if o.output_type == "error"
    ]
    assert not errors, errors
    return code


def _outputs(cell: nbformat.NotebookNode, mime: str) -> list[str]:
    return [o["data"][mime] for o in cell.outputs if mime in o.get("data", {})]


def _text(cell: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for o in cell.outputs) + "".join(_outputs(cell, "text/plain"))


def _answer_cells(code: list[nbformat.NotebookNode]) -> list[nbformat.NotebookNode]:
    return [c for c in code if "answer" in c.metadata.get("tags", [])]


def _check(code: list[nbformat.NotebookNode]) -> None:
    plots = [c for c in code if c.source.startswith("plot_") or "\nplot_" in c.source]
    assert len(plots) == 6
    assert all(_outputs(c, "image/png") for c in plots), "every plot cell shows an image"
    tables = [t for c in code for t in _outputs(c, "text/plain") if t.startswith("<Results")]
    assert len(tables) == 3
    assert all("95% CI" in t for t in tables)
    first = next(c for c in code if c.source.startswith("results = run_experiment"))
    assert any("widget-view" in m for o in first.outputs for m in o.get("data", {})), "tqdm bar"
    prediction = next(c for c in code if "my_prediction[cell.rules]" in c.source)
    assert "you guessed" in _text(prediction)
    # Every exercise is shown, then has an answer cell that checks the answer.
    questions = [c for c in code if c.source.startswith("ex") and "= exercises." in c.source]
    assert len(questions) == EXERCISES and all(_outputs(c, "text/plain") for c in questions)
    answers = _answer_cells(code)
    assert [c.source.splitlines()[-1] for c in answers] == [
        f"ex{i}.check(answer_{i})" for i in range(1, EXERCISES + 1)
    ]
    # Item 12: won games leave no pyramid card.
    won = next(c for c in code if "pyramid cards left in won games" in c.source)
    assert "pyramid cards left in won games: [0]" in _text(won)
    # Item 13: the paired comparison is shown.
    paired = next(c for c in code if c.source.startswith('duel.paired("lookahead", "greedy")'))
    assert "McNemar" in _text(paired) and "Newcombe" in _text(paired)
    # Item 17: no UserWarning; a notebook strategy's note comes once; an illegal move is one
    # line, a StrategyError, without library frames.
    everything = "".join(_text(c) for c in code)
    assert "UserWarning" not in everything
    assert everything.count("note: strategy first_removal") == 1
    (illegal,) = [c for c in code if "raises-exception" in c.metadata.get("tags", [])]
    (error,) = [o for o in illegal.outputs if o.output_type == "error"]
    assert error.ename == "StrategyError" and len(error.traceback) == 1
    assert error.traceback[0].startswith("StrategyError: strategy 'hasty' played 'redeal'")


def test_the_lab_runs_headless_with_small_sizes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = _run(NOTEBOOK, tmp_path, monkeypatch, games=60)
    _check(code)
    for cell in _answer_cells(code):
        assert _text(cell).startswith("✘ Not answered yet"), _text(cell)


def test_the_key_runs_as_shipped_and_passes_every_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = _run(KEY, tmp_path, monkeypatch, games=None)
    _check(code)
    for cell in _answer_cells(code):
        assert _text(cell).startswith("✔ Right!"), _text(cell)
    # Item 15: with the default sizes every exercise has something to work on.
    exact = next(c for c in code if c.source.startswith("exact = run_experiment"))
    perfect = next(line for line in _text(exact).splitlines() if " perfect " in line)
    won, lost = (int(x) for x in perfect.split()[3:5])
    assert won >= 5 and won + lost >= 100, perfect
    duel = next(c for c in code if c.source.startswith('duel.paired("lookahead", "greedy")'))
    assert "deals only one won" in _text(duel)


def test_the_key_is_the_notebook_with_its_answers_filled_in() -> None:
    student = nbformat.read(NOTEBOOK, as_version=4).cells
    key = [
        c for c in nbformat.read(KEY, as_version=4).cells if "key" not in c.metadata.get("tags", [])
    ]
    assert len(key) == len(student)
    for mine, theirs in zip(student, key, strict=True):
        assert mine.cell_type == theirs.cell_type
        if "answer" in mine.metadata.get("tags", []):
            assert "answer" in theirs.metadata.get("tags", [])
            assert mine.source.startswith("answer_") and " = None" in mine.source
            assert " = None" not in theirs.source
            assert mine.source.splitlines()[-1] == theirs.source.splitlines()[-1]
        else:
            assert mine.source == theirs.source


def test_the_lab_holds_no_game_logic() -> None:
    for path in (NOTEBOOK, KEY):
        nb = nbformat.read(path, as_version=4)
        code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        assert "from pyramid_widget" in code
        for engine_detail in ("COVERED_BY", "FastGame", "._pos", "deal_from_number", "comb("):
            assert engine_detail not in code
