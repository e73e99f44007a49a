"""The Game API: errors that explain and change nothing, the legal-move view, JSON records,
copies, restart, the text picture, hints and the OpenSpiel face."""

from __future__ import annotations

import json

import pytest

from pyramid_widget import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    PyramidError,
    Status,
    parse_card,
)
from pyramid_widget.engine.hints import hint
from pyramid_widget.errors import GameFileError
from pyramid_widget.lab.spiel import DRAW_ACTION, PyramidGame, action_to_move, move_to_action
from tests.support.engine import bottom, game


def test_notebook_user_flow_deal_7_medium() -> None:
    g = Game("medium", deal=7)
    g.play("draw")
    g.play("3C+TD")
    assert g.moves == 2 and parse_card("TD") in g.discard
    g.undo()
    assert g.moves == 1 and parse_card("TD") not in g.discard
    picture = str(g)
    assert picture.splitlines()[0].startswith("medium, deal 7 | pass 1 of 3 | moves 1")
    assert "[QS][AH][TD][4H][6C][QC][AC]" in picture and "waste [3C]" in picture


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("5C+8D", "5C is covered by 2C and TC"),
        ("QS+AH", None),
        ("QS+TD", "10 + Queen (12) = 22, not 13"),
        ("redeal", "the stock still has 24 card(s): redeal only when it is empty"),
        ("KS", "KS is covered by 6D and AD"),
        ("cell QS", "medium has no free cell"),
        ("next-round", "medium has no rounds"),
    ],
)
def test_explain_says_why(move: str, message: str | None) -> None:
    g = Game("medium", 7)
    assert g.explain(move) == message


@pytest.mark.parametrize("bad", ["5C+8D", "QS+TD", "redeal", "KS", "cell QS", "next-round"])
def test_rejected_move_leaves_game_unchanged(bad: str) -> None:
    g = Game("medium", 7, clock=lambda: 0.0)
    g.play("draw")
    before = (str(g), g.history, g.to_json())
    with pytest.raises(IllegalMoveError) as info:
        g.play(bad)
    assert isinstance(info.value, ValueError) and info.value.reason in str(info.value)
    assert (str(g), g.history, g.to_json()) == before


@pytest.mark.parametrize("bad", ["5H+", "shuffle", "ZZ", "9C", "", "cell", 42])
def test_malformed_moves_raise_invalid_move(bad: object) -> None:
    g = Game("medium", 7)
    with pytest.raises(InvalidMoveError):
        g.play(bad)  # type: ignore[arg-type]


def test_undo_redo_errors_and_redo_after_redeal() -> None:
    g = game("medium", bottom("9D", "KS"), stock=["2C"])
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        g.undo()
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        g.redo()
    g.play("draw")
    g.play("redeal")
    assert g.undo() == Move.redeal() and g.stock == () and g.pass_number == 1
    assert g.redo() == Move.redeal() and g.pass_number == 2
    g.undo()
    g.play("KS")
    assert not g.can_redo, "a new move clears the redo list"


def test_legal_moves_view() -> None:
    g = Game("medium", 7)
    view = g.legal_moves
    assert view.count() == len(view) == len(list(view)) == 5
    assert bool(view) and "AH+QS" in view and Move.draw() in view and "junk" not in view
    assert "draw" in repr(view)


def test_a_held_view_follows_the_game_and_lists_each_position_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``list()`` and ``sorted()`` ask a view for its length and iterate it: the moves are
    listed once for both. A view kept across moves, undo, redo and restart always shows the
    game's moves now, never those it listed before."""
    from pyramid_widget.engine import legality

    listed = []
    plain = legality.candidate_moves

    def counting(*args: object) -> object:
        listed.append(1)
        return plain(*args)  # type: ignore[arg-type]

    g = Game("medium", 7)
    view = g.legal_moves
    monkeypatch.setattr(legality, "candidate_moves", counting)
    first = list(view)
    assert sorted(view) == sorted(first) and view.count() == len(first) and bool(view)
    assert len(listed) == 1, "one listing for list(), sorted(), count() and bool()"

    def fresh() -> list[Move]:
        return list(Game.from_json(g.to_json()).legal_moves)

    g.play("draw")
    drawn = fresh()
    assert list(view) == drawn != first
    g.play("3C+TD")
    assert list(view) == fresh() != drawn
    g.undo()
    assert list(view) == drawn
    g.redo()
    assert list(view) == fresh() != drawn
    g.restart()
    assert list(view) == first and view.count() == len(first)
    won = Game.from_position("medium", pyramid=bottom("5H", "8C"))
    held = won.legal_moves
    assert held.count() == 1
    won.play("5H+8C")
    assert list(held) == [] and not held and held.count() == 0


