"""docs/RULES.md section 1, common ground: one test per rule statement, for every rule set of
RULES.md (the seven classic presets; the family's rules are tested in ``test_family_*.py``)."""

from __future__ import annotations

import random

import pytest

from pyramid_widget import (
    PRESETS,
    Game,
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    Move,
    Status,
    Zone,
    card_str,
    deal_from_number,
    format_deal,
    parse_card,
    parse_deal,
    rank,
)
from pyramid_widget.engine.layout import COVERED_BY, position
from pyramid_widget.engine.rules import CLASSIC_PRESETS
from tests.support.engine import bottom, game, names, pyramid

ALL = [r.name for r in CLASSIC_PRESETS]
SUM13 = [name for name in ALL if PRESETS[name].pairing == "sum13"]

GOLDEN = {
    0: "QH TC 3C JC 4H 7C QC 3D 4S AC 3H 2H 9H 2S KH TH 8H AD 8C 2C 7H 2D JH 6H 5D 9D 6C 4D "
    "TD KC 3S 6S JD 5C 7S 6D AH 7D TS QD QS 5S KD 8S KS AS 9C JS 5H 8D 4C 9S",
    1: "5S 3C 5C 9D 6C JS 6S 5H QS 3H 5D 7D AH 4H TC 8H 9C 8D AD 4D QC 4C TH 9S KC KD 6H QH "
    "3S JH 2D 2H TS 2C 7H KS 8S KH TD 7C 6D 4S JD AC AS 7S 2S 3D 8C JC 9H QD",
    2: "TD JD AS 8H 9C 4H TH 6H AC 2D QD AH 3S 5S 8S TC 3D QS 6S 2S 5C JS JC 8D 4D 7C QC 9D "
    "8C 6D 5H KD TS 2C 3H 7H 4C 7S 2H JH 3C 9S 5D KC KH KS QH 7D 4S AD 6C 9H",
    123456789012345678: "AC TH 8S QD QH AS 7H TC JC 7C 7S 4S QC 6H QS 9C 2S KD 5D 3S TS 6D "
    "2H 9S 9D 5H JH KC 2C JD 7D 6C 3H 3C 8H 8D 5C AD 3D 4C AH KS JS 4H 8C 4D TD 2D 5S KH 9H 6S",
}


def test_values_ace_one_to_king_thirteen() -> None:
    assert [rank(parse_card(r + "S")) for r in "A23456789TJQK"] == list(range(1, 14))


@pytest.mark.parametrize("rules", SUM13)
def test_suits_never_matter_sum13(rules: str) -> None:
    for a, b in (("5H", "8C"), ("5S", "8S"), ("QD", "AD"), ("JC", "2H")):
        g = game(rules, bottom(a, b), stock=["4D"])
        assert f"{a}+{b}" in g.legal_moves, (rules, a, b)


@pytest.mark.parametrize("rules", ALL)
def test_pyramid_has_28_cards_and_24_stock(rules: str) -> None:
    g = Game(rules, 3)
    assert len([c for c in g.pyramid if c is not None]) == 28
    assert len(g.stock) == 24 and g.stock == g.deal[28:]


@pytest.mark.parametrize("rules", ALL)
def test_covering_geometry(rules: str) -> None:
    assert COVERED_BY[position(2, 1)] == (position(3, 1), position(3, 2))
    g = Game(rules, 0)
    available = set(g.available()) - {
        c for c in g.available() if g.where(c).zone is not Zone.PYRAMID
    }
    assert available == {g.pyramid[p] for p in range(21, 28)}, "row 7 starts uncovered"


@pytest.mark.parametrize("rules", SUM13)
def test_covered_queen_cannot_pair_with_available_ace(rules: str) -> None:
    # QH at (5,0) covered by 5C (6,0) and 8D (6,1); AS sits uncovered at (6,6).
    g = game(rules, pyramid(p15="QH", p21="5C", p22="8D", p27="AS"), stock=["4D"])
    assert "AS+QH" not in g.legal_moves
    with pytest.raises(IllegalMoveError, match="QH is covered by 5C and 8D"):
        g.play("QH+AS")


@pytest.mark.parametrize("rules", SUM13)
def test_one_covering_card_gone_is_not_enough(rules: str) -> None:
    g = game(rules, pyramid(p15="QH", p22="8D", p27="AS"), stock=["4D"])
    assert not g.is_available(parse_card("QH"))
    with pytest.raises(IllegalMoveError, match="QH is covered by 8D"):
        g.play("QH+AS")


@pytest.mark.parametrize("rules", SUM13)
def test_uncovered_when_both_gone(rules: str) -> None:
    g = game(rules, pyramid(p15="QH", p21="5C", p22="8D", p27="AS"), stock=["4D"])
    g.play("5C+8D")
    assert g.is_available(parse_card("QH"))
    g.play("QH+AS")
    assert g.pyramid[15] is None and g.pyramid[21] is None, "empty slots are never refilled"


@pytest.mark.parametrize("rules", ALL)
def test_only_top_waste_card_available(rules: str) -> None:
    g = game(rules, bottom("9C"), wastes=[["4H", "7S"]], stock=["2D"])
    if g.rules.waste_piles > 1:
        assert g.wastes[0] == (parse_card("4H"), parse_card("7S"))
    assert parse_card("7S") in g.available() and parse_card("4H") not in g.available()
    if g.rules.pairing == "sum13":
        with pytest.raises(IllegalMoveError, match="4H is not on top of its waste pile"):
            g.play("4H+9C")


