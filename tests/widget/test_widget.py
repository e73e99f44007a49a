"""The widget's Python side, no browser: every intent kind, every error path, trait sync.

Messages go through ipywidgets' real comm entry point (``_handle_msg``), exactly as the page's
``model.send({...})`` arrives in the kernel.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pyramid_widget import Game, IllegalMoveError, InvalidMoveError, Move, format_deal, get_rules
from pyramid_widget.widget import CONTROLS, PyramidWidget
from pyramid_widget.widget.intents import SCHEMA

LONE_5H = [None] * 27 + ["5H"]


def send(w: PyramidWidget, **content: Any) -> dict[str, Any]:
    """Deliver one page message and return the resulting ``last_event``."""
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    return dict(w.last_event)


def send_raw(w: PyramidWidget, content: Any) -> dict[str, Any]:
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})
    return dict(w.last_event)


@pytest.fixture()
def w() -> PyramidWidget:
    return PyramidWidget("medium", deal=7, records=False)


def pyramid_ids(w: PyramidWidget) -> list[str]:
    return [c["id"] for c in w.board["cards"] if c["zone"] == "pyramid"]


def assert_synced(w: PyramidWidget) -> None:
    g = w.game
    assert w.moves == g.moves
    assert w.score == g.score
    assert w.status == g.status.value
    assert w.status_reason == g.status_reason
    assert w.board["stock_count"] == len(g.stock)
    assert w.board["discard_count"] == len(g.discard)
    assert len(pyramid_ids(w)) == sum(c is not None for c in g.pyramid)
    assert w.board["can_undo"] == g.can_undo and w.board["can_redo"] == g.can_redo


# -- construction -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset", ["easy", "medium", "hard", "relaxed", "apophis", "cheops", "egypt"]
)
def test_every_preset_builds_a_full_board(preset: str) -> None:
    w = PyramidWidget(preset, deal=3, records=False)
    board = w.board
    assert len(pyramid_ids(w)) == 28
    assert board["rules"]["name"] == preset
    assert board["stock_count"] == 24
    assert len(board["waste_counts"]) == get_rules(preset).waste_piles
    available = {c["id"] for c in board["cards"] if c["available"]}
    row7 = {c["id"] for c in board["cards"] if c["zone"] == "pyramid" and c["row"] == 6}
    assert row7 <= available and len(row7) == 7
    assert_synced(w)


def test_unknown_keyword_raises_type_error() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'color'"):
        PyramidWidget(color="red")  # type: ignore[call-arg]


def test_deal_string_custom_rules_and_bad_arguments() -> None:
    deal_text = format_deal(Game("medium", deal=7).deal or ())
    w = PyramidWidget(
        {"name": "two-wastes", "waste_piles": 2, "passes": 5}, deal=deal_text, records=False
    )
    assert w.board["rules"]["waste_piles"] == 2 and w.board["passes_left"] == 4
    assert pyramid_ids(w) == pyramid_ids(PyramidWidget("medium", deal=7, records=False))
    with pytest.raises(ValueError, match="easy"):
        PyramidWidget("nonsense")
    with pytest.raises(ValueError):
        PyramidWidget("medium", deal="AS 2S")


def test_accessible_names_say_what_covers_a_card(w: PyramidWidget) -> None:
    apex = next(c for c in w.board["cards"] if c["index"] == 0 and c["zone"] == "pyramid")
    assert apex["label"] == "5 of clubs, covered by 2 of clubs and 10 of clubs"
    assert apex["covered_by"] == ["2C", "TC"] and not apex["available"]
    qs = next(c for c in w.board["cards"] if c["id"] == "QS")
    assert qs["label"] == "Queen of spades, available"


def test_controls_and_theme_are_validated(w: PyramidWidget) -> None:
    assert w.controls == list(CONTROLS)
    w.controls = ["undo", "hint"]
    with pytest.raises(Exception, match="unknown control"):
        w.controls = ["undo", "teleport"]
    assert w.controls == ["undo", "hint"]
    lesson = PyramidWidget(records=False, controls=["undo"], theme="dark")
    assert lesson.controls == ["undo"] and lesson.theme == "dark"
    with pytest.raises(Exception, match="theme"):
        w.theme = "purple"


# -- every intent kind ----------------------------------------------------------------------


def test_pair_king_draw_and_sync(w: PyramidWidget) -> None:
    ev = send(w, kind="draw", seq=1)
    assert ev["ok"] and ev["kind"] == "draw" and ev["source"] == "page" and ev["seq"] == 1
    ev = send(w, kind="pair", cards=["QS", "AH"], seq=2)
    assert ev["ok"] and ev["move"] == "AH+QS" and ev["cards"] == ["AH", "QS"]
    assert "QS" not in pyramid_ids(w) and w.moves == 2 and w.score > 0
    assert_synced(w)
    w.play("AC", "QC")
    send(w, kind="pair", cards=["6C", "7D"])
    assert not w.last_event["ok"]  # 7D is covered
    assert "covered" in w.message and w.message_kind == "error"
    assert_synced(w)


def test_king_intent_and_second_tap_rules() -> None:
    w = PyramidWidget("medium", deal=7, records=False)
    w.load(Game.from_position("medium", pyramid=[None] * 27 + ["KS"], stock=["2C"]))
    ev = send(w, kind="king", card="KS")
    assert ev["ok"] and w.status == "won" and "won" in w.message.lower()
    assert w.message_kind == "success"
    w2 = PyramidWidget("medium", deal=7, records=False)
    ev = send(w2, kind="king", card="QS")
    assert not ev["ok"] and "Only a King is removed alone" in w2.message


def test_wrong_pair_is_explained_and_nothing_changes(w: PyramidWidget) -> None:
    before = dict(w.board)
    ev = send(w, kind="pair", cards=["TD", "4H"])
    assert not ev["ok"] and ev["cards"] == ["4H", "TD"]
    assert w.message == "4 + 10 = 14, not 13."
    assert w.board == before and w.moves == 0


def test_refused_moves_name_cards_in_words_never_in_codes() -> None:
    # "TD needs a partner" and "5C is covered by 2C and TC" are for code; a player reads names
    w = PyramidWidget("egypt", deal=7, records=False)
    refused = [
        (
            {"kind": "king", "card": "TD"},
            "Only a King is removed alone; the 10 of diamonds needs a partner.",
        ),
        (
            {"kind": "pair", "cards": ["5C", "8D"]},
            "The 5 of clubs is covered by the 2 of clubs and the 10 of clubs.",
        ),
    ]
    assert send(w, kind="cell", card="QS")["ok"]
    refused.append(
        (
            {"kind": "cell", "card": "AH"},
            "The cell is full (the Queen of spades); a card leaves it only by being removed.",
        )
    )
    for intent, words in refused:
        ev = send(w, **intent)
        assert not ev["ok"] and w.message == words and ev["message"] == words
    assert w.moves == 1


def test_select_explains_a_covered_card(w: PyramidWidget) -> None:
    ev = send(w, kind="select", card="5C")
    assert not ev["ok"]
    assert w.message == "The 5 of clubs is still covered by the 2 of clubs and the 10 of clubs."
    moves = w.moves
    send(w, kind="select", card="QS")  # available: nothing to say, nothing changes
    assert w.moves == moves


def test_redeal_passes_and_lost_banner_state() -> None:
    w = PyramidWidget("hard", deal=7, records=False)
    for _ in range(24):
        send(w, kind="draw")
    assert w.board["stock_count"] == 0 and not w.board["can_draw"]
    ev = send(w, kind="redeal")
    assert not ev["ok"] and w.message_kind == "error"
    medium = PyramidWidget("medium", deal=7, records=False)
    for _ in range(24):
        medium.draw()
    assert medium.board["can_redeal"]
    ev = send(medium, kind="redeal")
    assert ev["ok"] and medium.board["stock_count"] > 0 and medium.board["passes_left"] == 1


def test_cell_intent_egypt() -> None:
    w = PyramidWidget("egypt", deal=7, records=False)
    ev = send(w, kind="cell", card="QS")
    assert ev["ok"] and w.board["cells"] == ["QS"]
    assert any(c["zone"] == "cell" and c["id"] == "QS" and c["available"] for c in w.board["cards"])
    ev = send(w, kind="cell", card="AH")
    assert not ev["ok"] and w.board["cells"] == ["QS"]
    medium = PyramidWidget("medium", deal=7, records=False)
    assert not send(medium, kind="cell", card="QS")["ok"]
    assert medium.message == "Medium has no free cell."


def test_next_round_after_an_egypt_round() -> None:
    w = PyramidWidget("egypt", records=False)
    w.load(Game.from_position("egypt", pyramid=[None] * 27 + ["KS"], stock=["2C", "3C", "4C"]))
    w.play("KS")
    assert w.board["can_next_round"] and "Round 1 complete" in w.message
    ev = send(w, kind="next-round")
    assert ev["ok"] and w.board["round"] == 2 and len(pyramid_ids(w)) == 28
    assert w.status == "playing"


def test_undo_redo(w: PyramidWidget) -> None:
    assert not send(w, kind="undo")["ok"] and w.message == "Nothing to undo."
    w.draw()
    w.play("QS+AH")
    ev = send(w, kind="undo")
    assert ev["ok"] and ev["move"] == "AH+QS" and "QS" in pyramid_ids(w)
    assert w.board["can_redo"]
    ev = send(w, kind="redo")
    assert ev["ok"] and "QS" not in pyramid_ids(w) and not w.board["can_redo"]
    assert_synced(w)
    assert str(w.undo()) == "AH+QS" and str(w.undo()) == "draw"
    assert w.message == "Undid draw from the stock."
    assert w.board["stock_count"] == 24 and w.moves == 0


def test_hint_highlights_a_move(w: PyramidWidget) -> None:
    ev = send(w, kind="hint")
    hinted = Move.parse(ev["move"])
    assert ev["ok"] and hinted in w.game.legal_moves
    assert w.highlight == ev["cards"] and len(w.highlight) == 2
    assert w.message.startswith("Hint: pair the ") and w.message_kind == "hint"
    move = w.hint()
    assert move == hinted
    w.play(move)
    assert w.highlight == []
    assert not send(w, kind="hint", level=3)["ok"]


def test_new_restart_pause_resume(w: PyramidWidget) -> None:
    w.draw()
    ev = send(w, kind="new", rules="relaxed", deal="12")
    assert ev["ok"] and w.board["rules"]["name"] == "relaxed" and w.board["deal_number"] == 12
    assert w.moves == 0
    send(w, kind="new")
    assert w.board["rules"]["name"] == "relaxed"
    w.draw()
    send(w, kind="restart")
    assert w.moves == 0 and w.board["stock_count"] == 24
    send(w, kind="pause")
    assert w.paused and not w.clock_running
    ev = send(w, kind="draw")
    assert not ev["ok"] and "paused" in w.message and w.moves == 0
    with pytest.raises(IllegalMoveError, match="paused"):
        w.undo()
    send(w, kind="resume")
    assert not w.paused and not w.clock_running  # the clock starts at the first move
    assert send(w, kind="draw")["ok"]
    assert w.clock_running


def test_hints_and_the_solver_wait_while_paused(w: PyramidWidget) -> None:
    # the audit: Hint and Solve answered on a paused (hidden) board and marked it assisted
    send(w, kind="pause")
    for intent in ({"kind": "hint"}, {"kind": "hint", "level": 2}, {"kind": "solve"}):
        ev = send(w, **intent)
        assert not ev["ok"] and w.message == "The game is paused: resume it to play."
        assert w.highlight == [] and w.autoplay == [] and w.busy == {}
    for call in (w.hint, w.solve):
        with pytest.raises(IllegalMoveError, match="paused"):
            call()
    assert not w.assisted and w.moves == 0 and w.paused
    send(w, kind="resume")
    assert send(w, kind="hint")["ok"] and w.highlight


def test_every_kind_in_the_schema_is_exercised() -> None:
    exercised = {"pair", "king", "cell", "select", "draw", "redeal", "next-round", "undo"}
    exercised |= {"redo", "hint", "new", "restart", "pause", "resume", "solve", "solve-step"}
    exercised |= {"truth", "stats"}
    # tested in tests/widget/test_board_touch.py and test_board_touch_browser.py:
    exercised |= {"solve-stop", "solve-speed", "post-mortem", "visibility"}
    exercised |= {"panel"}  # tests/lessons/test_widget.py, tests/widget/test_options_browser.py
    assert exercised == set(SCHEMA)


# -- bad messages and bad calls ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ({"kind": "teleport"}, "Unknown message kind 'teleport'"),
        ({"cards": ["5H", "8C"]}, "needs a text field 'kind'"),
        ("pair", "must be an object"),
        ({"kind": "pair"}, "needs the field 'cards'"),
        ({"kind": "pair", "cards": ["5H"]}, "list of two card names"),
        ({"kind": "pair", "cards": ["5H", "ZZ"]}, "'ZZ' is not a card"),
        ({"kind": "king", "card": 13}, "must be a card name"),
        ({"kind": "draw", "force": True}, "unknown field(s): 'force'"),
        ({"kind": "truth"}, "needs the field 'on'"),
        ({"kind": "truth", "on": "yes"}, "true or false"),
        ({"kind": "new", "deal": -4}, "not negative"),
        ({"kind": "new", "rules": "chess"}, "chess"),
        ({"kind": "new", "deal": "AS KS"}, "52"),
        ({"kind": "pair", "cards": ["5H", "5H"]}, "cannot pair with itself"),
    ],
)
def test_bad_messages_are_refused_with_a_clear_message(
    w: PyramidWidget, content: Any, words: str
) -> None:
    before = (dict(w.board), w.moves, w.game.deal)
    ev = send_raw(w, content)
    assert not ev["ok"] and w.message_kind == "error"
    assert words.lower() in w.message.lower()
    assert (dict(w.board), w.moves, w.game.deal) == before


def game_state(w: PyramidWidget) -> dict[str, Any]:
    """The saved form of the game on the board, without the clock (which ticks on)."""
    saved = json.loads(w.game.to_json())
    saved.pop("elapsed")
    return {**saved, "board": w.board, "history": [str(m) for m in w.game.history]}


HUGE = "<b>" + "x" * 10_000_000


@pytest.mark.parametrize(
    "content",
    [
        {"kind": HUGE},
        {"kind": "pair", "cards": [HUGE, "5H"]},
        {"kind": "pair", "cards": HUGE},
        {"kind": "king", "card": HUGE},
        {"kind": "new", "rules": HUGE},
        {"kind": "new", "deal": HUGE},
        {"kind": "new", "rules": "x" * 399},
        {"kind": "new", "deal": "AS " * 133},
        {"kind": "hint", "level": HUGE},
        {"kind": "truth", "on": [HUGE] * 3},
        {"kind": "draw", HUGE: 1},
        {"kind": "draw", **{f"field{i}": i for i in range(1000)}},
        [HUGE],
        HUGE,
    ],
    ids=lambda c: str(c)[:24],
)
def test_huge_inputs_are_quoted_back_cut_short(w: PyramidWidget, content: Any) -> None:
    before = game_state(w)
    ev = send_raw(w, content)
    assert not ev["ok"] and w.message_kind == "error" and w.message
    assert len(w.message) <= 420 and len(ev["message"]) <= 420, len(w.message)
    assert "xxxxxxxxxx" not in w.message or "…" in w.message
    assert game_state(w) == before


def test_python_calls_quote_huge_inputs_cut_short(w: PyramidWidget) -> None:
    many: Any = ["5H"] * 10**5
    for first, second in ((HUGE, None), (HUGE, "5H"), ("5H", HUGE), (many, None)):
        with pytest.raises(ValueError):
            w.play(first, second)
        assert len(w.message) <= 420 and w.message_kind == "error"
    assert w.moves == 0


def test_moves_in_a_finished_game_are_refused() -> None:
    w = PyramidWidget("medium", records=False)
    w.load(Game.from_position("medium", pyramid=LONE_5H, stock=["8C"]))
    w.draw()
    w.play("5H", "8C")
    assert w.status == "won"
    ev = send(w, kind="draw")
    assert not ev["ok"] and "over" in w.message
    with pytest.raises(IllegalMoveError, match="over"):
        w.draw()
    assert w.status == "won" and w.moves == 2


def test_a_flood_of_messages_is_cut_off(w: PyramidWidget) -> None:
    for _ in range(w._guard.limit):
        send(w, kind="select", card="QS")
    ev = send(w, kind="draw")
    assert not ev["ok"] and "too many messages" in w.message.lower()
    assert w.moves == 0


def test_python_api_errors_raise_and_show(w: PyramidWidget) -> None:
    with pytest.raises(InvalidMoveError):
        w.play("ZZ")
    assert w.message_kind == "error" and "ZZ" in w.message
    with pytest.raises(InvalidMoveError):
        w.play(5)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="14, not 13"):
        w.play("TD", "4H")
    with pytest.raises(ValueError, match="message kind"):
        w.show_message("hi", kind="shout")
    with pytest.raises(TypeError, match="Game"):
        w.load("medium")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        w.hint(level=5)
    assert w.moves == 0


def test_python_api_drives_the_board(w: PyramidWidget) -> None:
    assert str(w.draw()) == "draw"
    assert str(w.play("QS+AH")) == "AH+QS"
    assert str(w.play(Move.parse("AC+QC"))) == "AC+QC"
    assert w.last_event["source"] == "python" and w.last_event["seq"] is None
    w.new_game("cheops", 5)
    assert w.game.rules.name == "cheops" and w.board["deal_number"] == 5
    g = w.new_game()
    assert g is w.game and g.rules.name == "cheops"
    w.show_message("Try the Queen.", "hint")
    assert (w.message, w.message_kind) == ("Try the Queen.", "hint")
    with pytest.raises(ValueError, match="either a deal or winnable"):
        w.new_game(deal=3, winnable=True)


def test_game_changed_directly_then_refresh(w: PyramidWidget) -> None:
    w.game.play("draw")
    assert w.moves == 0
    w.refresh()
    assert w.moves == 1
    assert_synced(w)


def test_move_filter_refuses_a_legal_move() -> None:
    def only_kings(game: Game, move: Move) -> str | None:
        return None if move.kind.value == "king" else "In this lesson, remove a King."

    w = PyramidWidget("medium", deal=7, records=False, move_filter=only_kings)
    ev = send(w, kind="draw")
    assert not ev["ok"] and w.message == "In this lesson, remove a King."
    assert w.moves == 0
    w.move_filter = None
    assert send(w, kind="draw")["ok"]


def test_a_hand_made_position_can_be_won_by_page_messages() -> None:
    w = PyramidWidget("medium", records=False)
    w.load(Game.from_position("medium", pyramid=[None] * 25 + ["5H", "KS", "8C"], stock=[]))
    assert len(pyramid_ids(w)) == 3
    assert send(w, kind="king", card="KS")["ok"]
    assert send(w, kind="pair", cards=["8C", "5H"])["ok"]
    assert w.status == "won" and w.board["pyramid_left"] == 0
    assert w.last_event["message"].startswith("You won!")


def test_the_play_notebook_runs_headless_and_links_exist(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import os
    import re

    import nbformat

    from tests.support.kernels import execute

    notebooks = Path(__file__).resolve().parents[2] / "notebooks"
    nb = nbformat.read(notebooks / "00_play.ipynb", as_version=4)
    env_path = os.pathsep.join(filter(None, [str(notebooks.parent), os.environ.get("PYTHONPATH")]))
    monkeypatch.setenv("PYTHONPATH", env_path)
    monkeypatch.setenv("PYRAMID_WIDGET_DATA_DIR", str(tmp_path))
    execute(nb, timeout=120, path=notebooks)
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
    links = re.findall(r"\((\d\d_\w+\.ipynb)\)", " ".join(c.source for c in nb.cells))
    assert len(links) == 7
    assert [name for name in links if not (notebooks / name).exists()] == []
