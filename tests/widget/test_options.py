"""The display options a host chooses, on the Python side: ``banner``, ``compact`` and what
``controls`` limits (the page's buttons, keys and banner buttons, not Python's calls).

The page's side of the same options runs in Chromium in ``tests/widget/test_options_browser.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import traitlets

from pyramid_widget import Game
from pyramid_widget.lessons.widget import LESSON_CONTROLS, LessonWidget
from pyramid_widget.widget import CONTROLS, PyramidWidget

JS = Path(__file__).resolve().parents[2] / "pyramid_widget" / "widget" / "static" / "widget.js"


def send(w: PyramidWidget, **content: Any) -> dict[str, Any]:
    """Deliver one page message through the real comm entry point; return ``last_event``."""
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    return dict(w.last_event)


def test_defaults_keep_the_full_board() -> None:
    w = PyramidWidget("medium", deal=7, records=False)
    assert w.banner is True and w.compact is False and w.controls == list(CONTROLS)


@pytest.mark.parametrize("name", ["banner", "compact"])
def test_the_options_are_synced_documented_and_checked(name: str) -> None:
    w = PyramidWidget("medium", deal=7, records=False)
    setattr(w, name, True)
    assert getattr(w, name) is True
    assert name in w.trait_names(sync=True)
    assert w.traits()[name].help.startswith("bool: ")
    setattr(w, name, False)
    assert getattr(w, name) is False
    with pytest.raises(traitlets.TraitError, match="expected a boolean"):
        setattr(w, name, "yes")
    assert getattr(w, name) is False


def test_constructor_takes_banner_and_compact() -> None:
    w = PyramidWidget("hard", deal=3, records=False, banner=False, compact=True)
    assert (w.banner, w.compact) == (False, True)
    with pytest.raises(TypeError):
        PyramidWidget(records=False, banner_off=True)  # type: ignore[call-arg]


def test_game_over_without_banner_still_says_how_it_ended() -> None:
    """With ``banner=False`` the message line (not an overlay) says the game is won."""
    w = PyramidWidget("medium", records=False, banner=False)
    w.load(Game.from_position("medium", pyramid=[None] * 27 + ["KS"]))
    w.play("KS")
    assert w.status == "won" and w.message.startswith("You won!")


def test_compact_changes_the_display_not_the_game() -> None:
    """``compact`` is the page's business: the board data (discard included) stays the same."""
    position = Game.from_position("medium", pyramid=[None] * 26 + ["5H", "8C"])
    full = PyramidWidget("medium", records=False)
    full.load(position.copy())
    small = PyramidWidget("medium", records=False, compact=True)
    small.load(position.copy())
    assert small.board == full.board and small.board["discard_count"] == 50


def test_controls_limit_the_page_not_python() -> None:
    """Hidden controls lose their button, key and banner button on the page; Python's calls
    (and a message from another frontend) still work, as a host may drive the board itself."""
    w = PyramidWidget("medium", deal=7, records=False, controls=["restart"])
    w.draw()
    assert w.undo().kind.value == "draw" and w.moves == 0
    w.draw()
    assert send(w, kind="undo", seq=1)["ok"] is True and w.moves == 0


def test_the_page_knows_each_keyboard_shortcuts_control() -> None:
    """Every toolbar shortcut in the page's key table names a real control (a typo would let
    a hidden control's key through), and the page listens to the new traits."""
    source = JS.read_text()
    table = source.split("const SHORTCUTS = {", 1)[1].split("}", 1)[0]
    controls = {part.split(":")[1].strip().strip('"') for part in table.split(",")}
    assert controls == {"undo", "redo", "hint", "pause", "new", "help"} <= set(CONTROLS)
    views = source.split("const VIEW_TRAITS = [", 1)[1].split("]", 1)[0]
    assert '"banner"' in views and '"compact"' in views and '"controls"' in views


# -- the lesson widget uses the options (no injected CSS, no DOM class of its own) ------------


def test_lesson_board_uses_the_widget_options() -> None:
    lw = LessonWidget()
    board = lw.board
    assert (board.banner, board.compact, board.controls) == (False, True, LESSON_CONTROLS)
    assert "pyr-in-lesson" not in board._dom_classes
    # one model: the lesson's header, prompt and buttons are the board's panel (data, no
    # markup, no <style>); its stylesheet comes with the board's own
    assert board.panel["classes"][0] == "pyr-lesson"
    assert "<" not in json.dumps(board.panel, ensure_ascii=False)


def test_a_lesson_step_that_ends_the_game_shows_no_banner() -> None:
    """Step 1 of lesson 1 leaves no move after the right pair: the game is over (lost), the
    board's banner is off, and the lesson's own feedback says what happened."""
    lw = LessonWidget()
    board = lw.board
    board._on_msg(board, {"kind": "pair", "cards": ["5H", "8C"], "seq": 1}, [])
    assert lw.runner.solved and board.status != "playing"
    assert board.banner is False
    assert "5 + 8 = 13" in lw.feedback_text
