"""Every lesson notebook runs top to bottom in a fresh kernel (nbclient), shows the lesson
widget and checks the learner's answer."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest

from tests.support.kernels import execute

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted(
    p for p in (REPO / "notebooks").glob("0[1-7]_*.ipynb") if not p.name.startswith("06_")
)
LESSON_NUMBER = {name: i + 1 for i, name in enumerate(p.name for p in NOTEBOOKS)}
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def test_all_six_lesson_notebooks_exist() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01_pairs_to_13.ipynb",
        "02_kings.ipynb",
        "03_covered_cards.ipynb",
        "04_the_waste.ipynb",
        "05_redeals.ipynb",
        "07_a_whole_game.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_text_matches_the_lessons(path: Path) -> None:
    """Each notebook names its place among the six lessons, opens its own lesson, and states
    the easy stall rule as docs/RULES.md does (issue 16.2); the last points to 00_play."""
    nb = nbformat.read(path, as_version=4)
    text = "\n".join(cell.source for cell in nb.cells)
    number = LESSON_NUMBER[path.name]
    assert f"# Lesson {number} of 6" in text
    assert f"LessonWidget(lesson={number - 1})" in text
    assert "as long as every pass removes something" not in text
    if number == 6:
        assert "(00_play.ipynb)" in text and "(05_redeals.ipynb)" in text


def result_text(cell: nbformat.NotebookNode) -> str:
    return "".join(
        o["data"].get("text/plain", "") for o in cell.outputs if o.output_type == "execute_result"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pythonpath = [str(REPO), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in pythonpath if p))
    nb = nbformat.read(path, as_version=4)
    execute(nb, timeout=120, path=tmp_path)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    errors = [o for cell in code for o in cell.outputs if o.output_type == "error"]
    assert not errors, errors
    lesson_cell = next(cell for cell in code if "LessonWidget(lesson=" in cell.source)
    assert any(WIDGET_MIME in o.get("data", {}) for o in lesson_cell.outputs)
    # one anywidget model (the board with the lesson's panel), no ipywidgets container, and
    # the board's static SVG beside it for places without a widget manager (issue 17.4, 17.6)
    state = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert {model["model_name"] for model in state.values()} == {"AnyModel", "LayoutModel"}
    assert any("image/svg+xml" in o.get("data", {}) for o in lesson_cell.outputs)
    number = LESSON_NUMBER[path.name]
    question = next(cell for cell in code if cell.source.endswith(f"exercise({number})"))
    assert result_text(question).strip()
    check = next(cell for cell in code if ".check(my_answer)" in cell.source)
    assert result_text(check).startswith("✘ Not yet"), "the starting answer is incomplete"


LESSON_PAGES = [*NOTEBOOKS, REPO / "notebooks" / "lessons_voila.ipynb"]


def instructions(path: Path) -> str:
    """The Markdown cells of a lesson page (its instructions to the learner)."""
    nb = nbformat.read(path, as_version=4)
    return "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")


@pytest.mark.parametrize(
    "path", [*LESSON_PAGES, REPO / "notebooks" / "lessons_marimo.py"], ids=lambda p: p.stem
)
def test_the_instructions_name_the_lesson_boards_own_controls(path: Path) -> None:
    """A page sends the learner only to controls the lesson board shows, by their labels;
    and it does not place the lesson menu "at the top right", where it is on a wide page
    only (a narrow column wraps it under the title)."""
    from pyramid_widget.lessons.widget import BUTTONS

    text = path.read_text() if path.suffix == ".py" else instructions(path)
    named = set(re.findall(r"\*\*([A-Z][A-Za-z ]+?)\*\*", text))
    controls = set(BUTTONS.values()) | {"Lesson"}
    mentioned = named & (controls | {"Menu", "Back", "Reset", "Restart", "Hint", "Truth"})
    assert {"Show me", "Next", "Previous"} <= mentioned <= controls, mentioned
    assert "top right" not in text
    assert "**Lesson** menu" in text
