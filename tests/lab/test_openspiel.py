"""The OpenSpiel face as OpenSpiel's own code uses it: load_game, random_sim_test, MCTSBot,
ISMCTSBot and the evaluate loop, for every preset."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pyramid_widget.engine.game import Game
from pyramid_widget.engine.position import Status
from pyramid_widget.engine.rules import PRESETS, get_rules
from pyramid_widget.errors import (
    IllegalMoveError,
    InvalidDealError,
    InvalidMoveError,
    InvalidRulesError,
)
from pyramid_widget.lab.observation import Layout
from pyramid_widget.lab.spiel import DRAW_ACTION, PyramidGame, action_to_move
from pyramid_widget.lab.strategies import play_game
from tests.support.optional import need

pyspiel = need("pyspiel")
mcts = need("open_spiel.python.algorithms.mcts")
ismcts = need("open_spiel.python.algorithms.ismcts")
evaluate_bots = need("open_spiel.python.algorithms.evaluate_bots")
openspiel = need("pyramid_widget.lab.openspiel")


def dealt(rules: str, deal: int) -> object:
    return pyspiel.load_game(
        "pyramid_solitaire", {"rules": rules, "deal": deal}
    ).new_initial_state()


ONE_DECK = [name for name, rules in PRESETS.items() if rules.decks == 1]
"""The presets the research faces take (their actions name the 52 cards of one deck)."""


@pytest.mark.parametrize("rules", ONE_DECK)
def test_load_game_every_preset(rules: str) -> None:
    game = pyspiel.load_game(f"pyramid_solitaire(rules={rules})")
    kind = game.get_type()
    assert kind.short_name == "pyramid_solitaire" and game.num_players() == 1
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.max_game_length() == openspiel.move_limit(get_rules(rules))
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.observation_tensor_shape() == [Layout(get_rules(rules)).size]
    fixed = pyspiel.load_game(f"pyramid_solitaire(rules={rules},deal=11)")
    assert fixed.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert fixed.new_initial_state().current_player() == 0
    # OpenSpiel's own consistency checker: random games, clones, observations, serialisation.
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    pyspiel.random_sim_test(fixed, num_sims=1, serialize=False, verbose=False)


def test_the_state_plays_the_engine_rules() -> None:
    """The OpenSpiel state (on the fast engine) and the engine face agree move for move."""
    rng = random.Random(5)
    for rules in ONE_DECK:
        for deal in range(3):
            state, twin = dealt(rules, deal), PyramidGame(rules).new_initial_state(deal)
            while not twin.is_terminal():
                assert state.legal_actions() == twin.legal_actions()
                action = rng.choice(state.legal_actions())
                state.apply_action(action)
                twin.apply_action(action)
            assert state.is_terminal() and state.returns() == twin.returns()


def test_mcts_plays_twenty_medium_deals() -> None:
    """OpenSpiel's MCTSBot, unchanged, plays 20 chance-dealt medium games through OpenSpiel's
    evaluate loop; each game replays in the engine to the same result."""
    game = pyspiel.load_game("pyramid_solitaire(rules=medium)")
    rng = np.random.RandomState(2)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=3,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)),
        random_state=np.random.RandomState(4),
        solve=True,
    )
    wins = 0
    for _ in range(20):
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, [bot], rng)
        history = state.history()
        deal, moves = history[:52], history[52:]
        assert sorted(deal) == list(range(52)) and 0 < len(moves) <= game.max_game_length()
        engine = Game("medium", deal)
        for action in moves:
            engine.play(action_to_move(action))
        assert engine.status is not Status.PLAYING
        assert returns == [1.0 if engine.status is Status.WON else 0.0]
        wins += int(returns[0])
    print(f"MCTSBot (3 simulations) won {wins} of 20 medium deals")
    assert wins < 20  # medium is not always won, even by the solver (about 2 in 3 deals)


def test_ismcts_plays_with_resampled_stocks() -> None:
    game = pyspiel.load_game("pyramid_solitaire(rules=hard,deal=3)")
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
        2.0,
        4,
        random_state=np.random.RandomState(2),
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.returns()[0] in (0.0, 1.0)


def test_observations_hide_the_stock_order() -> None:
    for rules in ("medium", "relaxed", "apophis", "egypt"):
        state = dealt(rules, 21)
        for _ in range(3):
            state.apply_action(DRAW_ACTION)
        twin = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert twin.fast_game.stock != state.fast_game.stock, "the hidden stock was not changed"
        assert sorted(twin.fast_game.stock) == sorted(state.fast_game.stock)
        assert twin.observation_string(0) == state.observation_string(0)
        assert twin.information_state_string(0) == state.information_state_string(0)
        assert twin.observation_tensor(0) == state.observation_tensor(0)
        assert twin.information_state_tensor(0) == state.information_state_tensor(0)
        assert twin.legal_actions() == state.legal_actions()
        assert str(twin) != str(state)  # the debug picture shows the true stock


def test_information_state_remembers_what_was_seen() -> None:
    state = dealt("medium", 8)
    while DRAW_ACTION in state.legal_actions():
        state.apply_action(DRAW_ACTION)
    state.apply_action(state.string_to_action("redeal"))
    assert "next first:" in state.information_state_string(0)
    assert "next first:" not in state.observation_string(0)
    assert state.observation_tensor(0) != state.information_state_tensor(0)


def test_bad_parameters_and_actions_are_refused() -> None:
    with pytest.raises(InvalidRulesError, match="klondike"):
        openspiel.PyramidSolitaireGame({"rules": "klondike"})
    with pytest.raises(InvalidDealError, match="deal must be -1"):
        openspiel.PyramidSolitaireGame({"deal": -5})
    with pytest.raises(InvalidRulesError, match="max_moves"):
        openspiel.PyramidSolitaireGame({"max_moves": 0})
    state = dealt("medium", 7)
    before = state.observation_string(0), state.history()
    with pytest.raises(IllegalMoveError, match="not one of the"):
        state.apply_action(0 * 52 + 1)
    with pytest.raises(InvalidMoveError, match="names no pair"):
        state.apply_action(52)
    assert (state.observation_string(0), state.history()) == before


def test_clone_is_independent_and_the_move_limit_ends_a_game() -> None:
    state = dealt("easy", 4)
    child = state.clone()
    child.apply_action(DRAW_ACTION)
    assert state.moves_played == 0 and child.moves_played == 1
    assert len(child.history()) == len(state.history()) + 1
    short = pyspiel.load_game("pyramid_solitaire(rules=easy,deal=4,max_moves=3)")
    assert short.max_game_length() == 3
    state = short.new_initial_state()
    for _ in range(3):
        state.apply_action(DRAW_ACTION)
    assert state.is_terminal() and state.returns() == [0.0] and state.legal_actions() == []


def test_playout_evaluators_value_a_leaf_by_playing_it_out() -> None:
    won = next(d for d in range(200) if play_game("greedy", "medium", d).won)
    lost = next(d for d in range(200) if not play_game("greedy", "medium", d).won)
    greedy = openspiel.GreedyPlayoutEvaluator(random.Random(0))
    assert list(greedy.evaluate(dealt("medium", won))) == [1.0]
    assert list(greedy.evaluate(dealt("medium", lost))) == [0.0]
    uniform = openspiel.RandomPlayoutEvaluator(random.Random(0))
    values = {float(uniform.evaluate(dealt("easy", won))[0]) for _ in range(30)}
    assert values <= {0.0, 1.0}
    state = dealt("medium", won)
    assert sum(p for _, p in uniform.prior(state)) == pytest.approx(1.0)
    with pytest.raises(InvalidDealError):
        greedy.evaluate(pyspiel.load_game("pyramid_solitaire").new_initial_state())
