"""docs/VARIANTS.md: one test per rule statement of each game of the Pyramid family.

Each game's row of the table, each new concept's meaning and the "Notes on choices" are
stated here as positions built by hand (``Game.from_position``) or from numbered deals. Where
a move is illegal the test plays the mistake first: it is refused with a sentence naming the
reason, the game is unchanged, and then the right move applies.
"""

from __future__ import annotations

from typing import Any

import pytest

from pyramid_widget import Game, IllegalMoveError, Move, Status, Zone, card_str, parse_card
from pyramid_widget.engine.layout import CLASSIC, Layout
from pyramid_widget.engine.rules import PRESETS, get_rules
from tests.support.engine import names, slots, snapshot

FAMILY = (
    "king_tut",
    "tuts_tomb",
    "traditional",
    "dark_pyramid",
    "thirteen",
    "giza",
    "pyramid_dozen",
    "triangle",
    "eleven_triangle",
    "pharaohs",
    "anubis",
    "double_pyramid",
    "two_pyramids",
    "up_and_down",
)
OLD = ("easy", "medium", "hard", "relaxed", "apophis", "cheops", "egypt")
ROWS_1_TO_6 = frozenset(range(21))


def tab(rules: str, **cards_at: str) -> list[str | None]:
    """The tableau slots of ``rules``'s layout with cards placed by name (``p27="5H"``)."""
    return slots(get_rules(rules).layout.size, **cards_at)


def play(rules: Any, tableau: list[str | None], **kwargs: Any) -> Game:
    """A hand-made position under ``rules`` with a frozen clock."""
    return Game.from_position(rules, pyramid=tableau, clock=lambda: 0.0, **kwargs)


def refuse(game: Game, move: str, *words: str) -> str:
    """Play the mistake ``move``: it is refused with a sentence holding ``words``, and the
    game is exactly as it was. Return the sentence."""
    before = snapshot(game), names(game.legal_moves)
    assert move not in game.legal_moves, move
    with pytest.raises(IllegalMoveError) as caught:
        game.play(move)
    text = str(caught.value)
    for word in words:
        assert word in text, (move, word, text)
    assert (snapshot(game), names(game.legal_moves)) == before, f"{move} refused changes nothing"
    return text


def status(game: Game) -> Status:
    """The game's status (read afresh: a call, so that mypy does not narrow it)."""
    return game.status


def c(text: str) -> int:
    return parse_card(text)


# -- the table: one row per game -----------------------------------------------------------

ROWS: dict[str, dict[str, Any]] = {
    "king_tut": dict(decks=1, layout=CLASSIC, pairing="sum13", kings_alone=True, waste_piles=1,
                     draw_count=3, passes=None, stall_rule=True, stock_top_available=False,
                     win="pyramid", reserve=(0, 0), stock=24),
    "tuts_tomb": dict(decks=1, layout=CLASSIC, pairing="sum13", kings_alone=True, waste_piles=1,
                      draw_count=3, passes=None, stall_rule=True, stock_top_available=False,
                      win="pyramid", reserve=(0, 0), stock=24, overlap_discards=True),
    "traditional": dict(decks=1, layout=CLASSIC, pairing="sum13", kings_alone=True,
                        waste_piles=1, draw_count=1, passes=1, stock_top_available=True,
                        win="all", reserve=(0, 0), stock=24),
    "dark_pyramid": dict(decks=1, layout=CLASSIC.with_face_down(ROWS_1_TO_6), pairing="sum13",
                         kings_alone=True, waste_piles=1, draw_count=1, passes=3,
                         stock_top_available=False, win="pyramid", reserve=(0, 0), stock=24),
    "thirteen": dict(decks=1, layout=CLASSIC.with_face_down(ROWS_1_TO_6), pairing="sum13",
                     kings_alone=True, waste_piles=1, draw_count=1, passes=1,
                     stock_top_available=False, stock_face_up=False, waste_pair=True,
                     win="all", reserve=(0, 0), stock=24),
    "giza": dict(decks=1, layout=CLASSIC, pairing="sum13", kings_alone=True,
                 win="all", reserve=(8, 3), stock=0),
    "pyramid_dozen": dict(decks=1, layout=CLASSIC, pairing="sum12", kings_alone=False,
                          win="all", reserve=(6, 4), stock=0),
    "triangle": dict(decks=1, layout=Layout.inverted(7), pairing="sum13", kings_alone=True,
                     waste_piles=1, draw_count=1, passes=3, stock_top_available=True,
                     win="all", reserve=(0, 0), stock=24),
    "eleven_triangle": dict(decks=1, layout=Layout.inverted(7), pairing="sum11",
                            kings_alone=False, waste_piles=3, draw_count=3, passes=1,
                            stock_top_available=False, win="all", reserve=(0, 0), stock=24),
    "pharaohs": dict(decks=1, pairing="sum13", kings_alone=True, win="all", reserve=(0, 0),
                     stock=0, layout=Layout.side_by_side(Layout.pyramid(2), Layout.pyramid(7),
                                                         Layout.pyramid(6))),
    "anubis": dict(decks=2, layout=Layout.pyramid(9), pairing="sum13", kings_alone=True,
                   waste_piles=3, draw_count=3, passes=2, stock_top_available=False,
                   win="all", reserve=(0, 0), stock=59),
    "double_pyramid": dict(decks=2, layout=Layout.pyramid(9), pairing="sum13", kings_alone=True,
                           waste_piles=1, draw_count=1, passes=3, stock_top_available=True,
                           win="all", reserve=(0, 0), stock=59),
    "two_pyramids": dict(decks=2, pairing="sum13", kings_alone=True, waste_piles=1,
                         draw_count=1, passes=3, stock_top_available=True, win="all",
                         reserve=(0, 0), stock=48,
                         layout=Layout.side_by_side(Layout.pyramid(7), Layout.pyramid(7))),
    "up_and_down": dict(decks=2, pairing="sum13", kings_alone=True, waste_piles=1,
                        draw_count=1, passes=3, stock_top_available=True, win="all",
                        reserve=(0, 0), stock=48,
                        layout=Layout.side_by_side(Layout.pyramid(7), Layout.inverted(7))),
}  # fmt: skip


