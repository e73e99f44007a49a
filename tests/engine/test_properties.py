"""Property tests over random deals and random play, for every preset (hypothesis).

Every preset is played, the fourteen of docs/VARIANTS.md included: every card of the deck(s)
is in exactly one place, legal moves apply, undo restores exactly, a saved game replays to the
same game, and no illegal move is ever accepted. The numbers of examples are modest (the
family has 21 presets) so that the file runs in about a minute.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyramid_widget import PRESETS, Game, IllegalMoveError, Move, MoveKind
from tests.support.engine import snapshot

PRESET_NAMES = list(PRESETS)
#: Examples per preset and property (21 presets x 4 properties).
EXAMPLES = 10


def accounted(game: Game) -> list[int]:
    """Every card of the game, from the tableau, reserves, stock, wastes, cells and discard."""
    cards = [c for c in game.pyramid if c is not None] + list(game.stock)
    cards += [c for pile in game.reserves for c in pile]
    cards += [c for pile in game.wastes for c in pile] + [c for c in game.cells if c is not None]
    return sorted(cards + list(game.discard))


def random_play(game: Game, data: st.DataObject, steps: int) -> list[tuple[Any, ...]]:
    """Play up to ``steps`` random legal moves; return the snapshot before each move."""
    deck = list(range(game.rules.deck_size))
    before = []
    for _ in range(steps):
        moves = list(game.legal_moves)
        if not moves or game.is_over:
            break
        # legality.judge calls a position with stock left in play without listing its moves
        assert not game.stock or Move.draw() in moves, "a draw is legal while the stock lasts"
        move = data.draw(st.sampled_from(moves))
        before.append(snapshot(game))
        game.play(move)
        assert accounted(game) == deck, "every card is in exactly one place"
    return before


@pytest.mark.parametrize("rules", PRESET_NAMES)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=st.integers(0, 2**32), data=st.data())
def test_cards_accounted_and_legal_moves_apply(
    rules: str, number: int, data: st.DataObject
) -> None:
    game = Game(rules, number, clock=lambda: 0.0)
    assert accounted(game) == list(range(game.rules.deck_size)), "at the deal"
    random_play(game, data, 120)


@pytest.mark.parametrize("rules", PRESET_NAMES)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=st.integers(0, 2**32), data=st.data())
def test_undo_restores_exact_earlier_state(rules: str, number: int, data: st.DataObject) -> None:
    game = Game(rules, number, clock=lambda: 0.0)
    before = random_play(game, data, 60)
    depth = min(len(before), game.rules.undo_depth)
    for expected in reversed(before[len(before) - depth :]):
        game.undo()
        assert snapshot(game) == expected


@pytest.mark.parametrize("rules", PRESET_NAMES)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=st.integers(0, 2**32), data=st.data())
def test_json_replay_gives_the_same_state(rules: str, number: int, data: st.DataObject) -> None:
    game = Game(rules, number, clock=lambda: 0.0)
    random_play(game, data, 80)
    if game.can_undo and data.draw(st.booleans()):
        game.undo()
    twin = Game.from_json(game.to_json())
    assert snapshot(twin) == snapshot(game) and twin.score == game.score
    assert twin.history == game.history and twin.can_redo == game.can_redo
    assert twin.can_undo == game.can_undo
    assert str(twin) == str(game) and twin.rules == game.rules


def attempted_moves(game: Game, data: st.DataObject) -> list[Move]:
    """Moves a careless player might try: pairs of any two cards (often one or two available
    ones), any card alone, any card to a cell, and the words."""
    size = game.rules.deck_size
    cards = st.integers(0, size - 1)
    near = st.sampled_from(game.available()) if game.available() else cards
    attempts: list[Move] = []
    for _ in range(data.draw(st.integers(10, 40))):
        kind = data.draw(st.sampled_from(["pair", "near", "king", "cell", "word"]))
        if kind in ("pair", "near"):
            a = data.draw(near if kind == "near" else cards)
            b = data.draw(near if kind == "near" and data.draw(st.booleans()) else cards)
            if a != b:
                attempts.append(Move.pair(a, b))
        elif kind == "king":
            attempts.append(Move.king(data.draw(near)))
        elif kind == "cell":
            attempts.append(Move.to_cell(data.draw(near)))
        else:
            attempts.append(
                data.draw(st.sampled_from([Move.draw(), Move.redeal(), Move.next_round()]))
            )
    return attempts


@pytest.mark.parametrize("rules", PRESET_NAMES)
@settings(max_examples=EXAMPLES, deadline=None)
@given(number=st.integers(0, 2**32), data=st.data())
def test_no_illegal_move_is_ever_accepted(rules: str, number: int, data: st.DataObject) -> None:
    game = Game(rules, number, clock=lambda: 0.0)
    random_play(game, data, data.draw(st.integers(0, 40)))
    legal = set(game.legal_moves)
    before_round = game.round
    for move in attempted_moves(game, data):
        before = snapshot(game)
        try:
            game.play(move)
        except IllegalMoveError as exc:
            assert move not in legal and exc.reason
            assert snapshot(game) == before, "a rejected move changes nothing"
        else:
            assert move in legal
            if move.kind is MoveKind.NEXT_ROUND:
                # undo never crosses into an earlier round: a fresh round, nothing to undo
                assert game.round == before_round + 1 and not game.can_undo
                assert len([c for c in game.position.pyramid if c is not None]) == 28
                before_round = game.round
            else:
                game.undo()
                assert snapshot(game) == before, "undo restores exactly"
        legal = set(game.legal_moves)


def test_every_move_kind_round_trips_through_text() -> None:
    for text in ("5H+8C", "KD", "draw", "redeal", "cell 7S", "next-round", "5H+8C'", "KD'"):
        move = Move.parse(text)
        assert str(move) == text and eval(repr(move)) == move


def test_next_round_starts_afresh_and_cannot_be_undone() -> None:
    # the branch of the property above that random play rarely reaches
    game = Game.from_position(
        "egypt", pyramid=[None] * 26 + ["5H", "8S"], stock=["2C", "3C", "4C"], clock=lambda: 0.0
    )
    game.play("5H+8S")
    assert [str(m) for m in game.legal_moves] == ["next-round"]
    game.play("next-round")
    assert game.round == 2 and not game.can_undo
    assert len([c for c in game.position.pyramid if c is not None]) == 28