def test_copy_is_independent() -> None:
    g = Game("medium", 7, clock=lambda: 0.0)
    g.play("draw")
    twin = g.copy()
    twin.play("3C+TD")
    twin.undo()
    twin.undo()
    assert g.moves == 1 and g.wastes == ((parse_card("3C"),),)
    g.undo()
    assert twin.moves == 0
    twin.play("draw")  # the copy shares the first position: a restart of either keeps it
    twin.restart()
    dealt = Game("medium", 7)
    assert (twin.moves, twin.stock, twin.pyramid) == (0, dealt.stock, dealt.pyramid)
    g.play("draw")
    g.restart()
    assert (g.moves, g.stock, g.pyramid) == (0, dealt.stock, dealt.pyramid)


def test_restart_goes_back_to_the_deal() -> None:
    g = Game("egypt", 7, clock=lambda: 0.0)
    g.play("draw")
    g.restart()
    assert g.moves == 0 and g.stock == g.deal[28:] and g.score == 0 and g.round == 1


def test_game_over_rejects_moves_and_clock_stops() -> None:
    now = [0.0]
    g = Game.from_position("medium", pyramid=bottom("5H", "8C"), clock=lambda: now[0])
    now[0] = 5.0
    g.play("5H+8C")
    assert g.is_over and g.status is Status.WON
    now[0] = 50.0
    assert g.elapsed == 5.0
    with pytest.raises(IllegalMoveError, match="the game is over"):
        g.play("draw")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ('{"format": "other"}', "not a saved game"),
        ('{"format": "pyramid-widget/game", "version": 99}', "version 99"),
        ('{"format": "pyramid-widget/game", "version": 1}', "lacks or garbles"),
    ],
)
def test_bad_records_rejected(text: str, message: str) -> None:
    with pytest.raises(GameFileError, match=message):
        Game.from_json(text)


def test_record_with_an_illegal_move_is_rejected() -> None:
    g = Game("medium", 7)
    g.play("draw")
    data = json.loads(g.to_json())
    data["moves"].append(["5C+8D", 1.0])
    with pytest.raises(PyramidError, match=r"move 2 of the saved game \(5C\+8D\) is illegal"):
        Game.from_json(data)
    data["moves"][-1] = ["5C+", 1.0]
    with pytest.raises(GameFileError, match="malformed"):
        Game.from_json(data)


def test_position_record_round_trip() -> None:
    g = game("apophis", bottom("5H", "KD"), stock=["8C", "2S"], wastes=[["4C"], [], ["9H"]])
    g.play("4C+9H")
    twin = Game.from_json(g.to_json())
    assert str(twin) == str(g) and twin.history == g.history


def test_bad_positions_rejected() -> None:
    with pytest.raises(PyramidError, match="28 slots"):
        Game.from_position("medium", pyramid=["5H"])
    with pytest.raises(PyramidError, match="placed twice"):
        Game.from_position("medium", pyramid=bottom("5H"), stock=["5H"])
    with pytest.raises(PyramidError, match="1 waste pile"):
        Game.from_position("medium", pyramid=bottom("5H"), wastes=[[], []])


def test_hint_prefers_kings_then_pyramid_pairs() -> None:
    g = game("medium", bottom("5H", "8C", "KD"), wastes=[["8D"]], stock=["2C"])
    assert hint(g) == Move.parse("KD")
    g.play("KD")
    assert hint(g) == Move.parse("5H+8C")
    g.play("5H+8C")
    assert hint(g) is None


def test_hint_draws_when_nothing_else() -> None:
    assert hint(game("medium", bottom("5H", "9C"), stock=["2C"])) == Move.draw()


def test_spiel_face() -> None:
    pg = PyramidGame("medium")
    state = pg.new_initial_state(7)
    actions = state.legal_actions()
    assert actions == sorted(actions) and DRAW_ACTION in actions
    assert state.action_to_string(DRAW_ACTION) == "draw" == state.action_to_string(0, DRAW_ACTION)
    child = state.clone()
    child.apply_action(DRAW_ACTION)
    assert child.game.moves == 1 and state.game.moves == 0
    assert state.string_to_action("AH+QS") == move_to_action(Move.parse("AH+QS"))
    assert not state.is_terminal() and state.returns() == [0.0] and state.current_player() == 0
    for action in range(pg.num_distinct_actions()):
        try:
            move = action_to_move(action)
        except ValueError:
            continue
        assert move_to_action(move) == action
    with pytest.raises(ValueError):
        state.apply_action(0)


def test_spiel_terminal_win() -> None:
    state = PyramidGame("medium").new_initial_state(7)
    state.game = Game.from_position("medium", pyramid=bottom("5H", "8C"))
    state.apply_action(state.string_to_action("5H+8C"))
    assert state.is_terminal() and state.returns() == [1.0] and state.legal_actions() == []