def test_every_game_of_the_table_is_a_preset_after_the_old_seven() -> None:
    assert list(PRESETS)[:7] == list(OLD)
    assert set(FAMILY) <= set(PRESETS)


@pytest.mark.parametrize("name", FAMILY)
def test_preset_is_its_row_of_the_table(name: str) -> None:
    rules = get_rules(name)
    row = dict(ROWS[name])
    layout = row.pop("layout")
    assert rules.layout.covered_by == layout.covered_by, "the tableau's covering map"
    assert rules.layout.face_down == layout.face_down, "the face-down positions"
    assert rules.layout.groups == layout.groups, "which pyramid each position belongs to"
    assert (rules.reserve_piles, rules.reserve_depth) == row.pop("reserve")
    assert rules.stock_size == row.pop("stock")
    assert rules.pairing_table.name == row.pop("pairing")
    for field, value in row.items():
        assert getattr(rules, field) == value, field
    assert rules.description and rules.source, "a one-line description and its source"


@pytest.mark.parametrize("name", FAMILY)
def test_a_numbered_deal_fills_tableau_reserve_and_stock_in_that_order(name: str) -> None:
    rules = get_rules(name)
    game = Game(name, 5, clock=lambda: 0.0)
    deal = game.deal
    assert deal is not None and sorted(deal) == list(range(rules.deck_size))
    size, depth = rules.tableau_size, rules.reserve_depth
    assert game.pyramid == deal[:size]
    assert game.reserves == tuple(
        tuple(deal[size + i * depth : size + (i + 1) * depth]) for i in range(rules.reserve_piles)
    ), "each reserve pile bottom card first"
    assert game.stock == deal[size + rules.reserve_size :], "the stock, first drawn first"
    assert game.wastes == ((),) * rules.waste_piles


@pytest.mark.parametrize("name", FAMILY)
def test_at_the_deal_the_bottom_of_the_tableau_and_reserve_tops_are_available(name: str) -> None:
    rules = get_rules(name)
    game = Game(name, 11, clock=lambda: 0.0)
    want = {game.pyramid[p] for p in rules.layout.bottom}
    want |= {pile[-1] for pile in game.reserves if pile}
    if rules.stock_top_available:
        want.add(game.stock[0])
    assert set(game.available()) == want


# -- layouts ------------------------------------------------------------------------------


