"""docs/RULES.md section 2 and 3: the statements of each rule set, one test each."""

from __future__ import annotations

import pytest

from pyramid_widget import (
    Game,
    IllegalMoveError,
    InvalidRulesError,
    RuleSet,
    Status,
    card_str,
    get_rules,
    parse_card,
)
from tests.support.engine import bottom, game, names

CLASSIC = ["easy", "medium", "hard"]
NO_STOCK_TOP = ["easy", "medium", "hard", "apophis", "egypt"]


# -- easy / medium / hard --------------------------------------------------------------


@pytest.mark.parametrize("rules", CLASSIC)
def test_classic_legal_removals(rules: str) -> None:
    g = game(rules, bottom("5H", "8C", "KD", "QS"), wastes=[["AH"]], stock=["KC", "2S"])
    assert names(g.legal_moves) >= {"5H+8C", "KD", "AH+QS", "draw"}
    g.play("draw")
    assert "KC" in names(g.legal_moves), "a King on the waste top is removed alone"


@pytest.mark.parametrize("rules", NO_STOCK_TOP)
def test_stock_top_never_available(rules: str) -> None:
    g = game(rules, bottom("5H", "KD"), stock=["8C", "KS"])
    assert parse_card("8C") not in g.available()
    with pytest.raises(IllegalMoveError, match="8C is the top stock card, which is not available"):
        g.play("5H+8C")
    assert "KS" not in names(g.legal_moves)


@pytest.mark.parametrize("rules", [*CLASSIC, "relaxed"])
def test_two_waste_cards_never_pair_with_one_pile(rules: str) -> None:
    g = game(rules, bottom("9D"), stock=["5H", "8C", "2S"])
    g.play("draw")
    g.play("draw")
    with pytest.raises(IllegalMoveError, match="5H is not on top"):
        g.play("5H+8C")


def test_two_waste_piles_do_not_pair_where_zones_forbid() -> None:
    rules = get_rules("medium").replace(name="two-pile", waste_piles=2, draw_count=2)
    g = game(rules, bottom("9D"), stock=["5H", "8C", "2S"])  # type: ignore[arg-type]
    g.play("draw")
    with pytest.raises(IllegalMoveError, match="two waste cards cannot pair under two-pile"):
        g.play("5H+8C")


@pytest.mark.parametrize(("rules", "passes"), [("medium", 3), ("hard", 1)])
def test_pass_limits(rules: str, passes: int) -> None:
    g = game(rules, bottom("9D", "2S"), stock=["5H", "8C"])
    for _ in range(passes - 1):
        g.play("draw")
        g.play("draw")
        g.play("redeal")
    g.play("draw")
    g.play("draw")
    assert "redeal" not in g.legal_moves
    assert g.status is Status.LOST, "stock empty, no removal, no redeal left"
    with pytest.raises(IllegalMoveError, match="the game is over"):
        g.play("redeal")


def test_easy_redeals_beyond_three_passes() -> None:
    g = game("easy", bottom("9D", "8D", "7D", "6D", "3S"), stock=["2C", "4H", "5H", "6H", "7H"])
    for pair in ("6D+7H", "6H+7D", "5H+8D", "4H+9D"):  # one removal in each pass
        while g.stock:
            g.play("draw")
        g.play(pair)
        g.play("redeal")
    assert g.pass_number == 5 and g.passes_left is None and g.status is Status.PLAYING


def test_unlimited_passes_without_stall_rule() -> None:
    rules = get_rules("easy").replace(name="endless", stall_rule=False)
    g = game(rules, bottom("9D", "3S"), stock=["5H", "2C"])  # type: ignore[arg-type]
    for _ in range(30):
        g.play("draw")
        g.play("draw")
        g.play("redeal")
    assert g.pass_number == 31 and g.status is Status.PLAYING


def test_easy_stall_rule_loses_a_pass_that_removed_nothing() -> None:
    g = game("easy", bottom("9D", "3S"), stock=["5H", "2C"])
    g.play("draw")
    assert g.status is Status.PLAYING
    g.play("draw")
    assert g.status is Status.LOST
    assert "stall rule" in g.status_reason


