"""The board's data for the family's layouts (issue 19), no browser: the layout sent to the
page, reserve piles, two-deck names, the pairing and win rules in the help text, the preset
groups, and face-down cards that no trait or message ever names."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from pyramid_widget import PRESETS, Game
from pyramid_widget.engine.cards import card_long_name, card_str
from pyramid_widget.engine.rules import CLASSIC_PRESETS, FAMILY_PRESETS
from pyramid_widget.widget import PyramidWidget
from pyramid_widget.widget.board import board_state, why_unavailable
from tests.support.browser import widget_state


def _public_text(w: PyramidWidget) -> str:
    """Every trait the page receives, as one JSON text (the card faces' drawing data aside)."""
    state = widget_state(w)
    state.pop("faces")
    return json.dumps(state)


def _leaks(text: str, game: Game) -> list[str]:
    """The face-down cards of ``game`` whose short or long name is in ``text``."""
    found = []
    for pos in game.hidden:
        card = game.pyramid[pos]
        assert card is not None
        short = re.escape(card_str(card))
        if re.search(rf"(?<![A-Za-z0-9]){short}(?![A-Za-z0-9'])", text) or (
            card_long_name(card) in text
        ):
            found.append(card_str(card))
    return found


def _send(w: PyramidWidget, **msg: Any) -> None:
    w._on_msg(w, msg, [])


@pytest.mark.parametrize("preset", ["dark_pyramid", "thirteen"])
def test_no_trait_or_message_names_a_face_down_card(preset: str) -> None:
    w = PyramidWidget(preset, deal=7, records=False)
    g = w.game
    assert len(g.hidden) == 21
    assert _leaks(_public_text(w), g) == []
    downs = [c for c in w.board["cards"] if c.get("face_down")]
    assert len(downs) == 21
    assert all(set(c) >= {"id", "label"} and "rank" not in c and "name" not in c for c in downs)
    assert {c["label"] for c in downs} == {"face-down card"}
    # a message naming a face-down card (the page never sends its name: it does not know it)
    _send(w, kind="select", card=card_str(g.pyramid[0] or 0))
    assert "face down" in w.message and _leaks(_public_text(w), g) == []
    # draw, ask for a hint, pair two bottom cards wrongly

    _send(w, kind="draw")
    _send(w, kind="hint")
    bottom = [c["id"] for c in w.board["cards"] if c["available"] and c["zone"] == "pyramid"]
    _send(w, kind="pair", cards=bottom[:2])
    assert _leaks(_public_text(w), w.game) == [], w.message
    # the bottom row's cards say which face-down cards they cover by id, never by name
    row5 = next(c for c in w.board["cards"] if c.get("pos") == 15)
    assert row5["covered_by"] == ["down21", "down22"] or not row5.get("face_down")


def test_a_covered_card_says_face_down_cards_cover_it() -> None:
    g = Game("dark_pyramid", deal=7)
    row = g.pyramid[20]  # row 5's last card is face down; row 6 (21..27) face up
    assert row is not None and 20 in g.hidden
    assert (
        why_unavailable(g, row) == "That card is face down: it turns over once nothing covers it."
    )


def test_the_solver_line_on_the_page_hides_face_down_cards() -> None:
    w = PyramidWidget("dark_pyramid", deal=7, records=False)
    down, up = card_str(w.game.pyramid[0] or 0), card_str(w.game.pyramid[27] or 0)
    w._set_autoplay([f"{down}+{up}", "draw", up])
    assert w.autoplay == [f"##+{up}", "draw", up]
    assert w._queue == [f"{down}+{up}", "draw", up]  # the solver's own line, played by steps


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_board_carries_the_layout_and_piles(preset: str) -> None:
    g = Game(preset, deal=3)
    b = board_state(g)
    rules = g.rules
    lay = b["layout"]
    assert lay["size"] == rules.layout.size == len(lay["places"]) == len(lay["covered_by"])
    assert lay["places"] == [list(p) for p in rules.layout.places]
    tableau = [c for c in b["cards"] if c["zone"] == "pyramid"]
    assert len(tableau) == rules.layout.size
    assert all(c["x"] == lay["places"][c["pos"]][0] for c in tableau)
    assert b["reserve_counts"] == [rules.reserve_depth] * rules.reserve_piles
    reserve = [c for c in b["cards"] if c["zone"] == "reserve"]
    assert len(reserve) == rules.reserve_size
    assert sum(c["available"] for c in reserve) == rules.reserve_piles
    assert b["rules"]["has_stock"] == (rules.stock_size > 0)
    ids = [c["id"] for c in b["cards"]]
    assert len(ids) == len(set(ids))
    if rules.decks == 2:
        second = [c for c in b["cards"] if c.get("deck") == 2]
        assert second and all(c["id"].endswith("'") for c in second)
        assert all("(second deck)" in c["label"] for c in second)


def test_overlap_discards_and_the_waste_pair_are_playable() -> None:
    # tuts_tomb: 5H is covered only by 8C, which is available: the pair is legal, 5H playable
    w = PyramidWidget("tuts_tomb", records=False)
    pyramid: list[str | None] = [None] * 28
    pyramid[15], pyramid[21], pyramid[23] = "5H", "8C", "2S"
    w.load(Game.from_position("tuts_tomb", pyramid=pyramid, stock=["AS"]))
    five = next(c for c in w.board["cards"] if c["id"] == "5H")
    assert not five["available"] and five["playable"]
    _send(w, kind="pair", cards=["5H", "8C"])
    assert w.last_event["ok"] and w.moves == 1


def test_the_help_text_states_pairing_win_and_decks() -> None:
    how = {
        r.name: PyramidWidget(r.name, deal=1, records=False).board["rules"]["how"]
        for r in (PRESETS["pyramid_dozen"], PRESETS["eleven_triangle"], PRESETS["anubis"])
    }
    assert PRESETS["pyramid_dozen"].pairing_table.text in how["pyramid_dozen"]
    assert "a King never goes alone" in how["pyramid_dozen"]
    assert "No stock." in how["pyramid_dozen"] and "6 reserve piles of 4" in how["pyramid_dozen"]
    assert PRESETS["eleven_triangle"].pairing_table.text in how["eleven_triangle"]
    assert "removing all 104 cards" in how["anubis"] and "2 decks" in how["anubis"]
    medium = PyramidWidget("medium", deal=1, records=False).board["rules"]["how"]
    assert "Win by clearing the pyramid." in medium and "decks" not in medium


def test_the_presets_come_in_three_groups_with_their_sources() -> None:
    info = PyramidWidget("medium", deal=1, records=False).rules_info
    groups = {name: info[name]["group"] for name in PRESETS}
    assert [n for n, g in groups.items() if g == "classic"] == ["easy", "medium", "hard", "relaxed"]
    assert [n for n, g in groups.items() if g == "seeds"] == ["apophis", "cheops", "egypt"]
    assert [n for n, g in groups.items() if g == "family"] == [r.name for r in FAMILY_PRESETS]
    assert all(info[r.name]["source"] == r.source and r.source for r in FAMILY_PRESETS)
    assert len(CLASSIC_PRESETS) == 7


def test_a_board_too_wide_to_draw_is_refused_in_one_sentence() -> None:
    from pyramid_widget.engine.layout import Layout
    from pyramid_widget.errors import InvalidRulesError

    wide = PRESETS["double_pyramid"].replace(
        name="three", layout=Layout.side_by_side(*[Layout.pyramid(7)] * 3)
    )
    with pytest.raises(
        InvalidRulesError, match=r"^rule set 'three': the board draws .* 24\.4 wide$"
    ):
        PyramidWidget(wide, deal=1, records=False)
    w = PyramidWidget("medium", deal=7, records=False)
    before = w.board
    with pytest.raises(InvalidRulesError):
        w.new_game(wide, 1)
    with pytest.raises(InvalidRulesError):
        w.load(Game(wide, 1))
    assert w.board == before and w.game.rules.name == "medium"
    # every preset is drawn
    for name in PRESETS:
        PyramidWidget(name, deal=1, records=False)


def test_a_buried_reserve_card_says_reserve_pile() -> None:
    g = Game("giza", deal=7)
    buried = g.reserves[0][0]
    assert why_unavailable(g, buried) == (
        f"The {card_long_name(buried)} is not on top of its reserve pile: only the top card "
        "can be played."
    )
