"""The action table the research faces share, and the game-length bound they declare."""

from __future__ import annotations

import random

import pytest

from pyramid_widget.engine.deals import deal_from_number
from pyramid_widget.engine.rules import PRESETS, get_rules
from pyramid_widget.errors import InvalidMoveError
from pyramid_widget.lab.fastplay import PLAYING, FastGame, from_move
from pyramid_widget.lab.spiel import (
    NUM_ACTIONS,
    action_to_fast_move,
    action_to_move,
    fast_move_to_action,
    max_game_length,
)


def test_the_fast_table_is_the_engine_table() -> None:
    named = 0
    for action in range(NUM_ACTIONS):
        try:
            move = action_to_move(action)
        except InvalidMoveError:
            with pytest.raises(InvalidMoveError):
                action_to_fast_move(action)
            continue
        named += 1
        assert action_to_fast_move(action) == from_move(move)
        assert fast_move_to_action(from_move(move)) == action
    assert named == 52 * 51 // 2 + 52 + 2 + 52 + 1
    for bad in (-1, NUM_ACTIONS, True, 2.0):
        with pytest.raises(InvalidMoveError):
            action_to_fast_move(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", [r for r in PRESETS if PRESETS[r].passes is not None])
def test_no_game_outlasts_the_declared_bound(rules: str) -> None:
    """Random games (the longest: they draw and redeal whenever they can) stay within
    :func:`max_game_length`, and drawing through every pass without removing uses exactly
    the draws and redeals it counts."""
    bound = max_game_length(get_rules(rules))
    assert bound is not None
    rng = random.Random(3)
    longest = 0
    for deal in range(60):
        fg = FastGame(get_rules(rules), deal_from_number(deal, get_rules(rules).decks))
        moves = 0
        while fg.status == PLAYING:
            fg.play(rng.choice(sorted(fg.legal())))
            moves += 1
            assert moves <= bound
        longest = max(longest, moves)
    fg = FastGame(get_rules(rules), deal_from_number(1, get_rules(rules).decks))
    idle = 0
    while fg.status == PLAYING and any(m[0] in ("draw", "redeal") for m in fg.legal()):
        fg.play(next(m for m in fg.legal() if m[0] in ("draw", "redeal")))
        idle += 1
    rules_ = get_rules(rules)
    passes = rules_.passes or 0
    stock = rules_.stock_size
    assert idle == (passes * -(-stock // rules_.draw_count) + passes - 1 if stock else 0)
    print(f"{rules}: longest random game {longest} moves, bound {bound}")