def test_easy_stall_rule_spares_a_pass_that_removed_something() -> None:
    g = game("easy", bottom("9D", "3S", "KC"), stock=["5H", "2C"])
    g.play("KC")
    g.play("draw")
    g.play("draw")
    assert g.status is Status.PLAYING, "this pass removed the King"
    g.play("redeal")
    g.play("draw")
    g.play("draw")
    assert g.status is Status.LOST and "stall" in g.status_reason


def test_medium_does_not_apply_the_stall_rule() -> None:
    g = game("medium", bottom("9D", "3S"), stock=["5H", "2C"])
    g.play("draw")
    g.play("draw")
    assert g.status is Status.PLAYING and "redeal" in g.legal_moves


@pytest.mark.parametrize("rules", ["easy", "medium", "hard", "relaxed", "cheops", "egypt"])
def test_pyramid_empty_wins_with_stock_left(rules: str) -> None:
    g = game(rules, bottom("5H", "6D") if rules == "cheops" else bottom("5H", "8C"), stock=["2S"])
    g.play("5H+6D" if rules == "cheops" else "5H+8C")
    assert g.status is Status.WON and g.stock


# -- relaxed -------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["relaxed", "cheops"])
def test_stock_top_pairs_with_pyramid(rules: str) -> None:
    g = game(rules, bottom("5H"), stock=["6C" if rules == "cheops" else "8C", "2S"])
    move = "5H+6C" if rules == "cheops" else "5H+8C"
    assert move in g.legal_moves
    g.play(move)
    assert [card_str(c) for c in g.stock] == ["2S"]


@pytest.mark.parametrize("rules", ["relaxed", "cheops"])
def test_stock_top_pairs_with_waste_top(rules: str) -> None:
    g = game(rules, bottom("9D"), stock=["5H", "4C" if rules == "cheops" else "8C", "2S"])
    g.play("draw")
    move = "4C+5H" if rules == "cheops" else "5H+8C"
    assert move in g.legal_moves
    g.play(move)
    assert g.wastes == ((),) and [card_str(c) for c in g.stock] == ["2S"]


def test_relaxed_stock_top_king_removed_alone() -> None:
    g = game("relaxed", bottom("9D"), stock=["KS", "2S"])
    assert "KS" in g.legal_moves
    assert get_rules("relaxed").passes == 3


def test_stock_below_top_never_available() -> None:
    g = game("relaxed", bottom("5H"), stock=["2S", "8C"])
    with pytest.raises(IllegalMoveError, match="8C is in the stock, not on top"):
        g.play("5H+8C")


# -- apophis -------------------------------------------------------------------------------


def test_apophis_draw_deals_one_onto_each_of_three_wastes() -> None:
    g = game("apophis", bottom("KD"), stock=["2C", "3C", "4C", "5C"])
    g.play("draw")
    assert [[card_str(c) for c in p] for p in g.wastes] == [["2C"], ["3C"], ["4C"]]
    g.play("draw")
    assert [[card_str(c) for c in p] for p in g.wastes] == [["2C", "5C"], ["3C"], ["4C"]]


def test_apophis_waste_tops_pair_with_each_other() -> None:
    g = game("apophis", bottom("KD"), stock=["5H", "8C", "2S", "3S"])
    g.play("draw")
    assert "5H+8C" in g.legal_moves
    g.play("5H+8C")
    assert [len(p) for p in g.wastes] == [0, 0, 1]


def test_apophis_stock_face_up_not_available() -> None:
    rules = get_rules("apophis")
    assert rules.stock_face_up and not rules.stock_top_available


def test_apophis_two_passes_then_lost() -> None:
    g = game("apophis", bottom("9D"), stock=["2C", "3C"])
    g.play("draw")
    g.play("redeal")
    assert [card_str(c) for c in g.stock] == ["2C", "3C"]
    g.play("draw")
    assert "redeal" not in g.legal_moves and g.status is Status.LOST


