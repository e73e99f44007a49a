"""LessonWidget on the Python side: page messages as the board's frontend sends them, and the
lesson's panel (the board's ``panel`` trait) as the page draws it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pyramid_widget.lessons.builtin import LESSONS, Lesson, Step, at
from pyramid_widget.lessons.widget import BUTTONS, LESSON_CONTROLS, LessonWidget
from tests.lessons.panel import button, feedback, header, options, press, prompt
from tests.support.optional import need


def click(lw: LessonWidget, **intent: Any) -> None:
    """Deliver one message as the page would send it."""
    lw.board._on_msg(lw.board, dict(intent), [])


def position(lw: LessonWidget) -> tuple[Any, ...]:
    g = lw.board.game
    return (g.pyramid, g.stock, g.wastes, g.discard, g.pass_number, g.moves)


def test_layout_progress_and_prompt() -> None:
    lw = LessonWidget(records=False)
    assert "Lesson 1 of 6 · Step 1 of 6" in header(lw)
    assert "Pairs to 13" in header(lw)
    assert "Which card pairs with this Five?" in prompt(lw)
    assert "Ace = 1, Jack = 11, Queen = 12, King = 13" in prompt(lw)  # the intro
    assert [p["style"] for p in lw.board.panel["prompt"]] == ["intro", "task"]
    assert lw.board.controls == LESSON_CONTROLS
    assert lw.board.game is lw.runner.game
    assert lw.board.message == LESSONS[0].steps[0].prompt
    assert button(lw, "previous")["disabled"] and not button(lw, "next")["disabled"]
    assert options(lw)[0] == "1. Pairs to 13" and lw.board.panel["picker"]["selected"] == 0
    assert [b["label"] for b in lw.board.panel["buttons"]] == list(BUTTONS.values())
    # no records: the course line says the progress is for this session only
    assert "Course progress (this session only, not saved): 0 of 32 steps" in header(lw)


def test_wrong_click_explained_then_right_click_moves_on() -> None:
    lw = LessonWidget(records=False)
    before = position(lw)
    click(lw, kind="pair", cards=["5H", "9D"], seq=1)
    assert lw.feedback_kind == "mistake"
    assert "5 + 9 = 14, one too many" in feedback(lw)
    assert lw.board.panel["feedback"]["kind"] == "mistake"
    assert lw.board.message.startswith("5 + 9 = 14, one too many")
    assert position(lw) == before
    click(lw, kind="pair", cards=["5H", "8C"], seq=2)
    assert lw.feedback_kind == "success" and lw.runner.solved
    assert "5 + 8 = 13" in feedback(lw)
    assert button(lw, "next")["primary"] and not button(lw, "show")["primary"]
    assert "●○○○○○" in header(lw)
    click(lw, kind="draw", seq=3)  # the step is done: nothing more happens on this board
    assert "press Next" in lw.feedback_text
    assert press(lw, "next")["kind"] == "new"  # the page's Next: the next step is loaded
    assert "Step 2 of 6" in header(lw) and lw.feedback_text == ""
    assert not button(lw, "next")["primary"] and feedback(lw) == ""


def test_touching_a_covered_card_explains_it() -> None:
    lw = LessonWidget(records=False, lesson=2)
    click(lw, kind="select", card="QH")
    assert lw.feedback_text.startswith("A covered Queen cannot pair with an Ace")
    click(lw, kind="pair", cards=["AS", "QH"])  # keyboard or drag can still name the pair
    assert lw.feedback_text.startswith("A covered Queen cannot pair with an Ace")
    assert lw.board.game.pyramid == LESSONS[2].steps[0].new_game().pyramid


def test_show_me_plays_the_step_and_lesson_complete() -> None:
    lw = LessonWidget(records=False, lesson=1, demo_pause=0)
    for step in range(len(LESSONS[1])):
        lw.jump(1, step)
        press(lw, "show")
        assert lw.runner.solved, step
        assert lw.feedback_text.startswith("Here is how:")
    # Show me marks steps shown (◐), not done: the lesson is not complete (issue 16.7)
    assert "◐◐◐◐" in header(lw) and "Lesson complete" not in header(lw)
    for step in range(len(LESSONS[1])):
        lw.jump(1, step)
        for move in LESSONS[1].steps[step].demo:
            lw.play(move)
    assert "Lesson complete ✓" in header(lw) and "●●●●" in header(lw)
    assert LESSONS[1].summary in feedback(lw)
    assert options(lw)[1].endswith("✓") and not options(lw)[0].endswith("✓")


def test_restart_lesson_previous_and_picker() -> None:
    lw = LessonWidget(records=False)
    lw.next()
    lw.next()
    assert lw.progress_text == "Lesson 1 of 6 · Step 3 of 6"
    press(lw, "previous")
    assert lw.progress_text == "Lesson 1 of 6 · Step 2 of 6"
    press(lw, "restart")
    assert lw.progress_text == "Lesson 1 of 6 · Step 1 of 6"
    assert lw.feedback_text == "Lesson restarted." and feedback(lw) == "Lesson restarted."
    press(lw, "pick", 4)
    assert lw.progress_text == "Lesson 5 of 6 · Step 1 of 7"
    assert lw.board.panel["picker"]["selected"] == 4
    assert lw.board.game.rules.name == "medium" and lw.board.game.stock


def test_board_restart_and_new_deal_bring_the_step_back() -> None:
    lw = LessonWidget(records=False)
    lw.jump(0, 4)
    click(lw, kind="pair", cards=["6C", "7D"])
    assert lw.board.game.moves == 1
    click(lw, kind="restart")
    assert lw.board.game.moves == 0 and lw.board.game is lw.runner.game
    click(lw, kind="pair", cards=["6C", "7D"])
    click(lw, kind="new", rules="hard")  # the board's "new deal": the lesson position stays
    assert lw.board.game.pyramid == LESSONS[0].steps[4].new_game().pyramid
    assert lw.board.game.rules.name == "medium"


def test_undo_after_success_reopens_the_step() -> None:
    lw = LessonWidget(records=False)
    click(lw, kind="pair", cards=["5H", "8C"])
    assert lw.runner.solved
    click(lw, kind="undo")
    assert not lw.runner.solved and lw.board.game.moves == 0
    click(lw, kind="redo")
    assert lw.runner.solved


def test_variant_steps_run_on_their_rule_set() -> None:
    lw = LessonWidget(records=False, lesson=0)
    lw.jump(0, 5)
    assert lw.board.game.rules.name == "cheops"
    lw.play("5H+8C")
    assert "not under cheops" in lw.feedback_text
    assert lw.play("4D+5H").kind == "success"
    lw.jump(3, 5)
    assert lw.board.game.rules.name == "apophis"
    assert lw.play("5H+8C").kind == "success"


def test_a_teachers_lesson_in_the_widget() -> None:
    mine = Lesson(
        "Tens",
        [
            Step(
                "Pair the Ten.",
                {at(7, 1): "TH", at(7, 3): "3S", at(7, 5): "4D"},
                accept=["TH+3S"],
                mistakes={"4D+TH": "10 + 4 = 14: one too many."},
                why="10 + 3 = 13.",
            )
        ],
    )
    lw = LessonWidget(mine, records=False)
    assert "Lesson 1 of 1 · Step 1 of 1" in header(lw)
    assert lw.play("TH+4D").message == "10 + 4 = 14: one too many."
    outcome = lw.play("3S+TH")
    assert outcome.kind == "success" and outcome.lesson_done
    assert "Lesson complete" in header(lw)
    assert button(lw, "next")["disabled"] and button(lw, "previous")["disabled"]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="non-empty list"):
        LessonWidget([])
    with pytest.raises(IndexError, match="lesson must be"):
        LessonWidget(records=False, lesson=9)


def test_paused_board_says_so() -> None:
    lw = LessonWidget(records=False)
    click(lw, kind="pause")
    click(lw, kind="pair", cards=["5H", "8C"])
    assert "paused" in lw.feedback_text and lw.feedback_kind == "mistake"
    click(lw, kind="resume")
    click(lw, kind="pair", cards=["5H", "8C"])
    assert lw.runner.solved


def test_show_me_pauses_before_each_move(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    monkeypatch.setattr("pyramid_widget.lessons.widget.time.sleep", slept.append)
    lw = LessonWidget(records=False, demo_pause=0.25)
    lw.jump(0, 4)
    lw.show_me()
    assert slept == [0.25, 0.25, 0.25] and lw.runner.solved
    with pytest.raises(ValueError, match=r"0\.\.5 seconds"):
        LessonWidget(records=False, demo_pause=-1)


# -- the panel: every press checked, a refused one changes nothing; text stays text --------------


def test_a_press_the_panel_does_not_offer_is_refused_and_changes_nothing() -> None:
    lw = LessonWidget(records=False)
    before = (lw.progress_text, dict(lw.board.panel), position(lw))
    cases: list[tuple[dict[str, Any], str]] = [
        ({"action": "previous"}, "The 'Previous' button is not available now."),
        ({"action": "teleport"}, "The panel has no 'teleport' button."),
        ({"action": "pick", "index": 6}, "The picker has 6 option(s); there is no option 6."),
        ({"action": "pick"}, "needs the field 'index'"),
        ({"action": "next", "index": 1}, "takes no 'index'"),
        ({"action": "Next"}, "must be a panel action"),
        ({"action": "<b>x</b>"}, "must be a panel action"),
        ({"action": "pick", "index": -1}, "must be a whole number"),
        ({"action": "pick", "index": True}, "must be a whole number"),
        ({"action": "next", "extra": 1}, "unknown field(s): 'extra'"),
    ]
    for content, words in cases:
        click(lw, kind="panel", **content)
        event = lw.board.last_event
        assert event["kind"] == "panel" and event["ok"] is False, content
        assert words in lw.board.message and lw.board.message_kind == "error", lw.board.message
        assert (lw.progress_text, dict(lw.board.panel), position(lw)) == before, content
    click(lw, kind="panel", action="pick", index=0)  # the lesson already open: nothing to do
    assert lw.progress_text == before[0]


def test_the_panel_is_plain_text_data() -> None:
    """A hostile title or prompt goes into the panel as it is (the page sets it as text), and
    the panel's CSS classes are only the lesson's own class names."""
    hostile = '<img src=x onerror="window.__pwned=1">'
    mine = Lesson(
        hostile,
        [Step(f"Pair <b>it</b> {hostile}", {at(7, 1): "TH", at(7, 3): "3S"}, accept=["TH+3S"])],
        intro="<script>alert(1)</script>",
    )
    lw = LessonWidget(mine, records=False)
    assert lw.board.panel["header"]["title"] == hostile
    assert prompt(lw) == f"<script>alert(1)</script>\nPair <b>it</b> {hostile}"
    assert options(lw) == [f"1. {hostile}"]
    assert all(c.startswith("pyr-lesson") for c in lw.board.panel["classes"])
    import traitlets

    with pytest.raises(traitlets.TraitError, match="CSS class names"):
        lw.board.panel = {**lw.board.panel, "classes": ['x" onload="']}
    with pytest.raises(traitlets.TraitError, match="unknown panel field"):
        lw.board.panel = {"html": "<b>"}


def test_a_board_without_a_panel_refuses_panel_presses() -> None:
    from pyramid_widget.widget import PyramidWidget

    w = PyramidWidget("medium", deal=7, records=False)
    w._on_msg(w, {"kind": "panel", "action": "next"}, [])
    assert w.last_event["ok"] is False and w.message == "This board has no panel to press."
    assert w.panel == {} and w.moves == 0


def test_hosts_show_the_board() -> None:
    """Jupyter, Voila and Colab get the board's mimebundle (the live widget and the SVG
    picture); marimo's display protocol gets the board itself, an anywidget."""
    lw = LessonWidget(records=False)
    data, _metadata = lw._repr_mimebundle_()
    view = data["application/vnd.jupyter.widget-view+json"]
    assert view["model_id"] == lw.board.model_id
    assert data["image/svg+xml"].startswith("<svg") and "5H" in data["image/svg+xml"]
    assert lw._display_() is lw.board
    assert repr(lw) == "<LessonWidget: 'Pairs to 13', Lesson 1 of 6 · Step 1 of 6>"


_MARIMO_FORMATS = """
from marimo._output.formatting import get_formatter
from pyramid_widget.lessons.widget import LessonWidget
lw = LessonWidget(records=False)
mime, data = get_formatter(lw)(lw)
print(mime, "<marimo-anywidget" in data, lw.board.model_id in data)
"""


def test_marimo_shows_the_whole_lesson_as_one_anywidget() -> None:
    """marimo's own formatter, given the LessonWidget itself (a cell's last expression), makes
    the anywidget element of the board: no "Jupyter widgets are not supported". In a process
    of its own: marimo's formatters patch ``comm`` and the import system for good."""
    need("marimo", "dev")
    run = subprocess.run(
        [sys.executable, "-c", _MARIMO_FORMATS],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        check=False,
    )
    assert run.stdout.split() == ["text/html", "True", "True"], run.stderr[-2000:]
