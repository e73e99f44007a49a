"""Face-down cards stay hidden in everything a player is shown (docs/VARIANTS.md, issue 18).

The engine knows every card (the solver needs them, and ``game.pyramid`` is the engine's own
view), but the public view — ``print(game)`` / ``str(game)``, ``repr(game)``, the SVG picture,
the hint and the sentences that refuse a move — never names a card that is face down now.

The save file (``game.to_json()``) does hold the deal: it is the player's own file, which
rebuilds the game by replaying the moves, so it is not a public view; a test below says so,
so that a change there is a decision and not an accident.
"""

from __future__ import annotations

import random
import re

import pytest

from pyramid_widget import Game, IllegalMoveError, Move, card_long_name, card_str
from pyramid_widget.engine.hints import hint
from pyramid_widget.engine.layout import Layout
from pyramid_widget.engine.rules import PRESETS, RuleSet, get_rules
from tests.support.tier import sized

FACE_DOWN = [name for name, rules in PRESETS.items() if rules.has_hidden]
EXTRA: dict[str, RuleSet] = {
    "dark-anubis": get_rules("anubis").replace(
        name="dark-anubis", layout=Layout.pyramid(9).with_face_down(range(36))
    ),
    "dark-triangle": get_rules("triangle").replace(
        name="dark-triangle", layout=Layout.inverted(7).with_face_down(range(27))
    ),
    "dark-two-pyramids": get_rules("two_pyramids").replace(
        name="dark-two-pyramids",
        layout=Layout.side_by_side(Layout.pyramid(7), Layout.pyramid(7)).with_face_down(
            [*range(21), *range(28, 49)]
        ),
    ),
}
RULES: dict[str, str | RuleSet] = {**{n: n for n in FACE_DOWN}, **EXTRA}


def test_the_face_down_presets_are_dark_pyramid_and_thirteen() -> None:
    assert FACE_DOWN == ["dark_pyramid", "thirteen"]


def shows(text: str, card: int) -> bool:
    """Whether ``text`` names ``card`` (``5H`` is not ``5H'``, and neither is inside ``15H``)."""
    name = re.escape(card_str(card))
    return re.search(rf"(?<![0-9A-Z]){name}(?!')", text) is not None


def unseen(game: Game) -> list[int]:
    """The cards a player cannot see: face-down tableau cards, and the stock where it lies
    face down (all of it but the top where the top is face up)."""
    cards = [game.pyramid[p] for p in game.hidden]
    stock = list(game.stock)
    cards += stock[1:] if game.rules.stock_face_up else stock
    return [c for c in cards if c is not None]


def walk(rules: str | RuleSet, number: int, steps: int = 80) -> list[Game]:
    """The positions of a random playout of deal ``number`` (copies, the first at the deal)."""
    rng = random.Random(f"{number}")
    game = Game(rules, number, clock=lambda: 0.0)
    seen = [game.copy()]
    for _ in range(steps):
        moves = list(game.legal_moves)
        if not moves:
            break
        game.play(rng.choice(moves))
        seen.append(game.copy())
    return seen


@pytest.mark.parametrize("name", list(RULES))
def test_the_deal_starts_with_every_covered_face_down_position_hidden(name: str) -> None:
    game = Game(RULES[name], 0, clock=lambda: 0.0)
    layout = game.rules.layout
    assert game.hidden == layout.face_down & set(layout.covered_positions())
    assert game.hidden, "some cards are face down"


@pytest.mark.parametrize("name", list(RULES))
def test_text_and_picture_never_show_a_hidden_card(name: str) -> None:
    checked = 0
    for number in range(sized(4, quick=2)):  # 4 walks with --thorough
        for game in walk(RULES[name], number):
            text, picture = str(game) + repr(game), game.svg()
            for card in unseen(game):
                assert not shows(text, card), (name, number, card_str(card), text)
                assert f'data-card="{card_str(card)}"' not in picture, (name, card_str(card))
                assert f">{card_long_name(card)}<" not in picture, (name, card_long_name(card))
                checked += 1
            assert text.count("##") >= len(game.hidden), "each hidden card shows a back"
    assert checked > 500


@pytest.mark.parametrize("name", list(RULES))
def test_a_card_turned_up_is_shown(name: str) -> None:
    for game in walk(RULES[name], 1):
        layout = game.rules.layout
        for p in layout.face_down - game.hidden:
            card = game.pyramid[p]
            if card is not None:
                assert shows(str(game), card), (name, p, card_str(card))


def shuffle_unseen(game: Game, seed: int) -> Game:
    """The same position as a player sees it, with the unseen cards shuffled among their
    places."""
    rng = random.Random(seed)
    hidden = sorted(game.hidden)
    stock = list(game.stock)
    keep_top = 1 if game.rules.stock_face_up and stock else 0
    places: list[int | None] = [game.pyramid[p] for p in hidden]
    places += stock[keep_top:]
    rng.shuffle(places)
    tableau = list(game.pyramid)
    for p, card in zip(hidden, places, strict=False):
        tableau[p] = card
    stock = stock[:keep_top] + [c for c in places[len(hidden) :] if c is not None]
    return Game.from_position(
        game.rules,
        pyramid=tableau,
        stock=stock,
        wastes=game.wastes,
        reserves=game.reserves,
        cells=game.cells,
        pass_number=game.pass_number,
        clock=lambda: 0.0,
    )


@pytest.mark.parametrize("name", list(RULES))
def test_the_hint_and_the_legal_moves_do_not_depend_on_unseen_cards(name: str) -> None:
    compared = 0
    for number in range(3):
        for step, game in enumerate(walk(RULES[name], number, 60)):
            if game.is_over or step % 3:
                continue
            for seed in range(2):
                twin = shuffle_unseen(game, seed)
                assert str(twin).split("\n")[1:] == str(game).split("\n")[1:], "same sight"
                assert list(twin.legal_moves) == list(game.legal_moves), (name, number, step)
                assert hint(twin) == hint(game), (name, number, step)
                compared += 1
    assert compared > 10


def leaked(game: Game, move: str) -> list[str]:
    """The hidden cards (other than those ``move`` names) that its refusal names."""
    named = set(Move.parse(move).cards)
    with pytest.raises(IllegalMoveError) as caught:
        game.play(move)
    text = str(caught.value)
    return [card_str(c) for c in unseen(game) if c not in named and shows(text, c)]


def test_a_refusal_never_names_a_hidden_card_the_player_did_not_name() -> None:
    game = Game("dark_pyramid", 7, clock=lambda: 0.0)
    top = card_str(game.available()[0])
    problems = {}
    for p in sorted(game.hidden):
        card = card_str(game.pyramid[p])  # type: ignore[arg-type]
        move = card if card[0] == "K" else f"{top}+{card}"
        names = leaked(game, move)
        if names:
            problems[move] = names
    assert not problems, problems


def test_the_save_file_holds_the_deal_and_rebuilds_the_same_hidden_cards() -> None:
    game = Game("dark_pyramid", 7, clock=lambda: 0.0)
    game.play("draw")
    saved = game.to_json()
    assert all(shows(saved, c) for c in unseen(game)), "the player's own file holds the deal"
    twin = Game.from_json(saved)
    assert twin.hidden == game.hidden and twin.pyramid == game.pyramid
    assert str(twin) == str(game)