def test_apophis_needs_all_52_cards() -> None:
    g = game("apophis", bottom("5H", "8C"), stock=["KS"])
    g.play("5H+8C")
    assert g.status is Status.PLAYING, "the pyramid is empty but the stock is not"
    g.play("draw")
    g.play("KS")
    assert g.status is Status.WON and "all 52" in g.status_reason


# -- cheops ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "ok"),
    [("7H", "7C", True), ("7H", "6C", True), ("7H", "8C", True), ("7H", "9C", False),
     ("AH", "2C", True), ("AH", "KC", False), ("KH", "QC", True), ("KH", "KC", True)],
)  # fmt: skip
def test_cheops_same_or_adjacent_rank_no_wrap(a: str, b: str, ok: bool) -> None:
    g = game("cheops", bottom(a, b), stock=["4D"])
    assert (f"{a}+{b}" in g.legal_moves) is ok
    if not ok:
        with pytest.raises(IllegalMoveError, match="not the same or adjacent"):
            g.play(f"{a}+{b}")


def test_cheops_kings_not_alone_and_one_pass() -> None:
    g = game("cheops", bottom("KD", "5H"), stock=["2C"])
    with pytest.raises(IllegalMoveError, match="Kings are not removed alone under cheops"):
        g.play("KD")
    g.play("draw")
    assert "redeal" not in g.legal_moves


def test_cheops_sum13_pairs_do_not_count() -> None:
    g = game("cheops", bottom("5H", "8C"), stock=["2C"])
    assert "5H+8C" not in g.legal_moves


# -- egypt -------------------------------------------------------------------------------------


def test_egypt_draw_three_onto_three_wastes_one_pass() -> None:
    g = game("egypt", bottom("KD"), stock=["2C", "3C", "4C", "5C"])
    g.play("draw")
    assert [len(p) for p in g.wastes] == [1, 1, 1]
    g.play("draw")
    assert "redeal" not in g.legal_moves


def test_egypt_cell_takes_pyramid_or_waste_card_and_pairs() -> None:
    g = game("egypt", bottom("5H", "2S"), stock=["4C", "3C", "8C", "JD"])
    g.play("cell 5H")
    assert g.cells == (parse_card("5H"),)
    assert "cell 2S" not in g.legal_moves, "the cell holds one card"
    with pytest.raises(IllegalMoveError, match="the cell is full"):
        g.play("cell 2S")
    g.play("draw")
    assert "5H+8C" in g.legal_moves, "the cell card pairs with a waste top"
    g.play("5H+8C")
    assert g.cells == (None,)
    g.play("cell 3C")
    assert g.cells == (parse_card("3C"),), "a waste top may go to the cell"


def test_egypt_cell_card_pairs_with_pyramid() -> None:
    g = game("egypt", bottom("5H", "8C"), stock=["2C"])
    g.play("cell 5H")
    g.play("5H+8C")
    assert g.status is Status.WON


def test_cell_only_where_rules_have_one() -> None:
    g = game("medium", bottom("5H"), stock=["2C"])
    with pytest.raises(IllegalMoveError, match="medium has no free cell"):
        g.play("cell 5H")


def test_egypt_undo_one_move_only() -> None:
    g = game("egypt", bottom("5H"), stock=["2C", "3C", "4C", "5C", "6C", "7C"])
    g.play("draw")
    g.play("draw")
    g.undo()
    with pytest.raises(IllegalMoveError, match="undo limit"):
        g.undo()


def test_undo_depth_100_and_draws_count() -> None:
    rules = get_rules("medium").replace(name="endless", passes=None)
    stock = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "QC"]
    g = game(rules, bottom("2S"), stock=stock)  # type: ignore[arg-type]
    for _ in range(101):
        g.play("draw" if g.stock else "redeal")
    assert g.moves == 101
    undone = 0
    while g.can_undo:
        g.undo()
        undone += 1
    assert undone == 100


