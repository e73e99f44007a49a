"""Saved games: a public record (issue 13) and every field checked by type, range and
agreement with the moves (issue 14 items 2 and 7)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from pyramid_widget import Game, get_rules, parse_card
from pyramid_widget.engine.deals import MAX_DEAL_NUMBER, format_deal
from pyramid_widget.engine.gamefile import read
from pyramid_widget.engine.record import GameRecord, StartPosition
from pyramid_widget.engine.rules import EGYPT_SCORING
from pyramid_widget.errors import GameFileError, IllegalMoveError
from tests.support.engine import bottom, game


def saved(
    rules: str = "medium", deal: int = 7, moves: tuple[str, ...] = ("draw",)
) -> dict[str, Any]:
    now = [0.0]
    g = Game(rules, deal=deal, clock=lambda: now[0])
    for move in moves:
        now[0] += 1.5
        g.play(move)
    now[0] += 1.0
    data: dict[str, Any] = json.loads(g.to_json())
    return data


def refused(data: Any, match: str) -> GameFileError:
    with pytest.raises(GameFileError, match=match) as caught:
        Game.from_json(data)
    assert "\n" not in str(caught.value)
    return caught.value


# -- the record ----------------------------------------------------------------------------


def test_record_is_public_and_replays_to_the_same_game() -> None:
    g = Game("medium", deal=7, clock=lambda: 3.0)
    g.play("draw")
    g.play("3C+TD")
    g.undo()
    record = g.record()
    assert isinstance(record, GameRecord)
    assert record.deal_number == 7 and [str(m) for m, _ in record.moves] == ["draw"]
    assert [str(m) for m, _ in record.redo] == ["3C+TD"]
    twin = Game.replay(record, clock=lambda: 3.0)
    assert str(twin) == str(g) and twin.history == g.history and twin.can_redo
    assert twin.record() == record


def test_a_position_game_records_its_start() -> None:
    g = game("apophis", bottom("5H", "KD"), stock=["8C", "2S"], wastes=[["4C"], [], ["9H"]])
    g.play("4C+9H")
    record = g.record()
    assert record.deal is None and isinstance(record.start, StartPosition)
    assert Game.replay(record).history == g.history


def test_to_json_is_made_from_the_record_only() -> None:
    g = Game("hard", deal=3, clock=lambda: 0.0)
    g.play("draw")
    data = json.loads(g.to_json())
    assert data["deal"] == format_deal(g.record().deal or ())
    assert data["moves"] == [["draw", 0.0]]


def test_replay_refuses_what_is_not_a_record() -> None:
    with pytest.raises(GameFileError, match="GameRecord"):
        Game.replay({"rules": "medium"})  # type: ignore[arg-type]


# -- deal numbers --------------------------------------------------------------------------


def test_a_deal_number_that_contradicts_the_deal_is_refused() -> None:
    data = saved()
    data["deal_number"] = 8
    refused(data, "deal_number 8 does not match its deal")


@pytest.mark.parametrize("number", ["7", 7.0, -1, MAX_DEAL_NUMBER + 1, 10**400, True, [7]])
def test_a_deal_number_must_be_an_integer_in_range(number: object) -> None:
    data = saved()
    data["deal_number"] = number
    refused(data, "deal_number must be an integer")


def test_a_deal_number_alone_gives_the_deal() -> None:
    data = saved()
    del data["deal"]
    g = Game.from_json(data)
    assert g.deal_number == 7 and g.history == [m for m in Game.from_json(saved()).history]


def test_a_markup_deal_number_never_reaches_the_game() -> None:
    data = saved()
    data["deal_number"] = "<img src=x onerror=alert(1)>"
    refused(data, "deal_number")


# -- times ---------------------------------------------------------------------------------


@pytest.mark.parametrize("elapsed", [-1.0, float("nan"), float("inf"), "10", 10**400, 0])
def test_elapsed_must_be_a_finite_non_negative_number(elapsed: object) -> None:
    data = saved()
    data["elapsed"] = elapsed
    if elapsed == 0:  # shorter than its moves
        refused(data, "shorter than its moves")
    else:
        refused(data, "elapsed time must be seconds")


def test_nan_in_the_json_text_is_refused() -> None:
    text = json.dumps(saved()).replace('"elapsed":', '"elapsed": NaN, "x":', 1)
    with pytest.raises(GameFileError):
        Game.from_json(text)
    data = saved()
    data["elapsed"] = float("nan")
    refused(json.dumps(data), "elapsed")


def test_move_times_are_checked() -> None:
    data = saved(moves=("draw", "draw"))
    data["moves"][1][1] = -5
    refused(data, "must be seconds")
    data = saved(moves=("draw", "draw"))
    data["moves"][0][1] = 3.5
    refused(data, "goes back in time")


# -- score -----------------------------------------------------------------------------------


def test_an_edited_score_is_refused_where_the_moves_decide_it() -> None:
    data = saved(moves=("draw", "3C+TD"))
    assert data["score"] == 10
    data["score"] = 1_000_000
    refused(data, "score 1000000 contradicts its moves, which earn 10")
    data["score"] = "10"
    refused(data, "score must be an integer")


def test_an_egypt_score_below_what_the_moves_earn_is_refused() -> None:
    g = game("egypt", bottom("5H", "8C", "KD"), stock=["2D"])
    g.play("5H+8C")
    data = json.loads(g.to_json())
    assert data["score"] == 500
    data["score"] = 0
    refused(data, "less than its moves earn")
    data["score"] = 500
    data["scored"] = []
    refused(data, "scored cards lack 5H, 8C")


def test_an_egypt_score_kept_over_an_undo_survives_a_round_trip() -> None:
    g = game("egypt", bottom("5H", "8C", "KD"), stock=["2D"])
    g.play("5H+8C")
    g.undo()
    twin = Game.from_json(g.to_json())
    assert twin.score == g.score == 500


# -- malformed files never raise another exception ------------------------------------------


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.update(moves="draw"),
        lambda d: d.update(moves=[["draw"]]),
        lambda d: d.update(moves=[[1, 2]]),
        lambda d: d.update(moves=[["draw", None]]),
        lambda d: d.update(moves=[["draw " * 20, 1]]),
        lambda d: d.update(redo={"a": 1}),
        lambda d: d.update(rules=[1, 2]),
        lambda d: d.update(rules={**d["rules"], "pair_zones": [[1]]}),
        lambda d: d.update(rules={**d["rules"], "kings_alone": "false"}),
        lambda d: d.update(deal=52),
        lambda d: d.update(deal="AS " * 52),
        lambda d: d.update(scored=[1]),
        lambda d: d.update(scored="5H"),
        lambda d: d.update(position={"pyramid": "x"}),
        lambda d: d.update(unknown=1),
        lambda d: d.update(version=True),
        lambda d: d.update(version=[1]),
        lambda d: d.pop("rules"),
        lambda d: (d.pop("deal"), d.pop("deal_number")),
    ],
)
def test_malformed_saves_raise_the_package_error(edit: Any) -> None:
    data = saved()
    edit(data)
    original = copy.deepcopy(data)
    with pytest.raises(GameFileError) as caught:
        Game.from_json(data)
    assert "\n" not in str(caught.value)
    assert data == original


def test_a_position_save_with_bad_fields_is_refused() -> None:
    g = game("apophis", bottom("5H", "KD"), stock=["8C", "2S"], wastes=[["4C"], [], ["9H"]])
    data = json.loads(g.to_json())
    for key, value in [
        ("pyramid", ["5H"] * 28),
        ("pyramid", [None] * 27),
        ("wastes", [[]] * 9),
        ("wastes", "4C"),
        ("pass_number", "1"),
        ("pass_number", 0),
        ("cells", [None]),
    ]:
        bad = copy.deepcopy(data)
        bad["position"][key] = value
        with pytest.raises(GameFileError):
            Game.from_json(bad)


def test_deeply_nested_json_is_refused_cleanly() -> None:
    for text in ("[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(GameFileError, match=r"nested too deeply|not a saved game"):
            Game.from_json(text)
    data = saved()
    nested: Any = 1
    for _ in range(100_000):
        nested = [nested]
    data["rules"] = {**data["rules"], "pair_zones": nested}
    with pytest.raises(GameFileError):
        Game.from_json(data)


def test_truncated_json_is_refused() -> None:
    text = json.dumps(saved())
    for cut in (1, len(text) // 2, len(text) - 1):
        with pytest.raises(GameFileError, match="not valid JSON"):
            Game.from_json(text[:cut])


def test_read_checks_without_replaying() -> None:
    data = saved()
    record = read(data)
    assert record.deal_number == 7 and len(record.moves) == 1


# -- two-deck positions (bad-input audit, item 2) --------------------------------------------


def test_a_two_deck_position_saves_records_and_replays() -> None:
    g = game("anubis", [None] * 44 + ["5H'"], stock=["8C'", "2C"])
    g.play("draw")
    twin = Game.from_json(g.to_json())
    assert twin.pyramid == g.pyramid and twin.wastes == g.wastes and twin.history == g.history
    assert Game.replay(g.record(), clock=lambda: 0.0).record() == g.record()
    assert json.loads(g.to_json())["position"]["stock"] == ["8C'", "2C"]


def test_two_deck_scored_cards_round_trip() -> None:
    rules = get_rules("anubis").replace(name="anubis_egypt", scoring=EGYPT_SCORING)
    g = Game.from_position(
        rules, pyramid=[None] * 44 + ["5H'"], stock=["8C'", "2C"], clock=lambda: 0.0
    )
    g.play("draw")
    g.play("5H'+8C'")
    g.undo()  # egypt scoring keeps the points and the scored cards over an undo
    assert g.score == 500 and g.record().scored == {parse_card("5H'"), parse_card("8C'")}
    twin = Game.from_json(g.to_json())
    assert twin.score == 500 and twin.record().scored == g.record().scored and twin.can_redo
    assert json.loads(g.to_json())["scored"] == ["5H'", "8C'"]


def test_a_one_deck_save_naming_a_second_deck_card_is_refused() -> None:
    data = json.loads(game("medium", bottom("5H"), stock=["8C"]).to_json())
    data["position"]["stock"] = ["8C'"]
    refused(data, "the saved game's stock: 8C' is a second-deck card, but the game has one deck")
    data = saved()
    data["scored"] = ["8C'"]
    refused(data, "the saved game's scored cards: 8C' is a second-deck card")


def test_a_start_position_alone_takes_either_deck_and_its_record_checks_the_rules() -> None:
    start = StartPosition(pyramid=(None,) * 27 + (parse_card("5H'"),))
    with pytest.raises(GameFileError, match="pyramid: 5H' is a second-deck card"):
        GameRecord(rules=get_rules("medium"), start=start)
    with pytest.raises(GameFileError, match="104 is not a card"):
        StartPosition(pyramid=(104,))


# -- the undos left (bad-input audit, item 7) --------------------------------------------------


def endless() -> Game:
    """A medium game with unlimited redeals, 130 draws and redeals in, 100 of them undone."""
    g = Game(get_rules("medium").replace(name="endless", passes=None), deal=7, clock=lambda: 0.0)
    for _ in range(130):
        g.play("draw" if g.stock else "redeal")
    for _ in range(100):
        g.undo()
    return g


def test_a_spent_egypt_undo_stays_spent_after_a_save() -> None:
    g = game("egypt", bottom("5H", "9D"), stock=["2C", "3C", "4C", "6C", "7C", "8C"])
    g.play("draw")
    g.play("draw")
    g.undo()
    assert not g.can_undo
    twin = Game.from_json(g.to_json())
    assert not twin.can_undo and not Game.from_json(twin.to_json()).can_undo
    with pytest.raises(IllegalMoveError, match="the undo limit is reached"):
        twin.undo()
    twin.redo()
    g.redo()
    assert twin.can_undo and g.can_undo and untimed(twin) == untimed(g)


def untimed(g: Game) -> dict[str, object]:
    """A game's save without its times (a game read back runs on the real clock)."""
    data = json.loads(g.to_json())
    data["moves"] = [move for move, _ in data["moves"]]
    del data["elapsed"]
    return data  # type: ignore[no-any-return]