@pytest.mark.parametrize("rules", ALL)
def test_discarded_cards_never_come_back(rules: str) -> None:
    g = game(rules, bottom("5H", "8C", "6D"), stock=["7S"])
    g.play("5H+8C" if g.rules.pairing == "sum13" else "5H+6D")
    gone = g.discard
    for move in g.legal_moves:
        assert not set(move.cards) & set(gone)
    with pytest.raises(IllegalMoveError, match="already discarded"):
        g.play("5H+8C" if g.rules.pairing == "sum13" else "5H+6D")


def test_three_cards_never_removed_at_once() -> None:
    with pytest.raises(InvalidMoveError, match="never three"):
        Move.parse("AS+2H+TD")


def test_card_cannot_pair_with_itself() -> None:
    with pytest.raises(InvalidMoveError, match="itself"):
        Move.parse("5H+5H")


@pytest.mark.parametrize("rules", ALL)
def test_drawing_never_removes(rules: str) -> None:
    g = game(rules, bottom("5H"), stock=["KS", "8C", "QD"])
    g.play("draw")
    assert len(g.discard) == 52 - 4, "a drawn King or match stays until removed"
    on_waste = {c for pile in g.wastes for c in pile}
    assert parse_card("KS") in on_waste


@pytest.mark.parametrize("rules", [r for r in ALL if (PRESETS[r].passes or 9) > 1])
def test_redeal_order_first_drawn_first(rules: str) -> None:
    stock = ["2C", "3C", "4C", "5C", "6C", "7C"]
    g = game(rules, bottom("KH"), stock=stock)
    while g.stock:
        g.play("draw")
    g.play("redeal")
    assert [card_str(c) for c in g.stock] == stock


@pytest.mark.parametrize("rules", [r for r in ALL if (PRESETS[r].passes or 9) > 1])
def test_redeal_leaves_out_removed_cards(rules: str) -> None:
    g = game(rules, bottom("KH", "9D"), stock=["2C", "7C", "8H", "4S"])
    while g.stock:
        g.play("draw")
    g.play("4S+9D")
    g.play("redeal")
    assert [card_str(c) for c in g.stock] == ["2C", "7C", "8H"]
    assert g.pass_number == 2


@pytest.mark.parametrize("rules", ALL)
def test_passes_count_first_traversal_plus_redeals(rules: str) -> None:
    g = game(rules, bottom("KH", "2D"), stock=["3C"])
    limit = g.rules.passes
    redeals = 0
    for _ in range(10):
        while g.stock:
            g.play("draw")
        if "redeal" not in g.legal_moves:
            break
        g.play("redeal")
        redeals += 1
    if limit is None:
        assert redeals == 10
    else:
        assert redeals == limit - 1


def reference_deal(number: int) -> list[int]:
    """SplitMix64 + Fisher-Yates written the plain way, to check the engine's flat loop."""
    mask, state, cards = 2**64 - 1, number, list(range(52))

    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    for i in range(51, 0, -1):
        limit = (2**64 // (i + 1)) * (i + 1)
        while (value := draw()) >= limit:
            pass
        j = value % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_numbered_deals_follow_the_documented_generator() -> None:
    rng = random.Random(6)
    numbers = [*range(300), 2**64 - 1, *(rng.getrandbits(64) for _ in range(300))]
    assert all(list(deal_from_number(n)) == reference_deal(n) for n in numbers)


def test_deal_format_round_trip_and_golden_numbers() -> None:
    for number, text in GOLDEN.items():
        assert format_deal(deal_from_number(number)) == text
        assert parse_deal(text) == deal_from_number(number)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AS 2H", "52 cards"),
        (" ".join(["AS"] * 52), "repeats AS"),
        (GOLDEN[0].replace("QH", "XX", 1), "card 1 of the deal: 'XX' is not a card"),
        (GOLDEN[0] + " 2C", "got 53"),
    ],
)
def test_bad_deal_strings_rejected_clearly(text: str, message: str) -> None:
    with pytest.raises(InvalidDealError, match=message):
        parse_deal(text)
    with pytest.raises(InvalidDealError):
        Game("medium", text)


def test_bad_deal_numbers_rejected() -> None:
    for bad in (-1, 2**64, 1.5, True):
        with pytest.raises(InvalidDealError):
            Game("medium", bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", ALL)
def test_stalemate_is_lost_with_reason(rules: str) -> None:
    full_cells = ["2S"] * PRESETS[rules].cells
    g = game(rules, bottom("5H", "9C"), stock=[], cells=full_cells)
    assert g.status is Status.LOST
    assert "no move is left" in g.status_reason or "stall" in g.status_reason
    assert list(g.legal_moves) == []


@pytest.mark.parametrize("rules", ALL)
def test_moves_and_clock(rules: str) -> None:
    now = [0.0]
    g = Game.from_position(
        rules, pyramid=bottom("5H", "6D"), stock=["8C", "7S"], clock=lambda: now[0]
    )
    g.play("draw")
    now[0] = 10.0
    g.pause()
    now[0] = 50.0
    assert g.elapsed == 10.0 and g.paused and g.moves == 1
    g.resume()
    now[0] = 55.0
    assert g.elapsed == 15.0


def test_names_helper_sanity() -> None:
    assert names([Move.draw()]) == {"draw"}