def test_egypt_scoring_and_undo_keeps_score() -> None:
    now = [0.0]
    g = Game.from_position(
        "egypt", pyramid=bottom("5H", "8C", "KD"), stock=["2C"], clock=lambda: now[0]
    )
    g.play("KD")
    assert g.score == 500
    g.undo()
    assert g.score == 500, "undo does not change the score"
    g.play("KD")
    assert g.score == 500, "a card removed again after an undo earns nothing twice"
    now[0] = 100.0
    g.play("5H+8C")
    # pair 500 + round 10,000 + time bonus 20,000 - 20 x 100 s + round 1 x 1,000; stock left.
    assert g.score == 1000 + 10_000 + 18_000 + 1_000
    assert g.status is Status.WON and "round" in g.status_reason


def test_egypt_all_cleared_bonus() -> None:
    g = Game.from_position("egypt", pyramid=bottom("5H", "8C"), clock=lambda: 0.0)
    g.play("5H+8C")
    assert g.score == 500 + 10_000 + 15_000 + 20_000 + 1_000


def test_egypt_rounds_carry_score_and_deal_fresh() -> None:
    g = Game.from_position("egypt", pyramid=bottom("5H", "8C"), stock=["2C"], clock=lambda: 0.0)
    g.play("5H+8C")
    first = g.score
    assert "next-round" in g.legal_moves
    g.next_round()
    assert g.round == 2 and g.score == first and g.status is Status.PLAYING
    assert len([c for c in g.pyramid if c is not None]) == 28 and len(g.stock) == 24
    assert not g.can_undo, "undo never crosses a round"


def test_next_round_only_after_a_won_round() -> None:
    g = Game("egypt", 1)
    with pytest.raises(IllegalMoveError, match="round is not finished"):
        g.next_round()
    with pytest.raises(IllegalMoveError, match="medium has no rounds"):
        Game("medium", 1).next_round()


def test_classic_scoring() -> None:
    now = [0.0]
    g = Game.from_position(
        "medium", pyramid=bottom("5H", "8C", "KD"), stock=["2C"], clock=lambda: now[0]
    )
    g.play("KD")
    assert g.score == 5
    g.undo()
    assert g.score == 0, "classic undo takes the points back"
    g.play("KD")
    now[0] = 60.0
    g.play("5H+8C")
    assert g.score == 15 + 500 + 540


# -- rule sets as data -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"waste_piles": 0}, "waste_piles must be at least 1"),
        ({"passes": 0}, "passes must be at least 1"),
        ({"draw_count": 0}, "draw_count must be at least 1"),
        ({"pairing": "sum14"}, "pairing must be"),
        ({"pair_zones": {"pyramid+moon"}}, "not a zone pair"),
        ({"pair_zones": {"pyramid+stock"}}, "stock_top_available is False"),
        ({"pair_zones": {"cell+pyramid"}}, "no cells"),
        ({"win": "most"}, "win must be"),
        ({"colour": "red"}, "no field"),
    ],
)
def test_bad_rule_combinations_rejected(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        get_rules("medium").replace(**changes)


def test_user_built_rules_play() -> None:
    rules = RuleSet(name="wide", waste_piles=2, draw_count=2, passes=5,
                    pair_zones={"pyramid+pyramid", "pyramid+waste", "waste+waste"})  # fmt: skip
    g = Game(rules, 5)
    g.play("draw")
    assert [len(p) for p in g.wastes] == [1, 1]
    assert RuleSet.from_dict(rules.to_dict()) == rules
    assert get_rules(rules.to_dict()) == rules


def test_egypt_parking_the_last_pyramid_card_in_the_cell_does_not_clear_it() -> None:
    g = game("egypt", bottom("8D"), stock=["5C", "2C", "3C"])
    g.play("cell 8D")
    assert g.pyramid == (None,) * 28 and g.status is Status.PLAYING
    g.play("draw")
    g.play("5C+8D")
    assert g.status is Status.WON