def test_undos_spent_beyond_the_depth_stay_spent_after_a_save() -> None:
    g = endless()
    assert g.moves == 30 and not g.can_undo
    twin = Game.replay(read(g.to_json()), clock=lambda: 0.0)
    assert not twin.can_undo and twin.record() == g.record()
    for _ in range(5):
        g.redo()
        twin.redo()
    for _ in range(5):
        assert g.undo() == twin.undo()
    assert not g.can_undo and not twin.can_undo


def test_a_game_with_every_undo_left_saves_as_before() -> None:
    g = Game("medium", deal=7, clock=lambda: 0.0)
    g.play("draw")
    g.play("draw")
    g.undo()
    assert "undos_left" not in json.loads(g.to_json()) and g.record().undos_left is None
    assert Game.from_json(g.to_json()).can_undo  # a file without the field: as it always was


@pytest.mark.parametrize("left", [-1, "0", True, 1.0, 10**6])
def test_undos_left_must_be_a_count_the_moves_allow(left: object) -> None:
    data = json.loads(endless().to_json())
    data["undos_left"] = left
    refused(data, "undos_left")
    data["undos_left"] = 31
    refused(data, r"undos_left \(31\) is more than its moves allow \(30\)")


def test_undo_depth_0_means_no_undo_at_all() -> None:
    rules = get_rules("medium").replace(name="no-undo", undo_depth=0)
    g = Game(rules, deal=7, clock=lambda: 0.0)
    g.play("draw")
    assert not g.can_undo
    with pytest.raises(IllegalMoveError, match="no-undo allows no undo"):
        g.undo()
    twin = Game.from_json(g.to_json())
    assert not twin.can_undo and twin.history == g.history