def test_upright_pyramid_of_n_rows() -> None:
    nine = Layout.pyramid(9)
    assert Layout.pyramid(7).covered_by == CLASSIC.covered_by and nine.size == 45
    start = [r * (r + 1) // 2 for r in range(9)]
    for r in range(8):
        for col in range(r + 1):
            assert nine.covered_by[start[r] + col] == (start[r + 1] + col, start[r + 1] + col + 1)
    assert nine.bottom == tuple(range(36, 45))


def test_inverted_triangle_end_cards_are_covered_by_one_card() -> None:
    tri = Layout.inverted(7)
    start = [sum(7 - i for i in range(r)) for r in range(7)]
    assert tri.size == 28 and start[-1] == 27
    for r in range(6):
        length = 7 - r
        assert len(tri.covered_by[start[r]]) == 1, f"left end of row {r + 1}"
        assert len(tri.covered_by[start[r] + length - 1]) == 1, f"right end of row {r + 1}"
        for col in range(1, length - 1):
            assert len(tri.covered_by[start[r] + col]) == 2, f"row {r + 1} column {col + 1}"
    assert tri.bottom == (27,), "the single bottom card is on top of everything"
    assert tri.blockers_mask[0] >> 27 & 1 and bin(tri.blockers_mask[3]).count("1") == 15


def test_side_by_side_pyramids_cover_only_within_their_own() -> None:
    for name in ("pharaohs", "two_pyramids", "up_and_down"):
        layout = get_rules(name).layout
        for p, qs in enumerate(layout.covered_by):
            assert all(layout.groups[q] == layout.groups[p] for q in qs), (name, p)
        assert len(set(layout.groups)) == (3 if name == "pharaohs" else 2)


def test_a_hand_made_position_has_a_slot_for_every_position_of_the_layout() -> None:
    with pytest.raises(ValueError, match="45"):
        play("anubis", [None] * 28)


# -- king_tut --------------------------------------------------------------------------------


def test_king_tut_draws_three_onto_one_waste_and_only_the_top_is_available() -> None:
    g = play("king_tut", tab("king_tut", p21="9D", p22="TD"), stock=["2C", "3C", "4C", "5C"])
    g.play("draw")
    assert g.wastes == ((c("2C"), c("3C"), c("4C")),) and g.stock == (c("5C"),)
    assert c("4C") in g.available() and c("3C") not in g.available()
    refuse(g, "3C+TD", "3C is not on top of its waste pile")
    g.play("4C+9D")
    assert "3C+TD" in g.legal_moves, "the card beneath becomes the top"


def test_king_tut_redeals_without_limit() -> None:
    g = play("king_tut", tab("king_tut", p21="9D", p22="8D", p23="7D", p24="KS", p25="3S"),
             stock=["2C", "4H", "5H", "6H"])  # fmt: skip
    for pair in ("KS", "6H+7D", "5H+8D", "4H+9D"):
        while g.stock:
            g.play("draw")
        g.play(pair)
        g.play("redeal")
    assert g.pass_number == 5 and g.passes_left is None and status(g) is Status.PLAYING


@pytest.mark.parametrize("name", ["king_tut", "tuts_tomb"])
def test_stall_rule_loses_a_pass_that_removed_nothing(name: str) -> None:
    g = play(name, tab(name, p21="9D", p22="3S"), stock=["5H", "2C"])
    g.play("draw")
    assert g.stock == () and status(g) is Status.LOST and "stall" in g.status_reason
    refuse(g, "redeal", "the game is over", "stall rule")


@pytest.mark.parametrize("name", ["king_tut", "tuts_tomb"])
def test_stall_rule_spares_a_pass_that_removed_something(name: str) -> None:
    g = play(name, tab(name, p21="9D", p22="3S", p23="KC"), stock=["5H", "2C"])
    g.play("KC")
    g.play("draw")
    assert status(g) is Status.PLAYING and "redeal" in g.legal_moves
    g.play("redeal")
    g.play("draw")
    assert status(g) is Status.LOST and "stall" in g.status_reason


@pytest.mark.parametrize("name", ["king_tut", "tuts_tomb", "dark_pyramid"])
def test_pyramid_only_win_leaves_the_stock(name: str) -> None:
    g = play(name, tab(name, p27="5H", p26="8C"), stock=["2C", "3C"])
    g.play("5H+8C")
    assert status(g) is Status.WON and len(g.stock) == 2


# -- tuts_tomb: overlap discards -------------------------------------------------------------


def test_tuts_tomb_overlap_discard_when_the_only_cover_is_available() -> None:
    # 8C at (5,0) is covered by 5H (6,0) and 2S (6,1); JD (6,2) pairs with 2S.
    tableau = tab("tuts_tomb", p15="8C", p21="5H", p22="2S", p23="JD")
    g = play("tuts_tomb", tableau, stock=["AC"])
    refuse(g, "5H+8C", "8C is covered by 5H and 2S")
    g.play("2S+JD")
    assert "5H+8C" in g.legal_moves, "5H is now the only card covering 8C, and available"
    g.play("5H+8C")
    assert status(g) is Status.WON


def test_standard_rule_forbids_the_overlap_discard() -> None:
    g = play("king_tut", tab("king_tut", p15="8C", p21="5H"), stock=["8D"])
    refuse(g, "5H+8C", "8C is covered by 5H")
    g.play("draw")
    g.play("5H+8D")
    assert "8C" in {card_str(x) for x in g.available()}


def test_tuts_tomb_overlap_needs_the_covering_card_available() -> None:
    # 5H at (4,0) is covered only by 8C at (5,0) (the other cover, (5,1), is gone), but 8C
    # is itself covered by 2S at (6,0): not available, so the pair is refused.
    g = play("tuts_tomb", tab("tuts_tomb", p10="5H", p15="8C", p21="2S", p27="JD"), stock=["AC"])
    refuse(g, "5H+8C", "is covered by")
    g.play("2S+JD")
    g.play("5H+8C")
    assert status(g) is Status.WON


def test_tuts_tomb_overlap_is_between_direct_cover_only() -> None:
    # 5H at (4,0) is covered by 8C at (5,0) and 3D at (5,1); 8C is available but is not the
    # only card covering 5H.
    g = play("tuts_tomb", tab("tuts_tomb", p10="5H", p15="8C", p16="3D", p27="TS"), stock=["AC"])
    refuse(g, "5H+8C", "5H is covered by 8C and 3D")
    g.play("3D+TS")
    assert "5H+8C" in g.legal_moves


def test_tuts_tomb_waste_top_pairs_only_with_tableau_cards() -> None:
    rules = get_rules("tuts_tomb")
    assert rules.pair_zones == {"pyramid+pyramid", "pyramid+waste"}
    g = play("tuts_tomb", tab("tuts_tomb", p21="8C", p22="JD"), stock=["2C", "3C", "5H"])
    g.play("draw")
    assert "5H+8C" in g.legal_moves
    refuse(g, "2C+JD", "2C is not on top of its waste pile")
    g.play("5H+8C")
    assert "3C" in {card_str(x) for x in g.available()}


# -- traditional -------------------------------------------------------------------------------


def test_traditional_win_needs_all_52_cards() -> None:
    g = play("traditional", tab("traditional", p27="5H", p26="8C"), stock=["KS", "6D", "7D"])
    g.play("5H+8C")
    assert status(g) is Status.PLAYING, "the stock still holds three cards"
    g.play("KS")  # the stock top is available: a King there goes alone
    g.play("draw")
    g.play("6D+7D")  # waste top with stock top
    assert status(g) is Status.WON


def test_traditional_stock_top_pairs_with_the_pyramid() -> None:
    g = play("traditional", tab("traditional", p27="5H", p26="9S"), stock=["8C", "4D"])
    assert c("8C") in g.available() and c("4D") not in g.available()
    refuse(g, "4D+9S", "4D is in the stock")
    g.play("5H+8C")
    g.play("4D+9S")
    assert status(g) is Status.WON


def test_traditional_has_one_pass() -> None:
    g = play("traditional", tab("traditional", p27="9D", p26="QS"), stock=["2C"])
    g.play("draw")
    refuse(g, "redeal", "the game is over")
    assert status(g) is Status.LOST


# -- dark_pyramid and thirteen: face-down cards ----------------------------------------------


@pytest.mark.parametrize("name", ["dark_pyramid", "thirteen"])
def test_rows_1_to_6_are_dealt_face_down(name: str) -> None:
    g = Game(name, 3, clock=lambda: 0.0)
    assert set(g.hidden) == set(range(21)) and get_rules(name).has_hidden
    assert all(
        get_rules(n).has_hidden is False for n in FAMILY if n not in ("dark_pyramid", "thirteen")
    )


@pytest.mark.parametrize("name", ["dark_pyramid", "thirteen"])
def test_a_face_down_card_turns_up_when_nothing_covers_it(name: str) -> None:
    # 8C at (5,0) under KD (6,0) and 5H (6,1); 8S at (6,6) pairs with 5H.
    g = play(name, tab(name, p15="8C", p21="KD", p22="5H", p27="8S", p20="4C"), stock=["9C"])
    assert 15 in g.hidden and 20 in g.hidden and 21 not in g.hidden
    g.play("KD")
    assert 15 in g.hidden, "still covered by 5H"
    g.play("5H+8S")
    assert 15 not in g.hidden and 20 not in g.hidden, "nothing covers 8C or 4C now"
    assert c("8C") in g.available()


def test_availability_is_unchanged_by_face_down() -> None:
    dark = play("dark_pyramid", tab("dark_pyramid", p15="8C", p21="5H"), stock=["2C"])
    plain = play("medium", tab("medium", p15="8C", p21="5H"), stock=["2C"])
    assert dark.available() == plain.available() and names(dark.legal_moves) == names(
        plain.legal_moves
    )


def test_dark_pyramid_three_passes_no_stock_top() -> None:
    g = play("dark_pyramid", tab("dark_pyramid", p27="9D"), stock=["2C"])
    assert c("2C") not in g.available()
    for _ in range(2):
        g.play("draw")
        g.play("redeal")
    g.play("draw")
    refuse(g, "redeal", "the game is over")
    assert status(g) is Status.LOST


def test_thirteen_waste_top_pairs_with_the_card_beneath_it() -> None:
    g = play("thirteen", tab("thirteen", p27="8D"), wastes=[["4S", "5H", "2S"]], stock=["JC"])
    refuse(g, "5H+8D", "5H is not on top of its waste pile")  # beneath the top: pairs only with it
    g.play("draw")  # JC on top of 2S
    g.play("2S+JC")  # the top with the card beneath it
    g.play("5H+8D")
    assert g.wastes == ((c("4S"),),)


def test_thirteen_card_two_beneath_the_top_does_not_pair_with_it() -> None:
    g = play("thirteen", tab("thirteen", p27="TD"), wastes=[["5H", "2S", "8C"]], stock=["3S"])
    refuse(g, "5H+8C", "5H is not on top of its waste pile")
    g.play("draw")
    g.play("3S+TD")


def test_thirteen_waste_pair_is_only_where_the_rules_say() -> None:
    g = play("dark_pyramid", tab("dark_pyramid", p27="9D"), wastes=[["5H", "8C"]], stock=["3S"])
    refuse(g, "5H+8C", "5H is not on top of its waste pile")


def test_thirteen_stock_is_face_down_one_pass_all_52() -> None:
    g = Game("thirteen", 4, clock=lambda: 0.0)
    top = card_str(g.stock[0])
    assert top not in str(g).split("stock", 1)[1].split("|")[0]
    h = play("thirteen", tab("thirteen", p27="5H", p26="8C"), stock=["KS"])
    h.play("5H+8C")
    assert status(h) is Status.PLAYING, "the stock still holds a card"
    h.play("draw")
    h.play("KS")
    assert status(h) is Status.WON


# -- giza and pyramid_dozen: reserves --------------------------------------------------------

EMPTY8: list[list[str]] = [[] for _ in range(8)]


def giza(tableau: list[str | None], *piles: list[str]) -> Game:
    reserves = [list(p) for p in piles] + [[] for _ in range(8 - len(piles))]
    return play("giza", tableau, reserves=reserves)


def test_giza_has_no_stock() -> None:
    g = Game("giza", 2, clock=lambda: 0.0)
    assert g.stock == () and g.wastes in ((), ((),))
    assert "draw" not in g.legal_moves and "redeal" not in g.legal_moves
    assert len(g.reserves) == 8 and all(len(p) == 3 for p in g.reserves)


def test_giza_reserve_tops_pair_with_each_other() -> None:
    g = giza(tab("giza", p27="9D"), ["4H", "5H"], ["8C"])
    assert c("4H") not in g.available()
    refuse(g, "4H+9D", "4H is not on top of its reserve pile")
    g.play("5H+8C")
    g.play("4H+9D")
    assert status(g) is Status.WON


def test_giza_reserve_top_pairs_with_the_pyramid_and_a_king_goes_alone() -> None:
    g = giza(tab("giza", p27="QS", p15="3H", p21="TC"), ["AH"], ["2D", "KS"])
    refuse(g, "3H+TC", "3H is covered by TC")  # no overlap discards in giza
    g.play("AH+QS")
    g.play("KS")
    assert c("2D") in g.available() and g.where("2D").zone is Zone.RESERVE


def test_giza_win_needs_all_52() -> None:
    g = giza(tab("giza", p27="5H", p26="8C"), ["KS"])
    g.play("5H+8C")
    assert status(g) is Status.PLAYING
    g.play("KS")
    assert status(g) is Status.WON


def test_giza_lost_when_no_removal_is_left() -> None:
    g = giza(tab("giza", p27="5H"), ["3C"])
    assert status(g) is Status.LOST


def test_pyramid_dozen_pairs_sum_12_or_queen_king() -> None:
    g = play("pyramid_dozen", tab("pyramid_dozen", p21="5H", p22="7C", p23="6D", p24="6S",
                                  p25="QH", p26="KD", p27="8C"),
             reserves=[["AC"], ["JD"], ["4S"], [], [], []])  # fmt: skip
    legal = names(g.legal_moves)
    assert {"5H+7C", "6D+6S", "QH+KD", "AC+JD", "4S+8C"} <= legal
    assert "5H+8C" not in legal and "AC+QH" not in legal, "sum 13 is not a pair here"


def test_pyramid_dozen_kings_never_go_alone() -> None:
    g = play("pyramid_dozen", tab("pyramid_dozen", p27="KD", p26="QH"),
             reserves=[[], [], [], [], [], []])  # fmt: skip
    refuse(g, "KD", "Kings are not removed alone")
    g.play("QH+KD")
    assert status(g) is Status.WON


def test_pyramid_dozen_reserve_is_six_piles_of_four_and_no_stock() -> None:
    g = Game("pyramid_dozen", 9, clock=lambda: 0.0)
    assert [len(p) for p in g.reserves] == [4] * 6 and g.stock == ()


# -- triangle and eleven_triangle ------------------------------------------------------------


def test_triangle_bottom_card_comes_first_and_uncovers_two_end_cards() -> None:
    g = play("triangle", tab("triangle", p27="5H", p25="8C", p26="KD"), stock=["8D", "2S"])
    refuse(g, "5H+8C", "8C is covered by 5H")
    g.play("5H+8D")  # the stock top is available
    assert {c("8C"), c("KD")} <= set(g.available())


def test_triangle_three_passes_all_52() -> None:
    g = play("triangle", tab("triangle", p27="5H"), stock=["8C", "KS"])
    g.play("5H+8C")
    assert status(g) is Status.PLAYING
    g.play("KS")
    assert status(g) is Status.WON
    h = play("triangle", tab("triangle", p27="9D"), stock=["2C"])
    for _ in range(2):
        h.play("draw")
        h.play("redeal")
    h.play("draw")
    refuse(h, "redeal", "the game is over")


def eleven(**cards: str) -> Game:
    return play("eleven_triangle", tab("eleven_triangle", **cards), stock=["2C", "3C", "4C"])


def test_eleven_triangle_pairs_sum_11_or_two_court_cards_of_a_rank() -> None:
    g = eleven(p0="KD", p1="KS", p2="5H", p3="6C", p4="JD", p5="JC", p6="8C")
    legal = names(g.legal_moves)
    assert {"KD+KS", "5H+6C", "JC+JD"} <= legal
    assert "5H+8C" not in legal, "sum 13 is not a pair here"
    h = eleven(p0="QD", p1="QS", p2="AH", p3="TC", p4="5S", p5="5D")
    assert {"QD+QS", "AH+TC"} <= names(h.legal_moves)
    assert "5D+5S" not in names(h.legal_moves), "two fives total 10"


def test_eleven_triangle_kings_do_not_go_alone() -> None:
    g = eleven(p0="KD", p1="KS")
    refuse(g, "KD", "Kings are not removed alone")
    g.play("KD+KS")


def test_eleven_triangle_deals_one_card_onto_each_of_three_wastes_once() -> None:
    g = eleven(p0="QD")
    assert c("2C") not in g.available(), "the stock top is not available"
    g.play("draw")
    assert g.wastes == ((c("2C"),), (c("3C"),), (c("4C"),))
    refuse(g, "redeal", "the game is over")
    assert status(g) is Status.LOST


# -- pharaohs ------------------------------------------------------------------------------


def test_pharaohs_three_pyramids_of_2_7_and_6_rows() -> None:
    layout = get_rules("pharaohs").layout
    assert layout.size == 52 and layout.groups == (0,) * 3 + (1,) * 28 + (2,) * 21
    assert layout.bottom == (1, 2, *range(24, 31), *range(46, 52))
    g = Game("pharaohs", 0, clock=lambda: 0.0)
    assert g.stock == () and len(g.available()) == 2 + 7 + 6


def test_pharaohs_covering_stays_within_each_pyramid() -> None:
    # the small pyramid: 8C at its top (0) under KD (1) and QS (2); AH at the foot of the
    # 7-row one (24); 5D at the foot of the 6-row one (46)
    g = play("pharaohs", tab("pharaohs", p0="8C", p1="KD", p2="QS", p24="AH", p46="5D"))
    g.play("KD")
    refuse(g, "5D+8C", "8C is covered by QS")
    g.play("AH+QS")
    g.play("5D+8C")
    assert status(g) is Status.WON


# -- two decks: anubis, double_pyramid, two_pyramids, up_and_down ------------------------------


@pytest.mark.parametrize("name", ["anubis", "double_pyramid", "two_pyramids", "up_and_down"])
def test_two_deck_games_hold_each_card_twice(name: str) -> None:
    g = Game(name, 1, clock=lambda: 0.0)
    assert g.deal is not None and len(g.deal) == 104
    faces = sorted(x % 52 for x in g.deal)
    assert faces == sorted(list(range(52)) * 2)


def test_anubis_deals_45_and_a_59_card_stock() -> None:
    g = Game("anubis", 0, clock=lambda: 0.0)
    assert len(g.pyramid) == 45 and all(x is not None for x in g.pyramid)
    assert len(g.stock) == 59


def test_anubis_draws_one_onto_each_of_three_wastes_and_two_waste_tops_pair() -> None:
    g = play("anubis", tab("anubis", p44="KD"), stock=["5H'", "8C", "2S", "3S"])
    g.play("draw")
    assert g.wastes == ((c("5H'"),), (c("8C"),), (c("2S"),)) and g.stock == (c("3S"),)
    g.play("5H'+8C")
    assert c("5H'") in g.discard


def test_anubis_stock_top_is_not_playable() -> None:
    g = play("anubis", tab("anubis", p44="TD", p43="JC"), stock=["3S", "2D"])
    refuse(g, "3S+TD", "3S is the top stock card, which is not available")
    g.play("draw")
    g.play("3S+TD")


def test_anubis_two_passes() -> None:
    g = play("anubis", tab("anubis", p44="9D"), stock=["2C"])
    g.play("draw")
    g.play("redeal")
    g.play("draw")
    refuse(g, "redeal", "the game is over")
    assert status(g) is Status.LOST


def test_anubis_win_needs_all_104() -> None:
    g = play("anubis", tab("anubis", p44="5H", p43="8C'"), stock=["KS'"])
    g.play("5H+8C'")
    assert status(g) is Status.PLAYING
    g.play("draw")
    g.play("KS'")
    assert status(g) is Status.WON


def test_two_copies_are_two_cards_and_each_pairs_on_its_own() -> None:
    g = play("double_pyramid", tab("double_pyramid", p44="5H", p43="5H'"), stock=["8C'", "8C"])
    assert {"5H+8C'", "5H'+8C'"} <= names(g.legal_moves), "the stock top pairs either five"
    refuse(g, "5H+5H'", "5 + 5 = 10, not 13")
    g.play("5H'+8C'")
    assert g.where("5H").zone is Zone.PYRAMID and g.where("5H'").zone is Zone.DISCARD


def test_a_copy_pairs_with_its_twin_only_where_the_table_pairs_the_value_with_itself() -> None:
    rules = get_rules("double_pyramid").replace(name="double-adjacent", pairing="adjacent",
                                                kings_alone=False)  # fmt: skip
    g = play(rules, slots(45, p44="5H", p43="5H'"), stock=["9C"])
    assert "5H+5H'" in g.legal_moves
    h = play("double_pyramid", slots(45, p44="6H", p43="6H'", p42="7C"), stock=["9C"])
    assert "6H+6H'" not in h.legal_moves
    assert {Move.parse("6H+7C"), Move.parse("6H'+7C")} <= set(h.legal_moves)


@pytest.mark.parametrize("name", ["double_pyramid", "two_pyramids", "up_and_down"])
def test_pysol_two_deck_games_three_passes_stock_top_available(name: str) -> None:
    size = get_rules(name).tableau_size
    g = play(name, slots(size, **{f"p{get_rules(name).layout.bottom[0]}": "5H"}),
             stock=["8C'", "2C"])  # fmt: skip
    assert c("8C'") in g.available()
    g.play("5H+8C'")
    for _ in range(2):
        g.play("draw")
        g.play("redeal")
    g.play("draw")
    refuse(g, "redeal", "the game is over")


def test_two_pyramids_are_56_cards_side_by_side() -> None:
    layout = get_rules("two_pyramids").layout
    assert (
        layout.size == 56 and layout.covered_by[28] == (29, 30) and layout.covered_by[0] == (1, 2)
    )
    assert layout.bottom == (*range(21, 28), *range(49, 56))


def test_up_and_down_is_an_upright_and_an_inverted_pyramid() -> None:
    layout = get_rules("up_and_down").layout
    tri = Layout.inverted(7)
    assert layout.size == 56
    assert layout.covered_by[:28] == CLASSIC.covered_by
    assert layout.covered_by[28:] == tuple(tuple(q + 28 for q in qs) for qs in tri.covered_by)
    # the inverted one's single card (55) is available at the deal, its top row is not
    g = play("up_and_down", slots(56, p55="5H", p35="2S", p28="8C", p27="8D"), stock=["2C"])
    refuse(g, "5H+8C", "8C is covered by 2S")
    g.play("5H+8D")


# -- redeal order -----------------------------------------------------------------------------


def three_wastes(order: str) -> Game:
    rules = get_rules("apophis").replace(name=f"apophis-{order}", passes=3, redeal_order=order)
    g = play(rules, tab("apophis", p27="9D"), stock=["2C", "3C", "4C", "5C", "6C", "7C"])
    g.play("draw")
    g.play("draw")
    assert g.wastes == ((c("2C"), c("5C")), (c("3C"), c("6C")), (c("4C"), c("7C")))
    g.play("redeal")
    return g


def test_first_drawn_redeal_gives_the_cards_in_the_order_first_drawn() -> None:
    assert three_wastes("first-drawn").stock == tuple(
        c(x) for x in ["2C", "3C", "4C", "5C", "6C", "7C"]
    )


def test_by_pile_redeal_gathers_waste_1_then_2_then_3() -> None:
    stock = [card_str(x) for x in three_wastes("by-pile").stock]
    assert sorted(stock) == sorted(["2C", "3C", "4C", "5C", "6C", "7C"])
    assert set(stock[:2]) == {"4C", "7C"}, "the last pile's cards come first"
    assert set(stock[2:4]) == {"3C", "6C"} and set(stock[4:]) == {"2C", "5C"}
    assert stock == ["4C", "7C", "3C", "6C", "2C", "5C"], "each pile turned over: bottom first"


def test_apophis_keeps_first_drawn_and_two_passes_pysol_form_is_expressible() -> None:
    apophis = get_rules("apophis")
    assert apophis.redeal_order == "first-drawn" and apophis.passes == 2
    pysol = apophis.replace(name="apophis-pysol", passes=3, redeal_order="by-pile")
    assert pysol.passes == 3
    cheops = get_rules("cheops")
    assert cheops.win == "pyramid" and cheops.replace(name="cheops-pysol", win="all").win == "all"


# -- move text ----------------------------------------------------------------------------------


def test_two_deck_move_text_names_the_copy_and_parses_back() -> None:
    for text in ("5H+8C'", "5H'+8C", "KD'", "AS+QS'"):
        move = Move.parse(text)
        assert Move.parse(str(move)) == move and "'" in str(move)
    assert Move.parse("8C'+5H") == Move.parse("5H+8C'")
    assert Move.parse("5H+8C") != Move.parse("5H'+8C")


@pytest.mark.parametrize(("name", "partner", "not_partner"), [
    ("pyramid_dozen", "Queen", "King"), ("eleven_triangle", "King", "Queen"),
])  # fmt: skip
def test_the_lone_king_refusal_names_the_partners_of_the_pairing_table(
    name: str, partner: str, not_partner: str
) -> None:
    # a King that is available and a pair still to play (so the game is not over)
    cards = dict(p27="KD", p26="5C", p25="7D") if name == "pyramid_dozen" else {}
    cards = cards or dict(p0="KD", p1="5C", p2="6D")
    g = play(name, tab(name, **cards), stock=["2C"] if name == "eleven_triangle" else ())
    assert status(g) is Status.PLAYING
    text = refuse(g, "KD", "Kings are not removed alone", partner)
    assert f"a {not_partner}" not in text.split("pair it with", 1)[1], text
